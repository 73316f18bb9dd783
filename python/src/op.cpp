// acl.op functions that take Python lists: handle lists for single-operator execution and
// attribute value lists.
#include "pyacl.h"

namespace {

template <class T>
T** As(std::vector<void*>& v) {
    return reinterpret_cast<T**>(v.data());
}

// Attribute lists may be numpy arrays in old scripts: pyACL accepts them with a warning.
PyObject* AsList(PyObject* obj) {
    if (PyList_Check(obj)) return Py_NewRef(obj);
    if (PyObject_HasAttrString(obj, "tolist") && PyObject_HasAttrString(obj, "dtype")) {
        if (PyErr_WarnEx(PyExc_Warning,
                         "acl.op: ndarray attribute values are deprecated, pass a list", 1) < 0) {
            return nullptr;
        }
        return PyObject_CallMethod(obj, "tolist", nullptr);
    }
    return PyErr_Format(PyExc_TypeError, "expected list, got %s", Py_TYPE(obj)->tp_name);
}

struct OpCall {
    const char* op_type = nullptr;
    std::vector<void*> in_desc, in_buf, out_desc, out_buf;
};

}  // namespace

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // aclopExecute is still in pyACL
static PyObject* Execute(PyObject* args, bool v2, const char* sig) {
    PyObject* p[7];
    OpCall c;
    aclopAttr* attr = nullptr;
    aclrtStream stream = nullptr;
    if (!pyacl::Unpack(args, 7, p, sig)) return nullptr;
    if (!pyacl::Arg(p[0], &c.op_type) || !pyacl::ListOfPointers(p[1], &c.in_desc) ||
        !pyacl::ListOfPointers(p[2], &c.in_buf) || !pyacl::ListOfPointers(p[3], &c.out_desc) ||
        !pyacl::ListOfPointers(p[4], &c.out_buf) || !pyacl::Arg(p[5], &attr) ||
        !pyacl::Arg(p[6], &stream)) {
        return pyacl::BadArgs(sig);
    }
    if (c.in_desc.size() != c.in_buf.size() || c.out_desc.size() != c.out_buf.size()) {
        return PyErr_Format(PyExc_ValueError,
                            "%s: each descriptor list needs a buffer list as long", sig);
    }
    int nin = static_cast<int>(c.in_desc.size()), nout = static_cast<int>(c.out_desc.size());
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS if (v2) {
        ret = aclopExecuteV2(c.op_type, nin, As<aclTensorDesc>(c.in_desc),
                             As<aclDataBuffer>(c.in_buf), nout, As<aclTensorDesc>(c.out_desc),
                             As<aclDataBuffer>(c.out_buf), attr, stream);
    }
    else {
        ret = aclopExecute(c.op_type, nin, As<aclTensorDesc>(c.in_desc),
                           As<aclDataBuffer>(c.in_buf), nout, As<aclTensorDesc>(c.out_desc),
                           As<aclDataBuffer>(c.out_buf), attr, stream);
    }
    Py_END_ALLOW_THREADS return PyLong_FromLong(ret);
}
#pragma GCC diagnostic pop

PyObject* py_op_execute(PyObject*, PyObject* args) {
    return Execute(args, false,
                   "acl.op.execute(op_type: str, in_desc_list: list, in_buf_list: list, "
                   "out_desc_list: list, out_buf_list: list, attr: int, stream: int) -> ret");
}

PyObject* py_op_execute_v2(PyObject*, PyObject* args) {
    return Execute(args, true,
                   "acl.op.execute_v2(op_type: str, in_desc_list: list, in_buf_list: list, "
                   "out_desc_list: list, out_buf_list: list, attr: int, stream: int) -> ret");
}

