#include "core/config.h"

#include <sched.h>

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/error.h"
#include "core/log.h"

namespace openacl {
namespace {

using nlohmann::json;

constexpr int kMaxJsonDepth = 10;  // documented nesting limit of the aclInit file

int Depth(const json& value) {
    if (!value.is_structured()) return 0;
    int deepest = 0;
    for (const auto& child : value)
        deepest = std::max(deepest, Depth(child));
    return deepest + 1;
}

// Converts a byte offset into "line L, column C" for parse error messages.
std::string Where(const std::string& text, size_t offset) {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

bool ParseUnsigned(const char* text, uint64_t max, uint64_t* out) {
    if (text == nullptr || *text == '\0') return false;
    char* end = nullptr;
    errno = 0;
    unsigned long long value = std::strtoull(text, &end, 10);
    if (errno != 0 || *end != '\0' || text[0] == '-' || value > max) return false;
    *out = value;
    return true;
}

bool ParseBackend(const std::string& text, BackendKind* out) {
    if (text == "cpu") {
        *out = BackendKind::kCpu;
    } else if (text == "cuda") {
        *out = BackendKind::kCuda;
    } else {
        return false;
    }
    return true;
}

bool ParseBool(const char* text, bool* out) {
    if (std::strcmp(text, "1") == 0 || std::strcmp(text, "true") == 0 ||
        std::strcmp(text, "on") == 0) {
        *out = true;
        return true;
    }
    if (std::strcmp(text, "0") == 0 || std::strcmp(text, "false") == 0 ||
        std::strcmp(text, "off") == 0) {
        *out = false;
        return true;
    }
    return false;
}

// Reads an unsigned number given either as a JSON number or as a string of digits (CANN's
// own keys use strings, e.g. "default_device": "0").
bool JsonUnsigned(const json& value, uint64_t max, uint64_t* out) {
    if (value.is_number_unsigned()) {
        *out = value.get<uint64_t>();
        return *out <= max;
    }
    if (value.is_string()) return ParseUnsigned(value.get<std::string>().c_str(), max, out);
    return false;
}

bool ParsePageable(const std::string& text, check::PageableAsyncCopy* out) {
    if (text == "warn") {
        *out = check::PageableAsyncCopy::kWarn;
    } else if (text == "error") {
        *out = check::PageableAsyncCopy::kError;
    } else {
        return false;
    }
    return true;
}

// "check": true, or {"enable": true, "pageable_async_copy": "error"}.
aclError ApplyCheckSection(const json& value, const std::string& path, check::Settings* out) {
    if (value.is_boolean()) {
        out->enable = value.get<bool>();
        return ACL_SUCCESS;
    }
    if (!value.is_object()) {
        return Fail(ACL_ERROR_FILE_ATTR_INVALID,
                    "%s: openacl.check must be true, false or {\"enable\": true, "
                    "\"pageable_async_copy\": \"warn\" or \"error\"}",
                    path.c_str());
    }
    for (const auto& [key, item] : value.items()) {
        if (key == "enable") {
            if (!item.is_boolean()) {
                return Fail(ACL_ERROR_FILE_ATTR_INVALID,
                            "%s: openacl.check.enable must be true or false", path.c_str());
            }
            out->enable = item.get<bool>();
        } else if (key == "pageable_async_copy") {
            if (!item.is_string() ||
                !ParsePageable(item.get<std::string>(), &out->pageable_async_copy)) {
                return Fail(ACL_ERROR_FILE_ATTR_INVALID,
                            "%s: openacl.check.pageable_async_copy must be \"warn\" or \"error\"",
                            path.c_str());
            }
        } else {
            Warn("%s: unknown key openacl.check.%s is ignored", path.c_str(), key.c_str());
        }
    }
    return ACL_SUCCESS;
}

// A CPU list as taskset and cgroups write it: "0-3,6". Every CPU must be one this process may
// run on. On failure `why` says what is wrong.
bool ParseCpuList(const std::string& text, std::vector<int>* cpus, std::string* why) {
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    sched_getaffinity(0, sizeof allowed, &allowed);
    std::vector<int> list;
    std::stringstream items(text);
    std::string item;
    while (std::getline(items, item, ',')) {
        uint64_t first = 0, last = 0;
        const size_t dash = item.find('-');
        const std::string a = item.substr(0, dash),
                          b = dash == std::string::npos ? a : item.substr(dash + 1);
        if (!ParseUnsigned(a.c_str(), CPU_SETSIZE - 1, &first) ||
            !ParseUnsigned(b.c_str(), CPU_SETSIZE - 1, &last) || last < first) {
            *why = "\"" + item + "\" is not a CPU or a range of CPUs (like 0-3)";
            return false;
        }
        for (uint64_t cpu = first; cpu <= last; ++cpu) {
            if (!CPU_ISSET(static_cast<int>(cpu), &allowed)) {
                *why = "CPU " + std::to_string(cpu) + " is not one this process may run on";
                return false;
            }
            list.push_back(static_cast<int>(cpu));
        }
    }
    if (list.empty()) {
        *why = "the list is empty";
        return false;
    }
    *cpus = std::move(list);
    return true;
}

aclError ApplyOpenaclSection(const json& section, const std::string& path, Config* config) {
    if (!section.is_object()) {
        return Fail(ACL_ERROR_FILE_ATTR_INVALID, "%s: \"openacl\" must be a JSON object",
                    path.c_str());
    }
    for (const auto& [key, value] : section.items()) {
        uint64_t number = 0;
        if (key == "device_count") {
            if (!JsonUnsigned(value, 64, &number) || number == 0) {
                return Fail(ACL_ERROR_FILE_ATTR_INVALID,
                            "%s: openacl.device_count must be a number from 1 to 64", path.c_str());
            }
            config->device_count = static_cast<uint32_t>(number);
        } else if (key == "device_memory_mb") {
            if (!JsonUnsigned(value, uint64_t{1} << 30, &number) || number == 0) {
                return Fail(ACL_ERROR_FILE_ATTR_INVALID,
                            "%s: openacl.device_memory_mb must be a positive number of MiB",
                            path.c_str());
            }
            config->device_memory_bytes = number << 20;
        } else if (key == "worker_cpus") {
            std::string why = "it must be a string such as \"0-1,3\"";
            if (!value.is_string() ||
                !ParseCpuList(value.get<std::string>(), &config->worker_cpus, &why)) {
                return Fail(ACL_ERROR_FILE_ATTR_INVALID, "%s: openacl.worker_cpus: %s",
                            path.c_str(), why.c_str());
            }
        } else if (key == "worker_threads") {
            if (!JsonUnsigned(value, 256, &number)) {
                return Fail(ACL_ERROR_FILE_ATTR_INVALID,
                            "%s: openacl.worker_threads must be a number from 0 (one per core) "
                            "to 256",
                            path.c_str());
            }
            config->worker_threads = static_cast<uint32_t>(number);
        } else if (key == "spin_us") {
            if (!JsonUnsigned(value, 1000000, &number)) {
                return Fail(ACL_ERROR_FILE_ATTR_INVALID,
                            "%s: openacl.spin_us must be a number of microseconds (0 to 1000000)",
                            path.c_str());
            }
            config->spin_us = static_cast<uint32_t>(number);
        } else if (key == "backend") {
            if (!value.is_string() || !ParseBackend(value.get<std::string>(), &config->backend)) {
                return Fail(ACL_ERROR_FILE_ATTR_INVALID,
                            "%s: openacl.backend must be \"cpu\" or \"cuda\"", path.c_str());
            }
        } else if (key == "soc_name") {
            if (!value.is_string() || value.get<std::string>().empty()) {
                return Fail(ACL_ERROR_FILE_ATTR_INVALID,
                            "%s: openacl.soc_name must be a non-empty string", path.c_str());
            }
            config->soc_name = value.get<std::string>();
        } else if (key == "strict") {
            if (value.is_boolean()) {
                config->strict = value.get<bool>();
            } else if (!value.is_string() ||
                       !ParseBool(value.get<std::string>().c_str(), &config->strict)) {
                return Fail(ACL_ERROR_FILE_ATTR_INVALID, "%s: openacl.strict must be true or false",
                            path.c_str());
            }
        } else if (key == "trace") {
            if (!value.is_string()) {
                return Fail(ACL_ERROR_FILE_ATTR_INVALID,
                            "%s: openacl.trace must be the path of the trace file to write",
                            path.c_str());
            }
            config->trace_path = value.get<std::string>();
        } else if (key == "check") {
            if (aclError rc = ApplyCheckSection(value, path, &config->check)) return rc;
        } else {
            Warn("%s: unknown key openacl.%s is ignored", path.c_str(), key.c_str());
        }
    }
    return ACL_SUCCESS;
}

aclError ApplyJson(const std::string& text, const std::string& path, Config* config) {
    json root;
    try {
        root = json::parse(text);
    } catch (const json::parse_error& e) {
        std::string what = e.what();
        // nlohmann's text reads "[json.exception.parse_error.101] parse error at line ..."
        auto pos = what.find("] ");
        return Fail(ACL_ERROR_PARSE_FILE, "%s is not valid JSON (%s): %s", path.c_str(),
                    Where(text, e.byte == 0 ? 0 : e.byte - 1).c_str(),
                    pos == std::string::npos ? what.c_str() : what.c_str() + pos + 2);
    } catch (const json::exception& e) {
        // Valid syntax the parser still refuses, e.g. a number beyond a double ("1e999").
        std::string what = e.what();
        auto pos = what.find("] ");
        return Fail(ACL_ERROR_PARSE_FILE, "%s cannot be read: %s", path.c_str(),
                    pos == std::string::npos ? what.c_str() : what.c_str() + pos + 2);
    }
    if (!root.is_object()) {
        return Fail(ACL_ERROR_PARSE_FILE, "%s must hold a JSON object ({...})", path.c_str());
    }
    if (Depth(root) > kMaxJsonDepth) {
        return Fail(ACL_ERROR_PARSE_FILE, "%s nests deeper than %d levels of {} and []",
                    path.c_str(), kMaxJsonDepth);
    }
    if (auto it = root.find("openacl"); it != root.end()) {
        if (aclError rc = ApplyOpenaclSection(*it, path, config); rc != ACL_SUCCESS) return rc;
    }
    if (auto it = root.find("err_msg_mode"); it != root.end()) {
        uint64_t mode = 0;
        if (!JsonUnsigned(*it, 1, &mode)) {
            return Fail(ACL_ERROR_FILE_ATTR_INVALID, "%s: err_msg_mode must be \"0\" or \"1\"",
                        path.c_str());
        }
        config->err_msg_process_level = mode == 1;
    }
    if (auto it = root.find("defaultDevice"); it != root.end()) {
        uint64_t device = 0;
        if (!it->is_object() || !it->contains("default_device") ||
            !JsonUnsigned((*it)["default_device"], 1024, &device)) {
            return Fail(ACL_ERROR_FILE_ATTR_INVALID,
                        "%s: defaultDevice must look like {\"default_device\": \"0\"}",
                        path.c_str());
        }
        config->default_device = static_cast<int32_t>(device);
    }
    config->json_text = text;
    return ACL_SUCCESS;
}

aclError ApplyEnvironment(Config* config) {
    uint64_t number = 0;
    if (const char* v = std::getenv("OPENACL_DEVICE_COUNT"); v && *v) {
        if (!ParseUnsigned(v, 64, &number) || number == 0) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "OPENACL_DEVICE_COUNT=%s: expected a number from 1 to 64", v);
        }
        config->device_count = static_cast<uint32_t>(number);
    }
    if (const char* v = std::getenv("OPENACL_DEVICE_MEMORY_MB"); v && *v) {
        if (!ParseUnsigned(v, uint64_t{1} << 30, &number) || number == 0) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "OPENACL_DEVICE_MEMORY_MB=%s: expected a positive number of MiB", v);
        }
        config->device_memory_bytes = number << 20;
    }
    if (const char* v = std::getenv("OPENACL_WORKER_THREADS"); v && *v) {
        if (!ParseUnsigned(v, 256, &number)) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "OPENACL_WORKER_THREADS=%s: expected a number from 0 (one per core) to 256",
                        v);
        }
        config->worker_threads = static_cast<uint32_t>(number);
    }
    if (const char* v = std::getenv("OPENACL_WORKER_CPUS"); v && *v) {
        std::string why;
        if (!ParseCpuList(v, &config->worker_cpus, &why)) {
            return Fail(ACL_ERROR_INVALID_PARAM, "OPENACL_WORKER_CPUS=%s: %s", v, why.c_str());
        }
    }
    if (const char* v = std::getenv("OPENACL_SPIN_US"); v && *v) {
        if (!ParseUnsigned(v, 1000000, &number)) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "OPENACL_SPIN_US=%s: expected microseconds from 0 to 1000000", v);
        }
        config->spin_us = static_cast<uint32_t>(number);
    }
    if (const char* v = std::getenv("OPENACL_SOC_NAME"); v && *v) config->soc_name = v;
    if (const char* v = std::getenv("OPENACL_BACKEND"); v && *v) {
        if (!ParseBackend(v, &config->backend)) {
            return Fail(ACL_ERROR_INVALID_PARAM, "OPENACL_BACKEND=%s: expected cpu or cuda", v);
        }
    }
    if (const char* v = std::getenv("OPENACL_STRICT"); v && *v) {
        if (!ParseBool(v, &config->strict)) {
            return Fail(ACL_ERROR_INVALID_PARAM, "OPENACL_STRICT=%s: expected 0 or 1", v);
        }
    }
    if (const char* v = std::getenv("OPENACL_TRACE"); v && *v) config->trace_path = v;
    if (const char* v = std::getenv("OPENACL_CHECK"); v && *v) {
        if (!ParseBool(v, &config->check.enable)) {
            return Fail(ACL_ERROR_INVALID_PARAM, "OPENACL_CHECK=%s: expected 0 or 1", v);
        }
    }
    if (const char* v = std::getenv("OPENACL_CHECK_PAGEABLE_ASYNC_COPY"); v && *v) {
        if (!ParsePageable(v, &config->check.pageable_async_copy)) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "OPENACL_CHECK_PAGEABLE_ASYNC_COPY=%s: expected warn or error", v);
        }
    }
    config->visible_devices.clear();
    if (const char* v = std::getenv("ASCEND_RT_VISIBLE_DEVICES"); v && *v) {
        std::stringstream list(v);
        std::string item;
        while (std::getline(list, item, ',')) {
            if (!ParseUnsigned(item.c_str(), config->device_count - 1, &number)) {
                return Fail(ACL_ERROR_INVALID_PARAM,
                            "ASCEND_RT_VISIBLE_DEVICES=%s: \"%s\" is not a device id below %u", v,
                            item.c_str(), config->device_count);
            }
            config->visible_devices.push_back(static_cast<uint32_t>(number));
        }
    }
    return ACL_SUCCESS;
}

}  // namespace

