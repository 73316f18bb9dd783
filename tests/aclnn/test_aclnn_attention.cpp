// aclnnop/aclnn_fused_infer_attention_score_v2.h: attention against a plain double-precision
// reference — the BSND, BNSD, BSH and BNSD_BSND layouts, grouped-query heads, pseShift (with
// llama.cpp's stride-0 head dimension), attenMask with each sparseMode, actual sequence
// lengths, key/value given per batch, softmaxLse, float32, float16 and bfloat16 — and every
// parameter CANN documents as refused.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn_test_support.h"
#include "aclnnop/aclnn_fused_infer_attention_score_v2.h"

using aclnn_test::DeviceTensor;
using aclnn_test::FromBf16;
using aclnn_test::FromHalf;
using aclnn_test::Half;
using aclnn_test::RunPhase2;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Deterministic values in [-1, 1).
std::vector<double> Random(size_t n, uint32_t seed) {
    std::vector<double> v(n);
    uint32_t s = seed * 2654435761u + 1;
    for (double& x : v) {
        s = s * 1664525u + 1013904223u;
        x = static_cast<double>(s >> 8) / static_cast<double>(1u << 23) - 1.0;
    }
    return v;
}

enum class Type { kF32, kF16, kBF16 };

uint16_t RoundBf16(float f) {  // to nearest even
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return static_cast<uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
}

aclDataType AclType(Type t) {
    return t == Type::kF32 ? ACL_FLOAT : t == Type::kF16 ? ACL_FLOAT16 : ACL_BF16;
}

// Values as the device type holds them (rounded), for the reference.
std::vector<double> Rounded(const std::vector<double>& v, Type t) {
    std::vector<double> r(v.size());
    for (size_t i = 0; i < v.size(); ++i) {
        const float f = static_cast<float>(v[i]);
        r[i] = t == Type::kF32 ? f : t == Type::kF16 ? FromHalf(Half(f)) : FromBf16(RoundBf16(f));
    }
    return r;
}

