// A plan: what the model compiler (model/compiler/) makes of an ONNX graph and the compiled
// engine (dnnl_engine.cpp) runs. Every tensor is float32 with a static shape; a layer is one
// oneDNN primitive (or a view) with its attributes and fused post-ops; constants carry their
// data. The plan says nothing about memory layouts or addresses: those depend on the
// primitives oneDNN picks for this machine, so the engine decides them at load, from the
// lifetimes recorded here. Plans serialise to a versioned binary form (docs/OM_FORMAT.md) whose
// parser validates every count, id and size before anything runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace openacl::model {

enum class LayerKind : uint32_t {
    kConv = 1,         // in: x, w[, b]; ints: group, strides[r], pads_begin[r], pads_end[r],
                       // dilations[r] (r = spatial rank), winograd (0/1)
    kPool = 2,         // in: x; ints: algorithm (PoolAlg), kernel[r], strides[r], pads_b[r],
                       // pads_e[r]
    kBinary = 3,       // in: a, b (b broadcasts to a; same rank); ints: BinaryAlg
    kEltwise = 4,      // in: x; ints: EltwiseAlg; floats: alpha, beta
    kMatMul = 5,       // in: a, b[, bias] (same rank, b/bias broadcast over batch dims)
    kConcat = 6,       // in: x...; ints: axis
    kSoftmax = 7,      // in: x; ints: axis[, log (1: LogSoftmax)]
    kView = 8,         // in: x; output has x's elements in row-major order under a new shape
    kTranspose = 9,    // in: x; ints: perm[rank]
    kResize = 10,      // in: x; ints: ResizeAlg (scales come from the shapes)
    kBatchNorm = 11,   // in: x, scale, shift, mean, var; floats: epsilon
    kReduceMean = 12,  // in: x; output shape keeps reduced dims as 1
    kSlice = 13,       // in: x; ints: offsets[rank] (the output's dims are the extents)
    kDeconv = 14,      // in: x, w[, b] (w in ONNX ConvTranspose order [ic, oc/group, k...]);
                       // ints: group, strides[r], pads_begin[r], pads_end[r], dilations[r].
                       // pads_end is ONNX's end pad less output_padding: negative (above
                       // -stride) when the output reaches past the last input's contribution
    kPad = 15,         // in: x; ints: PadMode, pads_begin[rank], pads_end[rank] (negative
                       // crops, constant mode only); floats: value (constant mode)
    kLayerNorm = 16,   // in: x, scale[, shift] (one value per element of x's last dim), rank
                       // 2 to 5, normalised over the last dim; floats: epsilon
    kReduce = 17,      // in: x; ints: ReduceAlg; output keeps the rank, reduced dims as 1
    kWhere = 18,       // in: condition, a, b (the output's rank, each dim the output's or 1):
                       // a where the condition is not 0, else b (ONNX's Where, and If)
};

