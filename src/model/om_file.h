// The .om container openacl's atc writes: a versioned header, the options atc decided (JSON)
// and the ONNX graph they apply to. docs/OM_FORMAT.md describes the layout byte by byte.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "acl/acl_base_rt.h"
#include "model/engine_choices.h"

namespace openacl::model {

// What atc decided about one graph input.
struct OmInputOption {
    std::string name;
    std::vector<int64_t> shape;  // from --input_shape; empty = the graph's own; -1 = dynamic
    bool fp16 = false;           // from --input_fp16_nodes: callers supply float16 data
};

struct OmOptions {
    std::string soc_version;   // --soc_version
    std::string input_format;  // --input_format: "NCHW", "NHWC", "ND" or "" (not given)
    std::vector<OmInputOption> inputs;
    // --output_type: "" maps the type of every output; otherwise output name -> type.
    std::map<std::string, aclDataType> output_types;
    std::vector<uint64_t> dynamic_batch_sizes;                 // --dynamic_batch_size
    std::vector<std::array<uint64_t, 2>> dynamic_image_sizes;  // --dynamic_image_size (h, w)
    // --dynamic_dims: per gear, the values of the inputs' -1 dims, in input and dim order.
    std::vector<std::vector<uint64_t>> dynamic_dims;
    std::string producer;  // "openacl atc <version>"
    // What the compiled engine decided by timing when atc converted the model (machine empty
    // when it did not: OpenCV DNN models, or no timing); the loader uses them on that machine.
    EngineChoices engine;
};

struct OmFile {
    OmOptions options;
    std::string onnx;  // the serialized ONNX ModelProto
    // Format version 2: the compiled plan (model/plan.h bytes) atc made of the ONNX graph, or
    // empty when the graph runs on OpenCV DNN. ParseOm only locates it; the loader validates it.
    std::string plan;
};

enum class ModelFormat { kOm, kOnnx, kUnknown };

// Recognises a model by its content: the .om magic, or a plausible ONNX ModelProto.
ModelFormat DetectModelFormat(const void* data, size_t size);

// Parses an .om image. On failure returns false and says what is wrong in *error
// (truncated, bad magic, unsupported version, malformed options...). Never trusts a length.
bool ParseOm(const void* data, size_t size, OmFile* out, std::string* error);

// The bytes of an .om image.
std::string SerializeOm(const OmFile& file);

// Layout constants (docs/OM_FORMAT.md). Version 2 adds the plan section and its header fields
// (bytes 64..80); version 1 files still read, without a plan.
inline constexpr size_t kOmHeaderSize = 64;  // version 1's header, and where the checksum ends
inline constexpr size_t kOmHeaderSizeV2 = 80;
inline constexpr uint32_t kOmFormatVersion = 2;
inline constexpr size_t kOmChecksumOffset = 60;

// The CRC-32 an .om image must carry at kOmChecksumOffset: over the whole image except those
// four bytes. Exposed so tests and tools can re-seal an image they edited on purpose.
uint32_t OmChecksum(const void* image, size_t size);

// The options section's JSON text (what SerializeOm stores; `atc --mode=1` shows it).
std::string OmOptionsToJson(const OmOptions& options);

// ACL data type <-> the name the options use ("FP32", "FP16", "UINT8"...).
// Unknown types give "" / false.
std::string DataTypeName(aclDataType type);
bool DataTypeFromName(const std::string& name, aclDataType* type);

}  // namespace openacl::model
