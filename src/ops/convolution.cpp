// The convolution plans of ops/convolution.h: one oneDNN convolution (or deconvolution, for a
// transposed convolution) primitive over plain float32 memory, with a user scratchpad so that
// one plan may run on several streams at once. The primitive is built for as many OpenMP
// threads as a run may borrow from the compute gate (backend/cpu/compute_gate.h); oneDNN
// sizes its per-thread scratch by that count, so a run never uses more.
#include "ops/convolution.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <new>
#include <unordered_map>

#include "backend/cpu/compute_gate.h"
#include "backend/cpu/omp_threads.h"
#include "core/device.h"

namespace openacl::ops {
namespace {

using dnnl::memory;
constexpr auto kF32 = memory::data_type::f32;

// Convolutions of fewer multiply-adds than this run on one thread: waking an OpenMP team
// costs more than the work.
constexpr int64_t kOneThreadMacs = int64_t{1} << 16;

constexpr size_t kAlign = 64;

using openacl::cpu::OmpThreads;

// Row-major strides of `dims`.
memory::dims Dense(const memory::dims& dims) {
    memory::dims strides(dims.size(), 1);
    for (size_t i = dims.size() - 1; i-- > 0;)
        strides[i] = strides[i + 1] * dims[i + 1];
    return strides;
}

// The weights as oneDNN sees them ([G,] OC / G, IC / G, k...), over the caller's layout:
// [OC, IC / G, k...] for a convolution, [IC, OC / G, k...] (input channels outermost) for a
// transposed one.
memory::desc WeightsDesc(const ConvolutionShape& s) {
    const int r = s.spatial;
    const int64_t g = s.groups, oc = s.out_channels / g, ic = s.in_channels / g;
    int64_t window = 1;
    memory::dims kernel, kernel_strides(static_cast<size_t>(r));
    for (int i = 0; i < r; ++i)
        kernel.push_back(s.kernel[i]);
    for (int i = r; i-- > 0;) {
        kernel_strides[static_cast<size_t>(i)] = window;
        window *= s.kernel[i];
    }
    // Strides of the oc and ic dimensions in the caller's layout.
    const int64_t oc_stride = s.transposed ? window : ic * window;
    const int64_t ic_stride = s.transposed ? oc * window : window;
    memory::dims dims, strides;
    if (g > 1) {
        dims.push_back(g);
        strides.push_back(oc * ic * window);
    }
    dims.push_back(oc);
    strides.push_back(oc_stride);
    dims.push_back(ic);
    strides.push_back(ic_stride);
    dims.insert(dims.end(), kernel.begin(), kernel.end());
    strides.insert(strides.end(), kernel_strides.begin(), kernel_strides.end());
    return memory::desc(dims, kF32, strides);
}

class DnnlPlan final : public ConvolutionPlan {
 public:
    explicit DnnlPlan(const ConvolutionShape& s)
        : spatial_(s.spatial), planes_(s.batch * s.out_channels), channels_(s.out_channels) {
        const int r = s.spatial;
        // A transposed convolution's rows past its full result (outputPadding beyond the end
        // padding) are computed apart: oneDNN refuses some negative end paddings (dilated
        // ones), so the primitive writes the rest into a buffer of the scratch memory and Run
        // places it in dst, whose other rows get the bias alone.
        memory::dims src{s.batch, s.in_channels}, dst{s.batch, s.out_channels};
        memory::dims strides, dilates, pad_l, pad_r;
        int64_t macs = s.batch * s.out_channels * (s.in_channels / s.groups);
        for (int i = 0; i < r; ++i) {
            const int64_t past = s.pad_end[i] < 0 ? -s.pad_end[i] : 0;
            out_[i] = s.out[i];
            computed_[i] = s.out[i] - past;
            partial_ = partial_ || past > 0;
            empty_ = empty_ || computed_[i] <= 0;
            src.push_back(s.in[i]);
            dst.push_back(computed_[i]);
            strides.push_back(s.stride[i]);
            dilates.push_back(s.dilation[i] - 1);  // oneDNN counts the holes
            pad_l.push_back(s.pad_begin[i]);
            pad_r.push_back(s.pad_end[i] + past);
            macs *= s.kernel[i] * (s.transposed ? s.in[i] : s.out[i]);
        }
        if (empty_) return;  // the whole result lies past the full one: the bias alone
        if (macs >= kOneThreadMacs) threads_ = ComputeThreadsPerRun();
        src_ = memory::desc(src, kF32, Dense(src));
        dst_ = memory::desc(dst, kF32, Dense(dst));
        weights_ = WeightsDesc(s);
        if (s.bias) bias_ = memory::desc({s.out_channels}, kF32, memory::dims{1});
        dnnl::primitive_attr attr;
        attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
        const auto kind = dnnl::prop_kind::forward_inference;
        OmpThreads team(threads_);  // what oneDNN sizes its per-thread scratch by
        if (s.transposed) {
            const auto alg = dnnl::algorithm::deconvolution_direct;
            auto d = s.bias
                         ? dnnl::deconvolution_forward::desc(kind, alg, src_, weights_, bias_, dst_,
                                                             strides, dilates, pad_l, pad_r)
                         : dnnl::deconvolution_forward::desc(kind, alg, src_, weights_, dst_,
                                                             strides, dilates, pad_l, pad_r);
            dnnl::deconvolution_forward::primitive_desc pd(d, attr, engine_);
            scratchpad_ = pd.scratchpad_desc();
            primitive_ = dnnl::deconvolution_forward(pd);
        } else {
            const auto alg = dnnl::algorithm::convolution_direct;
            auto d = s.bias ? dnnl::convolution_forward::desc(kind, alg, src_, weights_, bias_,
                                                              dst_, strides, dilates, pad_l, pad_r)
                            : dnnl::convolution_forward::desc(kind, alg, src_, weights_, dst_,
                                                              strides, dilates, pad_l, pad_r);
            dnnl::convolution_forward::primitive_desc pd(d, attr, engine_);
            scratchpad_ = pd.scratchpad_desc();
            primitive_ = dnnl::convolution_forward(pd);
        }
        partial_offset_ = (scratchpad_.get_size() + kAlign - 1) / kAlign * kAlign;
    }

