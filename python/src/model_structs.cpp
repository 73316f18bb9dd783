// acl.mdl functions whose C side fills a struct: pyACL returns it as a dict, `{}` when ret != 0.
#include "pyacl.h"

namespace {

PyObject* DimsDict(const aclmdlIODims& d) {
    size_t n = d.dimCount < ACL_MAX_DIM_CNT ? d.dimCount : ACL_MAX_DIM_CNT;
    PyObject* dims = PyList_New(static_cast<Py_ssize_t>(n));
    if (dims == nullptr) return nullptr;
    for (size_t i = 0; i < n; ++i)
        PyList_SET_ITEM(dims, i, PyLong_FromLongLong(d.dims[i]));
    char name[ACL_MAX_TENSOR_NAME_LEN + 1] = {};
    memcpy(name, d.name, ACL_MAX_TENSOR_NAME_LEN);
    return Py_BuildValue("{s:s,s:n,s:N}", "name", name, "dimCount", static_cast<Py_ssize_t>(n),
                         "dims", dims);
}

using GetDims = aclError (*)(const aclmdlDesc*, size_t, aclmdlIODims*);

PyObject* Dims(PyObject* args, GetDims fn, const char* sig) {
    PyObject* p[2];
    const aclmdlDesc* desc = nullptr;
    size_t index = 0;
    if (!pyacl::Unpack(args, 2, p, sig)) return nullptr;
    if (!pyacl::Arg(p[0], &desc) || !pyacl::Arg(p[1], &index)) return pyacl::BadArgs(sig);
    aclmdlIODims dims{};
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = fn(desc, index, &dims);
    Py_END_ALLOW_THREADS return pyacl::Tuple(
        {ret == ACL_SUCCESS ? DimsDict(dims) : PyDict_New(), PyLong_FromLong(ret)});
}

}  // namespace

PyObject* py_mdl_get_input_dims(PyObject*, PyObject* args) {
    return Dims(args, aclmdlGetInputDims,
                "acl.mdl.get_input_dims(model_desc: int, index: int) -> (dims_dict, ret)");
}

PyObject* py_mdl_get_input_dims_v2(PyObject*, PyObject* args) {
    return Dims(args, aclmdlGetInputDimsV2,
                "acl.mdl.get_input_dims_v2(model_desc: int, index: int) -> (dims_dict, ret)");
}

PyObject* py_mdl_get_output_dims(PyObject*, PyObject* args) {
    return Dims(args, aclmdlGetOutputDims,
                "acl.mdl.get_output_dims(model_desc: int, index: int) -> (dims_dict, ret)");
}

PyObject* py_mdl_get_cur_output_dims(PyObject*, PyObject* args) {
    return Dims(args, aclmdlGetCurOutputDims,
                "acl.mdl.get_cur_output_dims(model_desc: int, index: int) -> (dims_dict, ret)");
}

PyObject* py_mdl_get_dynamic_batch(PyObject*, PyObject* args) {
    static const char kSig[] = "acl.mdl.get_dynamic_batch(model_desc: int) -> (batch_dict, ret)";
    PyObject* p[1];
    const aclmdlDesc* desc = nullptr;
    if (!pyacl::Unpack(args, 1, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &desc)) return pyacl::BadArgs(kSig);
    aclmdlBatch batch{};
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclmdlGetDynamicBatch(desc, &batch);
    Py_END_ALLOW_THREADS if (ret !=
                             ACL_SUCCESS) return pyacl::Tuple({PyDict_New(), PyLong_FromLong(ret)});
    size_t n = batch.batchCount < ACL_MAX_BATCH_NUM ? batch.batchCount : ACL_MAX_BATCH_NUM;
    PyObject* list = PyList_New(static_cast<Py_ssize_t>(n));
    if (list == nullptr) return nullptr;
    for (size_t i = 0; i < n; ++i)
        PyList_SET_ITEM(list, i, PyLong_FromUnsignedLongLong(batch.batch[i]));
    return pyacl::Tuple(
        {Py_BuildValue("{s:n,s:N}", "batchCount", static_cast<Py_ssize_t>(n), "batch", list),
         PyLong_FromLong(ret)});
}

