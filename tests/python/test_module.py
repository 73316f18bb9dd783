"""The acl module's shape: namespaces, no constants, pyACL's argument rules."""
import sys

import pytest

from conftest import ACL_ERROR_INVALID_PARAM, ACL_SUCCESS, run_python

NAMESPACES = ["rt", "mdl", "op", "media", "util", "prof", "blas", "himpi", "fv"]


def test_namespaces_are_attributes_and_modules(acl):
    for name in NAMESPACES:
        sub = getattr(acl, name)
        assert sys.modules[f"acl.{name}"] is sub


def test_import_acl_rt_works_after_import_acl():
    result = run_python("import acl.rt, acl.mdl\nprint(acl.rt.malloc.__name__)")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "malloc"


def test_module_exports_no_constants(acl):
    for module in [acl] + [getattr(acl, n) for n in NAMESPACES]:
        public = [n for n in dir(module) if not n.startswith("_")]
        assert all(callable(getattr(module, n)) or n in NAMESPACES for n in public), module


def test_get_run_mode_works_before_init():
    result = run_python("import acl\nprint(acl.rt.get_run_mode())")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "(1, 0)"  # ACL_HOST, ACL_SUCCESS


def test_keyword_arguments_are_rejected(acl):
    with pytest.raises(TypeError):
        acl.rt.malloc(size=16, policy=0)


def test_wrong_argument_type_raises_type_error_with_signature(acl):
    with pytest.raises(TypeError) as err:
        acl.rt.malloc("16", 0)
    assert "acl.rt.malloc(size: int, policy: int)" in str(err.value)


def test_wrong_argument_count_raises_type_error_with_signature(acl):
    with pytest.raises(TypeError) as err:
        acl.rt.free()
    assert "acl.rt.free(dev_ptr: int) -> ret" in str(err.value)
    assert "takes 1 positional argument but 0 were given" in str(err.value)


def test_none_is_not_a_pointer(acl):
    with pytest.raises(TypeError):
        acl.rt.free(None)


def test_a_tuple_is_not_a_dims_list(acl):
    with pytest.raises(TypeError) as err:
        acl.create_tensor_desc(0, (2, 3), 2)
    assert "acl.create_tensor_desc(dtype: int, dims: list[int], format: int)" in str(err.value)


def test_str_arguments_reject_bytes(acl):
    with pytest.raises(TypeError):
        acl.mdl.load_from_file(b"model.om")


def test_api_failure_returns_the_c_error_code_and_never_raises(acl):
    # Before aclInit nothing is set up: the C code, not an exception.
    _, ret = acl.rt.malloc(16, 0)
    assert ret != ACL_SUCCESS
    assert isinstance(acl.get_recent_err_msg(), (str, type(None)))


def test_bad_value_gives_the_c_error_code(acl):
    assert acl.rt.process_report(0) == ACL_ERROR_INVALID_PARAM
    message = acl.get_recent_err_msg()
    assert isinstance(message, str) and "timeout" in message


def test_negative_pointer_wraps_like_pyacl(acl):
    # Unsigned parameters take any int (no overflow check): -1 is 0xffff...ffff, an API error.
    assert acl.rt.free(-1) != ACL_SUCCESS


def test_float16_conversions_round_trip(acl):
    bits = acl.float_to_float16(1.5)
    assert bits == 0x3E00
    assert acl.float16_to_float(bits) == 1.5


def test_each_function_documents_its_call_and_the_c_function_it_wraps(acl):
    assert acl.rt.malloc.__doc__.startswith("acl.rt.malloc(size, policy) -> (dev_ptr, ret)")
    assert "Wraps aclrtMalloc." in acl.rt.malloc.__doc__
    assert "Wraps aclrtSetCurrentContext." in acl.rt.set_context.__doc__
