// The compiled engine: a Plan (model/plan.h) run as a chain of oneDNN primitives. At load the
// plan becomes primitives once — convolutions ask oneDNN for their best formats, constants are
// reordered once into the formats the primitives chose, reorders are inserted only where a
// consumer needs another format — and activation memory is laid out in one arena by tensor
// lifetime (sizes are known only now, from the primitive descriptors). Instances share the
// primitives and constants; each has its own arena, scratchpad and stream. Once built, the
// engine keeps only what runs read: the constants in the primitives' formats and the plan's
// structure, not the plan's data, so a loaded model holds its weights once.

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include <oneapi/dnnl/dnnl.hpp>

#include "backend/cpu/compute_gate.h"
#include "backend/cpu/omp_threads.h"
#include "backend/cpu/sync.h"
#include "core/trace.h"
#include "model/model_engine.h"
#include "model/plan.h"
#include "model/winograd.h"

namespace openacl::model {
namespace {

using dnnl::memory;
using Tag = memory::format_tag;
constexpr auto kF32 = memory::data_type::f32;
constexpr size_t kAlign = 64;

// A convolution's or deconvolution's window as the plan stores it after the group (ints[0]):
// r strides, r begin pads, r end pads, r dilations (ONNX's, 1 = none; oneDNN counts from 0).
struct Window {
    memory::dims strides, dil, pad_l, pad_r;
};
Window ReadWindow(const PlanLayer& layer, size_t r) {
    Window w;
    for (size_t i = 0; i < r; ++i) {
        w.strides.push_back(layer.ints[1 + i]);
        w.pad_l.push_back(layer.ints[1 + r + i]);
        w.pad_r.push_back(layer.ints[1 + 2 * r + i]);
        w.dil.push_back(layer.ints[1 + 3 * r + i] - 1);
    }
    return w;
}

memory::dims Dims(const std::vector<int64_t>& d) {
    return d.empty() ? memory::dims{1} : memory::dims(d.begin(), d.end());
}

memory::desc Plain(const std::vector<int64_t>& d) {
    static const Tag tags[] = {Tag::a,    Tag::a,     Tag::ab,    Tag::abc,
                               Tag::abcd, Tag::abcde, Tag::abcdef};
    if (d.size() < std::size(tags)) return memory::desc(Dims(d), kF32, tags[d.size()]);
    memory::dims strides(d.size(), 1);
    for (size_t i = d.size() - 1; i-- > 0;)
        strides[i] = strides[i + 1] * d[i + 1];
    return memory::desc(Dims(d), kF32, strides);
}

memory::desc Any(const std::vector<int64_t>& d) {
    return memory::desc(Dims(d), kF32, Tag::any);
}

size_t Aligned(size_t n) {
    return (n + kAlign - 1) / kAlign * kAlign;
}

// Where a value of the running network lives.
struct Slot {
    memory::desc desc;
    int storage = -1;   // arena storage, or -1
    int constant = -1;  // Compiled::constants index, or -1
    int input = -1;     // graph input index (the caller's memory), or -1
};

struct Storage {
    size_t size = 0;
    int first = 0;  // layer indices of its lifetime
    int last = 0;
    size_t offset = 0;
    // A part of another storage (a Concat's output written in place by its sources): placed
    // at that storage's offset + `within`, never on its own.
    int parent = -1;
    size_t within = 0;
    bool is_parent = false;
};

constexpr int kScratchpadSlot = -2;

using openacl::cpu::OmpThreads;

// Convolutions of up to this many multiply-adds try Winograd against direct at load.
constexpr int64_t kTimedWinogradMacs = int64_t{1} << 26;

// Models of up to this many multiply-adds (PlanWork) try one thread against all at load: each
// layer run on two threads opens an OpenMP region, whose wake-up of the second thread costs
// microseconds (a 16-float Relu: 6 - 11 us per execution on two threads, 1 us on one).
constexpr int64_t kTimedThreadsWork = int64_t{1} << 22;

// Models of up to this many take one thread without timing: one core does 32 Ki multiply-adds
// in a few microseconds, less than one wake-up of a second thread, and a timing of so short a
// run is noise on a busy machine (it once chose two threads for a 16-float Relu under ASan).
constexpr int64_t kOneThreadWork = int64_t{1} << 15;

// A way to compute one layer, for timing at load: primitives run one after another, each on
// zeroed buffers of its own in the formats it wants.
class Trial {
 public:
    void Add(dnnl::primitive p, const dnnl::primitive_desc_base& pd, const dnnl::engine& engine) {
        std::unordered_map<int, memory> args;
        std::vector<int> wanted{DNNL_ARG_SRC_0, DNNL_ARG_SRC_1, DNNL_ARG_WEIGHTS,
                                DNNL_ARG_BIAS,  DNNL_ARG_DST,   DNNL_ARG_SCRATCHPAD};
        // A binary post-op's operand. Asked of another kind of post-op, oneDNN 2.6 answers with
        // whatever bytes lie where a binary one keeps its descriptor (its arg_md does not check
        // the kind): timing a convolution with a fused ReLU crashed, now and then, allocating
        // memory for such a "descriptor".
        const dnnl::post_ops ops = pd.get_primitive_attr().get_post_ops();
        for (int i = 0; i < ops.len(); ++i) {
            if (ops.kind(i) == dnnl::primitive::kind::binary)
                wanted.push_back(DNNL_ARG_ATTR_MULTIPLE_POST_OP(i) | DNNL_ARG_SRC_1);
        }
        for (int arg : wanted) {
            const memory::desc md = pd.query_md(dnnl::query::exec_arg_md, arg);
            if (md.is_zero() || md.get_size() == 0) continue;  // unused (an empty scratchpad)
            memory m(md, engine);
            std::memset(m.get_data_handle(), 0, md.get_size());
            args.emplace(arg, m);
        }
        steps_.emplace_back(std::move(p), std::move(args));
    }
    // Seconds one run takes.
    double Run(dnnl::stream& stream) const {
        const auto start = std::chrono::steady_clock::now();
        for (const auto& [p, args] : steps_)
            p.execute(stream, args);
        stream.wait();
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }

 private:
    std::vector<std::pair<dnnl::primitive, std::unordered_map<int, memory>>> steps_;
};

// Whether `a` runs faster than `b`, each a callable that runs once and returns the seconds it
// took, or kFailedRun: the best of three runs each after a warm-up, interleaved so that drift
// in the machine's speed falls on both. A failed run loses.
constexpr double kFailedRun = -1.0;
template <typename A, typename B>
bool RunsFaster(A&& a, B&& b) {
    double best_a = 1e30, best_b = 1e30;
    for (int round = 0; round < 4; ++round) {
        const double ta = a();
        if (ta == kFailedRun) return false;
        const double tb = b();
        if (tb == kFailedRun) return true;
        if (round > 0) {
            best_a = std::min(best_a, ta);
            best_b = std::min(best_b, tb);
        }
    }
    return best_a < best_b;
}

// Runs a step oneDNN has no primitive for (Pad), or does slowly (some Concats), on the step's
// bound memories.
using Kernel = std::function<void(const std::unordered_map<int, memory>& args)>;

struct Step {
    dnnl::primitive primitive;
    std::vector<std::pair<int, int>> args;  // DNNL_ARG_* -> slot (or kScratchpadSlot)
    Kernel kernel;                          // instead of the primitive when set
    int layer = -1;                         // the plan layer it belongs to; -1: output reorders
};

struct Compiled {
    // While building: the plan with its data. After: its structure only (ReleasePlanData).
    std::shared_ptr<const Plan> plan;
    dnnl::engine engine{dnnl::engine::kind::cpu, 0};
    std::vector<Slot> slots;
    std::vector<Storage> storages;
    std::vector<memory> constants;  // the first `plan_views` view the plan's data while building
    size_t plan_views = 0;
    size_t weight_bytes = 0;  // of the constants runs read
    std::vector<Step> steps;
    std::vector<int> outputs;  // slot of each graph output (plain layout)
    size_t arena = 0;
    size_t scratchpad = 0;
    int threads = 1;  // OpenMP threads of a run, which the primitives were built for
    std::vector<std::string> kernels;  // per plan layer: oneDNN's implementation, or empty
    bool nhwc = false;                 // 2-D conv regions in nhwc rather than nChw16c
    // Graph outputs stay in the formats their layers wrote (a head's, which the rest reads).
    bool keep_output_formats = false;
    // Run image by image (see ImageByImage): the plan's first head_layers layers, built for one
    // image; run head_images times before the steps here, which are the other layers'. The
    // head's outputs are the tensors those read from it, written straight into their slots.
    std::shared_ptr<const Compiled> head;
    size_t head_layers = 0;
    int64_t head_images = 0;
    // Per plan layer, what the convolutions' timing trials decided (ConvChoice bits), and the
    // decisions to take instead of timing where a build replays earlier choices (or null).
    std::vector<int8_t> conv_choices;
    const std::vector<int8_t>* replay = nullptr;
    bool replayed = false;  // built from stored choices, without timing anything
};

void PlaceStorages(Compiled* c);

// One pass from a blocked tensor to a transposed view of it (see DeferViewOfBlocked).
struct BlockedTranspose {
    struct Run {
        int64_t from;    // the run's first element in the blocked tensor, at cell 0
        int64_t to;      // its place in the output, at cell 0
        int64_t length;  // channels that are neighbours on both sides
    };
    uint32_t source = 0;
    std::vector<Run> runs;
    std::vector<int64_t> by_cell;  // output offset of each cell
};

// One of oneDNN's eltwise operations; a plan activation is one or more (EltwiseOps).
// Whether oneDNN took its reference kernel, which runs any shape, format and post-op, hundreds
// of times slower than its jit ones: every choice of formats below avoids it where it can.
bool IsReference(const dnnl::primitive_desc_base& pd) {
    return std::string_view(pd.impl_info_str()).rfind("ref", 0) == 0;
}

struct EltwiseOp {
    dnnl::algorithm algorithm;
    float alpha, beta;
};

class Builder {
 public:
    Builder(Compiled* c) : c_(*c), plan_(*c->plan) {
        c_.conv_choices.assign(plan_.layers.size(), kNotTimed);
    }
    // A trial's outcome: the replayed one where it was timed before (`timed` set), else
    // `measure()`'s; recorded either way.
    template <typename Measure>
    bool Decide(int8_t timed, int8_t won, Measure&& measure) {
        const auto layer = static_cast<size_t>(layer_);
        const int8_t given =
            c_.replay && layer < c_.replay->size() ? (*c_.replay)[layer] : kNotTimed;
        const bool wins = given != kNotTimed && (given & timed) ? (given & won) != 0 : measure();
        int8_t& mine = c_.conv_choices[layer];
        mine = static_cast<int8_t>((mine == kNotTimed ? 0 : mine) | timed | (wins ? won : 0));
        return wins;
    }
    void Build();

 private:
    int NewStorage(size_t bytes, int first, int last) {
        c_.storages.push_back(Storage{bytes, first, last, 0});
        return static_cast<int>(c_.storages.size() - 1);
    }
    int NewSlot(const memory::desc& desc, int storage) {
        Slot s;
        s.desc = desc;
        s.storage = storage;
        c_.slots.push_back(s);
        return static_cast<int>(c_.slots.size() - 1);
    }
    int Last(uint32_t tensor) const { return plan_.tensors[tensor].last; }
    void Reorder(int from, int to) {
        dnnl::reorder::primitive_desc pd(c_.engine, c_.slots[from].desc, c_.engine,
                                         c_.slots[to].desc);
        c_.steps.push_back(Step{dnnl::reorder(pd), {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}}, {}});
    }
    // `slot`'s value in format `want`: itself, a constant reordered now, or a temporary the
    // layer being built reorders into.
    int Need(int slot, const memory::desc& want) {
        if (c_.slots[slot].desc == want) return slot;
        if (c_.slots[slot].constant >= 0) {
            // The slot may view the constant's bytes under other dims (grouped weights).
            memory from(c_.slots[slot].desc, c_.engine,
                        c_.constants[c_.slots[slot].constant].get_data_handle());
            memory to(want, c_.engine);
            dnnl::stream once(c_.engine);
            dnnl::reorder(from, to).execute(once, from, to);
            once.wait();
            c_.constants.push_back(to);
            Slot s;
            s.desc = want;
            s.constant = static_cast<int>(c_.constants.size() - 1);
            c_.slots.push_back(s);
            return static_cast<int>(c_.slots.size() - 1);
        }
        int temp = NewSlot(want, NewStorage(want.get_size(), layer_, layer_));
        Reorder(slot, temp);
        return temp;
    }
    // Gives plan tensor `tensor` (a layer's output) format `desc` in storage of its own.
    int Define(uint32_t tensor, const memory::desc& desc) {
        Slot& s = c_.slots[tensor];
        s.desc = desc;
        // A tensor nothing reads still needs its bytes while its layer writes them.
        s.storage = NewStorage(desc.get_size(), layer_, std::max(layer_, Last(tensor)));
        return static_cast<int>(tensor);
    }
    // Gives plan tensor `tensor` format `desc` in `storage`, another tensor's, which then lives
    // as long as either.
    int Share(uint32_t tensor, const memory::desc& desc, int storage) {
        Slot& s = c_.slots[tensor];
        s.desc = desc;
        s.storage = storage;
        Storage& st = c_.storages[storage];
        st.last = std::max(st.last, Last(tensor));
        return static_cast<int>(tensor);
    }
    // The layer's post-ops. A sum after another post-op becomes a binary add, whose operand
    // (argument id, plan tensor) goes to *operands; `dst` is the output's format, which that
    // operand must share.
    dnnl::primitive_attr Attr(const PlanLayer& layer, const memory::desc& dst = {},
                              std::vector<std::pair<int, uint32_t>>* operands = nullptr);
    // Adds the binary post-ops' operands that Attr listed to args, in the formats pd wants.
    void AddOperands(const std::vector<std::pair<int, uint32_t>>& operands,
                     const dnnl::primitive_desc_base& pd, std::vector<std::pair<int, int>>* args) {
        for (const auto& [arg, tensor] : operands) {
            args->emplace_back(
                arg, Need(static_cast<int>(tensor), pd.query_md(dnnl::query::exec_arg_md, arg)));
        }
    }
    void Add(dnnl::primitive p, const dnnl::primitive_desc_base& pd,
             std::vector<std::pair<int, int>> args) {
        c_.scratchpad = std::max(c_.scratchpad, pd.scratchpad_desc().get_size());
        args.emplace_back(DNNL_ARG_SCRATCHPAD, kScratchpadSlot);
        if (p.get_kind() != dnnl::primitive::kind::reorder &&
            static_cast<size_t>(layer_) < c_.kernels.size() &&
            c_.kernels[static_cast<size_t>(layer_)].empty()) {  // the layer's main primitive
            c_.kernels[static_cast<size_t>(layer_)] = pd.impl_info_str();
        }
        c_.steps.push_back(Step{std::move(p), std::move(args), {}});
    }
    // Sum post-op: the output starts as the summed tensor (shared storage when it dies here).
    void PrepareSum(const PlanLayer& layer, int out);
    // Post-ops run as primitives of their own on `desc` data in place (what a kernel could not
    // fuse), each with the tensor it reads (a sum's operand; -1 for none); `lead` runs first.
    std::vector<std::tuple<dnnl::primitive, dnnl::primitive_desc_base, int>> PostOpPrimitives(
        const std::vector<PostOp>& ops, const memory::desc& desc,
        const std::vector<EltwiseOp>& lead = {});
    // Adds those primitives as steps on `out`.
    void AddInPlace(const std::vector<PostOp>& ops, int out, const memory::desc& desc,
                    const std::vector<EltwiseOp>& lead = {}) {
        for (auto& [p, step_pd, tensor] : PostOpPrimitives(ops, desc, lead)) {
            std::vector<std::pair<int, int>> args{{DNNL_ARG_SRC_0, out}, {DNNL_ARG_DST, out}};
            if (tensor >= 0) args.emplace_back(DNNL_ARG_SRC_1, Need(tensor, desc));
            Add(p, step_pd, std::move(args));
        }
    }

