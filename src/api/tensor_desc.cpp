// acl_base_mdl.h: tensor descriptors. They are plain host objects, so none of these functions
// needs aclInit or a device. Every descriptor handed out is registered, which lets each call
// refuse a destroyed or foreign pointer with a message instead of reading freed memory.
#include <algorithm>
#include <cinttypes>
#include <cstring>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "core/error.h"
#include "model/tensor_desc.h"

using openacl::Fail;
using openacl::model::IsLiveTensorDesc;

namespace {

constexpr int64_t kDynamicDim = -1;
constexpr int64_t kUnknownRankDim = -2;

bool IsUnknownRank(const std::vector<int64_t>& dims) {
    return dims.size() == 1 && dims[0] == kUnknownRankDim;
}

// What the CPU backend knows of each format: its name for messages and, for the plain layouts,
// the axis letters in memory order. ND and UNDEFINED have no axes: any rank, no meaning per axis.
// The packed formats (C0 blocks, fractal tiles) are Ascend storage layouts the CPU never uses.
struct FormatInfo {
    aclFormat format;
    const char* name;
    const char* axes;  // nullptr: no per-axis meaning
    bool packed;
};

constexpr FormatInfo kFormats[] = {
    {ACL_FORMAT_UNDEFINED, "ACL_FORMAT_UNDEFINED", nullptr, false},
    {ACL_FORMAT_NCHW, "ACL_FORMAT_NCHW", "NCHW", false},
    {ACL_FORMAT_NHWC, "ACL_FORMAT_NHWC", "NHWC", false},
    {ACL_FORMAT_ND, "ACL_FORMAT_ND", nullptr, false},
    {ACL_FORMAT_NC1HWC0, "ACL_FORMAT_NC1HWC0", nullptr, true},
    {ACL_FORMAT_FRACTAL_Z, "ACL_FORMAT_FRACTAL_Z", nullptr, true},
    {ACL_FORMAT_NC1HWC0_C04, "ACL_FORMAT_NC1HWC0_C04", nullptr, true},
    {ACL_FORMAT_HWCN, "ACL_FORMAT_HWCN", "HWCN", false},
    {ACL_FORMAT_NDHWC, "ACL_FORMAT_NDHWC", "NDHWC", false},
    {ACL_FORMAT_FRACTAL_NZ, "ACL_FORMAT_FRACTAL_NZ", nullptr, true},
    {ACL_FORMAT_NCDHW, "ACL_FORMAT_NCDHW", "NCDHW", false},
    {ACL_FORMAT_NDC1HWC0, "ACL_FORMAT_NDC1HWC0", nullptr, true},
    {ACL_FRACTAL_Z_3D, "ACL_FRACTAL_Z_3D", nullptr, true},
    {ACL_FORMAT_NC, "ACL_FORMAT_NC", "NC", false},
    {ACL_FORMAT_NCL, "ACL_FORMAT_NCL", "NCL", false},
    {ACL_FORMAT_FRACTAL_NZ_C0_16, "ACL_FORMAT_FRACTAL_NZ_C0_16", nullptr, true},
    {ACL_FORMAT_FRACTAL_NZ_C0_32, "ACL_FORMAT_FRACTAL_NZ_C0_32", nullptr, true},
    {ACL_FORMAT_FRACTAL_NZ_C0_2, "ACL_FORMAT_FRACTAL_NZ_C0_2", nullptr, true},
    {ACL_FORMAT_FRACTAL_NZ_C0_4, "ACL_FORMAT_FRACTAL_NZ_C0_4", nullptr, true},
    {ACL_FORMAT_FRACTAL_NZ_C0_8, "ACL_FORMAT_FRACTAL_NZ_C0_8", nullptr, true},
};

const FormatInfo* FindFormat(aclFormat format) {
    for (const FormatInfo& info : kFormats) {
        if (info.format == format) return &info;
    }
    return nullptr;
}

// ACL_DT_UNDEFINED and ACL_FORMAT_UNDEFINED are accepted: they describe an absent optional
// operator input by convention.
bool IsKnownDataType(aclDataType type) {
    // aclDataTypeSize answers 0 only for ACL_STRING and for values that are no aclDataType.
    return type == ACL_DT_UNDEFINED || type == ACL_STRING || aclDataTypeSize(type) != 0;
}

aclError CheckFormat(aclFormat format, const char* what) {
    if (FindFormat(format) == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "%s %d is not an aclFormat", what,
                    static_cast<int>(format));
    }
    return ACL_SUCCESS;
}

