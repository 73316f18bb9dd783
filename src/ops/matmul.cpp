// Batched matrix products on oneDNN (ops/matmul.h).
#include "ops/matmul.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <cinttypes>
#include <cstring>
#include <mutex>
#include <new>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "backend/cpu/compute_gate.h"
#include "backend/cpu/omp_threads.h"
#include "core/device.h"
#include "core/log.h"
#include "ops/dtype.h"
#include "ops/element.h"

namespace openacl::ops {
namespace {

using dnnl::memory;

constexpr uint64_t kAlign = 64;  // each workspace region starts on a cache line
// Packing and unpacking split their rows over the borrowed threads from this many elements.
constexpr int64_t kParallelElements = int64_t{1} << 15;
// Plans kept for reuse (a new shape beyond this clears the cache).
constexpr size_t kCachedPlans = 512;

uint64_t AlignUp(uint64_t bytes) {
    return (bytes + kAlign - 1) / kAlign * kAlign;
}

dnnl::engine& Engine() {
    static auto* engine = new dnnl::engine(dnnl::engine::kind::cpu, 0);  // outlives exit-time runs
    return *engine;
}

using openacl::cpu::OmpThreads;

memory::data_type DnnlType(aclDataType type) {
    switch (type) {
        case ACL_BF16:
            return memory::data_type::bf16;
        case ACL_FLOAT16:
            return memory::data_type::f16;
        default:
            return memory::data_type::f32;
    }
}

bool IsMatmulType(aclDataType type) {
    return type == ACL_FLOAT || type == ACL_FLOAT16 || type == ACL_BF16;
}

// An operand as the plan sees it (rank from the shape).
struct View {
    aclDataType dtype = ACL_DT_UNDEFINED;
    int64_t dims[kMatmulMaxRank] = {};
    int64_t strides[kMatmulMaxRank] = {};
};

View ViewOf(const MatmulOperand& operand) {
    View v;
    v.dtype = operand.dtype;
    std::copy(operand.dims, operand.dims + kMatmulMaxRank, v.dims);
    std::copy(operand.strides, operand.strides + kMatmulMaxRank, v.strides);
    return v;
}

// The same elements with the two matrix dimensions exchanged.
View Transposed(const View& v, int rank) {
    View t = v;
    std::swap(t.dims[rank - 2], t.dims[rank - 1]);
    std::swap(t.strides[rank - 2], t.strides[rank - 1]);
    return t;
}

// Rewrites strides oneDNN cannot read but which address the same elements: a size-1
// dimension's stride means nothing, so the matrix dimensions get what makes the matrix plain,
// and a size-1 batch dimension the extent of the dimensions inside it. An input's batch
// dimension repeated with stride 0 becomes size 1, which oneDNN broadcasts.
void Normalize(View* v, int rank, bool input) {
    const int r = rank - 2, c = rank - 1;
    if (v->dims[c] == 1) v->strides[c] = 1;
    if (v->dims[r] == 1) v->strides[r] = v->strides[c] == 1 ? v->dims[c] : 1;
    int64_t inner = 1;  // elements from the first of the dimensions inside d to their last
    for (int d = c; d >= 0; --d) {
        if (d < r) {
            if (input && v->dims[d] > 1 && v->strides[d] == 0) v->dims[d] = 1;
            if (v->dims[d] == 1) v->strides[d] = inner;
        }
        inner = std::max(inner, (v->dims[d] - 1) * v->strides[d] + inner);
    }
}

bool RowMajor(const View& v, int rank) {
    return v.strides[rank - 1] == 1 && v.strides[rank - 2] >= v.dims[rank - 1];
}
bool ColumnMajor(const View& v, int rank) {
    return v.strides[rank - 2] == 1 && v.strides[rank - 1] >= v.dims[rank - 2];
}
// What oneDNN's fast kernels read in place.
bool Direct(const View& v, int rank) {
    return RowMajor(v, rank) || ColumnMajor(v, rank);
}
// A batch dimension repeated with stride 0: an output oneDNN must not write in place.
bool RepeatsBatch(const View& v, int rank) {
    for (int d = 0; d < rank - 2; ++d) {
        if (v.dims[d] > 1 && v.strides[d] == 0) return true;
    }
    return false;
}

int64_t Numel(const View& v, int rank) {
    int64_t n = 1;
    for (int d = 0; d < rank; ++d)
        n *= v.dims[d];
    return n;
}

// The device's compute threads, or fewer for a small product: waking a thread of the OpenMP
// team costs a few microseconds, as much as a core spends on about a million multiply-adds
// (a token's products in a small language model are mostly below that).
int ThreadsWorthWaking(int64_t multiply_adds) {
    constexpr int64_t kPerThread = int64_t{1} << 20;
    const int64_t worth = std::max<int64_t>(1, multiply_adds / kPerThread);
    return static_cast<int>(std::min<int64_t>(worth, ComputeThreadsPerRun()));
}

// Elements from the view's first to one past its last.
int64_t Extent(const View& v, int rank) {
    int64_t last = 0;
    for (int d = 0; d < rank; ++d)
        last += (v.dims[d] - 1) * v.strides[d];
    return last + 1;
}

// The element offset of row `row` (rows numbered row-major over every dimension but the last).
int64_t RowOffset(const View& v, int rank, int64_t row) {
    int64_t offset = 0;
    for (int d = rank - 2; d >= 0; --d) {
        offset += (row % v.dims[d]) * v.strides[d];
        row /= v.dims[d];
    }
    return offset;
}

// n elements of `type` from `in`, `step` bytes apart, as floats; contiguous runs of the
// operand types take the fast paths.
void ToFloats(const char* in, int64_t step, aclDataType type, int64_t n, float* out) {
    if (step == static_cast<int64_t>(DtypeSize(type))) {
        if (type == ACL_FLOAT) {
            std::memcpy(out, in, static_cast<size_t>(n) * sizeof(float));
            return;
        }
        if (type == ACL_FLOAT16 && HalfRunToFloats(in, n, out)) return;
        if (type == ACL_BF16) {
            for (int64_t i = 0; i < n; ++i) {
                uint16_t bits;
                std::memcpy(&bits, in + 2 * i, sizeof bits);
                const uint32_t wide = static_cast<uint32_t>(bits) << 16;
                std::memcpy(out + i, &wide, sizeof wide);
            }
            return;
        }
    }
    Load<float>(in, step, type, n, out);
}

// n floats into elements of `type` at `out`, `step` bytes apart.
void FromFloats(const float* in, int64_t n, char* out, int64_t step, aclDataType type) {
    if (step == static_cast<int64_t>(DtypeSize(type))) {
        if (type == ACL_FLOAT) {
            std::memcpy(out, in, static_cast<size_t>(n) * sizeof(float));
            return;
        }
        if (type == ACL_FLOAT16 && FloatRunToHalfs(in, n, out)) return;
    }
    Store<float>(in, n, out, step, type);
}

// n elements of T from `in`, `step` bytes apart, to contiguous `out`.
template <typename T>
void CopyRun(const char* in, int64_t step, int64_t n, void* out) {
    for (int64_t i = 0; i < n; ++i) {
        T value;
        std::memcpy(&value, in + i * step, sizeof value);
        std::memcpy(static_cast<char*>(out) + i * static_cast<int64_t>(sizeof value), &value,
                    sizeof value);
    }
}

// Copies the view's elements into contiguous memory (row-major for the view given) as `type`:
// float (converting) or the view's own type (bfloat16).
void Pack(const View& v, int rank, const void* from, aclDataType type, void* to, int threads) {
    const int64_t cols = v.dims[rank - 1], rows = Numel(v, rank) / cols;
    const int64_t size = static_cast<int64_t>(DtypeSize(v.dtype));
    const int64_t out_size = static_cast<int64_t>(DtypeSize(type));
    const int64_t step = v.strides[rank - 1] * size;
    const char* src = static_cast<const char*>(from);
    char* dst = static_cast<char*>(to);
#pragma omp parallel for num_threads(threads) if (rows * cols >= kParallelElements) schedule(static)
    for (int64_t row = 0; row < rows; ++row) {
        const char* in = src + RowOffset(v, rank, row) * size;
        char* out = dst + row * cols * out_size;
        if (type == ACL_FLOAT) {
            ToFloats(in, step, v.dtype, cols, reinterpret_cast<float*>(out));
        } else {
            CopyRun<uint16_t>(in, step, cols, out);
        }
    }
}

// Writes contiguous floats into the view, converting to its type.
void Unpack(const float* from, const View& v, int rank, void* to, int threads) {
    const int64_t cols = v.dims[rank - 1], rows = Numel(v, rank) / cols;
    const int64_t size = static_cast<int64_t>(DtypeSize(v.dtype));
    const int64_t step = v.strides[rank - 1] * size;
    char* dst = static_cast<char*>(to);
#pragma omp parallel for num_threads(threads) if (rows * cols >= kParallelElements) schedule(static)
    for (int64_t row = 0; row < rows; ++row) {
        FromFloats(from + row * cols, cols, dst + RowOffset(v, rank, row) * size, step, v.dtype);
    }
}

// Calls f(row's first element offset in bytes, column step in bytes, columns) for every row of
// the view, spread over `threads`.
template <typename F>
void ForEachRow(const View& v, int rank, int threads, F&& f) {
    const int64_t cols = v.dims[rank - 1], rows = Numel(v, rank) / cols;
    const int64_t size = static_cast<int64_t>(DtypeSize(v.dtype));
    const int64_t step = v.strides[rank - 1] * size;
#pragma omp parallel for num_threads(threads) if (rows * cols >= kParallelElements) schedule(static)
    for (int64_t row = 0; row < rows; ++row)
        f(RowOffset(v, rank, row) * size, step, cols);
}

template <typename T>
void CopyElements(const char* from, char* to, int64_t step, int64_t n) {
    for (int64_t i = 0; i < n; ++i)
        std::memcpy(to + i * step, from + i * step, sizeof(T));
}

// Copies the view's elements from memory laid out like it at `from` (same strides).
void CopyLike(const void* from, const View& v, int rank, void* to, int threads) {
    const bool wide = DtypeSize(v.dtype) == 4;
    ForEachRow(v, rank, threads, [&](int64_t at, int64_t step, int64_t n) {
        const char* in = static_cast<const char*>(from) + at;
        char* out = static_cast<char*>(to) + at;
        wide ? CopyElements<uint32_t>(in, out, step, n) : CopyElements<uint16_t>(in, out, step, n);
    });
}

// Zero in every element (0.0 is all-zero bits in float, float16 and bfloat16).
void ZeroFill(const View& v, int rank, void* to) {
    const bool wide = DtypeSize(v.dtype) == 4;
    ForEachRow(v, rank, 1, [&](int64_t at, int64_t step, int64_t n) {
        char* out = static_cast<char*>(to) + at;
        for (int64_t i = 0; i < n; ++i) {
            wide ? std::memset(out + i * step, 0, 4) : std::memset(out + i * step, 0, 2);
        }
    });
}

bool Overlaps(const void* a, int64_t a_bytes, const void* b, int64_t b_bytes) {
    const auto x = reinterpret_cast<uintptr_t>(a), y = reinterpret_cast<uintptr_t>(b);
    return x < y + static_cast<uintptr_t>(b_bytes) && y < x + static_cast<uintptr_t>(a_bytes);
}

// One operand of a planned product.
struct OperandPlan {
    View view;                     // what the caller's pointer addresses (normalized)
    bool packed = false;           // goes through the workspace (contiguous, as `type`)
    bool columns = false;          // packed column-major: a column-major view's memory order
    aclDataType type = ACL_FLOAT;  // what oneDNN reads or writes
    uint64_t offset = 0;           // the packed copy's place in the workspace
    memory::desc desc;