PyObject* py_mdl_get_dynamic_hw(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.mdl.get_dynamic_hw(model_desc: int, index: int) -> (hw_dict, ret)";
    PyObject* p[2];
    const aclmdlDesc* desc = nullptr;
    size_t index = 0;
    if (!pyacl::Unpack(args, 2, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &desc) || !pyacl::Arg(p[1], &index)) return pyacl::BadArgs(kSig);
    aclmdlHW hw{};
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclmdlGetDynamicHW(desc, index, &hw);
    Py_END_ALLOW_THREADS if (ret !=
                             ACL_SUCCESS) return pyacl::Tuple({PyDict_New(), PyLong_FromLong(ret)});
    size_t n = hw.hwCount < ACL_MAX_HW_NUM ? hw.hwCount : ACL_MAX_HW_NUM;
    PyObject* list = PyList_New(static_cast<Py_ssize_t>(n));
    if (list == nullptr) return nullptr;
    for (size_t i = 0; i < n; ++i) {
        PyList_SET_ITEM(list, i,
                        Py_BuildValue("[KK]", static_cast<unsigned long long>(hw.hw[i][0]),
                                      static_cast<unsigned long long>(hw.hw[i][1])));
    }
    return pyacl::Tuple(
        {Py_BuildValue("{s:n,s:N}", "hwCount", static_cast<Py_ssize_t>(n), "hw", list),
         PyLong_FromLong(ret)});
}

PyObject* py_mdl_set_input_dynamic_dims(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.mdl.set_input_dynamic_dims(model_id: int, dataset: int, index: int, dims_dict: dict) "
        "-> ret";
    PyObject* p[4];
    uint32_t model_id = 0;
    aclmdlDataset* dataset = nullptr;
    size_t index = 0;
    if (!pyacl::Unpack(args, 4, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &model_id) || !pyacl::Arg(p[1], &dataset) || !pyacl::Arg(p[2], &index)) {
        return pyacl::BadArgs(kSig);
    }
    if (!PyDict_Check(p[3])) {
        PyErr_Format(PyExc_TypeError, "dims_dict: expected dict, got %s", Py_TYPE(p[3])->tp_name);
        return pyacl::BadArgs(kSig);
    }
    // Same keys as get_input_dims returns: name (optional), dimCount (optional), dims.
    aclmdlIODims dims{};
    PyObject* name = PyDict_GetItemString(p[3], "name");
    const char* text = nullptr;
    if (name && name != Py_None) {
        if (!pyacl::Arg(name, &text)) return pyacl::BadArgs(kSig);
        strncpy(dims.name, text, ACL_MAX_TENSOR_NAME_LEN - 1);
    }
    PyObject* list = PyDict_GetItemString(p[3], "dims");
    std::vector<int64_t> values;
    if (list == nullptr) {
        PyErr_SetString(PyExc_TypeError, "dims_dict has no 'dims' list");
        return pyacl::BadArgs(kSig);
    }
    if (!pyacl::ListOfInt64(list, &values)) return pyacl::BadArgs(kSig);
    if (values.size() > ACL_MAX_DIM_CNT) {
        return PyErr_Format(PyExc_ValueError, "%s: more than %d dims", kSig, ACL_MAX_DIM_CNT);
    }
    dims.dimCount = values.size();
    PyObject* count = PyDict_GetItemString(p[3], "dimCount");
    if (count && !pyacl::Arg(count, &dims.dimCount)) return pyacl::BadArgs(kSig);
    for (size_t i = 0; i < values.size(); ++i)
        dims.dims[i] = values[i];
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclmdlSetInputDynamicDims(model_id, dataset, index, &dims);
    Py_END_ALLOW_THREADS return PyLong_FromLong(ret);
}

PyObject* py_mdl_set_dump(PyObject*, PyObject* args) {
    static const char kSig[] = "acl.mdl.set_dump([cfg_path: str]) -> ret";
    const char* path = nullptr;
    if (!pyacl::CheckCount(args, 0, 1, kSig)) return nullptr;
    if (PyTuple_GET_SIZE(args) == 1 && !pyacl::Arg(PyTuple_GET_ITEM(args, 0), &path)) {
        return pyacl::BadArgs(kSig);
    }
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclmdlSetDump(path);
    Py_END_ALLOW_THREADS return PyLong_FromLong(ret);
}

PyObject* py_mdl_get_input_dynamic_dims(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.mdl.get_input_dynamic_dims(model_desc: int, index: int, gear_count: int) -> "
        "(dims_dict_list, ret)";
    PyObject* p[3];
    const aclmdlDesc* desc = nullptr;
    size_t index = 0, gears = 0;
    if (!pyacl::Unpack(args, 3, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &desc) || !pyacl::Arg(p[1], &index) || !pyacl::Arg(p[2], &gears)) {
        return pyacl::BadArgs(kSig);
    }
    if (gears > 4096) return PyErr_Format(PyExc_ValueError, "%s: gear_count too large", kSig);
    std::vector<aclmdlIODims> dims(gears > 0 ? gears : 1);
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclmdlGetInputDynamicDims(desc, index, dims.data(), gears);
    Py_END_ALLOW_THREADS PyObject* list = PyList_New(0);
    for (size_t i = 0; list && ret == ACL_SUCCESS && i < gears; ++i) {
        PyObject* d = DimsDict(dims[i]);
        if (d == nullptr || PyList_Append(list, d) < 0) Py_CLEAR(list);
        Py_XDECREF(d);
    }
    return pyacl::Tuple({list, PyLong_FromLong(ret)});
}
