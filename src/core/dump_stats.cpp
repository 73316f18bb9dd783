#include "core/dump_stats.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "core/float16.h"

namespace openacl::dump {

namespace {

struct StatName {
    Stat stat;
    const char* name;    // in dump_stats
    const char* column;  // in the CSV
};
constexpr StatName kStats[] = {
    {kMax, "Max", "Max Value"},
    {kMin, "Min", "Min Value"},
    {kAvg, "Avg", "Avg Value"},
    {kNan, "Nan", "Nan Count"},
    {kNegativeInf, "Negative Inf", "Negative Inf Count"},
    {kPositiveInf, "Positive Inf", "Positive Inf Count"},
    {kL2Norm, "L2norm", "L2Norm Value"},
};

template <typename T, typename Read>
void Accumulate(const void* data, uint64_t count, Read read, TensorStats* s) {
    const auto* p = static_cast<const unsigned char*>(data);
    double sum = 0, squares = 0;
    uint64_t numbers = 0;
    for (uint64_t i = 0; i < count; ++i) {
        T raw;
        std::memcpy(&raw, p + i * sizeof(T), sizeof(T));  // dumped memory need not be aligned
        const double v = read(raw);
        if (std::isnan(v)) {
            ++s->nan;
            continue;
        }
        if (std::isinf(v)) ++(v < 0 ? s->negative_inf : s->positive_inf);
        if (numbers == 0 || v > s->max) s->max = v;
        if (numbers == 0 || v < s->min) s->min = v;
        sum += v;
        squares += v * v;
        ++numbers;
    }
    s->has_values = numbers != 0;
    s->avg = numbers == 0 ? 0 : sum / static_cast<double>(numbers);
    s->l2norm = std::sqrt(squares);
}

template <typename T>
void AccumulatePlain(const void* data, uint64_t count, TensorStats* s) {
    Accumulate<T>(
        data, count, [](T v) { return static_cast<double>(v); }, s);
}

uint64_t ElementSize(aclDataType type) {
    switch (type) {
        case ACL_DOUBLE:
        case ACL_INT64:
        case ACL_UINT64:
            return 8;
        case ACL_FLOAT:
        case ACL_INT32:
        case ACL_UINT32:
            return 4;
        case ACL_FLOAT16:
        case ACL_BF16:
        case ACL_INT16:
        case ACL_UINT16:
            return 2;
        case ACL_INT8:
        case ACL_UINT8:
        case ACL_BOOL:
            return 1;
        default:
            return 0;
    }
}

const char* TypeName(aclDataType type) {
    switch (type) {
        case ACL_FLOAT:
            return "DT_FLOAT";
        case ACL_FLOAT16:
            return "DT_FLOAT16";
        case ACL_BF16:
            return "DT_BF16";
        case ACL_DOUBLE:
            return "DT_DOUBLE";
        case ACL_INT8:
            return "DT_INT8";
        case ACL_INT16:
            return "DT_INT16";
        case ACL_INT32:
            return "DT_INT32";
        case ACL_INT64:
            return "DT_INT64";
        case ACL_UINT8:
            return "DT_UINT8";
        case ACL_UINT16:
            return "DT_UINT16";
        case ACL_UINT32:
            return "DT_UINT32";
        case ACL_UINT64:
            return "DT_UINT64";
        case ACL_BOOL:
            return "DT_BOOL";
        default:
            return "DT_UNDEFINED";
    }
}

// A number as the CSV shows it: "nan"/"inf"/"-inf" for those, else 9 significant digits.
std::string Number(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    char text[40];
    std::snprintf(text, sizeof text, "%.9g", v);
    return text;
}

// A CSV field: quoted (quotes doubled) when it holds a comma, a quote or a line break.
std::string Quoted(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) {
        if (c == '"') quoted += '"';
        quoted += c;
    }
    return quoted + "\"";
}

}  // namespace

uint32_t StatNamed(const std::string& name) {
    for (const StatName& s : kStats) {
        if (name == s.name) return s.stat;
    }
    return 0;
}