    int64_t Bytes(int rank) const {
        return Extent(view, rank) * static_cast<int64_t>(DtypeSize(view.dtype));
    }
};

memory::desc DescOf(const OperandPlan& p, int rank) {
    memory::dims dims(p.view.dims, p.view.dims + rank);
    memory::dims strides(static_cast<size_t>(rank));
    if (p.packed) {
        const View packed = p.columns ? Transposed(p.view, rank) : p.view;
        int64_t step = 1;
        for (int d = rank; d-- > 0;) {
            strides[static_cast<size_t>(d)] = step;
            step *= packed.dims[d];
        }
        if (p.columns) std::swap(strides[static_cast<size_t>(rank - 2)], strides.back());
    } else {
        strides.assign(p.view.strides, p.view.strides + rank);
    }
    return memory::desc(dims, DnnlType(p.type), strides);
}

class Plan final : public MatmulPlan {
 public:
    enum class Mode { kEmpty, kZeros, kProduct };

    // Plans the product of normalized operands (c row-major or packed); false with *error.
    bool Build(const MatmulShape& shape, std::string* error) {
        rank_ = shape.rank;
        a_.view = ViewOf(shape.a);
        b_.view = ViewOf(shape.b);
        c_.view = ViewOf(shape.c);
        const int r = rank_ - 2;
        if (Numel(c_.view, rank_) == 0) {
            mode_ = Mode::kEmpty;
            implementation_ = "empty";
            return true;
        }
        Normalize(&c_.view, rank_, false);
        has_bias_ = shape.has_bias;
        if (has_bias_) {  // a row of n, read once per run into the workspace as floats
            bias_.view = ViewOf(shape.bias);
            for (int d = 0; d < rank_ - 1; ++d)
                bias_.view.dims[d] = 1;
            bias_.view.dims[rank_ - 1] = c_.view.dims[rank_ - 1];
            Normalize(&bias_.view, rank_, true);
            bias_.packed = true;
            bias_.type = ACL_FLOAT;
        }
        if (a_.view.dims[r + 1] == 0) {  // k = 0: every element is an empty sum (or the bias)
            mode_ = Mode::kZeros;
            implementation_ = has_bias_ ? "bias" : "zeros";
            return true;
        }
        Normalize(&a_.view, rank_, true);
        Normalize(&b_.view, rank_, true);
        // A column-major output is the row-major transpose: c^T = b^T a^T.
        // (Not with a bias: oneDNN's fast kernels take a bias along n only, so such an output is
        // computed in the workspace instead.)
        if (!has_bias_ && !RowMajor(c_.view, rank_) && ColumnMajor(c_.view, rank_)) {
            swapped_ = true;
            View a = Transposed(b_.view, rank_), b = Transposed(a_.view, rank_);
            a_.view = a;
            b_.view = b;
            c_.view = Transposed(c_.view, rank_);
        }
        mode_ = Mode::kProduct;
        threads_ = ThreadsWorthWaking(Numel(c_.view, rank_) * a_.view.dims[rank_ - 1]);
        OmpThreads team(threads_);  // the primitive's blocking follows the threads it runs on
        const bool same = a_.view.dtype == b_.view.dtype;
        aclDataType src = same && a_.view.dtype == ACL_BF16 ? ACL_BF16 : ACL_FLOAT;
        bool pack_all = false;
        for (int attempt = 0; attempt < 4; ++attempt) {
            Choose(src, pack_all);
            if (Create()) {
                const bool reference = implementation_.rfind("ref", 0) == 0;
                if (!reference || pack_all) break;
                pack_all = true;  // oneDNN's reference kernel: pack everything instead
            } else if (src == ACL_BF16) {
                src = ACL_FLOAT;  // no bfloat16 matmul on this CPU: convert
            } else if (!pack_all) {
                pack_all = true;
            } else {
                *error = "oneDNN cannot create the matmul primitive: " + failure_;
                return false;
            }
        }
        if (!primitive_) {
            *error = "oneDNN chose no matmul implementation: " + failure_;
            return false;
        }
        uint64_t at = 0;
        scratch_offset_ = at;
        at += AlignUp(pd_.scratchpad_desc().get_size());
        for (OperandPlan* p : {&a_, &b_, &c_, &bias_}) {
            if (!p->packed || (p == &bias_ && !has_bias_)) continue;
            p->offset = at;
            at += AlignUp(static_cast<uint64_t>(Numel(p->view, rank_)) * DtypeSize(p->type));
        }
        workspace_ = at == 0 ? 0 : at + kAlign;  // room to align the caller's pointer
        if (a_.packed || b_.packed || c_.packed) implementation_ += "+pack";
        return true;
    }