    // A view of constant or activation `tensor` as `desc` (the same bytes), in plain layout.
    int PlainView(uint32_t tensor, const memory::desc& desc) {
        int v = Need(static_cast<int>(tensor), Plain(plan_.tensors[tensor].dims));
        Slot view = c_.slots[v];
        view.desc = desc;
        c_.slots.push_back(view);
        return static_cast<int>(c_.slots.size() - 1);
    }

    void Conv(const PlanLayer& layer);
    // The engine's own Winograd (model/winograd.h) for `layer` instead of oneDNN's `pd`
    // followed by the post-op steps `rest`, where it takes the layer and runs faster: true when
    // its step was added.
    bool OwnWinograd(const PlanLayer& layer, const dnnl::convolution_forward::primitive_desc& pd,
                     const std::vector<PostOp>& rest);
    bool ConcatInPlace(const std::vector<int>& sources, int out);
    bool DeferViewOfBlocked(const PlanLayer& layer);
    void TransposeOfBlocked(const PlanLayer& layer, const BlockedTranspose& plan);
    void Deconv(const PlanLayer& layer);
    void Pad(const PlanLayer& layer);
    void Where(const PlanLayer& layer);
    void LayerNorm(const PlanLayer& layer);
    void Layer(const PlanLayer& layer);

