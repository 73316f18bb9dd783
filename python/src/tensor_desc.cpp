// Top-level functions whose arguments are not plain scalars: aclInit's optional path, the
// application log, and tensor descriptors' dims lists.
#include "pyacl.h"

PyObject* py_acl_init(PyObject*, PyObject* args) {
    static const char kSig[] = "acl.init([config_path: str]) -> ret";
    const char* path = nullptr;  // omitted: NULL, no configuration
    if (!pyacl::CheckCount(args, 0, 1, kSig)) return nullptr;
    if (PyTuple_GET_SIZE(args) == 1 && !pyacl::Arg(PyTuple_GET_ITEM(args, 0), &path)) {
        return pyacl::BadArgs(kSig);
    }
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclInit(path);
    Py_END_ALLOW_THREADS return PyLong_FromLong(ret);
}

PyObject* py_acl_app_log(PyObject*, PyObject* args) {
    static const char kSig[] = "acl.app_log(level: int, msg: str) -> None";
    PyObject* p[2];
    aclLogLevel level{};
    const char* msg = nullptr;
    if (!pyacl::Unpack(args, 2, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &level) || !pyacl::Arg(p[1], &msg)) return pyacl::BadArgs(kSig);
    // The caller's Python position, as the C macro ACL_APP_LOG passes its own.
    const char* file = "python";
    const char* func = "app_log";
    unsigned line = 0;
    PyFrameObject* frame = PyEval_GetFrame();  // borrowed
    PyCodeObject* code = frame ? PyFrame_GetCode(frame) : nullptr;
    if (code) {
        file = PyUnicode_AsUTF8(code->co_filename);
        func = PyUnicode_AsUTF8(code->co_name);
        line = static_cast<unsigned>(PyFrame_GetLineNumber(frame));
    }
    aclAppLog(level, func ? func : "app_log", file ? file : "python", line, "%s", msg);
    Py_XDECREF(code);
    Py_RETURN_NONE;
}

PyObject* py_acl_create_tensor_desc(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.create_tensor_desc(dtype: int, dims: list[int], format: int) -> desc";
    PyObject* p[3];
    aclDataType dtype{};
    aclFormat format{};
    std::vector<int64_t> dims;
    if (!pyacl::Unpack(args, 3, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &dtype) || !pyacl::ListOfInt64(p[1], &dims) ||
        !pyacl::Arg(p[2], &format)) {
        return pyacl::BadArgs(kSig);
    }
    aclTensorDesc* desc = nullptr;
    Py_BEGIN_ALLOW_THREADS desc =
        aclCreateTensorDesc(dtype, static_cast<int>(dims.size()), dims.data(), format);
    Py_END_ALLOW_THREADS return pyacl::ToPy(desc);
}

namespace {

using SetShape = aclError (*)(aclTensorDesc*, int, const int64_t*);

PyObject* SetDims(PyObject* args, SetShape fn, const char* sig) {
    PyObject* p[2];
    aclTensorDesc* desc = nullptr;
    std::vector<int64_t> dims;
    if (!pyacl::Unpack(args, 2, p, sig)) return nullptr;
    if (!pyacl::Arg(p[0], &desc) || !pyacl::ListOfInt64(p[1], &dims)) return pyacl::BadArgs(sig);
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = fn(desc, static_cast<int>(dims.size()), dims.data());
    Py_END_ALLOW_THREADS return PyLong_FromLong(ret);
}

}  // namespace

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // still part of pyACL
PyObject* py_acl_set_tensor_storage_shape(PyObject*, PyObject* args) {
    return SetDims(args, aclSetTensorStorageShape,
                   "acl.set_tensor_storage_shape(desc: int, dims: list[int]) -> ret");
}
#pragma GCC diagnostic pop

PyObject* py_acl_set_tensor_shape(PyObject*, PyObject* args) {
    return SetDims(args, aclSetTensorShape,
                   "acl.set_tensor_shape(desc: int, dims: list[int]) -> ret");
}

PyObject* py_acl_set_tensor_origin_shape(PyObject*, PyObject* args) {
    return SetDims(args, aclSetTensorOriginShape,
                   "acl.set_tensor_origin_shape(desc: int, dims: list[int]) -> ret");
}

namespace {

using SetRange = aclError (*)(aclTensorDesc*, size_t, int64_t (*)[2]);

// (desc, [[lo, hi], ...]) -> ret
PyObject* Ranges(PyObject* args, SetRange fn, const char* sig) {
    PyObject* p[2];
    aclTensorDesc* desc = nullptr;
    if (!pyacl::Unpack(args, 2, p, sig)) return nullptr;
    if (!pyacl::Arg(p[0], &desc)) return pyacl::BadArgs(sig);
    if (!PyList_Check(p[1])) {
        PyErr_Format(PyExc_TypeError, "expected list, got %s", Py_TYPE(p[1])->tp_name);
        return pyacl::BadArgs(sig);
    }
    std::vector<int64_t> flat;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(p[1]); ++i) {
        std::vector<int64_t> pair;
        if (!pyacl::ListOfInt64(PyList_GET_ITEM(p[1], i), &pair)) return pyacl::BadArgs(sig);
        if (pair.size() != 2) {
            return PyErr_Format(PyExc_ValueError, "%s: each range is [lo, hi]", sig);
        }
        flat.insert(flat.end(), pair.begin(), pair.end());
    }
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret =
        fn(desc, flat.size() / 2, reinterpret_cast<int64_t(*)[2]>(flat.data()));
    Py_END_ALLOW_THREADS return PyLong_FromLong(ret);
}

}  // namespace

PyObject* py_acl_set_tensor_shape_range(PyObject*, PyObject* args) {
    return Ranges(args, aclSetTensorShapeRange,
                  "acl.set_tensor_shape_range(desc: int, ranges: list[list[int]]) -> ret");
}

PyObject* py_acl_set_tensor_value_range(PyObject*, PyObject* args) {
    return Ranges(args, aclSetTensorValueRange,
                  "acl.set_tensor_value_range(desc: int, ranges: list[list[int]]) -> ret");
}

PyObject* py_acl_get_tensor_desc_dim_range(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.get_tensor_desc_dim_range(desc: int, index: int, dim_range_num: int) -> "
        "(list or None, ret)";
    PyObject* p[3];
    const aclTensorDesc* desc = nullptr;
    size_t index = 0, num = 0;
    if (!pyacl::Unpack(args, 3, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &desc) || !pyacl::Arg(p[1], &index) || !pyacl::Arg(p[2], &num)) {
        return pyacl::BadArgs(kSig);
    }
    if (num > 64) return PyErr_Format(PyExc_ValueError, "%s: dim_range_num too large", kSig);
    std::vector<int64_t> range(num > 0 ? num : 1);
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclGetTensorDescDimRange(desc, index, num, range.data());
    Py_END_ALLOW_THREADS if (ret != ACL_SUCCESS) return pyacl::Tuple(
        {Py_NewRef(Py_None), PyLong_FromLong(ret)});
    PyObject* list = PyList_New(static_cast<Py_ssize_t>(num));
    for (size_t i = 0; list && i < num; ++i)
        PyList_SET_ITEM(list, i, PyLong_FromLongLong(range[i]));
    return pyacl::Tuple({list, PyLong_FromLong(ret)});
}