    uint64_t workspace_bytes() const override { return workspace_; }
    const std::string& implementation() const override { return implementation_; }

    bool Run(const void* a, const void* b, void* c, void* workspace, std::string* error,
             const void* bias) const override {
        if (mode_ == Mode::kEmpty) return true;
        if (mode_ == Mode::kZeros) {
            if (has_bias_) return FillBias(bias, c, error);
            ZeroFill(c_.view, rank_, c);
            return true;
        }
        if (swapped_) std::swap(a, b);
        char* ws = reinterpret_cast<char*>(AlignUp(reinterpret_cast<uintptr_t>(workspace)));
        // The threads are borrowed from the device's, shared with every stream's products and
        // model runs (backend/cpu/compute_gate.h), for the packing and the product.
        cpu::ComputeLease lease(threads_);
        OmpThreads team(lease.threads());
        const int threads = lease.threads();
        const void* src_a = a;
        const void* src_b = b;
        for (auto [p, from, to] : {std::tuple{&a_, a, &src_a}, std::tuple{&b_, b, &src_b}}) {
            if (!p->packed) continue;
            Pack(p->columns ? Transposed(p->view, rank_) : p->view, rank_, from, p->type,
                 ws + p->offset, threads);
            *to = ws + p->offset;
        }
        if (has_bias_) Pack(bias_.view, rank_, bias, ACL_FLOAT, ws + bias_.offset, 1);
        void* dst = c;
        std::unique_ptr<char[]> temporary;  // an output sharing memory with an input
        if (c_.packed) {
            dst = ws + c_.offset;
        } else {
            const int64_t bytes = c_.Bytes(rank_);
            if ((!a_.packed && Overlaps(c, bytes, a, a_.Bytes(rank_))) ||
                (!b_.packed && Overlaps(c, bytes, b, b_.Bytes(rank_)))) {
                temporary.reset(new (std::nothrow) char[static_cast<size_t>(bytes)]);
                if (!temporary) {
                    *error = "out of host memory for a copy of an output that overlaps an input";
                    return false;
                }
                dst = temporary.get();
            }
        }
        try {
            dnnl::stream stream(Engine());
            memory ma(a_.desc, Engine(), const_cast<void*>(src_a));
            memory mb(b_.desc, Engine(), const_cast<void*>(src_b));
            memory mc(c_.desc, Engine(), dst);
            std::unordered_map<int, memory> args{
                {DNNL_ARG_SRC, ma}, {DNNL_ARG_WEIGHTS, mb}, {DNNL_ARG_DST, mc}};
            if (has_bias_) {
                args.emplace(DNNL_ARG_BIAS, memory(bias_.desc, Engine(), ws + bias_.offset));
            }
            if (pd_.scratchpad_desc().get_size() > 0) {
                args.emplace(DNNL_ARG_SCRATCHPAD,
                             memory(pd_.scratchpad_desc(), Engine(), ws + scratch_offset_));
            }
            primitive_.execute(stream, args);
            stream.wait();
        } catch (const dnnl::error& e) {
            *error = std::string("oneDNN's matmul failed: ") + e.what();
            return false;
        }
        if (c_.packed) {
            Unpack(reinterpret_cast<const float*>(dst), c_.view, rank_, c, threads);
        } else if (temporary) {
            CopyLike(temporary.get(), c_.view, rank_, c, threads);
        }
        return true;
    }