    Compiled& c_;
    const Plan& plan_;
    int layer_ = 0;
    // Views of blocked tensors left for the Transpose that reads them (view -> its source).
    std::unordered_map<uint32_t, BlockedTranspose> deferred_views_;
};

dnnl::algorithm EltwiseAlgorithm(int64_t alg) {
    switch (static_cast<EltwiseAlg>(alg)) {
        case EltwiseAlg::kRelu:
            return dnnl::algorithm::eltwise_relu;
        case EltwiseAlg::kClip:
            return dnnl::algorithm::eltwise_clip;
        case EltwiseAlg::kLogistic:
            return dnnl::algorithm::eltwise_logistic;
        case EltwiseAlg::kSwish:
            return dnnl::algorithm::eltwise_swish;
        case EltwiseAlg::kTanh:
            return dnnl::algorithm::eltwise_tanh;
        case EltwiseAlg::kHardSwish:
            return dnnl::algorithm::eltwise_hardswish;
        case EltwiseAlg::kHardSigmoid:
            return dnnl::algorithm::eltwise_linear;  // then clip to [0, 1]
        case EltwiseAlg::kPow:
            return dnnl::algorithm::eltwise_pow;
        case EltwiseAlg::kSqrt:
            return dnnl::algorithm::eltwise_sqrt;
        case EltwiseAlg::kExp:
            return dnnl::algorithm::eltwise_exp;
        case EltwiseAlg::kLog:
            return dnnl::algorithm::eltwise_log;
        case EltwiseAlg::kAbs:
            return dnnl::algorithm::eltwise_abs;
        case EltwiseAlg::kLinear:
            return dnnl::algorithm::eltwise_linear;
        case EltwiseAlg::kSoftPlus:
            return dnnl::algorithm::eltwise_soft_relu;
        case EltwiseAlg::kElu:
            return dnnl::algorithm::eltwise_elu;
        case EltwiseAlg::kRound:
            return dnnl::algorithm::eltwise_round;
        case EltwiseAlg::kGeluErf:
            return dnnl::algorithm::eltwise_gelu_erf;
        case EltwiseAlg::kGeluTanh:
            return dnnl::algorithm::eltwise_gelu_tanh;
        case EltwiseAlg::kMish:
            return dnnl::algorithm::eltwise_mish;
        case EltwiseAlg::kErf:
            break;  // the engine's own kernel (Builder::Layer); never a post-op
    }
    return dnnl::algorithm::eltwise_relu;
}

// oneDNN's eltwise operations for one plan activation, in order (alpha and beta as given):
// HardSigmoid is oneDNN's linear, then a clip to [0, 1].
std::vector<EltwiseOp> EltwiseOps(int64_t alg, float alpha, float beta) {
    std::vector<EltwiseOp> ops{{EltwiseAlgorithm(alg), alpha, beta}};
    if (alg == static_cast<int64_t>(EltwiseAlg::kHardSigmoid)) {
        ops.push_back({dnnl::algorithm::eltwise_clip, 0.0f, 1.0f});
    }
    return ops;
}

dnnl::primitive_attr Builder::Attr(const PlanLayer& layer, const memory::desc& dst,
                                   std::vector<std::pair<int, uint32_t>>* operands) {
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    dnnl::post_ops ops;
    // oneDNN 2.6 runs every eltwise post-op of one algorithm with the first one's alpha and
    // beta (a linear after a linear scales twice by the first: PP-OCRv4's x * a + b after a
    // convolution). The compiler fuses no such chain (FusePostOps) but two linears or two clips
    // in a row, which are merged here into one.
    std::vector<EltwiseOp> pending;
    auto flush = [&] {
        for (const EltwiseOp& e : pending)
            ops.append_eltwise(1.0f, e.algorithm, e.alpha, e.beta);
        pending.clear();
    };
    auto eltwise = [&](const EltwiseOp& e) {
        if (pending.empty() || pending.back().algorithm != e.algorithm) {
            pending.push_back(e);
            return;
        }
        EltwiseOp& last = pending.back();
        if (e.algorithm == dnnl::algorithm::eltwise_linear) {
            last = {e.algorithm, last.alpha * e.alpha, e.alpha * last.beta + e.beta};
        } else if (e.algorithm == dnnl::algorithm::eltwise_clip) {
            last = {e.algorithm, std::clamp(last.alpha, e.alpha, e.beta),
                    std::clamp(last.beta, e.alpha, e.beta)};
        } else {
            pending.push_back(e);  // the same parameters (FusePostOps): shared is right
        }
    };
    for (const PostOp& op : layer.post_ops) {
        if (op.kind != PostOp::kEltwise) flush();
        if (op.kind == PostOp::kSum && ops.len() == 0) {
            ops.append_sum(1.0f);  // accumulates into the output, which PrepareSum fills
        } else if (op.kind == PostOp::kSum) {
            // oneDNN 2.6's jit convolutions take a sum first only (after an activation, its
            // reference kernel runs, 100x slower), but a binary add anywhere.
            const memory::desc like = dst.data.format_kind == dnnl_format_kind_any
                                          ? Plain(plan_.tensors[op.tensor].dims)
                                          : dst;
            if (operands != nullptr) {
                operands->emplace_back(DNNL_ARG_ATTR_MULTIPLE_POST_OP(ops.len()) | DNNL_ARG_SRC_1,
                                       op.tensor);
            }
            ops.append_binary(dnnl::algorithm::binary_add, like);
        } else {
            for (const EltwiseOp& e : EltwiseOps(op.alg, op.alpha, op.beta))
                eltwise(e);
        }
    }
    flush();
    attr.set_post_ops(ops);
    return attr;
}

void Builder::PrepareSum(const PlanLayer& layer, int out) {
    if (layer.post_ops.empty() || layer.post_ops[0].kind != PostOp::kSum) return;
    const int src = static_cast<int>(layer.post_ops[0].tensor);
    const Slot& s = c_.slots[src];
    bool shared_with_input = false;
    for (uint32_t in : layer.inputs) {
        shared_with_input = shared_with_input || (c_.slots[in].storage == s.storage);
    }
    if (s.storage >= 0 && s.desc == c_.slots[out].desc && c_.storages[s.storage].last == layer_ &&
        !shared_with_input) {
        // The summed tensor dies here: the output takes over its memory.
        Storage& st = c_.storages[s.storage];
        st.last = std::max(st.last, c_.storages[c_.slots[out].storage].last);
        c_.storages[c_.slots[out].storage].size = 0;  // unused now
        c_.slots[out].storage = s.storage;
    } else {
        Reorder(src, out);
    }
}

void Builder::Conv(const PlanLayer& layer) {
    const auto& x = plan_.tensors[layer.inputs[0]].dims;
    const auto& w = plan_.tensors[layer.inputs[1]].dims;
    const auto& y = plan_.tensors[layer.output].dims;
    const size_t r = x.size() - 2;
    const int64_t group = layer.ints[0];
    const int64_t flags = layer.ints.back();
    const bool blocked = (flags & 1) != 0;
    // Not a structured binding: the lambda below reads it (clang < 16 cannot capture bindings).
    const Window window = ReadWindow(layer, r);
    std::vector<int64_t> wd = w;
    if (group > 1) {
        wd = {group, w[0] / group};
        wd.insert(wd.end(), w.begin() + 1, w.end());
    }
    // One format through a conv region: left to choose ("any"), oneDNN picks nhwc for some
    // convolutions (brgconv) and nChw16c for others (Winograd), and every boundary between them
    // costs a reorder. 2-D convolutions therefore all use the engine's region format; in
    // nChw16c (channels padded to 16) narrow inputs (the first layer's 3 channels) stay plain,
    // which oneDNN's blocked kernels read directly.
    auto region = [&](const std::vector<int64_t>& d) {
        if (!blocked) return Plain(d);
        if (r != 2) return Any(d);
        if (c_.nhwc) return memory::desc(Dims(d), kF32, Tag::acdb);
        return d[1] >= 16 ? memory::desc(Dims(d), kF32, Tag::aBcd16b) : Plain(d);
    };
    memory::desc src = region(x);
    memory::desc dst =
        blocked && r == 2 && !c_.nhwc ? memory::desc(Dims(y), kF32, Tag::aBcd16b) : region(y);
    const memory::desc wei = Any(wd);
    const bool has_bias = layer.inputs.size() == 3;
    const memory::desc bias = has_bias ? Plain({w[0]}) : memory::desc();
    auto make = [&](dnnl::algorithm algorithm, const dnnl::primitive_attr& attr) {
        auto d = has_bias ? dnnl::convolution_forward::desc(
                                dnnl::prop_kind::forward_inference, algorithm, src, wei, bias, dst,
                                window.strides, window.dil, window.pad_l, window.pad_r)
                          : dnnl::convolution_forward::desc(
                                dnnl::prop_kind::forward_inference, algorithm, src, wei, dst,
                                window.strides, window.dil, window.pad_l, window.pad_r);
        return dnnl::convolution_forward::primitive_desc(d, attr, c_.engine);
    };
    // Winograd where the compiler allows it, with as many of the post-ops as its jit kernel
    // takes (oneDNN 2.6's has no swish and no binary add): the rest run after it, in place.
    PlanLayer head = layer;
    dnnl::convolution_forward::primitive_desc wino;
    std::vector<std::pair<int, uint32_t>> wino_operands;
    bool has_wino = false;
    for (size_t kept = layer.post_ops.size() + 1; (flags & 2) && !has_wino && kept-- > 0;) {
        head.post_ops.resize(kept);
        wino_operands.clear();
        try {
            wino = make(dnnl::algorithm::convolution_winograd, Attr(head, dst, &wino_operands));
            has_wino = !IsReference(wino);
        } catch (const dnnl::error&) {
            // No Winograd for this shape, ISA or these post-ops.
        }
    }
    const std::vector<PostOp> rest(layer.post_ops.begin() + static_cast<long>(head.post_ops.size()),
                                   layer.post_ops.end());
    std::vector<std::pair<int, uint32_t>> operands;
    dnnl::convolution_forward::primitive_desc pd;
    bool use_wino = has_wino;
    if (!has_wino) {
        pd = make(dnnl::algorithm::convolution_direct, Attr(layer, dst, &operands));
        if (IsReference(pd)) {
            // No jit kernel for this convolution in the region's format (a shape, dilation or
            // post-op oneDNN covers in other formats only): the format oneDNN picks, with the
            // reorders around it, when that gets one.
            const memory::desc region_src = src, region_dst = dst;
            std::vector<std::pair<int, uint32_t>> any_operands;
            src = Any(x);
            dst = Any(y);
            auto any = make(dnnl::algorithm::convolution_direct, Attr(layer, dst, &any_operands));
            if (!IsReference(any)) {
                pd = any;
                operands = std::move(any_operands);
            } else {
                src = region_src;
                dst = region_dst;
            }
        }
    } else if (PlanElementCount(y) * (PlanElementCount(w) / w[0]) <= kTimedWinogradMacs) {
        // Small grids are where oneDNN's Winograd may lose (a 128-channel 13x13 convolution:
        // 0.25 ms against 0.15 direct on a Zen 5), and where trying both costs little.
        pd = make(dnnl::algorithm::convolution_direct, Attr(layer, dst, &operands));
        Trial direct, winograd;
        direct.Add(dnnl::convolution_forward(pd), pd, c_.engine);
        winograd.Add(dnnl::convolution_forward(wino), wino, c_.engine);
        for (auto& [p, step_pd, tensor] : PostOpPrimitives(rest, wino.dst_desc()))
            winograd.Add(p, step_pd, c_.engine);
        dnnl::stream stream(c_.engine);
        use_wino = Decide(kWinogradTimed, kWinogradWon, [&] {
            return RunsFaster([&] { return winograd.Run(stream); },
                              [&] { return direct.Run(stream); });
        });
    }
    if (use_wino) {
        pd = wino;
        operands = wino_operands;
    }
    if ((flags & 2) && OwnWinograd(layer, pd, use_wino ? rest : std::vector<PostOp>{})) return;
    int xs = Need(static_cast<int>(layer.inputs[0]), pd.src_desc());
    // Grouped weights: the plan's [oc, ic/g, k...] data viewed as [g, oc/g, ic/g, k...].
    int ws = static_cast<int>(layer.inputs[1]);
    if (group > 1) {
        Slot view = c_.slots[ws];
        view.desc = Plain(wd);
        c_.slots.push_back(view);
        ws = static_cast<int>(c_.slots.size() - 1);
    }
    ws = Need(ws, pd.weights_desc());
    std::vector<std::pair<int, int>> args{{DNNL_ARG_SRC, xs}, {DNNL_ARG_WEIGHTS, ws}};
    if (has_bias) args.emplace_back(DNNL_ARG_BIAS, Need(static_cast<int>(layer.inputs[2]), bias));
    AddOperands(operands, pd, &args);
    int out = Define(layer.output, pd.dst_desc());
    PrepareSum(use_wino ? head : layer, out);
    args.emplace_back(DNNL_ARG_DST, out);
    Add(dnnl::convolution_forward(pd), pd, std::move(args));
    if (use_wino) AddInPlace(rest, out, pd.dst_desc());
}

// OPENACL_WINOGRAD: "own" takes the engine's Winograd wherever it fits, "onednn" never; unset
// (or anything else), each convolution it fits is timed both ways at load.
enum class OwnWinogradChoice { kMeasure, kAlways, kNever };
constexpr int64_t kOwnWinogradTilesPerThread = 16;
OwnWinogradChoice OwnWinogradSetting() {
    const char* v = std::getenv("OPENACL_WINOGRAD");
    if (v && std::string_view(v) == "own") return OwnWinogradChoice::kAlways;
    if (v && std::string_view(v) == "onednn") return OwnWinogradChoice::kNever;
    return OwnWinogradChoice::kMeasure;
}

bool Builder::OwnWinograd(const PlanLayer& layer,
                          const dnnl::convolution_forward::primitive_desc& pd,
                          const std::vector<PostOp>& rest) {
    const auto& x = plan_.tensors[layer.inputs[0]].dims;
    const auto& y = plan_.tensors[layer.output].dims;
    const OwnWinogradChoice choice = OwnWinogradSetting();
    if (choice == OwnWinogradChoice::kNever || c_.nhwc || x.size() != 4 || y.size() != 4 ||
        y[0] != x[0] || y[2] != x[2] || y[3] != x[3]) {
        return false;
    }
    const Window window = ReadWindow(layer, 2);
    for (size_t i = 0; i < 2; ++i) {
        if (window.pad_l[i] != 1 || window.pad_r[i] != 1) return false;
    }
    // The kernel applies a bias and a ReLU; any other post-op leaves the layer to oneDNN.
    const bool relu = layer.post_ops.size() == 1 && layer.post_ops[0].kind == PostOp::kEltwise &&
                      layer.post_ops[0].alg == static_cast<int64_t>(EltwiseAlg::kRelu) &&
                      layer.post_ops[0].alpha == 0.0f;
    if (!layer.post_ops.empty() && !relu) return false;
    const int weights = static_cast<int>(layer.inputs[1]);
    const bool has_bias = layer.inputs.size() == 3;
    if (c_.slots[weights].constant < 0 || (has_bias && c_.slots[layer.inputs[2]].constant < 0)) {
        return false;
    }
    // The larger tile F(4x4, 3x3) does fewer multiplications, but its transformed weights are
    // 4x the direct ones (F(2x2, 3x3)'s: 1.8x), read once per block of tiles: with few tiles
    // that traffic decides, and warm-cache timing at load would not see it. On a Zen 5 at
    // batch 1, F(4x4) gained 0.04 - 0.12 ms per layer at 56x56 and 28x28 in ResNet-50, and lost
    // at 14x14 (16 tiles) and 7x7 (4 tiles) against oneDNN's F(2x2). So: the larger tile with
    // at least kOwnWinogradTilesPerThread tiles per thread, else the smaller, else oneDNN.
    WinogradConvShape shape{x[0], x[1], y[1], x[2], x[3], relu};
    shape.tile = 0;
    for (const int m : {4, 2}) {
        const int64_t tiles = x[0] * ((x[2] + m - 1) / m) * ((x[3] + m - 1) / m);
        if (tiles >= kOwnWinogradTilesPerThread * c_.threads ||
            choice == OwnWinogradChoice::kAlways) {
            shape.tile = m;
            break;
        }
    }
    if (shape.tile == 0 || !WinogradAvailable() || !WinogradTakes(shape)) return false;
    memory transformed(
        memory::desc({static_cast<memory::dim>(WinogradWeightFloats(shape))}, kF32, Tag::a),
        c_.engine);
    const memory::desc plain_weights = Plain(plan_.tensors[weights].dims);
    WinogradTransformWeights(
        shape,
        static_cast<const float*>(
            c_.constants[c_.slots[Need(weights, plain_weights)].constant].get_data_handle()),
        static_cast<float*>(transformed.get_data_handle()));
    const size_t scratch = WinogradScratchBytes(shape, c_.threads);
    if (choice == OwnWinogradChoice::kMeasure && !Decide(kOwnTimed, kOwnWon, [&] {
            Trial onednn;
            onednn.Add(dnnl::convolution_forward(pd), pd, c_.engine);
            for (auto& [p, step_pd, tensor] : PostOpPrimitives(rest, pd.dst_desc()))
                onednn.Add(p, step_pd, c_.engine);
            std::vector<float> src(static_cast<size_t>(PlanElementCount(x)));
            std::vector<float> dst(static_cast<size_t>(PlanElementCount(y))), bias(y[1]);
            std::vector<uint8_t> work(scratch);
            const auto* u = static_cast<const float*>(transformed.get_data_handle());
            auto own = [&] {
                const auto start = std::chrono::steady_clock::now();
                WinogradConvolve(shape, src.data(), u, bias.data(), dst.data(), work.data(),
                                 c_.threads);
                return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
                    .count();
            };
            dnnl::stream stream(c_.engine);
            return RunsFaster(own, [&] { return onednn.Run(stream); });
        })) {
        return false;
    }

    const memory::desc src_desc(Dims(x), kF32, Tag::aBcd16b), dst_desc(Dims(y), kF32, Tag::aBcd16b);
    c_.constants.push_back(transformed);
    Slot u;
    u.desc = transformed.get_desc();
    u.constant = static_cast<int>(c_.constants.size() - 1);
    c_.slots.push_back(u);
    const int u_slot = static_cast<int>(c_.slots.size() - 1);
    Step step;
    step.args = {{DNNL_ARG_SRC, Need(static_cast<int>(layer.inputs[0]), src_desc)},
                 {DNNL_ARG_WEIGHTS, u_slot},
                 {DNNL_ARG_SCRATCHPAD, kScratchpadSlot}};
    if (has_bias) {
        step.args.emplace_back(DNNL_ARG_BIAS,
                               Need(static_cast<int>(layer.inputs[2]), Plain({y[1]})));
    }
    step.args.emplace_back(DNNL_ARG_DST, Define(layer.output, dst_desc));
    c_.scratchpad = std::max(c_.scratchpad, scratch);
    const int threads = c_.threads;
    step.kernel = [shape, has_bias, threads](const std::unordered_map<int, memory>& args) {
        auto data = [&](int arg) { return args.at(arg).get_data_handle(); };
        WinogradConvolve(shape, static_cast<const float*>(data(DNNL_ARG_SRC)),
                         static_cast<const float*>(data(DNNL_ARG_WEIGHTS)),
                         has_bias ? static_cast<const float*>(data(DNNL_ARG_BIAS)) : nullptr,
                         static_cast<float*>(data(DNNL_ARG_DST)), data(DNNL_ARG_SCRATCHPAD),
                         threads);
    };
    c_.kernels[static_cast<size_t>(layer_)] =
        shape.tile == 4 ? "openacl:wino_4x3:avx512" : "openacl:wino_2x3:avx512";
    c_.steps.push_back(std::move(step));
    return true;
}

std::vector<std::tuple<dnnl::primitive, dnnl::primitive_desc_base, int>> Builder::PostOpPrimitives(
    const std::vector<PostOp>& ops, const memory::desc& desc, const std::vector<EltwiseOp>& lead) {
    std::vector<std::tuple<dnnl::primitive, dnnl::primitive_desc_base, int>> steps;
    const auto fwd = dnnl::prop_kind::forward_inference;
    auto eltwise = [&](const EltwiseOp& e) {
        dnnl::eltwise_forward::primitive_desc pd({fwd, e.algorithm, desc, e.alpha, e.beta},
                                                 Attr(PlanLayer{}), c_.engine);
        steps.emplace_back(dnnl::eltwise_forward(pd), pd, -1);
    };
    for (const EltwiseOp& e : lead)
        eltwise(e);
    for (const PostOp& op : ops) {
        if (op.kind == PostOp::kSum) {
            dnnl::binary::primitive_desc pd({dnnl::algorithm::binary_add, desc, desc, desc},
                                            Attr(PlanLayer{}), c_.engine);
            steps.emplace_back(dnnl::binary(pd), pd, static_cast<int>(op.tensor));
            continue;
        }
        for (const EltwiseOp& e : EltwiseOps(op.alg, op.alpha, op.beta))
            eltwise(e);
    }
    return steps;
}

void Builder::Deconv(const PlanLayer& layer) {
    const auto& x = plan_.tensors[layer.inputs[0]].dims;
    const auto& w = plan_.tensors[layer.inputs[1]].dims;
    const auto& y = plan_.tensors[layer.output].dims;
    const size_t r = x.size() - 2;
    const int64_t group = layer.ints[0];
    // Not a structured binding: the lambda below reads it (clang < 16 cannot capture bindings).
    const Window window = ReadWindow(layer, r);
    // ONNX's [ic, oc/g, k...] read as oneDNN's [oc, ic, k...] ([g, oc/g, ic/g, k...] grouped)
    // through strides: ic is the outer of the two.
    const int64_t icg = w[0] / group, ocg = w[1];
    const int64_t k = PlanElementCount(std::vector<int64_t>(w.begin() + 2, w.end()));
    memory::dims wd{ocg, icg}, ws{k, ocg * k};
    if (group > 1) {
        wd = {group, ocg, icg};
        ws = {icg * ocg * k, k, ocg * k};
    }
    std::vector<int64_t> kstrides(r, 1);
    for (size_t i = r - 1; i-- > 0;)
        kstrides[i] = kstrides[i + 1] * w[3 + i];
    for (size_t i = 0; i < r; ++i) {
        wd.push_back(w[2 + i]);
        ws.push_back(kstrides[i]);
    }
    const bool has_bias = layer.inputs.size() == 3;
    const memory::desc bias = has_bias ? Plain({y[1]}) : memory::desc();
    const memory::desc wei = memory::desc(wd, kF32, Tag::any);
    const auto alg = dnnl::algorithm::deconvolution_direct;
    const auto fwd = dnnl::prop_kind::forward_inference;
    std::vector<std::pair<int, uint32_t>> operands;
    auto make = [&](const memory::desc& src, const memory::desc& dst) {
        operands.clear();
        auto d =
            has_bias
                ? dnnl::deconvolution_forward::desc(fwd, alg, src, wei, bias, dst, window.strides,
                                                    window.dil, window.pad_l, window.pad_r)
                : dnnl::deconvolution_forward::desc(fwd, alg, src, wei, dst, window.strides,
                                                    window.dil, window.pad_l, window.pad_r);
        return dnnl::deconvolution_forward::primitive_desc(d, Attr(layer, dst, &operands),
                                                           c_.engine);
    };
    // A 2-D deconvolution in the convolutions' format (nhwc, or nChw16c where both sides have
    // 16 channels or more): oneDNN's jit kernels; in plain NCHW it runs a gemm, 8-13 ms for each
    // of PP-OCRv4 detection's two 2x2 upsamplers (a third of the model's time).
    auto region = [&](const std::vector<int64_t>& d) {
        if (c_.nhwc) return memory::desc(Dims(d), kF32, Tag::acdb);
        return memory::desc(Dims(d), kF32, Tag::aBcd16b);
    };
    dnnl::deconvolution_forward::primitive_desc pd;
    bool built = false;
    if (r == 2 && (c_.nhwc || (x[1] >= 16 && y[1] >= 16))) {
        try {
            pd = make(region(x), region(y));
            built = !IsReference(pd);
        } catch (const dnnl::error&) {
        }
    }
    if (!built) pd = make(Plain(x), Plain(y));
    int xs = Need(static_cast<int>(layer.inputs[0]), pd.src_desc());
    int wv = PlainView(layer.inputs[1], memory::desc(wd, kF32, ws));
    std::vector<std::pair<int, int>> args{{DNNL_ARG_SRC, xs},
                                          {DNNL_ARG_WEIGHTS, Need(wv, pd.weights_desc())}};
    if (has_bias) args.emplace_back(DNNL_ARG_BIAS, PlainView(layer.inputs[2], bias));
    AddOperands(operands, pd, &args);
    int out = Define(layer.output, pd.dst_desc());
    PrepareSum(layer, out);
    args.emplace_back(DNNL_ARG_DST, out);
    Add(dnnl::deconvolution_forward(pd), pd, std::move(args));
}

// Index `i` of a padded axis in an input axis of `n`; -1: outside (constant padding).
int64_t PadSource(int64_t i, int64_t n, PadMode mode) {
    if (i >= 0 && i < n) return i;
    switch (mode) {
        case PadMode::kConstant:
            return -1;
        case PadMode::kEdge:
            return i < 0 ? 0 : n - 1;
        case PadMode::kReflect: {
            // numpy's reflect, repeated: the axis extended with period 2(n - 1).
            if (n == 1) return 0;
            const int64_t period = 2 * (n - 1);
            i = ((i % period) + period) % period;
            return i < n ? i : period - i;
        }
    }
    return -1;
}

// Pad as a copy loop over rows of the (plain, row-major) output: each row's source row is found
// once, then its elements are copied, mapped or filled. Rows are independent, so a large pad is
// split over the run's OpenMP threads (the ones the compute gate lent it).
void PadRows(const float* src, float* dst, const std::vector<int64_t>& x,
             const std::vector<int64_t>& y, const std::vector<int64_t>& begin, PadMode mode,
             float value) {
    if (x.empty()) {
        dst[0] = src[0];
        return;
    }
    const size_t rank = x.size();
    std::vector<int64_t> xstride(rank, 1);
    for (size_t i = rank - 1; i-- > 0;)
        xstride[i] = xstride[i + 1] * x[i + 1];
    const int64_t inner = y[rank - 1], n = x[rank - 1], b = begin[rank - 1];
    const int64_t rows = PlanElementCount(y) / inner;
    // Below about 64 Ki elements the fork and join would cost more than the copy.
    constexpr int64_t kParallelElements = int64_t{1} << 16;
#pragma omp parallel for schedule(static) if (rows * inner >= kParallelElements && rows > 1)
    for (int64_t row = 0; row < rows; ++row) {
        float* out = dst + row * inner;
        int64_t rest = row, base = 0;
        bool outside = false;
        for (size_t d = rank - 1; d-- > 0;) {
            const int64_t c = rest % y[d];
            rest /= y[d];
            const int64_t i = PadSource(c - begin[d], x[d], mode);
            outside = outside || i < 0;
            base += i * xstride[d];
        }
        if (outside) {
            std::fill(out, out + inner, value);
            continue;
        }
        const float* in = src + base;
        for (int64_t j = 0; j < inner; ++j) {
            const int64_t i = PadSource(j - b, n, mode);
            out[j] = i < 0 ? value : in[i];
        }
    }
}

// Whether concatenating `srcs` along `axis` into `dst` is laying each source's bytes after the
// previous one's: one dense layout everywhere (the same inner blocks, whole blocks of the axis in
// each source), nothing before the axis (batch 1) and the axis outermost in memory among the
// dims that are not 1. oneDNN 2.6 copies such concatenations at about a tenth of memcpy's
// speed (a YOLO-style detector spent a quarter of its run in them).
bool ConcatIsAppend(const std::vector<memory::desc>& srcs, const memory::desc& dst, int axis) {
    auto dense = [](const dnnl_memory_desc_t& md) {
        if (md.format_kind != dnnl_blocked || md.offset0 != 0) return false;
        for (int i = 0; i < md.ndims; ++i) {
            if (md.padded_dims[i] != md.dims[i] || md.padded_offsets[i] != 0) return false;
        }
        return true;
    };
    const dnnl_memory_desc_t& d = dst.data;
    const auto& db = d.format_desc.blocking;
    if (!dense(d) || axis < 0 || axis >= d.ndims) return false;
    for (int i = 0; i < axis; ++i) {
        if (d.dims[i] != 1) return false;
    }
    for (int i = 0; i < d.ndims; ++i) {
        if (i != axis && d.dims[i] > 1 && db.strides[i] > db.strides[axis]) return false;
    }
    for (const memory::desc& src : srcs) {
        const dnnl_memory_desc_t& s = src.data;
        const auto& sb = s.format_desc.blocking;
        if (!dense(s) || s.ndims != d.ndims || s.data_type != d.data_type) return false;
        if (sb.inner_nblks != db.inner_nblks) return false;
        for (int k = 0; k < sb.inner_nblks; ++k) {
            if (sb.inner_blks[k] != db.inner_blks[k] || sb.inner_idxs[k] != db.inner_idxs[k]) {
                return false;
            }
            if (sb.inner_idxs[k] == axis && s.dims[axis] % sb.inner_blks[k] != 0) return false;
        }
        for (int i = 0; i < d.ndims; ++i) {
            if (i == axis) continue;
            if (s.dims[i] != d.dims[i]) return false;
            if (d.dims[i] > 1 && sb.strides[i] != db.strides[i]) return false;
        }
        if (s.dims[axis] > 1 && sb.strides[axis] != db.strides[axis]) return false;
    }
    return true;
}

// A concatenation that lays its sources' bytes one after another (ConcatIsAppend) costs nothing
// when each source is computed straight into its place in the output: its storage becomes a
// part of the output's. That takes sources that die here (nothing reads them later, so nothing
// can reuse their bytes while the output lives), each in a storage of its own.
bool Builder::ConcatInPlace(const std::vector<int>& sources, int out) {
    std::vector<int> parts;
    for (int slot : sources) {
        const int st = c_.slots[slot].storage;
        if (st < 0 || c_.storages[st].last != layer_ || c_.storages[st].parent >= 0 ||
            c_.storages[st].is_parent || c_.storages[st].size != c_.slots[slot].desc.get_size() ||
            std::find(parts.begin(), parts.end(), st) != parts.end()) {
            return false;
        }
        parts.push_back(st);
    }
    const int whole = c_.slots[out].storage;
    Storage& w = c_.storages[whole];
    w.is_parent = true;
    size_t within = 0;
    for (int st : parts) {
        Storage& part = c_.storages[st];
        part.parent = whole;
        part.within = within;
        within += part.size;
        w.first = std::min(w.first, part.first);
    }
    return true;
}

// Such a concatenation as copies, split into pieces of at most 256 KiB over the run's threads.
Kernel AppendKernel(const std::vector<memory::desc>& srcs) {
    struct Piece {
        int src;
        size_t from, to, bytes;
    };
    constexpr size_t kPiece = size_t{256} << 10;
    std::vector<Piece> pieces;
    size_t at = 0;
    for (size_t i = 0; i < srcs.size(); ++i) {
        const size_t bytes = srcs[i].get_size();
        for (size_t off = 0; off < bytes; off += kPiece)
            pieces.push_back({static_cast<int>(i), off, at + off, std::min(kPiece, bytes - off)});
        at += bytes;
    }
    return [pieces](const std::unordered_map<int, memory>& args) {
        auto* dst = static_cast<char*>(args.at(DNNL_ARG_DST).get_data_handle());
        const int64_t n = static_cast<int64_t>(pieces.size());
#pragma omp parallel for schedule(static) if (n > 1)
        for (int64_t i = 0; i < n; ++i) {
            const Piece& p = pieces[static_cast<size_t>(i)];
            const auto* src =
                static_cast<const char*>(args.at(DNNL_ARG_MULTIPLE_SRC + p.src).get_data_handle());
            std::memcpy(dst + p.to, src + p.from, p.bytes);
        }
    };
}

// A detector's heads: a convolution's blocked output (nChw16c), viewed with its channels split
// (N x anchors x values x cells) and transposed (values innermost). Done as written, the view
// reorders the whole tensor to plain layout and the transpose moves it once more; here one
// pass reads the blocked tensor and writes the transposed result, cell by cell. It applies
// when the view's only reader is the Transpose right after it, its source is dense nChw16c,
// the view's dims split between the channels and the spatial dims (so that where an element
// goes is the sum of a part that depends on its image and channel and a part that depends on
// its cell), and neighbouring channels mostly stay neighbours (runs of at least 4 values).
std::optional<BlockedTranspose> PlanBlockedTranspose(const std::vector<int64_t>& x,
                                                     const std::vector<int64_t>& view,
                                                     const std::vector<int64_t>& y,
                                                     const std::vector<int64_t>& perm) {
    constexpr int64_t kBlock = 16;
    const int64_t images_channels = x[0] * x[1], cells = x[2] * x[3];
    size_t m = 0;
    int64_t prefix = 1;
    while (m < view.size() && prefix < images_channels)
        prefix *= view[m++];
    if (prefix != images_channels || y.size() != view.size()) return std::nullopt;
    std::vector<int64_t> ystride(y.size(), 1);
    for (size_t i = y.size() - 1; i-- > 0;)
        ystride[i] = ystride[i + 1] * y[i + 1];
    std::vector<int64_t> step(view.size(), 0);  // an index step along each view dim, in y
    for (size_t i = 0; i < y.size(); ++i)
        step[static_cast<size_t>(perm[i])] = ystride[i];
    auto offset = [&](int64_t k, size_t first, size_t last) {
        int64_t at = 0;
        for (size_t i = last; i-- > first;) {
            at += k % view[i] * step[i];
            k /= view[i];
        }
        return at;
    };
    BlockedTranspose plan;
    const int64_t channels = x[1], blocks = (channels + kBlock - 1) / kBlock;
    for (int64_t k = 0; k < images_channels; ++k) {
        const int64_t image = k / channels, channel = k % channels;
        const int64_t from =
            ((image * blocks + channel / kBlock) * cells) * kBlock + channel % kBlock;
        const int64_t to = offset(k, 0, m);
        BlockedTranspose::Run* last = plan.runs.empty() ? nullptr : &plan.runs.back();
        if (last != nullptr && channel % kBlock != 0 && last->from + last->length == from &&
            last->to + last->length == to) {
            ++last->length;
        } else {
            plan.runs.push_back({from, to, 1});
        }
    }
    if (static_cast<int64_t>(plan.runs.size()) * 4 > images_channels) return std::nullopt;
    plan.by_cell.resize(static_cast<size_t>(cells));
    for (int64_t c = 0; c < cells; ++c)
        plan.by_cell[static_cast<size_t>(c)] = offset(c, m, view.size());
    return plan;
}

bool Builder::DeferViewOfBlocked(const PlanLayer& layer) {
    const uint32_t source = layer.inputs[0];
    const auto& x = plan_.tensors[source].dims;
    const size_t next = static_cast<size_t>(layer_) + 1;
    if (x.size() != 4 || next >= plan_.layers.size() || Last(layer.output) != layer_ + 1) {
        return false;
    }
    const PlanLayer& reader = plan_.layers[next];
    if (reader.kind != LayerKind::kTranspose || reader.inputs[0] != layer.output ||
        !reader.post_ops.empty() || c_.slots[source].storage < 0 ||
        c_.slots[source].desc != memory::desc(Dims(x), kF32, Tag::aBcd16b)) {
        return false;
    }
    auto plan = PlanBlockedTranspose(x, plan_.tensors[layer.output].dims,
                                     plan_.tensors[reader.output].dims, reader.ints);
    if (!plan) return false;
    plan->source = source;
    deferred_views_[layer.output] = std::move(*plan);
    return true;
}

void Builder::TransposeOfBlocked(const PlanLayer& layer, const BlockedTranspose& plan) {
    Storage& st = c_.storages[c_.slots[plan.source].storage];
    st.last = std::max(st.last, layer_);
    const int out = Define(layer.output, Plain(plan_.tensors[layer.output].dims));
    Step step;
    step.args = {{DNNL_ARG_SRC, static_cast<int>(plan.source)}, {DNNL_ARG_DST, out}};
    auto shared = std::make_shared<const BlockedTranspose>(plan);
    step.kernel = [shared](const std::unordered_map<int, memory>& args) {
        constexpr int64_t kBlock = 16, kCells = 64;
        const auto* in = static_cast<const float*>(args.at(DNNL_ARG_SRC).get_data_handle());
        auto* o = static_cast<float*>(args.at(DNNL_ARG_DST).get_data_handle());
        const BlockedTranspose& p = *shared;
        const auto cells = static_cast<int64_t>(p.by_cell.size());
        const int64_t pieces = (cells + kCells - 1) / kCells;
#pragma omp parallel for schedule(static) if (pieces > 1)
        for (int64_t piece = 0; piece < pieces; ++piece) {
            const int64_t end = std::min(cells, (piece + 1) * kCells);
            for (int64_t cell = piece * kCells; cell < end; ++cell) {
                float* row = o + p.by_cell[static_cast<size_t>(cell)];
                const float* column = in + cell * kBlock;
                for (const BlockedTranspose::Run& r : p.runs) {
                    for (int64_t l = 0; l < r.length; ++l)
                        row[r.to + l] = column[r.from + l];
                }
            }
        }
    };
    c_.steps.push_back(std::move(step));
}

// Where: the output element by element from a or b as the condition says, each operand read
// with stride 0 along the dims it broadcasts over. oneDNN has no select.
void Builder::Where(const PlanLayer& layer) {
    const auto& y = plan_.tensors[layer.output].dims;
    Step step;
    // Per operand, the element strides along the output's dims (0 where it broadcasts).
    std::vector<std::vector<int64_t>> strides;
    const int args[] = {DNNL_ARG_SRC_0, DNNL_ARG_SRC_1, DNNL_ARG_SRC_2};
    for (size_t k = 0; k < 3; ++k) {
        const auto& d = plan_.tensors[layer.inputs[k]].dims;
        step.args.emplace_back(args[k], Need(static_cast<int>(layer.inputs[k]), Plain(d)));
        std::vector<int64_t> st(d.size(), 0);
        int64_t stride = 1;
        for (size_t i = d.size(); i-- > 0;) {
            st[i] = d[i] == 1 ? 0 : stride;
            stride *= d[i];
        }
        strides.push_back(std::move(st));
    }
    const int out = Define(layer.output, Plain(y));
    step.args.emplace_back(DNNL_ARG_DST, out);
    step.kernel = [y, strides](const std::unordered_map<int, memory>& args) {
        const auto* c = static_cast<const float*>(args.at(DNNL_ARG_SRC_0).get_data_handle());
        const auto* a = static_cast<const float*>(args.at(DNNL_ARG_SRC_1).get_data_handle());
        const auto* b = static_cast<const float*>(args.at(DNNL_ARG_SRC_2).get_data_handle());
        auto* o = static_cast<float*>(args.at(DNNL_ARG_DST).get_data_handle());
        const int64_t n = PlanElementCount(y);
        const size_t rank = y.size();
        for (int64_t i = 0; i < n; ++i) {
            int64_t rest = i, ic = 0, ia = 0, ib = 0;
            for (size_t k = rank; k-- > 0;) {
                const int64_t coord = rest % y[k];
                rest /= y[k];
                ic += coord * strides[0][k];
                ia += coord * strides[1][k];
                ib += coord * strides[2][k];
            }
            o[i] = c[ic] != 0.0f ? a[ia] : b[ib];
        }
    };
    c_.steps.push_back(std::move(step));
}

void Builder::Pad(const PlanLayer& layer) {
    const auto& x = plan_.tensors[layer.inputs[0]].dims;
    const auto& y = plan_.tensors[layer.output].dims;
    const int xs = Need(static_cast<int>(layer.inputs[0]), Plain(x));
    const int out = Define(layer.output, Plain(y));
    const std::vector<int64_t> begin(layer.ints.begin() + 1, layer.ints.begin() + 1 + x.size());
    const auto mode = static_cast<PadMode>(layer.ints[0]);
    const float value = layer.floats[0];
    Step step;
    step.args = {{DNNL_ARG_SRC, xs}, {DNNL_ARG_DST, out}};
    const bool value_at_run_time = layer.inputs.size() == 2;
    if (value_at_run_time) {
        const uint32_t v = layer.inputs[1];
        step.args.emplace_back(DNNL_ARG_SRC_1,
                               Need(static_cast<int>(v), Plain(plan_.tensors[v].dims)));
    }
    step.kernel = [x, y, begin, mode, value,
                   value_at_run_time](const std::unordered_map<int, memory>& args) {
        const float fill =
            value_at_run_time
                ? *static_cast<const float*>(args.at(DNNL_ARG_SRC_1).get_data_handle())
                : value;
        PadRows(static_cast<const float*>(args.at(DNNL_ARG_SRC).get_data_handle()),
                static_cast<float*>(args.at(DNNL_ARG_DST).get_data_handle()), x, y, begin, mode,
                fill);
    };
    c_.steps.push_back(std::move(step));
}

void Builder::LayerNorm(const PlanLayer& layer) {
    const auto& x = plan_.tensors[layer.inputs[0]].dims;
    const bool has_shift = layer.inputs.size() == 3;
    auto flags = dnnl::normalization_flags::use_scale;
    if (has_shift) flags = flags | dnnl::normalization_flags::use_shift;
    const int xs = Need(static_cast<int>(layer.inputs[0]), Plain(x));
    dnnl::layer_normalization_forward::primitive_desc pd(
        dnnl::layer_normalization_forward::desc(dnnl::prop_kind::forward_inference, Plain(x),
                                                layer.floats[0], flags),
        Attr(PlanLayer{}), c_.engine);
    const memory::desc per_element = Plain({x.back()});
    std::vector<std::pair<int, int>> args{
        {DNNL_ARG_SRC, xs}, {DNNL_ARG_SCALE, PlainView(layer.inputs[1], per_element)}};
    if (has_shift) args.emplace_back(DNNL_ARG_SHIFT, PlainView(layer.inputs[2], per_element));
    const int out = Define(layer.output, pd.dst_desc());
    args.emplace_back(DNNL_ARG_DST, out);
    Add(dnnl::layer_normalization_forward(pd), pd, std::move(args));
}

void Builder::Layer(const PlanLayer& layer) {
    const auto& y = plan_.tensors[layer.output].dims;
    const int in0 = static_cast<int>(layer.inputs[0]);
    const auto& x = plan_.tensors[in0].dims;
    const auto fwd = dnnl::prop_kind::forward_inference;
    switch (layer.kind) {
        case LayerKind::kConv:
            Conv(layer);
            return;
        case LayerKind::kDeconv:
            Deconv(layer);
            return;
        case LayerKind::kPad:
            Pad(layer);
            return;
        case LayerKind::kWhere:
            Where(layer);
            return;
        case LayerKind::kLayerNorm:
            LayerNorm(layer);
            return;
        case LayerKind::kPool: {
            const size_t r = x.size() - 2;
            memory::dims kernel, strides, pad_l, pad_r;
            for (size_t i = 0; i < r; ++i) {
                kernel.push_back(layer.ints[1 + i]);
                strides.push_back(layer.ints[1 + r + i]);
                pad_l.push_back(layer.ints[1 + 2 * r + i]);
                pad_r.push_back(layer.ints[1 + 3 * r + i]);
            }
            const auto alg = static_cast<PoolAlg>(layer.ints[0]);
            const auto a = alg == PoolAlg::kMax ? dnnl::algorithm::pooling_max
                           : alg == PoolAlg::kAvgIncludePad
                               ? dnnl::algorithm::pooling_avg_include_padding
                               : dnnl::algorithm::pooling_avg_exclude_padding;
            int xs = in0;
            if (c_.slots[xs].constant >= 0) xs = Need(xs, Plain(x));
            dnnl::pooling_forward::primitive_desc pd(
                dnnl::pooling_forward::desc(fwd, a, c_.slots[xs].desc, Any(y), strides, kernel,
                                            pad_l, pad_r),
                Attr(layer), c_.engine);
            int out = Define(layer.output, pd.dst_desc());
            Add(dnnl::pooling_forward(pd), pd, {{DNNL_ARG_SRC, xs}, {DNNL_ARG_DST, out}});
            return;
        }
        case LayerKind::kBinary: {
            static const dnnl::algorithm algs[kBinaryAlgCount] = {
                dnnl::algorithm::binary_add, dnnl::algorithm::binary_sub,
                dnnl::algorithm::binary_mul, dnnl::algorithm::binary_div,
                dnnl::algorithm::binary_max, dnnl::algorithm::binary_min,
                dnnl::algorithm::binary_eq,  dnnl::algorithm::binary_ne,
                dnnl::algorithm::binary_gt,  dnnl::algorithm::binary_ge,
                dnnl::algorithm::binary_lt,  dnnl::algorithm::binary_le};
            const int in1 = static_cast<int>(layer.inputs[1]);
            int a = in0;
            if (c_.slots[a].constant >= 0) a = Need(a, Plain(x));
            const bool same = plan_.tensors[in1].dims == x;
            const memory::desc b_plain = Plain(plan_.tensors[in1].dims);
            auto make = [&](const memory::desc& ad, const memory::desc& bd) {
                return dnnl::binary::primitive_desc(
                    dnnl::binary::desc(algs[layer.ints[0]], ad, same ? ad : bd, ad), Attr(layer),
                    c_.engine);
            };
            // Layouts tried in turn, the first that oneDNN runs with a jit kernel kept: the
            // broadcast operand in the first one's layout (with a blocked first operand and a
            // plain [1, C, 1, 1] second one, oneDNN 2.6 takes its reference kernel, 100 times
            // slower), then plain, then both plain.
            const memory::desc candidates[][2] = {{c_.slots[a].desc, Any(plan_.tensors[in1].dims)},
                                                  {c_.slots[a].desc, b_plain},
                                                  {Plain(x), b_plain}};
            dnnl::binary::primitive_desc pd;
            size_t chosen = std::size(candidates);
            for (size_t i = 0; i < std::size(candidates); ++i) {
                try {
                    pd = make(candidates[i][0], candidates[i][1]);
                } catch (const dnnl::error&) {
                    if (i + 1 == std::size(candidates) && chosen == std::size(candidates)) throw;
                    continue;
                }
                chosen = i;
                if (!IsReference(pd)) break;
            }
            if (chosen == 2) a = Need(a, Plain(x));
            int b = Need(in1, pd.src1_desc());
            int out = Define(layer.output, pd.dst_desc());
            Add(dnnl::binary(pd), pd,
                {{DNNL_ARG_SRC_0, a}, {DNNL_ARG_SRC_1, b}, {DNNL_ARG_DST, out}});
            return;
        }
        case LayerKind::kEltwise: {
            const auto alg = static_cast<EltwiseAlg>(layer.ints[0]);
            if (alg == EltwiseAlg::kLog || alg == EltwiseAlg::kErf) {
                // oneDNN has no erf, and its log is off by ~1e-6 near log(1) = 0, where ONNX's
                // tests (and ONNX Runtime) are exact: the C library's, on the plain tensor.
                float (*const f)(float) = alg == EltwiseAlg::kLog ? logf : erff;
                const int xs = Need(in0, Plain(x));
                const int out = Define(layer.output, Plain(y));
                Step step;
                step.args = {{DNNL_ARG_SRC, xs}, {DNNL_ARG_DST, out}};
                const auto n = static_cast<int64_t>(PlanElementCount(y));
                step.kernel = [n, f](const std::unordered_map<int, memory>& args) {
                    const auto* in =
                        static_cast<const float*>(args.at(DNNL_ARG_SRC).get_data_handle());
                    auto* o = static_cast<float*>(args.at(DNNL_ARG_DST).get_data_handle());
#pragma omp parallel for schedule(static) if (n >= (int64_t{1} << 16))
                    for (int64_t i = 0; i < n; ++i)
                        o[i] = f(in[i]);
                };
                c_.steps.push_back(std::move(step));
                AddInPlace(layer.post_ops, out, Plain(y));
                return;
            }
            const auto steps = EltwiseOps(layer.ints[0], layer.floats[0], layer.floats[1]);
            int xs = in0;
            if (c_.slots[xs].constant >= 0) xs = Need(xs, Plain(x));
            // No post-ops on the primitive: oneDNN 2.6 runs an eltwise with post-ops on its
            // reference kernel, which left a plain 1-D output unwritten. The layer's later steps
            // (HardSigmoid's clip), then its post-ops, run in place after it.
            dnnl::eltwise_forward::primitive_desc pd(
                dnnl::eltwise_forward::desc(fwd, steps[0].algorithm, c_.slots[xs].desc,
                                            steps[0].alpha, steps[0].beta),
                Attr(PlanLayer{}), c_.engine);
            int out = -1;
            if (const Slot& src = c_.slots[xs]; src.storage >= 0 &&
                                                c_.storages[src.storage].last == layer_ &&
                                                src.desc == pd.dst_desc()) {
                // The input dies here: overwrite it rather than write a fresh buffer (the
                // memory is already in cache and needs no more room).
                out = Share(layer.output, pd.dst_desc(), src.storage);
            } else {
                out = Define(layer.output, pd.dst_desc());
            }
            Add(dnnl::eltwise_forward(pd), pd, {{DNNL_ARG_SRC, xs}, {DNNL_ARG_DST, out}});
            AddInPlace(layer.post_ops, out, pd.dst_desc(), {steps.begin() + 1, steps.end()});
            return;
        }
        case LayerKind::kMatMul: {
            int a = Need(in0, Plain(x));
            const int in1 = static_cast<int>(layer.inputs[1]);
            const std::vector<int64_t>& w = plan_.tensors[in1].dims;
            // Constant weights in the layout the kernel packs them into, once at load: with
            // plain weights brgemm repacks them on every run (a classifier's 8 MB, each call).
            const memory::desc b_want = c_.slots[in1].constant >= 0 ? Any(w) : Plain(w);
            const bool has_bias = layer.inputs.size() == 3;
            int bias = has_bias ? Need(static_cast<int>(layer.inputs[2]),
                                       Plain(plan_.tensors[layer.inputs[2]].dims))
                                : -1;
            auto d = has_bias ? dnnl::matmul::desc(c_.slots[a].desc, b_want, c_.slots[bias].desc,
                                                   Plain(y))
                              : dnnl::matmul::desc(c_.slots[a].desc, b_want, Plain(y));
            dnnl::matmul::primitive_desc pd(d, Attr(layer), c_.engine);
            int b = Need(in1, pd.weights_desc());
            int out = Define(layer.output, pd.dst_desc());
            PrepareSum(layer, out);
            std::vector<std::pair<int, int>> args{
                {DNNL_ARG_SRC, a}, {DNNL_ARG_WEIGHTS, b}, {DNNL_ARG_DST, out}};
            if (has_bias) args.emplace_back(DNNL_ARG_BIAS, bias);
            Add(dnnl::matmul(pd), pd, std::move(args));
            return;
        }
        case LayerKind::kConcat: {
            std::vector<memory::desc> srcs;
            std::vector<int> ins;
            for (uint32_t id : layer.inputs) {
                int s = static_cast<int>(id);
                if (c_.slots[s].constant >= 0) s = Need(s, Plain(plan_.tensors[id].dims));
                ins.push_back(s);
                srcs.push_back(c_.slots[s].desc);
            }
            const int axis = static_cast<int>(layer.ints[0]);
            dnnl::concat::primitive_desc pd(axis, srcs, c_.engine, Attr(PlanLayer{}));
            int out = Define(layer.output, pd.dst_desc());
            std::vector<std::pair<int, int>> args{{DNNL_ARG_DST, out}};
            for (size_t i = 0; i < ins.size(); ++i)
                args.emplace_back(DNNL_ARG_MULTIPLE_SRC + static_cast<int>(i), ins[i]);
            if (ConcatIsAppend(srcs, pd.dst_desc(), axis)) {
                if (ConcatInPlace(ins, out)) return;
                Step step;
                step.args = std::move(args);
                step.kernel = AppendKernel(srcs);
                c_.steps.push_back(std::move(step));
                return;
            }
            Add(dnnl::concat(pd), pd, std::move(args));
            return;
        }
        case LayerKind::kSoftmax: {
            int xs = Need(in0, Plain(x));
            if (layer.ints.size() > 1 && layer.ints[1] == 1) {
                dnnl::logsoftmax_forward::primitive_desc pd(
                    dnnl::logsoftmax_forward::desc(fwd, Plain(x), static_cast<int>(layer.ints[0])),
                    Attr(PlanLayer{}), c_.engine);
                int out = Define(layer.output, pd.dst_desc());
                Add(dnnl::logsoftmax_forward(pd), pd, {{DNNL_ARG_SRC, xs}, {DNNL_ARG_DST, out}});
                return;
            }
            dnnl::softmax_forward::primitive_desc pd(
                dnnl::softmax_forward::desc(fwd, Plain(x), static_cast<int>(layer.ints[0])),
                Attr(PlanLayer{}), c_.engine);
            int out = Define(layer.output, pd.dst_desc());
            Add(dnnl::softmax_forward(pd), pd, {{DNNL_ARG_SRC, xs}, {DNNL_ARG_DST, out}});
            return;
        }
        case LayerKind::kView: {
            if (DeferViewOfBlocked(layer)) return;
            const Slot& s = c_.slots[in0];
            if (s.storage >= 0 && s.desc == Plain(x)) {
                // Same bytes, new shape: share the input's storage for as long as either lives.
                Share(layer.output, Plain(y), s.storage);
                return;
            }
            int out = Define(layer.output, Plain(y));
            int as_x = NewSlot(Plain(x), c_.slots[out].storage);
            Reorder(in0, as_x);
            return;
        }
        case LayerKind::kTranspose: {
            if (auto view = deferred_views_.find(layer.inputs[0]); view != deferred_views_.end()) {
                TransposeOfBlocked(layer, view->second);
                return;
            }
            int xs = Need(in0, Plain(x));
            std::vector<int64_t> xstride(x.size(), 1);
            for (size_t i = x.size() - 1; i-- > 0;)
                xstride[i] = xstride[i + 1] * x[i + 1];
            memory::dims strides;
            for (int64_t p : layer.ints)
                strides.push_back(xstride[static_cast<size_t>(p)]);
            Slot permuted = c_.slots[xs];
            permuted.desc = memory::desc(Dims(y), kF32, strides);
            c_.slots.push_back(permuted);
            int out = Define(layer.output, Plain(y));
            Reorder(static_cast<int>(c_.slots.size() - 1), out);
            return;
        }
        case LayerKind::kResize: {
            int xs = in0;
            if (c_.slots[xs].constant >= 0) xs = Need(xs, Plain(x));
            const auto alg = layer.ints[0] == static_cast<int64_t>(ResizeAlg::kNearest)
                                 ? dnnl::algorithm::resampling_nearest
                                 : dnnl::algorithm::resampling_linear;
            dnnl::resampling_forward::primitive_desc pd(
                dnnl::resampling_forward::desc(fwd, alg, c_.slots[xs].desc, Any(y)),
                Attr(PlanLayer{}), c_.engine);
            int out = Define(layer.output, pd.dst_desc());
            Add(dnnl::resampling_forward(pd), pd, {{DNNL_ARG_SRC, xs}, {DNNL_ARG_DST, out}});
            return;
        }
        case LayerKind::kBatchNorm: {
            int xs = in0;
            if (c_.slots[xs].constant >= 0) xs = Need(xs, Plain(x));
            const auto flags = dnnl::normalization_flags::use_global_stats |
                               dnnl::normalization_flags::use_scale |
                               dnnl::normalization_flags::use_shift;
            dnnl::batch_normalization_forward::primitive_desc pd(
                dnnl::batch_normalization_forward::desc(fwd, c_.slots[xs].desc, layer.floats[0],
                                                        flags),
                Attr(PlanLayer{}), c_.engine);
            const memory::desc stat = Plain({x[1]});
            std::vector<std::pair<int, int>> args{{DNNL_ARG_SRC, xs}};
            const int kinds[] = {DNNL_ARG_SCALE, DNNL_ARG_SHIFT, DNNL_ARG_MEAN, DNNL_ARG_VARIANCE};
            for (int k = 0; k < 4; ++k) {
                Slot view = c_.slots[layer.inputs[1 + k]];
                int v = static_cast<int>(layer.inputs[1 + k]);
                if (view.constant >= 0 || view.desc != stat) {
                    view.desc = Plain(plan_.tensors[layer.inputs[1 + k]].dims);
                    v = Need(v, view.desc);
                    view = c_.slots[v];
                    view.desc = stat;  // [C] or [1, C, 1...]: the same bytes
                    c_.slots.push_back(view);
                    v = static_cast<int>(c_.slots.size() - 1);
                }
                args.emplace_back(kinds[k], v);
            }
            int out = Define(layer.output, pd.dst_desc());
            args.emplace_back(DNNL_ARG_DST, out);
            Add(dnnl::batch_normalization_forward(pd), pd, std::move(args));
            return;
        }
        case LayerKind::kSlice: {
            int xs = Need(in0, Plain(x));
            memory::dims offsets(layer.ints.begin(), layer.ints.end());
            Slot part = c_.slots[xs];
            part.desc = Plain(x).submemory_desc(Dims(y), offsets);
            c_.slots.push_back(part);
            int out = Define(layer.output, Plain(y));
            Reorder(static_cast<int>(c_.slots.size() - 1), out);
            return;
        }
        case LayerKind::kReduceMean:
        case LayerKind::kReduce: {
            // oneDNN's algorithm and its p for each reduction (eps 0: the norms are exact).
            struct Reduction {
                dnnl::algorithm alg;
                float p;
            };
            static const Reduction kReductions[kReduceAlgCount] = {
                {dnnl::algorithm::reduction_max, 0.0f},
                {dnnl::algorithm::reduction_min, 0.0f},
                {dnnl::algorithm::reduction_sum, 0.0f},
                {dnnl::algorithm::reduction_mean, 0.0f},
                {dnnl::algorithm::reduction_mul, 0.0f},
                {dnnl::algorithm::reduction_norm_lp_sum, 1.0f},
                {dnnl::algorithm::reduction_norm_lp_sum, 2.0f},
                {dnnl::algorithm::reduction_norm_lp_power_p_sum, 2.0f}};
            const Reduction r = layer.kind == LayerKind::kReduce
                                    ? kReductions[layer.ints[0]]
                                    : Reduction{dnnl::algorithm::reduction_mean, 0.0f};
            int xs = Need(in0, Plain(x));
            dnnl::reduction::primitive_desc pd(
                dnnl::reduction::desc(r.alg, Plain(x), Plain(y), r.p, 0.0f), Attr(PlanLayer{}),
                c_.engine);
            int out = Define(layer.output, pd.dst_desc());
            Add(dnnl::reduction(pd), pd, {{DNNL_ARG_SRC, xs}, {DNNL_ARG_DST, out}});
            return;
        }
    }
}

// Greedy by size: each storage goes at the lowest offset where it overlaps no placed storage
// whose lifetime it shares.
void PlaceStorages(Compiled* c) {
    std::vector<size_t> order(c->storages.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return c->storages[a].size > c->storages[b].size; });
    std::vector<size_t> placed;
    c->arena = 0;
    for (size_t i : order) {
        Storage& s = c->storages[i];
        if (s.size == 0 || s.parent >= 0) continue;
        std::vector<std::pair<size_t, size_t>> busy;
        for (size_t j : placed) {
            const Storage& o = c->storages[j];
            if (o.first <= s.last && s.first <= o.last) {
                busy.emplace_back(o.offset, o.offset + Aligned(o.size));
            }
        }
        std::sort(busy.begin(), busy.end());
        size_t offset = 0;
        for (const auto& [begin, end] : busy) {
            if (offset + Aligned(s.size) <= begin) break;
            offset = std::max(offset, end);
        }
        s.offset = offset;
        c->arena = std::max(c->arena, offset + Aligned(s.size));
        placed.push_back(i);
    }
    for (Storage& s : c->storages) {
        if (s.parent >= 0) s.offset = c->storages[s.parent].offset + s.within;
    }
}

