// aclnnop/aclnn_fused_infer_attention_score_v2.h: attentionOut = softmax(scaleValue * Q K^T +
// pseShift, masked) V per batch and query head, CANN's fused prompt (query length > 1) and
// incremental (query length 1) attention, as llama.cpp's CANN backend calls it for
// flash_attn_ext. Layouts BSH, BSND, BNSD and BNSD_BSND; grouped-query attention
// (numKeyValueHeads dividing numHeads); key/value as one tensor or as one tensor of batch 1 per
// batch (whose lengths may differ); pseShift (B or 1, N, >= Q_S, >= KV_S); attenMask (1 hides a
// key) with sparseMode 0 (the mask, and with it preTokens/nextTokens from the top-left
// diagonal), 1 (the mask alone), 2 and 3 (causal from the top-left or bottom-right corner) and 4
// (a band from the bottom-right corner); actualSeqLengths(Kv); the float32 log-sum-exp in
// softmaxLse. Quantisation, antiquantisation, paged key/value (blockTable), padding sizes and
// shared prefixes are refused by name. Computed in float32 on any strided views.
#include "aclnnop/aclnn_fused_infer_attention_score_v2.h"

#include <algorithm>
#include <cinttypes>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "aclnn/objects.h"
#include "aclnn/op_executor.h"
#include "aclnn/opdev/op_errno.h"
#include "core/error.h"
#include "ops/attention.h"
#include "ops/dtype.h"

using namespace openacl::aclnn;  // NOLINT
using openacl::Fail;
namespace ops = openacl::ops;

namespace {

constexpr const char* kApi = "aclnnFusedInferAttentionScoreV2";
constexpr int64_t kCompressedMask = 2048;  // sparseMode 2-4 take a 2048 x 2048 pattern

enum class Layout { kBSH, kBSND, kBNSD };

// A query, key, value or output tensor read as (batch, heads, sequence, head dim).
struct Bnsd {
    int64_t dims[4] = {};     // B, N, S, D
    int64_t strides[4] = {};  // elements, same order
};

const char* LayoutName(Layout layout) {
    switch (layout) {
        case Layout::kBSH:
            return "BSH";
        case Layout::kBSND:
            return "BSND";
        default:
            return "BNSD";
    }
}

// view under `layout`. BSH splits its hidden size into heads of `dim` columns (when dim is 0,
// an empty hidden size is `heads` empty heads).
aclnnStatus AsBnsd(const TensorView& view, Layout layout, int64_t dim, int64_t heads, Bnsd* out) {
    const int rank = layout == Layout::kBSH ? 3 : 4;
    if (view.shape.rank != rank) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "%s has shape %s: inputLayout %s takes %d-dimensional tensors", view.name,
                    ShapeText(view.shape), LayoutName(layout), rank);
    }
    const int64_t* d = view.shape.dims;
    const int64_t* s = view.strides;
    switch (layout) {
        case Layout::kBSH: {
            int64_t n = heads;
            if (dim > 0) {
                if (d[2] % dim != 0) {
                    return Fail(ACLNN_ERR_PARAM_INVALID,
                                "%s has shape %s: its hidden size %" PRId64
                                " is not a whole number of heads of %" PRId64 " columns",
                                view.name, ShapeText(view.shape), d[2], dim);
                }
                n = d[2] / dim;
            } else if (d[2] != 0) {
                return Fail(ACLNN_ERR_PARAM_INVALID,
                            "%s has shape %s but the query's heads have no columns", view.name,
                            ShapeText(view.shape));
            }
            *out = {{d[0], n, d[1], dim}, {s[0], dim * s[2], s[1], s[2]}};
            return ACLNN_SUCCESS;
        }
        case Layout::kBSND:
            *out = {{d[0], d[2], d[1], d[3]}, {s[0], s[2], s[1], s[3]}};
            return ACLNN_SUCCESS;
        default:
            *out = {{d[0], d[1], d[2], d[3]}, {s[0], s[1], s[2], s[3]}};
            return ACLNN_SUCCESS;
    }
}

