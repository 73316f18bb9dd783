"""acl.op's Python rules: handle lists in, attributes set from lists. openacl does not run
single operators yet, so the calls answer the C functions' ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
what is tested here is that the lists reach C and that wrong shapes are TypeErrors."""
import pytest

from conftest import ACL_ERROR_RT_FEATURE_NOT_SUPPORT, ACL_FLOAT, ACL_FORMAT_ND

NOT_SUPPORTED = ACL_ERROR_RT_FEATURE_NOT_SUPPORT


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


def test_set_attr_data_types_echo_the_attr(acl):
    assert acl.op.set_attr_data_type(1234, "T", ACL_FLOAT) == (1234, NOT_SUPPORTED)
    assert acl.op.set_attr_list_data_type(1234, "T", [0, 1]) == (1234, NOT_SUPPORTED)


def test_attribute_lists_accept_lists_and_ndarrays_with_a_warning(acl):
    import numpy as np
    assert acl.op.set_attr_list_int(0, "axes", [1, 2]) == NOT_SUPPORTED
    with pytest.warns(Warning, match="deprecated"):
        assert acl.op.set_attr_list_float(0, "s", np.ones(2)) == NOT_SUPPORTED
    assert acl.op.set_attr_list_list_int(0, "ll", [[1], [2, 3]]) == NOT_SUPPORTED
    with pytest.raises(TypeError):
        acl.op.set_attr_list_string(0, "names", ["a", 1])


def test_register_compile_func_wants_a_callable_and_answers_the_c_code(acl):
    with pytest.raises(TypeError, match="register_compile_func"):
        acl.op.register_compile_func("Add", 42)
    assert acl.op.register_compile_func("Add", lambda *a: 0) == NOT_SUPPORTED