void Builder::Build() {
    for (const PlanTensor& t : plan_.tensors) {
        Slot s;
        s.desc = Plain(t.dims);
        if (t.constant >= 0) {
            auto& data = const_cast<std::vector<float>&>(plan_.constants[t.constant]);
            c_.constants.emplace_back(s.desc, c_.engine, data.data());
            s.constant = static_cast<int>(c_.constants.size() - 1);
        }
        c_.slots.push_back(s);
    }
    c_.plan_views = c_.constants.size();
    c_.kernels.resize(plan_.layers.size());
    for (size_t i = 0; i < plan_.inputs.size(); ++i)
        c_.slots[plan_.inputs[i]].input = static_cast<int>(i);
    for (size_t i = 0; i < plan_.layers.size(); ++i) {
        layer_ = static_cast<int>(i);
        const size_t first_step = c_.steps.size();
        Layer(plan_.layers[i]);
        for (size_t k = first_step; k < c_.steps.size(); ++k)
            c_.steps[k].layer = layer_;
    }
    layer_ = static_cast<int>(plan_.layers.size());
    for (uint32_t id : plan_.outputs) {
        int slot = static_cast<int>(id);
        const auto& dims = plan_.tensors[id].dims;
        if (!c_.keep_output_formats && c_.slots[slot].desc != Plain(dims)) {
            int plain = NewSlot(Plain(dims), NewStorage(Plain(dims).get_size(), layer_, layer_));
            Reorder(slot, plain);
            slot = plain;
        }
        c_.outputs.push_back(slot);
    }
    PlaceStorages(&c_);
}

