#include "model/plan.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <set>

namespace openacl::model {
namespace {

constexpr char kMagic[4] = {'O', 'A', 'P', 'L'};
constexpr int64_t kMaxElements = int64_t{1} << 32;  // per tensor: 16 GiB of float32
constexpr size_t kMaxRank = 8;

// Little-endian writer.
class Writer {
 public:
    void U32(uint32_t v) {
        for (int i = 0; i < 4; ++i)
            out_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
    }
    void I64(int64_t v) {
        uint64_t u = static_cast<uint64_t>(v);
        for (int i = 0; i < 8; ++i)
            out_.push_back(static_cast<char>((u >> (8 * i)) & 0xff));
    }
    void F32(float v) {
        uint32_t u;
        std::memcpy(&u, &v, 4);
        U32(u);
    }
    void Str(const std::string& s) {
        U32(static_cast<uint32_t>(s.size()));
        out_ += s;
    }
    void Raw(const void* data, size_t n) { out_.append(static_cast<const char*>(data), n); }
    std::string Take() { return std::move(out_); }

 private:
    std::string out_;
};

// Bounds-checked reader: every read says whether the bytes were there.
class Reader {
 public:
    Reader(const void* data, size_t size) : p_(static_cast<const uint8_t*>(data)), left_(size) {}
    bool U32(uint32_t* v) {
        if (left_ < 4) return false;
        *v = 0;
        for (int i = 0; i < 4; ++i)
            *v |= static_cast<uint32_t>(p_[i]) << (8 * i);
        Skip(4);
        return true;
    }
    bool I64(int64_t* v) {
        if (left_ < 8) return false;
        uint64_t u = 0;
        for (int i = 0; i < 8; ++i)
            u |= static_cast<uint64_t>(p_[i]) << (8 * i);
        *v = static_cast<int64_t>(u);
        Skip(8);
        return true;
    }
    bool F32(float* v) {
        uint32_t u;
        if (!U32(&u)) return false;
        std::memcpy(v, &u, 4);
        return true;
    }
    // A count of items at least `item_bytes` each must fit in what is left.
    bool Count(uint32_t* n, size_t item_bytes) {
        if (!U32(n)) return false;
        return item_bytes == 0 || *n <= left_ / item_bytes;
    }
    bool Str(std::string* s) {
        uint32_t n;
        if (!Count(&n, 1)) return false;
        s->assign(reinterpret_cast<const char*>(p_), n);
        Skip(n);
        return true;
    }
    bool Raw(void* dst, size_t n) {
        if (left_ < n) return false;
        std::memcpy(dst, p_, n);
        Skip(n);
        return true;
    }
    size_t left() const { return left_; }

