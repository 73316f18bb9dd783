// Python allocators for acl.rt.allocator_set_*_func_to_desc. The C callbacks carry no pointer
// of ours (get_addr_from_block gets only the block), so each distinct Python function gets a
// trampoline of its own from a fixed set of slots per kind; setting an equal function again
// reuses its slot. The trampolines take the GIL, so the runtime may call them from any thread.
#include <array>
#include <cstdio>
#include <utility>

#include "pyacl.h"

namespace {

constexpr int kSlots = 32;  // distinct Python functions per kind and process

enum Kind { kAlloc, kFree, kAdvise, kAddr, kKinds };
PyObject* g_functions[kKinds][kSlots];  // owned references; guarded by the GIL

// Calls slot's function with args (a new reference, may be null); returns the result or null
// (the exception printed: a callback never raises into the runtime).
PyObject* Call(Kind kind, int slot, PyObject* args, const char* what) {
    PyObject* result = nullptr;
    if (args != nullptr && g_functions[kind][slot] != nullptr) {
        result = PyObject_CallObject(g_functions[kind][slot], args);
        if (result == nullptr) pyacl::ReportException(what);
    }
    Py_XDECREF(args);
    return result;
}

PyObject* PyPtr(const void* p) {
    return PyLong_FromUnsignedLongLong(
        static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(p)));
}

// A returned address: an int, or None for NULL; anything else is reported and taken as NULL.
void* AddressOf(PyObject* result, const char* what) {
    void* p = nullptr;
    if (result != nullptr && result != Py_None && !pyacl::ArgPointer(result, &p)) {
        pyacl::ReportException(what);
        p = nullptr;
    }
    Py_XDECREF(result);
    return p;
}

template <int N>
aclrtAllocatorBlock AllocTrampoline(aclrtAllocator allocator, size_t size) {
    if (!Py_IsInitialized()) return nullptr;
    PyGILState_STATE gil = PyGILState_Ensure();
    const char* what = "an acl.rt allocator alloc function";
    void* block = AddressOf(
        Call(kAlloc, N,
             Py_BuildValue("(NK)", PyPtr(allocator), static_cast<unsigned long long>(size)), what),
        what);
    PyGILState_Release(gil);
    return block;
}

template <int N>
void FreeTrampoline(aclrtAllocator allocator, aclrtAllocatorBlock block) {
    if (!Py_IsInitialized()) return;
    PyGILState_STATE gil = PyGILState_Ensure();
    Py_XDECREF(Call(kFree, N, Py_BuildValue("(NN)", PyPtr(allocator), PyPtr(block)),
                    "an acl.rt allocator free function"));
    PyGILState_Release(gil);
}

template <int N>
aclrtAllocatorBlock AdviseTrampoline(aclrtAllocator allocator, size_t size,
                                     aclrtAllocatorAddr addr) {
    if (!Py_IsInitialized()) return nullptr;
    PyGILState_STATE gil = PyGILState_Ensure();
    const char* what = "an acl.rt allocator alloc-advise function";
    void* block = AddressOf(Call(kAdvise, N,
                                 Py_BuildValue("(NKN)", PyPtr(allocator),
                                               static_cast<unsigned long long>(size), PyPtr(addr)),
                                 what),
                            what);
    PyGILState_Release(gil);
    return block;
}

template <int N>
aclrtAllocatorAddr AddrTrampoline(aclrtAllocatorBlock block) {
    if (!Py_IsInitialized()) return nullptr;
    PyGILState_STATE gil = PyGILState_Ensure();
    const char* what = "an acl.rt allocator get-addr-from-block function";
    void* addr = AddressOf(Call(kAddr, N, Py_BuildValue("(N)", PyPtr(block)), what), what);
    PyGILState_Release(gil);
    return addr;
}

