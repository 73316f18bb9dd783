// Fuzz target: single-operator models (op/op_model_file.cpp), what atc --singleop reads and
// aclopSetModelDir / aclopLoad load. The bytes are tried as atc's JSON input and as a model
// file. Whatever they are, the parsers must answer, and a refusal says why; what the JSON
// parser accepts must make model files that read back as the same operators.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "op/op_model_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string error;
    openacl::op::OpModelSpec model;
    if (!openacl::op::ParseOpModel(data, size, &model, &error) && error.empty()) std::abort();

    const std::string text(reinterpret_cast<const char*>(data), size);
    std::vector<openacl::op::OpModelSpec> ops;
    error.clear();
    if (!openacl::op::ParseSingleOpJson(text, &ops, &error)) {
        if (error.empty()) std::abort();
        return 0;
    }
    for (const openacl::op::OpModelSpec& op : ops) {
        const std::string image = openacl::op::SerializeOpModel(op, "fuzz");
        openacl::op::OpModelSpec again;
        if (!openacl::op::ParseOpModel(image.data(), image.size(), &again, &error)) std::abort();
        if (openacl::op::DescKey(again.desc, true) != openacl::op::DescKey(op.desc, true) ||
            again.name != op.name) {
            std::abort();
        }
    }
    return 0;
}
