// The vector instructions libascendcl computes with the CPU's widest vector unit (AVX-512): the
// count forms of the element-wise instructions on float, half and int32. A kernel is compiled with
// its project's flags (no -march, often -O0 while debugging), which leave these loops scalar or 4
// lanes wide; the library's copy gives the same bits, 16 lanes at a time.
//
// openaclKernelVector and openaclKernelCast are declared weak: a kernel built without libascendcl
// (CANN's CPU-debug style, tikicpulib) or run on a CPU without AVX-512 computes the header's loop.
#ifndef OPENACL_ASCENDC_KERNEL_VEC_LIBRARY_H_
#define OPENACL_ASCENDC_KERNEL_VEC_LIBRARY_H_

#include <cstdint>
#include <type_traits>

struct half;  // kernel_half.h

namespace openacl::ascendc {

// The instructions, by the name of their AscendC function. Values are the library's interface.
enum class VecOp : uint32_t {
    kNone = 0,
    kAdd = 1,
    kSub = 2,
    kMul = 3,
    kDiv = 4,
    kMax = 5,
    kMin = 6,
    kAnd = 7,
    kOr = 8,
    kAdds = 9,
    kMuls = 10,
    kMaxs = 11,
    kMins = 12,
    kLeakyRelu = 13,
    kAbs = 14,
    kRelu = 15,
    kSqrt = 16,
    kRsqrt = 17,
    kReciprocal = 18,
    kNot = 19,
    kExp = 20,
    kLn = 21,
};

// The element types the library computes; the others stay in the header.
// half computes in float and rounds once to nearest even, as the header's loops do.
enum class VecType : uint32_t { kNone = 0, kFloat = 1, kInt32 = 2, kHalf = 3 };

template <typename T>
constexpr VecType kVecTypeOf = std::is_same_v<T, float>     ? VecType::kFloat
                               : std::is_same_v<T, int32_t> ? VecType::kInt32
                               : std::is_same_v<T, ::half>  ? VecType::kHalf
                                                            : VecType::kNone;

}  // namespace openacl::ascendc

// dst[i] = op(src0[i], src1[i]) (binary), op(src0[i], *scalar) (vector-scalar) or op(src0[i])
// (unary) for i < count, bit for bit as the header's loop computes it (a NaN result is a NaN,
// its payload unspecified as in the header). The scalar is of the type the element computes in
// (float for half). Returns 0 when done; nonzero, having written nothing, when the library does not
// compute this op, type or CPU, or when dst overlaps a source without being it.
extern "C" __attribute__((weak)) int openaclKernelVector(uint32_t op, uint32_t type, void* dst,
                                                         const void* src0, const void* src1,
                                                         const void* scalar, uint64_t count);

// Cast's count form between float and half (dst_type, src_type: VecType), in the round modes the
// CPU has (`mode`: AscendC::RoundMode's value; NONE, RINT and HYBRID to nearest even, FLOOR,
// CEIL, TRUNC), saturating finite values beyond half's range to +-65504 as the header does.
// Returns 0 when done; nonzero, having written nothing, otherwise.
extern "C" __attribute__((weak)) int openaclKernelCast(uint32_t dst_type, uint32_t src_type,
                                                       uint32_t mode, void* dst, const void* src,
                                                       uint64_t count);

namespace openacl::ascendc {

// True when the library computed the instruction.
template <typename T>
inline bool VectorLibrary(VecOp op, T* dst, const T* src0, const T* src1, const void* scalar,
                          uint64_t count) {
    if constexpr (kVecTypeOf<T> == VecType::kNone) {
        return false;
    } else {
        return op != VecOp::kNone && openaclKernelVector != nullptr &&
               openaclKernelVector(static_cast<uint32_t>(op), static_cast<uint32_t>(kVecTypeOf<T>),
                                   dst, src0, src1, scalar, count) == 0;
    }
}

// True when the library converted the elements.
template <typename D, typename S>
inline bool CastLibrary(uint32_t mode, D* dst, const S* src, uint64_t count) {
    if constexpr (kVecTypeOf<D> == VecType::kNone || kVecTypeOf<S> == VecType::kNone) {
        return false;
    } else {
        return openaclKernelCast != nullptr &&
               openaclKernelCast(static_cast<uint32_t>(kVecTypeOf<D>),
                                 static_cast<uint32_t>(kVecTypeOf<S>), mode, dst, src, count) == 0;
    }
}

}  // namespace openacl::ascendc

#endif  // OPENACL_ASCENDC_KERNEL_VEC_LIBRARY_H_