 private:
    // What goes to oneDNN as is: `src` is the type it reads a and b in; pack_all sends every
    // operand through the workspace.
    void Choose(aclDataType src, bool pack_all) {
        for (OperandPlan* p : {&a_, &b_}) {
            p->type = src;
            p->packed = pack_all || p->view.dtype != src || !Direct(p->view, rank_);
            // A column-major operand (a transposed weight) packed for its type keeps its memory
            // order: the copy streams through memory, and oneDNN reads it as it would have.
            p->columns = p->packed && !RowMajor(p->view, rank_) && ColumnMajor(p->view, rank_);
        }
        const aclDataType out = c_.view.dtype;
        c_.type = out == ACL_FLOAT || (out == ACL_BF16 && src == ACL_BF16) ? out : ACL_FLOAT;
        c_.packed =
            pack_all || c_.type != out || !RowMajor(c_.view, rank_) || RepeatsBatch(c_.view, rank_);
        if (c_.packed) c_.type = ACL_FLOAT;
    }

    bool Create() {
        try {
            for (OperandPlan* p : {&a_, &b_, &c_})
                p->desc = DescOf(*p, rank_);
            dnnl::primitive_attr attr;
            attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
            if (has_bias_) {
                bias_.desc = DescOf(bias_, rank_);
                pd_ = dnnl::matmul::primitive_desc(
                    dnnl::matmul::desc(a_.desc, b_.desc, bias_.desc, c_.desc), attr, Engine());
            } else {
                pd_ = dnnl::matmul::primitive_desc(dnnl::matmul::desc(a_.desc, b_.desc, c_.desc),
                                                   attr, Engine());
            }
            primitive_ = dnnl::matmul(pd_);
            implementation_ = pd_.impl_info_str();
            return true;
        } catch (const dnnl::error& e) {
            failure_ = e.what();
            primitive_ = dnnl::matmul();
            return false;
        }
    }

