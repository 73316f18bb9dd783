// pyACL: conversions shared by the generated wrappers (tools/gen_pyacl.py) and the hand-written
// ones. pyACL's rules: positional arguments, handles and pointers as Python ints (0 is NULL),
// API failures as return codes, TypeError only for arguments of the wrong type or number.
#pragma once

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <cstdint>
#include <initializer_list>
#include <type_traits>
#include <vector>

#define ENABLE_DVPP_INTERFACE
#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "acl/ops/acl_cblas.h"
#include "acl/ops/acl_dvpp.h"

namespace pyacl {

struct Namespace {
    const char* name;  // "" is the top-level acl module
    PyMethodDef* methods;
};
extern const Namespace kNamespaces[];

// Raises TypeError naming the function's signature; returns nullptr for `return BadArgs(...)`.
PyObject* BadArgs(const char* signature);
// Checks the positional argument count and copies the arguments out (borrowed).
bool Unpack(PyObject* args, Py_ssize_t count, PyObject** out, const char* signature);
bool CheckCount(PyObject* args, Py_ssize_t min, Py_ssize_t max, const char* signature);
// The answer of a function this binding does not wrap yet: ACL_ERROR_RT_FEATURE_NOT_SUPPORT.
PyObject* NotBound(const char* signature);

bool ArgPointer(PyObject* obj, void** out);
bool ArgSigned(PyObject* obj, long long* out);
bool ArgUnsigned(PyObject* obj, unsigned long long* out);
bool ArgDouble(PyObject* obj, double* out);

template <class T>
bool Arg(PyObject* obj, T* out) {
    if constexpr (std::is_pointer_v<T>) {
        void* p = nullptr;
        if (!ArgPointer(obj, &p)) return false;
        *out = reinterpret_cast<T>(p);
    } else if constexpr (std::is_floating_point_v<T>) {
        double v = 0;
        if (!ArgDouble(obj, &v)) return false;
        *out = static_cast<T>(v);
    } else if constexpr (std::is_enum_v<T> || std::is_signed_v<T>) {
        long long v = 0;
        if (!ArgSigned(obj, &v)) return false;
        *out = static_cast<T>(v);
    } else {
        // Unsigned C parameters wrap like pyACL's unsigned parse codes (no overflow check).
        unsigned long long v = 0;
        if (!ArgUnsigned(obj, &v)) return false;
        *out = static_cast<T>(v);
    }
    return true;
}
// Strings: only str (None and bytes are TypeErrors, as in pyACL).
bool Arg(PyObject* obj, const char** out);

PyObject* Str(const char* s);  // None for NULL

template <class T>
PyObject* ToPy(T value) {
    if constexpr (std::is_same_v<std::remove_cv_t<std::remove_pointer_t<T>>, char> &&
                  std::is_pointer_v<T>) {
        return Str(value);
    } else if constexpr (std::is_pointer_v<T>) {
        return PyLong_FromUnsignedLongLong(
            static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(value)));
    } else if constexpr (std::is_floating_point_v<T>) {
        return PyFloat_FromDouble(static_cast<double>(value));
    } else if constexpr (std::is_enum_v<T> || std::is_signed_v<T>) {
        return PyLong_FromLongLong(static_cast<long long>(value));
    } else {
        return PyLong_FromUnsignedLongLong(static_cast<unsigned long long>(value));
    }
}

// Builds a tuple from new references; on any nullptr releases the others and returns nullptr.
PyObject* Tuple(std::initializer_list<PyObject*> items);

// Lists in, as pyACL takes them: only a list (a tuple is a TypeError).
bool ListOfPointers(PyObject* obj, std::vector<void*>* out);
bool ListOfInt64(PyObject* obj, std::vector<int64_t>* out);

// Prints the pending exception and its traceback to stderr, saying where it came from, and
// clears it (SystemExit included: it does not end the process from a callback).
void ReportException(const char* where);

// Calls fn(args...) on this thread (which must hold the GIL); an exception is printed to stderr
// with where it came from, and cleared: a callback never takes the process down.
void CallPython(PyObject* fn, PyObject* args, const char* where);

}  // namespace pyacl