// A device buffer of one of the three float types.
class Buffer {
 public:
    Buffer(Type type, const std::vector<double>& values) : type_(type), count_(values.size()) {
        const size_t bytes = (count_ == 0 ? 1 : count_) * Size();
        EXPECT_EQ(aclrtMalloc(&dev_, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        std::vector<char> host(bytes);
        for (size_t i = 0; i < count_; ++i) {
            const float f = static_cast<float>(values[i]);
            if (type == Type::kF32) {
                std::memcpy(host.data() + 4 * i, &f, 4);
            } else {
                const uint16_t h = type == Type::kF16 ? Half(f) : RoundBf16(f);
                std::memcpy(host.data() + 2 * i, &h, 2);
            }
        }
        EXPECT_EQ(aclrtMemcpy(dev_, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE),
                  ACL_SUCCESS);
    }
    ~Buffer() { aclrtFree(dev_); }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;

    // A new tensor viewing the buffer (the caller or a tensor list owns it).
    aclTensor* View(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides = {},
                    int64_t offset = 0) const {
        const std::vector<int64_t> s =
            strides.empty() ? aclnn_test::ContiguousStrides(shape) : strides;
        const int64_t storage[1] = {static_cast<int64_t>(count_)};
        return aclCreateTensor(shape.data(), shape.size(), AclType(type_), s.data(), offset,
                               ACL_FORMAT_ND, storage, 1, dev_);
    }
    std::vector<double> Read() const {
        std::vector<char> host(count_ * Size());
        EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
        if (count_ > 0) {
            EXPECT_EQ(
                aclrtMemcpy(host.data(), host.size(), dev_, host.size(), ACL_MEMCPY_DEVICE_TO_HOST),
                ACL_SUCCESS);
        }
        std::vector<double> out(count_);
        for (size_t i = 0; i < count_; ++i) {
            if (type_ == Type::kF32) {
                float f;
                std::memcpy(&f, host.data() + 4 * i, 4);
                out[i] = f;
            } else {
                uint16_t h;
                std::memcpy(&h, host.data() + 2 * i, 2);
                out[i] = type_ == Type::kF16 ? FromHalf(h) : FromBf16(h);
            }
        }
        return out;
    }

 private:
    size_t Size() const { return type_ == Type::kF32 ? 4 : 2; }
    Type type_;
    size_t count_;
    void* dev_ = nullptr;
};

struct Tensor {  // an owned aclTensor
    explicit Tensor(aclTensor* t = nullptr) : get(t) {}
    ~Tensor() { aclDestroyTensor(get); }
    Tensor(const Tensor&) = delete;
    Tensor& operator=(const Tensor&) = delete;
    aclTensor* get;
};

struct List {  // owns its tensors
    explicit List(std::vector<aclTensor*> tensors)
        : get(aclCreateTensorList(tensors.data(), tensors.size())) {}
    ~List() { aclDestroyTensorList(get); }
    List(const List&) = delete;
    List& operator=(const List&) = delete;
    aclTensorList* get;
};

struct IntArray {
    explicit IntArray(std::vector<int64_t> v) : get(aclCreateIntArray(v.data(), v.size())) {}
    ~IntArray() { aclDestroyIntArray(get); }
    IntArray(const IntArray&) = delete;
    IntArray& operator=(const IntArray&) = delete;
    aclIntArray* get;
};

// Logical [B][N][S][D] tensors in any of the layouts.
std::vector<double> Pack(const std::vector<double>& bnsd, int64_t B, int64_t N, int64_t S,
                         int64_t D, bool bsnd) {
    if (!bsnd) return bnsd;
    std::vector<double> out(bnsd.size());
    for (int64_t b = 0; b < B; ++b)
        for (int64_t n = 0; n < N; ++n)
            for (int64_t s = 0; s < S; ++s)
                for (int64_t d = 0; d < D; ++d)
                    out[((b * S + s) * N + n) * D + d] = bnsd[((b * N + n) * S + s) * D + d];
    return out;
}
std::vector<double> Unpack(const std::vector<double>& stored, int64_t B, int64_t N, int64_t S,
                           int64_t D, bool bsnd) {
    if (!bsnd) return stored;
    std::vector<double> out(stored.size());
    for (int64_t b = 0; b < B; ++b)
        for (int64_t n = 0; n < N; ++n)
            for (int64_t s = 0; s < S; ++s)
                for (int64_t d = 0; d < D; ++d)
                    out[((b * N + n) * S + s) * D + d] = stored[((b * S + s) * N + n) * D + d];
    return out;
}

// The reference: logical q [B][N][Sq][D], k and v [B][KVN][Skv][D].
struct Reference {
    int64_t B, N, KVN, Sq, Skv, D;
    double scale = 1.0;
    std::vector<double> q, k, v;
    std::vector<int64_t> q_lens, kv_lens;                           // empty: full
    std::function<double(int64_t, int64_t, int64_t, int64_t)> pse;  // (b, n, i, j)
    std::function<bool(int64_t, int64_t, int64_t)> hidden;          // (b, i, j)
    std::vector<double> out, lse;

    void Compute() {
        out.assign(static_cast<size_t>(B * N * Sq * D), 0.0);
        lse.assign(static_cast<size_t>(B * N * Sq), kInf);
        for (int64_t b = 0; b < B; ++b) {
            const int64_t ql = q_lens.empty() ? Sq : q_lens[b];
            const int64_t kl = kv_lens.empty() ? Skv : kv_lens[b];
            for (int64_t n = 0; n < N; ++n) {
                const int64_t g = n / (N / KVN);
                for (int64_t i = 0; i < ql; ++i) {
                    std::vector<double> s(static_cast<size_t>(kl), -kInf);
                    double m = -kInf;
                    for (int64_t j = 0; j < kl; ++j) {
                        if (hidden && hidden(b, i, j)) continue;
                        double dot = 0;
                        for (int64_t d = 0; d < D; ++d)
                            dot += q[((b * N + n) * Sq + i) * D + d] *
                                   k[((b * KVN + g) * Skv + j) * D + d];
                        s[j] = scale * dot + (pse ? pse(b, n, i, j) : 0.0);
                        m = std::max(m, s[j]);
                    }
                    if (m == -kInf) continue;
                    double sum = 0;
                    for (int64_t j = 0; j < kl; ++j)
                        sum += std::exp(s[j] - m);
                    for (int64_t j = 0; j < kl; ++j) {
                        const double p = std::exp(s[j] - m) / sum;
                        for (int64_t d = 0; d < D; ++d)
                            out[((b * N + n) * Sq + i) * D + d] +=
                                p * v[((b * KVN + g) * Skv + j) * D + d];
                    }
                    lse[(b * N + n) * Sq + i] = m + std::log(sum);
                }
            }
        }
    }
};

void ExpectClose(const std::vector<double>& actual, const std::vector<double>& expected,
                 double tolerance) {
    ASSERT_EQ(actual.size(), expected.size());
    for (size_t i = 0; i < actual.size(); ++i) {
        if (std::isinf(expected[i])) {
            EXPECT_EQ(actual[i], expected[i]) << i;
        } else {
            EXPECT_NEAR(actual[i], expected[i], tolerance * (1 + std::fabs(expected[i]))) << i;
        }
    }
}

// One call of the operator; every parameter has CANN's suggested default.
struct Call {
    const aclTensor* query = nullptr;
    const aclTensorList* key = nullptr;
    const aclTensorList* value = nullptr;
    const aclTensor* pse = nullptr;
    const aclTensor* mask = nullptr;
    const aclIntArray* seq = nullptr;
    const aclIntArray* seq_kv = nullptr;
    // deqScale1 ... valueSharedPrefix, in the header's order.
    const aclTensor* refused[16] = {};
    const aclIntArray* shared_len = nullptr;
    int64_t heads = 1;
    double scale = 1.0;
    int64_t pre = 2147483647, next = 2147483647;
    std::string layout = "BSND";
    int64_t kv_heads = 0;
    int64_t sparse = 0, inner = 0, block_size = 0, antiquant = 0;
    bool lse_flag = false;
    const aclTensor* out = nullptr;
    const aclTensor* lse = nullptr;
    bool null_layout = false;
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;

    aclnnStatus Plan() {
        std::vector<char> text(layout.begin(), layout.end());
        text.push_back('\0');
        const aclTensor* const* r = refused;
        return aclnnFusedInferAttentionScoreV2GetWorkspaceSize(
            query, key, value, pse, mask, seq, seq_kv, r[0], r[1], r[2], r[3], r[4], r[5], r[6],
            r[7], r[8], r[9], r[10], r[11], r[12], r[13], r[14], r[15], shared_len, heads, scale,
            pre, next, null_layout ? nullptr : text.data(), kv_heads, sparse, inner, block_size,
            antiquant, lse_flag, 0, 0, out, lse, &workspace, &executor);
    }
    aclnnStatus Run() {
        const aclnnStatus rc = Plan();
        if (rc != ACLNN_SUCCESS) return rc;
        return RunPhase2(aclnnFusedInferAttentionScoreV2, workspace, executor);
    }
};

class AclnnAttention : public aclnn_test::AclnnTest {};

// A contiguous problem in layout BNSD or BSND (or BSH, the same memory as BSND).
struct Problem {
    Problem(Type type, int64_t B, int64_t N, int64_t KVN, int64_t Sq, int64_t Skv, int64_t D,
            bool bsnd, uint32_t seed)
        : type(type), bsnd(bsnd) {
        ref.B = B;
        ref.N = N;
        ref.KVN = KVN;
        ref.Sq = Sq;
        ref.Skv = Skv;
        ref.D = D;
        const auto q = Random(static_cast<size_t>(B * N * Sq * D), seed);
        const auto k = Random(static_cast<size_t>(B * KVN * Skv * D), seed + 1);
        const auto v = Random(static_cast<size_t>(B * KVN * Skv * D), seed + 2);
        ref.q = Rounded(q, type);
        ref.k = Rounded(k, type);
        ref.v = Rounded(v, type);
        qbuf = std::make_unique<Buffer>(type, Pack(q, B, N, Sq, D, bsnd));
        kbuf = std::make_unique<Buffer>(type, Pack(k, B, KVN, Skv, D, bsnd));
        vbuf = std::make_unique<Buffer>(type, Pack(v, B, KVN, Skv, D, bsnd));
        obuf = std::make_unique<Buffer>(type, std::vector<double>(q.size(), 7.0));
    }
    std::vector<int64_t> Shape(int64_t N, int64_t S) const {
        return bsnd ? std::vector<int64_t>{ref.B, S, N, ref.D}
                    : std::vector<int64_t>{ref.B, N, S, ref.D};
    }
    // Tensors for the call: layout BNSD or BSND.
    void Bind(Call* call) {
        query.get = qbuf->View(Shape(ref.N, ref.Sq));
        out.get = obuf->View(Shape(ref.N, ref.Sq));
        key = std::make_unique<List>(std::vector<aclTensor*>{kbuf->View(Shape(ref.KVN, ref.Skv))});
        value =
            std::make_unique<List>(std::vector<aclTensor*>{vbuf->View(Shape(ref.KVN, ref.Skv))});
        call->query = query.get;
        call->key = key->get;
        call->value = value->get;
        call->out = out.get;
        call->heads = ref.N;
        call->kv_heads = ref.KVN == ref.N ? 0 : ref.KVN;
        call->layout = bsnd ? "BSND" : "BNSD";
        call->scale = ref.scale;
    }
    std::vector<double> Output() const {
        return Unpack(obuf->Read(), ref.B, ref.N, ref.Sq, ref.D, bsnd);
    }

    Type type;
    bool bsnd;
    Reference ref;
    std::unique_ptr<Buffer> qbuf, kbuf, vbuf, obuf;
    Tensor query, out;
    std::unique_ptr<List> key, value;
};

double Tolerance(Type type) {
    return type == Type::kF32 ? 1e-5 : type == Type::kF16 ? 2e-3 : 1.5e-2;
}

TEST_F(AclnnAttention, BnsdFloat32WithSoftmaxLse) {
    Problem p(Type::kF32, 2, 2, 2, 3, 5, 4, false, 1);
    p.ref.scale = 0.5;
    Call call;
    p.Bind(&call);
    DeviceTensor<float> lse({2, 2, 3, 1}, std::vector<float>(12, -1), ACL_FLOAT);
    call.lse_flag = true;
    call.lse = lse.get();
    ASSERT_EQ(call.Run(), ACLNN_SUCCESS);
    p.ref.Compute();
    ExpectClose(p.Output(), p.ref.out, 1e-5);
    const std::vector<float> l = lse.Read();
    ExpectClose(std::vector<double>(l.begin(), l.end()), p.ref.lse, 1e-5);
}

TEST_F(AclnnAttention, BsndFloat16GroupedQueryHeads) {
    Problem p(Type::kF16, 1, 4, 2, 4, 6, 8, true, 2);
    p.ref.scale = 1 / std::sqrt(8.0);
    Call call;
    p.Bind(&call);
    EXPECT_EQ(call.kv_heads, 2);
    ASSERT_EQ(call.Run(), ACLNN_SUCCESS);
    p.ref.Compute();
    ExpectClose(p.Output(), p.ref.out, Tolerance(Type::kF16));
}

TEST_F(AclnnAttention, Bfloat16Bsnd) {
    Problem p(Type::kBF16, 2, 2, 1, 3, 4, 8, true, 3);
    p.ref.scale = 0.35;
    Call call;
    p.Bind(&call);
    ASSERT_EQ(call.Run(), ACLNN_SUCCESS);
    p.ref.Compute();
    ExpectClose(p.Output(), p.ref.out, Tolerance(Type::kBF16));
}

TEST_F(AclnnAttention, BshSplitsTheHiddenSizeIntoHeads) {
    Problem p(Type::kF32, 2, 2, 1, 2, 3, 4, true, 4);  // BSH: [B, S, N*D], the BSND memory
    Call call;
    p.Bind(&call);
    Tensor q(p.qbuf->View({2, 2, 8})), o(p.obuf->View({2, 2, 8}));
    List k({p.kbuf->View({2, 3, 4})}), v({p.vbuf->View({2, 3, 4})});
    call.query = q.get;
    call.out = o.get;
    call.key = k.get;
    call.value = v.get;
    call.layout = "BSH";
    call.kv_heads = 1;
    ASSERT_EQ(call.Run(), ACLNN_SUCCESS);
    p.ref.Compute();
    ExpectClose(p.Output(), p.ref.out, 1e-5);
}

TEST_F(AclnnAttention, BnsdBsndWritesTheOutputAsBsnd) {
    Problem p(Type::kF32, 2, 3, 3, 2, 4, 4, false, 5);
    Call call;
    p.Bind(&call);
    Buffer out_bsnd(Type::kF32, std::vector<double>(2 * 3 * 2 * 4, 0.0));
    Tensor o(out_bsnd.View({2, 2, 3, 4}));
    call.out = o.get;
    call.layout = "BNSD_BSND";
    ASSERT_EQ(call.Run(), ACLNN_SUCCESS);
    p.ref.Compute();
    ExpectClose(Unpack(out_bsnd.Read(), 2, 3, 2, 4, true), p.ref.out, 1e-5);
}

// llama.cpp's call: BSND views of BNSD (head-major) buffers, a float16 mask as pseShift with
// stride 0 over the heads, its rows padded past the query length, -inf where a key is hidden.
TEST_F(AclnnAttention, GgmlStylePseShiftWithBroadcastHeads) {
    const int64_t B = 1, N = 4, KVN = 2, Sq = 3, Skv = 5, D = 8, Spad = 8;
    Problem p(Type::kF16, B, N, KVN, Sq, Skv, D, false, 6);  // head-major storage
    p.ref.scale = 1 / std::sqrt(8.0);
    Tensor q(p.qbuf->View({B, Sq, N, D}, {N * Sq * D, D, Sq * D, 1}));
    Tensor o(p.obuf->View({B, Sq, N, D}, {N * Sq * D, D, Sq * D, 1}));
    List k({p.kbuf->View({B, Skv, KVN, D}, {KVN * Skv * D, D, Skv * D, 1})});
    List v({p.vbuf->View({B, Skv, KVN, D}, {KVN * Skv * D, D, Skv * D, 1})});
    std::vector<double> mask(static_cast<size_t>(Spad * Skv));
    const std::vector<double> bias = Random(mask.size(), 60);
    for (int64_t i = 0; i < Spad; ++i)
        for (int64_t j = 0; j < Skv; ++j)  // causal over the last Sq keys, plus a bias
            mask[i * Skv + j] = j > i + (Skv - Sq) ? -kInf : bias[i * Skv + j];
    Buffer pse(Type::kF16, mask);
    Tensor pse_view(pse.View({1, N, Sq, Skv}, {Spad * Skv, 0, Skv, 1}));
    Call call;
    call.query = q.get;
    call.key = k.get;
    call.value = v.get;
    call.out = o.get;
    call.pse = pse_view.get;
    call.heads = N;
    call.kv_heads = KVN;
    call.scale = p.ref.scale;
    call.pre = call.next = 65535;
    call.inner = 2;
    ASSERT_EQ(call.Run(), ACLNN_SUCCESS);
    const std::vector<double> rounded = Rounded(mask, Type::kF16);
    Reference plain = p.ref;
    plain.Compute();
    p.ref.pse = [&](int64_t, int64_t, int64_t i, int64_t j) { return rounded[i * Skv + j]; };
    p.ref.Compute();
    const std::vector<double> got = p.obuf->Read();  // head-major, as the reference
    ExpectClose(got, p.ref.out, Tolerance(Type::kF16));
    double change = 0;
    for (size_t i = 0; i < got.size(); ++i)
        change = std::max(change, std::fabs(got[i] - plain.out[i]));
    EXPECT_GT(change, 0.05);  // the bias matters
}

TEST_F(AclnnAttention, PsePerBatchAndHead) {
    const int64_t B = 2, N = 2, Sq = 2, Skv = 3;
    Problem p(Type::kF32, B, N, N, Sq, Skv, 4, true, 7);
    Call call;
    p.Bind(&call);
    const std::vector<double> bias = Random(static_cast<size_t>(B * N * Sq * Skv), 70);
    Buffer pse(Type::kF32, bias);
    Tensor pse_view(pse.View({B, N, Sq, Skv}));
    call.pse = pse_view.get;
    ASSERT_EQ(call.Run(), ACLNN_SUCCESS);
    p.ref.pse = [&](int64_t b, int64_t n, int64_t i, int64_t j) {
        return bias[((b * N + n) * Sq + i) * Skv + j];
    };
    p.ref.Compute();
    ExpectClose(p.Output(), p.ref.out, 1e-5);
}

TEST_F(AclnnAttention, MaskWithSparseMode0AndTokenBand) {
    const int64_t B = 2, Sq = 4, Skv = 6;
    Problem p(Type::kF32, B, 2, 2, Sq, Skv, 4, false, 8);
    Call call;
    p.Bind(&call);
    // (B, 1, Q_S, KV_S), a random pattern; preTokens 2, nextTokens 1 around the diagonal.
    std::vector<uint8_t> bits(static_cast<size_t>(B * Sq * Skv));
    const std::vector<double> r = Random(bits.size(), 80);
    for (size_t i = 0; i < bits.size(); ++i)
        bits[i] = r[i] > 0.4 ? 1 : 0;
    DeviceTensor<uint8_t> mask({B, 1, Sq, Skv}, bits, ACL_BOOL);
    call.mask = mask.get();
    call.pre = 2;
    call.next = 1;
    DeviceTensor<float> lse({B, 2, Sq, 1}, std::vector<float>(B * 2 * Sq, 0), ACL_FLOAT);
    call.lse_flag = true;
    call.lse = lse.get();
    ASSERT_EQ(call.Run(), ACLNN_SUCCESS);
    p.ref.hidden = [&](int64_t b, int64_t i, int64_t j) {
        return bits[(b * Sq + i) * Skv + j] != 0 || j - i > 1 || i - j > 2;
    };
    p.ref.Compute();
    ExpectClose(p.Output(), p.ref.out, 1e-5);
    const std::vector<float> l = lse.Read();
    ExpectClose(std::vector<double>(l.begin(), l.end()), p.ref.lse, 1e-5);
}

TEST_F(AclnnAttention, SparseMode1UsesTheMaskAloneAndInt8Masks) {
    const int64_t Sq = 3, Skv = 4;
    Problem p(Type::kF32, 1, 1, 1, Sq, Skv, 4, true, 9);
    Call call;
    p.Bind(&call);
    const std::vector<int8_t> bits = {0, 1, 0, 1, 1, 0, 0, 0, 0, 0, 1, 0};
    DeviceTensor<int8_t> mask({Sq, Skv}, bits, ACL_INT8);
    call.mask = mask.get();
    call.sparse = 1;
    call.pre = call.next = 0;  // ignored by sparseMode 1
    ASSERT_EQ(call.Run(), ACLNN_SUCCESS);
    p.ref.hidden = [&](int64_t, int64_t i, int64_t j) { return bits[i * Skv + j] != 0; };
    p.ref.Compute();
    ExpectClose(p.Output(), p.ref.out, 1e-5);
}

TEST_F(AclnnAttention, SparseModes2To4ComputeTheirCausalPatterns) {
    const int64_t Sq = 4, Skv = 6;
    std::vector<uint8_t> triangle(2048 * 2048);
    for (int64_t i = 0; i < 2048; ++i)
        for (int64_t j = i + 1; j < 2048; ++j)
            triangle[i * 2048 + j] = 1;
    DeviceTensor<uint8_t> mask({1, 2048, 2048}, triangle, ACL_BOOL);
    struct Case {
        int64_t mode, pre, next;
        std::function<bool(int64_t, int64_t)> hidden;
    } cases[] = {
        {2, 0, 0, [](int64_t i, int64_t j) { return j > i; }},
        {3, 0, 0, [](int64_t i, int64_t j) { return j > i + 2; }},
        {4, 1, 0, [](int64_t i, int64_t j) { return j - i - 2 > 0 || j - i - 2 < -1; }},
    };
    for (const Case& c : cases) {
        Problem p(Type::kF32, 1, 2, 1, Sq, Skv, 4, true, 10);
        Call call;
        p.Bind(&call);
        call.mask = mask.get();
        call.sparse = c.mode;
        call.pre = c.pre;
        call.next = c.next;
        ASSERT_EQ(call.Run(), ACLNN_SUCCESS) << c.mode;
        p.ref.hidden = [&](int64_t, int64_t i, int64_t j) { return c.hidden(i, j); };
        p.ref.Compute();
        ExpectClose(p.Output(), p.ref.out, 1e-5);
    }
}

TEST_F(AclnnAttention, ActualSequenceLengthsLeaveInvalidRowsZero) {
    Problem p(Type::kF32, 2, 2, 1, 3, 5, 4, false, 11);
    Call call;
    p.Bind(&call);
    IntArray seq({2, 3}), seq_kv({4, 2});
    call.seq = seq.get;
    call.seq_kv = seq_kv.get;
    DeviceTensor<float> lse({2, 2, 3, 1}, std::vector<float>(12, 0), ACL_FLOAT);
    call.lse_flag = true;
    call.lse = lse.get();
    ASSERT_EQ(call.Run(), ACLNN_SUCCESS);
    p.ref.q_lens = {2, 3};
    p.ref.kv_lens = {4, 2};
    p.ref.Compute();
    ExpectClose(p.Output(), p.ref.out, 1e-5);
    const std::vector<float> l = lse.Read();
    ExpectClose(std::vector<double>(l.begin(), l.end()), p.ref.lse, 1e-5);
    EXPECT_TRUE(std::isinf(l[2]) && l[2] > 0);  // batch 0, head 0, row 2: past the length
}

TEST_F(AclnnAttention, OneLengthAppliesToEveryBatch) {
    Problem p(Type::kF16, 3, 1, 1, 2, 4, 8, true, 12);
    Call call;
    p.Bind(&call);
    IntArray seq_kv({3});
    call.seq_kv = seq_kv.get;
    ASSERT_EQ(call.Run(), ACLNN_SUCCESS);
    p.ref.kv_lens = {3, 3, 3};
    p.ref.Compute();
    ExpectClose(p.Output(), p.ref.out, Tolerance(Type::kF16));
}

TEST_F(AclnnAttention, KeyValuePerBatchWithDifferentLengths) {
    const int64_t B = 2, N = 2, Sq = 2, D = 4;
    const int64_t lens[2] = {3, 5};
    Problem p(Type::kF32, B, N, N, Sq, 5, D, false, 13);
    Call call;
    p.Bind(&call);
    // Batch b's keys: the first lens[b] positions of its slice of the [B, N, 5, D] buffer.
    List k({p.kbuf->View({1, N, lens[0], D}, {N * 5 * D, 5 * D, D, 1}, 0),
            p.kbuf->View({1, N, lens[1], D}, {N * 5 * D, 5 * D, D, 1}, N * 5 * D)});
    List v({p.vbuf->View({1, N, lens[0], D}, {N * 5 * D, 5 * D, D, 1}, 0),
            p.vbuf->View({1, N, lens[1], D}, {N * 5 * D, 5 * D, D, 1}, N * 5 * D)});
    call.key = k.get;
    call.value = v.get;
    ASSERT_EQ(call.Run(), ACLNN_SUCCESS);
    p.ref.kv_lens = {3, 5};
    p.ref.Compute();
    ExpectClose(p.Output(), p.ref.out, 1e-5);
}

TEST_F(AclnnAttention, IncrementalStepWithABatchMask) {
    const int64_t B = 2, Skv = 7;
    Problem p(Type::kF16, B, 4, 1, 1, Skv, 16, true, 14);
    Call call;
    p.Bind(&call);
    std::vector<uint8_t> bits(static_cast<size_t>(B * Skv));
    for (int64_t j = 0; j < Skv; ++j) {
        bits[j] = j >= 5;        // batch 0 attends 5 keys
        bits[Skv + j] = j == 2;  // batch 1 all but one
    }
    DeviceTensor<uint8_t> mask({B, Skv}, bits, ACL_UINT8);
    call.mask = mask.get();
    IntArray seq({9});  // unused with one query row
    call.seq = seq.get;
    call.sparse = 3;  // unused with one query row
    ASSERT_EQ(call.Run(), ACLNN_SUCCESS);
    p.ref.hidden = [&](int64_t b, int64_t, int64_t j) { return bits[b * Skv + j] != 0; };
    p.ref.Compute();
    ExpectClose(p.Output(), p.ref.out, Tolerance(Type::kF16));
}

TEST_F(AclnnAttention, FullyMaskedRowIsZeroWithInfiniteLse) {
    Problem p(Type::kF32, 1, 1, 1, 2, 3, 4, true, 15);
    Call call;
    p.Bind(&call);
    DeviceTensor<uint8_t> mask({2, 3}, {1, 1, 1, 0, 1, 0}, ACL_BOOL);
    call.mask = mask.get();
    call.inner = 2;
    DeviceTensor<float> lse({1, 1, 2, 1}, {0, 0}, ACL_FLOAT);
    call.lse_flag = true;
    call.lse = lse.get();
    ASSERT_EQ(call.Run(), ACLNN_SUCCESS);
    const std::vector<double> out = p.Output();
    for (int d = 0; d < 4; ++d)
        EXPECT_EQ(out[d], 0.0);
    const std::vector<float> l = lse.Read();
    EXPECT_TRUE(std::isinf(l[0]) && l[0] > 0);
    EXPECT_TRUE(std::isfinite(l[1]));
}

TEST_F(AclnnAttention, EmptyKeysGiveZerosAndAnEmptyQueryDoesNothing) {
    Problem p(Type::kF32, 1, 2, 2, 2, 0, 4, false, 16);
    Call call;
    p.Bind(&call);
    ASSERT_EQ(call.Run(), ACLNN_SUCCESS);
    for (double x : p.obuf->Read())
        EXPECT_EQ(x, 0.0);
    Problem e(Type::kF32, 1, 2, 2, 0, 3, 4, false, 17);
    Call empty;
    e.Bind(&empty);
    EXPECT_EQ(empty.Run(), ACLNN_SUCCESS);
}

TEST_F(AclnnAttention, LongKeysSpanSeveralChunksAndHeadsRunInParallel) {
    Problem p(Type::kF32, 2, 8, 2, 37, 301, 32, true, 18);
    p.ref.scale = 1 / std::sqrt(32.0);
    Call call;
    p.Bind(&call);
    ASSERT_EQ(call.Run(), ACLNN_SUCCESS);
    p.ref.Compute();
    ExpectClose(p.Output(), p.ref.out, 2e-5);
}

// ---- refused inputs ------------------------------------------------------------------------

class AclnnAttentionChecks : public AclnnAttention {
 protected:
    AclnnAttentionChecks() : p_(Type::kF16, 2, 4, 2, 3, 5, 8, true, 20) { p_.Bind(&call_); }
    Problem p_;
    Call call_;
};

TEST_F(AclnnAttentionChecks, TheBaseCallIsAccepted) {
    EXPECT_EQ(call_.Run(), ACLNN_SUCCESS);
}

TEST_F(AclnnAttentionChecks, NullRequiredArguments) {
    Call c = call_;
    c.query = nullptr;
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_NULLPTR);
    c = call_;
    c.key = nullptr;
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_NULLPTR);
    c = call_;
    c.value = nullptr;
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_NULLPTR);
    c = call_;
    c.out = nullptr;
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_NULLPTR);
    c = call_;
    c.null_layout = true;
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_NULLPTR);
    c = call_;
    c.lse_flag = true;  // and no softmaxLse
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_NULLPTR);
}

