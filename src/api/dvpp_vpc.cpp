// acl_dvpp.h: VPC tasks (resize, crop, crop-and-paste and their batch forms). Every rule is
// checked when the task is enqueued; the task re-checks its buffers when it runs.
#include <string>
#include <vector>

#include "core/error.h"
#include "core/stream.h"
#include "dvpp/border.h"
#include "dvpp/channel.h"
#include "dvpp/chip.h"
#include "dvpp/task.h"
#include "dvpp/vpc.h"

using openacl::Fail;
using namespace openacl::dvpp;

namespace {

constexpr uint32_t kMaxBatchRois = 256;

// Checks one crop(-resize)(-paste) and describes it as a job. crop and paste may be null
// (the whole input, the whole output).
aclError PrepareJob(acldvppPicDesc* inputDesc, acldvppPicDesc* outputDesc,
                    const acldvppRoiConfig* crop, const acldvppRoiConfig* paste,
                    const BorderSpec* border, uint32_t interpolation, const openacl::Stream* stream,
                    const char* in_name, const char* out_name, VpcJob* job) {
    if (aclError rc = CheckPicDesc(inputDesc, in_name)) return rc;
    if (aclError rc = CheckPicDesc(outputDesc, out_name)) return rc;
    job->in = Snapshot(*inputDesc);
    job->out = Snapshot(*outputDesc);
    job->interpolation = interpolation;
    if (aclError rc = CheckVpcInput(job->in, stream, in_name)) return rc;
    if (aclError rc = CheckVpcOutput(job->out, stream, out_name)) return rc;
    job->crop = WholeInput(job->in);
    job->paste = WholeOutput(job->out);
    if (crop != nullptr) {
        if (aclError rc = CropBox(*crop, job->in, "cropArea", &job->crop)) return rc;
    }
    if (paste != nullptr) {
        if (aclError rc = PasteBox(*paste, job->out, "pasteArea", &job->paste)) return rc;
    }
    if (border != nullptr) {
        const acldvppPixelFormat f = job->out.format;
        if (f != PIXEL_FORMAT_YUV_SEMIPLANAR_420 && f != PIXEL_FORMAT_YVU_SEMIPLANAR_420) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "%s has %s; openacl makes borders in NV12/NV21 outputs only (the chip "
                        "writes other formats too, not emulated yet)",
                        out_name, FormatName(f).c_str());
        }
        // The crop is resized to the output less its borders.
        const BorderSpec& b = *border;
        uint64_t across = uint64_t(b.left) + b.right, down = uint64_t(b.top) + b.bottom;
        if (across + 10 > job->out.width || down + 6 > job->out.height) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "%s is %ux%u with borders top %u, bottom %u, left %u, right %u: borders "
                        "must leave at least 10x6 inside",
                        out_name, job->out.width, job->out.height, b.top, b.bottom, b.left,
                        b.right);
        }
        // CANN recommends even borders for YUV420SP and does not require them. An odd one puts
        // the inside on the 2x2 grid 4:2:0 needs: its origin down to even, its size down to
        // even, the far borders one wider.
        const uint32_t inside_w = (job->out.width - static_cast<uint32_t>(across)) & ~1u;
        const uint32_t inside_h = (job->out.height - static_cast<uint32_t>(down)) & ~1u;
        job->paste = {b.left & ~1u, b.top & ~1u, inside_w, inside_h};
        job->border = true;
        job->border_spec = b;
        job->border_spec.left = job->paste.left;
        job->border_spec.top = job->paste.top;
        job->border_spec.right = job->out.width - job->paste.left - inside_w;
        job->border_spec.bottom = job->out.height - job->paste.top - inside_h;
    }
    return CheckScale(job->crop, job->paste,
                      paste != nullptr ? "the crop-and-paste" : "the resize");
}

void SubmitJobs(openacl::Stream* stream, std::vector<VpcJob> jobs) {
    Submit(stream, [stream, jobs = std::move(jobs)](std::string* why) {
        for (const VpcJob& job : jobs) {
            const FormatInfo* info = VpcFormat(job.in.format);
            uint64_t in_bytes = VpcInputBytes(*info, job.in.ws, job.in.hs, CurrentChip());
            uint64_t out_bytes = VpcOutputBytes(job.out, CurrentChip());
            if (aclError rc = CheckMediaBuffer(job.in.data, in_bytes, stream, "inputDesc", why)) {
                return rc;
            }
            if (aclError rc =
                    CheckMediaBuffer(job.out.data, out_bytes, stream, "outputDesc", why)) {
                return rc;
            }
            if (aclError rc = RunVpc(job, why)) return rc;
        }
        return ACL_SUCCESS;
    });
}

