// acl.prof functions whose C side takes a string with its length, a list of device ids, or
// writes a string: pyACL computes the lengths and returns the strings.
#include "pyacl.h"

#include <cstring>

namespace {

using StrLenFn = aclError (*)(const char*, size_t);

PyObject* StringCall(PyObject* args, const char* sig, StrLenFn fn) {
    PyObject* p[1];
    const char* s = nullptr;
    if (!pyacl::Unpack(args, 1, p, sig)) return nullptr;
    if (!pyacl::Arg(p[0], &s)) return pyacl::BadArgs(sig);
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = fn(s, strlen(s));
    Py_END_ALLOW_THREADS return PyLong_FromLong(ret);
}

using OpStrFn = aclError (*)(const void*, size_t, uint32_t, char*, size_t);
using OpLenFn = aclError (*)(const void*, size_t, uint32_t, size_t*);

// (op_info_ptr, len, index[, buffer_len]) -> (str, ret); without buffer_len it is asked first.
PyObject* OpString(PyObject* args, const char* sig, OpStrFn get, OpLenFn length, bool v2) {
    PyObject* p[4];
    const void* info = nullptr;
    size_t info_len = 0, buf_len = 0;
    uint32_t index = 0;
    if (!pyacl::Unpack(args, v2 ? 3 : 4, p, sig)) return nullptr;
    if (!pyacl::Arg(p[0], &info) || !pyacl::Arg(p[1], &info_len) || !pyacl::Arg(p[2], &index) ||
        (!v2 && !pyacl::Arg(p[3], &buf_len))) {
        return pyacl::BadArgs(sig);
    }
    aclError ret = ACL_SUCCESS;
    if (v2) {
        Py_BEGIN_ALLOW_THREADS ret = length(info, info_len, index, &buf_len);
        Py_END_ALLOW_THREADS if (ret != ACL_SUCCESS) return pyacl::Tuple(
            {Py_NewRef(Py_None), PyLong_FromLong(ret)});
    }
    if (buf_len > (1u << 20)) return PyErr_Format(PyExc_ValueError, "%s: length too large", sig);
    std::vector<char> buf(buf_len + 1, '\0');
    Py_BEGIN_ALLOW_THREADS ret = get(info, info_len, index, buf.data(), buf_len);
    Py_END_ALLOW_THREADS if (ret != ACL_SUCCESS) {
        return pyacl::Tuple({v2 ? Py_NewRef(Py_None) : pyacl::Str(""), PyLong_FromLong(ret)});
    }
    return pyacl::Tuple({pyacl::Str(buf.data()), PyLong_FromLong(ret)});
}

}  // namespace

PyObject* py_prof_init(PyObject*, PyObject* args) {
    return StringCall(args, "acl.prof.init(result_path: str) -> ret", aclprofInit);
}

PyObject* py_prof_set_config(PyObject*, PyObject* args) {
    static const char kSig[] = "acl.prof.set_config(config_type: int, value: str) -> ret";
    PyObject* p[2];
    aclprofConfigType type{};
    const char* value = nullptr;
    if (!pyacl::Unpack(args, 2, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &type) || !pyacl::Arg(p[1], &value)) return pyacl::BadArgs(kSig);
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclprofSetConfig(type, value, strlen(value));
    Py_END_ALLOW_THREADS return PyLong_FromLong(ret);
}

PyObject* py_prof_mark_ex(PyObject*, PyObject* args) {
    static const char kSig[] = "acl.prof.mark_ex(msg: str, stream: int) -> ret";
    PyObject* p[2];
    const char* msg = nullptr;
    aclrtStream stream = nullptr;
    if (!pyacl::Unpack(args, 2, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &msg) || !pyacl::Arg(p[1], &stream)) return pyacl::BadArgs(kSig);
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclprofMarkEx(msg, strlen(msg), stream);
    Py_END_ALLOW_THREADS return PyLong_FromLong(ret);
}

PyObject* py_prof_create_config(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.prof.create_config(device_id_list: list[int], aicore_metrics: int, "
        "aicore_events_ptr: int, data_type_config: int) -> config";
    PyObject* p[4];
    std::vector<int64_t> ids;
    aclprofAicoreMetrics metrics{};
    const aclprofAicoreEvents* events = nullptr;
    uint64_t types = 0;
    if (!pyacl::Unpack(args, 4, p, kSig)) return nullptr;
    if (!pyacl::ListOfInt64(p[0], &ids) || !pyacl::Arg(p[1], &metrics) ||
        !pyacl::Arg(p[2], &events) || !pyacl::Arg(p[3], &types)) {
        return pyacl::BadArgs(kSig);
    }
    std::vector<uint32_t> devices(ids.begin(), ids.end());
    aclprofConfig* config = nullptr;
    Py_BEGIN_ALLOW_THREADS config =
        aclprofCreateConfig(devices.empty() ? nullptr : devices.data(),
                            static_cast<uint32_t>(devices.size()), metrics, events, types);
    Py_END_ALLOW_THREADS return pyacl::ToPy(config);
}

PyObject* py_prof_get_op_type(PyObject*, PyObject* args) {
    return OpString(args,
                    "acl.prof.get_op_type(op_info_ptr: int, len: int, index: int, type_len: int) "
                    "-> (str, ret)",
                    aclprofGetOpType, aclprofGetOpTypeLen, false);
}

PyObject* py_prof_get_op_name(PyObject*, PyObject* args) {
    return OpString(args,
                    "acl.prof.get_op_name(op_info_ptr: int, len: int, index: int, name_len: int) "
                    "-> (str, ret)",
                    aclprofGetOpName, aclprofGetOpNameLen, false);
}

PyObject* py_prof_get_op_type_v2(PyObject*, PyObject* args) {
    return OpString(args,
                    "acl.prof.get_op_type_v2(op_info_ptr: int, len: int, index: int) -> (str, ret)",
                    aclprofGetOpType, aclprofGetOpTypeLen, true);
}

PyObject* py_prof_get_op_name_v2(PyObject*, PyObject* args) {
    return OpString(args,
                    "acl.prof.get_op_name_v2(op_info_ptr: int, len: int, index: int) -> (str, ret)",
                    aclprofGetOpName, aclprofGetOpNameLen, true);
}

// The C function takes the address of the pipe's write end (an int), as CANN's C samples pass
// &fds[1]; pyACL passes the descriptor itself, so it is given the address of a copy (the C
// side reads it in the call).
PyObject* py_prof_create_subscribe_config(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.prof.create_subscribe_config(time_info_switch: int, aicore_metrics: int, fd: int) "
        "-> subscribe_config";
    PyObject* p[3];
    int8_t time_info = 0;
    aclprofAicoreMetrics metrics{};
    int fd = -1;
    if (!pyacl::Unpack(args, 3, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &time_info) || !pyacl::Arg(p[1], &metrics) || !pyacl::Arg(p[2], &fd)) {
        return pyacl::BadArgs(kSig);
    }
    aclprofSubscribeConfig* config = nullptr;
    Py_BEGIN_ALLOW_THREADS config = aclprofCreateSubscribeConfig(time_info, metrics, &fd);
    Py_END_ALLOW_THREADS return pyacl::ToPy(config);
}
