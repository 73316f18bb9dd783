"""Kernels from Python: load openacl's example kernel binary, launch vector_add with an
arguments block in device memory, and with a kernel-args handle and a launch configuration."""
import os
import struct

import numpy as np
import pytest

from conftest import (ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEMCPY_DEVICE_TO_HOST,
                      ACL_MEMCPY_HOST_TO_DEVICE, ACL_SUCCESS)

N = 4096


@pytest.fixture
def vector_add(acl, runtime):
    path = os.environ.get("OPENACL_EXAMPLE_KERNELS")
    if not path:
        pytest.fail("OPENACL_EXAMPLE_KERNELS is not set (ctest sets it)")
    binary, ret = acl.rt.binary_load_from_file(path, [])
    assert ret == ACL_SUCCESS
    func, ret = acl.rt.binary_get_function(binary, "vector_add")
    assert ret == ACL_SUCCESS
    yield func
    assert acl.rt.binary_unload(binary) == ACL_SUCCESS


@pytest.fixture
def vectors(acl, runtime):
    x = np.arange(N, dtype=np.float32)
    y = np.full(N, 0.5, dtype=np.float32)
    devs = []
    for array in (x, y, np.zeros(N, dtype=np.float32)):
        dev, ret = acl.rt.malloc(array.nbytes, ACL_MEM_MALLOC_HUGE_FIRST)
        assert ret == ACL_SUCCESS
        blob = array.tobytes()
        assert acl.rt.memcpy(dev, len(blob), acl.util.bytes_to_ptr(blob), len(blob),
                             ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS
        devs.append(dev)
    yield devs, x + y
    for dev in devs:
        assert acl.rt.free(dev) == ACL_SUCCESS


def result(acl, dev):
    out = bytes(N * 4)
    assert acl.rt.memcpy(acl.util.bytes_to_ptr(out), len(out), dev, len(out),
                         ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS
    return np.frombuffer(out, dtype=np.float32)


def test_launch_kernel_with_an_arguments_block(acl, runtime, vector_add, vectors):
    (x, y, z), expected = vectors
    slots = struct.pack("<4Q", x, y, z, N)
    args, _ = acl.rt.malloc(len(slots), ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.rt.memcpy(args, len(slots), acl.util.bytes_to_ptr(slots), len(slots),
                         ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS
    assert acl.rt.launch_kernel(vector_add, 8, args, len(slots), runtime["stream"]) == 0
    assert acl.rt.synchronize_stream(runtime["stream"]) == ACL_SUCCESS
    np.testing.assert_array_equal(result(acl, z), expected)
    assert acl.rt.free(args) == ACL_SUCCESS


def test_launch_kernel_with_config_and_kernel_args(acl, runtime, vector_add, vectors):
    (x, y, z), expected = vectors
    handle, ret = acl.rt.kernel_args_init(vector_add)
    assert ret == ACL_SUCCESS
    for value in (x, y, z, N):
        slot = struct.pack("<Q", value)
        _, ret = acl.rt.kernel_args_append(handle, acl.util.bytes_to_ptr(slot), len(slot))
        assert ret == ACL_SUCCESS
    assert acl.rt.kernel_args_finalize(handle) == ACL_SUCCESS
    assert acl.rt.launch_kernel_with_config(vector_add, 8, runtime["stream"], [], handle,
                                            0) == ACL_SUCCESS
    assert acl.rt.synchronize_stream(runtime["stream"]) == ACL_SUCCESS
    np.testing.assert_array_equal(result(acl, z), expected)


def test_loading_a_missing_binary_is_the_c_error(acl, runtime):
    handle, ret = acl.rt.binary_load_from_file("/nonexistent/kernels.so", [])
    assert handle == 0 and ret != ACL_SUCCESS


def test_binary_options_are_a_list_of_dicts(acl, runtime):
    with pytest.raises(TypeError, match="binary_load_from_file"):
        acl.rt.binary_load_from_file("/nonexistent/kernels.so", [("type", 1)])