 private:
    void Skip(size_t n) {
        p_ += n;
        left_ -= n;
    }
    const uint8_t* p_;
    size_t left_;
};

bool Ints(Reader* r, std::vector<int64_t>* v) {
    uint32_t n;
    if (!r->Count(&n, 8)) return false;
    v->resize(n);
    for (auto& x : *v) {
        if (!r->I64(&x)) return false;
    }
    return true;
}

bool Ids(Reader* r, std::vector<uint32_t>* v) {
    uint32_t n;
    if (!r->Count(&n, 4)) return false;
    v->resize(n);
    for (auto& x : *v) {
        if (!r->U32(&x)) return false;
    }
    return true;
}

bool Fail(std::string* error, const std::string& text) {
    *error = text;
    return false;
}

std::string Dims(const std::vector<int64_t>& dims) {
    std::string s = "[";
    for (size_t i = 0; i < dims.size(); ++i)
        s += (i ? "," : "") + std::to_string(dims[i]);
    return s + "]";
}

// The attribute counts each kind needs, given its first input's rank.
bool CheckLayer(const Plan& plan, const PlanLayer& layer, size_t index, std::string* error) {
    const std::string where = "layer " + std::to_string(index) + " (" + LayerKindName(layer.kind) +
                              " '" + layer.name + "')";
    auto bad = [&](const std::string& what) { return Fail(error, where + ": " + what); };
    if (layer.inputs.empty()) return bad("has no inputs");
    const auto& x = plan.tensors[layer.inputs[0]].dims;
    const auto& y = plan.tensors[layer.output].dims;
    const size_t rank = x.size();
    const size_t n_in = layer.inputs.size();
    const size_t n_ints = layer.ints.size();
    switch (layer.kind) {
        case LayerKind::kConv: {
            if (n_in != 2 && n_in != 3) return bad("needs 2 or 3 inputs");
            if (rank < 3 || rank > 5) return bad("input rank must be 3 to 5");
            const size_t r = rank - 2;
            if (n_ints != 2 + 4 * r) return bad("has the wrong number of attributes");
            const auto& w = plan.tensors[layer.inputs[1]].dims;
            if (w.size() != rank || y.size() != rank) return bad("weight/output rank mismatch");
            const int64_t group = layer.ints[0];
            if (group < 1 || x[1] % group != 0 || w[0] % group != 0 || w[1] * group != x[1]) {
                return bad("group does not divide the channels");
            }
            if (y[0] != x[0] || y[1] != w[0]) return bad("output shape does not match weights");
            if (n_in == 3 && PlanElementCount(plan.tensors[layer.inputs[2]].dims) != w[0]) {
                return bad("bias size is not the output channel count");
            }
            for (size_t i = 0; i < r; ++i) {
                int64_t s = layer.ints[1 + i], pb = layer.ints[1 + r + i],
                        pe = layer.ints[1 + 2 * r + i], d = layer.ints[1 + 3 * r + i];
                if (s < 1 || d < 1 || pb < 0 || pe < 0 || s > 4096 || d > 4096 || pb > 65536 ||
                    pe > 65536) {
                    return bad("bad stride, pad or dilation");
                }
                int64_t span = (w[2 + i] - 1) * d + 1;
                int64_t out = (x[2 + i] + pb + pe - span) / s + 1;
                if (x[2 + i] + pb + pe < span || out != y[2 + i]) {
                    return bad("output spatial size does not match the attributes");
                }
            }
            break;
        }
        case LayerKind::kPool: {
            if (n_in != 1 || rank < 3 || rank > 5) return bad("needs one input of rank 3 to 5");
            const size_t r = rank - 2;
            if (n_ints != 1 + 4 * r) return bad("has the wrong number of attributes");
            if (layer.ints[0] < 0 || layer.ints[0] > 2) return bad("unknown pooling algorithm");
            if (y.size() != rank || y[0] != x[0] || y[1] != x[1]) return bad("output shape");
            for (size_t i = 0; i < r; ++i) {
                int64_t k = layer.ints[1 + i], s = layer.ints[1 + r + i],
                        pb = layer.ints[1 + 2 * r + i], pe = layer.ints[1 + 3 * r + i];
                if (k < 1 || s < 1 || pb < 0 || pe < 0 || k > 65536 || s > 65536 || pb >= k ||
                    pe >= k) {
                    return bad("bad kernel, stride or pad");
                }
                if (x[2 + i] + pb + pe < k || (x[2 + i] + pb + pe - k) / s + 1 != y[2 + i]) {
                    return bad("output spatial size does not match the attributes");
                }
            }
            break;
        }
        case LayerKind::kBinary: {
            if (n_in != 2 || n_ints != 1) return bad("needs 2 inputs and an algorithm");
            if (layer.ints[0] < 0 || layer.ints[0] >= kBinaryAlgCount) {
                return bad("unknown binary algorithm");
            }
            const auto& b = plan.tensors[layer.inputs[1]].dims;
            if (b.size() != rank || y != x) return bad("operands must have the output's rank");
            for (size_t i = 0; i < rank; ++i) {
                if (b[i] != x[i] && b[i] != 1) return bad("second operand does not broadcast");
            }
            break;
        }
        case LayerKind::kEltwise:
            if (n_in != 1 || n_ints != 1 || layer.floats.size() != 2 || y != x) {
                return bad("needs 1 input, an algorithm, alpha and beta, same shape out");
            }
            if (layer.ints[0] < 0 || layer.ints[0] >= kEltwiseAlgCount) {
                return bad("unknown eltwise algorithm");
            }
            break;
        case LayerKind::kMatMul: {
            if ((n_in != 2 && n_in != 3) || n_ints != 0) return bad("needs 2 or 3 inputs");
            const auto& b = plan.tensors[layer.inputs[1]].dims;
            if (rank < 2 || rank > 4 || b.size() != rank || y.size() != rank) {
                return bad("operands must be of the same rank, 2 to 4");
            }
            if (x[rank - 1] != b[rank - 2] || y[rank - 2] != x[rank - 2] ||
                y[rank - 1] != b[rank - 1]) {
                return bad("inner dimensions do not agree");
            }
            for (size_t i = 0; i + 2 < rank; ++i) {
                if (y[i] != x[i] || (b[i] != x[i] && b[i] != 1)) return bad("batch dims");
            }
            if (n_in == 3) {
                const auto& c = plan.tensors[layer.inputs[2]].dims;
                if (c.size() != rank) return bad("bias rank");
                for (size_t i = 0; i < rank; ++i) {
                    if (c[i] != y[i] && c[i] != 1) return bad("bias does not broadcast");
                }
            }
            break;
        }
        case LayerKind::kConcat: {
            if (n_ints != 1 || layer.ints[0] < 0 || static_cast<size_t>(layer.ints[0]) >= rank) {
                return bad("axis out of range");
            }
            const size_t axis = static_cast<size_t>(layer.ints[0]);
            int64_t sum = 0;
            for (uint32_t id : layer.inputs) {
                const auto& d = plan.tensors[id].dims;
                if (d.size() != rank) return bad("inputs differ in rank");
                for (size_t i = 0; i < rank; ++i) {
                    if (i != axis && d[i] != y[i]) return bad("inputs differ off the axis");
                }
                sum += d[axis];
            }
            if (y.size() != rank || sum != y[axis]) return bad("output size along the axis");
            break;
        }
        case LayerKind::kSoftmax:
            if (n_in != 1 || (n_ints != 1 && n_ints != 2) || y != x || layer.ints[0] < 0 ||
                static_cast<size_t>(layer.ints[0]) >= rank ||
                (n_ints == 2 && layer.ints[1] != 0 && layer.ints[1] != 1)) {
                return bad("needs 1 input, an axis in range, same shape out");
            }
            break;
        case LayerKind::kView:
            if (n_in != 1 || PlanElementCount(x) != PlanElementCount(y)) {
                return bad("a view must keep the element count");
            }
            break;
        case LayerKind::kTranspose: {
            if (n_in != 1 || n_ints != rank || y.size() != rank) return bad("perm size");
            std::set<int64_t> seen(layer.ints.begin(), layer.ints.end());
            for (size_t i = 0; i < rank; ++i) {
                int64_t p = layer.ints[i];
                if (p < 0 || static_cast<size_t>(p) >= rank || seen.size() != rank ||
                    y[i] != x[static_cast<size_t>(p)]) {
                    return bad("perm is not a permutation matching the shapes");
                }
            }
            break;
        }
        case LayerKind::kResize:
            if (n_in != 1 || n_ints != 1 || layer.ints[0] < 0 || layer.ints[0] > 1 || rank < 3 ||
                rank > 5 || y.size() != rank || y[0] != x[0] || y[1] != x[1]) {
                return bad("needs 1 input of rank 3 to 5 and a mode, batch/channels kept");
            }
            break;
        case LayerKind::kBatchNorm:
            if (n_in != 5 || layer.floats.size() != 1 || rank < 2 || y != x) {
                return bad("needs x, scale, shift, mean, var and epsilon");
            }
            for (size_t i = 1; i < 5; ++i) {
                if (PlanElementCount(plan.tensors[layer.inputs[i]].dims) != x[1]) {
                    return bad("statistics must have one value per channel");
                }
            }
            break;
        case LayerKind::kWhere:
            if (n_in != 3 || n_ints != 0) return bad("needs a condition and two inputs");
            for (uint32_t in : layer.inputs) {
                const auto& d = plan.tensors[in].dims;
                if (d.size() != y.size()) return bad("inputs must have the output's rank");
                for (size_t i = 0; i < d.size(); ++i) {
                    if (d[i] != y[i] && d[i] != 1) return bad("an input does not broadcast");
                }
            }
            break;
        case LayerKind::kReduce:
            if (n_ints != 1 || layer.ints[0] < 0 || layer.ints[0] >= kReduceAlgCount) {
                return bad("unknown reduction");
            }
            [[fallthrough]];
        case LayerKind::kReduceMean:
            if (n_in != 1 || y.size() != rank) return bad("output must keep the rank");
            for (size_t i = 0; i < rank; ++i) {
                if (y[i] != x[i] && y[i] != 1) return bad("output dims must be kept or 1");
            }
            break;
        case LayerKind::kSlice:
            if (n_in != 1 || n_ints != rank || y.size() != rank) return bad("needs rank offsets");
            for (size_t i = 0; i < rank; ++i) {
                if (layer.ints[i] < 0 || layer.ints[i] > x[i] || y[i] > x[i] - layer.ints[i]) {
                    return bad("the slice leaves its input");
                }
            }
            break;
        case LayerKind::kDeconv: {
            if (n_in != 2 && n_in != 3) return bad("needs 2 or 3 inputs");
            if (rank < 3 || rank > 5) return bad("input rank must be 3 to 5");
            const size_t r = rank - 2;
            if (n_ints != 1 + 4 * r) return bad("has the wrong number of attributes");
            const auto& w = plan.tensors[layer.inputs[1]].dims;
            if (w.size() != rank || y.size() != rank) return bad("weight/output rank mismatch");
            const int64_t group = layer.ints[0];
            if (group < 1 || w[0] % group != 0 || w[0] != x[1]) {
                return bad("weights do not match the input channels and group");
            }
            if (y[0] != x[0] || y[1] != w[1] * group) return bad("output channels");
            if (n_in == 3 && PlanElementCount(plan.tensors[layer.inputs[2]].dims) != y[1]) {
                return bad("bias size is not the output channel count");
            }
            for (size_t i = 0; i < r; ++i) {
                int64_t s = layer.ints[1 + i], pb = layer.ints[1 + r + i],
                        pe = layer.ints[1 + 2 * r + i], d = layer.ints[1 + 3 * r + i];
                if (s < 1 || d < 1 || s > 4096 || d > 4096 || pb < 0 || pb > 65536 || pe <= -s ||
                    pe > 65536) {
                    return bad("bad stride, pad or dilation");
                }
                int64_t span = (w[2 + i] - 1) * d + 1;
                if ((x[2 + i] - 1) * s + span - pb - pe != y[2 + i]) {
                    return bad("output spatial size does not match the attributes");
                }
            }
            break;
        }
        case LayerKind::kPad: {
            if ((n_in != 1 && n_in != 2) || n_ints != 1 + 2 * rank || layer.floats.size() != 1 ||
                y.size() != rank) {
                return bad("needs 1 input, a mode, pads for each dim and a value");
            }
            if (n_in == 2 && PlanElementCount(plan.tensors[layer.inputs[1]].dims) != 1) {
                return bad("the value given at run time is not a scalar");
            }
            const int64_t mode = layer.ints[0];
            if (mode < 0 || mode > 2) return bad("unknown pad mode");
            for (size_t i = 0; i < rank; ++i) {
                int64_t pb = layer.ints[1 + i], pe = layer.ints[1 + rank + i];
                if (pb < -kMaxElements || pb > kMaxElements || pe < -kMaxElements ||
                    pe > kMaxElements || x[i] + pb + pe != y[i]) {
                    return bad("output dims are not the input's plus the pads");
                }
                if (mode != static_cast<int64_t>(PadMode::kConstant) && (pb < 0 || pe < 0)) {
                    return bad("only constant padding may crop");
                }
            }
            break;
        }
        case LayerKind::kLayerNorm: {
            if ((n_in != 2 && n_in != 3) || layer.floats.size() != 1 || rank < 2 || rank > 5 ||
                y != x) {
                return bad("needs x of rank 2 to 5, scale[, shift] and epsilon, same shape out");
            }
            for (size_t i = 1; i < n_in; ++i) {
                if (PlanElementCount(plan.tensors[layer.inputs[i]].dims) != x[rank - 1]) {
                    return bad("scale and shift must have one value per element of the last dim");
                }
            }
            if (!(layer.floats[0] >= 0.0f)) return bad("epsilon must not be negative");
            break;
        }
        default:
            return bad("unknown layer kind");
    }
    // The engine applies post-ops on these kinds, fused into oneDNN's primitive or run in place
    // after it; elsewhere it would drop them without a word.
    const bool takes_post_ops =
        layer.kind == LayerKind::kConv || layer.kind == LayerKind::kDeconv ||
        layer.kind == LayerKind::kMatMul || layer.kind == LayerKind::kBinary ||
        layer.kind == LayerKind::kEltwise || layer.kind == LayerKind::kPool;
    if (!layer.post_ops.empty() && !takes_post_ops)
        return bad("has post-ops, which it cannot take");
    for (const PostOp& op : layer.post_ops) {
        if (op.kind == PostOp::kEltwise) {
            if (op.alg < 0 || op.alg >= kEltwiseAlgCount ||
                op.alg == static_cast<int64_t>(EltwiseAlg::kErf)) {
                return bad("unknown post-op algorithm");
            }
        } else if (op.kind == PostOp::kSum) {
            if (op.tensor >= plan.tensors.size() || plan.tensors[op.tensor].dims != y) {
                return bad("sum post-op tensor missing or of another shape");
            }
            // The engine hands the summed tensor to these two kinds only.
            if (layer.kind != LayerKind::kConv && layer.kind != LayerKind::kDeconv) {
                return bad("sum post-op on a layer that is not a convolution");
            }
        } else {
            return bad("unknown post-op kind");
        }
    }
    return true;
}

}  // namespace

int64_t PlanElementCount(const std::vector<int64_t>& dims) {
    int64_t n = 1;
    for (int64_t d : dims)
        n *= d;
    return n;
}

const char* LayerKindName(LayerKind kind) {
    switch (kind) {
        case LayerKind::kConv:
            return "conv";
        case LayerKind::kPool:
            return "pool";
        case LayerKind::kBinary:
            return "binary";
        case LayerKind::kEltwise:
            return "eltwise";
        case LayerKind::kMatMul:
            return "matmul";
        case LayerKind::kConcat:
            return "concat";
        case LayerKind::kSoftmax:
            return "softmax";
        case LayerKind::kView:
            return "view";
        case LayerKind::kTranspose:
            return "transpose";
        case LayerKind::kResize:
            return "resize";
        case LayerKind::kBatchNorm:
            return "batchnorm";
        case LayerKind::kReduceMean:
            return "reduce-mean";
        case LayerKind::kSlice:
            return "slice";
        case LayerKind::kDeconv:
            return "deconv";
        case LayerKind::kPad:
            return "pad";
        case LayerKind::kLayerNorm:
            return "layer-norm";
        case LayerKind::kReduce:
            return "reduce";
        case LayerKind::kWhere:
            return "where";
    }
    return "unknown";
}

void ComputeLifetimes(Plan* plan) {
    const int32_t end = static_cast<int32_t>(plan->layers.size());
    for (auto& t : plan->tensors) {
        t.first = -1;
        t.last = -1;
    }
    for (size_t i = 0; i < plan->layers.size(); ++i) {
        const auto& layer = plan->layers[i];
        for (uint32_t id : layer.inputs)
            plan->tensors[id].last = static_cast<int32_t>(i);
        for (const auto& op : layer.post_ops) {
            if (op.kind == PostOp::kSum) plan->tensors[op.tensor].last = static_cast<int32_t>(i);
        }
        plan->tensors[layer.output].first = static_cast<int32_t>(i);
    }
    for (uint32_t id : plan->outputs)
        plan->tensors[id].last = end;
}

bool ValidatePlan(const Plan& plan, std::string* error) {
    const size_t n = plan.tensors.size();
    if (plan.inputs.empty() || plan.outputs.empty()) return Fail(error, "no inputs or outputs");
    for (size_t i = 0; i < n; ++i) {
        const auto& t = plan.tensors[i];
        const std::string what = "tensor " + std::to_string(i) + " '" + t.name + "'";
        if (t.dims.size() > kMaxRank) return Fail(error, what + " has rank above 8");
        int64_t count = 1;
        for (int64_t d : t.dims) {
            if (d < 1 || d > kMaxElements) return Fail(error, what + " has dims " + Dims(t.dims));
            count *= d;
            if (count > kMaxElements) return Fail(error, what + " is too large");
        }
        if (t.constant >= 0) {
            if (static_cast<size_t>(t.constant) >= plan.constants.size()) {
                return Fail(error, what + " names constant " + std::to_string(t.constant) + " of " +
                                       std::to_string(plan.constants.size()));
            }
            if (static_cast<int64_t>(plan.constants[t.constant].size()) != count) {
                return Fail(error, what + " has " +
                                       std::to_string(plan.constants[t.constant].size()) +
                                       " values for dims " + Dims(t.dims));
            }
        } else if (t.constant != -1) {
            return Fail(error, what + " has a negative constant index");
        }
    }
    // Defined before use: graph inputs and constants first, then each layer's output.
    std::vector<bool> defined(n, false);
    for (size_t i = 0; i < n; ++i)
        defined[i] = plan.tensors[i].constant >= 0;
    for (uint32_t id : plan.inputs) {
        if (id >= n) return Fail(error, "graph input id " + std::to_string(id) + " out of range");
        if (defined[id]) return Fail(error, "graph input " + std::to_string(id) + " redefined");
        defined[id] = true;
    }
    for (size_t i = 0; i < plan.layers.size(); ++i) {
        const auto& layer = plan.layers[i];
        for (uint32_t id : layer.inputs) {
            if (id >= n || !defined[id]) {
                return Fail(error, "layer " + std::to_string(i) + " reads tensor " +
                                       std::to_string(id) + ", which is not defined before it");
            }
        }
        for (const auto& op : layer.post_ops) {
            if (op.kind == PostOp::kSum && (op.tensor >= n || !defined[op.tensor])) {
                return Fail(error, "layer " + std::to_string(i) + " sums an undefined tensor");
            }
        }
        if (layer.output >= n || defined[layer.output] ||
            plan.tensors[layer.output].constant >= 0) {
            return Fail(error, "layer " + std::to_string(i) + " writes tensor " +
                                   std::to_string(layer.output) +
                                   ", which is out of range or already defined");
        }
        if (!CheckLayer(plan, layer, i, error)) return false;
        defined[layer.output] = true;
    }
    for (uint32_t id : plan.outputs) {
        if (id >= n || !defined[id] || plan.tensors[id].constant >= 0) {
            return Fail(error, "graph output " + std::to_string(id) + " is not computed");
        }
    }
    Plan copy;
    copy.tensors = plan.tensors;
    copy.layers = plan.layers;
    copy.outputs = plan.outputs;
    ComputeLifetimes(&copy);
    for (size_t i = 0; i < n; ++i) {
        if (copy.tensors[i].first != plan.tensors[i].first ||
            copy.tensors[i].last != plan.tensors[i].last) {
            return Fail(error, "tensor " + std::to_string(i) + " has an inconsistent lifetime");
        }
    }
    return true;
}

std::string SerializePlan(const Plan& plan) {
    Writer w;
    w.Raw(kMagic, 4);
    w.U32(kPlanFormatVersion);
    w.U32(static_cast<uint32_t>(plan.tensors.size()));
    for (const auto& t : plan.tensors) {
        w.Str(t.name);
        w.U32(static_cast<uint32_t>(t.dims.size()));
        for (int64_t d : t.dims)
            w.I64(d);
        w.I64(t.constant);
        w.I64(t.first);
        w.I64(t.last);
    }
    w.U32(static_cast<uint32_t>(plan.constants.size()));
    for (const auto& c : plan.constants) {
        w.U32(static_cast<uint32_t>(c.size()));
        for (float v : c)
            w.F32(v);
    }
    w.U32(static_cast<uint32_t>(plan.layers.size()));
    for (const auto& l : plan.layers) {
        w.U32(static_cast<uint32_t>(l.kind));
        w.Str(l.name);
        w.U32(static_cast<uint32_t>(l.inputs.size()));
        for (uint32_t id : l.inputs)
            w.U32(id);
        w.U32(l.output);
        w.U32(static_cast<uint32_t>(l.ints.size()));
        for (int64_t v : l.ints)
            w.I64(v);
        w.U32(static_cast<uint32_t>(l.floats.size()));
        for (float v : l.floats)
            w.F32(v);
        w.U32(static_cast<uint32_t>(l.post_ops.size()));
        for (const auto& op : l.post_ops) {
            w.U32(op.kind);
            w.I64(op.alg);
            w.F32(op.alpha);
            w.F32(op.beta);
            w.U32(op.tensor);
        }
    }
    for (const auto* ids : {&plan.inputs, &plan.outputs}) {
        w.U32(static_cast<uint32_t>(ids->size()));
        for (uint32_t id : *ids)
            w.U32(id);
    }
    return w.Take();
}

bool ParsePlan(const void* data, size_t size, Plan* out, std::string* error) {
    Reader r(data, size);
    char magic[4];
    if (!r.Raw(magic, 4) || std::memcmp(magic, kMagic, 4) != 0) {
        return Fail(error, "not a plan (bad magic)");
    }
    uint32_t version;
    if (!r.U32(&version)) return Fail(error, "plan truncated in its header");
    if (version != kPlanFormatVersion) {
        return Fail(error, "plan format version " + std::to_string(version) +
                               " is not one this build reads (" +
                               std::to_string(kPlanFormatVersion) + ")");
    }
    const std::string truncated = "plan truncated or a count exceeds its bytes";
    Plan plan;
    uint32_t count;
    if (!r.Count(&count, 4 + 4 + 24)) return Fail(error, truncated + " (tensors)");
    plan.tensors.resize(count);
    for (auto& t : plan.tensors) {
        uint32_t rank;
        int64_t constant, first, last;
        if (!r.Str(&t.name) || !r.Count(&rank, 8)) return Fail(error, truncated + " (tensor)");
        if (rank > kMaxRank) return Fail(error, "tensor '" + t.name + "' has rank above 8");
        t.dims.resize(rank);
        for (auto& d : t.dims) {
            if (!r.I64(&d)) return Fail(error, truncated + " (dims)");
        }
        if (!r.I64(&constant) || !r.I64(&first) || !r.I64(&last)) {
            return Fail(error, truncated + " (tensor)");
        }
        const int64_t lo = std::numeric_limits<int32_t>::min(),
                      hi = std::numeric_limits<int32_t>::max();
        if (constant < -1 || constant > hi || first < lo || first > hi || last < lo || last > hi) {
            return Fail(error, "tensor '" + t.name + "' has an out-of-range index");
        }
        t.constant = static_cast<int32_t>(constant);
        t.first = static_cast<int32_t>(first);
        t.last = static_cast<int32_t>(last);
    }
    if (!r.Count(&count, 4)) return Fail(error, truncated + " (constants)");
    plan.constants.resize(count);
    for (auto& c : plan.constants) {
        uint32_t n;
        if (!r.Count(&n, 4)) return Fail(error, truncated + " (constant data)");
        c.resize(n);
        for (float& v : c)
            r.F32(&v);  // Count proved the bytes are there
    }
    if (!r.Count(&count, 4 * 7)) return Fail(error, truncated + " (layers)");
    plan.layers.resize(count);
    for (auto& l : plan.layers) {
        uint32_t kind, n;
        if (!r.U32(&kind) || !r.Str(&l.name) || !Ids(&r, &l.inputs) || !r.U32(&l.output) ||
            !Ints(&r, &l.ints)) {
            return Fail(error, truncated + " (layer)");
        }
        l.kind = static_cast<LayerKind>(kind);
        if (kind < 1 || kind > static_cast<uint32_t>(LayerKind::kWhere)) {
            return Fail(error, "layer '" + l.name + "' has unknown kind " + std::to_string(kind));
        }
        if (!r.Count(&n, 4)) return Fail(error, truncated + " (layer floats)");
        l.floats.resize(n);
        for (float& v : l.floats)
            r.F32(&v);
        if (!r.Count(&n, 24)) return Fail(error, truncated + " (post-ops)");
        l.post_ops.resize(n);
        for (auto& op : l.post_ops) {
            r.U32(&op.kind);
            r.I64(&op.alg);
            r.F32(&op.alpha);
            r.F32(&op.beta);
            r.U32(&op.tensor);
        }
    }
    if (!Ids(&r, &plan.inputs) || !Ids(&r, &plan.outputs)) {
        return Fail(error, truncated + " (bindings)");
    }
    if (r.left() != 0) {
        return Fail(error, std::to_string(r.left()) + " unexpected bytes after the plan");
    }
    std::string why;
    if (!ValidatePlan(plan, &why)) return Fail(error, "invalid plan: " + why);
    *out = std::move(plan);
    return true;
}

}  // namespace openacl::model