aclError CheckDesc(const aclTensorDesc* desc, const char* what = "desc") {
    if (desc == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "%s is null", what);
    if (!IsLiveTensorDesc(desc)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s %p is not a live tensor descriptor (destroyed already, or not made by "
                    "aclCreateTensorDesc)",
                    what, static_cast<const void*>(desc));
    }
    return ACL_SUCCESS;
}

// Reads a shape argument: numDims >= 0, dims may be null only when numDims is 0, each
// dimension is >= 0 or -1 (dynamic), {-2} alone means unknown rank, and the static byte size
// of a `type` tensor fits in size_t.
aclError ReadShape(aclDataType type, int numDims, const int64_t* dims,
                   std::vector<int64_t>* shape) {
    if (numDims < 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "numDims is %d: a rank is >= 0 (use the shape {-2} for an unknown rank)",
                    numDims);
    }
    if (numDims > 0 && dims == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "dims is null but numDims is %d", numDims);
    }
    size_t bytes = std::max<size_t>(aclDataTypeSize(type), 1);
    for (int i = 0; i < numDims; ++i) {
        int64_t dim = dims[i];
        if (dim == kUnknownRankDim && numDims == 1) break;
        if (dim < kDynamicDim) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "dims[%d] is %" PRId64
                        ": a dimension is >= 0 or -1 (dynamic), and -2 (unknown rank) is only "
                        "valid as the whole shape {-2}",
                        i, dim);
        }
        if (dim > 0 && __builtin_mul_overflow(bytes, static_cast<uint64_t>(dim), &bytes)) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "the shape is too large: its size in bytes does not fit in size_t");
        }
    }
    shape->assign(dims, dims + numDims);
    return ACL_SUCCESS;
}

// Runs `body`, turning an allocation failure into ACL_ERROR_BAD_ALLOC: nothing may throw
// through a C entry point.
template <typename Body>
aclError Guarded(Body body) {
    try {
        return body();
    } catch (const std::bad_alloc&) {
        return Fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
    }
}

aclError SetShape(aclTensorDesc* desc, int numDims, const int64_t* dims, bool origin) {
    if (aclError error = CheckDesc(desc); error != ACL_SUCCESS) return error;
    return Guarded([&] {
        std::vector<int64_t> shape;
        if (aclError error = ReadShape(desc->data_type, numDims, dims, &shape);
            error != ACL_SUCCESS) {
            return error;
        }
        (origin ? desc->origin_dims : desc->dims) = std::move(shape);
        return ACL_SUCCESS;
    });
}

aclError SetFormat(aclTensorDesc* desc, aclFormat format, bool origin) {
    if (aclError error = CheckDesc(desc); error != ACL_SUCCESS) return error;
    if (aclError error = CheckFormat(format, "format"); error != ACL_SUCCESS) return error;
    (origin ? desc->origin_format : desc->format) = format;
    return ACL_SUCCESS;
}

// The dimension at `index`, with a message when there is none.
aclError DimAt(const aclTensorDesc* desc, size_t index, int64_t* dim) {
    if (aclError error = CheckDesc(desc); error != ACL_SUCCESS) return error;
    if (IsUnknownRank(desc->dims)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "the tensor has unknown rank (shape {-2}): it has no dimension %zu", index);
    }
    if (index >= desc->dims.size()) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "index %zu is out of range: the tensor has %zu "
                    "dimension(s)",
                    index, desc->dims.size());
    }
    *dim = desc->dims[index];
    return ACL_SUCCESS;
}

