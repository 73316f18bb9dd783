// Version and capability queries that return strings, dicts or lists.
#include <string>

#include "pyacl.h"

PyObject* py_acl_get_cann_version(PyObject*, PyObject* args) {
    static const char kSig[] = "acl.get_cann_version(pkg_enum: int) -> (version_dict, ret)";
    PyObject* p[1];
    aclCANNPackageName name{};
    if (!pyacl::Unpack(args, 1, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &name)) return pyacl::BadArgs(kSig);
    aclCANNPackageVersion v{};
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclsysGetCANNVersion(name, &v);
    Py_END_ALLOW_THREADS if (ret !=
                             ACL_SUCCESS) return pyacl::Tuple({PyDict_New(), PyLong_FromLong(ret)});
    // The C strings are NUL-terminated within their arrays; terminate them anyway.
    v.version[sizeof v.version - 1] = v.majorVersion[sizeof v.majorVersion - 1] = '\0';
    v.minorVersion[sizeof v.minorVersion - 1] = v.releaseVersion[sizeof v.releaseVersion - 1] =
        '\0';
    v.patchVersion[sizeof v.patchVersion - 1] = v.reserved[sizeof v.reserved - 1] = '\0';
    return pyacl::Tuple(
        {Py_BuildValue("{s:s,s:s,s:s,s:s,s:s,s:s}", "version", v.version, "major_version",
                       v.majorVersion, "minor_version", v.minorVersion, "release_version",
                       v.releaseVersion, "patch_version", v.patchVersion, "reserved", v.reserved),
         PyLong_FromLong(ret)});
}

PyObject* py_acl_get_version_str(PyObject*, PyObject* args) {
    static const char kSig[] = "acl.get_version_str(pkg_name: str) -> (version, ret)";
    PyObject* p[1];
    const char* name = nullptr;
    if (!pyacl::Unpack(args, 1, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &name)) return pyacl::BadArgs(kSig);
    std::string pkg(name);  // the C function takes a non-const char*
    char version[ACL_PKG_VERSION_MAX_SIZE + 1] = {};
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclsysGetVersionStr(pkg.data(), version);
    Py_END_ALLOW_THREADS return pyacl::Tuple(
        {ret == ACL_SUCCESS ? pyacl::Str(version) : Py_NewRef(Py_None), PyLong_FromLong(ret)});
}

PyObject* py_acl_get_cann_attribute_list(PyObject*, PyObject* args) {
    static const char kSig[] = "acl.get_cann_attribute_list() -> (list, num, ret)";
    if (!pyacl::CheckCount(args, 0, 0, kSig)) return nullptr;
    const aclCannAttr* attrs = nullptr;
    size_t num = 0;
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclGetCannAttributeList(&attrs, &num);
    Py_END_ALLOW_THREADS PyObject* list = PyList_New(0);
    for (size_t i = 0; list && ret == ACL_SUCCESS && attrs && i < num; ++i) {
        PyObject* item = PyLong_FromLong(attrs[i]);
        if (item == nullptr || PyList_Append(list, item) < 0) Py_CLEAR(list);
        Py_XDECREF(item);
    }
    return pyacl::Tuple({list, PyLong_FromSize_t(num), PyLong_FromLong(ret)});
}
