// Kernels from Python: binary loads whose options, and launches whose configuration, come as
// lists of dicts ({'type'|'id': int, 'value': int}); an empty list is no options (NULL).
#include <cstring>

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

PyObject* py_rt_launch_kernel_with_config(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.rt.launch_kernel_with_config(func: int, block_dim: int, stream: int, cfg: "
        "list[dict], args_handle: int, reserve: int) -> ret";
    PyObject* p[6];
    aclrtFuncHandle func = nullptr;
    uint32_t blocks = 0;
    aclrtStream stream = nullptr;
    aclrtArgsHandle handle = nullptr;
    void* reserve = nullptr;
    if (!pyacl::Unpack(args, 6, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &func) || !pyacl::Arg(p[1], &blocks) || !pyacl::Arg(p[2], &stream) ||
        !pyacl::Arg(p[4], &handle) || !pyacl::Arg(p[5], &reserve)) {
        return pyacl::BadArgs(kSig);
    }
    // cfg: [{'id': attr id, 'value': int}, ...]; [] is no configuration (NULL).
    if (!PyList_Check(p[3])) {
        PyErr_Format(PyExc_TypeError, "cfg: expected list, got %s", Py_TYPE(p[3])->tp_name);
        return pyacl::BadArgs(kSig);
    }
    std::vector<aclrtLaunchKernelAttr> attrs;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(p[3]); ++i) {
        PyObject* item = PyList_GET_ITEM(p[3], i);
        PyObject* id = PyDict_Check(item) ? PyDict_GetItemString(item, "id") : nullptr;
        PyObject* value = PyDict_Check(item) ? PyDict_GetItemString(item, "value") : nullptr;
        aclrtLaunchKernelAttr attr{};
        uint64_t v = 0;
        if (id == nullptr || value == nullptr) {
            PyErr_SetString(PyExc_TypeError, "cfg: each item is an {'id', 'value'} dict");
            return pyacl::BadArgs(kSig);
        }
        if (!pyacl::Arg(id, &attr.id) || !pyacl::Arg(value, &v)) return pyacl::BadArgs(kSig);
        // Every member of the value union starts at its first byte (little-endian ints).
        memcpy(&attr.value, &v, sizeof v);
        attrs.push_back(attr);
    }
    aclrtLaunchKernelCfg cfg{attrs.data(), attrs.size()};
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclrtLaunchKernelWithConfig(
        func, blocks, stream, attrs.empty() ? nullptr : &cfg, handle, reserve);
    Py_END_ALLOW_THREADS return PyLong_FromLong(ret);
}