// The new shape for a plain-layout change from `src` to `dst` axes (either may be nullptr, no
// per-axis meaning: the dimensions keep their order). *order[i] is the source index of new
// dimension i.
aclError PlanTransform(const aclTensorDesc& src, const FormatInfo& from, const FormatInfo& to,
                       std::vector<size_t>* order) {
    size_t rank = src.dims.size();
    order->resize(rank);
    for (size_t i = 0; i < rank; ++i)
        (*order)[i] = i;
    if (to.axes == nullptr || IsUnknownRank(src.dims)) {
        // To ND, or a shape whose axes are unknown anyway: a relabelling. Two named layouts
        // must still describe the same axes.
        if (from.axes != nullptr && to.axes != nullptr &&
            !std::is_permutation(from.axes, from.axes + std::strlen(from.axes), to.axes,
                                 to.axes + std::strlen(to.axes))) {
            return Fail(ACL_ERROR_INVALID_PARAM, "%s and %s describe different axes", from.name,
                        to.name);
        }
        return ACL_SUCCESS;
    }
    if (rank != std::strlen(to.axes)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "srcDesc has %zu dimension(s) but %s describes %zu",
                    rank, to.name, std::strlen(to.axes));
    }
    if (from.axes == nullptr || std::strlen(from.axes) != rank) return ACL_SUCCESS;
    for (size_t i = 0; i < rank; ++i) {
        const char* axis = std::strchr(from.axes, to.axes[i]);
        if (axis == nullptr) {
            return Fail(ACL_ERROR_INVALID_PARAM, "%s and %s describe different axes", from.name,
                        to.name);
        }
        (*order)[i] = static_cast<size_t>(axis - from.axes);
    }
    return ACL_SUCCESS;
}

}  // namespace

aclTensorDesc* aclCreateTensorDesc(aclDataType dataType, int numDims, const int64_t* dims,
                                   aclFormat format) {
    OPENACL_API();
    if (!IsKnownDataType(dataType)) {
        Fail(ACL_ERROR_INVALID_PARAM, "dataType %d is not an aclDataType",
             static_cast<int>(dataType));
        return nullptr;
    }
    if (CheckFormat(format, "format") != ACL_SUCCESS) return nullptr;
    aclTensorDesc* desc = nullptr;
    Guarded([&] {
        std::vector<int64_t> shape;
        if (aclError error = ReadShape(dataType, numDims, dims, &shape); error != ACL_SUCCESS) {
            return error;
        }
        desc = openacl::model::NewTensorDesc(dataType, std::move(shape), format);
        if (desc == nullptr) return Fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
        return ACL_SUCCESS;
    });
    return desc;
}

void aclDestroyTensorDesc(const aclTensorDesc* desc) {
    OPENACL_API();
    if (desc == nullptr) return;  // like free(NULL)
    if (CheckDesc(desc) != ACL_SUCCESS) return;
    if (openacl::model::IsOwnedTensorDesc(desc)) {
        Fail(ACL_ERROR_INVALID_PARAM,
             "desc %p belongs to a dataset (aclmdlGetDatasetTensorDesc): aclmdlDestroyDataset "
             "frees it",
             static_cast<const void*>(desc));
        return;
    }
    openacl::model::DeleteTensorDesc(desc);
}

aclError aclSetTensorShapeRange(aclTensorDesc* desc, size_t dimsCount,
                                int64_t dimsRange[][ACL_TENSOR_SHAPE_RANGE_NUM]) {
    OPENACL_API();
    if (aclError error = CheckDesc(desc); error != ACL_SUCCESS) return error;
    if (dimsCount > 0 && dimsRange == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "dimsRange is null but dimsCount is %zu", dimsCount);
    }
    for (size_t i = 0; i < dimsCount; ++i) {
        int64_t min = dimsRange[i][0], max = dimsRange[i][1];
        // A maximum of -1 means "no upper bound", as in GE's shape ranges.
        if (min < 0 || (max != kDynamicDim && max < min)) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "dimsRange[%zu] is [%" PRId64 ", %" PRId64
                        "]: a range is [min, max] with 0 <= min <= max, or max = -1 for no "
                        "upper bound",
                        i, min, max);
        }
    }
    return Guarded([&] {
        desc->shape_range.clear();
        for (size_t i = 0; i < dimsCount; ++i) {
            desc->shape_range.push_back({dimsRange[i][0], dimsRange[i][1]});
        }
        return ACL_SUCCESS;
    });
}