// Most constants were reordered at build into memory of their own, in the formats their
// primitives chose; the plan's data is still read only where a primitive takes a constant as
// the plan stores it (biases, a MatMul's weights, statistics). Those few are copied, constants
// that only fed a reorder are dropped, and the plan is swapped for its structure (what Run and
// the trace names read), so the plan's data goes with the last of its other owners.
void ReleasePlanData(Compiled* c) {
    std::vector<bool> read(c->constants.size(), false);
    auto note = [&](int slot) {
        if (slot >= 0 && c->slots[slot].constant >= 0) read[c->slots[slot].constant] = true;
    };
    for (const Step& step : c->steps) {
        for (const auto& [arg, slot] : step.args)
            note(slot);
    }
    for (int slot : c->outputs)
        note(slot);
    for (size_t i = 0; i < c->constants.size(); ++i) {
        if (!read[i]) {
            c->constants[i] = memory();
            continue;
        }
        const memory::desc desc = c->constants[i].get_desc();
        if (i < c->plan_views) {
            memory own(desc, c->engine);
            std::memcpy(own.get_data_handle(), c->constants[i].get_data_handle(), desc.get_size());
            c->constants[i] = own;
        }
        c->weight_bytes += desc.get_size();
    }
    for (Slot& s : c->slots) {
        if (s.constant >= 0 && !read[s.constant]) s.constant = -1;
    }
    c->plan_views = 0;
    auto structure = std::make_shared<Plan>();
    structure->tensors = c->plan->tensors;
    structure->layers = c->plan->layers;
    structure->inputs = c->plan->inputs;
    structure->outputs = c->plan->outputs;
    c->plan = std::move(structure);
}

