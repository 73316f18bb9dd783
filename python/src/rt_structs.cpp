// acl.rt functions with lists, strings written by C, or structs (returned as dicts).
#include <cstring>

#include "pyacl.h"

namespace {

bool Pids(PyObject* obj, std::vector<int32_t>* out) {
    std::vector<int64_t> v;
    if (!pyacl::ListOfInt64(obj, &v)) return false;
    out->assign(v.begin(), v.end());
    return true;
}

// {} is "no configuration" (NULL); other configurations are not bound yet.
bool EmptyConfig(PyObject* obj) {
    if (!PyDict_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "cfg: expected dict, got %s", Py_TYPE(obj)->tp_name);
        return false;
    }
    return true;
}

PyObject* NonEmptyConfig(const char* sig) {
    return PyErr_Format(PyExc_ValueError, "%s: only {} (no configuration) is supported", sig);
}

using MallocCfgFn = aclError (*)(void**, size_t, aclrtMemMallocPolicy, aclrtMallocConfig*);

PyObject* MallocWithCfg(PyObject* args, const char* sig, MallocCfgFn fn) {
    PyObject* p[3];
    size_t size = 0;
    aclrtMemMallocPolicy policy{};
    if (!pyacl::Unpack(args, 3, p, sig)) return nullptr;
    if (!pyacl::Arg(p[0], &size) || !pyacl::Arg(p[1], &policy) || !EmptyConfig(p[2])) {
        return pyacl::BadArgs(sig);
    }
    if (PyDict_Size(p[2]) != 0) return NonEmptyConfig(sig);
    void* ptr = nullptr;
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = fn(&ptr, size, policy, nullptr);
    Py_END_ALLOW_THREADS return pyacl::Tuple({pyacl::ToPy(ptr), PyLong_FromLong(ret)});
}

// A key of at most key_len bytes written by C, returned as str.
template <class Call>
PyObject* KeyOut(size_t key_len, const char* sig, Call call) {
    if (key_len > 4096) return PyErr_Format(PyExc_ValueError, "%s: key_len too large", sig);
    std::vector<char> key(key_len + 1, '\0');
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = call(key.data());
    Py_END_ALLOW_THREADS return pyacl::Tuple(
        {pyacl::Str(ret == ACL_SUCCESS ? key.data() : ""), PyLong_FromLong(ret)});
}

}  // namespace

PyObject* py_rt_malloc_with_cfg(PyObject*, PyObject* args) {
    return MallocWithCfg(
        args, "acl.rt.malloc_with_cfg(size: int, policy: int, cfg: dict) -> (dev_ptr, ret)",
        aclrtMallocWithCfg);
}

PyObject* py_rt_malloc_for_task_scheduler(PyObject*, PyObject* args) {
    return MallocWithCfg(
        args,
        "acl.rt.malloc_for_task_scheduler(size: int, policy: int, cfg: dict) -> (dev_ptr, ret)",
        aclrtMallocForTaskScheduler);
}

PyObject* py_media_dvpp_malloc_with_cfg(PyObject*, PyObject* args) {
    return MallocWithCfg(
        args, "acl.media.dvpp_malloc_with_cfg(size: int, policy: int, cfg: dict) -> (dev_ptr, ret)",
        acldvppMallocWithCfg);
}

PyObject* py_rt_malloc_host_with_cfg(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.rt.malloc_host_with_cfg(size: int, cfg: dict) -> (host_ptr, ret)";
    PyObject* p[2];
    uint64_t size = 0;
    if (!pyacl::Unpack(args, 2, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &size) || !EmptyConfig(p[1])) return pyacl::BadArgs(kSig);
    if (PyDict_Size(p[1]) != 0) return NonEmptyConfig(kSig);
    void* ptr = nullptr;
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclrtMallocHostWithCfg(&ptr, size, nullptr);
    Py_END_ALLOW_THREADS return pyacl::Tuple({pyacl::ToPy(ptr), PyLong_FromLong(ret)});
}

