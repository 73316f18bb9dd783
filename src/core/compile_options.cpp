#include "core/compile_options.h"

#include <array>
#include <atomic>
#include <mutex>
#include <string_view>

#include "core/config.h"
#include "core/error.h"
#include "core/runtime.h"

namespace openacl {
namespace {

// What CANN documents of each option (the aclCompileOpt page of its API reference): the values
// it accepts (none listed: any string) and the value in force until a program sets one
// (nullptr: none that openacl can report).
struct OptionSpec {
    const char* name;
    const char* accepted[10];  // up to the first nullptr; none: any string
    const char* default_value;
};

// Indexed by aclCompileOpt. ACL_OP_JIT_COMPILE's default depends on the chip (JitDefault).
const std::array<OptionSpec, kCompileOptCount> kOptions = {{
    {"ACL_PRECISION_MODE",
     {"force_fp32", "cube_fp16in_fp32out", "force_fp16", "allow_fp32_to_fp16",
      "must_keep_origin_dtype", "allow_mix_precision", "allow_mix_precision_fp16",
      "allow_mix_precision_bf16", "allow_fp32_to_bf16"},
     "allow_fp32_to_fp16"},
    {"ACL_AICORE_NUM", {}, nullptr},
    {"ACL_AUTO_TUNE_MODE", {}, nullptr},
    {"ACL_OP_SELECT_IMPL_MODE",
     {"high_precision", "high_performance", "high_precision_for_all", "high_performance_for_all"},
     "high_precision"},
    {"ACL_OPTYPELIST_FOR_IMPLMODE", {}, nullptr},
    {"ACL_OP_DEBUG_LEVEL", {"0", "1", "2", "3", "4"}, "0"},
    {"ACL_DEBUG_DIR", {}, nullptr},
    {"ACL_OP_COMPILER_CACHE_MODE", {"enable", "force", "disable"}, "disable"},
    {"ACL_OP_COMPILER_CACHE_DIR", {}, nullptr},
    {"ACL_OP_PERFORMANCE_MODE", {"normal", "high"}, "normal"},
    {"ACL_OP_JIT_COMPILE", {"enable", "disable"}, nullptr},
    {"ACL_OP_DETERMINISTIC", {"0", "1"}, "0"},
    {"ACL_CUSTOMIZE_DTYPES", {}, nullptr},
    {"ACL_OP_PRECISION_MODE", {}, nullptr},
    {"ACL_ALLOW_HF32", {"true", "false"}, nullptr},
    {"ACL_PRECISION_MODE_V2",
     {"fp16", "origin", "cube_fp16in_fp32out", "mixed_float16", "mixed_bfloat16", "mixed_hif8",
      "cube_hif8"},
     "fp16"},
    {"ACL_OP_DEBUG_OPTION", {"oom"}, nullptr},
}};

struct Table {
    std::mutex mutex;
    std::array<std::optional<std::string>, kCompileOptCount> values;  // set by the program
};

// Never destroyed: programs may read options from static destructors.
Table& TheTable() {
    static auto* table = new Table;
    return *table;
}

std::atomic<int> g_compile_flag{ACL_OP_COMPILE_DEFAULT};

// CANN compiles online by default except on the chips that ship prebuilt operator binaries:
// Atlas A2 (Ascend910B*), Atlas A3 (Ascend910_93*) and Ascend 950.
const char* JitDefault() {
    const std::string& soc = Runtime::Get().config().soc_name;
    for (const char* prefix : {"Ascend910B", "Ascend910_9", "Ascend950"}) {
        if (soc.rfind(prefix, 0) == 0) return "disable";
    }
    return "enable";
}

std::string AcceptedList(const OptionSpec& spec) {
    std::string list;
    for (const char* value : spec.accepted) {
        if (value == nullptr) break;
        if (!list.empty()) list += ", ";
        list += '"';
        list += value;
        list += '"';
    }
    return list;
}

bool IsAccepted(const OptionSpec& spec, std::string_view value) {
    for (const char* accepted : spec.accepted) {
        if (accepted == nullptr) break;
        if (value == accepted) return true;
    }
    return false;
}

bool HasAcceptedSet(const OptionSpec& spec) {
    return spec.accepted[0] != nullptr;
}

}  // namespace

bool IsCompileOpt(int opt) {
    return opt >= 0 && opt < kCompileOptCount;
}

const char* CompileOptName(aclCompileOpt opt) {
    return IsCompileOpt(opt) ? kOptions[opt].name : "unknown";
}

aclError SetCompileOpt(aclCompileOpt opt, const char* value) {
    const OptionSpec& spec = kOptions[opt];
    std::string stored = value;
    if (opt == ACL_AUTO_TUNE_MODE) {
        return Fail(ACL_ERROR_FEATURE_UNSUPPORTED,
                    "ACL_AUTO_TUNE_MODE was discarded by CANN and cannot be set (CANN tunes "
                    "operators with its AOE tool instead)");
    }
    if (opt == ACL_OP_JIT_COMPILE && !IsAccepted(spec, stored)) {
        // CANN takes every value but "enable" as "disable".
        if (Runtime::Get().config().strict) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "ACL_OP_JIT_COMPILE value \"%s\" is neither \"enable\" nor \"disable\" "
                        "(refused because openacl.strict is on; CANN takes it as \"disable\")",
                        value);
        }
        Warn(
            "ACL_OP_JIT_COMPILE value \"%s\" is neither \"enable\" nor \"disable\": taken as "
            "\"disable\", as CANN does",
            value);
        stored = "disable";
    } else if (HasAcceptedSet(spec) && !IsAccepted(spec, stored)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "%s does not accept \"%s\": its values are %s",
                    spec.name, value, AcceptedList(spec).c_str());
    }
    Table& table = TheTable();
    std::lock_guard lock(table.mutex);
    if (stored.empty()) {
        table.values[opt].reset();  // a free-form option back to no value
    } else {
        table.values[opt] = std::move(stored);
    }
    return ACL_SUCCESS;
}

std::optional<std::string> CompileOptValue(aclCompileOpt opt) {
    {
        Table& table = TheTable();
        std::lock_guard lock(table.mutex);
        if (table.values[opt]) return table.values[opt];
    }
    if (opt == ACL_OP_JIT_COMPILE) return std::string(JitDefault());
    if (const char* fallback = kOptions[opt].default_value) return std::string(fallback);
    return std::nullopt;
}

bool JitCompileEnabled() {
    return CompileOptValue(ACL_OP_JIT_COMPILE) == "enable";
}

void SetOpCompileFlag(aclOpCompileFlag flag) {
    g_compile_flag.store(flag, std::memory_order_relaxed);
}

aclOpCompileFlag OpCompileFlag() {
    return static_cast<aclOpCompileFlag>(g_compile_flag.load(std::memory_order_relaxed));
}

}  // namespace openacl