TEST_F(AclnnAttentionChecks, UnsupportedLayouts) {
    for (const char* layout : {"TND", "NTD_TND", "BSH_NBSD", "SBH", "bsnd", ""}) {
        Call c = call_;
        c.layout = layout;
        EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_INVALID) << layout;
    }
}

TEST_F(AclnnAttentionChecks, HeadCountsMustFitTheShapes) {
    Call c = call_;
    c.heads = 2;  // query has 4 heads under BSND
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_INVALID);
    c = call_;
    c.kv_heads = 0;  // key has 2 heads, numKeyValueHeads 0 means 4
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_INVALID);
    c = call_;
    c.kv_heads = 3;  // does not divide 4
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_INVALID);
    c = call_;
    c.heads = 0;
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_INVALID);
    c = call_;
    c.kv_heads = -1;
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_INVALID);
    // BSH: a hidden size of 32 does not split into 3 heads.
    Tensor q(p_.qbuf->View({2, 3, 32})), o(p_.obuf->View({2, 3, 32}));
    List k({p_.kbuf->View({2, 5, 16})}), v({p_.vbuf->View({2, 5, 16})});
    c = call_;
    c.layout = "BSH";
    c.query = q.get;
    c.out = o.get;
    c.key = k.get;
    c.value = v.get;
    c.heads = 4;
    c.kv_heads = 2;
    EXPECT_EQ(c.Plan(), ACLNN_SUCCESS);
    aclDestroyAclOpExecutor(c.executor);
    c.heads = 3;
    c.kv_heads = 0;
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnAttentionChecks, KeyValueAndOutputShapesAndTypes) {
    Call c = call_;
    List k_dim({p_.kbuf->View({2, 5, 2, 4})});  // head dim 4, query's is 8
    List v_dim({p_.vbuf->View({2, 5, 2, 4})});
    c.key = k_dim.get;
    c.value = v_dim.get;
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_INVALID);
    c = call_;
    List v_short({p_.vbuf->View({2, 4, 2, 8})});  // value shorter than key
    c.value = v_short.get;
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_INVALID);
    c = call_;
    List k_batch({p_.kbuf->View({1, 5, 2, 8})}), v_batch({p_.vbuf->View({1, 5, 2, 8})});
    c.key = k_batch.get;
    c.value = v_batch.get;
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_INVALID);
    c = call_;
    List k_three(
        {p_.kbuf->View({1, 5, 2, 8}), p_.kbuf->View({1, 5, 2, 8}), p_.kbuf->View({1, 5, 2, 8})});
    List v_three(
        {p_.vbuf->View({1, 5, 2, 8}), p_.vbuf->View({1, 5, 2, 8}), p_.vbuf->View({1, 5, 2, 8})});
    c.key = k_three.get;  // three tensors for two batches
    c.value = v_three.get;
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_INVALID);
    c = call_;
    List k_rank({p_.kbuf->View({2, 5, 16})}), v_rank({p_.vbuf->View({2, 5, 16})});
    c.key = k_rank.get;
    c.value = v_rank.get;
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_INVALID);
    c = call_;
    Tensor o_shape(p_.obuf->View({2, 3, 4, 4}));
    c.out = o_shape.get;
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_INVALID);
    c = call_;
    Buffer f32(Type::kF32, std::vector<double>(2 * 3 * 4 * 8, 0));
    Tensor o_type(f32.View({2, 3, 4, 8}));
    c.out = o_type.get;
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_INVALID);
    DeviceTensor<int8_t> i8({2, 5, 2, 8}, std::vector<int8_t>(160, 0), ACL_INT8);
    const int64_t storage[1] = {160};
    const std::vector<int64_t> shape = {2, 5, 2, 8};
    const std::vector<int64_t> strides = aclnn_test::ContiguousStrides(shape);
    List k_i8({aclCreateTensor(shape.data(), 4, ACL_INT8, strides.data(), 0, ACL_FORMAT_ND, storage,
                               1, i8.dev())});
    List v_i8({aclCreateTensor(shape.data(), 4, ACL_INT8, strides.data(), 0, ACL_FORMAT_ND, storage,
                               1, i8.dev())});
    c = call_;
    c.key = k_i8.get;
    c.value = v_i8.get;
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_INVALID);  // antiquantisation
}