aclError aclSetTensorValueRange(aclTensorDesc* desc, size_t valueCount,
                                int64_t valueRange[][ACL_TENSOR_VALUE_RANGE_NUM]) {
    OPENACL_API();
    if (aclError error = CheckDesc(desc); error != ACL_SUCCESS) return error;
    if (valueCount > 0 && valueRange == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "valueRange is null but valueCount is %zu",
                    valueCount);
    }
    for (size_t i = 0; i < valueCount; ++i) {
        if (valueRange[i][0] > valueRange[i][1]) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "valueRange[%zu] is [%" PRId64 ", %" PRId64 "]: min is above max", i,
                        valueRange[i][0], valueRange[i][1]);
        }
    }
    return Guarded([&] {
        desc->value_range.clear();
        for (size_t i = 0; i < valueCount; ++i) {
            desc->value_range.push_back({valueRange[i][0], valueRange[i][1]});
        }
        return ACL_SUCCESS;
    });
}

aclDataType aclGetTensorDescType(const aclTensorDesc* desc) {
    OPENACL_API();
    if (CheckDesc(desc) != ACL_SUCCESS) return ACL_DT_UNDEFINED;
    return desc->data_type;
}

aclFormat aclGetTensorDescFormat(const aclTensorDesc* desc) {
    OPENACL_API();
    if (CheckDesc(desc) != ACL_SUCCESS) return ACL_FORMAT_UNDEFINED;
    return desc->format;
}

size_t aclGetTensorDescSize(const aclTensorDesc* desc) {
    OPENACL_API();
    if (CheckDesc(desc) != ACL_SUCCESS) return 0;
    // Elements times aclDataTypeSize, as documented (sub-byte types count one byte each);
    // ReadShape made sure the product fits.
    return openacl::model::ElementCount(desc->dims) * aclDataTypeSize(desc->data_type);
}

size_t aclGetTensorDescElementCount(const aclTensorDesc* desc) {
    OPENACL_API();
    if (CheckDesc(desc) != ACL_SUCCESS) return 0;
    return openacl::model::ElementCount(desc->dims);
}

size_t aclGetTensorDescNumDims(const aclTensorDesc* desc) {
    OPENACL_API();
    if (CheckDesc(desc) != ACL_SUCCESS) return 0;
    if (IsUnknownRank(desc->dims)) return ACL_UNKNOWN_RANK;
    return desc->dims.size();
}

int64_t aclGetTensorDescDim(const aclTensorDesc* desc, size_t index) {
    OPENACL_API();
    int64_t dim = 0;
    if (DimAt(desc, index, &dim) != ACL_SUCCESS) return -1;
    return dim;
}

aclError aclGetTensorDescDimV2(const aclTensorDesc* desc, size_t index, int64_t* dimSize) {
    OPENACL_API();
    if (dimSize == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "dimSize is null");
    return DimAt(desc, index, dimSize);
}

aclError aclGetTensorDescDimRange(const aclTensorDesc* desc, size_t index, size_t dimRangeNum,
                                  int64_t* dimRange) {
    OPENACL_API();
    if (aclError error = CheckDesc(desc); error != ACL_SUCCESS) return error;
    if (dimRange == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "dimRange is null");
    if (dimRangeNum < ACL_TENSOR_SHAPE_RANGE_NUM) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "dimRangeNum is %zu: dimRange must hold %d values (min and max)", dimRangeNum,
                    ACL_TENSOR_SHAPE_RANGE_NUM);
    }
    if (!desc->shape_range.empty()) {
        if (index >= desc->shape_range.size()) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "index %zu is out of range: the shape range has %zu dimension(s)", index,
                        desc->shape_range.size());
        }
        dimRange[0] = desc->shape_range[index][0];
        dimRange[1] = desc->shape_range[index][1];
        return ACL_SUCCESS;
    }
    // Without a range set, a static dimension's range is the dimension itself.
    int64_t dim = 0;
    if (aclError error = DimAt(desc, index, &dim); error != ACL_SUCCESS) return error;
    if (dim == kDynamicDim) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "dimension %zu is dynamic and no shape range was set "
                    "(aclSetTensorShapeRange)",
                    index);
    }
    dimRange[0] = dim;
    dimRange[1] = dim;
    return ACL_SUCCESS;
}