// The per-batch lengths of an actualSeqLengths(Kv) array: one value for every batch, or at
// least `batch` values of which the first `batch` count. Null or empty: `full` everywhere.
aclnnStatus Lengths(const aclIntArray* array, const char* name, int64_t batch,
                    const std::vector<int64_t>& full, std::vector<int64_t>* lengths) {
    *lengths = full;
    if (array == nullptr) return ACLNN_SUCCESS;
    if (aclnnStatus rc = CheckIntArrayObject(array, name); rc != ACLNN_SUCCESS) return rc;
    const std::vector<int64_t>& values = array->values;
    if (values.empty()) return ACLNN_SUCCESS;
    if (values.size() != 1 && values.size() < static_cast<size_t>(batch)) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "%s has %zu values: it takes one for every batch, or at least one per batch "
                    "(%" PRId64 ")",
                    name, values.size(), batch);
    }
    for (int64_t b = 0; b < batch; ++b) {
        const int64_t value = values.size() == 1 ? values[0] : values[b];
        if (value < 0 || value > full[b]) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "%s gives batch %" PRId64 " the length %" PRId64 ", outside [0, %" PRId64
                        "] (the tensor's sequence length)",
                        name, b, value, full[b]);
        }
        (*lengths)[b] = value;
    }
    return ACLNN_SUCCESS;
}

struct KvElement {
    TensorView key, value;
    Bnsd k, v;
    int key_slot = -1, value_slot = -1;
};

class AttentionOperator final : public Operator {
 public:
    AttentionOperator(ops::AttentionArgs args, std::vector<KvElement> kv, bool kv_per_batch,
                      std::vector<int64_t> q_lens, std::vector<int64_t> kv_lens, int64_t q_offset,
                      int64_t out_offset, int64_t pse_offset, int64_t mask_offset,
                      int64_t lse_offset, const int slots[5], size_t table_bytes)
        : args_(args),
          kv_(std::move(kv)),
          kv_per_batch_(kv_per_batch),
          q_lens_(std::move(q_lens)),
          kv_lens_(std::move(kv_lens)),
          q_offset_(q_offset),
          out_offset_(out_offset),
          pse_offset_(pse_offset),
          mask_offset_(mask_offset),
          lse_offset_(lse_offset),
          q_slot_(slots[0]),
          pse_slot_(slots[1]),
          mask_slot_(slots[2]),
          out_slot_(slots[3]),
          lse_slot_(slots[4]),
          table_bytes_(table_bytes) {}

    int32_t Run(void* const* addresses, void* workspace, std::string*) const override {
        // An empty query: nothing to do, as in CANN (an empty key/value still writes zeros).
        if (args_.batch * args_.heads * args_.q_rows * args_.dim == 0) return 0;
        ops::AttentionArgs args = args_;
        auto at = [&](int slot, int64_t offset, aclDataType dtype) {
            return static_cast<char*>(addresses[slot]) +
                   offset * static_cast<int64_t>(ops::DtypeSize(dtype));
        };
        // The workspace starts with the per-batch key/value table, then the kernel's scratch.
        auto* table = static_cast<ops::AttentionBatch*>(workspace);
        const int64_t kv_size = static_cast<int64_t>(ops::DtypeSize(args.kv_dtype));
        for (int64_t b = 0; b < args.batch; ++b) {
            const KvElement& e = kv_[kv_per_batch_ ? b : 0];
            const int64_t batch_index = kv_per_batch_ ? 0 : b;
            ops::AttentionBatch& entry = table[b];
            entry.k = static_cast<const char*>(addresses[e.key_slot]) +
                      (e.key.offset + batch_index * e.k.strides[0]) * kv_size;
            entry.v = static_cast<const char*>(addresses[e.value_slot]) +
                      (e.value.offset + batch_index * e.v.strides[0]) * kv_size;
            for (int d = 0; d < 3; ++d) {
                entry.k_strides[d] = e.k.strides[d + 1];
                entry.v_strides[d] = e.v.strides[d + 1];
            }
            entry.q_len = q_lens_[b];
            entry.kv_len = kv_lens_[b];
        }
        args.batches = table;
        args.q = at(q_slot_, q_offset_, args.q_dtype);
        args.out = at(out_slot_, out_offset_, args.out_dtype);
        if (pse_slot_ >= 0) args.pse = at(pse_slot_, pse_offset_, args.pse_dtype);
        if (mask_slot_ >= 0) args.mask = at(mask_slot_, mask_offset_, ACL_INT8);
        if (lse_slot_ >= 0)
            args.lse = reinterpret_cast<float*>(at(lse_slot_, lse_offset_, ACL_FLOAT));
        ops::RunAttention(args, static_cast<char*>(workspace) + table_bytes_);
        return 0;
    }

