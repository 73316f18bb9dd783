// acl/ops/acl_cblas.h: GEMM and GEMV on device memory, enqueued on a stream. Every argument is
// checked when the call is made (the documented codes, messages that name the argument); the
// product is computed when the stream gets there (ops/gemm.cpp). The CreateHandleFor*
// functions plan CANN's GEMM single operator (inputs a, b, c, alpha, beta; output c; alpha and
// beta one value each in device memory) as an aclopHandle that aclopExecWithHandle runs; like
// aclblasGemmEx, they need no GEMM model loaded.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

#include "acl/ops/acl_cblas.h"
#include "core/context.h"
#include "core/device.h"
#include "core/error.h"
#include "core/exception_info.h"
#include "core/memory.h"
#include "core/overflow.h"
#include "core/stream.h"
#include "op/op_handle.h"
#include "op/op_registry.h"
#include "ops/gemm.h"

using openacl::Fail;
using openacl::ops::GemmArgs;

namespace {

const char* TypeName(aclDataType type) {
    switch (type) {
        case ACL_FLOAT16:
            return "ACL_FLOAT16";
        case ACL_FLOAT:
            return "ACL_FLOAT";
        case ACL_INT8:
            return "ACL_INT8";
        case ACL_INT32:
            return "ACL_INT32";
        default:
            return "another type";
    }
}

// ACL_TRANS_N / ACL_TRANS_T into *trans; the fractal (NZ) layouts do not exist on a CPU.
aclError CheckTrans(aclTransType value, const char* name, bool* trans) {
    if (value == ACL_TRANS_N || value == ACL_TRANS_T) {
        *trans = value == ACL_TRANS_T;
        return ACL_SUCCESS;
    }
    if (value == ACL_TRANS_NZ || value == ACL_TRANS_NZ_T) {
        return Fail(ACL_ERROR_FORMAT_NOT_MATCH,
                    "%s is %s: the fractal NZ layout is Ascend hardware's; openacl takes row-major "
                    "matrices (ACL_TRANS_N or ACL_TRANS_T)",
                    name, value == ACL_TRANS_NZ ? "ACL_TRANS_NZ" : "ACL_TRANS_NZ_T");
    }
    return Fail(ACL_ERROR_INVALID_PARAM, "%s %d is not an aclTransType", name,
                static_cast<int>(value));
}

aclError CheckPositive(int value, const char* name) {
    if (value > 0) return ACL_SUCCESS;
    return Fail(ACL_ERROR_INVALID_PARAM, "%s is %d: it must be positive", name, value);
}

// CANN documents lda/ldb/ldc and incx/incy as reserved parameters that "can only be -1": the
// operands are packed (a leading dimension of the stored row length, a stride of 1). openacl also
// takes explicit values, as BLAS libraries do; -1 is replaced by the packed value.
int Packed(int value, int64_t packed) {
    return value == -1 ? static_cast<int>(packed) : value;
}

// A row-major matrix of `rows` stored rows of `cols` elements needs ld >= cols (or -1: packed).
aclError CheckLeading(int* ld, int64_t cols, const char* name) {
    *ld = Packed(*ld, cols);
    const int ld_value = *ld;
    if (ld_value >= cols && ld_value > 0) return ACL_SUCCESS;
    return Fail(ACL_ERROR_INVALID_PARAM,
                "%s is %d: a row-major matrix with rows of %lld elements needs at least %lld "
                "(or -1, CANN's reserved value: packed rows)",
                name, ld_value, static_cast<long long>(cols), static_cast<long long>(cols));
}

// `bytes` from p must lie in one live allocation of `device`.
aclError CheckDeviceRange(const void* p, uint64_t bytes, const char* name,
                          const openacl::Device* device) {
    if (p == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "%s is null", name);
    const openacl::MemRegion region = openacl::ClassifyPointer(p);
    if (region.domain != openacl::MemDomain::kDevice) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s %p is %s memory: BLAS operands live in device memory (aclrtMalloc)", name,
                    p, openacl::DomainName(region.domain));
    }
    if (region.device != device) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s %p belongs to another device than the stream's (device %d)", name, p,
                    device->id());
    }
    if (const uint64_t available = region.BytesFrom(p); bytes > available) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s %p needs %llu bytes but its allocation has %llu from there", name, p,
                    static_cast<unsigned long long>(bytes),
                    static_cast<unsigned long long>(available));
    }
    return ACL_SUCCESS;
}

// Bytes a matrix of `rows` stored rows of `cols` elements spans with leading dimension ld.
uint64_t MatrixBytes(int64_t rows, int64_t cols, int64_t ld, size_t element) {
    return static_cast<uint64_t>((rows - 1) * ld + cols) * element;
}