    size_t scratchpad_bytes() const override {
        return partial_ && !empty_ ? partial_offset_ + dst_.get_size() : scratchpad_.get_size();
    }

    bool Run(const float* src, const float* weights, const float* bias, float* dst,
             void* scratchpad, std::string* error) const override {
        float* target =
            partial_ ? reinterpret_cast<float*>(static_cast<char*>(scratchpad) + partial_offset_)
                     : dst;
        if (!empty_) {
            try {
                // Memory objects only wrap the caller's buffers; oneDNN reads them as non-const.
                std::unordered_map<int, memory> args{
                    {DNNL_ARG_SRC, memory(src_, engine_, const_cast<float*>(src))},
                    {DNNL_ARG_WEIGHTS, memory(weights_, engine_, const_cast<float*>(weights))},
                    {DNNL_ARG_DST, memory(dst_, engine_, target)}};
                if (bias != nullptr) {
                    args.emplace(DNNL_ARG_BIAS, memory(bias_, engine_, const_cast<float*>(bias)));
                }
                if (scratchpad_.get_size() > 0) {
                    args.emplace(DNNL_ARG_SCRATCHPAD, memory(scratchpad_, engine_, scratchpad));
                }
                dnnl::stream stream(engine_);
                // The threads are borrowed from the device's, which every stream's products,
                // models and convolutions share, for as long as the primitive runs.
                cpu::ComputeLease lease(threads_);
                OmpThreads team(lease.threads());
                primitive_.execute(stream, args);
                stream.wait();
            } catch (const dnnl::error& e) {
                *error = std::string("oneDNN failed: ") + e.what();
                return false;
            } catch (const std::bad_alloc&) {
                *error = "out of host memory for oneDNN's objects";
                return false;
            }
        }
        if (partial_) Place(target, bias, dst);
        return true;
    }

 private:
    // dst = the bias, with the computed part (`computed_` of `out_` along each axis, from the
    // start) copied over it.
    void Place(const float* computed, const float* bias, float* dst) const {
        int64_t out[kMaxConvSpatial] = {1, 1, 1}, part[kMaxConvSpatial] = {1, 1, 1};
        for (int i = 0; i < spatial_; ++i) {
            out[kMaxConvSpatial - spatial_ + i] = out_[i];
            part[kMaxConvSpatial - spatial_ + i] = empty_ ? 0 : computed_[i];
        }
        const int64_t plane = out[0] * out[1] * out[2], part_plane = part[0] * part[1] * part[2];
        for (int64_t p = 0; p < planes_; ++p) {
            float* to = dst + p * plane;
            std::fill(to, to + plane, bias != nullptr ? bias[p % channels_] : 0.0f);
            const float* from = computed + p * part_plane;
            for (int64_t a = 0; a < part[0]; ++a)
                for (int64_t b = 0; b < part[1]; ++b)
                    std::copy(from + (a * part[1] + b) * part[2],
                              from + (a * part[1] + b + 1) * part[2],
                              to + (a * out[1] + b) * out[2]);
        }
    }

    dnnl::engine engine_{dnnl::engine::kind::cpu, 0};  // outlives the primitive
    int spatial_;
    int64_t planes_, channels_;
    int64_t out_[kMaxConvSpatial] = {}, computed_[kMaxConvSpatial] = {};
    bool partial_ = false, empty_ = false;
    size_t partial_offset_ = 0;
    int threads_ = 1;
    memory::desc src_, weights_, bias_, dst_, scratchpad_;
    dnnl::primitive primitive_;
};

}  // namespace

std::unique_ptr<ConvolutionPlan> ConvolutionPlan::Create(const ConvolutionShape& shape,
                                                         std::string* error) {
    try {
        return std::make_unique<DnnlPlan>(shape);
    } catch (const dnnl::error& e) {
        *error = std::string("oneDNN has no convolution for these shapes: ") + e.what();
    } catch (const std::bad_alloc&) {
        *error = "out of host memory planning the convolution";
    }
    return nullptr;
}

}  // namespace openacl::ops
