// acl.rt.binary_load_from_file / _from_data: the load options come as a list of
// {'type': int, 'value': int} dicts; an empty list is no options (NULL).
#include "pyacl.h"

namespace {

bool Options(PyObject* list, std::vector<aclrtBinaryLoadOption>* out) {
    if (!PyList_Check(list)) {
        PyErr_Format(PyExc_TypeError, "options: expected list, got %s", Py_TYPE(list)->tp_name);
        return false;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(list); ++i) {
        PyObject* item = PyList_GET_ITEM(list, i);
        PyObject* type = PyDict_Check(item) ? PyDict_GetItemString(item, "type") : nullptr;
        PyObject* value = PyDict_Check(item) ? PyDict_GetItemString(item, "value") : nullptr;
        if (type == nullptr || value == nullptr) {
            PyErr_SetString(PyExc_TypeError, "options: each item is a {'type', 'value'} dict");
            return false;
        }
        aclrtBinaryLoadOption option{};
        uint32_t v = 0;
        if (!pyacl::Arg(type, &option.type) || !pyacl::Arg(value, &v)) return false;
        option.value.rsv[0] = v;  // every member of the value union is one 32-bit word
        out->push_back(option);
    }
    return true;
}

}  // namespace

PyObject* py_rt_binary_load_from_file(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.rt.binary_load_from_file(path: str, options: list[dict]) -> (bin_handle, ret)";
    PyObject* p[2];
    const char* path = nullptr;
    std::vector<aclrtBinaryLoadOption> options;
    if (!pyacl::Unpack(args, 2, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &path) || !Options(p[1], &options)) return pyacl::BadArgs(kSig);
    aclrtBinaryLoadOptions all{options.data(), options.size()};
    aclrtBinHandle handle = nullptr;
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret =
        aclrtBinaryLoadFromFile(path, options.empty() ? nullptr : &all, &handle);
    Py_END_ALLOW_THREADS return pyacl::Tuple({pyacl::ToPy(handle), PyLong_FromLong(ret)});
}

PyObject* py_rt_binary_load_from_data(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.rt.binary_load_from_data(ptr: int, length: int, options: list[dict]) -> "
        "(bin_handle, ret)";
    PyObject* p[3];
    const void* data = nullptr;
    size_t length = 0;
    std::vector<aclrtBinaryLoadOption> options;
    if (!pyacl::Unpack(args, 3, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &data) || !pyacl::Arg(p[1], &length) || !Options(p[2], &options)) {
        return pyacl::BadArgs(kSig);
    }
    aclrtBinaryLoadOptions all{options.data(), options.size()};
    aclrtBinHandle handle = nullptr;
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret =
        aclrtBinaryLoadFromData(data, length, options.empty() ? nullptr : &all, &handle);
    Py_END_ALLOW_THREADS return pyacl::Tuple({pyacl::ToPy(handle), PyLong_FromLong(ret)});
}
