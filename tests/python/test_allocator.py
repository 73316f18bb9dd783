"""External allocators from Python: acl.rt.allocator_* describe an allocator whose functions
are Python callables and register it on a stream. openacl needs no stream workspace, so the
runtime never calls them; these tests call the C functions the binding registered (read back
with aclrtAllocatorGetByStream through ctypes) to show they reach the Python functions."""
import ctypes
import os
import threading

from conftest import ACL_SUCCESS

ACL_ERROR_INVALID_PARAM = 100000

ALLOC = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)
FREE = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)
ADVISE = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p)
ADDR = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p)


def registered(stream):
    """What aclrtAllocatorGetByStream reports for stream, as callable C functions."""
    lib = ctypes.CDLL("libascendcl.so", mode=os.RTLD_NOLOAD)  # the library acl already loaded
    out = [ctypes.c_void_p() for _ in range(6)]
    ret = lib.aclrtAllocatorGetByStream(ctypes.c_void_p(stream), *[ctypes.byref(o) for o in out])
    assert ret == ACL_SUCCESS
    desc, obj, alloc, free, advise, addr = (o.value for o in out)
    return {"desc": desc, "obj": obj,
            "alloc": alloc and ALLOC(alloc), "free": free and FREE(free),
            "advise": advise and ADVISE(advise), "addr": addr and ADDR(addr)}


class PyAllocator:
    """A toy allocator: blocks are ints handed out from a counter; records every call."""

    def __init__(self):
        self.calls, self.next = [], 0x1000

    def alloc(self, obj, size):
        self.calls.append(("alloc", obj, size, threading.get_ident()))
        self.next += 0x1000
        return self.next

    def free(self, obj, block):
        self.calls.append(("free", obj, block))

    def advise(self, obj, size, addr):
        self.calls.append(("advise", obj, size, addr))
        return addr

    def addr(self, block):
        self.calls.append(("addr", block))
        return block + 16


def describe(acl, a, obj=0x42):
    desc = acl.rt.allocator_create_desc()
    assert desc != 0
    assert acl.rt.allocator_set_obj_to_desc(desc, obj) == ACL_SUCCESS
    assert acl.rt.allocator_set_alloc_func_to_desc(desc, a.alloc) == ACL_SUCCESS
    assert acl.rt.allocator_set_free_func_to_desc(desc, a.free) == ACL_SUCCESS
    assert acl.rt.allocator_set_alloc_advise_func_to_desc(desc, a.advise) == ACL_SUCCESS
    assert acl.rt.allocator_set_get_addr_from_block_func_to_desc(desc, a.addr) == ACL_SUCCESS
    return desc


def test_registered_functions_call_the_python_ones(acl, runtime):
    stream, a = runtime["stream"], PyAllocator()
    desc = describe(acl, a)
    assert acl.rt.allocator_register(stream, desc) == ACL_SUCCESS
    r = registered(stream)
    assert r["desc"] == desc and r["obj"] == 0x42
    block = r["alloc"](0x42, 256)
    assert block == 0x2000
    assert r["addr"](block) == 0x2010
    assert r["advise"](0x42, 64, 0x9000) == 0x9000
    r["free"](0x42, block)
    assert [c[0] for c in a.calls] == ["alloc", "addr", "advise", "free"]
    assert a.calls[0][1:3] == (0x42, 256)
    assert acl.rt.allocator_unregister(stream) == ACL_SUCCESS
    assert registered(stream)["desc"] is None
    assert acl.rt.allocator_destroy_desc(desc) == ACL_SUCCESS


def test_each_allocator_keeps_its_own_functions(acl, runtime):
    stream = runtime["stream"]
    first, second = PyAllocator(), PyAllocator()
    d1, d2 = describe(acl, first), describe(acl, second)
    assert acl.rt.allocator_register(stream, d1) == ACL_SUCCESS
    f1 = registered(stream)
    assert acl.rt.allocator_register(stream, d2) == ACL_SUCCESS
    f2 = registered(stream)
    f1["addr"](0x100)
    f2["addr"](0x200)
    assert first.calls == [("addr", 0x100)] and second.calls == [("addr", 0x200)]
    acl.rt.allocator_unregister(stream)
    acl.rt.allocator_destroy_desc(d1)
    acl.rt.allocator_destroy_desc(d2)


def test_a_function_that_raises_is_reported_and_gives_null(acl, runtime, capfd):
    stream = runtime["stream"]

    def broken_alloc(obj, size):
        raise MemoryError("pool exhausted")

    a = PyAllocator()
    desc = describe(acl, a)
    assert acl.rt.allocator_set_alloc_func_to_desc(desc, broken_alloc) == ACL_SUCCESS
    assert acl.rt.allocator_register(stream, desc) == ACL_SUCCESS
    assert registered(stream)["alloc"](0x42, 8) is None
    assert "pool exhausted" in capfd.readouterr().err
    acl.rt.allocator_unregister(stream)
    acl.rt.allocator_destroy_desc(desc)


def test_a_non_callable_is_a_type_error(acl):
    import pytest
    desc = acl.rt.allocator_create_desc()
    with pytest.raises(TypeError, match="allocator_set_free_func_to_desc"):
        acl.rt.allocator_set_free_func_to_desc(desc, 5)
    acl.rt.allocator_destroy_desc(desc)


def test_a_dead_description_is_invalid_param(acl):
    desc = acl.rt.allocator_create_desc()
    assert acl.rt.allocator_destroy_desc(desc) == ACL_SUCCESS
    assert acl.rt.allocator_set_alloc_func_to_desc(desc, PyAllocator().alloc) == \
        ACL_ERROR_INVALID_PARAM


def test_create_kernel_reaches_the_c_function(acl):
    # The binding passes aclopCreateKernel's answer on: a null binary is invalid.
    ret = acl.op.create_kernel("Add", "add_kernel", "add", 0, 0, 0, 1)
    assert ret == ACL_ERROR_INVALID_PARAM


def test_setting_the_same_function_again_takes_no_new_slot(acl):
    # 32 distinct functions per kind fit; an equal bound method reuses its slot.
    a, desc = PyAllocator(), acl.rt.allocator_create_desc()
    for _ in range(100):
        assert acl.rt.allocator_set_alloc_func_to_desc(desc, a.alloc) == ACL_SUCCESS
    acl.rt.allocator_destroy_desc(desc)


def test_more_than_32_distinct_functions_of_a_kind_are_refused(acl, capfd):
    # Last in this file: it uses up this process's free-function slots.
    desc, answers = acl.rt.allocator_create_desc(), []
    for i in range(40):
        answers.append(acl.rt.allocator_set_free_func_to_desc(desc, lambda obj, block, i=i: i))
    assert ACL_SUCCESS in answers and answers[-1] == 500001  # ACL_ERROR_FAILURE
    assert "other Python functions of this kind" in capfd.readouterr().err
    acl.rt.allocator_destroy_desc(desc)