void aclSetTensorDescName(aclTensorDesc* desc, const char* name) {
    OPENACL_API();
    if (CheckDesc(desc) != ACL_SUCCESS) return;
    if (name == nullptr) {
        Fail(ACL_ERROR_INVALID_PARAM, "name is null");
        return;
    }
    Guarded([&] {
        desc->name = name;
        return ACL_SUCCESS;
    });
}

const char* aclGetTensorDescName(aclTensorDesc* desc) {
    OPENACL_API();
    if (CheckDesc(desc) != ACL_SUCCESS) return "";
    return desc->name.c_str();
}

aclError aclTransTensorDescFormat(const aclTensorDesc* srcDesc, aclFormat dstFormat,
                                  aclTensorDesc** dstDesc) {
    OPENACL_API();
    if (aclError error = CheckDesc(srcDesc, "srcDesc"); error != ACL_SUCCESS) return error;
    if (dstDesc == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "dstDesc is null");
    if (aclError error = CheckFormat(dstFormat, "dstFormat"); error != ACL_SUCCESS) return error;
    if (dstFormat == ACL_FORMAT_UNDEFINED) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "dstFormat is ACL_FORMAT_UNDEFINED: name the format to transform to");
    }
    const FormatInfo* source = FindFormat(srcDesc->format);
    if (source == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "srcDesc has format %d, which is not an aclFormat",
                    static_cast<int>(srcDesc->format));
    }
    const FormatInfo& from = *source;
    const FormatInfo& to = *FindFormat(dstFormat);
    if (dstFormat != srcDesc->format && (from.packed || to.packed)) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "%s -> %s is not supported: it needs Ascend's packed (C0-blocked or "
                    "fractal) storage layout, which the CPU backend does not use",
                    from.name, to.name);
    }
    return Guarded([&] {
        std::vector<size_t> order;
        if (aclError error = PlanTransform(*srcDesc, from, to, &order); error != ACL_SUCCESS) {
            return error;
        }
        bool moves = false;
        for (size_t i = 0; i < order.size(); ++i)
            moves = moves || order[i] != i;
        // Permuting a shape reorders the elements; per-element data would need re-laying out.
        if (moves && (srcDesc->is_const || srcDesc->value_range.size() > 1)) {
            return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                        "%s -> %s transposes the tensor, and srcDesc carries per-element data "
                        "(aclSetTensorConst or aclSetTensorValueRange) that openacl does not "
                        "re-lay out",
                        from.name, to.name);
        }
        aclTensorDesc result = *srcDesc;
        for (size_t i = 0; i < order.size(); ++i)
            result.dims[i] = srcDesc->dims[order[i]];
        if (moves && srcDesc->shape_range.size() == order.size()) {
            for (size_t i = 0; i < order.size(); ++i) {
                result.shape_range[i] = srcDesc->shape_range[order[i]];
            }
        }
        result.format = dstFormat;
        // The origin records the tensor as the model described it: the source, unless the
        // source had one itself.
        if (srcDesc->origin_format == ACL_FORMAT_UNDEFINED && srcDesc->origin_dims.empty()) {
            result.origin_format = srcDesc->format;
            result.origin_dims = srcDesc->dims;
        }
        aclTensorDesc* desc = openacl::model::CloneTensorDesc(result);
        if (desc == nullptr) return Fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
        *dstDesc = desc;
        return ACL_SUCCESS;
    });
}