class DnnlInstance : public EngineInstance {
 public:
    // A trial instance (timed at load) leaves no layer slices in a trace.
    explicit DnnlInstance(std::shared_ptr<const Compiled> c, bool trial = false)
        : c_(std::move(c)), stream_(c_->engine), trial_(trial) {
        arena_.reset(static_cast<uint8_t*>(
            std::aligned_alloc(kAlign, std::max(kAlign, Aligned(c_->arena)))));
        scratch_.reset(static_cast<uint8_t*>(
            std::aligned_alloc(kAlign, std::max(kAlign, Aligned(c_->scratchpad)))));
        if (!arena_ || !scratch_) throw std::bad_alloc();
        scratchpad_ = memory(memory::desc({static_cast<memory::dim>(c_->scratchpad + 1)},
                                          memory::data_type::u8, Tag::a),
                             c_->engine, scratch_.get());
        for (const Slot& s : c_->slots) {
            if (s.constant >= 0) {
                // A slot may view a constant's bytes under another descriptor (a transpose's
                // permuted strides, statistics as [C]).
                const memory& constant = c_->constants[s.constant];
                memories_.push_back(constant.get_desc() == s.desc
                                        ? constant
                                        : memory(s.desc, c_->engine, constant.get_data_handle()));
            } else if (s.storage >= 0) {
                memories_.emplace_back(s.desc, c_->engine,
                                       arena_.get() + c_->storages[s.storage].offset);
            } else {
                // A graph input (bound per run) or a tensor nothing reads.
                memories_.emplace_back(s.desc, c_->engine, static_cast<void*>(nullptr));
            }
        }
        for (const Step& step : c_->steps) {
            std::unordered_map<int, memory> args;
            for (const auto& [arg, slot] : step.args)
                args[arg] = slot == kScratchpadSlot ? scratchpad_ : memories_[slot];
            args_.push_back(std::move(args));
        }
        if (c_->head) {
            head_ = std::make_unique<DnnlInstance>(c_->head, trial);
            // Each of the head's outputs lives in its slot here, one image after another; so
            // does every head slot sharing its storage (a sum's operand the output took over).
            const Compiled& head = *c_->head;
            for (uint32_t t : head.plan->outputs) {
                const int storage = head.slots[t].storage;
                for (size_t s = 0; s < head.slots.size(); ++s) {
                    if (head.slots[s].storage == storage) {
                        redirects_.push_back(Redirect{static_cast<int>(s), static_cast<int>(t),
                                                      head.slots[t].desc.get_size()});
                    }
                }
            }
        }
    }

