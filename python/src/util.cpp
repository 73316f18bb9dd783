// acl.util: pyACL's own helpers, with no C counterpart. Addresses as ints between Python
// buffers and device memory, and real pthreads that AscendCL can subscribe to a stream.
#include <pthread.h>

#include <cerrno>
#include <cstdio>

#include <map>
#include <string>

#include "pyacl.h"

namespace {

PyObject* Numpy() {
    return PyImport_ImportModule("numpy");
}

bool IsNdarray(PyObject* obj) {
    PyObject* np = Numpy();
    if (np == nullptr) return false;
    PyObject* cls = PyObject_GetAttrString(np, "ndarray");
    Py_DECREF(np);
    int is = cls ? PyObject_IsInstance(obj, cls) : -1;
    Py_XDECREF(cls);
    if (is == 0)
        PyErr_Format(PyExc_TypeError, "expected numpy.ndarray, got %s", Py_TYPE(obj)->tp_name);
    return is == 1;
}

// arr.__array_interface__['data'][0]: the address of the array's first element.
PyObject* DataAddress(PyObject* arr) {
    PyObject* iface = PyObject_GetAttrString(arr, "__array_interface__");
    PyObject* data = iface ? PyDict_GetItemString(iface, "data") : nullptr;  // borrowed
    PyObject* addr = data ? PySequence_GetItem(data, 0) : nullptr;
    Py_XDECREF(iface);
    return addr;
}

bool Deprecated(const char* name, const char* instead) {
    return PyErr_WarnFormat(PyExc_Warning, 1, "acl.util.%s is deprecated, use acl.util.%s", name,
                            instead) == 0;
}

// Threads made by start_thread, by pthread id: whether their function raised (for stop_thread).
struct ThreadRecord {
    PyObject* fn;
    PyObject* args;
    std::string error;  // exception type name, empty if fn returned normally
};
std::map<unsigned long long, ThreadRecord*> g_threads;  // guarded by the GIL

void* ThreadMain(void* p) {
    auto* rec = static_cast<ThreadRecord*>(p);
    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject* result = rec->args == Py_None ? PyObject_CallNoArgs(rec->fn)
                                            : PyObject_CallOneArg(rec->fn, rec->args);
    if (result == nullptr) {
        PyObject* type = PyErr_Occurred();
        rec->error = type ? reinterpret_cast<PyTypeObject*>(type)->tp_name : "exception";
        pyacl::ReportException("the acl.util.start_thread function");
    }
    Py_XDECREF(result);
    PyGILState_Release(gil);
    return nullptr;
}

}  // namespace

PyObject* py_util_bytes_to_ptr(PyObject*, PyObject* args) {
    static const char kSig[] = "acl.util.bytes_to_ptr(bytes_obj: bytes) -> ptr";
    PyObject* p[1];
    if (!pyacl::Unpack(args, 1, p, kSig)) return nullptr;
    if (!PyBytes_Check(p[0])) {
        PyErr_Format(PyExc_TypeError, "expected bytes, got %s", Py_TYPE(p[0])->tp_name);
        return pyacl::BadArgs(kSig);
    }
    // The object's own storage, not a copy: clients memcpy device results into it.
    return pyacl::ToPy(static_cast<void*>(PyBytes_AS_STRING(p[0])));
}

PyObject* py_util_ptr_to_bytes(PyObject*, PyObject* args) {
    static const char kSig[] = "acl.util.ptr_to_bytes(ptr: int, size: int) -> bytes";
    PyObject* p[2];
    void* ptr = nullptr;
    long long size = 0;
    if (!pyacl::Unpack(args, 2, p, kSig)) return nullptr;
    if (!pyacl::ArgPointer(p[0], &ptr) || !pyacl::ArgSigned(p[1], &size))
        return pyacl::BadArgs(kSig);
    if (size < 0 || (ptr == nullptr && size > 0)) {
        return PyErr_Format(PyExc_ValueError, "%s: cannot copy %lld bytes from address %p", kSig,
                            size, ptr);
    }
    return PyBytes_FromStringAndSize(static_cast<const char*>(ptr), static_cast<Py_ssize_t>(size));
}

PyObject* py_util_numpy_to_ptr(PyObject*, PyObject* args) {
    static const char kSig[] = "acl.util.numpy_to_ptr(ndarray) -> ptr";
    PyObject* p[1];
    if (!pyacl::Unpack(args, 1, p, kSig)) return nullptr;
    if (!IsNdarray(p[0])) return pyacl::BadArgs(kSig);
    if (!Deprecated("numpy_to_ptr", "bytes_to_ptr")) return nullptr;
    PyObject* flags = PyObject_GetAttrString(p[0], "flags");
    PyObject* contiguous = flags ? PyObject_GetAttrString(flags, "c_contiguous") : nullptr;
    Py_XDECREF(flags);
    if (contiguous == nullptr) return nullptr;
    bool is_contiguous = PyObject_IsTrue(contiguous) == 1;
    Py_DECREF(contiguous);
    if (!is_contiguous &&
        PyErr_WarnEx(PyExc_Warning, "acl.util.numpy_to_ptr: the array is not contiguous", 1) < 0) {
        return nullptr;
    }
    return DataAddress(p[0]);
}

PyObject* py_util_numpy_contiguous_to_ptr(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.util.numpy_contiguous_to_ptr(ndarray) -> (ptr, contiguous_array)";
    PyObject* p[1];
    if (!pyacl::Unpack(args, 1, p, kSig)) return nullptr;
    if (!IsNdarray(p[0])) return pyacl::BadArgs(kSig);
    if (!Deprecated("numpy_contiguous_to_ptr", "bytes_to_ptr")) return nullptr;
    PyObject* np = Numpy();
    PyObject* arr = np ? PyObject_CallMethod(np, "ascontiguousarray", "O", p[0]) : nullptr;
    Py_XDECREF(np);
    if (arr == nullptr) return nullptr;
    return pyacl::Tuple({DataAddress(arr), arr});
}