PyObject* py_rt_mem_set_pid_to_shareable_handle(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.rt.mem_set_pid_to_shareable_handle(shareable: int, pid_list: list[int]) -> ret";
    PyObject* p[2];
    uint64_t handle = 0;
    std::vector<int32_t> pids;
    if (!pyacl::Unpack(args, 2, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &handle) || !Pids(p[1], &pids)) return pyacl::BadArgs(kSig);
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclrtMemSetPidToShareableHandle(handle, pids.data(), pids.size());
    Py_END_ALLOW_THREADS return PyLong_FromLong(ret);
}

PyObject* py_rt_ipc_mem_set_import_pid(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.rt.ipc_mem_set_import_pid(key: str, pid_list: list[int]) -> ret";
    PyObject* p[2];
    const char* key = nullptr;
    std::vector<int32_t> pids;
    if (!pyacl::Unpack(args, 2, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &key) || !Pids(p[1], &pids)) return pyacl::BadArgs(kSig);
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclrtIpcMemSetImportPid(key, pids.data(), pids.size());
    Py_END_ALLOW_THREADS return PyLong_FromLong(ret);
}

PyObject* py_rt_notify_set_import_pid(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.rt.notify_set_import_pid(notify: int, pid_list: list[int]) -> ret";
    PyObject* p[2];
    aclrtNotify notify = nullptr;
    std::vector<int32_t> pids;
    if (!pyacl::Unpack(args, 2, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &notify) || !Pids(p[1], &pids)) return pyacl::BadArgs(kSig);
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclrtNotifySetImportPid(notify, pids.data(), pids.size());
    Py_END_ALLOW_THREADS return PyLong_FromLong(ret);
}

PyObject* py_rt_notify_batch_reset(PyObject*, PyObject* args) {
    static const char kSig[] = "acl.rt.notify_batch_reset(notify_list: list[int]) -> ret";
    PyObject* p[1];
    std::vector<void*> notifies;
    if (!pyacl::Unpack(args, 1, p, kSig)) return nullptr;
    if (!pyacl::ListOfPointers(p[0], &notifies)) return pyacl::BadArgs(kSig);
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclrtNotifyBatchReset(notifies.data(), notifies.size());
    Py_END_ALLOW_THREADS return PyLong_FromLong(ret);
}

PyObject* py_rt_ipc_mem_get_export_key(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.rt.ipc_mem_get_export_key(ptr: int, size: int, key_len: int, flag: int) -> (key, ret)";
    PyObject* p[4];
    void* ptr = nullptr;
    size_t size = 0, key_len = 0;
    uint64_t flag = 0;
    if (!pyacl::Unpack(args, 4, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &ptr) || !pyacl::Arg(p[1], &size) || !pyacl::Arg(p[2], &key_len) ||
        !pyacl::Arg(p[3], &flag)) {
        return pyacl::BadArgs(kSig);
    }
    return KeyOut(key_len, kSig, [&](char* key) {
        return aclrtIpcMemGetExportKey(ptr, size, key, key_len, flag);
    });
}

PyObject* py_rt_notify_get_export_key(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.rt.notify_get_export_key(notify: int, key_len: int, flag: int) -> (key, ret)";
    PyObject* p[3];
    aclrtNotify notify = nullptr;
    size_t key_len = 0;
    uint64_t flag = 0;
    if (!pyacl::Unpack(args, 3, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &notify) || !pyacl::Arg(p[1], &key_len) || !pyacl::Arg(p[2], &flag)) {
        return pyacl::BadArgs(kSig);
    }
    return KeyOut(key_len, kSig,
                  [&](char* key) { return aclrtNotifyGetExportKey(notify, key, key_len, flag); });
}

PyObject* py_rt_get_function_name(PyObject*, PyObject* args) {
    static const char kSig[] = "acl.rt.get_function_name(func: int, max_len: int) -> (name, ret)";
    PyObject* p[2];
    aclrtFuncHandle func = nullptr;
    uint32_t max_len = 0;
    if (!pyacl::Unpack(args, 2, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &func) || !pyacl::Arg(p[1], &max_len)) return pyacl::BadArgs(kSig);
    return KeyOut(max_len, kSig,
                  [&](char* name) { return aclrtGetFunctionName(func, max_len, name); });
}

