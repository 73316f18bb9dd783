// The `acl` extension module: functions only, grouped in pyACL's namespaces. Each namespace is a
// module registered in sys.modules as acl.<name> and an attribute of acl, so both
// `acl.rt.malloc(...)` and `import acl.rt` work, as with Huawei's pyACL.
#include "pyacl.h"

static PyModuleDef kAclModule = {PyModuleDef_HEAD_INIT,
                                 "acl",
                                 "AscendCL for Python (pyACL), on openacl",
                                 -1,
                                 nullptr,
                                 nullptr,
                                 nullptr,
                                 nullptr,
                                 nullptr};

PyMODINIT_FUNC PyInit_acl(void) {
    PyObject* acl = PyModule_Create(&kAclModule);
    if (acl == nullptr) return nullptr;
    for (const pyacl::Namespace* ns = pyacl::kNamespaces; ns->name; ++ns) {
        if (ns->name[0] == '\0') {
            if (PyModule_AddFunctions(acl, ns->methods) < 0) goto fail;
            continue;
        }
        {
            PyObject* name = PyUnicode_FromFormat("acl.%s", ns->name);
            PyObject* sub = name ? PyImport_AddModuleObject(name) : nullptr;  // borrowed
            Py_XDECREF(name);
            if (sub == nullptr || PyModule_AddFunctions(sub, ns->methods) < 0 ||
                PyModule_AddObjectRef(acl, ns->name, sub) < 0) {
                goto fail;
            }
        }
    }
    return acl;
fail:
    Py_DECREF(acl);
    return nullptr;
}