aclError Single(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc,
                acldvppPicDesc* outputDesc, acldvppRoiConfig* cropArea, bool need_crop,
                acldvppRoiConfig* pasteArea, bool need_paste, acldvppResizeConfig* resizeConfig,
                aclrtStream stream) {
    if (aclError rc = CheckChannelFor(channelDesc, DVPP_CHNMODE_VPC)) return rc;
    if (need_crop) {
        if (aclError rc = CheckRoiConfig(cropArea, "cropArea")) return rc;
    }
    if (need_paste) {
        if (aclError rc = CheckRoiConfig(pasteArea, "pasteArea")) return rc;
    }
    uint32_t interpolation = 0;
    if (aclError rc = ResizeInterpolation(resizeConfig, &interpolation)) return rc;
    aclError rc = ACL_SUCCESS;
    openacl::Stream* s = openacl::ResolveStream(stream, &rc);
    if (s == nullptr) return rc;
    VpcJob job;
    rc = PrepareJob(inputDesc, outputDesc, need_crop ? cropArea : nullptr,
                    need_paste ? pasteArea : nullptr, nullptr, interpolation, s, "inputDesc",
                    "outputDesc", &job);
    if (rc != ACL_SUCCESS) return rc;
    SubmitJobs(s, {job});
    return ACL_SUCCESS;
}

aclError Batch(acldvppChannelDesc* channelDesc, acldvppBatchPicDesc* srcBatchPicDescs,
               uint32_t* roiNums, uint32_t size, acldvppBatchPicDesc* dstBatchPicDescs,
               acldvppRoiConfig* cropAreas[], acldvppRoiConfig* pasteAreas[], bool need_paste,
               acldvppBorderConfig* borderCfgs[], acldvppResizeConfig* resizeConfig,
               aclrtStream stream) {
    if (aclError rc = CheckChannelFor(channelDesc, DVPP_CHNMODE_VPC)) return rc;
    for (auto [batch, name] : {std::pair{srcBatchPicDescs, "srcBatchPicDescs"},
                               std::pair{dstBatchPicDescs, "dstBatchPicDescs"}}) {
        if (batch == nullptr || !BatchPicDescs().Contains(batch)) {
            return Fail(ACL_ERROR_INVALID_PARAM, "%s %p is not a live acldvppBatchPicDesc", name,
                        static_cast<void*>(batch));
        }
    }
    if (roiNums == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "roiNums is null");
    if (cropAreas == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "cropAreas is null");
    if (need_paste && pasteAreas == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "pasteAreas is null");
    }
    if (size == 0 || size > kMaxBatchRois || size > srcBatchPicDescs->pictures.size()) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "size is %u; it counts the input pictures (entries of roiNums): 1 to 256 and "
                    "at most the %zu pictures of srcBatchPicDescs",
                    size, srcBatchPicDescs->pictures.size());
    }
    uint64_t total = 0;
    for (uint32_t i = 0; i < size; ++i)
        total += roiNums[i];
    if (total == 0 || total > kMaxBatchRois || total != dstBatchPicDescs->pictures.size()) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "the roiNums add up to %llu; the sum must be 1 to 256 and equal the %zu "
                    "pictures of dstBatchPicDescs",
                    static_cast<unsigned long long>(total), dstBatchPicDescs->pictures.size());
    }
    uint32_t interpolation = 0;
    if (aclError rc = ResizeInterpolation(resizeConfig, &interpolation)) return rc;
    aclError rc = ACL_SUCCESS;
    openacl::Stream* s = openacl::ResolveStream(stream, &rc);
    if (s == nullptr) return rc;
    std::vector<VpcJob> jobs(total);
    uint32_t k = 0;
    for (uint32_t i = 0; i < size; ++i) {
        for (uint32_t r = 0; r < roiNums[i]; ++r, ++k) {
            std::string in_name = "srcBatchPicDescs[" + std::to_string(i) + "]";
            std::string out_name = "dstBatchPicDescs[" + std::to_string(k) + "]";
            std::string crop_name = "cropAreas[" + std::to_string(k) + "]";
            if ((rc = CheckRoiConfig(cropAreas[k], crop_name.c_str()))) return rc;
            if (need_paste) {
                std::string paste_name = "pasteAreas[" + std::to_string(k) + "]";
                if ((rc = CheckRoiConfig(pasteAreas[k], paste_name.c_str()))) return rc;
            }
            BorderSpec spec;
            if (borderCfgs != nullptr) {
                std::string border_name = "borderCfgs[" + std::to_string(k) + "]";
                const acldvppBorderConfig* config = borderCfgs[k];
                if (config == nullptr || !BorderConfigs().Contains(config)) {
                    return Fail(ACL_ERROR_INVALID_PARAM, "%s %p is not a live acldvppBorderConfig",
                                border_name.c_str(), static_cast<const void*>(config));
                }
                spec = SpecOf(*config);
                if (spec.type != BORDER_CONSTANT && spec.type != BORDER_REPLICATE) {
                    return Fail(ACL_ERROR_INVALID_PARAM,
                                "%s has border type %d; this task takes BORDER_CONSTANT or "
                                "BORDER_REPLICATE only",
                                border_name.c_str(), static_cast<int>(spec.type));
                }
            }
            rc =
                PrepareJob(srcBatchPicDescs->pictures[i].get(), dstBatchPicDescs->pictures[k].get(),
                           cropAreas[k], need_paste ? pasteAreas[k] : nullptr,
                           borderCfgs != nullptr ? &spec : nullptr, interpolation, s,
                           in_name.c_str(), out_name.c_str(), &jobs[k]);
            if (rc != ACL_SUCCESS) return rc;
        }
    }
    SubmitJobs(s, std::move(jobs));
    return ACL_SUCCESS;
}

}  // namespace

