// Attention for inference (ops/attention.h): streaming softmax over chunks of keys, one unit of
// work per (batch, key/value head, tile of the rows of the query heads sharing it).
#include "ops/attention.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <thread>

#include "backend/cpu/executor.h"
#include "ops/dtype.h"
#include "ops/element.h"

namespace openacl::ops {
namespace {

constexpr int64_t kTileRows = 16;  // query rows a unit computes together
constexpr int64_t kChunk = 64;     // key positions converted to float at a time
constexpr int64_t kMaxBlocks = 64;
constexpr int64_t kBandLimit = int64_t{1} << 50;  // |before|, |after| beyond this: no limit
constexpr float kInf = std::numeric_limits<float>::infinity();

struct Plan {
    int64_t tile = 1;       // rows per unit
    int64_t tiles = 0;      // units per (batch, key/value head)
    int64_t units = 0;      // batch * kv_heads * tiles
    int64_t blocks = 0;     // scratch areas, and blocks of the parallel loop
    int64_t per_block = 0;  // units per block
    int64_t block_floats = 0;
};

int64_t RoundUp(int64_t n, int64_t to) {
    return (n + to - 1) / to * to;
}

// A unit's rows are taken from the query heads sharing one key/value head, head after head
// (decoding, with one row per head, converts each key once for the whole group).
Plan PlanFor(int64_t batch, int64_t kv_heads, int64_t group_rows, int64_t dim, int64_t v_dim) {
    Plan plan;
    // Tiles of up to kTileRows rows, smaller when that leaves too few units to keep every
    // hardware thread busy (the same answer in both phases: it depends on sizes alone).
    static const int64_t threads = std::max(1u, std::thread::hardware_concurrency());
    const int64_t rows = batch * kv_heads * group_rows;
    const int64_t wanted = (rows + threads - 1) / threads;
    plan.tile = std::clamp<int64_t>(std::min(group_rows, wanted), 1, kTileRows);
    plan.tiles = (group_rows + plan.tile - 1) / plan.tile;
    plan.units = batch * kv_heads * plan.tiles;
    plan.blocks = std::min(plan.units, kMaxBlocks);
    plan.per_block = plan.blocks > 0 ? (plan.units + plan.blocks - 1) / plan.blocks : 0;
    if (plan.per_block > 0) plan.blocks = (plan.units + plan.per_block - 1) / plan.per_block;
    // q rows, accumulators, running maxima and sums; a chunk of keys and values, its scores
    // and bias.
    const int64_t floats = plan.tile * (dim + v_dim + 2) + kChunk * (dim + v_dim + 2);
    plan.block_floats = RoundUp(floats, 16);  // 64 bytes
    return plan;
}

// a . b; the reduction is vectorised (OpenMP simd: the sum may be reassociated).
float Dot(const float* a, const float* b, int64_t n) {
    float sum = 0.0f;
#pragma omp simd reduction(+ : sum)
    for (int64_t i = 0; i < n; ++i)
        sum += a[i] * b[i];
    return sum;
}

// acc += p * v, acc *= scale: vectorised loops.
void AddScaled(float* acc, float p, const float* v, int64_t n) {
#pragma omp simd
    for (int64_t i = 0; i < n; ++i)
        acc[i] += p * v[i];
}
void Scale(float* acc, float scale, int64_t n) {
#pragma omp simd
    for (int64_t i = 0; i < n; ++i)
        acc[i] *= scale;
}

class UnitRunner {
 public:
    UnitRunner(const AttentionArgs& args, const Plan& plan, float* scratch)
        : a_(args), plan_(plan) {
        q_ = scratch;
        acc_ = q_ + plan.tile * args.dim;
        max_ = acc_ + plan.tile * args.v_dim;
        sum_ = max_ + plan.tile;
        k_ = sum_ + plan.tile;
        v_ = k_ + kChunk * args.dim;
        score_ = v_ + kChunk * args.v_dim;
        bias_ = score_ + kChunk;
        q_size_ = static_cast<int64_t>(DtypeSize(args.q_dtype));
        out_size_ = static_cast<int64_t>(DtypeSize(args.out_dtype));
        kv_size_ = static_cast<int64_t>(DtypeSize(args.kv_dtype));
        pse_size_ = args.pse != nullptr ? static_cast<int64_t>(DtypeSize(args.pse_dtype)) : 0;
        before_ = std::clamp(args.before, -kBandLimit, kBandLimit);
        after_ = std::clamp(args.after, -kBandLimit, kBandLimit);
    }