PyObject* py_op_execute_with_handle(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.op.execute_with_handle(handle: int, in_buf_list: list, out_buf_list: list, "
        "stream: int) -> ret";
    PyObject* p[4];
    aclopHandle* handle = nullptr;
    std::vector<void*> in, out;
    aclrtStream stream = nullptr;
    if (!pyacl::Unpack(args, 4, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &handle) || !pyacl::ListOfPointers(p[1], &in) ||
        !pyacl::ListOfPointers(p[2], &out) || !pyacl::Arg(p[3], &stream)) {
        return pyacl::BadArgs(kSig);
    }
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret =
        aclopExecWithHandle(handle, static_cast<int>(in.size()), As<aclDataBuffer>(in),
                            static_cast<int>(out.size()), As<aclDataBuffer>(out), stream);
    Py_END_ALLOW_THREADS return PyLong_FromLong(ret);
}

PyObject* py_op_create_handle(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.op.create_handle(op_type: str, in_desc_list: list, out_desc_list: list, attr: int) -> "
        "(handle, ret)";
    PyObject* p[4];
    OpCall c;
    const aclopAttr* attr = nullptr;
    if (!pyacl::Unpack(args, 4, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &c.op_type) || !pyacl::ListOfPointers(p[1], &c.in_desc) ||
        !pyacl::ListOfPointers(p[2], &c.out_desc) || !pyacl::Arg(p[3], &attr)) {
        return pyacl::BadArgs(kSig);
    }
    aclopHandle* handle = nullptr;
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclopCreateHandle(
        c.op_type, static_cast<int>(c.in_desc.size()), As<aclTensorDesc>(c.in_desc),
        static_cast<int>(c.out_desc.size()), As<aclTensorDesc>(c.out_desc), attr, &handle);
    Py_END_ALLOW_THREADS return pyacl::Tuple({pyacl::ToPy(handle), PyLong_FromLong(ret)});
}

PyObject* py_op_update_params(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.op.update_params(op_type: str, in_desc_list: list, out_desc_list: list, attr: int) -> "
        "ret";
    PyObject* p[4];
    OpCall c;
    const aclopAttr* attr = nullptr;
    if (!pyacl::Unpack(args, 4, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &c.op_type) || !pyacl::ListOfPointers(p[1], &c.in_desc) ||
        !pyacl::ListOfPointers(p[2], &c.out_desc) || !pyacl::Arg(p[3], &attr)) {
        return pyacl::BadArgs(kSig);
    }
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclopUpdateParams(
        c.op_type, static_cast<int>(c.in_desc.size()), As<aclTensorDesc>(c.in_desc),
        static_cast<int>(c.out_desc.size()), As<aclTensorDesc>(c.out_desc), attr);
    Py_END_ALLOW_THREADS return PyLong_FromLong(ret);
}

PyObject* py_op_infer_shape(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.op.infer_shape(op_type: str, in_desc_list: list, in_buf_list: list, num_outputs: int, "
        "out_desc_list: list, attr: int) -> ret";
    PyObject* p[6];
    OpCall c;
    int num_outputs = 0;
    aclopAttr* attr = nullptr;
    if (!pyacl::Unpack(args, 6, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &c.op_type) || !pyacl::ListOfPointers(p[1], &c.in_desc) ||
        !pyacl::ListOfPointers(p[2], &c.in_buf) || !pyacl::Arg(p[3], &num_outputs) ||
        !pyacl::ListOfPointers(p[4], &c.out_desc) || !pyacl::Arg(p[5], &attr)) {
        return pyacl::BadArgs(kSig);
    }
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclopInferShape(
        c.op_type, static_cast<int>(c.in_desc.size()), As<aclTensorDesc>(c.in_desc),
        As<aclDataBuffer>(c.in_buf), num_outputs, As<aclTensorDesc>(c.out_desc), attr);
    Py_END_ALLOW_THREADS return PyLong_FromLong(ret);
}

namespace {

// Parses (attr, name, values) with values converted element by element by `convert`.
template <class T, class F>
PyObject* SetList(PyObject* args, const char* sig, F convert,
                  aclError (*fn)(aclopAttr*, const char*, int, const T*)) {
    PyObject* p[3];
    aclopAttr* attr = nullptr;
    const char* name = nullptr;
    if (!pyacl::Unpack(args, 3, p, sig)) return nullptr;
    if (!pyacl::Arg(p[0], &attr) || !pyacl::Arg(p[1], &name)) return pyacl::BadArgs(sig);
    PyObject* list = AsList(p[2]);
    if (list == nullptr)
        return PyErr_ExceptionMatches(PyExc_TypeError) ? pyacl::BadArgs(sig) : nullptr;
    std::vector<T> values;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(list); ++i) {
        T v{};
        if (!convert(PyList_GET_ITEM(list, i), &v)) {
            Py_DECREF(list);
            return pyacl::BadArgs(sig);
        }
        values.push_back(v);
    }
    Py_DECREF(list);
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = fn(attr, name, static_cast<int>(values.size()), values.data());
    Py_END_ALLOW_THREADS return PyLong_FromLong(ret);
}

bool ToBool(PyObject* o, uint8_t* v) {
    long long x = 0;
    if (PyBool_Check(o) || PyLong_Check(o)) {
        if (!pyacl::ArgSigned(o, &x)) return false;
        *v = x != 0;
        return true;
    }
    PyErr_Format(PyExc_TypeError, "expected bool, got %s", Py_TYPE(o)->tp_name);
    return false;
}

}  // namespace

PyObject* py_op_set_attr_list_bool(PyObject*, PyObject* args) {
    return SetList<uint8_t>(
        args, "acl.op.set_attr_list_bool(attr: int, name: str, values: list[bool]) -> ret", ToBool,
        aclopSetAttrListBool);
}

PyObject* py_op_set_attr_list_int(PyObject*, PyObject* args) {
    return SetList<int64_t>(
        args, "acl.op.set_attr_list_int(attr: int, name: str, values: list[int]) -> ret",
        pyacl::Arg<int64_t>, aclopSetAttrListInt);
}

PyObject* py_op_set_attr_list_float(PyObject*, PyObject* args) {
    return SetList<float>(
        args, "acl.op.set_attr_list_float(attr: int, name: str, values: list[float]) -> ret",
        pyacl::Arg<float>, aclopSetAttrListFloat);
}

PyObject* py_op_set_attr_list_string(PyObject*, PyObject* args) {
    return SetList<const char*>(
        args, "acl.op.set_attr_list_string(attr: int, name: str, values: list[str]) -> ret",
        [](PyObject* o, const char** v) { return pyacl::Arg(o, v); },
        [](aclopAttr* a, const char* n, int c, const char* const* v) {
            return aclopSetAttrListString(a, n, c, const_cast<const char**>(v));
        });
}

PyObject* py_op_set_attr_list_data_type(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.op.set_attr_list_data_type(attr: int, name: str, dtypes: list[int]) -> (attr, ret)";
    PyObject* ret =
        SetList<aclDataType>(args, kSig, pyacl::Arg<aclDataType>, aclopSetAttrListDataType);
    if (ret == nullptr) return nullptr;
    // pyACL echoes the attr handle in front of ret.
    return pyacl::Tuple({Py_NewRef(PyTuple_GET_ITEM(args, 0)), ret});
}

PyObject* py_op_set_attr_list_list_int(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.op.set_attr_list_list_int(attr: int, name: str, values: list[list[int]]) -> ret";
    PyObject* p[3];
    aclopAttr* attr = nullptr;
    const char* name = nullptr;
    if (!pyacl::Unpack(args, 3, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &attr) || !pyacl::Arg(p[1], &name)) return pyacl::BadArgs(kSig);
    PyObject* outer = AsList(p[2]);
    if (outer == nullptr) return pyacl::BadArgs(kSig);
    std::vector<std::vector<int64_t>> lists(static_cast<size_t>(PyList_GET_SIZE(outer)));
    for (size_t i = 0; i < lists.size(); ++i) {
        PyObject* inner = AsList(PyList_GET_ITEM(outer, static_cast<Py_ssize_t>(i)));
        bool ok = inner && pyacl::ListOfInt64(inner, &lists[i]);
        Py_XDECREF(inner);
        if (!ok) {
            Py_DECREF(outer);
            return pyacl::BadArgs(kSig);
        }
    }
    Py_DECREF(outer);
    std::vector<int> counts;
    std::vector<const int64_t*> rows;
    for (auto& l : lists) {
        counts.push_back(static_cast<int>(l.size()));
        rows.push_back(l.data());
    }
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclopSetAttrListListInt(attr, name, static_cast<int>(lists.size()),
                                                         counts.data(), rows.data());
    Py_END_ALLOW_THREADS return PyLong_FromLong(ret);
}

namespace {

// What use_deallocator asks for: the runtime gives the kernel binary back with aclrtFreeHost
// (scripts allocate it with acl.rt.malloc_host) once it no longer needs it.
void FreeKernelBinary(void* data, size_t) {
    aclrtFreeHost(data);
}

}  // namespace

PyObject* py_op_create_kernel(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.op.create_kernel(op_type: str, kernel_id: str, kernel_name: str, bin_ptr: int, "
        "bin_size: int, engine: int, use_deallocator: int) -> ret";
    PyObject* p[7];
    const char* op_type = nullptr;
    const char* kernel_id = nullptr;
    const char* kernel_name = nullptr;
    void* bin = nullptr;
    int bin_size = 0;
    aclopEngineType engine{};
    int use_deallocator = 0;
    if (!pyacl::Unpack(args, 7, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &op_type) || !pyacl::Arg(p[1], &kernel_id) ||
        !pyacl::Arg(p[2], &kernel_name) || !pyacl::Arg(p[3], &bin) ||
        !pyacl::Arg(p[4], &bin_size) || !pyacl::Arg(p[5], &engine) ||
        !pyacl::Arg(p[6], &use_deallocator)) {
        return pyacl::BadArgs(kSig);
    }
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret =
        aclopCreateKernel(op_type, kernel_id, kernel_name, bin, bin_size, engine,
                          use_deallocator ? FreeKernelBinary : nullptr);
    Py_END_ALLOW_THREADS return PyLong_FromLong(ret);
}
