// acl.media batch VPC calls: the ROI counts per source picture and the ROI/border configurations
// come as lists. pyACL echoes dst_batch for batch_crop and batch_crop_and_paste.
#include "pyacl.h"

namespace {

// Lists shared by every batch call.
struct Batch {
    acldvppChannelDesc* channel = nullptr;
    acldvppBatchPicDesc* src = nullptr;
    acldvppBatchPicDesc* dst = nullptr;
    std::vector<uint32_t> roi_nums;
    std::vector<void*> crops, pastes, borders;
    acldvppResizeConfig* resize = nullptr;
    aclrtStream stream = nullptr;
};

enum Extra { kNone = 0, kPaste = 1, kResize = 2, kBorder = 4 };

bool Parse(PyObject* args, int extras, Batch* b, const char* sig) {
    Py_ssize_t count = 6 + ((extras & kPaste) ? 1 : 0) + ((extras & kResize) ? 1 : 0) +
                       ((extras & kBorder) ? 1 : 0);
    PyObject* p[9];
    if (!pyacl::Unpack(args, count, p, sig)) return false;
    std::vector<int64_t> nums;
    Py_ssize_t i = 5;
    bool ok = pyacl::Arg(p[0], &b->channel) && pyacl::Arg(p[1], &b->src) &&
              pyacl::ListOfInt64(p[2], &nums) && pyacl::Arg(p[3], &b->dst) &&
              pyacl::ListOfPointers(p[4], &b->crops);
    if (ok && (extras & kPaste)) ok = pyacl::ListOfPointers(p[i++], &b->pastes);
    if (ok && (extras & kBorder)) ok = pyacl::ListOfPointers(p[i++], &b->borders);
    if (ok && (extras & kResize)) ok = pyacl::Arg(p[i++], &b->resize);
    ok = ok && pyacl::Arg(p[i], &b->stream);
    if (!ok) {
        pyacl::BadArgs(sig);
        return false;
    }
    b->roi_nums.assign(nums.begin(), nums.end());
    return true;
}

template <class T>
T** As(std::vector<void*>& v) {
    return reinterpret_cast<T**>(v.data());
}

}  // namespace

PyObject* py_media_dvpp_vpc_batch_crop_async(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.media.dvpp_vpc_batch_crop_async(channel_desc: int, src_batch: int, roi_num_list: "
        "list[int], dst_batch: int, crop_roi_list: list[int], stream: int) -> (dst_batch, ret)";
    Batch b;
    if (!Parse(args, kNone, &b, kSig)) return nullptr;
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = acldvppVpcBatchCropAsync(
        b.channel, b.src, b.roi_nums.data(), static_cast<uint32_t>(b.roi_nums.size()), b.dst,
        As<acldvppRoiConfig>(b.crops), b.stream);
    Py_END_ALLOW_THREADS return pyacl::Tuple({pyacl::ToPy(b.dst), PyLong_FromLong(ret)});
}

PyObject* py_media_dvpp_vpc_batch_crop_and_paste_async(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.media.dvpp_vpc_batch_crop_and_paste_async(channel_desc: int, src_batch: int, "
        "roi_num_list: list[int], dst_batch: int, crop_roi_list: list[int], paste_roi_list: "
        "list[int], stream: int) -> (dst_batch, ret)";
    Batch b;
    if (!Parse(args, kPaste, &b, kSig)) return nullptr;
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = acldvppVpcBatchCropAndPasteAsync(
        b.channel, b.src, b.roi_nums.data(), static_cast<uint32_t>(b.roi_nums.size()), b.dst,
        As<acldvppRoiConfig>(b.crops), As<acldvppRoiConfig>(b.pastes), b.stream);
    Py_END_ALLOW_THREADS return pyacl::Tuple({pyacl::ToPy(b.dst), PyLong_FromLong(ret)});
}

PyObject* py_media_dvpp_vpc_batch_crop_resize_async(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.media.dvpp_vpc_batch_crop_resize_async(channel_desc: int, src_batch: int, "
        "roi_num_list: list[int], dst_batch: int, crop_roi_list: list[int], resize_cfg: int, "
        "stream: int) -> ret";
    Batch b;
    if (!Parse(args, kResize, &b, kSig)) return nullptr;
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = acldvppVpcBatchCropResizeAsync(
        b.channel, b.src, b.roi_nums.data(), static_cast<uint32_t>(b.roi_nums.size()), b.dst,
        As<acldvppRoiConfig>(b.crops), b.resize, b.stream);
    Py_END_ALLOW_THREADS return PyLong_FromLong(ret);
}

PyObject* py_media_dvpp_vpc_batch_crop_resize_paste_async(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.media.dvpp_vpc_batch_crop_resize_paste_async(channel_desc: int, src_batch: int, "
        "roi_num_list: list[int], dst_batch: int, crop_roi_list: list[int], paste_roi_list: "
        "list[int], resize_cfg: int, stream: int) -> ret";
    Batch b;
    if (!Parse(args, kPaste | kResize, &b, kSig)) return nullptr;
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = acldvppVpcBatchCropResizePasteAsync(
        b.channel, b.src, b.roi_nums.data(), static_cast<uint32_t>(b.roi_nums.size()), b.dst,
        As<acldvppRoiConfig>(b.crops), As<acldvppRoiConfig>(b.pastes), b.resize, b.stream);
    Py_END_ALLOW_THREADS return PyLong_FromLong(ret);
}

PyObject* py_media_dvpp_vpc_batch_crop_resize_make_border_async(PyObject*, PyObject* args) {
    static const char kSig[] =
        "acl.media.dvpp_vpc_batch_crop_resize_make_border_async(channel_desc: int, src_batch: "
        "int, roi_num_list: list[int], dst_batch: int, crop_roi_list: list[int], "
        "border_cfg_list: list[int], resize_cfg: int, stream: int) -> ret";
    Batch b;
    if (!Parse(args, kBorder | kResize, &b, kSig)) return nullptr;
    aclError ret = ACL_SUCCESS;
    Py_BEGIN_ALLOW_THREADS ret = acldvppVpcBatchCropResizeMakeBorderAsync(
        b.channel, b.src, b.roi_nums.data(), static_cast<uint32_t>(b.roi_nums.size()), b.dst,
        As<acldvppRoiConfig>(b.crops), As<acldvppBorderConfig>(b.borders), b.resize, b.stream);
    Py_END_ALLOW_THREADS return PyLong_FromLong(ret);
}