    void Run(int64_t unit) {
        const int64_t group = a_.heads / a_.kv_heads;
        const int64_t tile = unit % plan_.tiles;
        const int64_t kvh = unit / plan_.tiles % a_.kv_heads;
        const int64_t b = unit / plan_.tiles / a_.kv_heads;
        const AttentionBatch& src = a_.batches[b];
        const int64_t r0 = tile * plan_.tile;
        const int64_t rows = std::min(plan_.tile, group * a_.q_rows - r0);
        const int64_t kv_len = src.kv_len;
        int64_t low = INT64_MAX, high = -1;  // the valid rows' positions
        for (int64_t r = 0; r < rows; ++r) {
            const int64_t n = kvh * group + (r0 + r) / a_.q_rows, i = (r0 + r) % a_.q_rows;
            head_[r] = n;
            pos_[r] = i;
            valid_[r] = i < src.q_len;
            if (!valid_[r]) continue;
            low = std::min(low, i);
            high = std::max(high, i);
            const char* row =
                a_.q + (b * a_.q_strides[0] + n * a_.q_strides[1] + i * a_.q_strides[2]) * q_size_;
            Load<float>(row, a_.q_strides[3] * q_size_, a_.q_dtype, a_.dim, q_ + r * a_.dim);
            max_[r] = -kInf;
            sum_[r] = 0.0f;
            std::fill_n(acc_ + r * a_.v_dim, a_.v_dim, 0.0f);
        }
        // The keys some row of the tile may attend.
        int64_t first = 0, last = high >= 0 ? kv_len : 0;  // [first, last)
        const int64_t shift = a_.right_down ? kv_len - src.q_len : 0;
        if (a_.band && high >= 0) {
            first = std::max<int64_t>(first, low + shift - before_);
            last = std::min<int64_t>(last, high + shift + after_ + 1);
        }
        for (int64_t c0 = first; c0 < last; c0 += kChunk) {
            const int64_t count = std::min(kChunk, last - c0);
            LoadChunk(src, kvh, c0, count);
            for (int64_t r = 0; r < rows; ++r) {
                if (valid_[r]) Accumulate(b, head_[r], pos_[r], r, c0, count, shift);
            }
        }
        for (int64_t r = 0; r < rows; ++r)
            Finish(b, head_[r], pos_[r], r, valid_[r]);
    }

 private:
    void LoadChunk(const AttentionBatch& src, int64_t kvh, int64_t c0, int64_t count) {
        for (int64_t j = 0; j < count; ++j) {
            const char* k =
                src.k + (kvh * src.k_strides[0] + (c0 + j) * src.k_strides[1]) * kv_size_;
            Load<float>(k, src.k_strides[2] * kv_size_, a_.kv_dtype, a_.dim, k_ + j * a_.dim);
            const char* v =
                src.v + (kvh * src.v_strides[0] + (c0 + j) * src.v_strides[1]) * kv_size_;
            Load<float>(v, src.v_strides[2] * kv_size_, a_.kv_dtype, a_.v_dim, v_ + j * a_.v_dim);
        }
    }