PyObject* py_rt_pointer_get_attributes(PyObject*, PyObject* args) {
    static const char kSig[] = "acl.rt.pointer_get_attributes(ptr: int) -> (attr_dict, ret)";
    PyObject* p[1];
    const void* ptr = nullptr;
    if (!pyacl::Unpack(args, 1, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &ptr)) return pyacl::BadArgs(kSig);
    aclrtPtrAttributes a{};
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclrtPointerGetAttributes(ptr, &a);
    Py_END_ALLOW_THREADS if (ret !=
                             ACL_SUCCESS) return pyacl::Tuple({PyDict_New(), PyLong_FromLong(ret)});
    return pyacl::Tuple(
        {Py_BuildValue("{s:{s:I,s:i},s:I,s:[IIII]}", "location", "id", a.location.id, "type",
                       static_cast<int>(a.location.type), "page_size", a.pageSize, "rsv", a.rsv[0],
                       a.rsv[1], a.rsv[2], a.rsv[3]),
         PyLong_FromLong(ret)});
}

PyObject* py_rt_get_device_utilization_rate(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.rt.get_device_utilization_rate(device_id: int) -> (utilization_dict, ret)";
    PyObject* p[1];
    int32_t device = 0;
    if (!pyacl::Unpack(args, 1, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &device)) return pyacl::BadArgs(kSig);
    aclrtUtilizationInfo u{};
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclrtGetDeviceUtilizationRate(device, &u);
    Py_END_ALLOW_THREADS if (ret !=
                             ACL_SUCCESS) return pyacl::Tuple({PyDict_New(), PyLong_FromLong(ret)});
    return pyacl::Tuple(
        {Py_BuildValue("{s:i,s:i,s:i,s:i,s:N}", "cube_utilization", u.cubeUtilization,
                       "vector_utilization", u.vectorUtilization, "aicpu_utilization",
                       u.aicpuUtilization, "memory_utilization", u.memoryUtilization,
                       "utilization_extend", pyacl::ToPy(u.utilizationExtend)),
         PyLong_FromLong(ret)});
}

PyObject* py_rt_device_get_uuid(PyObject*, PyObject* args) {
    static const char kSig[] = "acl.rt.device_get_uuid(device_id: int) -> (uuid_dict, ret)";
    PyObject* p[1];
    int32_t device = 0;
    if (!pyacl::Unpack(args, 1, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &device)) return pyacl::BadArgs(kSig);
    aclrtUuid uuid{};
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclrtDeviceGetUuid(device, &uuid);
    Py_END_ALLOW_THREADS if (ret !=
                             ACL_SUCCESS) return pyacl::Tuple({PyDict_New(), PyLong_FromLong(ret)});
    PyObject* bytes = PyList_New(16);
    if (bytes == nullptr) return nullptr;
    for (int i = 0; i < 16; ++i) {
        PyList_SET_ITEM(bytes, i, PyLong_FromLong(static_cast<unsigned char>(uuid.bytes[i])));
    }
    return pyacl::Tuple({Py_BuildValue("{s:N}", "bytes", bytes), PyLong_FromLong(ret)});
}