// A vector of n elements `inc` apart.
uint64_t VectorBytes(int64_t n, int64_t inc, size_t element) {
    return static_cast<uint64_t>((n - 1) * inc + 1) * element;
}

// alpha or beta: copied now from host memory, or read when the task runs from device memory.
aclError TakeScalar(const void* p, const char* name, aclDataType type, openacl::ops::Scalar* s) {
    if (p == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "%s is null", name);
    if (openacl::ClassifyPointer(p).domain == openacl::MemDomain::kDevice) {
        s->at_run = p;
    } else {
        std::memcpy(s->value, p, openacl::ops::ElementSize(type));
    }
    return ACL_SUCCESS;
}

aclError CheckComputeType(aclComputeType type) {
    if (type == ACL_COMPUTE_HIGH_PRECISION || type == ACL_COMPUTE_LOW_PRECISION) return ACL_SUCCESS;
    return Fail(ACL_ERROR_INVALID_PARAM, "type %d is not an aclComputeType",
                static_cast<int>(type));
}

aclError CheckTypes(aclDataType a, aclDataType b, aclDataType c, const char* names) {
    if (a == b && openacl::ops::SupportedTypes(a, c)) return ACL_SUCCESS;
    return Fail(ACL_ERROR_UNSUPPORTED_DATA_TYPE,
                "%s are %s, %s and %s: the supported combinations are ACL_FLOAT16 with an "
                "ACL_FLOAT16 or ACL_FLOAT result, and ACL_INT8 with an ACL_FLOAT or ACL_INT32 "
                "result",
                names, TypeName(a), TypeName(b), TypeName(c));
}

// The operators run on the host (oneDNN) and read their operands where they are: an
// accelerator's device memory is out of their reach.
aclError RefuseAccelerator(openacl::Stream* stream) {
    const openacl::backend::Accelerator* accelerator = stream->context()->device()->accelerator();
    if (accelerator == nullptr) return ACL_SUCCESS;
    return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                "%s: the BLAS operators run on the CPU backend only; on the CUDA backend (%s) "
                "they are not available yet (use cuBLAS on the same device memory meanwhile)",
                openacl::CurrentApi(), accelerator->name());
}

// Queues the product on the stream; the task owns args. Replayable: RunGemm only reads args
// (device scalars too are read when it runs), so a captured product runs again at each replay
// and the original frees args, once.
void Enqueue(GemmArgs* args, openacl::Stream* stream) {
    const bool watched = openacl::overflow::Watched(*stream);  // the stream's overflow switch
    stream->Submit(openacl::cpu::MakeTask(
        [args, stream, watched](openacl::cpu::TaskContext& ctx) {
            openacl::cpu::TaskStatus status = openacl::cpu::TaskStatus::Done();
            std::string error;
            if (!ctx.cancelled() && !openacl::ops::RunGemm(*args, &error)) {
                stream->NoteFailure("the BLAS operation failed: %s", error.c_str());
                openacl::exception_info::Report(ctx, stream, ACL_ERROR_FAILURE);
                status = openacl::cpu::TaskStatus::Failed(ACL_ERROR_FAILURE);
            } else if (watched && !ctx.cancelled()) {  // infinities or NaNs left in C (y)
                const GemmArgs& g = *args;
                const int64_t row_stride = g.gemv ? g.incy : (g.trans_c ? 1 : g.ldc);
                openacl::overflow::Note(
                    stream, openacl::overflow::ScanMatrix(g.c, g.type_c, g.m, g.gemv ? 1 : g.n,
                                                          row_stride, g.trans_c ? g.ldc : 1));
            }
            if (!ctx.borrowed()) delete args;
            return status;
        },
        0, openacl::cpu::Task::kCallWhenCancelled | openacl::cpu::Task::kReplayable));
}

#define RETURN_IF_FAILED(call)                                     \
    do {                                                           \
        if (aclError rc_ = (call); rc_ != ACL_SUCCESS) return rc_; \
    } while (0)