    // k = 0 with a bias: every row of c is the bias (the output is never transposed then).
    bool FillBias(const void* bias, void* c, std::string* error) const {
        const int64_t n = c_.view.dims[rank_ - 1];
        std::unique_ptr<float[]> row(new (std::nothrow) float[static_cast<size_t>(n)]);
        if (!row) {
            *error = "out of host memory for the bias";
            return false;
        }
        Pack(bias_.view, rank_, bias, ACL_FLOAT, row.get(), 1);
        ForEachRow(c_.view, rank_, 1, [&](int64_t at, int64_t step, int64_t cols) {
            FromFloats(row.get(), cols, static_cast<char*>(c) + at, step, c_.view.dtype);
        });
        return true;
    }

    int rank_ = 2;
    OperandPlan a_, b_, c_, bias_;
    bool has_bias_ = false;
    Mode mode_ = Mode::kEmpty;
    bool swapped_ = false;  // a and b were exchanged to compute the transposed output
    int threads_ = 1;
    dnnl::matmul::primitive_desc pd_;
    dnnl::matmul primitive_;
    uint64_t scratch_offset_ = 0;
    uint64_t workspace_ = 0;
    std::string implementation_;
    std::string failure_;
};

bool CheckShape(const MatmulShape& s, std::string* error) {
    const int rank = s.rank;
    if (rank < 2 || rank > kMatmulMaxRank) {
        *error = "a matrix product takes operands of rank 2 to 8";
        return false;
    }
    for (const MatmulOperand* o : {&s.a, &s.b, &s.c}) {
        if (!IsMatmulType(o->dtype)) {
            *error = std::string("a matrix product computes on float, float16 and bfloat16, not ") +
                     DtypeName(o->dtype);
            return false;
        }
        for (int d = 0; d < rank; ++d) {
            if (o->dims[d] < 0 || o->strides[d] < 0) {
                *error = "a matrix product's operands have non-negative dimensions and strides";
                return false;
            }
        }
    }
    if (s.has_bias) {
        if (!IsMatmulType(s.bias.dtype) || s.bias.dims[rank - 1] != s.c.dims[rank - 1] ||
            s.bias.strides[rank - 1] < 0) {
            *error = "the bias is a row of n float, float16 or bfloat16 values";
            return false;
        }
    }
    const int r = rank - 2;
    if (s.a.dims[r] != s.c.dims[r] || s.b.dims[r + 1] != s.c.dims[r + 1] ||
        s.a.dims[r + 1] != s.b.dims[r]) {
        *error = "the operands' matrix dimensions do not chain (a [m, k], b [k, n], c [m, n])";
        return false;
    }
    for (int d = 0; d < r; ++d) {
        if ((s.a.dims[d] != 1 && s.a.dims[d] != s.c.dims[d]) ||
            (s.b.dims[d] != 1 && s.b.dims[d] != s.c.dims[d])) {
            *error = "a batch dimension of a or b is neither the output's nor 1";
            return false;
        }
    }
    return true;
}

std::string CacheKey(const MatmulShape& s) {
    std::string key;
    auto put = [&key](const void* p, size_t n) { key.append(static_cast<const char*>(p), n); };
    const int threads = ComputeThreadsPerRun();
    put(&threads, sizeof threads);
    put(&s.rank, sizeof s.rank);
    put(&s.has_bias, sizeof s.has_bias);
    for (const MatmulOperand* o : {&s.a, &s.b, &s.c, &s.bias}) {
        if (o == &s.bias && !s.has_bias) break;
        put(&o->dtype, sizeof o->dtype);
        put(o->dims, sizeof(int64_t) * static_cast<size_t>(s.rank));
        put(o->strides, sizeof(int64_t) * static_cast<size_t>(s.rank));
    }
    return key;
}

struct PlanCache {
    std::mutex mutex;
    std::unordered_map<std::string, std::shared_ptr<const MatmulPlan>> plans;
};

PlanCache& Cache() {
    static auto* cache = new PlanCache;  // never destroyed: runs may come during exit
    return *cache;
}

}  // namespace

std::shared_ptr<const MatmulPlan> PlanMatmul(const MatmulShape& shape, std::string* error) {
    if (!CheckShape(shape, error)) return nullptr;
    const std::string key = CacheKey(shape);
    PlanCache& cache = Cache();
    {
        std::lock_guard<std::mutex> lock(cache.mutex);
        if (auto it = cache.plans.find(key); it != cache.plans.end()) return it->second;
    }
    std::shared_ptr<Plan> plan;
    try {
        plan = std::make_shared<Plan>();
        if (!plan->Build(shape, error)) return nullptr;
    } catch (const std::bad_alloc&) {
        *error = "out of host memory planning a matrix product";
        return nullptr;
    }
    OPENACL_LOG_DEBUG("matmul %s x %s -> %s (rank %d, m %" PRId64 " n %" PRId64 " k %" PRId64
                      "): %s, workspace %" PRIu64 " bytes",
                      DtypeName(shape.a.dtype), DtypeName(shape.b.dtype), DtypeName(shape.c.dtype),
                      shape.rank, shape.c.dims[shape.rank - 2], shape.c.dims[shape.rank - 1],
                      shape.a.dims[shape.rank - 1], plan->implementation().c_str(),
                      plan->workspace_bytes());
    std::lock_guard<std::mutex> lock(cache.mutex);
    if (cache.plans.size() >= kCachedPlans) cache.plans.clear();
    cache.plans.emplace(key, plan);
    return plan;
}

}  // namespace openacl::ops
