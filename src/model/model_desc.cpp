#include "model/model_desc.h"

#include <algorithm>
#include <limits>

#include "model/convert.h"

namespace openacl::model {
namespace {

aclFormat FormatFromOption(const std::string& format, size_t rank) {
    if (format == "NCHW") return ACL_FORMAT_NCHW;
    if (format == "NHWC") return ACL_FORMAT_NHWC;
    if (format == "ND") return ACL_FORMAT_ND;
    return rank == 4 ? ACL_FORMAT_NCHW : ACL_FORMAT_ND;
}

// Positions of height and width in a 4-D tensor of this format.
std::pair<size_t, size_t> HwAxes(aclFormat format) {
    return format == ACL_FORMAT_NHWC ? std::pair<size_t, size_t>{1, 2}
                                     : std::pair<size_t, size_t>{2, 3};
}

bool HasDynamicDim(const std::vector<int64_t>& dims) {
    return std::any_of(dims.begin(), dims.end(), [](int64_t d) { return d < 0; });
}

// Name and types of a graph input or output; false when the type has no ACL counterpart.
bool DescribeValue(const ValueInfo& value, const char* kind, IoDesc* io, std::string* error,
                   aclError* code) {
    io->name = value.name;
    io->graph_type = value.type;
    io->type = value.type;
    if (value.type == ACL_DT_UNDEFINED || value.type == ACL_STRING) {
        *code = ACL_ERROR_UNSUPPORTED_DATA_TYPE;
        *error = std::string(kind) + " \"" + value.name + "\" has ONNX element type " +
                 std::to_string(value.onnx_type) + ", which openacl models do not support";
        return false;
    }
    return true;
}

}  // namespace

std::string DimsText(const std::vector<int64_t>& dims) {
    std::string text = "[";
    for (size_t i = 0; i < dims.size(); ++i) {
        if (i != 0) text += ',';
        text += std::to_string(dims[i]);
    }
    text += ']';
    return text;
}

size_t TensorBytes(aclDataType type, const std::vector<int64_t>& dims) {
    size_t count = 1;
    for (int64_t d : dims) {
        if (d < 0) return 0;
        if (d != 0 && count > std::numeric_limits<size_t>::max() / static_cast<size_t>(d)) {
            return 0;
        }
        count *= static_cast<size_t>(d);
    }
    size_t element = aclDataTypeSize(type);
    if (element != 0 && count > std::numeric_limits<size_t>::max() / element) return 0;
    return count * element;
}

std::vector<int64_t> GearDims(const IoDesc& io, aclFormat format, uint64_t batch, uint64_t h,
                              uint64_t w) {
    std::vector<int64_t> dims = io.dims;
    if (batch != 0 && !dims.empty() && dims[0] < 0) dims[0] = static_cast<int64_t>(batch);
    if (h != 0 && dims.size() == 4) {
        auto [ha, wa] = HwAxes(format);
        if (dims[ha] < 0) dims[ha] = static_cast<int64_t>(h);
        if (dims[wa] < 0) dims[wa] = static_cast<int64_t>(w);
    }
    return dims;
}

std::vector<int64_t> FlatGearDims(const ModelDescription& desc, size_t gear) {
    std::vector<int64_t> all;
    for (const auto& input : desc.dims_gears[gear])
        all.insert(all.end(), input.begin(), input.end());
    return all;
}

bool BuildDescription(const std::string& onnx, const GraphInfo& graph, const OmOptions& options,
                      ModelDescription* out, std::string* error, aclError* code) {
    ModelDescription desc;
    *code = ACL_ERROR_PARSE_MODEL;
    for (const auto& option : options.inputs) {
        bool found = std::any_of(graph.inputs.begin(), graph.inputs.end(),
                                 [&](const ValueInfo& v) { return v.name == option.name; });
        if (!found) {
            *error = "the model's options name an input \"" + option.name +
                     "\" that the graph does not have";
            return false;
        }
    }
    for (const auto& value : graph.inputs) {
        IoDesc io;
        if (!DescribeValue(value, "input", &io, error, code)) return false;
        io.dims = value.has_shape ? value.dims : std::vector<int64_t>{-2};
        for (const auto& option : options.inputs) {
            if (option.name != value.name) continue;
            if (!option.shape.empty()) {
                if (value.has_shape && option.shape.size() != value.dims.size()) {
                    *error = "input \"" + value.name + "\" has rank " +
                             std::to_string(value.dims.size()) + " but the options give shape " +
                             DimsText(option.shape);
                    return false;
                }
                io.dims = option.shape;
            }
            if (option.fp16) {
                if (value.type != ACL_FLOAT) {
                    *error = "input \"" + value.name +
                             "\" is declared float16 by atc but the graph takes a non-float type";
                    return false;
                }
                io.type = ACL_FLOAT16;
            }
        }
        io.format = FormatFromOption(options.input_format, io.dims.size());
        desc.inputs.push_back(std::move(io));
    }
    desc.graph_input_count = desc.inputs.size();

    // Dynamic gears: batch applies to inputs whose first dim is -1; image size to inputs whose
    // height and width are -1.
    desc.batch_gears = options.dynamic_batch_sizes;
    std::sort(desc.batch_gears.begin(), desc.batch_gears.end());
    desc.hw_gears = options.dynamic_image_sizes;
    if (!desc.batch_gears.empty() && !desc.hw_gears.empty()) {
        *error = "a model may have dynamic batch sizes or dynamic image sizes, not both";
        return false;
    }
    // Dims gears: each fills the graph inputs' -1 dims, in input and dim order.
    size_t dynamic_dim_count = 0;
    for (const auto& io : desc.inputs)
        dynamic_dim_count += static_cast<size_t>(std::count(io.dims.begin(), io.dims.end(), -1));
    for (const auto& values : options.dynamic_dims) {
        if (values.size() != dynamic_dim_count) {
            *error = "a dynamic dims gear has " + std::to_string(values.size()) +
                     " values but the inputs have " + std::to_string(dynamic_dim_count) +
                     " dynamic (-1) dims";
            return false;
        }
        std::vector<std::vector<int64_t>> gear;
        size_t next = 0;
        for (const auto& io : desc.inputs) {
            std::vector<int64_t> dims = io.dims;
            for (int64_t& d : dims) {
                if (d == -1) d = static_cast<int64_t>(values[next++]);
            }
            gear.push_back(std::move(dims));
        }
        desc.dims_gears.push_back(std::move(gear));
    }
    if ((!desc.batch_gears.empty() || !desc.hw_gears.empty()) && !desc.dims_gears.empty()) {
        *error = "a model has one kind of dynamic gears at most";
        return false;
    }
    const bool dynamic = desc.has_gears();
    if (dynamic && desc.dims_gears.empty()) {
        bool applies = false;
        for (const auto& io : desc.inputs) {
            if (!desc.batch_gears.empty() && !io.dims.empty() && io.dims[0] == -1) applies = true;
            if (!desc.hw_gears.empty() && io.dims.size() == 4) {
                auto [ha, wa] = HwAxes(io.format);
                if (io.dims[ha] == -1 && io.dims[wa] == -1) applies = true;
            }
        }
        if (!applies) {
            *error = desc.batch_gears.empty()
                         ? "dynamic image sizes are given but no input has -1 height and width"
                         : "dynamic batch sizes are given but no input has a -1 batch dimension";
            return false;
        }
    }

    // Every gear (or the one static shape) as the inputs' dims; sizes are the largest.
    std::vector<std::vector<std::vector<int64_t>>> gear_inputs;
    auto gear_count = std::max<size_t>(
        1, desc.batch_gears.size() + desc.hw_gears.size() + desc.dims_gears.size());
    for (size_t g = 0; g < gear_count; ++g) {
        if (!desc.dims_gears.empty()) {
            gear_inputs.push_back(desc.dims_gears[g]);
            continue;
        }
        uint64_t batch = desc.batch_gears.empty() ? 0 : desc.batch_gears[g];
        uint64_t h = desc.hw_gears.empty() ? 0 : desc.hw_gears[g][0];
        uint64_t w = desc.hw_gears.empty() ? 0 : desc.hw_gears[g][1];
        std::vector<std::vector<int64_t>> dims;
        for (const auto& io : desc.inputs)
            dims.push_back(GearDims(io, io.format, batch, h, w));
        gear_inputs.push_back(std::move(dims));
    }
    for (size_t i = 0; i < desc.inputs.size(); ++i) {
        auto& io = desc.inputs[i];
        io.max_dims = gear_inputs[0][i];
        for (const auto& gear : gear_inputs) {
            if (TensorBytes(io.type, gear[i]) > TensorBytes(io.type, io.max_dims)) {
                io.max_dims = gear[i];
            }
        }
        io.size = TensorBytes(io.type, io.max_dims);
    }

    bool inputs_static = std::none_of(gear_inputs[0].begin(), gear_inputs[0].end(),
                                      [](const auto& dims) { return HasDynamicDim(dims); });
    for (const auto& value : graph.outputs) {
        IoDesc io;
        if (!DescribeValue(value, "output", &io, error, code)) return false;
        auto chosen = options.output_types.find(value.name);
        if (chosen == options.output_types.end()) chosen = options.output_types.find("");
        if (chosen != options.output_types.end()) {
            if (!CanConvert(value.type, chosen->second)) {
                *code = ACL_ERROR_UNSUPPORTED_DATA_TYPE;
                *error = "output \"" + value.name +
                         "\" cannot be converted to the output type "
                         "the options ask for";
                return false;
            }
            io.type = chosen->second;
        }
        io.dims = value.has_shape ? value.dims : std::vector<int64_t>{-2};
        desc.outputs.push_back(std::move(io));
    }
    if (inputs_static) {
        // Shape inference per gear; a dimension that differs between gears is dynamic.
        std::vector<std::vector<std::vector<int64_t>>> gear_outputs;
        std::string why;
        for (const auto& gear : gear_inputs) {
            std::vector<std::vector<int64_t>> dims(gear.begin(),
                                                   gear.begin() + desc.graph_input_count);
            std::vector<std::vector<int64_t>> outputs;
            if (!InferOutputDims(onnx, dims, &outputs, &why)) break;
            gear_outputs.push_back(std::move(outputs));
        }
        if (gear_outputs.size() == gear_inputs.size()) {
            for (size_t o = 0; o < desc.outputs.size(); ++o) {
                auto& io = desc.outputs[o];
                std::vector<int64_t> inferred = gear_outputs[0][o];
                // Where inference could not tell but the graph declares a size, trust the graph.
                if (inferred.size() == io.dims.size()) {
                    for (size_t d = 0; d < inferred.size(); ++d) {
                        if (inferred[d] < 0) inferred[d] = io.dims[d];
                    }
                }
                io.dims = inferred;
                io.max_dims = inferred;
                for (const auto& gear : gear_outputs) {
                    const auto& dims = gear[o];
                    if (dims.size() != io.dims.size()) continue;
                    for (size_t d = 0; d < dims.size(); ++d) {
                        if (dims[d] != io.max_dims[d]) io.dims[d] = -1;
                    }
                    if (TensorBytes(io.type, dims) > TensorBytes(io.type, io.max_dims)) {
                        io.max_dims = dims;
                    }
                }
            }
        }
    }
    for (auto& io : desc.outputs) {
        if (io.max_dims.empty() && !io.dims.empty()) io.max_dims = io.dims;
        io.size = TensorBytes(io.type, io.max_dims);  // a scalar ({}) is one element
        io.format = io.dims.size() == 4 ? ACL_FORMAT_NCHW : ACL_FORMAT_ND;
    }

    if (dynamic) {
        IoDesc io;
        io.name = ACL_DYNAMIC_TENSOR_NAME;
        io.type = io.graph_type = ACL_INT64;
        // What the dynamic tensor holds: the batch, (height, width), or the dims gear's values.
        const int64_t values = !desc.batch_gears.empty() ? 1
                               : !desc.hw_gears.empty()  ? 2
                                                         : static_cast<int64_t>(dynamic_dim_count);
        io.dims = io.max_dims = {values};
        io.size = TensorBytes(ACL_INT64, io.dims);
        io.dynamic_tensor = true;
        desc.inputs.push_back(std::move(io));
    }
    *out = std::move(desc);
    *code = ACL_SUCCESS;
    return true;
}

}  // namespace openacl::model