    // Folds keys [c0, c0 + count) into row i's running maximum, sum and weighted values.
    void Accumulate(int64_t b, int64_t n, int64_t i, int64_t r, int64_t c0, int64_t count,
                    int64_t shift) {
        const float scale = static_cast<float>(a_.scale);
        const float* q = q_ + r * a_.dim;
        if (a_.pse != nullptr) {
            const char* p = a_.pse + (b * a_.pse_strides[0] + n * a_.pse_strides[1] +
                                      i * a_.pse_strides[2] + c0 * a_.pse_strides[3]) *
                                         pse_size_;
            Load<float>(p, a_.pse_strides[3] * pse_size_, a_.pse_dtype, count, bias_);
        }
        const char* mask = a_.mask == nullptr
                               ? nullptr
                               : a_.mask + b * a_.mask_strides[0] + i * a_.mask_strides[1] +
                                     c0 * a_.mask_strides[2];
        float chunk_max = -kInf;
        for (int64_t j = 0; j < count; ++j) {
            bool attend = true;
            if (a_.band) {
                const int64_t d = c0 + j - i - shift;
                attend = d >= -before_ && d <= after_;
            }
            if (attend && mask != nullptr) attend = mask[j * a_.mask_strides[2]] == 0;
            float s = -kInf;
            if (attend) {
                s = scale * Dot(q, k_ + j * a_.dim, a_.dim);
                if (a_.pse != nullptr) s += bias_[j];
                if (s > chunk_max) chunk_max = s;
                if (std::isnan(s)) chunk_max = s;  // NaN propagates to the row
            }
            score_[j] = s;
        }
        if (chunk_max == -kInf) return;  // nothing attended in this chunk
        float& m = max_[r];
        float& l = sum_[r];
        float* acc = acc_ + r * a_.v_dim;
        const float next = std::isnan(chunk_max) ? chunk_max : std::max(m, chunk_max);
        if (next != m) {
            const float rescale = std::exp(m - next);  // 0 when m is -inf
            l *= rescale;
            Scale(acc, rescale, a_.v_dim);
            m = next;
        }
        for (int64_t j = 0; j < count; ++j) {
            if (score_[j] == -kInf) continue;
            const float p = std::exp(score_[j] - m);
            l += p;
            AddScaled(acc, p, v_ + j * a_.v_dim, a_.v_dim);
        }
    }

    void Finish(int64_t b, int64_t n, int64_t i, int64_t r, bool valid) {
        float* acc = acc_ + r * a_.v_dim;
        float lse = kInf;
        if (valid && (sum_[r] > 0.0f || std::isnan(sum_[r]))) {
            Scale(acc, 1.0f / sum_[r], a_.v_dim);
            lse = max_[r] + std::log(sum_[r]);
        } else {
            std::fill_n(acc, a_.v_dim, 0.0f);
        }
        char* out =
            a_.out +
            (b * a_.out_strides[0] + n * a_.out_strides[1] + i * a_.out_strides[2]) * out_size_;
        Store<float>(acc, a_.v_dim, out, a_.out_strides[3] * out_size_, a_.out_dtype);
        if (a_.lse != nullptr) {
            a_.lse[b * a_.lse_strides[0] + n * a_.lse_strides[1] + i * a_.lse_strides[2]] = lse;
        }
    }

    const AttentionArgs& a_;
    const Plan& plan_;
    float *q_, *acc_, *max_, *sum_, *k_, *v_, *score_, *bias_;
    int64_t q_size_, out_size_, kv_size_, pse_size_;
    int64_t before_, after_;
    int64_t head_[kTileRows], pos_[kTileRows];  // each row's query head and position
    bool valid_[kTileRows];
};

}  // namespace

size_t AttentionScratchBytes(int64_t batch, int64_t heads, int64_t kv_heads, int64_t q_rows,
                             int64_t dim, int64_t v_dim) {
    if (kv_heads <= 0) return 0;
    const Plan plan = PlanFor(batch, kv_heads, heads / kv_heads * q_rows, dim, v_dim);
    return static_cast<size_t>(plan.blocks * plan.block_floats) * sizeof(float);
}

void RunAttention(const AttentionArgs& args, void* scratch) {
    if (args.kv_heads <= 0) return;
    const Plan plan = PlanFor(args.batch, args.kv_heads, args.heads / args.kv_heads * args.q_rows,
                              args.dim, args.v_dim);
    if (plan.units <= 0) return;
    auto block = [&](int64_t index) {
        UnitRunner runner(args, plan, static_cast<float*>(scratch) + index * plan.block_floats);
        const int64_t end = std::min(plan.units, (index + 1) * plan.per_block);
        for (int64_t unit = index * plan.per_block; unit < end; ++unit)
            runner.Run(unit);
    };
    cpu::Executor* executor = cpu::Executor::Current();
    if (plan.blocks > 1 && executor != nullptr) {
        const cpu::ParallelStatus status = executor->ParallelFor(
            static_cast<uint32_t>(plan.blocks), [&](uint32_t i) { block(int64_t{i}); });
        if (!status.rejected()) return;
    }
    for (int64_t i = 0; i < plan.blocks; ++i)
        block(i);
}

}  // namespace openacl::ops
