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

namespace {

// aclAippInfo's scalar fields, as dict keys named like the C members.
// clang-format off
#define PYACL_AIPP_INT_FIELDS(X)                                                        \
    X(inputFormat) X(srcImageSizeW) X(srcImageSizeH) X(cropSwitch) X(loadStartPosW)     \
    X(loadStartPosH) X(cropSizeW) X(cropSizeH) X(resizeSwitch) X(resizeOutputW)         \
    X(resizeOutputH) X(paddingSwitch) X(leftPaddingSize) X(rightPaddingSize)            \
    X(topPaddingSize) X(bottomPaddingSize) X(cscSwitch) X(rbuvSwapSwitch)               \
    X(axSwapSwitch) X(singleLineMode) X(matrixR0C0) X(matrixR0C1) X(matrixR0C2)         \
    X(matrixR1C0) X(matrixR1C1) X(matrixR1C2) X(matrixR2C0) X(matrixR2C1) X(matrixR2C2) \
    X(outputBias0) X(outputBias1) X(outputBias2) X(inputBias0) X(inputBias1)            \
    X(inputBias2) X(meanChn0) X(meanChn1) X(meanChn2) X(meanChn3) X(srcFormat)          \
    X(srcDatatype) X(srcDimNum) X(shapeCount)
#define PYACL_AIPP_FLOAT_FIELDS(X)                                                      \
    X(minChn0) X(minChn1) X(minChn2) X(minChn3)                                         \
    X(varReciChn0) X(varReciChn1) X(varReciChn2) X(varReciChn3)
// clang-format on

bool Put(PyObject* dict, const char* key, PyObject* value) {
    bool ok = value && PyDict_SetItemString(dict, key, value) == 0;
    Py_XDECREF(value);
    return ok;
}

PyObject* AippDict(const aclAippInfo& info) {
    PyObject* d = PyDict_New();
    bool ok = d != nullptr;
#define PYACL_PUT_INT(f) ok = ok && Put(d, #f, PyLong_FromLongLong(static_cast<long long>(info.f)));
#define PYACL_PUT_FLOAT(f) ok = ok && Put(d, #f, PyFloat_FromDouble(info.f));
    PYACL_AIPP_INT_FIELDS(PYACL_PUT_INT)
    PYACL_AIPP_FLOAT_FIELDS(PYACL_PUT_FLOAT)
#undef PYACL_PUT_INT
#undef PYACL_PUT_FLOAT
    size_t n = info.shapeCount < ACL_MAX_SHAPE_COUNT ? info.shapeCount : ACL_MAX_SHAPE_COUNT;
    PyObject* out = ok ? PyList_New(0) : nullptr;
    for (size_t i = 0; out && i < n; ++i) {
        const aclAippDims& dims = info.outDims[i];
        PyObject* item = Py_BuildValue("{s:N,s:n,s:N,s:n}", "srcDims", DimsDict(dims.srcDims),
                                       "srcSize", static_cast<Py_ssize_t>(dims.srcSize),
                                       "aippOutdims", DimsDict(dims.aippOutdims), "aippOutSize",
                                       static_cast<Py_ssize_t>(dims.aippOutSize));
        if (item == nullptr || PyList_Append(out, item) < 0) Py_CLEAR(out);
        Py_XDECREF(item);
    }
    ok = ok && Put(d, "outDims", out);
    if (!ok) Py_CLEAR(d);
    return d;
}

}  // namespace

PyObject* py_mdl_get_first_aipp_info(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.mdl.get_first_aipp_info(model_id: int, index: int) -> (dict or None, ret)";
    PyObject* p[2];
    uint32_t model_id = 0;
    size_t index = 0;
    if (!pyacl::Unpack(args, 2, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &model_id) || !pyacl::Arg(p[1], &index)) return pyacl::BadArgs(kSig);
    aclAippInfo info{};
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclmdlGetFirstAippInfo(model_id, index, &info);
    Py_END_ALLOW_THREADS return pyacl::Tuple(
        {ret == ACL_SUCCESS ? AippDict(info) : Py_NewRef(Py_None), PyLong_FromLong(ret)});
}

PyObject* py_mdl_create_and_get_op_desc(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.mdl.create_and_get_op_desc(device_id: int, stream_id: int, task_id: int, "
        "op_name_len: int) -> (op_name, in_desc, num_in, out_desc, num_out, ret)";
    PyObject* p[4];
    uint32_t device = 0, stream = 0, task = 0;
    size_t name_len = 0;
    if (!pyacl::Unpack(args, 4, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &device) || !pyacl::Arg(p[1], &stream) || !pyacl::Arg(p[2], &task) ||
        !pyacl::Arg(p[3], &name_len)) {
        return pyacl::BadArgs(kSig);
    }
    if (name_len > 4096) return PyErr_Format(PyExc_ValueError, "%s: op_name_len too large", kSig);
    std::vector<char> name(name_len + 1, '\0');
    aclTensorDesc *in = nullptr, *out = nullptr;
    size_t num_in = 0, num_out = 0;
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclmdlCreateAndGetOpDesc(device, stream, task, name.data(),
                                                          name_len, &in, &num_in, &out, &num_out);
    Py_END_ALLOW_THREADS return pyacl::Tuple({pyacl::Str(name.data()), pyacl::ToPy(in),
                                              PyLong_FromSize_t(num_in), pyacl::ToPy(out),
                                              PyLong_FromSize_t(num_out), PyLong_FromLong(ret)});
}
