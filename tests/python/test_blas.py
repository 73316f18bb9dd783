"""acl.blas from Python: numpy matrices in device memory, a product on the stream, the result
checked against numpy's."""
import numpy as np

from conftest import ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEMCPY_DEVICE_TO_HOST, ACL_SUCCESS
from test_memory import upload

ACL_TRANS_N, ACL_TRANS_T = 0, 1
ACL_FLOAT, ACL_FLOAT16, ACL_INT8, ACL_INT32 = 0, 1, 2, 3
ACL_COMPUTE_HIGH_PRECISION = 0


def download(acl, dev, dtype, count):
    size = np.dtype(dtype).itemsize * count
    out = bytes(size)
    assert acl.rt.memcpy(acl.util.bytes_to_ptr(out), size, dev, size,
                         ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS
    return np.frombuffer(out, dtype=dtype)


def test_gemm_ex_matches_numpy(acl, runtime):
    rng = np.random.default_rng(7)
    m, n, k = 8, 6, 16
    a = rng.uniform(-1, 1, (k, m)).astype(np.float16)  # stored transposed
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    a_dev, _ = upload(acl, a)
    b_dev, _ = upload(acl, b)
    c_dev, ret = acl.rt.malloc(m * n * 4, ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == ACL_SUCCESS
    alpha, beta = np.float32(2.0).tobytes(), np.float32(0.0).tobytes()
    ret = acl.blas.gemm_ex(ACL_TRANS_T, ACL_TRANS_N, ACL_TRANS_N, m, n, k,
                           acl.util.bytes_to_ptr(alpha), a_dev, m, ACL_FLOAT16, b_dev, n,
                           ACL_FLOAT16, acl.util.bytes_to_ptr(beta), c_dev, n, ACL_FLOAT,
                           ACL_COMPUTE_HIGH_PRECISION, runtime["stream"])
    assert ret == ACL_SUCCESS
    assert acl.rt.synchronize_stream(runtime["stream"]) == ACL_SUCCESS
    got = download(acl, c_dev, np.float32, m * n).reshape(m, n)
    want = 2.0 * a.astype(np.float32).T @ b.astype(np.float32)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    for p in (a_dev, b_dev, c_dev):
        assert acl.rt.free(p) == ACL_SUCCESS


def test_s8gemm_is_exact(acl, runtime):
    rng = np.random.default_rng(8)
    m, n, k = 4, 5, 64
    a = rng.integers(-128, 128, (m, k), dtype=np.int8)
    b = rng.integers(-128, 128, (k, n), dtype=np.int8)
    a_dev, _ = upload(acl, a)
    b_dev, _ = upload(acl, b)
    c_dev, _ = upload(acl, np.zeros((m, n), dtype=np.int32))
    one, zero = np.int32(1).tobytes(), np.int32(0).tobytes()
    ret = acl.blas.s8gemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k,
                          acl.util.bytes_to_ptr(one), a_dev, k, b_dev, n,
                          acl.util.bytes_to_ptr(zero), c_dev, n, ACL_COMPUTE_HIGH_PRECISION,
                          runtime["stream"])
    assert ret == ACL_SUCCESS
    assert acl.rt.synchronize_stream(runtime["stream"]) == ACL_SUCCESS
    got = download(acl, c_dev, np.int32, m * n).reshape(m, n)
    np.testing.assert_array_equal(got, a.astype(np.int32) @ b.astype(np.int32))
    for p in (a_dev, b_dev, c_dev):
        assert acl.rt.free(p) == ACL_SUCCESS


def test_operator_handles_are_planned_gemms(acl, runtime):
    handle, ret = acl.blas.create_handle_for_hgemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 2, 2, 2,
                                                   ACL_COMPUTE_HIGH_PRECISION)
    assert ret == ACL_SUCCESS and handle != 0
    assert acl.op.destroy_handle(handle) is None