    bool Run(const std::vector<TensorView>& inputs, std::vector<TensorView>* outputs,
             std::string* error) override {
        const Plan& plan = *c_->plan;
        if (inputs.size() != plan.inputs.size()) {
            *error = "the compiled model takes " + std::to_string(plan.inputs.size()) +
                     " inputs, got " + std::to_string(inputs.size());
            return false;
        }
        for (size_t i = 0; i < inputs.size(); ++i) {
            const PlanTensor& t = plan.tensors[plan.inputs[i]];
            if (inputs[i].type != ACL_FLOAT || inputs[i].dims != t.dims ||
                inputs[i].bytes != static_cast<size_t>(PlanElementCount(t.dims)) * sizeof(float)) {
                *error = "input " + std::to_string(i) + " ('" + t.name +
                         "') must be float32 of the compiled shape";
                return false;
            }
        }
        for (size_t s = 0; s < c_->slots.size(); ++s) {
            int k = c_->slots[s].input;
            if (k >= 0) memories_[s].set_data_handle(const_cast<void*>(inputs[k].data));
        }
        // The threads are borrowed from the device's, shared with every stream's model runs and
        // BLAS products (backend/cpu/compute_gate.h), for as long as the primitives run.
        cpu::ComputeLease lease(c_->threads);
        OmpThreads team(lease.threads());
        // Traced: each layer (with the reorders feeding it) becomes a slice inside the model's
        // task. oneDNN's CPU stream runs each primitive before execute() returns.
        const bool traced = !trial_ && trace::On();
        int64_t slice_start = traced ? cpu::Ticks() : 0;
        try {
            if (head_) {
                head_->Observe(observer_);
                const int64_t n = c_->head_images;
                for (int64_t image = 0; image < n; ++image) {
                    head_->BindImage(inputs, image, n, memories_, redirects_);
                    head_->RunSteps(traced, &slice_start);
                }
            }
            RunSteps(traced, &slice_start);
        } catch (const dnnl::error& e) {
            *error = std::string("oneDNN failed: ") + e.what();
            return false;
        }
        outputs->resize(plan.outputs.size());
        for (size_t o = 0; o < plan.outputs.size(); ++o) {
            const PlanTensor& t = plan.tensors[plan.outputs[o]];
            TensorView& view = (*outputs)[o];
            view.type = ACL_FLOAT;
            view.dims = t.dims;
            view.data = memories_[c_->outputs[o]].get_data_handle();
            view.bytes = static_cast<size_t>(PlanElementCount(t.dims)) * sizeof(float);
        }
        return true;
    }

 private:
    struct Free {
        void operator()(uint8_t* p) const { std::free(p); }
    };
    std::shared_ptr<const Compiled> c_;
    dnnl::stream stream_;
    bool trial_ = false;
    std::unique_ptr<uint8_t, Free> arena_;
    std::unique_ptr<uint8_t, Free> scratch_;
    memory scratchpad_;
    std::vector<memory> memories_;
    std::vector<std::unordered_map<int, memory>> args_;
    // Image by image: the head's instance, and where its outputs go (Compiled::head).
    struct Redirect {
        int head_slot;  // a slot of the head's
        int slot;       // the slot here that holds the images
        size_t bytes;   // per image
    };
    std::unique_ptr<DnnlInstance> head_;
    std::vector<Redirect> redirects_;
    // "<kind> <ONNX node or #index>" per layer, after "outputs" (index 0, for layer -1): interned,
    // so traces written after the model is unloaded can still name them.
    std::vector<const char*> slice_names_;
    std::vector<std::vector<float>> plain_;  // PlainView's copies, for one observer call

    // Runs the steps; traced, each layer (with the reorders feeding it) becomes a slice that
    // starts at *slice_start, which then moves to its end.
    void RunSteps(bool traced, int64_t* slice_start) {
        if (traced && slice_names_.empty()) NameSlices();
        RunObserver* const observer = trial_ ? nullptr : observer_;
        int64_t layer_start = 0;
        for (size_t i = 0; i < c_->steps.size(); ++i) {
            const Step& step = c_->steps[i];
            const bool observed = observer != nullptr && step.layer >= 0;
            if (observed && (i == 0 || c_->steps[i - 1].layer != step.layer)) {
                if (observer->WantsTensors(static_cast<size_t>(step.layer))) {
                    stream_.wait();
                    std::vector<TensorView> views;
                    for (uint32_t t : c_->plan->layers[static_cast<size_t>(step.layer)].inputs) {
                        if (c_->plan->tensors[t].constant >= 0 || c_->slots[t].constant >= 0) {
                            continue;  // weights live in the primitives' formats
                        }
                        views.push_back(PlainView(t));
                    }
                    observer->LayerInputs(static_cast<size_t>(step.layer), views);
                    plain_.clear();
                }
                layer_start = cpu::NowNs();
            }
            if (step.kernel) {
                stream_.wait();  // its inputs are written
                step.kernel(args_[i]);
            } else {
                step.primitive.execute(stream_, args_[i]);
            }
            const bool last = i + 1 == c_->steps.size() || c_->steps[i + 1].layer != step.layer;
            if (observed && last) {
                stream_.wait();
                const int64_t end = cpu::NowNs();
                const auto layer = static_cast<size_t>(step.layer);
                std::vector<TensorView> views;
                if (observer->WantsTensors(layer)) {
                    views.push_back(PlainView(c_->plan->layers[layer].output));
                }
                observer->LayerDone(layer, layer_start, end, views);
                plain_.clear();
            }
            if (traced && last) {
                const int64_t now = cpu::Ticks();
                trace::NoteSlice(slice_names_[step.layer + 1], *slice_start, now);
                *slice_start = now;
            }
        }
        stream_.wait();
    }

    // Plan tensor `tensor` as it is now, row-major: its own bytes where its slot is plain, a
    // reordered copy (kept in plain_ until the observer returns) where not.
    TensorView PlainView(uint32_t tensor) {
        const auto& dims = c_->plan->tensors[tensor].dims;
        TensorView view;
        view.type = ACL_FLOAT;
        view.dims = dims;
        view.bytes = static_cast<size_t>(PlanElementCount(dims)) * sizeof(float);
        const memory& m = memories_[tensor];
        if (m.get_data_handle() == nullptr || m.get_desc().dims() != Plain(dims).dims()) {
            view.bytes = 0;  // not held in a form it can be read back from
            return view;
        }
        if (m.get_desc() == Plain(dims)) {
            view.data = m.get_data_handle();
            return view;
        }
        plain_.emplace_back(view.bytes / sizeof(float));
        memory to(Plain(dims), c_->engine, plain_.back().data());
        dnnl::reorder(m, to).execute(stream_, const_cast<memory&>(m), to);
        stream_.wait();
        view.data = plain_.back().data();
        return view;
    }

    // A head instance: points its inputs and outputs at image `image` of the whole run's (the
    // graph inputs, batch `n`; `into`, the memories of the instance that owns this one).
    void BindImage(const std::vector<TensorView>& inputs, int64_t image, int64_t n,
                   const std::vector<memory>& into, const std::vector<Redirect>& redirects) {
        for (size_t s = 0; s < c_->slots.size(); ++s) {
            const int k = c_->slots[s].input;
            if (k < 0) continue;
            const auto* data = static_cast<const uint8_t*>(inputs[static_cast<size_t>(k)].data);
            const size_t bytes = inputs[static_cast<size_t>(k)].bytes / static_cast<size_t>(n);
            memories_[s].set_data_handle(const_cast<uint8_t*>(data) + image * bytes);
        }
        for (const Redirect& r : redirects) {
            auto* base = static_cast<uint8_t*>(into[static_cast<size_t>(r.slot)].get_data_handle());
            memories_[static_cast<size_t>(r.head_slot)].set_data_handle(base + image * r.bytes);
        }
    }

    void NameSlices() {
        slice_names_.push_back(trace::Intern("outputs"));
        for (size_t i = 0; i < c_->plan->layers.size(); ++i) {
            const PlanLayer& layer = c_->plan->layers[i];
            std::string name = std::string(LayerKindName(layer.kind)) + " " +
                               (layer.name.empty() ? "#" + std::to_string(i) : layer.name);
            if (!c_->kernels[i].empty()) name += " [" + c_->kernels[i] + "]";
            slice_names_.push_back(trace::Intern(name.c_str()));
        }
    }
};

class DnnlEngine : public ModelEngine {
 public:
    explicit DnnlEngine(std::shared_ptr<const Compiled> c) : c_(std::move(c)) {}
    std::unique_ptr<EngineInstance> CreateInstance(std::string* error) override {
        try {
            return std::make_unique<DnnlInstance>(c_);
        } catch (const std::bad_alloc&) {
            *error = "cannot allocate the compiled model's activation memory";
        } catch (const dnnl::error& e) {
            *error = std::string("oneDNN cannot bind the compiled model: ") + e.what();
        }
        return nullptr;
    }
    const char* name() const override { return "onednn"; }
    size_t weight_bytes() const override {
        return c_->weight_bytes + (c_->head ? c_->head->weight_bytes : 0);
    }
    std::string kernel(size_t layer) const override {
        return layer < c_->kernels.size() ? c_->kernels[layer] : std::string();
    }
    int threads() const override { return c_->threads; }
    size_t layers_by_image() const override { return c_->head_layers; }
    bool built_from_choices() const override { return c_->replayed; }
    size_t layer_count() const override { return c_->plan->layers.size(); }
    std::string layer_type(size_t layer) const override {
        // The plan's kind ("conv", "binary"), capitalised as operator types are.
        std::string type = LayerKindName(c_->plan->layers[layer].kind);
        if (!type.empty()) type[0] = static_cast<char>(std::toupper(type[0]));
        return type;
    }
    std::string layer_name(size_t layer) const override {
        const std::string& name = c_->plan->layers[layer].name;
        return name.empty() ? "layer" + std::to_string(layer) : name;
    }

 private:
    std::shared_ptr<const Compiled> c_;
};

}  // namespace

