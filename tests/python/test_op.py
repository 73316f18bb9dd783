"""acl.op's Python rules: handle lists in, attributes set from lists. Attribute sets are real
(aclopCreateAttr and the setters); openacl does not run single operators yet, so the execution
calls answer the C functions' ACL_ERROR_RT_FEATURE_NOT_SUPPORT, and what is tested there is that
the lists reach C and that wrong shapes are TypeErrors."""
import pytest

from conftest import (ACL_ERROR_INVALID_PARAM, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, ACL_FLOAT,
                      ACL_FORMAT_ND, ACL_SUCCESS)

NOT_SUPPORTED = ACL_ERROR_RT_FEATURE_NOT_SUPPORT
ACL_FLOAT16 = 1
ACL_INT32 = 3


@pytest.fixture
def attr(acl):
    handle = acl.op.create_attr()
    assert handle != 0
    yield handle
    assert acl.op.destroy_attr(handle) is None


def test_execute_v2_passes_its_lists_to_the_c_function(acl, runtime):
    desc = acl.create_tensor_desc(ACL_FLOAT, [4], ACL_FORMAT_ND)
    ret = acl.op.execute_v2("Add", [desc, desc], [0, 0], [desc], [0], 0, runtime["stream"])
    assert ret == NOT_SUPPORTED
    assert "aclopExecuteV2" in acl.get_recent_err_msg()
    acl.destroy_tensor_desc(desc)


def test_execute_v2_wants_lists_not_tuples(acl, runtime):
    with pytest.raises(TypeError, match=r"acl\.op\.execute_v2\(op_type: str"):
        acl.op.execute_v2("Add", (0,), [0], [0], [0], 0, runtime["stream"])


def test_execute_v2_needs_a_buffer_per_descriptor(acl, runtime):
    with pytest.raises(ValueError):
        acl.op.execute_v2("Add", [0, 0], [0], [0], [0], 0, runtime["stream"])


def test_create_handle_returns_handle_and_ret(acl):
    handle, ret = acl.op.create_handle("Add", [0], [0], 0)
    assert handle == 0 and ret == NOT_SUPPORTED


def test_every_attribute_setter_stores_a_value(acl, attr):
    assert acl.op.set_attr_bool(attr, "keep_dims", True) == ACL_SUCCESS
    assert acl.op.set_attr_int(attr, "axis", -1) == ACL_SUCCESS
    assert acl.op.set_attr_float(attr, "alpha", 0.5) == ACL_SUCCESS
    assert acl.op.set_attr_string(attr, "mode", "nearest") == ACL_SUCCESS
    assert acl.op.set_attr_list_bool(attr, "flags", [True, False]) == ACL_SUCCESS
    assert acl.op.set_attr_list_int(attr, "axes", [0, 2]) == ACL_SUCCESS
    assert acl.op.set_attr_list_float(attr, "scales", [1.0, 2.5]) == ACL_SUCCESS
    assert acl.op.set_attr_list_string(attr, "names", ["x", "y"]) == ACL_SUCCESS
    assert acl.op.set_attr_list_list_int(attr, "pads", [[1, 1], [], [2]]) == ACL_SUCCESS
    assert acl.op.set_attr_list_int(attr, "empty", []) == ACL_SUCCESS


def test_set_attr_data_types_echo_the_attr(acl, attr):
    assert acl.op.set_attr_data_type(attr, "T", ACL_FLOAT16) == (attr, ACL_SUCCESS)
    assert acl.op.set_attr_list_data_type(attr, "Ts", [ACL_FLOAT, ACL_INT32]) == \
        (attr, ACL_SUCCESS)
    assert acl.op.set_attr_data_type(attr, "T", 999) == (attr, ACL_ERROR_INVALID_PARAM)


def test_a_set_that_is_no_attribute_set_is_refused(acl):
    assert acl.op.set_attr_int(0, "axis", 1) == ACL_ERROR_INVALID_PARAM
    assert "attr is null" in acl.get_recent_err_msg()
    assert acl.op.set_attr_data_type(1234, "T", ACL_FLOAT) == (1234, ACL_ERROR_INVALID_PARAM)
    assert "not a live attribute set" in acl.get_recent_err_msg()
    assert acl.op.destroy_attr(0) is None  # NULL: nothing to do


def test_attribute_lists_accept_lists_and_ndarrays_with_a_warning(acl, attr):
    import numpy as np
    assert acl.op.set_attr_list_int(attr, "axes", [1, 2]) == ACL_SUCCESS
    with pytest.warns(Warning, match="deprecated"):
        assert acl.op.set_attr_list_float(attr, "s", np.ones(2)) == ACL_SUCCESS
    assert acl.op.set_attr_list_list_int(attr, "ll", [[1], [2, 3]]) == ACL_SUCCESS
    with pytest.raises(TypeError):
        acl.op.set_attr_list_string(attr, "names", ["a", 1])


def test_register_compile_func_wants_a_callable_and_answers_the_c_code(acl):
    with pytest.raises(TypeError, match="register_compile_func"):
        acl.op.register_compile_func("Add", 42)
    assert acl.op.register_compile_func("Add", lambda *a: 0) == NOT_SUPPORTED
