// Python callables handed to the runtime. The runtime calls a C trampoline (on the thread
// subscribed with acl.rt.subscribe_report, inside acl.rt.process_report, or on a runtime thread),
// which takes the GIL and calls the Python function; the calls that wait release the GIL, so the
// callback can run while the main thread sits in synchronize_stream.
#include <cstdio>
#include <cstring>

#include "pyacl.h"

namespace {

struct Pending {
    PyObject* fn;
    PyObject* user_data;
};

void RunLaunchedCallback(void* p) {
    auto* pending = static_cast<Pending*>(p);
    if (!Py_IsInitialized()) return;  // interpreter gone: nothing left to call
    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject* args = PyTuple_Pack(1, pending->user_data);
    if (args) pyacl::CallPython(pending->fn, args, "an acl.rt.launch_callback function");
    Py_XDECREF(args);
    Py_DECREF(pending->fn);
    Py_DECREF(pending->user_data);
    delete pending;
    PyGILState_Release(gil);
}

PyObject* g_exception_callback = nullptr;  // guarded by the GIL

void RunExceptionCallback(aclrtExceptionInfo* info) {
    if (!Py_IsInitialized()) return;
    PyGILState_STATE gil = PyGILState_Ensure();
    if (g_exception_callback) {
        PyObject* fn = Py_NewRef(g_exception_callback);
        PyObject* args = Py_BuildValue(
            "(K)", static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(info)));
        if (args) pyacl::CallPython(fn, args, "the acl.rt.set_exception_info_callback function");
        Py_XDECREF(args);
        Py_DECREF(fn);
    }
    PyGILState_Release(gil);
}

}  // namespace

PyObject* py_rt_launch_callback(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.rt.launch_callback(fn: callable, user_data, block_type: int, stream: int) -> ret";
    PyObject* p[4];
    aclrtCallbackBlockType block{};
    aclrtStream stream = nullptr;
    if (!pyacl::Unpack(args, 4, p, kSig)) return nullptr;
    if (!PyCallable_Check(p[0])) {
        PyErr_Format(PyExc_TypeError, "fn: expected a callable, got %s", Py_TYPE(p[0])->tp_name);
        return pyacl::BadArgs(kSig);
    }
    if (!pyacl::Arg(p[2], &block) || !pyacl::Arg(p[3], &stream)) return pyacl::BadArgs(kSig);
    // The references live until the callback has run (the trampoline drops them).
    auto* pending = new Pending{Py_NewRef(p[0]), Py_NewRef(p[1])};
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclrtLaunchCallback(RunLaunchedCallback, pending, block, stream);
    Py_END_ALLOW_THREADS if (ret != ACL_SUCCESS) {
        Py_DECREF(pending->fn);
        Py_DECREF(pending->user_data);
        delete pending;
    }
    return PyLong_FromLong(ret);
}

PyObject* py_rt_set_exception_info_callback(PyObject*, PyObject* args) {
    static const char kSig[] = "acl.rt.set_exception_info_callback(fn: callable or None) -> ret";
    PyObject* p[1];
    if (!pyacl::Unpack(args, 1, p, kSig)) return nullptr;
    if (p[0] != Py_None && !PyCallable_Check(p[0])) {
        PyErr_Format(PyExc_TypeError, "fn: expected a callable or None, got %s",
                     Py_TYPE(p[0])->tp_name);
        return pyacl::BadArgs(kSig);
    }
    aclError ret = ACL_SUCCESS;
    bool clear = p[0] == Py_None;
    Py_BEGIN_ALLOW_THREADS ret =
        aclrtSetExceptionInfoCallback(clear ? nullptr : RunExceptionCallback);
    Py_END_ALLOW_THREADS if (ret == ACL_SUCCESS) {
        Py_XSETREF(g_exception_callback, clear ? nullptr : Py_NewRef(p[0]));
    }
    return PyLong_FromLong(ret);
}

namespace {

PyObject* g_dump_callback = nullptr;  // guarded by the GIL

// Dump data for Python, with pyACL's documented keys: fn({'file_name', 'data_buf', 'buf_len',
// 'is_last_chunk', 'offset', 'flag'}); data_buf is the chunk's address, valid during the call
// (acl.util.ptr_to_bytes(data_buf, buf_len) copies it).
int32_t RunDumpCallback(const acldumpChunk* chunk, int32_t len) {
    (void)len;
    if (chunk == nullptr || !Py_IsInitialized()) return 0;
    PyGILState_STATE gil = PyGILState_Ensure();
    int32_t result = 0;
    if (g_dump_callback) {
        PyObject* fn = Py_NewRef(g_dump_callback);
        PyObject* dict = Py_BuildValue(
            "{s:s,s:K,s:I,s:I,s:L,s:i}", "file_name", chunk->fileName, "data_buf",
            static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(chunk->dataBuf)), "buf_len",
            chunk->bufLen, "is_last_chunk", chunk->isLastChunk, "offset",
            static_cast<long long>(chunk->offset), "flag", chunk->flag);
        PyObject* value = dict ? PyObject_CallOneArg(fn, dict) : nullptr;
        if (value == nullptr) {
            pyacl::ReportException("the acl.mdl.dump_reg_callback function");
        } else if (PyLong_Check(value)) {
            result = static_cast<int32_t>(PyLong_AsLong(value));
            PyErr_Clear();
        }
        Py_XDECREF(value);
        Py_XDECREF(dict);
        Py_DECREF(fn);
    }
    PyGILState_Release(gil);
    return result;
}

}  // namespace

PyObject* py_mdl_dump_reg_callback(PyObject*, PyObject* args) {
    static const char kSig[] = "acl.mdl.dump_reg_callback(fn: callable, flag: int) -> ret";
    PyObject* p[2];
    int32_t flag = 0;
    if (!pyacl::Unpack(args, 2, p, kSig)) return nullptr;
    if (!PyCallable_Check(p[0])) {
        PyErr_Format(PyExc_TypeError, "fn: expected a callable, got %s", Py_TYPE(p[0])->tp_name);
        return pyacl::BadArgs(kSig);
    }
    if (!pyacl::Arg(p[1], &flag)) return pyacl::BadArgs(kSig);
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = acldumpRegCallback(RunDumpCallback, flag);
    Py_END_ALLOW_THREADS if (ret == ACL_SUCCESS) Py_XSETREF(g_dump_callback, Py_NewRef(p[0]));
    return PyLong_FromLong(ret);
}

PyObject* py_rt_get_group_info_detail(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.rt.get_group_info_detail(info: int, index: int, attr: int) -> (value, ret)";
    PyObject* p[3];
    const aclrtGroupInfo* info = nullptr;
    int32_t index = 0;
    aclrtGroupAttr attr{};
    if (!pyacl::Unpack(args, 3, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &info) || !pyacl::Arg(p[1], &index) || !pyacl::Arg(p[2], &attr)) {
        return pyacl::BadArgs(kSig);
    }
    uint64_t value = 0;  // every group attribute fits; read back at the size C reports
    size_t size = 0;
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret =
        aclrtGetGroupInfoDetail(info, index, attr, &value, sizeof value, &size);
    Py_END_ALLOW_THREADS if (size == sizeof(uint32_t)) {
        uint32_t v32 = 0;
        memcpy(&v32, &value, sizeof v32);
        value = v32;
    }
    return pyacl::Tuple({PyLong_FromUnsignedLongLong(value), PyLong_FromLong(ret)});
}