namespace {

// Builds the plan's primitives into a new Compiled; throws what oneDNN throws.
std::shared_ptr<Compiled> Build(const std::shared_ptr<const Plan>& plan, int threads, bool nhwc,
                                const std::vector<int8_t>* replay = nullptr) {
    auto c = std::make_shared<Compiled>();
    c->plan = plan;
    c->threads = threads;
    c->nhwc = nhwc;
    c->replay = replay;
    Builder(c.get()).Build();
    c->replay = nullptr;
    return c;
}

// Whether the plan has 2-D convolutions that may use blocked formats and none of them runs
// Winograd, which nhwc would lose.
bool LayoutWorthMeasuring(const Compiled& c) {
    bool blocked = false;
    for (size_t i = 0; i < c.plan->layers.size(); ++i) {
        const PlanLayer& layer = c.plan->layers[i];
        if (layer.kind != LayerKind::kConv || c.plan->tensors[layer.inputs[0]].dims.size() != 4)
            continue;
        if (c.kernels[i].find("wino") != std::string::npos) return false;
        blocked = blocked || (layer.ints.back() & 1) != 0;  // may use blocked formats
    }
    return blocked;
}

// About how many multiply-adds a layer does: a convolution's or product's per output element,
// one per output element of every other layer.
int64_t LayerWork(const Plan& plan, const PlanLayer& layer) {
    const int64_t out = PlanElementCount(plan.tensors[layer.output].dims);
    int64_t per = 1;
    if (layer.kind == LayerKind::kConv || layer.kind == LayerKind::kDeconv) {
        const auto& w = plan.tensors[layer.inputs[1]].dims;  // [oc or ic, ..., k...]
        per = std::max<int64_t>(1, PlanElementCount(w) / std::max<int64_t>(1, w[0]));
    } else if (layer.kind == LayerKind::kMatMul) {
        per = std::max<int64_t>(1, plan.tensors[layer.inputs[0]].dims.back());
    }
    return out * per;
}

// About how many multiply-adds a run of the plan does.
int64_t PlanWork(const Plan& plan) {
    int64_t work = 0;
    for (const PlanLayer& layer : plan.layers)
        work += LayerWork(plan, layer);
    return work;
}

// Whether `a` runs the model faster than `b` on zeroed inputs (RunsFaster), each timing
// `repeat` runs in a row (short models: one run is too short to time).
bool ModelRunsFaster(const std::shared_ptr<const Compiled>& a,
                     const std::shared_ptr<const Compiled>& b, int repeat = 1) {
    std::vector<std::vector<float>> data;
    std::vector<TensorView> inputs;
    for (uint32_t id : a->plan->inputs) {
        const auto& dims = a->plan->tensors[id].dims;
        data.emplace_back(static_cast<size_t>(PlanElementCount(dims)), 0.0f);
        inputs.push_back(TensorView{ACL_FLOAT, dims, data.back().data(), data.back().size() * 4});
    }
    DnnlInstance ia(a, true), ib(b, true);
    std::vector<TensorView> outputs;
    std::string error;
    auto run = [&](DnnlInstance& instance) {
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < repeat; ++i) {
            if (!instance.Run(inputs, &outputs, &error)) return kFailedRun;
        }
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    return RunsFaster([&] { return run(ia); }, [&] { return run(ib); });
}

// ---- Image by image -------------------------------------------------------------------------
// A batch's first layers work on large activations with small weights (ResNet-50's stem and
// first stage: 3.2 MB per image, at most 0.25 MB of weights). Run for the whole batch, each
// layer streams the batch's activations through memory; run for one image at a time, they
// stay in cache, and only the small weights are read again per image. The layers after them
// run for the whole batch, where their larger weights are read once.

// The batch of the plan's first layer's input: what the head's images are.
int64_t PlanBatch(const Plan& plan) {
    if (plan.layers.empty() || plan.layers[0].inputs.empty()) return 0;
    const PlanTensor& x = plan.tensors[plan.layers[0].inputs[0]];
    return x.constant < 0 && !x.dims.empty() ? x.dims[0] : 0;
}

// The multiply-adds per image and layer, on average, from which layers are worth running image
// by image: each layer then opens an OpenMP region per image (microseconds each), which light
// layers do not earn back (MobileNetV2's, 4 - 20 M per image: 3 - 8% slower image by image at
// batch 8 on a Zen 5; ResNet-50's stem and first stage, 60 M: 2 - 5% faster).
constexpr int64_t kImageWorkWorthIt = int64_t{1} << 25;

// How many of the plan's first layers to run image by image: while each works on its images
// alone (a convolution, pooling, activation, normalisation or elementwise operation whose
// activations all carry the batch) and reads no more bytes of weights than one image of its
// output has. 0 when that is none or no convolution, the batch is 1, or those layers do fewer
// than `min_work` multiply-adds per image on average (LayerWork's count).
size_t HeadLayers(const Plan& plan, int64_t min_work) {
    const int64_t n = PlanBatch(plan);
    if (n <= 1) return 0;
    size_t count = 0;
    bool conv = false;
    int64_t work = 0;  // per image
    for (; count < plan.layers.size(); ++count) {
        const PlanLayer& layer = plan.layers[count];
        const LayerKind kind = layer.kind;
        if (kind != LayerKind::kConv && kind != LayerKind::kPool && kind != LayerKind::kEltwise &&
            kind != LayerKind::kBatchNorm && kind != LayerKind::kBinary) {
            break;
        }
        std::vector<uint32_t> touched = layer.inputs;
        touched.push_back(layer.output);
        for (const PostOp& op : layer.post_ops) {
            if (op.kind == PostOp::kSum) touched.push_back(op.tensor);
        }
        int64_t weights = 0;
        bool per_image = true;
        for (uint32_t id : touched) {
            const PlanTensor& t = plan.tensors[id];
            if (t.constant >= 0) {
                // A binary operand broadcast over the batch, or a layer's parameters.
                per_image =
                    per_image && (kind != LayerKind::kBinary || t.dims.empty() || t.dims[0] == 1);
                weights += PlanElementCount(t.dims);
            } else {
                per_image = per_image && !t.dims.empty() && t.dims[0] == n;
            }
        }
        const int64_t image = PlanElementCount(plan.tensors[layer.output].dims) / n;
        if (!per_image || weights > image) break;
        conv = conv || kind == LayerKind::kConv;
        work += LayerWork(plan, layer) / n;
    }
    return conv && work >= min_work * static_cast<int64_t>(count) ? count : 0;
}

// Plan layers [0, count) for one image: activations get batch 1, the constants those layers
// read come along, and the tensors later layers (or the caller) read from them are outputs.
std::shared_ptr<const Plan> HeadPlan(const Plan& plan, size_t count) {
    auto head = std::make_shared<Plan>();
    head->tensors = plan.tensors;
    for (PlanTensor& t : head->tensors) {
        if (t.constant < 0 && !t.dims.empty()) t.dims[0] = 1;
        t.constant = -1;
    }
    head->layers.assign(plan.layers.begin(), plan.layers.begin() + static_cast<long>(count));
    for (const PlanLayer& layer : head->layers) {
        for (uint32_t id : layer.inputs) {
            const PlanTensor& t = plan.tensors[id];
            if (t.constant < 0 || head->tensors[id].constant >= 0) continue;
            head->tensors[id].constant = static_cast<int32_t>(head->constants.size());
            head->constants.push_back(plan.constants[static_cast<size_t>(t.constant)]);
        }
    }
    head->inputs = plan.inputs;
    for (size_t id = 0; id < plan.tensors.size(); ++id) {
        const PlanTensor& t = plan.tensors[id];
        if (t.first >= 0 && static_cast<size_t>(t.first) < count &&
            static_cast<size_t>(t.last) >= count) {
            head->outputs.push_back(static_cast<uint32_t>(id));
        }
    }
    ComputeLifetimes(head.get());
    return head;
}

// Whether `one` (batch 1) lays out an image as `all` (batch n) lays out each of its images,
// and `all` keeps its images one after another.
bool SameImageLayout(const memory::desc& one, const memory::desc& all, int64_t n) {
    const dnnl_memory_desc_t& a = one.data;
    const dnnl_memory_desc_t& b = all.data;
    if (a.format_kind != dnnl_blocked || b.format_kind != dnnl_blocked || a.ndims != b.ndims ||
        a.ndims < 1 || a.data_type != b.data_type || a.extra.flags != 0 || b.extra.flags != 0 ||
        a.offset0 != 0 || b.offset0 != 0 || a.dims[0] != 1 || a.padded_dims[0] != 1 ||
        b.dims[0] != n || b.padded_dims[0] != n) {
        return false;
    }
    const auto& x = a.format_desc.blocking;
    const auto& y = b.format_desc.blocking;
    if (x.inner_nblks != y.inner_nblks) return false;
    for (int i = 0; i < x.inner_nblks; ++i) {
        if (x.inner_blks[i] != y.inner_blks[i] || x.inner_idxs[i] != y.inner_idxs[i] ||
            x.inner_idxs[i] == 0) {
            return false;
        }
    }
    for (int d = 1; d < a.ndims; ++d) {
        if (a.dims[d] != b.dims[d] || a.padded_dims[d] != b.padded_dims[d] ||
            a.padded_offsets[d] != b.padded_offsets[d] || x.strides[d] != y.strides[d]) {
            return false;
        }
    }
    return static_cast<size_t>(y.strides[0]) * sizeof(float) == one.get_size();
}

// `c` (built, its plan data still held) with its first `count` layers run image by image; null
// when they cannot be built for one image or their outputs would not land where the rest of
// `c` reads them (another layout for one image than for the batch).
std::shared_ptr<Compiled> ImageByImage(const Compiled& c, size_t count,
                                       const std::vector<int8_t>* replay = nullptr) {
    const Plan& plan = *c.plan;
    const int64_t n = PlanBatch(plan);
    auto head = std::make_shared<Compiled>();
    head->plan = HeadPlan(plan, count);
    head->threads = c.threads;
    head->nhwc = c.nhwc;
    head->keep_output_formats = true;
    head->replay = replay;
    try {
        OmpThreads team(c.threads);
        Builder(head.get()).Build();
    } catch (const dnnl::error&) {
        return nullptr;  // a layer oneDNN cannot build for one image: the batch runs whole
    }
    for (uint32_t t : head->plan->outputs) {
        const Slot& one = head->slots[t];
        const Slot& all = c.slots[t];
        if (one.storage < 0 || all.storage < 0 || head->storages[one.storage].parent >= 0 ||
            head->storages[one.storage].is_parent || !SameImageLayout(one.desc, all.desc, n)) {
            return nullptr;
        }
    }
    auto split = std::make_shared<Compiled>(c);
    std::erase_if(split->steps, [&](const Step& step) {
        return step.layer >= 0 && static_cast<size_t>(step.layer) < count;
    });
    // What only the head's layers used takes no room here now.
    for (Storage& s : split->storages) {
        if (s.last < static_cast<int>(count) && !s.is_parent) s.size = 0;
    }
    PlaceStorages(split.get());
    for (size_t l = 0; l < count; ++l)
        split->kernels[l] = head->kernels[l];
    ReleasePlanData(head.get());
    split->head = std::move(head);
    split->head_layers = count;
    split->head_images = n;
    return split;
}

// nChw16c is AVX-512's blocking: without AVX-512, oneDNN has no jit convolution or pooling for
// it and runs its reference kernels, seconds per layer (a ResNet-10 took over 3 minutes to
// load, timing the blocked layout against nhwc, on an AVX2 machine). There the engine builds
// nhwc without measuring the other.
bool BlockedLayoutHasKernels() {
    static const bool avx512 = __builtin_cpu_supports("avx512f");
    return avx512;
}

}  // namespace

std::unique_ptr<ModelEngine> CreateDnnlEngine(std::shared_ptr<const Plan> plan, int threads,
                                              std::string* error, ConvLayout layout,
                                              ByImage by_image, const EngineChoices* given,
                                              EngineChoices* taken) {
    // A graph (hostile or mistaken) may declare activations no machine holds: refuse it with
    // the size, before anything (a timing run below, an instance) allocates them.
    auto too_large = [](const Compiled& c, std::string* why) {
        constexpr size_t kMaxActivationBytes = size_t{8} << 30;
        if (c.arena <= kMaxActivationBytes && c.scratchpad <= kMaxActivationBytes) return false;
        *why = "the compiled model needs " + std::to_string(c.arena >> 20) +
               " MiB of activation memory per execution (at most " +
               std::to_string(kMaxActivationBytes >> 20) + " MiB)";
        return true;
    };
    std::shared_ptr<Compiled> c;
    threads = std::clamp(threads, 1, cpu::ComputeGate::Get().capacity());
    // Choices timed on this machine for these threads, for this plan: built once as they say.
    const bool replay = layout == ConvLayout::kMeasure && given != nullptr &&
                        given->machine == MachineSignature(threads) && given->threads >= 1 &&
                        given->threads <= threads && given->convs.size() == plan->layers.size() &&
                        given->head_layers < plan->layers.size() &&
                        (given->head_layers == 0 || given->head_convs.size() == given->head_layers);
    try {
        // Primitives are built for the thread count they will run with.
        OmpThreads team(replay ? given->threads : threads);
        if (replay) {
            c = Build(plan, given->threads, given->nhwc, &given->convs);
            if (too_large(*c, error)) return nullptr;
            if (given->head_layers > 0 && by_image == ByImage::kMeasure) {
                auto split = ImageByImage(*c, given->head_layers, &given->head_convs);
                std::string why;
                if (split && !too_large(*split, &why)) c = std::move(split);
            }
            c->replayed = true;
            if (taken) *taken = *given;
            ReleasePlanData(c.get());
            return std::make_unique<DnnlEngine>(std::move(c));
        }
        // A layout asked for explicitly (the engine's tests) is built as asked.
        const bool nhwc_only = layout == ConvLayout::kMeasure && !BlockedLayoutHasKernels();
        c = Build(plan, threads, layout == ConvLayout::kNhwc || nhwc_only);
        if (too_large(*c, error)) return nullptr;
        if (layout == ConvLayout::kMeasure && !nhwc_only && LayoutWorthMeasuring(*c)) {
            auto nhwc = Build(plan, threads, true);
            std::string why;
            if (!too_large(*nhwc, &why) && ModelRunsFaster(nhwc, c)) c = std::move(nhwc);
        }
        const int64_t work = PlanWork(*plan);
        if (layout == ConvLayout::kMeasure && threads > 1 && work <= kTimedThreadsWork) {
            std::shared_ptr<Compiled> single;
            {
                OmpThreads alone(1);
                single = Build(plan, 1, c->nhwc);
            }
            if (work <= kOneThreadWork || ModelRunsFaster(single, c, 10)) c = std::move(single);
        }
        const bool measure = by_image == ByImage::kMeasure && layout == ConvLayout::kMeasure;
        if (by_image == ByImage::kAlways || measure) {
            const size_t head = HeadLayers(*plan, measure ? kImageWorkWorthIt : 0);
            std::shared_ptr<Compiled> split = head > 0 ? ImageByImage(*c, head) : nullptr;
            std::string why;
            if (split && !too_large(*split, &why) &&
                (by_image == ByImage::kAlways || ModelRunsFaster(split, c))) {
                c = std::move(split);
            }
        }
        if (taken) {
            taken->machine = MachineSignature(threads);
            taken->nhwc = c->nhwc;
            taken->threads = c->threads;
            taken->head_layers = c->head_layers;
            taken->convs = c->conv_choices;
            taken->head_convs = c->head ? c->head->conv_choices : std::vector<int8_t>{};
        }
        ReleasePlanData(c.get());
    } catch (const dnnl::error& e) {
        *error = std::string("oneDNN cannot build the plan: ") + e.what();
        return nullptr;
    } catch (const std::exception& e) {
        *error = std::string("oneDNN cannot build the plan: ") + e.what();
        return nullptr;
    }
    return std::make_unique<DnnlEngine>(std::move(c));
}

}  // namespace openacl::model
