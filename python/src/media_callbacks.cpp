// Video decoder and encoder callbacks from Python. pyACL keeps one Python function per channel
// description (vdec/venc_set_channel_desc_callback) and passes each frame's user_data, any
// Python object, to it: fn(input_desc, output_desc, user_data). Each submitted frame carries
// its function and user_data to a C trampoline, which runs on the channel's report thread
// (the thread in acl.rt.process_report) with the GIL taken.
#include <cstring>
#include <map>

#include "pyacl.h"

namespace {

struct Frame {
    PyObject* fn;
    PyObject* user_data;
};

// Python callbacks by channel description; guarded by the GIL.
std::map<const void*, PyObject*> g_vdec_callbacks;
std::map<const void*, PyObject*> g_venc_callbacks;

void RunFrame(void* input, void* output, void* user, const char* where) {
    auto* frame = static_cast<Frame*>(user);
    if (frame == nullptr || !Py_IsInitialized()) return;
    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject* args = Py_BuildValue(
        "(KKO)", static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(input)),
        static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(output)),
        frame->user_data);
    if (args) pyacl::CallPython(frame->fn, args, where);
    Py_XDECREF(args);
    Py_DECREF(frame->fn);
    Py_DECREF(frame->user_data);
    delete frame;
    PyGILState_Release(gil);
}

void VdecTrampoline(acldvppStreamDesc* input, acldvppPicDesc* output, void* user) {
    RunFrame(input, output, user, "an acl.media.vdec callback");
}

void VencTrampoline(acldvppPicDesc* input, acldvppStreamDesc* output, void* user) {
    RunFrame(input, output, user, "an acl.media.venc callback");
}

void Remember(std::map<const void*, PyObject*>& map, const void* desc, PyObject* fn) {
    auto it = map.find(desc);
    if (it != map.end()) {
        Py_DECREF(it->second);
        map.erase(it);
    }
    if (fn) map[desc] = Py_NewRef(fn);
}

PyObject* Lookup(std::map<const void*, PyObject*>& map, const void* desc, const char* sig) {
    auto it = map.find(desc);
    if (it == map.end()) {
        PyErr_Format(PyExc_RuntimeError, "%s: no callback set for channel description %p", sig,
                     desc);
        return nullptr;
    }
    return it->second;
}

// A frame for `fn` and `user_data`, to hand to C; released by the trampoline or by Drop.
Frame* NewFrame(PyObject* fn, PyObject* user_data) {
    return new Frame{Py_NewRef(fn), Py_NewRef(user_data)};
}

void Drop(Frame* frame) {
    Py_DECREF(frame->fn);
    Py_DECREF(frame->user_data);
    delete frame;
}

template <class Desc, class Cb>
PyObject* SetCallback(PyObject* args, const char* sig, std::map<const void*, PyObject*>& map,
                      aclError (*set)(Desc*, Cb), Cb trampoline) {
    PyObject* p[2];
    Desc* desc = nullptr;
    if (!pyacl::Unpack(args, 2, p, sig)) return nullptr;
    if (!pyacl::Arg(p[0], &desc)) return pyacl::BadArgs(sig);
    if (!PyCallable_Check(p[1])) {
        PyErr_Format(PyExc_TypeError, "fn: expected a callable, got %s", Py_TYPE(p[1])->tp_name);
        return pyacl::BadArgs(sig);
    }
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = set(desc, trampoline);
    Py_END_ALLOW_THREADS if (ret == ACL_SUCCESS) Remember(map, desc, p[1]);
    return PyLong_FromLong(ret);
}

PyObject* GetCallback(PyObject* args, const char* sig, std::map<const void*, PyObject*>& map) {
    PyObject* p[1];
    const void* desc = nullptr;
    if (!pyacl::Unpack(args, 1, p, sig)) return nullptr;
    if (!pyacl::Arg(p[0], &desc)) return pyacl::BadArgs(sig);
    PyObject* fn = Lookup(map, desc, sig);
    return fn ? Py_NewRef(fn) : nullptr;
}

