"""acl.op's Python rules: handle lists in, attributes set from lists, and single operators run
through them: a model written by atc --singleop and loaded with acl.op.load, then
acl.op.execute_v2, acl.op.create_handle / execute_with_handle and acl.op.cast on numpy data."""
import os
import subprocess

import numpy as np
import pytest

from conftest import ACL_ERROR_INVALID_PARAM, ACL_FLOAT, ACL_FORMAT_ND, ACL_SUCCESS

ACL_FLOAT16 = 1
ACL_INT32 = 3
ACL_ERROR_OP_NOT_FOUND = 100024
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2


@pytest.fixture
def attr(acl):
    handle = acl.op.create_attr()
    assert handle != 0
    yield handle
    assert acl.op.destroy_attr(handle) is None


def test_execute_v2_passes_its_lists_to_the_c_function(acl, runtime):
    desc = acl.create_tensor_desc(ACL_FLOAT, [4], ACL_FORMAT_ND)
    ret = acl.op.execute_v2("Sub", [desc, desc], [0, 0], [desc], [0], 0, runtime["stream"])
    assert ret == ACL_ERROR_INVALID_PARAM  # buffers 0: no data buffers
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
    assert handle == 0 and ret == ACL_ERROR_INVALID_PARAM  # descriptor 0 is no description


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
        acl.op.register_compile_func("PySelected", 42)
    # A type of its own: a selector decides what runs its type for the rest of the process.
    assert acl.op.register_compile_func("PySelected", lambda *a: 0) == ACL_SUCCESS
    assert acl.op.register_compile_func("PySelected", lambda *a: 0) == 100030  # registered
    assert acl.op.unregister_compile_func("PySelected") == ACL_SUCCESS


# ---- Running operators ----

OPS_JSON = """[
  {"op": "Add",
   "input_desc": [{"format": "ND", "shape": [2, 3], "type": "float"},
                  {"format": "ND", "shape": [2, 3], "type": "float"}],
   "output_desc": [{"format": "ND", "shape": [2, 3], "type": "float"}]},
  {"op": "Cast", "name": "cast",
   "input_desc": [{"format": "ND", "shape": [-1], "shape_range": [[1, 16]], "type": "float"}],
   "output_desc": [{"format": "ND", "shape": [-1], "type": "float16"}],
   "attr": [{"name": "truncate", "type": "bool", "value": false},
            {"name": "dst_type", "type": "int", "value": 1}]}
]"""


@pytest.fixture(scope="module")
def models(acl, runtime, tmp_path_factory):
    """atc --singleop's models, loaded with acl.op.load (once: the runtime keeps them)."""
    atc = os.environ.get("OPENACL_ATC")
    if not atc:
        pytest.skip("OPENACL_ATC names no atc binary")
    directory = tmp_path_factory.mktemp("ops")
    (directory / "ops.json").write_text(OPS_JSON)
    subprocess.run([atc, "--singleop=" + str(directory / "ops.json"),
                    "--output=" + str(directory / "out")], check=True, capture_output=True)
    for path in sorted((directory / "out").iterdir()):
        data = path.read_bytes()
        assert acl.op.load(acl.util.bytes_to_ptr(data), len(data)) == ACL_SUCCESS
    return directory


class Tensor:
    """A tensor description and a data buffer over device memory holding `array`."""

    def __init__(self, acl, array, dtype):
        self.acl = acl
        self.array = np.ascontiguousarray(array)
        self.desc = acl.create_tensor_desc(dtype, list(self.array.shape), ACL_FORMAT_ND)
        self.dev, ret = acl.rt.malloc(self.array.nbytes, 0)
        assert ret == ACL_SUCCESS
        data = self.array.tobytes()
        assert acl.rt.memcpy(self.dev, len(data), acl.util.bytes_to_ptr(data), len(data),
                             ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS
        self.buffer = acl.create_data_buffer(self.dev, self.array.nbytes)

    def read(self):
        out = bytes(self.array.nbytes)
        assert self.acl.rt.memcpy(self.acl.util.bytes_to_ptr(out), len(out), self.dev, len(out),
                                  ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS
        return np.frombuffer(out, dtype=self.array.dtype).reshape(self.array.shape)

    def close(self):
        self.acl.destroy_data_buffer(self.buffer)
        self.acl.destroy_tensor_desc(self.desc)
        self.acl.rt.free(self.dev)


def test_execute_v2_adds_numpy_arrays(acl, runtime, models):
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.full((2, 3), 0.5, dtype=np.float32)
    x1, x2, y = Tensor(acl, a, ACL_FLOAT), Tensor(acl, b, ACL_FLOAT), \
        Tensor(acl, np.zeros((2, 3), np.float32), ACL_FLOAT)
    ret = acl.op.execute_v2("Add", [x1.desc, x2.desc], [x1.buffer, x2.buffer], [y.desc],
                            [y.buffer], 0, runtime["stream"])
    assert ret == ACL_SUCCESS, acl.get_recent_err_msg()
    assert acl.rt.synchronize_stream(runtime["stream"]) == ACL_SUCCESS
    np.testing.assert_array_equal(y.read(), a + b)
    for t in (x1, x2, y):
        t.close()


def test_execute_v2_without_a_matching_model_is_op_not_found(acl, runtime, models):
    x = Tensor(acl, np.zeros(4, np.float32), ACL_FLOAT)
    ret = acl.op.execute_v2("Add", [x.desc, x.desc], [x.buffer, x.buffer], [x.desc], [x.buffer],
                            0, runtime["stream"])
    assert ret == ACL_ERROR_OP_NOT_FOUND
    assert "no single-operator model matches Add" in acl.get_recent_err_msg()
    x.close()


def test_a_handle_runs_again_on_new_buffers(acl, runtime, models):
    shape = (2, 3)
    x1, x2, y = (Tensor(acl, np.zeros(shape, np.float32), ACL_FLOAT) for _ in range(3))
    handle, ret = acl.op.create_handle("Add", [x1.desc, x2.desc], [y.desc], 0)
    assert ret == ACL_SUCCESS, acl.get_recent_err_msg()
    for value in (1.0, 4.0):
        a = Tensor(acl, np.full(shape, value, np.float32), ACL_FLOAT)
        b = Tensor(acl, np.ones(shape, np.float32), ACL_FLOAT)
        assert acl.op.execute_with_handle(handle, [a.buffer, b.buffer], [y.buffer],
                                          runtime["stream"]) == ACL_SUCCESS
        assert acl.rt.synchronize_stream(runtime["stream"]) == ACL_SUCCESS
        np.testing.assert_array_equal(y.read(), np.full(shape, value + 1, np.float32))
        a.close()
        b.close()
    assert acl.op.destroy_handle(handle) is None
    for t in (x1, x2, y):
        t.close()


def test_cast_converts_with_the_cast_model(acl, runtime, models):
    src = Tensor(acl, np.array([0.5, -1.25, 3.0], np.float32), ACL_FLOAT)
    dst = Tensor(acl, np.zeros(3, np.float16), ACL_FLOAT16)
    assert acl.op.cast(src.desc, src.buffer, dst.desc, dst.buffer, 0,
                       runtime["stream"]) == ACL_SUCCESS, acl.get_recent_err_msg()
    assert acl.rt.synchronize_stream(runtime["stream"]) == ACL_SUCCESS
    np.testing.assert_array_equal(dst.read(), np.array([0.5, -1.25, 3.0], np.float16))
    src.close()
    dst.close()
