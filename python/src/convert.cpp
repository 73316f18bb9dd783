// Argument and result conversions shared by every wrapper (see pyacl.h for the rules).
#include "pyacl.h"

#include <cstdio>

namespace pyacl {

PyObject* BadArgs(const char* signature) {
    // pyACL reports every parse failure as a TypeError; ours also says what was expected.
    PyObject *type = nullptr, *value = nullptr, *trace = nullptr;
    PyErr_Fetch(&type, &value, &trace);
    PyObject* why = value ? PyObject_Str(value) : nullptr;
    const char* reason = why ? PyUnicode_AsUTF8(why) : nullptr;
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError, "%s: args parse failed (%s)", signature,
                 reason ? reason : "wrong argument type");
    Py_XDECREF(why);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(trace);
    return nullptr;
}

bool CheckCount(PyObject* args, Py_ssize_t min, Py_ssize_t max, const char* signature) {
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    if (n >= min && n <= max) return true;
    if (min == max) {
        PyErr_Format(PyExc_TypeError, "%s: takes %zd positional argument%s but %zd were given",
                     signature, max, max == 1 ? "" : "s", n);
    } else {
        PyErr_Format(PyExc_TypeError,
                     "%s: takes %zd to %zd positional arguments but %zd were given", signature, min,
                     max, n);
    }
    return false;
}

bool Unpack(PyObject* args, Py_ssize_t count, PyObject** out, const char* signature) {
    if (!CheckCount(args, count, count, signature)) return false;
    for (Py_ssize_t i = 0; i < count; ++i)
        out[i] = PyTuple_GET_ITEM(args, i);
    return true;
}

PyObject* NotBound(const char* signature) {
    (void)signature;
    return PyLong_FromLong(ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

static bool NeedInt(PyObject* obj) {
    if (PyLong_Check(obj)) return true;
    PyErr_Format(PyExc_TypeError, "expected int, got %s", Py_TYPE(obj)->tp_name);
    return false;
}

bool ArgPointer(PyObject* obj, void** out) {
    if (!NeedInt(obj)) return false;
    unsigned long long v = PyLong_AsUnsignedLongLongMask(obj);
    if (PyErr_Occurred()) return false;
    *out = reinterpret_cast<void*>(static_cast<std::uintptr_t>(v));
    return true;
}

bool ArgSigned(PyObject* obj, long long* out) {
    if (!NeedInt(obj)) return false;
    *out = PyLong_AsLongLong(obj);
    return !PyErr_Occurred();
}

bool ArgUnsigned(PyObject* obj, unsigned long long* out) {
    if (!NeedInt(obj)) return false;
    *out = PyLong_AsUnsignedLongLongMask(obj);
    return !PyErr_Occurred();
}

bool ArgDouble(PyObject* obj, double* out) {
    if (!PyFloat_Check(obj) && !PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "expected float, got %s", Py_TYPE(obj)->tp_name);
        return false;
    }
    *out = PyFloat_AsDouble(obj);
    return !PyErr_Occurred();
}

bool Arg(PyObject* obj, const char** out) {
    if (!PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "expected str, got %s", Py_TYPE(obj)->tp_name);
        return false;
    }
    *out = PyUnicode_AsUTF8(obj);
    return *out != nullptr;
}

PyObject* Str(const char* s) {
    if (s == nullptr) Py_RETURN_NONE;
    return PyUnicode_DecodeUTF8(s, static_cast<Py_ssize_t>(strlen(s)), "replace");
}

PyObject* Tuple(std::initializer_list<PyObject*> items) {
    bool ok = true;
    for (PyObject* item : items)
        ok = ok && item != nullptr;
    PyObject* tuple = ok ? PyTuple_New(static_cast<Py_ssize_t>(items.size())) : nullptr;
    Py_ssize_t i = 0;
    for (PyObject* item : items) {
        if (tuple) {
            PyTuple_SET_ITEM(tuple, i++, item);
        } else {
            Py_XDECREF(item);
        }
    }
    return tuple;
}

template <class T, class F>
static bool List(PyObject* obj, std::vector<T>* out, F convert) {
    if (!PyList_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "expected list, got %s", Py_TYPE(obj)->tp_name);
        return false;
    }
    out->clear();
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(obj); ++i) {
        T v{};
        if (!convert(PyList_GET_ITEM(obj, i), &v)) return false;
        out->push_back(v);
    }
    return true;
}

bool ListOfPointers(PyObject* obj, std::vector<void*>* out) {
    return List(obj, out, ArgPointer);
}

bool ListOfInt64(PyObject* obj, std::vector<int64_t>* out) {
    return List(obj, out, [](PyObject* o, int64_t* v) {
        long long x = 0;
        if (!ArgSigned(o, &x)) return false;
        *v = x;
        return true;
    });
}

void ReportException(const char* where) {
    std::fprintf(stderr, "acl: exception in %s:\n", where);
    // PyErr_Print would exit the process on SystemExit: a callback must not end the program.
    if (PyErr_ExceptionMatches(PyExc_SystemExit)) {
        PyObject *type = nullptr, *value = nullptr, *trace = nullptr;
        PyErr_Fetch(&type, &value, &trace);
        PyErr_NormalizeException(&type, &value, &trace);
        PyErr_Display(type, value, trace);
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(trace);
        return;
    }
    PyErr_Print();  // the traceback to stderr; clears the error
}

void CallPython(PyObject* fn, PyObject* args, const char* where) {
    PyObject* result = args ? PyObject_CallObject(fn, args) : PyObject_CallNoArgs(fn);
    if (result == nullptr) ReportException(where);
    Py_XDECREF(result);
}

}  // namespace pyacl