PyObject* py_util_ptr_to_numpy(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.util.ptr_to_numpy(ptr: int, shape: tuple, npy_type: int) -> ndarray";
    // NumPy's NPY_TYPES numbers (not aclDataType): the dtype and its size.
    static const struct {
        long code;
        const char* dtype;
        Py_ssize_t size;
    } kTypes[] = {{0, "bool", 1},     {1, "int8", 1},    {2, "uint8", 1},   {3, "int16", 2},
                  {4, "uint16", 2},   {5, "int32", 4},   {6, "uint32", 4},  {7, "int64", 8},
                  {8, "uint64", 8},   {9, "int64", 8},   {10, "uint64", 8}, {11, "float32", 4},
                  {12, "float64", 8}, {23, "float16", 2}};
    PyObject* p[3];
    void* ptr = nullptr;
    long long code = 0;
    if (!pyacl::Unpack(args, 3, p, kSig)) return nullptr;
    if (!pyacl::ArgPointer(p[0], &ptr) || !pyacl::ArgSigned(p[2], &code))
        return pyacl::BadArgs(kSig);
    if (!PyTuple_Check(p[1])) {
        PyErr_Format(PyExc_TypeError, "shape: expected tuple, got %s", Py_TYPE(p[1])->tp_name);
        return pyacl::BadArgs(kSig);
    }
    const char* dtype = nullptr;
    Py_ssize_t bytes = 0;
    for (const auto& t : kTypes) {
        if (t.code == code) {
            dtype = t.dtype;
            bytes = t.size;
        }
    }
    if (dtype == nullptr)
        return PyErr_Format(PyExc_ValueError, "%s: unknown npy_type %lld", kSig, code);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(p[1]); ++i) {
        long long dim = 0;
        if (!pyacl::ArgSigned(PyTuple_GET_ITEM(p[1], i), &dim)) return pyacl::BadArgs(kSig);
        if (dim < 0) return PyErr_Format(PyExc_ValueError, "%s: negative dimension", kSig);
        bytes *= static_cast<Py_ssize_t>(dim);
    }
    if (ptr == nullptr && bytes > 0)
        return PyErr_Format(PyExc_ValueError, "%s: NULL address", kSig);
    if (!Deprecated("ptr_to_numpy", "ptr_to_bytes")) return nullptr;
    // A writeable view over the memory (no copy, no ownership), as pyACL's ptr_to_numpy.
    static char empty[1];
    PyObject* view =
        PyMemoryView_FromMemory(ptr ? static_cast<char*>(ptr) : empty, bytes, PyBUF_WRITE);
    PyObject* np = Numpy();
    PyObject* flat =
        (view && np) ? PyObject_CallMethod(np, "frombuffer", "Os", view, dtype) : nullptr;
    Py_XDECREF(view);
    Py_XDECREF(np);
    PyObject* arr = flat ? PyObject_CallMethod(flat, "reshape", "O", p[1]) : nullptr;
    Py_XDECREF(flat);
    return arr;
}

PyObject* py_util_start_thread(PyObject*, PyObject* args) {
    static const char kSig[] = "acl.util.start_thread(fn: callable, args) -> (thread_id, ret)";
    PyObject* p[2];
    if (!pyacl::Unpack(args, 2, p, kSig)) return nullptr;
    if (!PyCallable_Check(p[0])) {
        PyErr_Format(PyExc_TypeError, "fn: expected a callable, got %s", Py_TYPE(p[0])->tp_name);
        return pyacl::BadArgs(kSig);
    }
    auto* rec = new ThreadRecord{Py_NewRef(p[0]), Py_NewRef(p[1]), {}};
    pthread_t tid{};
    int ret = 0;
    Py_BEGIN_ALLOW_THREADS ret = pthread_create(&tid, nullptr, ThreadMain, rec);
    Py_END_ALLOW_THREADS if (ret != 0) {
        Py_DECREF(rec->fn);
        Py_DECREF(rec->args);
        delete rec;
        return pyacl::Tuple({PyLong_FromLong(0), PyLong_FromLong(ret)});
    }
    auto id = static_cast<unsigned long long>(tid);
    g_threads[id] = rec;
    return pyacl::Tuple({PyLong_FromUnsignedLongLong(id), PyLong_FromLong(ret)});
}

PyObject* py_util_stop_thread(PyObject*, PyObject* args) {
    static const char kSig[] = "acl.util.stop_thread(thread_id: int) -> ret";
    PyObject* p[1];
    unsigned long long id = 0;
    if (!pyacl::Unpack(args, 1, p, kSig)) return nullptr;
    if (!pyacl::ArgUnsigned(p[0], &id)) return pyacl::BadArgs(kSig);
    auto it = g_threads.find(id);
    if (it == g_threads.end()) return PyLong_FromLong(ESRCH);  // not a start_thread thread
    ThreadRecord* rec = it->second;
    g_threads.erase(it);
    int ret = 0;
    Py_BEGIN_ALLOW_THREADS ret = pthread_join(static_cast<pthread_t>(id), nullptr);
    Py_END_ALLOW_THREADS std::string error = rec->error;
    Py_DECREF(rec->fn);
    Py_DECREF(rec->args);
    delete rec;
    if (!error.empty()) {
        return PyErr_Format(PyExc_RuntimeError,
                            "acl.util.stop_thread: the thread function raised %s", error.c_str());
    }
    return PyLong_FromLong(ret);
}