aclError Gemm(aclTransType transA, aclTransType transB, aclTransType transC, int m, int n, int k,
              const void* alpha, const void* a, int lda, aclDataType typeA, const void* b, int ldb,
              aclDataType typeB, const void* beta, void* c, int ldc, aclDataType typeC,
              aclComputeType type, aclrtStream stream) {
    auto args = std::make_unique<GemmArgs>();
    RETURN_IF_FAILED(CheckTrans(transA, "transA", &args->trans_a));
    RETURN_IF_FAILED(CheckTrans(transB, "transB", &args->trans_b));
    RETURN_IF_FAILED(CheckTrans(transC, "transC", &args->trans_c));
    RETURN_IF_FAILED(CheckPositive(m, "m"));
    RETURN_IF_FAILED(CheckPositive(n, "n"));
    RETURN_IF_FAILED(CheckPositive(k, "k"));
    RETURN_IF_FAILED(CheckTypes(typeA, typeB, typeC, "dataTypeA, dataTypeB and dataTypeC"));
    RETURN_IF_FAILED(CheckComputeType(type));
    // Stored shapes: A is m x k (k x m transposed), B is k x n (n x k), C is m x n (n x m).
    const int64_t a_rows = args->trans_a ? k : m, a_cols = args->trans_a ? m : k;
    const int64_t b_rows = args->trans_b ? n : k, b_cols = args->trans_b ? k : n;
    const int64_t c_rows = args->trans_c ? n : m, c_cols = args->trans_c ? m : n;
    RETURN_IF_FAILED(CheckLeading(&lda, a_cols, "lda"));
    RETURN_IF_FAILED(CheckLeading(&ldb, b_cols, "ldb"));
    RETURN_IF_FAILED(CheckLeading(&ldc, c_cols, "ldc"));
    aclError rc = ACL_SUCCESS;
    openacl::Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    RETURN_IF_FAILED(RefuseAccelerator(resolved));
    const openacl::Device* device = resolved->context()->device();
    const size_t ab = openacl::ops::ElementSize(typeA), ce = openacl::ops::ElementSize(typeC);
    RETURN_IF_FAILED(CheckDeviceRange(a, MatrixBytes(a_rows, a_cols, lda, ab), "matrixA", device));
    RETURN_IF_FAILED(CheckDeviceRange(b, MatrixBytes(b_rows, b_cols, ldb, ab), "matrixB", device));
    RETURN_IF_FAILED(CheckDeviceRange(c, MatrixBytes(c_rows, c_cols, ldc, ce), "matrixC", device));
    RETURN_IF_FAILED(TakeScalar(alpha, "alpha", typeC, &args->alpha));
    RETURN_IF_FAILED(TakeScalar(beta, "beta", typeC, &args->beta));
    args->m = m, args->n = n, args->k = k;
    args->a = a, args->b = b, args->c = c;
    args->lda = lda, args->ldb = ldb, args->ldc = ldc;
    args->type_ab = typeA, args->type_c = typeC;
    Enqueue(args.release(), resolved);
    return ACL_SUCCESS;
}

aclError Gemv(aclTransType transA, int m, int n, const void* alpha, const void* a, int lda,
              aclDataType typeA, const void* x, int incx, aclDataType typeX, const void* beta,
              void* y, int incy, aclDataType typeY, aclComputeType type, aclrtStream stream) {
    auto args = std::make_unique<GemmArgs>();
    RETURN_IF_FAILED(CheckTrans(transA, "transA", &args->trans_a));
    RETURN_IF_FAILED(CheckPositive(m, "m"));
    RETURN_IF_FAILED(CheckPositive(n, "n"));
    incx = Packed(incx, 1), incy = Packed(incy, 1);
    RETURN_IF_FAILED(CheckPositive(incx, "incx"));
    RETURN_IF_FAILED(CheckPositive(incy, "incy"));
    RETURN_IF_FAILED(CheckTypes(typeA, typeX, typeY, "dataTypeA, dataTypeX and dataTypeY"));
    RETURN_IF_FAILED(CheckComputeType(type));
    RETURN_IF_FAILED(CheckLeading(&lda, n, "lda"));  // A is stored m x n either way
    // op(A) is rows x cols: y has rows elements, x has cols.
    const int64_t rows = args->trans_a ? n : m, cols = args->trans_a ? m : n;
    aclError rc = ACL_SUCCESS;
    openacl::Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    RETURN_IF_FAILED(RefuseAccelerator(resolved));
    const openacl::Device* device = resolved->context()->device();
    const size_t ab = openacl::ops::ElementSize(typeA), ye = openacl::ops::ElementSize(typeY);
    RETURN_IF_FAILED(CheckDeviceRange(a, MatrixBytes(m, n, lda, ab), "a", device));
    RETURN_IF_FAILED(CheckDeviceRange(x, VectorBytes(cols, incx, ab), "x", device));
    RETURN_IF_FAILED(CheckDeviceRange(y, VectorBytes(rows, incy, ye), "y", device));
    RETURN_IF_FAILED(TakeScalar(alpha, "alpha", typeY, &args->alpha));
    RETURN_IF_FAILED(TakeScalar(beta, "beta", typeY, &args->beta));
    args->gemv = true;
    args->m = rows, args->n = 1, args->k = cols;
    args->a = a, args->b = x, args->c = y;
    args->lda = lda, args->incx = incx, args->incy = incy;
    args->type_ab = typeA, args->type_c = typeY;
    Enqueue(args.release(), resolved);
    return ACL_SUCCESS;
}

