// Scaled dot-product attention for inference (aclnnFusedInferAttentionScoreV2): for each batch
// b, query head n and query row i,
//     out[b, n, i] = softmax_j(scale * q[b, n, i] . k[b, g(n), j] + pse[b, n, i, j]) . v[b, g(n),
//     j]
// over the key positions j that are not masked, where g(n) = n / (heads / kv_heads) is the
// key/value head a query head shares (grouped-query attention). Values are read from any
// strided view of float16, bfloat16 or float32 and computed in float32 with float
// accumulation; the softmax is the streaming ("online") form, so memory does not grow with the
// key length. A row with no unmasked key (or past its batch's query length) is written as
// zeros with log-sum-exp +inf, CANN's mark of an invalid row. Work is split over (batch,
// key/value head, tile of the rows of its query heads) units across the executor's idle
// workers, so the heads sharing a key/value head convert each key once per tile.
#pragma once

#include <cstddef>
#include <cstdint>

#include "acl/acl_base.h"

namespace openacl::ops {

// One batch's key and value: the element at (kv head 0, position 0, column 0) and element
// strides for (kv head, position, column); and how many query rows and key positions count.
struct AttentionBatch {
    const char* k = nullptr;
    const char* v = nullptr;
    int64_t k_strides[3] = {};
    int64_t v_strides[3] = {};
    int64_t q_len = 0;   // rows at or past it are invalid
    int64_t kv_len = 0;  // keys at or past it are not attended
};

struct AttentionArgs {
    int64_t batch = 0, heads = 0, kv_heads = 0;
    int64_t q_rows = 0;  // query rows per (batch, head)
    int64_t dim = 0;     // of query and key
    int64_t v_dim = 0;   // of value and output
    double scale = 1.0;

    // Element strides for (batch, head, row, column).
    const char* q = nullptr;
    aclDataType q_dtype = ACL_FLOAT16;
    int64_t q_strides[4] = {};
    char* out = nullptr;
    aclDataType out_dtype = ACL_FLOAT16;
    int64_t out_strides[4] = {};

    const AttentionBatch* batches = nullptr;  // `batch` of them
    aclDataType kv_dtype = ACL_FLOAT16;

    // Optional additive bias (batch, head, row, key position); a stride 0 broadcasts.
    const char* pse = nullptr;
    aclDataType pse_dtype = ACL_FLOAT16;
    int64_t pse_strides[4] = {};
    // Optional mask of one-byte elements (batch, row, key position): non-zero hides the key.
    const char* mask = nullptr;
    int64_t mask_strides[3] = {};
    // Optional band: key j is attended from row i only when
    //     -before <= j - i - shift <= after,  shift = right_down ? kv_len - q_len : 0.
    bool band = false;
    bool right_down = false;
    int64_t before = 0, after = 0;

    // Optional float32 log-sum-exp of each row's scaled, biased scores (batch, head, row).
    float* lse = nullptr;
    int64_t lse_strides[3] = {};
};

// Bytes of scratch RunAttention needs for these sizes (a multiple of 64).
size_t AttentionScratchBytes(int64_t batch, int64_t heads, int64_t kv_heads, int64_t q_rows,
                             int64_t dim, int64_t v_dim);
// Computes args.out (and args.lse) using `scratch` of AttentionScratchBytes bytes.
void RunAttention(const AttentionArgs& args, void* scratch);

}  // namespace openacl::ops