TensorStats Compute(aclDataType type, const void* data, uint64_t bytes) {
    TensorStats s;
    const uint64_t size = ElementSize(type);
    if (size == 0 || data == nullptr) {
        s.supported = false;
        return s;
    }
    const uint64_t count = bytes / size;
    s.count = count;
    switch (type) {
        case ACL_FLOAT:
            AccumulatePlain<float>(data, count, &s);
            break;
        case ACL_DOUBLE:
            AccumulatePlain<double>(data, count, &s);
            break;
        case ACL_FLOAT16:
            Accumulate<uint16_t>(
                data, count, [](uint16_t b) { return double{f16::HalfToFloat(b)}; }, &s);
            break;
        case ACL_BF16:
            Accumulate<uint16_t>(
                data, count, [](uint16_t b) { return double{f16::Bf16ToFloat(b)}; }, &s);
            break;
        case ACL_INT8:
            AccumulatePlain<int8_t>(data, count, &s);
            break;
        case ACL_INT16:
            AccumulatePlain<int16_t>(data, count, &s);
            break;
        case ACL_INT32:
            AccumulatePlain<int32_t>(data, count, &s);
            break;
        case ACL_INT64:
            AccumulatePlain<int64_t>(data, count, &s);
            break;
        case ACL_UINT8:
            AccumulatePlain<uint8_t>(data, count, &s);
            break;
        case ACL_UINT16:
            AccumulatePlain<uint16_t>(data, count, &s);
            break;
        case ACL_UINT32:
            AccumulatePlain<uint32_t>(data, count, &s);
            break;
        case ACL_UINT64:
            AccumulatePlain<uint64_t>(data, count, &s);
            break;
        case ACL_BOOL:
            AccumulatePlain<uint8_t>(data, count, &s);
            break;
        default:
            s.supported = false;
            break;
    }
    return s;
}

std::string CsvHeader(uint32_t stats) {
    std::string header =
        "Op Type,Op Name,Task ID,Stream ID,Timestamp,Input/Output,Slot,Data Size,Data Type,"
        "Format,Shape,Count";
    for (const StatName& s : kStats) {
        if ((stats & s.stat) != 0) header += std::string(",") + s.column;
    }
    return header + "\n";
}

std::string CsvRow(uint32_t stats, const std::string& op_type, const std::string& op_name,
                   uint32_t task_id, uint32_t stream_id, uint64_t timestamp, bool input,
                   size_t slot, aclDataType type, const std::vector<int64_t>& dims, uint64_t bytes,
                   const TensorStats& values) {
    std::string shape = "\"[";
    for (size_t i = 0; i < dims.size(); ++i)
        shape += (i != 0 ? "," : "") + std::to_string(dims[i]);
    shape += "]\"";
    char head[128];
    std::snprintf(head, sizeof head, ",%u,%u,%" PRIu64 ",%s,%zu,%" PRIu64 ",%s,ND,", task_id,
                  stream_id, timestamp, input ? "Input" : "Output", slot, bytes, TypeName(type));
    std::string row =
        Quoted(op_type) + "," + Quoted(op_name) + head + shape + "," + std::to_string(values.count);
    const double none = std::nan("");  // no value that is not NaN: the statistic is NaN too
    for (const StatName& s : kStats) {
        if ((stats & s.stat) == 0) continue;
        row += ",";
        if (!values.supported) {
            row += "N/A";
            continue;
        }
        switch (s.stat) {
            case kMax:
                row += Number(values.has_values ? values.max : none);
                break;
            case kMin:
                row += Number(values.has_values ? values.min : none);
                break;
            case kAvg:
                row += Number(values.has_values ? values.avg : none);
                break;
            case kNan:
                row += std::to_string(values.nan);
                break;
            case kNegativeInf:
                row += std::to_string(values.negative_inf);
                break;
            case kPositiveInf:
                row += std::to_string(values.positive_inf);
                break;
            case kL2Norm:
                row += Number(values.l2norm);
                break;
        }
    }
    return row + "\n";
}

}  // namespace openacl::dump