// A GEMM operator handle: C (m x n) = alpha * op(A) * op(B) + beta * C, the matrices packed
// row-major, op(A) m x k and op(B) k x n.
aclError GemmHandle(aclTransType transA, aclTransType transB, aclTransType transC, int m, int n,
                    int k, aclDataType typeA, aclDataType typeB, aclDataType typeC,
                    aclComputeType type, aclopHandle** handle, const char* names) {
    if (handle == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "handle is null");
    bool ta = false, tb = false, tc = false;
    RETURN_IF_FAILED(CheckTrans(transA, "transA", &ta));
    RETURN_IF_FAILED(CheckTrans(transB, "transB", &tb));
    RETURN_IF_FAILED(CheckTrans(transC, "transC", &tc));
    if (tc) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "transC is ACL_TRANS_T: an operator handle writes C as stored (ACL_TRANS_N)");
    }
    RETURN_IF_FAILED(CheckPositive(m, "m"));
    RETURN_IF_FAILED(CheckPositive(n, "n"));
    RETURN_IF_FAILED(CheckPositive(k, "k"));
    RETURN_IF_FAILED(CheckTypes(typeA, typeB, typeC, names));
    RETURN_IF_FAILED(CheckComputeType(type));
    namespace op = openacl::op;
    auto spec = [](aclDataType dtype, op::Shape dims) {
        op::TensorSpec t;
        t.dtype = dtype;
        t.format = ACL_FORMAT_ND;
        t.dims = std::move(dims);
        return t;
    };
    op::OpDesc desc;
    desc.type = "GEMM";
    desc.inputs = {spec(typeA, ta ? op::Shape{k, m} : op::Shape{m, k}),
                   spec(typeB, tb ? op::Shape{n, k} : op::Shape{k, n}), spec(typeC, {m, n}),
                   spec(typeC, {}), spec(typeC, {})};
    desc.outputs = {spec(typeC, {m, n})};
    desc.attr.Set("transpose_a", ta);
    desc.attr.Set("transpose_b", tb);
    return op::Guard([&] {
        *handle = op::NewHandle(op::MakePlan(desc));
        return ACL_SUCCESS;
    });
}

// A GEMV handle: y = alpha * op(A) * x + beta * y with A stored m x n, as the GEMM of op(A)
// and the column x.
aclError GemvHandle(aclTransType transA, int m, int n, aclDataType typeA, aclDataType typeX,
                    aclDataType typeY, aclComputeType type, aclopHandle** handle) {
    bool trans = false;
    RETURN_IF_FAILED(CheckTrans(transA, "transA", &trans));
    RETURN_IF_FAILED(CheckPositive(m, "m"));
    RETURN_IF_FAILED(CheckPositive(n, "n"));
    // op(A) is rows x cols; A itself is m x n either way.
    const int rows = trans ? n : m, cols = trans ? m : n;
    return GemmHandle(transA, ACL_TRANS_N, ACL_TRANS_N, rows, 1, cols, typeA, typeX, typeY, type,
                      handle, "dataTypeA, dataTypeX and dataTypeY");
}

}  // namespace

aclError aclblasCreateHandleForGemmEx(aclTransType transA, aclTransType transB, aclTransType transC,
                                      int m, int n, int k, aclDataType dataTypeA,
                                      aclDataType dataTypeB, aclDataType dataTypeC,
                                      aclComputeType type, aclopHandle** handle) {
    OPENACL_API();
    return GemmHandle(transA, transB, transC, m, n, k, dataTypeA, dataTypeB, dataTypeC, type,
                      handle, "dataTypeA, dataTypeB and dataTypeC");
}

aclError aclblasCreateHandleForHgemm(aclTransType transA, aclTransType transB, aclTransType transC,
                                     int m, int n, int k, aclComputeType type,
                                     aclopHandle** handle) {
    OPENACL_API();
    return GemmHandle(transA, transB, transC, m, n, k, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, type,
                      handle, "dataTypeA, dataTypeB and dataTypeC");
}