const char* BackendName(BackendKind kind) {
    return kind == BackendKind::kCuda ? "cuda" : "cpu";
}

uint64_t Config::DefaultDeviceMemory() {
    long pages = sysconf(_SC_PHYS_PAGES);
    long page_size = sysconf(_SC_PAGE_SIZE);
    uint64_t ram = pages > 0 && page_size > 0
                       ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size)
                       : uint64_t{8} << 30;
    uint64_t half = (ram / 2) & ~((uint64_t{1} << 20) - 1);
    return std::max<uint64_t>(half, uint64_t{256} << 20);
}

Config ConfigFromEnvironment() {
    Config config;
    config.device_memory_bytes = Config::DefaultDeviceMemory();
    if (ApplyEnvironment(&config) != ACL_SUCCESS) {
        // Without aclInit there is nobody to return the error to: keep the defaults.
        Config defaults;
        defaults.device_memory_bytes = Config::DefaultDeviceMemory();
        return defaults;
    }
    return config;
}

aclError LoadConfig(const char* path, Config* config) {
    *config = Config{};
    config->device_memory_bytes = Config::DefaultDeviceMemory();
    if (path != nullptr && path[0] != '\0') {
        std::ifstream in(path, std::ios::binary);
        if (!in) {
            return Fail(ACL_ERROR_INVALID_FILE, "cannot open the configuration file %s: %s", path,
                        std::strerror(errno));
        }
        std::stringstream buffer;
        buffer << in.rdbuf();
        std::string text = buffer.str();
        if (text.find_first_not_of(" \t\r\n") != std::string::npos) {
            if (aclError rc = ApplyJson(text, path, config); rc != ACL_SUCCESS) return rc;
        }
    }
    return ApplyEnvironment(config);
}

}  // namespace openacl
