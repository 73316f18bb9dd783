// Statistics dumps (dump_data "stats" with its dump_stats choice): instead of whole tensors, one
// CSV row per dumped input or output with its largest, smallest and mean value, how many of its
// elements are NaN, negative or positive infinity, and its L2 norm, so that a first pass over a
// model finds the layers worth dumping whole.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl_base.h"

namespace openacl::dump {

// What a row holds, as dump_stats names it.
enum Stat : uint32_t {
    kMax = 1u << 0,          // "Max"
    kMin = 1u << 1,          // "Min"
    kAvg = 1u << 2,          // "Avg"
    kNan = 1u << 3,          // "Nan"
    kNegativeInf = 1u << 4,  // "Negative Inf"
    kPositiveInf = 1u << 5,  // "Positive Inf"
    kL2Norm = 1u << 6,       // "L2norm"
};
// What a row holds when dump_stats is not given.
constexpr uint32_t kDefaultStats = kMax | kMin | kAvg | kNan | kNegativeInf | kPositiveInf;

// The Stat dump_stats's `name` means, or 0 when it names none.
uint32_t StatNamed(const std::string& name);

// The statistics of the elements of type `type` in `bytes` bytes at `data`. Max, Min, Avg and the
// norm are over the values that are not NaN (infinities included); NaN and infinity counts are 0
// for types without them.
struct TensorStats {
    uint64_t count = 0;
    uint64_t nan = 0, negative_inf = 0, positive_inf = 0;
    double max = 0, min = 0, avg = 0, l2norm = 0;
    bool has_values = false;  // some element is not NaN
    bool supported = true;    // a type whose elements can be read as numbers
};
TensorStats Compute(aclDataType type, const void* data, uint64_t bytes);

// The CSV header of a statistics file holding `stats`.
std::string CsvHeader(uint32_t stats);
// One row: the tensor's place (operator type and name, task, stream, timestamp, "Input" or
// "Output" and its index) and its description, then the chosen statistics.
std::string CsvRow(uint32_t stats, const std::string& op_type, const std::string& op_name,
                   uint32_t task_id, uint32_t stream_id, uint64_t timestamp, bool input,
                   size_t slot, aclDataType type, const std::vector<int64_t>& dims, uint64_t bytes,
                   const TensorStats& values);

}  // namespace openacl::dump