TEST_F(AclnnAttentionChecks, PseShiftAndMaskShapes) {
    Buffer pse(Type::kF16, std::vector<double>(2 * 4 * 3 * 5, 0));
    Tensor pse_heads(pse.View({1, 2, 3, 5}));  // 2 heads, the query has 4
    Call c = call_;
    c.pse = pse_heads.get;
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_INVALID);
    Tensor pse_short(pse.View({1, 4, 3, 4}));  // fewer key positions than the keys
    c.pse = pse_short.get;
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_INVALID);
    Tensor pse_rank(pse.View({4, 3, 5}));
    c.pse = pse_rank.get;
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_INVALID);
    Buffer pse32(Type::kF32, std::vector<double>(4 * 3 * 5, 0));
    Tensor pse_type(pse32.View({1, 4, 3, 5}));
    c.pse = pse_type.get;
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_INVALID);
    Tensor pse_ok(pse.View({2, 4, 3, 5}));
    c.pse = pse_ok.get;
    EXPECT_EQ(c.Plan(), ACLNN_SUCCESS);
    aclDestroyAclOpExecutor(c.executor);

    c = call_;
    DeviceTensor<uint8_t> short_mask({3, 4}, std::vector<uint8_t>(12, 0), ACL_BOOL);
    c.mask = short_mask.get();
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_INVALID);
    DeviceTensor<uint8_t> head_mask({2, 4, 3, 5}, std::vector<uint8_t>(120, 0), ACL_BOOL);
    c.mask = head_mask.get();
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_INVALID);
    DeviceTensor<float> float_mask({3, 5}, std::vector<float>(15, 0), ACL_FLOAT);
    c.mask = float_mask.get();
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_INVALID);
    DeviceTensor<uint8_t> padded({16, 32}, std::vector<uint8_t>(512, 0), ACL_BOOL);
    c.mask = padded.get();  // Q_S and KV_S rounded up
    EXPECT_EQ(c.Plan(), ACLNN_SUCCESS);
    aclDestroyAclOpExecutor(c.executor);
    c.sparse = 3;  // needs the 2048 x 2048 pattern
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnAttentionChecks, SparseModesAndInnerPrecise) {
    Call c = call_;
    for (int64_t mode : {1, 2, 3, 4}) {  // each needs a mask
        c.sparse = mode;
        EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_INVALID) << mode;
    }
    for (int64_t mode : {-1, 5, 6, 7, 8, 9}) {
        c.sparse = mode;
        EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_INVALID) << mode;
    }
    c = call_;
    c.inner = 4;
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_INVALID);
    c.inner = 3;
    EXPECT_EQ(c.Plan(), ACLNN_SUCCESS);
    aclDestroyAclOpExecutor(c.executor);
}