template <template <int> class Table, int... N>
constexpr auto MakeTable(std::integer_sequence<int, N...>) {
    return std::array{Table<N>::value...};
}
template <int N>
struct AllocAt {
    static constexpr aclrtAllocatorAllocFunc value = AllocTrampoline<N>;
};
template <int N>
struct FreeAt {
    static constexpr aclrtAllocatorFreeFunc value = FreeTrampoline<N>;
};
template <int N>
struct AdviseAt {
    static constexpr aclrtAllocatorAllocAdviseFunc value = AdviseTrampoline<N>;
};
template <int N>
struct AddrAt {
    static constexpr aclrtAllocatorGetAddrFromBlockFunc value = AddrTrampoline<N>;
};
constexpr auto kSlotSequence = std::make_integer_sequence<int, kSlots>{};
constexpr auto kAllocs = MakeTable<AllocAt>(kSlotSequence);
constexpr auto kFrees = MakeTable<FreeAt>(kSlotSequence);
constexpr auto kAdvises = MakeTable<AdviseAt>(kSlotSequence);
constexpr auto kAddrs = MakeTable<AddrAt>(kSlotSequence);

// The slot of fn (its own, or a free one), or -1 when every slot holds another function.
int SlotFor(Kind kind, PyObject* fn) {
    int free_slot = -1;
    for (int i = 0; i < kSlots; ++i) {
        // Equality, not identity: each `obj.method` access makes a new, equal bound method.
        if (g_functions[kind][i] == nullptr) {
            if (free_slot < 0) free_slot = i;
            continue;
        }
        int equal = PyObject_RichCompareBool(g_functions[kind][i], fn, Py_EQ);
        if (equal < 0) PyErr_Clear();  // an __eq__ that raises: not the same function
        if (equal == 1) return i;
    }
    if (free_slot >= 0) g_functions[kind][free_slot] = Py_NewRef(fn);
    return free_slot;
}

// Shared by the four setters: parses (desc, fn), finds fn's slot, calls set(desc, slot).
template <class Set>
PyObject* SetFunction(PyObject* args, Kind kind, const char* signature, Set set) {
    PyObject* p[2];
    aclrtAllocatorDesc desc = nullptr;
    if (!pyacl::Unpack(args, 2, p, signature)) return nullptr;
    if (!pyacl::Arg(p[0], &desc)) return pyacl::BadArgs(signature);
    if (!PyCallable_Check(p[1])) {
        PyErr_Format(PyExc_TypeError, "fn: expected a callable, got %s", Py_TYPE(p[1])->tp_name);
        return pyacl::BadArgs(signature);
    }
    int slot = SlotFor(kind, p[1]);
    if (slot < 0) {
        std::fprintf(stderr,
                     "pyacl: %s: this process already set %d other Python functions of this "
                     "kind; reuse one of them\n",
                     signature, kSlots);
        return PyLong_FromLong(ACL_ERROR_FAILURE);
    }
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = set(desc, slot);
    Py_END_ALLOW_THREADS return PyLong_FromLong(ret);
}

}  // namespace

PyObject* py_rt_allocator_set_alloc_func_to_desc(PyObject*, PyObject* args) {
    return SetFunction(args, kAlloc,
                       "acl.rt.allocator_set_alloc_func_to_desc(desc: int, fn: callable) -> ret",
                       [](aclrtAllocatorDesc d, int slot) {
                           return aclrtAllocatorSetAllocFuncToDesc(d, kAllocs[slot]);
                       });
}

PyObject* py_rt_allocator_set_free_func_to_desc(PyObject*, PyObject* args) {
    return SetFunction(args, kFree,
                       "acl.rt.allocator_set_free_func_to_desc(desc: int, fn: callable) -> ret",
                       [](aclrtAllocatorDesc d, int slot) {
                           return aclrtAllocatorSetFreeFuncToDesc(d, kFrees[slot]);
                       });
}

PyObject* py_rt_allocator_set_alloc_advise_func_to_desc(PyObject*, PyObject* args) {
    return SetFunction(
        args, kAdvise,
        "acl.rt.allocator_set_alloc_advise_func_to_desc(desc: int, fn: callable) -> ret",
        [](aclrtAllocatorDesc d, int slot) {
            return aclrtAllocatorSetAllocAdviseFuncToDesc(d, kAdvises[slot]);
        });
}

PyObject* py_rt_allocator_set_get_addr_from_block_func_to_desc(PyObject*, PyObject* args) {
    return SetFunction(
        args, kAddr,
        "acl.rt.allocator_set_get_addr_from_block_func_to_desc(desc: int, fn: callable) -> ret",
        [](aclrtAllocatorDesc d, int slot) {
            return aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, kAddrs[slot]);
        });
}