aclError acldvppVpcResizeAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc,
                               acldvppPicDesc* outputDesc, acldvppResizeConfig* resizeConfig,
                               aclrtStream stream) {
    OPENACL_API();
    return Single(channelDesc, inputDesc, outputDesc, nullptr, false, nullptr, false, resizeConfig,
                  stream);
}

aclError acldvppVpcCropAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc,
                             acldvppPicDesc* outputDesc, acldvppRoiConfig* cropArea,
                             aclrtStream stream) {
    OPENACL_API();
    return Single(channelDesc, inputDesc, outputDesc, cropArea, true, nullptr, false, nullptr,
                  stream);
}

aclError acldvppVpcCropResizeAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc,
                                   acldvppPicDesc* outputDesc, acldvppRoiConfig* cropArea,
                                   acldvppResizeConfig* resizeConfig, aclrtStream stream) {
    OPENACL_API();
    return Single(channelDesc, inputDesc, outputDesc, cropArea, true, nullptr, false, resizeConfig,
                  stream);
}

aclError acldvppVpcCropAndPasteAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc,
                                     acldvppPicDesc* outputDesc, acldvppRoiConfig* cropArea,
                                     acldvppRoiConfig* pasteArea, aclrtStream stream) {
    OPENACL_API();
    return Single(channelDesc, inputDesc, outputDesc, cropArea, true, pasteArea, true, nullptr,
                  stream);
}

aclError acldvppVpcCropResizePasteAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc,
                                        acldvppPicDesc* outputDesc, acldvppRoiConfig* cropArea,
                                        acldvppRoiConfig* pasteArea,
                                        acldvppResizeConfig* resizeConfig, aclrtStream stream) {
    OPENACL_API();
    return Single(channelDesc, inputDesc, outputDesc, cropArea, true, pasteArea, true, resizeConfig,
                  stream);
}

aclError acldvppVpcBatchCropAsync(acldvppChannelDesc* channelDesc,
                                  acldvppBatchPicDesc* srcBatchPicDescs, uint32_t* roiNums,
                                  uint32_t size, acldvppBatchPicDesc* dstBatchPicDescs,
                                  acldvppRoiConfig* cropAreas[], aclrtStream stream) {
    OPENACL_API();
    return Batch(channelDesc, srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas, nullptr,
                 false, nullptr, nullptr, stream);
}

aclError acldvppVpcBatchCropResizeAsync(acldvppChannelDesc* channelDesc,
                                        acldvppBatchPicDesc* srcBatchPicDescs, uint32_t* roiNums,
                                        uint32_t size, acldvppBatchPicDesc* dstBatchPicDescs,
                                        acldvppRoiConfig* cropAreas[],
                                        acldvppResizeConfig* resizeConfig, aclrtStream stream) {
    OPENACL_API();
    return Batch(channelDesc, srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas, nullptr,
                 false, nullptr, resizeConfig, stream);
}

aclError acldvppVpcBatchCropAndPasteAsync(acldvppChannelDesc* channelDesc,
                                          acldvppBatchPicDesc* srcBatchPicDescs, uint32_t* roiNums,
                                          uint32_t size, acldvppBatchPicDesc* dstBatchPicDescs,
                                          acldvppRoiConfig* cropAreas[],
                                          acldvppRoiConfig* pasteAreas[], aclrtStream stream) {
    OPENACL_API();
    return Batch(channelDesc, srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas,
                 pasteAreas, true, nullptr, nullptr, stream);
}

aclError acldvppVpcBatchCropResizePasteAsync(
    acldvppChannelDesc* channelDesc, acldvppBatchPicDesc* srcBatchPicDescs, uint32_t* roiNums,
    uint32_t size, acldvppBatchPicDesc* dstBatchPicDescs, acldvppRoiConfig* cropAreas[],
    acldvppRoiConfig* pasteAreas[], acldvppResizeConfig* resizeConfig, aclrtStream stream) {
    OPENACL_API();
    return Batch(channelDesc, srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas,
                 pasteAreas, true, nullptr, resizeConfig, stream);
}

aclError acldvppVpcBatchCropResizeMakeBorderAsync(
    acldvppChannelDesc* channelDesc, acldvppBatchPicDesc* srcBatchPicDescs, uint32_t* roiNums,
    uint32_t size, acldvppBatchPicDesc* dstBatchPicDescs, acldvppRoiConfig* cropAreas[],
    acldvppBorderConfig* borderCfgs[], acldvppResizeConfig* resizeConfig, aclrtStream stream) {
    OPENACL_API();
    if (aclError rc = RequireNewDvpp("acldvppVpcBatchCropResizeMakeBorderAsync")) return rc;
    if (borderCfgs == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "borderCfgs is null");
    return Batch(channelDesc, srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas, nullptr,
                 false, borderCfgs, resizeConfig, stream);
}