enum class PoolAlg : int64_t { kMax = 0, kAvgIncludePad = 1, kAvgExcludePad = 2 };
// Comparisons give 1 or 0: a plan holds ONNX's bool tensors as floats of those values.
enum class BinaryAlg : int64_t {
    kAdd = 0,
    kSub = 1,
    kMul = 2,
    kDiv = 3,
    kMax = 4,
    kMin = 5,
    kEqual = 6,
    kNotEqual = 7,
    kGreater = 8,
    kGreaterEqual = 9,
    kLess = 10,
    kLessEqual = 11,
};
inline constexpr int64_t kBinaryAlgCount = 12;
enum class EltwiseAlg : int64_t {
    kRelu = 0,      // alpha: negative slope (LeakyRelu)
    kClip = 1,      // [alpha, beta]
    kLogistic = 2,  // Sigmoid
    kSwish = 3,     // x * sigmoid(alpha * x)
    kTanh = 4,
    kHardSigmoid = 5,  // max(0, min(1, alpha * x + beta))
    kHardSwish = 6,    // x * hardsigmoid(x) with alpha 1/6, beta 1/2
    kPow = 7,          // alpha * x^beta (LayerNormalization's InvStdDev)
    kSqrt = 8,
    kExp = 9,
    kLog = 10,
    kAbs = 11,
    kLinear = 12,    // alpha * x + beta
    kSoftPlus = 13,  // log(1 + e^x)
    kElu = 14,       // alpha: the negative side's scale
    kRound = 15,     // to nearest, half to even
    kGeluErf = 16,   // x/2 * (1 + erf(x / sqrt 2))
    kGeluTanh = 17,  // the tanh approximation
    kMish = 18,      // x * tanh(softplus(x))
    kErf = 19,
};
inline constexpr int64_t kEltwiseAlgCount = 20;
// Reductions over the dims the output keeps as 1. kL1: sum of |x|; kL2: sqrt of the sum of
// squares; kSumSquare: the sum of squares.
enum class ReduceAlg : int64_t {
    kMax = 0,
    kMin = 1,
    kSum = 2,
    kMean = 3,
    kProd = 4,
    kL1 = 5,
    kL2 = 6,
    kSumSquare = 7,
};
inline constexpr int64_t kReduceAlgCount = 8;
enum class ResizeAlg : int64_t { kNearest = 0, kLinear = 1 };
enum class PadMode : int64_t { kConstant = 0, kReflect = 1, kEdge = 2 };

// An operation fused into a layer, applied to its result in order.
struct PostOp {
    enum Kind : uint32_t { kEltwise = 1, kSum = 2 };
    uint32_t kind = kEltwise;
    int64_t alg = 0;  // EltwiseAlg for kEltwise
    float alpha = 0.0f;
    float beta = 0.0f;
    uint32_t tensor = 0;  // kSum: the tensor added to the result (same shape as the output)
};

struct PlanTensor {
    std::string name;
    std::vector<int64_t> dims;  // static, every dim >= 1 (a scalar is rank 0)
    int32_t constant = -1;      // index into Plan::constants, or -1 for an activation
    // Lifetime in layer indices: produced by layer `first` (-1: a graph input or constant),
    // last read by layer `last` (layer count: a graph output, alive to the end).
    int32_t first = -1;
    int32_t last = -1;
};

struct PlanLayer {
    LayerKind kind = LayerKind::kEltwise;
    std::string name;  // the ONNX node it came from (traces, messages)
    std::vector<uint32_t> inputs;
    uint32_t output = 0;
    std::vector<int64_t> ints;
    std::vector<float> floats;
    std::vector<PostOp> post_ops;
};

struct Plan {
    std::vector<PlanTensor> tensors;
    std::vector<std::vector<float>> constants;
    std::vector<PlanLayer> layers;  // in execution order
    std::vector<uint32_t> inputs;   // graph inputs, in graph order
    std::vector<uint32_t> outputs;  // graph outputs, in graph order
};

// Kinds 14 to 18 (deconv, pad, layer norm, reduce, where), eltwise algorithms 8 to 19,
// LogSoftmax and binary algorithms 4 to 11 were added without changing the encoding, so the
// version stays 1: older plans read as before, and an older build refuses a plan that uses them
// as having a layer of unknown kind or an unknown algorithm.
inline constexpr uint32_t kPlanFormatVersion = 1;

// Element count of dims (1 for a scalar).
int64_t PlanElementCount(const std::vector<int64_t>& dims);

// Checks what the engine relies on: ids in range, shapes positive and of sane size, constants
// the size of their tensors, every layer's inputs defined before it, attribute counts and
// values right for its kind, lifetimes consistent. False with *error naming the first problem.
bool ValidatePlan(const Plan& plan, std::string* error);

// The plan's bytes (docs/OM_FORMAT.md, "Plan section").
std::string SerializePlan(const Plan& plan);

// Parses and validates plan bytes; trusts no length. False with *error when they are not a
// valid plan of a version this build reads.
bool ParsePlan(const void* data, size_t size, Plan* out, std::string* error);

// Recomputes every tensor's lifetime from the layers (the compiler's last step).
void ComputeLifetimes(Plan* plan);

const char* LayerKindName(LayerKind kind);

}  // namespace openacl::model