template <class Desc>
PyObject* DestroyChannel(PyObject* args, const char* sig, std::map<const void*, PyObject*>& map,
                         aclError (*destroy)(Desc*)) {
    PyObject* p[1];
    Desc* desc = nullptr;
    if (!pyacl::Unpack(args, 1, p, sig)) return nullptr;
    if (!pyacl::Arg(p[0], &desc)) return pyacl::BadArgs(sig);
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS  // pending frames' callbacks run during the destroy
        ret = destroy(desc);
    Py_END_ALLOW_THREADS if (ret == ACL_SUCCESS) Remember(map, desc, nullptr);
    return PyLong_FromLong(ret);
}

}  // namespace

PyObject* py_media_vdec_set_channel_desc_callback(PyObject*, PyObject* args) {
    return SetCallback<aclvdecChannelDesc, aclvdecCallback>(
        args, "acl.media.vdec_set_channel_desc_callback(vdec_desc: int, fn: callable) -> ret",
        g_vdec_callbacks, aclvdecSetChannelDescCallback, VdecTrampoline);
}

PyObject* py_media_venc_set_channel_desc_callback(PyObject*, PyObject* args) {
    return SetCallback<aclvencChannelDesc, aclvencCallback>(
        args, "acl.media.venc_set_channel_desc_callback(venc_desc: int, fn: callable) -> ret",
        g_venc_callbacks, aclvencSetChannelDescCallback, VencTrampoline);
}

PyObject* py_media_vdec_get_channel_desc_callback(PyObject*, PyObject* args) {
    return GetCallback(args, "acl.media.vdec_get_channel_desc_callback(vdec_desc: int) -> callable",
                       g_vdec_callbacks);
}

PyObject* py_media_venc_get_channel_desc_callback(PyObject*, PyObject* args) {
    return GetCallback(args, "acl.media.venc_get_channel_desc_callback(venc_desc: int) -> callable",
                       g_venc_callbacks);
}

PyObject* py_media_vdec_destroy_channel(PyObject*, PyObject* args) {
    return DestroyChannel(args, "acl.media.vdec_destroy_channel(vdec_desc: int) -> ret",
                          g_vdec_callbacks, aclvdecDestroyChannel);
}

PyObject* py_media_venc_destroy_channel(PyObject*, PyObject* args) {
    return DestroyChannel(args, "acl.media.venc_destroy_channel(venc_desc: int) -> ret",
                          g_venc_callbacks, aclvencDestroyChannel);
}