PyObject* py_rt_set_stream_attribute(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.rt.set_stream_attribute(stream: int, attr: int, value: dict) -> ret";
    PyObject* p[3];
    aclrtStream stream = nullptr;
    aclrtStreamAttr attr{};
    if (!pyacl::Unpack(args, 3, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &stream) || !pyacl::Arg(p[1], &attr)) return pyacl::BadArgs(kSig);
    if (!PyDict_Check(p[2])) {
        PyErr_Format(PyExc_TypeError, "value: expected dict, got %s", Py_TYPE(p[2])->tp_name);
        return pyacl::BadArgs(kSig);
    }
    // The union's member is the one named in the dict (failureMode, overflowSwitch, ...).
    aclrtStreamAttrValue value{};
    PyObject* v = nullptr;
    bool ok = true;
    if ((v = PyDict_GetItemString(p[2], "failureMode"))) ok = pyacl::Arg(v, &value.failureMode);
    if ((v = PyDict_GetItemString(p[2], "overflowSwitch")))
        ok = ok && pyacl::Arg(v, &value.overflowSwitch);
    if ((v = PyDict_GetItemString(p[2], "userCustomTag")))
        ok = ok && pyacl::Arg(v, &value.userCustomTag);
    if (!ok) return pyacl::BadArgs(kSig);
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclrtSetStreamAttribute(stream, attr, &value);
    Py_END_ALLOW_THREADS return PyLong_FromLong(ret);
}

PyObject* py_rt_get_stream_attribute(PyObject*, PyObject* args) {
    static const char kSig[] = "acl.rt.get_stream_attribute(stream: int, attr: int) -> (dict, ret)";
    PyObject* p[2];
    aclrtStream stream = nullptr;
    aclrtStreamAttr attr{};
    if (!pyacl::Unpack(args, 2, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &stream) || !pyacl::Arg(p[1], &attr)) return pyacl::BadArgs(kSig);
    aclrtStreamAttrValue value{};
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclrtGetStreamAttribute(stream, attr, &value);
    Py_END_ALLOW_THREADS if (ret !=
                             ACL_SUCCESS) return pyacl::Tuple({PyDict_New(), PyLong_FromLong(ret)});
    return pyacl::Tuple(
        {Py_BuildValue("{s:K,s:I,s:I,s:[IIII]}", "failureMode",
                       static_cast<unsigned long long>(value.failureMode), "overflowSwitch",
                       value.overflowSwitch, "userCustomTag", value.userCustomTag, "reserved",
                       value.reserve[0], value.reserve[1], value.reserve[2], value.reserve[3]),
         PyLong_FromLong(ret)});
}

namespace {

// aclrtPhysicalMemProp from {'handleType', 'allocationType', 'memAttr', 'location': {'id',
// 'type'}, 'reserve'}; missing keys are 0.
bool MemProp(PyObject* obj, aclrtPhysicalMemProp* prop) {
    if (!PyDict_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "prop: expected dict, got %s", Py_TYPE(obj)->tp_name);
        return false;
    }
    PyObject* v = nullptr;
    bool ok = true;
    if ((v = PyDict_GetItemString(obj, "handleType"))) ok = pyacl::Arg(v, &prop->handleType);
    if (ok && (v = PyDict_GetItemString(obj, "allocationType")))
        ok = pyacl::Arg(v, &prop->allocationType);
    if (ok && (v = PyDict_GetItemString(obj, "memAttr"))) ok = pyacl::Arg(v, &prop->memAttr);
    if (ok && (v = PyDict_GetItemString(obj, "reserve"))) ok = pyacl::Arg(v, &prop->reserve);
    PyObject* location = ok ? PyDict_GetItemString(obj, "location") : nullptr;
    if (location && !PyDict_Check(location)) {
        PyErr_SetString(PyExc_TypeError, "prop['location']: expected {'id', 'type'}");
        return false;
    }
    if (ok && location && (v = PyDict_GetItemString(location, "id")))
        ok = pyacl::Arg(v, &prop->location.id);
    if (ok && location && (v = PyDict_GetItemString(location, "type")))
        ok = pyacl::Arg(v, &prop->location.type);
    return ok;
}

}  // namespace

PyObject* py_rt_malloc_physical(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.rt.malloc_physical(size: int, prop: dict, flags: int) -> (handle, ret)";
    PyObject* p[3];
    size_t size = 0;
    aclrtPhysicalMemProp prop{};
    uint64_t flags = 0;
    if (!pyacl::Unpack(args, 3, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &size) || !MemProp(p[1], &prop) || !pyacl::Arg(p[2], &flags)) {
        return pyacl::BadArgs(kSig);
    }
    aclrtDrvMemHandle handle = nullptr;
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclrtMallocPhysical(&handle, size, &prop, flags);
    Py_END_ALLOW_THREADS return pyacl::Tuple({pyacl::ToPy(handle), PyLong_FromLong(ret)});
}

