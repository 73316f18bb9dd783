// Python callables handed to the runtime. The runtime calls a C trampoline (on the thread
// subscribed with acl.rt.subscribe_report, inside acl.rt.process_report, or on a runtime thread),
// which takes the GIL and calls the Python function; the calls that wait release the GIL, so the
// callback can run while the main thread sits in synchronize_stream.
#include <mutex>

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
