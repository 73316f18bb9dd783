#include "op/op_desc.h"

#include <algorithm>
#include <cctype>

namespace openacl::op {
namespace {

struct DtypeName {
    aclDataType type;
    const char* name;
    size_t size;
};

// The single-op JSON names (ge's single_op_parser), first the canonical one of each type.
constexpr DtypeName kDtypes[] = {
    {ACL_BOOL, "bool", 1},
    {ACL_INT8, "int8", 1},
    {ACL_UINT8, "uint8", 1},
    {ACL_INT16, "int16", 2},
    {ACL_UINT16, "uint16", 2},
    {ACL_INT32, "int32", 4},
    {ACL_UINT32, "uint32", 4},
    {ACL_INT64, "int64", 8},
    {ACL_UINT64, "uint64", 8},
    {ACL_FLOAT16, "float16", 2},
    {ACL_FLOAT16, "half", 2},
    {ACL_FLOAT16, "fp16", 2},
    {ACL_FLOAT, "float", 4},
    {ACL_FLOAT, "float32", 4},
    {ACL_FLOAT, "fp32", 4},
    {ACL_DOUBLE, "double", 8},
    {ACL_BF16, "bfloat16", 2},
    {ACL_COMPLEX64, "complex64", 8},
    {ACL_COMPLEX128, "complex128", 16},
};

struct FormatName {
    aclFormat format;
    const char* name;
};

constexpr FormatName kFormats[] = {
    {ACL_FORMAT_ND, "ND"},
    {ACL_FORMAT_NCHW, "NCHW"},
    {ACL_FORMAT_NHWC, "NHWC"},
    {ACL_FORMAT_HWCN, "HWCN"},
    {ACL_FORMAT_NC, "NC"},
    {ACL_FORMAT_NCL, "NCL"},
    {ACL_FORMAT_NDHWC, "NDHWC"},
    {ACL_FORMAT_NCDHW, "NCDHW"},
    {ACL_FORMAT_NC1HWC0, "NC1HWC0"},
    {ACL_FORMAT_NC1HWC0_C04, "NC1HWC0_C04"},
    {ACL_FORMAT_FRACTAL_Z, "FRACTAL_Z"},
    {ACL_FORMAT_FRACTAL_NZ, "FRACTAL_NZ"},
    {ACL_FORMAT_NDC1HWC0, "NDC1HWC0"},
    {ACL_FRACTAL_Z_3D, "FRACTAL_Z_3D"},
    {ACL_FORMAT_UNDEFINED, "UNDEFINED"},
};

bool SameIgnoringCase(const std::string& a, const char* b) {
    size_t i = 0;
    for (; i < a.size() && b[i] != '\0'; ++i) {
        if (std::tolower(static_cast<unsigned char>(a[i])) !=
            std::tolower(static_cast<unsigned char>(b[i]))) {
            return false;
        }
    }
    return i == a.size() && b[i] == '\0';
}

std::string DimsText(const std::vector<int64_t>& dims) {
    std::string out = "[";
    for (size_t i = 0; i < dims.size(); ++i) {
        if (i != 0) out += ", ";
        out += std::to_string(dims[i]);
    }
    return out + "]";
}

}  // namespace

bool TensorSpec::is_static() const {
    return std::none_of(dims.begin(), dims.end(), [](int64_t d) { return d < 0; });
}

int64_t TensorSpec::numel() const {
    int64_t n = 1;
    for (int64_t d : dims) {
        if (d < 0 || __builtin_mul_overflow(n, d, &n)) return -1;  // dynamic, or no real size
    }
    return n;
}

size_t ElementSize(aclDataType type) {
    for (const DtypeName& entry : kDtypes) {
        if (entry.type == type) return entry.size;
    }
    return 0;
}

const char* DtypeJsonName(aclDataType type) {
    for (const DtypeName& entry : kDtypes) {
        if (entry.type == type) return entry.name;
    }
    return nullptr;
}

const char* FormatJsonName(aclFormat format) {
    for (const FormatName& entry : kFormats) {
        if (entry.format == format) return entry.name;
    }
    return nullptr;
}

bool DtypeFromJsonName(const std::string& name, aclDataType* type) {
    for (const DtypeName& entry : kDtypes) {
        if (SameIgnoringCase(name, entry.name)) {
            *type = entry.type;
            return true;
        }
    }
    return false;
}

bool FormatFromJsonName(const std::string& name, aclFormat* format) {
    for (const FormatName& entry : kFormats) {
        if (SameIgnoringCase(name, entry.name)) {
            *format = entry.format;
            return true;
        }
    }
    return false;
}

std::string DescKey(const OpDesc& desc, bool output_dims) {
    std::string key = desc.type;
    auto add = [&key](const TensorSpec& t, bool with_dims) {
        key += '|';
        key += std::to_string(static_cast<int>(t.dtype));
        key += ',';
        key += std::to_string(static_cast<int>(t.format));
        if (with_dims) {
            for (int64_t d : t.dims) {
                key += ',';
                key += std::to_string(d);
            }
        }
        if (t.host()) key += ",h";
        if (t.is_const) {
            key += ",c";
            key += std::to_string(t.const_data.size());
            key += ':';
            key.append(reinterpret_cast<const char*>(t.const_data.data()), t.const_data.size());
        }
    };
    for (const TensorSpec& t : desc.inputs)
        add(t, true);
    key += "|>";
    for (const TensorSpec& t : desc.outputs)
        add(t, output_dims);
    key += '|';
    key += desc.attr.Text();
    return key;
}

std::string SpecText(const TensorSpec& spec) {
    if (spec.absent()) return "(absent)";
    const char* dtype = DtypeJsonName(spec.dtype);
    const char* format = FormatJsonName(spec.format);
    std::string out = dtype != nullptr ? dtype : "dtype " + std::to_string(spec.dtype);
    out += ' ';
    out += format != nullptr ? format : "format " + std::to_string(spec.format);
    out += ' ';
    out += DimsText(spec.dims);
    if (spec.is_const) {
        out += " const";
    } else if (spec.host()) {
        out += " host";
    }
    return out;
}

std::string DescText(const OpDesc& desc) {
    auto list = [](const std::vector<TensorSpec>& specs) {
        std::string out;
        for (size_t i = 0; i < specs.size(); ++i) {
            if (i != 0) out += ", ";
            out += SpecText(specs[i]);
        }
        return out;
    };
    std::string out = desc.type + "(" + list(desc.inputs) + ") -> (" + list(desc.outputs) + ")";
    if (!desc.attr.empty()) out += " " + desc.attr.Text();
    return out;
}

}  // namespace openacl::op
