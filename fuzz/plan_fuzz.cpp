// Fuzz target: the plan parser (model/plan.cpp), what a compiled .om's plan section passes
// before any primitive is built from it. Whatever the bytes, the parser must answer; what it
// accepts must be a plan that serialises back to the same bytes (nothing was guessed).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "model/plan.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    openacl::model::Plan plan;
    std::string error;
    if (!openacl::model::ParsePlan(data, size, &plan, &error)) {
        if (error.empty()) std::abort();  // a refusal always says why
        return 0;
    }
    const std::string again = openacl::model::SerializePlan(plan);
    if (again.size() != size || again.compare(0, size, reinterpret_cast<const char*>(data), size)) {
        std::abort();
    }
    return 0;
}