PyObject* py_rt_mem_get_allocation_granularity(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.rt.mem_get_allocation_granularity(prop: dict, option: int) -> (granularity, ret)";
    PyObject* p[2];
    aclrtPhysicalMemProp prop{};
    aclrtMemGranularityOptions option{};
    if (!pyacl::Unpack(args, 2, p, kSig)) return nullptr;
    if (!MemProp(p[0], &prop) || !pyacl::Arg(p[1], &option)) return pyacl::BadArgs(kSig);
    size_t granularity = 0;
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclrtMemGetAllocationGranularity(&prop, option, &granularity);
    Py_END_ALLOW_THREADS return pyacl::Tuple(
        {PyLong_FromSize_t(granularity), PyLong_FromLong(ret)});
}

PyObject* py_rt_get_mem_uce_info(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.rt.get_mem_uce_info(device_id: int, array_size: int) -> (list of dicts, ret)";
    PyObject* p[2];
    int32_t device = 0;
    size_t count = 0;
    if (!pyacl::Unpack(args, 2, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &device) || !pyacl::Arg(p[1], &count)) return pyacl::BadArgs(kSig);
    if (count > 4096) return PyErr_Format(PyExc_ValueError, "%s: array_size too large", kSig);
    std::vector<aclrtMemUceInfo> infos(count > 0 ? count : 1);
    size_t got = 0;
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclrtGetMemUceInfo(device, infos.data(), count, &got);
    Py_END_ALLOW_THREADS PyObject* list = PyList_New(0);
    for (size_t i = 0; list && ret == ACL_SUCCESS && i < got && i < count; ++i) {
        PyObject* item = Py_BuildValue("{s:N,s:n}", "addr", pyacl::ToPy(infos[i].addr), "len",
                                       static_cast<Py_ssize_t>(infos[i].len));
        if (item == nullptr || PyList_Append(list, item) < 0) Py_CLEAR(list);
        Py_XDECREF(item);
    }
    return pyacl::Tuple({list, PyLong_FromLong(ret)});
}

PyObject* py_rt_mem_uce_repair(PyObject*, PyObject* args) {
    static const char kSig[] = "acl.rt.mem_uce_repair(device_id: int, infos: list[dict]) -> ret";
    PyObject* p[2];
    int32_t device = 0;
    if (!pyacl::Unpack(args, 2, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &device)) return pyacl::BadArgs(kSig);
    if (!PyList_Check(p[1])) {
        PyErr_Format(PyExc_TypeError, "infos: expected list, got %s", Py_TYPE(p[1])->tp_name);
        return pyacl::BadArgs(kSig);
    }
    std::vector<aclrtMemUceInfo> infos(static_cast<size_t>(PyList_GET_SIZE(p[1])));
    for (size_t i = 0; i < infos.size(); ++i) {
        PyObject* item = PyList_GET_ITEM(p[1], static_cast<Py_ssize_t>(i));
        PyObject* addr = PyDict_Check(item) ? PyDict_GetItemString(item, "addr") : nullptr;
        PyObject* len = PyDict_Check(item) ? PyDict_GetItemString(item, "len") : nullptr;
        if (addr == nullptr || len == nullptr) {
            PyErr_SetString(PyExc_TypeError, "infos: each item is an {'addr', 'len'} dict");
            return pyacl::BadArgs(kSig);
        }
        if (!pyacl::Arg(addr, &infos[i].addr) || !pyacl::Arg(len, &infos[i].len)) {
            return pyacl::BadArgs(kSig);
        }
    }
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclrtMemUceRepair(device, infos.data(), infos.size());
    Py_END_ALLOW_THREADS return PyLong_FromLong(ret);
}
