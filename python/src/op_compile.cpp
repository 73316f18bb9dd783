// acl.op.register_compile_func: a Python function compiles an operator type. The C callback
// does not say which operator type it is called for, so each registration takes one of a fixed
// set of C trampolines, each bound to its slot (op type and Python function).
#include <array>
#include <string>
#include <utility>

#include "pyacl.h"

namespace {

constexpr int kSlots = 32;

struct Slot {
    std::string op_type;
    PyObject* fn = nullptr;  // nullptr: free
};
Slot g_slots[kSlots];  // guarded by the GIL

PyObject* DescList(int n, const aclTensorDesc* const descs[]) {
    PyObject* list = PyList_New(0);
    for (int i = 0; list && descs && i < n; ++i) {
        PyObject* item = pyacl::ToPy(descs[i]);
        if (item == nullptr || PyList_Append(list, item) < 0) Py_CLEAR(list);
        Py_XDECREF(item);
    }
    return list;
}

// fn(num_in, in_descs, num_out, out_descs, attr, kernel_desc) -> ret (None is 0).
aclError RunCompile(int slot, int num_in, const aclTensorDesc* const in[], int num_out,
                    const aclTensorDesc* const out[], const aclopAttr* attr,
                    aclopKernelDesc* kernel) {
    if (!Py_IsInitialized()) return ACL_ERROR_FAILURE;
    PyGILState_STATE gil = PyGILState_Ensure();
    aclError ret = ACL_ERROR_FAILURE;
    if (g_slots[slot].fn) {
        PyObject* fn = Py_NewRef(g_slots[slot].fn);
        PyObject* args =
            Py_BuildValue("(iNiNNN)", num_in, DescList(num_in, in), num_out, DescList(num_out, out),
                          pyacl::ToPy(attr), pyacl::ToPy(kernel));
        PyObject* result = args ? PyObject_CallObject(fn, args) : nullptr;
        if (result == nullptr) {
            pyacl::ReportException("an acl.op.register_compile_func function");
        } else if (result == Py_None) {
            ret = ACL_SUCCESS;
        } else if (PyLong_Check(result)) {
            ret = static_cast<aclError>(PyLong_AsLong(result));
            PyErr_Clear();
        }
        Py_XDECREF(result);
        Py_XDECREF(args);
        Py_DECREF(fn);
    }
    PyGILState_Release(gil);
    return ret;
}

template <int N>
aclError Trampoline(int num_in, const aclTensorDesc* const in[], int num_out,
                    const aclTensorDesc* const out[], const aclopAttr* attr,
                    aclopKernelDesc* kernel) {
    return RunCompile(N, num_in, in, num_out, out, attr, kernel);
}

template <int... N>
constexpr auto Trampolines(std::integer_sequence<int, N...>) {
    return std::array<aclopCompileFunc, sizeof...(N)>{Trampoline<N>...};
}
constexpr auto kTrampolines = Trampolines(std::make_integer_sequence<int, kSlots>{});

int FindSlot(const char* op_type, bool or_free) {
    int free_slot = -1;
    for (int i = 0; i < kSlots; ++i) {
        if (g_slots[i].fn && g_slots[i].op_type == op_type) return i;
        if (!g_slots[i].fn && free_slot < 0) free_slot = i;
    }
    return or_free ? free_slot : -1;
}

}  // namespace

PyObject* py_op_register_compile_func(PyObject*, PyObject* args) {
    static const char kSig[] = "acl.op.register_compile_func(op_type: str, fn: callable) -> ret";
    PyObject* p[2];
    const char* op_type = nullptr;
    if (!pyacl::Unpack(args, 2, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &op_type)) return pyacl::BadArgs(kSig);
    if (!PyCallable_Check(p[1])) {
        PyErr_Format(PyExc_TypeError, "fn: expected a callable, got %s", Py_TYPE(p[1])->tp_name);
        return pyacl::BadArgs(kSig);
    }
    int slot = FindSlot(op_type, true);
    if (slot < 0) {
        return PyErr_Format(PyExc_RuntimeError, "%s: more than %d compile functions registered",
                            kSig, kSlots);
    }
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret =
        aclopRegisterCompileFunc(op_type, kTrampolines[static_cast<size_t>(slot)]);
    Py_END_ALLOW_THREADS if (ret == ACL_SUCCESS) {
        g_slots[slot].op_type = op_type;
        Py_XSETREF(g_slots[slot].fn, Py_NewRef(p[1]));
    }
    return PyLong_FromLong(ret);
}

PyObject* py_op_unregister_compile_func(PyObject*, PyObject* args) {
    static const char kSig[] = "acl.op.unregister_compile_func(op_type: str) -> ret";
    PyObject* p[1];
    const char* op_type = nullptr;
    if (!pyacl::Unpack(args, 1, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &op_type)) return pyacl::BadArgs(kSig);
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclopUnregisterCompileFunc(op_type);
    Py_END_ALLOW_THREADS int slot = FindSlot(op_type, false);
    if (ret == ACL_SUCCESS && slot >= 0) {
        Py_CLEAR(g_slots[slot].fn);
        g_slots[slot].op_type.clear();
    }
    return PyLong_FromLong(ret);
}