// The storage format and shape are the format and shape: a CPU tensor has no second layout.
aclError aclSetTensorStorageFormat(aclTensorDesc* desc, aclFormat format) {
    OPENACL_API();
    return SetFormat(desc, format, false);
}

aclError aclSetTensorStorageShape(aclTensorDesc* desc, int numDims, const int64_t* dims) {
    OPENACL_API();
    return SetShape(desc, numDims, dims, false);
}

aclError aclSetTensorFormat(aclTensorDesc* desc, aclFormat format) {
    OPENACL_API();
    return SetFormat(desc, format, false);
}

aclError aclSetTensorShape(aclTensorDesc* desc, int numDims, const int64_t* dims) {
    OPENACL_API();
    return SetShape(desc, numDims, dims, false);
}

aclError aclSetTensorOriginFormat(aclTensorDesc* desc, aclFormat format) {
    OPENACL_API();
    return SetFormat(desc, format, true);
}

aclError aclSetTensorOriginShape(aclTensorDesc* desc, int numDims, const int64_t* dims) {
    OPENACL_API();
    return SetShape(desc, numDims, dims, true);
}

aclTensorDesc* aclGetTensorDescByIndex(aclTensorDesc* desc, size_t index) {
    OPENACL_API();
    // In CANN, desc is the first element of an array of descriptors the runtime allocated in
    // one block, and this returns &desc[index]. openacl allocates every descriptor on its own,
    // so a descriptor is an array of one: index 0 is desc itself and any other index would
    // point past it.
    if (CheckDesc(desc) != ACL_SUCCESS) return nullptr;
    if (index != 0) {
        Fail(ACL_ERROR_INVALID_PARAM,
             "index %zu is out of range: desc is a single descriptor, only index 0 exists", index);
        return nullptr;
    }
    return desc;
}

void* aclGetTensorDescAddress(const aclTensorDesc* desc) {
    OPENACL_API();
    if (CheckDesc(desc) != ACL_SUCCESS) return nullptr;
    // NULL without a message for a tensor without constant data: a state, not a failure.
    if (!desc->is_const) return nullptr;
    return const_cast<uint8_t*>(desc->const_data.data());
}

aclError aclSetTensorDynamicInput(aclTensorDesc* desc, const char* dynamicInputName) {
    OPENACL_API();
    if (aclError error = CheckDesc(desc); error != ACL_SUCCESS) return error;
    if (dynamicInputName == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "dynamicInputName is null");
    }
    return Guarded([&] {
        desc->dynamic_input_name = dynamicInputName;
        return ACL_SUCCESS;
    });
}

aclError aclSetTensorConst(aclTensorDesc* desc, void* dataBuffer, size_t length) {
    OPENACL_API();
    if (aclError error = CheckDesc(desc); error != ACL_SUCCESS) return error;
    if (dataBuffer == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "dataBuffer is null");
    if (length == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "length is 0: constant data has at least one byte");
    }
    size_t expected = openacl::model::ElementCount(desc->dims) * aclDataTypeSize(desc->data_type);
    if (expected != 0 && length != expected) {
        openacl::Warn("length is %zu but the tensor's shape and type make %zu bytes", length,
                      expected);
    }
    // The descriptor keeps a copy: the caller's buffer may go away after this call.
    return Guarded([&] {
        const auto* bytes = static_cast<const uint8_t*>(dataBuffer);
        desc->const_data.assign(bytes, bytes + length);
        desc->is_const = true;
        return ACL_SUCCESS;
    });
}

aclError aclSetTensorPlaceMent(aclTensorDesc* desc, aclMemType memType) {
    OPENACL_API();
    if (aclError error = CheckDesc(desc); error != ACL_SUCCESS) return error;
    switch (memType) {
        case ACL_MEMTYPE_DEVICE:
        case ACL_MEMTYPE_HOST:
        case ACL_MEMTYPE_HOST_COMPILE_INDEPENDENT:
            desc->placement = memType;
            return ACL_SUCCESS;
        default:
            return Fail(ACL_ERROR_INVALID_PARAM, "memType %d is not an aclMemType",
                        static_cast<int>(memType));
    }
}