TEST_F(AclnnAttentionChecks, ActualLengthsOutOfRange) {
    Call c = call_;
    IntArray too_long({4, 1});  // the query has 3 rows
    c.seq = too_long.get;
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_INVALID);
    c = call_;
    IntArray negative({-1});
    c.seq_kv = negative.get;
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_INVALID);
    c = call_;
    IntArray kv_long({5, 6});
    c.seq_kv = kv_long.get;
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_INVALID);
    c = call_;
    IntArray count({1, 1, 1});  // more than the batch: the first two count
    c.seq_kv = count.get;
    EXPECT_EQ(c.Plan(), ACLNN_SUCCESS);
    aclDestroyAclOpExecutor(c.executor);
    c = call_;
    IntArray empty(std::vector<int64_t>{});  // as an absent array
    c.seq = empty.get;
    EXPECT_EQ(c.Plan(), ACLNN_SUCCESS);
    aclDestroyAclOpExecutor(c.executor);
}

TEST_F(AclnnAttentionChecks, SoftmaxLseShapeAndType) {
    Call c = call_;
    c.lse_flag = true;
    DeviceTensor<float> wrong({2, 4, 3}, std::vector<float>(24, 0), ACL_FLOAT);
    c.lse = wrong.get();
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_INVALID);
    Buffer half(Type::kF16, std::vector<double>(24, 0));
    Tensor wrong_type(half.View({2, 4, 3, 1}));
    c.lse = wrong_type.get;
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_INVALID);
    // Without the flag softmaxLse is left alone, whatever it is.
    c.lse_flag = false;
    EXPECT_EQ(c.Plan(), ACLNN_SUCCESS);
    aclDestroyAclOpExecutor(c.executor);
}

TEST_F(AclnnAttentionChecks, EveryUnimplementedOptionalInputIsRefusedByName) {
    DeviceTensor<float> any({1}, {1.0f}, ACL_FLOAT);
    for (int i = 0; i < 16; ++i) {
        Call c = call_;
        c.refused[i] = any.get();
        EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_INVALID) << i;
        const char* message = aclGetRecentErrMsg();
        ASSERT_NE(message, nullptr);
        EXPECT_NE(std::string(message).find("not implemented by openacl"), std::string::npos)
            << message;
    }
    Call c = call_;
    IntArray prefix({2});
    c.shared_len = prefix.get;
    EXPECT_EQ(c.Plan(), ACLNN_ERR_PARAM_INVALID);
    IntArray none(std::vector<int64_t>{});
    c.shared_len = none.get;
    EXPECT_EQ(c.Plan(), ACLNN_SUCCESS);
    aclDestroyAclOpExecutor(c.executor);
}

}  // namespace