aclError aclblasCreateHandleForS8gemm(aclTransType transA, aclTransType transB, aclTransType transC,
                                      int m, int n, int k, aclComputeType type,
                                      aclopHandle** handle) {
    OPENACL_API();
    return GemmHandle(transA, transB, transC, m, n, k, ACL_INT8, ACL_INT8, ACL_INT32, type, handle,
                      "dataTypeA, dataTypeB and dataTypeC");
}

aclError aclblasCreateHandleForGemvEx(aclTransType transA, int m, int n, aclDataType dataTypeA,
                                      aclDataType dataTypeX, aclDataType dataTypeY,
                                      aclComputeType type, aclopHandle** handle) {
    OPENACL_API();
    return GemvHandle(transA, m, n, dataTypeA, dataTypeX, dataTypeY, type, handle);
}

aclError aclblasCreateHandleForHgemv(aclTransType transA, int m, int n, aclComputeType type,
                                     aclopHandle** handle) {
    OPENACL_API();
    return GemvHandle(transA, m, n, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, type, handle);
}

aclError aclblasCreateHandleForS8gemv(aclTransType transA, int m, int n, aclComputeType type,
                                      aclopHandle** handle) {
    OPENACL_API();
    return GemvHandle(transA, m, n, ACL_INT8, ACL_INT8, ACL_INT32, type, handle);
}

aclError aclblasGemmEx(aclTransType transA, aclTransType transB, aclTransType transC, int m, int n,
                       int k, const void* alpha, const void* matrixA, int lda,
                       aclDataType dataTypeA, const void* matrixB, int ldb, aclDataType dataTypeB,
                       const void* beta, void* matrixC, int ldc, aclDataType dataTypeC,
                       aclComputeType type, aclrtStream stream) {
    OPENACL_API();
    return Gemm(transA, transB, transC, m, n, k, alpha, matrixA, lda, dataTypeA, matrixB, ldb,
                dataTypeB, beta, matrixC, ldc, dataTypeC, type, stream);
}

aclError aclblasHgemm(aclTransType transA, aclTransType transB, aclTransType transC, int m, int n,
                      int k, const aclFloat16* alpha, const aclFloat16* matrixA, int lda,
                      const aclFloat16* matrixB, int ldb, const aclFloat16* beta,
                      aclFloat16* matrixC, int ldc, aclComputeType type, aclrtStream stream) {
    OPENACL_API();
    return Gemm(transA, transB, transC, m, n, k, alpha, matrixA, lda, ACL_FLOAT16, matrixB, ldb,
                ACL_FLOAT16, beta, matrixC, ldc, ACL_FLOAT16, type, stream);
}

aclError aclblasS8gemm(aclTransType transA, aclTransType transB, aclTransType transC, int m, int n,
                       int k, const int32_t* alpha, const int8_t* matrixA, int lda,
                       const int8_t* matrixB, int ldb, const int32_t* beta, int32_t* matrixC,
                       int ldc, aclComputeType type, aclrtStream stream) {
    OPENACL_API();
    return Gemm(transA, transB, transC, m, n, k, alpha, matrixA, lda, ACL_INT8, matrixB, ldb,
                ACL_INT8, beta, matrixC, ldc, ACL_INT32, type, stream);
}

aclError aclblasGemvEx(aclTransType transA, int m, int n, const void* alpha, const void* a, int lda,
                       aclDataType dataTypeA, const void* x, int incx, aclDataType dataTypeX,
                       const void* beta, void* y, int incy, aclDataType dataTypeY,
                       aclComputeType type, aclrtStream stream) {
    OPENACL_API();
    return Gemv(transA, m, n, alpha, a, lda, dataTypeA, x, incx, dataTypeX, beta, y, incy,
                dataTypeY, type, stream);
}

aclError aclblasHgemv(aclTransType transA, int m, int n, const aclFloat16* alpha,
                      const aclFloat16* a, int lda, const aclFloat16* x, int incx,
                      const aclFloat16* beta, aclFloat16* y, int incy, aclComputeType type,
                      aclrtStream stream) {
    OPENACL_API();
    return Gemv(transA, m, n, alpha, a, lda, ACL_FLOAT16, x, incx, ACL_FLOAT16, beta, y, incy,
                ACL_FLOAT16, type, stream);
}

aclError aclblasS8gemv(aclTransType transA, int m, int n, const int32_t* alpha, const int8_t* a,
                       int lda, const int8_t* x, int incx, const int32_t* beta, int32_t* y,
                       int incy, aclComputeType type, aclrtStream stream) {
    OPENACL_API();
    return Gemv(transA, m, n, alpha, a, lda, ACL_INT8, x, incx, ACL_INT8, beta, y, incy, ACL_INT32,
                type, stream);
}
