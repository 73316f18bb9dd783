// HCCL's environment variables (hccl/environment.h).
#include "hccl/environment.h"

#include <sys/socket.h>

#include <cstdlib>
#include <cstring>

#include "core/log.h"

namespace openacl::hccl {
namespace {

// Whole seconds from `name`, or `fallback` when it is unset or not a number (with a warning).
int64_t Seconds(const char* name, int64_t fallback) {
    const char* text = std::getenv(name);
    if (text == nullptr || *text == '\0') return fallback;
    char* end = nullptr;
    const long long value = std::strtoll(text, &end, 10);
    if (*end != '\0' || value < 0 || value > 24 * 3600 * 365) {
        OPENACL_LOG_WARNING("%s=%s is not a number of seconds; using %lld", name, text,
                            static_cast<long long>(fallback));
        return fallback;
    }
    return value;
}

std::string Text(const char* name) {
    const char* text = std::getenv(name);
    return text == nullptr ? std::string() : std::string(text);
}

std::string Trim(const std::string& s) {
    const size_t first = s.find_first_not_of(" \t");
    if (first == std::string::npos) return {};
    const size_t last = s.find_last_not_of(" \t");
    return s.substr(first, last - first + 1);
}

// A port number in [lo, hi]; false when `text` is not one.
bool Port(const std::string& text, uint32_t lo, uint32_t hi, uint16_t* port) {
    if (text.empty() || text.size() > 5) return false;
    uint32_t value = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return false;
        value = value * 10 + static_cast<uint32_t>(c - '0');
    }
    if (value < lo || value > hi) return false;
    *port = static_cast<uint16_t>(value);
    return true;
}

}  // namespace

int64_t ConnectTimeoutMs() {
    return Seconds("HCCL_CONNECT_TIMEOUT", 120) * 1000;
}

int64_t ExecTimeoutMs() {
    return Seconds("HCCL_EXEC_TIMEOUT", 1836) * 1000;
}

std::string IfIp() {
    return Trim(Text("HCCL_IF_IP"));
}

std::string SocketIfname() {
    return Trim(Text("HCCL_SOCKET_IFNAME"));
}

HcclResult SocketFamily(int* family, std::string* why) {
    const std::string text = Trim(Text("HCCL_SOCKET_FAMILY"));
    if (text.empty() || text == "AF_INET") {
        *family = AF_INET;
        return HCCL_SUCCESS;
    }
    if (text == "AF_INET6") {
        *family = AF_INET6;
        return HCCL_SUCCESS;
    }
    *why = "HCCL_SOCKET_FAMILY=" + text + " is neither AF_INET nor AF_INET6";
    return HCCL_E_PARA;
}

HcclResult BasePort(uint16_t* port, std::string* why) {
    const std::string text = Trim(Text("HCCL_IF_BASE_PORT"));
    if (text.empty()) {
        *port = 60000;
        return HCCL_SUCCESS;
    }
    if (!Port(text, 1024, 65520, port)) {
        *why = "HCCL_IF_BASE_PORT=" + text + " is not a port in [1024, 65520]";
        return HCCL_E_PARA;
    }
    return HCCL_SUCCESS;
}

HcclResult HostPorts(std::vector<std::pair<uint16_t, uint16_t>>* ranges, std::string* why) {
    ranges->clear();
    const std::string text = Trim(Text("HCCL_HOST_SOCKET_PORT_RANGE"));
    if (text.empty()) {
        uint16_t base = 0;
        if (HcclResult rc = BasePort(&base, why); rc != HCCL_SUCCESS) return rc;
        ranges->emplace_back(base, static_cast<uint16_t>(base + 31));
        return HCCL_SUCCESS;
    }
    if (text == "auto") {
        ranges->emplace_back(0, 0);
        return HCCL_SUCCESS;
    }
    size_t start = 0;
    while (start <= text.size()) {
        size_t comma = text.find(',', start);
        if (comma == std::string::npos) comma = text.size();
        const std::string item = Trim(text.substr(start, comma - start));
        const size_t dash = item.find('-');
        uint16_t lo = 0;
        uint16_t hi = 0;
        const bool ok = dash == std::string::npos
                            ? Port(item, 1, 65535, &lo) && (hi = lo, true)
                            : Port(Trim(item.substr(0, dash)), 1, 65535, &lo) &&
                                  Port(Trim(item.substr(dash + 1)), 1, 65535, &hi) && lo <= hi;
        if (!ok) {
            *why = "HCCL_HOST_SOCKET_PORT_RANGE=" + text + ": \"" + item +
                   "\" is not a port or a range of ports (\"60000\", \"60000-60031\"); the "
                   "value is a comma-separated list of them, or \"auto\"";
            return HCCL_E_PARA;
        }
        ranges->emplace_back(lo, hi);
        start = comma + 1;
    }
    return HCCL_SUCCESS;
}

}  // namespace openacl::hccl
