// Single-operator models: what `atc --singleop=ops.json --output=dir` writes, one file per
// operator of the JSON, and what aclopSetModelDir (the directory and two levels below it) and
// aclopLoad (one file's bytes) load. CANN's file holds kernels compiled for an Ascend chip;
// openacl's holds the operator's description alone (type, tensor descriptions, attributes),
// since its kernels are built in: a model is what makes a call of aclopExecuteV2 legal, as on
// CANN, and the shapes it allows (static, or dynamic with ranges).
//
// The file is a 64-byte header and the operator as JSON in the very format of atc's input (one
// operator object, normalised: canonical type and format names, every attribute typed), so a
// model is read by the same parser that reads atc's input. docs/OM_FORMAT.md, "Single-operator
// models", has the layout. Depends on no runtime state: tools/atc compiles it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "op/op_desc.h"

namespace openacl::op {

// One operator of an atc --singleop file, or the operator a model file holds.
struct OpModelSpec {
    OpDesc desc;
    std::string name;  // the "name" key: the model file's name without ".om"; may be empty
};

// Parses the text of an `atc --singleop` file: a JSON array of operator objects (op,
// input_desc, output_desc, attr, name, compile_flag). False with *error naming the operator
// (by index) and the key at fault.
bool ParseSingleOpJson(const std::string& text, std::vector<OpModelSpec>* ops, std::string* error);

// The operator as a normalised single-op JSON object (what a model file stores).
std::string OpModelToJson(const OpModelSpec& spec, const std::string& producer);

// A model file's bytes.
std::string SerializeOpModel(const OpModelSpec& spec, const std::string& producer);
// Whether the bytes start with the single-operator model magic ("OACL-OP\0").
bool IsOpModel(const void* data, size_t size);
// Parses a model file (header, checksum, JSON). False with *error.
bool ParseOpModel(const void* data, size_t size, OpModelSpec* spec, std::string* error);
// The JSON of a model file, for `atc --mode=1`; empty when the header is bad.
std::string OpModelJsonText(const void* data, size_t size);

// The name atc gives the model of operator `index` without a "name": CANN's
// "<index>_<op>_<dtype>_<format>_<dims>..._<dtype>_<format>_<dims>" over the inputs and then
// the outputs, with data types and formats as their enum values ("0_Cast_0_2_1000_1_2_1000").
std::string DefaultModelName(size_t index, const OpDesc& desc);

inline constexpr size_t kOpModelHeaderSize = 64;
inline constexpr uint32_t kOpModelFormatVersion = 1;

}  // namespace openacl::op