PyObject* py_media_vdec_send_frame(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.media.vdec_send_frame(vdec_desc: int, in_stream_desc: int, out_pic_desc: int, "
        "frame_cfg: int, user_data) -> ret";
    PyObject* p[5];
    aclvdecChannelDesc* desc = nullptr;
    acldvppStreamDesc* input = nullptr;
    acldvppPicDesc* output = nullptr;
    aclvdecFrameConfig* config = nullptr;
    if (!pyacl::Unpack(args, 5, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &desc) || !pyacl::Arg(p[1], &input) || !pyacl::Arg(p[2], &output) ||
        !pyacl::Arg(p[3], &config)) {
        return pyacl::BadArgs(kSig);
    }
    PyObject* fn = Lookup(g_vdec_callbacks, desc, kSig);
    if (fn == nullptr) return nullptr;
    // An empty end-of-stream send gets no callback of its own: it carries no frame.
    const bool bare_eos = input != nullptr && acldvppGetStreamDescEos(input) == 1 &&
                          acldvppGetStreamDescSize(input) == 0;
    Frame* frame = bare_eos ? nullptr : NewFrame(fn, p[4]);
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclvdecSendFrame(desc, input, output, config, frame);
    Py_END_ALLOW_THREADS if (ret != ACL_SUCCESS && frame != nullptr) Drop(frame);
    return PyLong_FromLong(ret);
}

PyObject* py_media_vdec_send_skipped_frame(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.media.vdec_send_skipped_frame(vdec_desc: int, in_stream_desc: int, frame_cfg: int, "
        "user_data) -> ret";
    PyObject* p[4];
    aclvdecChannelDesc* desc = nullptr;
    acldvppStreamDesc* input = nullptr;
    aclvdecFrameConfig* config = nullptr;
    if (!pyacl::Unpack(args, 4, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &desc) || !pyacl::Arg(p[1], &input) || !pyacl::Arg(p[2], &config)) {
        return pyacl::BadArgs(kSig);
    }
    PyObject* fn = Lookup(g_vdec_callbacks, desc, kSig);
    if (fn == nullptr) return nullptr;
    Frame* frame = NewFrame(fn, p[3]);
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclvdecSendSkippedFrame(desc, input, config, frame);
    Py_END_ALLOW_THREADS if (ret != ACL_SUCCESS) Drop(frame);
    return PyLong_FromLong(ret);
}

PyObject* py_media_venc_send_frame(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.media.venc_send_frame(venc_desc: int, in_pic_desc: int, reserve: int, frame_cfg: "
        "int, user_data) -> ret";
    PyObject* p[5];
    aclvencChannelDesc* desc = nullptr;
    acldvppPicDesc* input = nullptr;
    void* reserve = nullptr;
    aclvencFrameConfig* config = nullptr;
    if (!pyacl::Unpack(args, 5, p, kSig)) return nullptr;
    if (!pyacl::Arg(p[0], &desc) || !pyacl::Arg(p[1], &input) || !pyacl::Arg(p[2], &reserve) ||
        !pyacl::Arg(p[3], &config)) {
        return pyacl::BadArgs(kSig);
    }
    PyObject* fn = Lookup(g_venc_callbacks, desc, kSig);
    if (fn == nullptr) return nullptr;
    // The end-of-stream send (no picture) gets no callback of its own.
    Frame* frame = input == nullptr ? nullptr : NewFrame(fn, p[4]);
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = aclvencSendFrame(desc, input, reserve, config, frame);
    Py_END_ALLOW_THREADS if (ret != ACL_SUCCESS && frame != nullptr) Drop(frame);
    return PyLong_FromLong(ret);
}

// ---- channel description parameters: (type, value) with the value's size from its type ----

namespace {

enum class Size { k32, k64, kPtr };

template <class Desc, class Type>
PyObject* SetParam(PyObject* args, const char* sig, Size (*size_of)(int),
                   aclError (*set)(Desc*, Type, size_t, const void*), bool echo,
                   std::map<const void*, PyObject*>* callbacks, int callback_type,
                   void* trampoline) {
    PyObject* p[3];
    Desc* desc = nullptr;
    Type type{};
    if (!pyacl::Unpack(args, 3, p, sig)) return nullptr;
    if (!pyacl::Arg(p[0], &desc) || !pyacl::Arg(p[1], &type)) return pyacl::BadArgs(sig);
    uint32_t v32 = 0;
    uint64_t v64 = 0;
    const void* vptr = nullptr;
    const void* addr = nullptr;
    size_t len = 0;
    bool is_callback = callbacks && static_cast<int>(type) == callback_type;
    if (is_callback && PyCallable_Check(p[2])) {
        vptr = trampoline;  // the Python function is kept per channel, as with *_callback
        addr = &vptr;
        len = sizeof vptr;
    } else {
        Size size = size_of(static_cast<int>(type));
        bool ok = size == Size::k32
                      ? pyacl::Arg(p[2], &v32)
                      : (size == Size::k64 ? pyacl::Arg(p[2], &v64) : pyacl::Arg(p[2], &vptr));
        if (!ok) return pyacl::BadArgs(sig);
        addr = size == Size::k32 ? static_cast<const void*>(&v32)
                                 : (size == Size::k64 ? static_cast<const void*>(&v64) : &vptr);
        len = size == Size::k32 ? sizeof v32 : (size == Size::k64 ? sizeof v64 : sizeof vptr);
    }
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = set(desc, type, len, addr);
    Py_END_ALLOW_THREADS if (ret == ACL_SUCCESS && is_callback && PyCallable_Check(p[2])) {
        Remember(*callbacks, desc, p[2]);
    }
    PyObject* code = PyLong_FromLong(ret);
    return echo ? pyacl::Tuple({Py_NewRef(p[0]), code}) : code;
}

template <class Desc, class Type>
PyObject* GetParam(PyObject* args, const char* sig, Size (*size_of)(int),
                   aclError (*get)(const Desc*, Type, size_t, size_t*, void*), bool with_size) {
    PyObject* p[2];
    const Desc* desc = nullptr;
    Type type{};
    if (!pyacl::Unpack(args, 2, p, sig)) return nullptr;
    if (!pyacl::Arg(p[0], &desc) || !pyacl::Arg(p[1], &type)) return pyacl::BadArgs(sig);
    Size size = size_of(static_cast<int>(type));
    uint64_t value = 0;  // large enough for every parameter; read back at its own size
    size_t len = size == Size::k32 ? sizeof(uint32_t) : sizeof(uint64_t);
    size_t ret_size = 0;
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = get(desc, type, len, &ret_size, &value);
    Py_END_ALLOW_THREADS uint32_t v32 = 0;
    memcpy(&v32, &value, sizeof v32);
    PyObject* v =
        size == Size::k32 ? PyLong_FromUnsignedLong(v32) : PyLong_FromUnsignedLongLong(value);
    if (with_size) return pyacl::Tuple({PyLong_FromSize_t(ret_size), v, PyLong_FromLong(ret)});
    return pyacl::Tuple({v, PyLong_FromLong(ret)});
}

Size DvppSize(int type) {
    return type == ACL_DVPP_CHANNEL_ID_UINT64 ? Size::k64 : Size::k32;
}

Size VdecSize(int type) {
    if (type == ACL_VDEC_THREAD_ID_UINT64) return Size::k64;
    return type == ACL_VDEC_CALLBACK_PTR ? Size::kPtr : Size::k32;
}

Size VencSize(int type) {
    if (type == ACL_VENC_THREAD_ID_UINT64) return Size::k64;
    return type == ACL_VENC_CALLBACK_PTR || type == ACL_VENC_BUF_ADDR_PTR ? Size::kPtr : Size::k32;
}

}  // namespace

PyObject* py_media_dvpp_set_channel_desc_param(PyObject*, PyObject* args) {
    return SetParam(args,
                    "acl.media.dvpp_set_channel_desc_param(channel_desc: int, param_type: int, "
                    "value: int) -> (channel_desc, ret)",
                    DvppSize, acldvppSetChannelDescParam, true, nullptr, -1, nullptr);
}

PyObject* py_media_vdec_set_channel_desc_param(PyObject*, PyObject* args) {
    return SetParam(args,
                    "acl.media.vdec_set_channel_desc_param(vdec_desc: int, param_type: int, "
                    "value: int or callable) -> (vdec_desc, ret)",
                    VdecSize, aclvdecSetChannelDescParam, true, &g_vdec_callbacks,
                    ACL_VDEC_CALLBACK_PTR, reinterpret_cast<void*>(VdecTrampoline));
}

PyObject* py_media_venc_set_channel_desc_param(PyObject*, PyObject* args) {
    return SetParam(args,
                    "acl.media.venc_set_channel_desc_param(venc_desc: int, param_type: int, "
                    "value: int or callable) -> ret",
                    VencSize, aclvencSetChannelDescParam, false, &g_venc_callbacks,
                    ACL_VENC_CALLBACK_PTR, reinterpret_cast<void*>(VencTrampoline));
}

PyObject* py_media_dvpp_get_channel_desc_param(PyObject*, PyObject* args) {
    return GetParam(args,
                    "acl.media.dvpp_get_channel_desc_param(channel_desc: int, param_type: int) -> "
                    "(ret_size, value, ret)",
                    DvppSize, acldvppGetChannelDescParam, true);
}

PyObject* py_media_vdec_get_channel_desc_param(PyObject*, PyObject* args) {
    return GetParam(args,
                    "acl.media.vdec_get_channel_desc_param(vdec_desc: int, param_type: int) -> "
                    "(ret_size, value, ret)",
                    VdecSize, aclvdecGetChannelDescParam, true);
}

PyObject* py_media_venc_get_channel_desc_param(PyObject*, PyObject* args) {
    return GetParam(args,
                    "acl.media.venc_get_channel_desc_param(venc_desc: int, param_type: int) -> "
                    "(value, ret)",
                    VencSize, aclvencGetChannelDescParam, false);
}