 private:
    ops::AttentionArgs args_;  // sizes, strides, dtypes and masking; pointers filled by Run
    std::vector<KvElement> kv_;
    bool kv_per_batch_;
    std::vector<int64_t> q_lens_, kv_lens_;
    int64_t q_offset_, out_offset_, pse_offset_, mask_offset_, lse_offset_;
    int q_slot_, pse_slot_, mask_slot_, out_slot_, lse_slot_;
    size_t table_bytes_;
};

// 161002 naming an optional input openacl does not implement, when the caller passed one.
aclnnStatus RefuseTensor(const aclTensor* tensor, const char* name, const char* feature) {
    if (tensor == nullptr) return ACLNN_SUCCESS;
    return Fail(ACLNN_ERR_PARAM_INVALID,
                "%s is given, but %s is not implemented by openacl: pass nullptr", name, feature);
}

}  // namespace

aclnnStatus aclnnFusedInferAttentionScoreV2GetWorkspaceSize(
    const aclTensor* query, const aclTensorList* key, const aclTensorList* value,
    const aclTensor* pseShiftOptional, const aclTensor* attenMaskOptional,
    const aclIntArray* actualSeqLengthsOptional, const aclIntArray* actualSeqLengthsKvOptional,
    const aclTensor* deqScale1Optional, const aclTensor* quantScale1Optional,
    const aclTensor* deqScale2Optional, const aclTensor* quantScale2Optional,
    const aclTensor* quantOffset2Optional, const aclTensor* antiquantScaleOptional,
    const aclTensor* antiquantOffsetOptional, const aclTensor* blockTableOptional,
    const aclTensor* queryPaddingSizeOptional, const aclTensor* kvPaddingSizeOptional,
    const aclTensor* keyAntiquantScaleOptional, const aclTensor* keyAntiquantOffsetOptional,
    const aclTensor* valueAntiquantScaleOptional, const aclTensor* valueAntiquantOffsetOptional,
    const aclTensor* keySharedPrefixOptional, const aclTensor* valueSharedPrefixOptional,
    const aclIntArray* actualSharedPrefixLenOptional, int64_t numHeads, double scaleValue,
    int64_t preTokens, int64_t nextTokens, char* inputLayout, int64_t numKeyValueHeads,
    int64_t sparseMode, int64_t innerPrecise, int64_t blockSize, int64_t antiquantMode,
    bool softmaxLseFlag, int64_t keyAntiquantMode, int64_t valueAntiquantMode,
    const aclTensor* attentionOut, const aclTensor* softmaxLse, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
    OPENACL_API();
    // blockSize and the antiquantisation modes only matter with the inputs refused below.
    (void)blockSize;
    (void)antiquantMode;
    (void)keyAntiquantMode;
    (void)valueAntiquantMode;
    if (aclnnStatus rc = CheckTensorObject(query, "query"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorListObject(key, "key"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorListObject(value, "value"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(attentionOut, "attentionOut"); rc != 0) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != 0) return rc;
    if (inputLayout == nullptr) return Fail(ACLNN_ERR_PARAM_NULLPTR, "inputLayout is null");

    // Features openacl leaves out are refused by name, never ignored.
    const struct {
        const aclTensor* tensor;
        const char* name;
        const char* feature;
    } refused[] = {
        {deqScale1Optional, "deqScale1Optional", "int8 quantised attention"},
        {quantScale1Optional, "quantScale1Optional", "int8 quantised attention"},
        {deqScale2Optional, "deqScale2Optional", "int8 quantised attention"},
        {quantScale2Optional, "quantScale2Optional", "quantising the output"},
        {quantOffset2Optional, "quantOffset2Optional", "quantising the output"},
        {antiquantScaleOptional, "antiquantScaleOptional", "int8/int4 key/value antiquantisation"},
        {antiquantOffsetOptional, "antiquantOffsetOptional",
         "int8/int4 key/value antiquantisation"},
        {blockTableOptional, "blockTableOptional", "paged key/value (PageAttention)"},
        {queryPaddingSizeOptional, "queryPaddingSizeOptional", "left-padded queries"},
        {kvPaddingSizeOptional, "kvPaddingSizeOptional", "left-padded keys/values"},
        {keyAntiquantScaleOptional, "keyAntiquantScaleOptional",
         "int8/int4 key/value antiquantisation"},
        {keyAntiquantOffsetOptional, "keyAntiquantOffsetOptional",
         "int8/int4 key/value antiquantisation"},
        {valueAntiquantScaleOptional, "valueAntiquantScaleOptional",
         "int8/int4 key/value antiquantisation"},
        {valueAntiquantOffsetOptional, "valueAntiquantOffsetOptional",
         "int8/int4 key/value antiquantisation"},
        {keySharedPrefixOptional, "keySharedPrefixOptional", "a shared key/value prefix"},
        {valueSharedPrefixOptional, "valueSharedPrefixOptional", "a shared key/value prefix"},
    };
    for (const auto& r : refused) {
        if (aclnnStatus rc = RefuseTensor(r.tensor, r.name, r.feature); rc != 0) return rc;
    }
    if (actualSharedPrefixLenOptional != nullptr) {
        if (aclnnStatus rc =
                CheckIntArrayObject(actualSharedPrefixLenOptional, "actualSharedPrefixLenOptional");
            rc != 0) {
            return rc;
        }
        if (!actualSharedPrefixLenOptional->values.empty()) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "actualSharedPrefixLenOptional is given, but a shared key/value prefix is "
                        "not implemented by openacl: pass nullptr");
        }
    }

    Layout layout;
    bool out_bsnd = false;
    const std::string layout_name = inputLayout;
    if (layout_name == "BSH") {
        layout = Layout::kBSH;
    } else if (layout_name == "BSND") {
        layout = Layout::kBSND;
    } else if (layout_name == "BNSD") {
        layout = Layout::kBNSD;
    } else if (layout_name == "BNSD_BSND") {
        layout = Layout::kBNSD;
        out_bsnd = true;
    } else if (layout_name == "TND" || layout_name == "NTD_TND" || layout_name == "TND_NTD" ||
               layout_name == "BSH_NBSD" || layout_name == "BSND_NBSD" ||
               layout_name == "BNSD_NBSD" || layout_name == "NSD") {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "inputLayout \"%s\" is not implemented by openacl (it has BSH, BSND, BNSD and "
                    "BNSD_BSND)",
                    layout_name.c_str());
    } else {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "inputLayout \"%s\" is not a layout: use BSH, BSND, BNSD or BNSD_BSND",
                    layout_name.c_str());
    }
    if (numHeads <= 0) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "numHeads is %" PRId64 ": it must be positive",
                    numHeads);
    }
    if (numKeyValueHeads < 0) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "numKeyValueHeads is %" PRId64
                    ": it must be 0 (as many as numHeads) or positive",
                    numKeyValueHeads);
    }
    const int64_t kv_heads = numKeyValueHeads == 0 ? numHeads : numKeyValueHeads;
    if (numHeads % kv_heads != 0) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "numHeads (%" PRId64 ") is not a multiple of numKeyValueHeads (%" PRId64 ")",
                    numHeads, kv_heads);
    }
    if (innerPrecise < 0 || innerPrecise > 3) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "innerPrecise is %" PRId64
                    ": it takes 0 to 3 (precision, and correction of "
                    "fully masked rows)",
                    innerPrecise);
    }

    // The query and the output.
    TensorView q, o;
    if (aclnnStatus rc = ViewOf(query, "query", &q); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(attentionOut, "attentionOut", &o); rc != 0) return rc;
    if (q.dtype == ACL_INT8) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "query is ACL_INT8: int8 quantised attention is not implemented by openacl");
    }
    if (aclnnStatus rc = CheckDtype(q, {ACL_FLOAT16, ACL_BF16, ACL_FLOAT}); rc != 0) return rc;
    if (o.dtype == ACL_INT8) {
        return Fail(
            ACLNN_ERR_PARAM_INVALID,
            "attentionOut is ACL_INT8: quantising the output is not implemented by openacl");
    }
    if (o.dtype != q.dtype) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "attentionOut is %s but query is %s: they must match",
                    ops::DtypeName(o.dtype), ops::DtypeName(q.dtype));
    }
    const int q_rank = layout == Layout::kBSH ? 3 : 4;
    if (q.shape.rank != q_rank) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "query has shape %s: inputLayout %s takes %d-dimensional tensors",
                    ShapeText(q.shape), layout_name.c_str(), q_rank);
    }
    int64_t dim = 0;
    if (layout == Layout::kBSH) {
        if (q.shape.dims[2] % numHeads != 0) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "query's hidden size %" PRId64 " does not split into numHeads (%" PRId64
                        ") heads",
                        q.shape.dims[2], numHeads);
        }
        dim = q.shape.dims[2] / numHeads;
    } else {
        dim = q.shape.dims[3];
    }
    Bnsd qb;
    if (aclnnStatus rc = AsBnsd(q, layout, dim, numHeads, &qb); rc != 0) return rc;
    if (qb.dims[1] != numHeads) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "query has shape %s: %" PRId64 " heads under %s, but numHeads is %" PRId64,
                    ShapeText(q.shape), qb.dims[1], layout_name.c_str(), numHeads);
    }
    const int64_t batch = qb.dims[0];
    const int64_t q_rows = qb.dims[2];

    // Key and value: one tensor for every batch, or one tensor of batch 1 per batch.
    const size_t count = key->tensors.size();
    if (value->tensors.size() != count) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "key holds %zu tensors but value holds %zu", count,
                    value->tensors.size());
    }
    if (count == 0) return Fail(ACLNN_ERR_PARAM_INVALID, "key and value are empty lists");
    const bool per_batch = count > 1;
    if (per_batch && static_cast<int64_t>(count) != batch) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "key and value hold %zu tensors: they take one tensor, or one tensor of batch "
                    "1 per batch of the query (%" PRId64 ")",
                    count, batch);
    }
    std::vector<KvElement> kv(count);
    std::vector<int64_t> kv_full(static_cast<size_t>(batch));
    int64_t kv_max = 0;
    for (size_t i = 0; i < count; ++i) {
        KvElement& e = kv[i];
        if (key->tensors[i] == nullptr) return Fail(ACLNN_ERR_PARAM_NULLPTR, "key[%zu] is null", i);
        if (value->tensors[i] == nullptr) {
            return Fail(ACLNN_ERR_PARAM_NULLPTR, "value[%zu] is null", i);
        }
        if (aclnnStatus rc = ViewOf(key->tensors[i], "key", &e.key); rc != 0) return rc;
        if (aclnnStatus rc = ViewOf(value->tensors[i], "value", &e.value); rc != 0) return rc;
        for (const TensorView* v : {&e.key, &e.value}) {
            if (v->dtype != q.dtype) {
                if (v->dtype == ACL_INT8 || v->dtype == ACL_INT32) {
                    return Fail(ACLNN_ERR_PARAM_INVALID,
                                "%s[%zu] is %s: int8/int4 key/value antiquantisation is not "
                                "implemented by openacl",
                                v->name, i, ops::DtypeName(v->dtype));
                }
                return Fail(ACLNN_ERR_PARAM_INVALID, "%s[%zu] is %s but query is %s", v->name, i,
                            ops::DtypeName(v->dtype), ops::DtypeName(q.dtype));
            }
        }
        bool same = e.key.shape.rank == e.value.shape.rank;
        for (int d = 0; same && d < e.key.shape.rank; ++d)
            same = e.key.shape.dims[d] == e.value.shape.dims[d];
        if (!same) {
            std::string k_shape = ShapeText(e.key.shape);
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "key[%zu] has shape %s but value[%zu] has %s: they must be the same", i,
                        k_shape.c_str(), i, ShapeText(e.value.shape));
        }
        if (aclnnStatus rc = AsBnsd(e.key, layout, dim, kv_heads, &e.k); rc != 0) return rc;
        if (aclnnStatus rc = AsBnsd(e.value, layout, dim, kv_heads, &e.v); rc != 0) return rc;
        const int64_t want_batch = per_batch ? 1 : batch;
        if (e.k.dims[0] != want_batch) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "key[%zu] has shape %s: its batch must be %" PRId64 " (%s)", i,
                        ShapeText(e.key.shape), want_batch,
                        per_batch ? "one tensor per batch" : "the query's batch");
        }
        if (e.k.dims[1] != kv_heads) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "key[%zu] has shape %s: %" PRId64
                        " heads under %s, but numKeyValueHeads "
                        "makes %" PRId64,
                        i, ShapeText(e.key.shape), e.k.dims[1], layout_name.c_str(), kv_heads);
        }
        if (e.k.dims[3] != dim) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "key[%zu] has shape %s: heads of %" PRId64
                        " columns, but the query's have %" PRId64,
                        i, ShapeText(e.key.shape), e.k.dims[3], dim);
        }
        const int64_t kv_len = e.k.dims[2];
        kv_max = std::max(kv_max, kv_len);
        if (per_batch) {
            kv_full[i] = kv_len;
        } else {
            std::fill(kv_full.begin(), kv_full.end(), kv_len);
        }
    }

    // Valid lengths. With one query row (incremental attention) actualSeqLengths is unused.
    const bool incremental = q_rows == 1;
    std::vector<int64_t> q_lens, kv_lens;
    const std::vector<int64_t> q_full(static_cast<size_t>(batch), q_rows);
    if (aclnnStatus rc = Lengths(incremental ? nullptr : actualSeqLengthsOptional,
                                 "actualSeqLengthsOptional", batch, q_full, &q_lens);
        rc != 0) {
        return rc;
    }
    if (incremental && actualSeqLengthsOptional != nullptr) {
        if (aclnnStatus rc =
                CheckIntArrayObject(actualSeqLengthsOptional, "actualSeqLengthsOptional");
            rc != 0) {
            return rc;
        }
    }
    if (aclnnStatus rc = Lengths(actualSeqLengthsKvOptional, "actualSeqLengthsKvOptional", batch,
                                 kv_full, &kv_lens);
        rc != 0) {
        return rc;
    }

    ops::AttentionArgs args;
    args.batch = batch;
    args.heads = numHeads;
    args.kv_heads = kv_heads;
    args.q_rows = q_rows;
    args.dim = dim;
    args.v_dim = dim;
    args.scale = scaleValue;
    args.q_dtype = q.dtype;
    args.out_dtype = o.dtype;
    args.kv_dtype = q.dtype;
    std::copy_n(qb.strides, 4, args.q_strides);

    // The output: the query's shape (BNSD_BSND: transposed to BSND).
    Bnsd ob;
    {
        ops::LoopShape want = q.shape;
        if (out_bsnd) {
            want.dims[1] = q_rows;
            want.dims[2] = numHeads;
        }
        if (aclnnStatus rc = CheckShape(o, want); rc != 0) return rc;
        if (aclnnStatus rc = AsBnsd(o, out_bsnd ? Layout::kBSND : layout, dim, numHeads, &ob);
            rc != 0) {
            return rc;
        }
        std::copy_n(ob.strides, 4, args.out_strides);
    }

    // pseShift: (B or 1, N, >= Q_S, >= KV_S), the query's type.
    TensorView pse;
    if (pseShiftOptional != nullptr) {
        if (aclnnStatus rc = ViewOf(pseShiftOptional, "pseShiftOptional", &pse); rc != 0) {
            return rc;
        }
        if (pse.dtype != q.dtype) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "pseShiftOptional is %s but query is %s: they must match",
                        ops::DtypeName(pse.dtype), ops::DtypeName(q.dtype));
        }
        const int64_t* d = pse.shape.dims;
        if (pse.shape.rank != 4 || (d[0] != 1 && d[0] != batch) || d[1] != numHeads ||
            d[2] < q_rows || d[3] < kv_max) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "pseShiftOptional has shape %s: it takes (B or 1, N, Q_S, KV_S) = (%" PRId64
                        " or 1, %" PRId64 ", at least %" PRId64 ", at least %" PRId64 ")",
                        ShapeText(pse.shape), batch, numHeads, q_rows, kv_max);
        }
        args.pse_dtype = pse.dtype;
        args.pse_strides[0] = d[0] == 1 ? 0 : pse.strides[0];
        args.pse_strides[1] = pse.strides[1];
        args.pse_strides[2] = pse.strides[2];
        args.pse_strides[3] = pse.strides[3];
    }

    // attenMask and sparseMode (the latter unused for incremental attention).
    TensorView mask;
    int64_t mode = incremental ? 1 : sparseMode;  // 1: the mask as given, if any
    if (!incremental) {
        if (sparseMode >= 5 && sparseMode <= 8) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "sparseMode %" PRId64
                        " (prefix, global, dilated or block_local) is not "
                        "supported",
                        sparseMode);
        }
        if (sparseMode < 0 || sparseMode > 8) {
            return Fail(ACLNN_ERR_PARAM_INVALID, "sparseMode is %" PRId64 ": it takes 0 to 4",
                        sparseMode);
        }
        if (sparseMode >= 1 && attenMaskOptional == nullptr) {
            return Fail(
                ACLNN_ERR_PARAM_INVALID, "sparseMode %" PRId64 " needs attenMaskOptional (%s)",
                sparseMode,
                sparseMode == 1 ? "the full mask" : "the 2048 x 2048 lower-triangular pattern");
        }
    }
    if (attenMaskOptional != nullptr) {
        if (aclnnStatus rc = ViewOf(attenMaskOptional, "attenMaskOptional", &mask); rc != 0) {
            return rc;
        }
        if (aclnnStatus rc = CheckDtype(mask, {ACL_BOOL, ACL_INT8, ACL_UINT8}); rc != 0) {
            return rc;
        }
        const int rank = mask.shape.rank;
        const int64_t* d = mask.shape.dims;
        const int64_t* s = mask.strides;
        if (mode >= 2) {
            bool ok = rank >= 2 && rank <= 4 && d[rank - 2] == kCompressedMask &&
                      d[rank - 1] == kCompressedMask;
            for (int k = 0; ok && k < rank - 2; ++k)
                ok = d[k] == 1;
            if (!ok) {
                return Fail(ACLNN_ERR_PARAM_INVALID,
                            "attenMaskOptional has shape %s: sparseMode %" PRId64
                            " takes the (2048, 2048), (1, 2048, 2048) or (1, 1, 2048, 2048) "
                            "pattern",
                            ShapeText(mask.shape), mode);
            }
        } else {
            // (Q_S, KV_S), (B or 1, Q_S, KV_S), (B or 1, 1, Q_S, KV_S), Q_S and KV_S possibly
            // rounded up; with one query row also (B, KV_S).
            bool ok = rank >= 2 && rank <= 4 && d[rank - 1] >= kv_max;
            int64_t mb = 0, mi = 0;
            if (ok && rank == 2 && incremental && (d[0] == batch || d[0] == 1)) {
                mb = d[0] == 1 ? 0 : s[0];
            } else if (ok) {
                ok = d[rank - 2] >= q_rows;
                mi = s[rank - 2];
                if (rank >= 3) {
                    ok = ok && (d[0] == batch || d[0] == 1) && (rank == 3 || d[1] == 1);
                    mb = d[0] == 1 ? 0 : s[0];
                }
            }
            if (!ok) {
                return Fail(ACLNN_ERR_PARAM_INVALID,
                            "attenMaskOptional has shape %s: it takes (Q_S, KV_S), (B, Q_S, KV_S) "
                            "or (B, 1, Q_S, KV_S) with B %" PRId64 " or 1, Q_S at least %" PRId64
                            " and KV_S at least %" PRId64 "%s",
                            ShapeText(mask.shape), batch, q_rows, kv_max,
                            incremental ? ", or (B, KV_S)" : "");
            }
            args.mask_strides[0] = mb;
            args.mask_strides[1] = mi;
            args.mask_strides[2] = s[rank - 1];
        }
    }
    if (!incremental) {
        switch (sparseMode) {
            case 0:  // the mask, within preTokens/nextTokens of the top-left diagonal
                args.band = attenMaskOptional != nullptr;
                args.before = preTokens;
                args.after = nextTokens;
                break;
            case 2:  // causal from the top-left corner
                args.band = true;
                args.before = INT64_MAX;
                args.after = 0;
                break;
            case 3:  // causal from the bottom-right corner
                args.band = args.right_down = true;
                args.before = INT64_MAX;
                args.after = 0;
                break;
            case 4:  // a band around the bottom-right diagonal
                args.band = args.right_down = true;
                args.before = preTokens;
                args.after = nextTokens;
                break;
            default:
                break;
        }
    }
    const bool read_mask = attenMaskOptional != nullptr && mode <= 1;

    // softmaxLse: float32 (B, N, Q_S, 1).
    TensorView lse;
    if (softmaxLseFlag) {
        if (softmaxLse == nullptr) {
            return Fail(ACLNN_ERR_PARAM_NULLPTR, "softmaxLseFlag is true but softmaxLse is null");
        }
        if (aclnnStatus rc = ViewOf(softmaxLse, "softmaxLse", &lse); rc != 0) return rc;
        if (aclnnStatus rc = CheckDtype(lse, {ACL_FLOAT}); rc != 0) return rc;
        ops::LoopShape want;
        want.rank = 4;
        want.dims[0] = batch;
        want.dims[1] = numHeads;
        want.dims[2] = q_rows;
        want.dims[3] = 1;
        if (aclnnStatus rc = CheckShape(lse, want); rc != 0) return rc;
        std::copy_n(lse.strides, 3, args.lse_strides);
    }

    ExecutorBuilder builder(kApi);
    int slots[5] = {-1, -1, -1, -1, -1};  // query, pse, mask, out, lse
    slots[0] = builder.Input(q, query);
    for (size_t i = 0; i < count; ++i)
        kv[i].key_slot = builder.ListInput(kv[i].key, key->tensors[i], static_cast<int>(i));
    for (size_t i = 0; i < count; ++i)
        kv[i].value_slot = builder.ListInput(kv[i].value, value->tensors[i], static_cast<int>(i));
    if (pseShiftOptional != nullptr) slots[1] = builder.Input(pse, pseShiftOptional);
    if (attenMaskOptional != nullptr) {
        const int mask_slot = builder.Input(mask, attenMaskOptional);
        if (read_mask) slots[2] = mask_slot;
    }
    slots[3] = builder.Output(o, attentionOut);
    if (softmaxLseFlag) slots[4] = builder.Output(lse, softmaxLse);
    const size_t table_bytes =
        (static_cast<size_t>(batch) * sizeof(ops::AttentionBatch) + 63) / 64 * 64;
    const size_t workspace =
        table_bytes + ops::AttentionScratchBytes(batch, numHeads, kv_heads, q_rows, dim, dim);
    return builder.Finish(
        std::make_unique<AttentionOperator>(args, std::move(kv), per_batch, std::move(q_lens),
                                            std::move(kv_lens), q.offset, o.offset, pse.offset,
                                            mask.offset, lse.offset, slots, table_bytes),
        workspace, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(FusedInferAttentionScoreV2)
