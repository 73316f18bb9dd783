"""Shared fixtures for the pyACL tests. Each test file runs in its own Python process (ctest
registers them one by one), because aclInit/aclFinalize are once per process, as on an NPU."""
import os
import subprocess
import sys
import textwrap

import pytest

# The constants a pyACL script defines itself (the module exports none).
ACL_SUCCESS = 0
ACL_ERROR_INVALID_PARAM = 100000
ACL_ERROR_RT_FEATURE_NOT_SUPPORT = 207000
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_HOST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_MEMCPY_DEVICE_TO_DEVICE = 3
ACL_CALLBACK_NO_BLOCK = 0
ACL_CALLBACK_BLOCK = 1
ACL_FLOAT = 0
ACL_FORMAT_ND = 2
NPY_FLOAT32 = 11


@pytest.fixture(scope="module")
def acl():
    import acl as module
    return module


@pytest.fixture(scope="module")
def runtime(acl):
    """aclInit, device 0, a context and a stream for the whole file; torn down in C order."""
    assert acl.init() == ACL_SUCCESS
    assert acl.rt.set_device(0) == ACL_SUCCESS
    context, ret = acl.rt.create_context(0)
    assert ret == ACL_SUCCESS
    stream, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    yield {"context": context, "stream": stream}
    assert acl.rt.destroy_stream(stream) == ACL_SUCCESS
    assert acl.rt.destroy_context(context) == ACL_SUCCESS
    assert acl.rt.reset_device(0) == ACL_SUCCESS
    assert acl.finalize() == ACL_SUCCESS


def run_python(code, timeout=60):
    """Runs code in a fresh interpreter (same environment); returns the CompletedProcess."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=timeout, env=os.environ.copy())
