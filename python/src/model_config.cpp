// acl.mdl.set_config_opt / set_exec_config_opt: the C functions take the value's address and
// size, whose type the attribute's name gives (_INT32, _SIZET, _PTR). Python passes the value
// itself: an int, or for a _PTR attribute an int address or a str (a path).
#include "pyacl.h"

namespace {

enum class Kind { kInt32, kSize, kPointer };

struct Value {
    int32_t i32 = 0;
    size_t size = 0;
    const void* ptr = nullptr;
};

// Fills `v` for `kind` from `obj`; returns the address and size to hand to C.
bool Read(PyObject* obj, Kind kind, Value* v, const void** addr, size_t* len) {
    switch (kind) {
        case Kind::kInt32:
            *addr = &v->i32;
            *len = sizeof v->i32;
            return pyacl::Arg(obj, &v->i32);
        case Kind::kSize:
            *addr = &v->size;
            *len = sizeof v->size;
            return pyacl::Arg(obj, &v->size);
        case Kind::kPointer:
            *addr = &v->ptr;
            *len = sizeof v->ptr;
            if (PyUnicode_Check(obj)) {
                const char* s = nullptr;
                if (!pyacl::Arg(obj, &s)) return false;  // lives as long as the str (the call)
                v->ptr = s;
                return true;
            }
            return pyacl::Arg(obj, &v->ptr);
    }
    return false;
}

Kind LoadKind(int attr) {
    switch (attr) {
        case ACL_MDL_PRIORITY_INT32:
        case ACL_MDL_WITHOUT_GRAPH_INT32:
        case ACL_NPU_PERF_MODE:
            return Kind::kInt32;
        case ACL_MDL_PATH_PTR:
        case ACL_MDL_MEM_ADDR_PTR:
        case ACL_MDL_WEIGHT_ADDR_PTR:
        case ACL_MDL_WORKSPACE_ADDR_PTR:
        case ACL_MDL_INPUTQ_ADDR_PTR:
        case ACL_MDL_OUTPUTQ_ADDR_PTR:
        case ACL_MDL_WEIGHT_PATH_PTR:
        case ACL_MDL_MODEL_DESC_PTR:
        case ACL_MDL_KERNEL_PTR:
        case ACL_MDL_KERNEL_ARGS_PTR:
        case ACL_MDL_STATIC_TASK_PTR:
        case ACL_MDL_DYNAMIC_TASK_PTR:
        case ACL_MDL_FIFO_PTR:
            return Kind::kPointer;
        default:
            return Kind::kSize;
    }
}

Kind ExecKind(int attr) {
    switch (attr) {
        case ACL_MDL_WORK_ADDR_PTR:
            return Kind::kPointer;
        case ACL_MDL_WORK_SIZET:
        case ACL_MDL_MPAIMID_SIZET:
        case ACL_MDL_AICQOS_SIZET:
        case ACL_MDL_AICOST_SIZET:
        case ACL_MDL_MEC_TIMETHR_SIZET:
            return Kind::kSize;
        default:
            return Kind::kInt32;  // timeouts, priority, perf mode
    }
}

}  // namespace

PyObject* py_mdl_set_config_opt(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.mdl.set_config_opt(handle: int, attr: int, value: int or str) -> ret";
    PyObject* p[3];
    aclmdlConfigHandle* handle = nullptr;
    aclmdlConfigAttr attr{};
    Value v;
    const void* addr = nullptr;
    size_t len = 0;
    if (!pyacl::Unpack(args, 3, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &handle) || !pyacl::Arg(p[1], &attr) ||
        !Read(p[2], LoadKind(attr), &v, &addr, &len)) {
        return pyacl::BadArgs(kSig);
    }
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclmdlSetConfigOpt(handle, attr, addr, len);
    Py_END_ALLOW_THREADS return PyLong_FromLong(ret);
}

PyObject* py_mdl_set_exec_config_opt(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.mdl.set_exec_config_opt(handle: int, attr: int, value: int) -> ret";
    PyObject* p[3];
    aclmdlExecConfigHandle* handle = nullptr;
    aclmdlExecConfigAttr attr{};
    Value v;
    const void* addr = nullptr;
    size_t len = 0;
    if (!pyacl::Unpack(args, 3, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &handle) || !pyacl::Arg(p[1], &attr) ||
        !Read(p[2], ExecKind(attr), &v, &addr, &len)) {
        return pyacl::BadArgs(kSig);
    }
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclmdlSetExecConfigOpt(handle, attr, addr, len);
    Py_END_ALLOW_THREADS return PyLong_FromLong(ret);
}

PyObject* py_mdl_get_input_dims_range(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.mdl.get_input_dims_range(model_desc: int, index: int) -> (range_dict, ret)";
    PyObject* p[2];
    const aclmdlDesc* desc = nullptr;
    size_t index = 0;
    if (!pyacl::Unpack(args, 2, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &desc) || !pyacl::Arg(p[1], &index)) return pyacl::BadArgs(kSig);
    aclmdlIODimsRange range{};
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclmdlGetInputDimsRange(desc, index, &range);
    Py_END_ALLOW_THREADS if (ret !=
                             ACL_SUCCESS) return pyacl::Tuple({PyDict_New(), PyLong_FromLong(ret)});
    size_t n = range.rangeCount < ACL_MAX_DIM_CNT ? range.rangeCount : ACL_MAX_DIM_CNT;
    PyObject* list = PyList_New(static_cast<Py_ssize_t>(n));
    if (list == nullptr) return nullptr;
    for (size_t i = 0; i < n; ++i) {
        PyList_SET_ITEM(list, i,
                        Py_BuildValue("[LL]", static_cast<long long>(range.range[i][0]),
                                      static_cast<long long>(range.range[i][1])));
    }
    return pyacl::Tuple(
        {Py_BuildValue("{s:n,s:N}", "rangeCount", static_cast<Py_ssize_t>(n), "range", list),
         PyLong_FromLong(ret)});
}
