"""Memory and copies from Python: device and host allocations, memcpy kinds, and numpy data
moved through acl.util's pointer helpers."""
import warnings

import numpy as np

from conftest import (ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEMCPY_DEVICE_TO_DEVICE,
                      ACL_MEMCPY_DEVICE_TO_HOST, ACL_MEMCPY_HOST_TO_DEVICE, ACL_SUCCESS,
                      NPY_FLOAT32)


def upload(acl, array):
    """The samples' idiom: bytes_to_ptr of arr.tobytes() as the host source."""
    blob = array.tobytes()
    dev, ret = acl.rt.malloc(len(blob), ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == ACL_SUCCESS
    src = acl.util.bytes_to_ptr(blob)
    assert acl.rt.memcpy(dev, len(blob), src, len(blob), ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS
    return dev, len(blob)


def test_malloc_returns_a_pointer_and_free_releases_it(acl, runtime):
    dev, ret = acl.rt.malloc(1024, ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == ACL_SUCCESS and isinstance(dev, int) and dev != 0
    assert acl.rt.free(dev) == ACL_SUCCESS


def test_malloc_of_zero_bytes_is_the_c_error(acl, runtime):
    dev, ret = acl.rt.malloc(0, ACL_MEM_MALLOC_HUGE_FIRST)
    assert (dev, ret) == (0, 100000)  # ACL_ERROR_INVALID_PARAM, as in C


def test_get_mem_info_reports_free_and_total(acl, runtime):
    free, total, ret = acl.rt.get_mem_info(1)  # ACL_HBM_MEM
    assert ret == ACL_SUCCESS and 0 < free <= total


def test_numpy_round_trip_through_device_with_ptr_to_bytes(acl, runtime):
    data = np.arange(256, dtype=np.float32) * 0.5
    dev, size = upload(acl, data)
    host, ret = acl.rt.malloc_host(size)
    assert ret == ACL_SUCCESS
    assert acl.rt.memcpy(host, size, dev, size, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS
    back = np.frombuffer(acl.util.ptr_to_bytes(host, size), dtype=np.float32)
    np.testing.assert_array_equal(back, data)
    assert acl.rt.free_host(host) == ACL_SUCCESS
    assert acl.rt.free(dev) == ACL_SUCCESS


def test_device_results_can_be_written_into_a_bytes_object(acl, runtime):
    # acllite's idiom: memcpy D2H into the buffer of np.zeros(...).tobytes(), then frombuffer.
    data = np.linspace(-1, 1, 64, dtype=np.float32)
    dev, size = upload(acl, data)
    out = np.zeros(64, dtype=np.float32).tobytes()
    dst = acl.util.bytes_to_ptr(out)
    assert acl.rt.memcpy(dst, size, dev, size, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS
    np.testing.assert_array_equal(np.frombuffer(out, dtype=np.float32), data)
    assert acl.rt.free(dev) == ACL_SUCCESS


def test_bytes_to_ptr_is_the_objects_own_buffer_not_a_copy(acl):
    blob = b"openacl!"
    assert acl.util.ptr_to_bytes(acl.util.bytes_to_ptr(blob), len(blob)) == blob
    assert acl.util.bytes_to_ptr(blob) == acl.util.bytes_to_ptr(blob)


def test_bytes_to_ptr_accepts_only_bytes(acl):
    import pytest
    for wrong in (bytearray(b"ab"), "ab", np.zeros(2)):
        with pytest.raises(TypeError):
            acl.util.bytes_to_ptr(wrong)


def test_device_to_device_copy_and_memset(acl, runtime):
    data = np.arange(32, dtype=np.int32)
    a, size = upload(acl, data)
    b, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == ACL_SUCCESS
    assert acl.rt.memcpy(b, size, a, size, ACL_MEMCPY_DEVICE_TO_DEVICE) == ACL_SUCCESS
    assert acl.rt.memset(a, size, 0, size) == ACL_SUCCESS
    out_a, out_b = bytes(size), bytes(size)
    for dev, out in ((a, out_a), (b, out_b)):
        ptr = acl.util.bytes_to_ptr(out)
        assert acl.rt.memcpy(ptr, size, dev, size, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS
    assert not np.frombuffer(out_a, dtype=np.int32).any()
    np.testing.assert_array_equal(np.frombuffer(out_b, dtype=np.int32), data)
    assert acl.rt.free(a) == ACL_SUCCESS and acl.rt.free(b) == ACL_SUCCESS


def test_memcpy_async_then_synchronize_stream(acl, runtime):
    data = np.arange(1000, dtype=np.float32)
    dev, size = upload(acl, data)
    out = bytes(size)
    assert acl.rt.memcpy_async(acl.util.bytes_to_ptr(out), size, dev, size,
                               ACL_MEMCPY_DEVICE_TO_HOST, runtime["stream"]) == ACL_SUCCESS
    assert acl.rt.synchronize_stream(runtime["stream"]) == ACL_SUCCESS
    np.testing.assert_array_equal(np.frombuffer(out, dtype=np.float32), data)
    assert acl.rt.free(dev) == ACL_SUCCESS


def test_old_numpy_helpers_still_work_with_a_deprecation_warning(acl, runtime):
    data = np.arange(12, dtype=np.float32).reshape(3, 4)
    host, ret = acl.rt.malloc_host(data.nbytes)
    assert ret == ACL_SUCCESS
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        src = acl.util.numpy_to_ptr(data)
        assert acl.rt.memcpy(host, data.nbytes, src, data.nbytes, 0) == ACL_SUCCESS
        view = acl.util.ptr_to_numpy(host, (3, 4), NPY_FLOAT32)
        np.testing.assert_array_equal(view, data)
        view[0, 0] = 42.0  # a view over the memory, not a copy
        assert np.frombuffer(acl.util.ptr_to_bytes(host, 4), dtype=np.float32)[0] == 42.0
        ptr, contiguous = acl.util.numpy_contiguous_to_ptr(data.T)
        assert contiguous.flags["C_CONTIGUOUS"] and ptr == contiguous.ctypes.data
    assert any("deprecated" in str(w.message) for w in caught)
    assert acl.rt.free_host(host) == ACL_SUCCESS


def test_ptr_to_numpy_wants_a_tuple_shape(acl):
    import pytest
    with pytest.raises(TypeError):
        acl.util.ptr_to_numpy(1, [3, 4], NPY_FLOAT32)


def test_data_buffer_holds_a_pointer_and_size(acl, runtime):
    dev, ret = acl.rt.malloc(64, ACL_MEM_MALLOC_HUGE_FIRST)
    buf = acl.create_data_buffer(dev, 64)
    assert buf != 0
    assert acl.get_data_buffer_addr(buf) == dev
    assert acl.get_data_buffer_size_v2(buf) == 64
    assert acl.destroy_data_buffer(buf) == ACL_SUCCESS
    assert acl.rt.free(dev) == ACL_SUCCESS
