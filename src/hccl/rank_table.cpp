// Rank-table files (hccl/rank_table.h).
#include "hccl/rank_table.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "hccl/environment.h"
#include "hccl/socket.h"

namespace openacl::hccl {
namespace {

using nlohmann::json;

constexpr size_t kMaxTableBytes = size_t{256} << 20;

// A field as text: strings as they are, numbers written out; "" when absent or null.
std::string Text(const json& object, const char* key) {
    if (!object.is_object()) return {};
    auto it = object.find(key);
    if (it == object.end() || it->is_null()) return {};
    if (it->is_string()) return it->get<std::string>();
    if (it->is_number_unsigned()) return std::to_string(it->get<uint64_t>());
    if (it->is_number_integer()) return std::to_string(it->get<int64_t>());
    return it->dump();
}

// A whole number field; false (with *why) when it is present but not one.
bool Number(const json& object, const char* key, const std::string& where, int64_t* out,
            bool* present, std::string* why) {
    const std::string text = Text(object, key);
    *present = !text.empty();
    if (!*present) return true;
    char* end = nullptr;
    errno = 0;
    const long long value = std::strtoll(text.c_str(), &end, 10);
    if (errno != 0 || end == text.c_str() || *end != '\0' || value < 0 || value > 0x7fffffff) {
        *why = where + ": \"" + key + "\" is \"" + text + "\", not a whole number";
        return false;
    }
    *out = value;
    return true;
}

const json* Array(const json& object, const char* key) {
    if (!object.is_object()) return nullptr;
    auto it = object.find(key);
    return it != object.end() && it->is_array() ? &*it : nullptr;
}

uint64_t Fnv1a(const std::string& text) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : text) {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    return h;
}

struct Raw {
    RankTableEntry entry;
    bool has_rank = false;
    std::string where;
};

// One device object of either template.
bool ReadDevice(const json& device, const std::string& where, const std::string& server_id,
                const std::string& host_ip, const json* instance, std::vector<Raw>* out,
                std::string* why) {
    if (!device.is_object()) {
        *why = where + " is not an object";
        return false;
    }
    Raw raw;
    raw.where = where;
    raw.entry.server_id = server_id;
    raw.entry.host_ip = host_ip;
    int64_t value = 0;
    bool present = false;
    if (!Number(device, "device_id", where, &value, &present, why)) return false;
    if (present) raw.entry.device = static_cast<int32_t>(value);
    if (!Number(device, "rank_id", where, &value, &present, why)) return false;
    if (!present && instance != nullptr) {  // template 2 may put it on the instance
        if (!Number(*instance, "rank_id", where, &value, &present, why)) return false;
    }
    if (present) {
        raw.entry.rank = static_cast<uint32_t>(value);
        raw.has_rank = true;
    }
    out->push_back(raw);
    return true;
}

}  // namespace

HcclResult LoadRankTable(const std::string& path, RankTable* table, std::string* why) {
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        *why = "cannot open the rank table \"" + path + "\": " + std::strerror(errno);
        return HCCL_E_OPEN_FILE_FAILURE;
    }
    std::ostringstream contents;
    contents << file.rdbuf();
    if (file.bad()) {
        *why = "cannot read the rank table \"" + path + "\"";
        return HCCL_E_OPEN_FILE_FAILURE;
    }
    const std::string text = contents.str();
    if (text.size() > kMaxTableBytes) {
        *why = "the rank table \"" + path + "\" is larger than 256 MiB";
        return HCCL_E_PARA;
    }
    json root;
    try {
        root = json::parse(text);
    } catch (const json::exception& e) {
        *why = "the rank table \"" + path + "\" is not valid JSON (" + e.what() +
               "); rank tables are plain JSON without comments";
        return HCCL_E_PARA;
    }
    if (!root.is_object()) {
        *why = "the rank table \"" + path + "\" is not a JSON object";
        return HCCL_E_PARA;
    }
    const std::string status = Text(root, "status");
    if (!status.empty() && status != "completed") {
        *why = "the rank table \"" + path + "\" has status \"" + status +
               "\": only a completed table can be used";
        return HCCL_E_PARA;
    }
    std::vector<Raw> raws;
    if (const json* servers = Array(root, "server_list")) {  // template 1 (1.0, 1.2)
        for (size_t s = 0; s < servers->size(); ++s) {
            const json& server = (*servers)[s];
            const std::string where = "server_list[" + std::to_string(s) + "]";
            const json* devices = Array(server, "device");
            if (devices == nullptr) {
                *why = "the rank table \"" + path + "\": " + where + " has no \"device\" list";
                return HCCL_E_PARA;
            }
            const std::string server_id = Text(server, "server_id");
            const std::string host_ip = Text(server, "host_ip");
            for (size_t d = 0; d < devices->size(); ++d) {
                if (!ReadDevice((*devices)[d], where + ".device[" + std::to_string(d) + "]",
                                server_id, host_ip, nullptr, &raws, why)) {
                    *why = "the rank table \"" + path + "\": " + *why;
                    return HCCL_E_PARA;
                }
            }
        }
    } else if (const json* groups = Array(root, "group_list")) {  // template 2
        for (size_t g = 0; g < groups->size(); ++g) {
            const json* instances = Array((*groups)[g], "instance_list");
            const std::string group_where = "group_list[" + std::to_string(g) + "]";
            if (instances == nullptr) {
                *why =
                    "the rank table \"" + path + "\": " + group_where + " has no \"instance_list\"";
                return HCCL_E_PARA;
            }
            for (size_t i = 0; i < instances->size(); ++i) {
                const json& instance = (*instances)[i];
                const std::string where = group_where + ".instance_list[" + std::to_string(i) + "]";
                const json* devices = Array(instance, "devices");
                if (devices == nullptr) {
                    *why = "the rank table \"" + path + "\": " + where + " has no \"devices\" list";
                    return HCCL_E_PARA;
                }
                const std::string server_id = Text(instance, "server_id");
                const json* per_instance = devices->size() == 1 ? &instance : nullptr;
                for (size_t d = 0; d < devices->size(); ++d) {
                    if (!ReadDevice((*devices)[d], where + ".devices[" + std::to_string(d) + "]",
                                    server_id, Text(instance, "host_ip"), per_instance, &raws,
                                    why)) {
                        *why = "the rank table \"" + path + "\": " + *why;
                        return HCCL_E_PARA;
                    }
                }
            }
        }
    } else {
        *why = "the rank table \"" + path +
               "\" has neither \"server_list\" (template 1) nor \"group_list\" (template 2)";
        return HCCL_E_PARA;
    }
    if (raws.empty()) {
        *why = "the rank table \"" + path + "\" lists no device";
        return HCCL_E_PARA;
    }
    // Ranks: rank_id where given (then everywhere), else the order of the devices.
    const bool ranked = raws[0].has_rank;
    table->ranks.assign(raws.size(), RankTableEntry{});
    std::vector<const Raw*> by_rank(raws.size(), nullptr);
    for (size_t i = 0; i < raws.size(); ++i) {
        Raw& raw = raws[i];
        if (raw.has_rank != ranked) {
            *why = "the rank table \"" + path + "\": " + raw.where +
                   (ranked ? " has no \"rank_id\" but others have"
                           : " has a \"rank_id\" but others have none");
            return HCCL_E_PARA;
        }
        if (!ranked) raw.entry.rank = static_cast<uint32_t>(i);
        if (raw.entry.rank >= raws.size()) {
            *why = "the rank table \"" + path + "\": " + raw.where + " has rank_id " +
                   std::to_string(raw.entry.rank) + ", but the table lists " +
                   std::to_string(raws.size()) + " devices (rank_id runs from 0 to " +
                   std::to_string(raws.size() - 1) + ")";
            return HCCL_E_PARA;
        }
        if (by_rank[raw.entry.rank] != nullptr) {
            *why = "the rank table \"" + path + "\": rank_id " + std::to_string(raw.entry.rank) +
                   " appears twice (" + by_rank[raw.entry.rank]->where + " and " + raw.where + ")";
            return HCCL_E_PARA;
        }
        by_rank[raw.entry.rank] = &raw;
        table->ranks[raw.entry.rank] = raw.entry;
    }
    // Two ranks on one device of one server.
    for (size_t a = 0; a < raws.size(); ++a) {
        for (size_t b = a + 1; b < raws.size(); ++b) {
            const RankTableEntry& x = raws[a].entry;
            const RankTableEntry& y = raws[b].entry;
            if (x.device >= 0 && x.device == y.device && x.server_id == y.server_id) {
                *why = "the rank table \"" + path + "\": ranks " + std::to_string(x.rank) +
                       " and " + std::to_string(y.rank) + " are both device " +
                       std::to_string(x.device) + " of server \"" + x.server_id + "\"";
                return HCCL_E_PARA;
            }
        }
    }
    char id[64];
    std::snprintf(id, sizeof id, "ranktable_%016llx_%zu",
                  static_cast<unsigned long long>(Fnv1a(root.dump())), raws.size());
    table->identifier = id;
    return HCCL_SUCCESS;
}

HcclResult RootHost(const RankTable& table, std::string* host, std::string* why) {
    const RankTableEntry& zero = table.ranks.at(0);
    net::Address address;
    if (!zero.host_ip.empty()) {
        if (!net::ParseIp(zero.host_ip, 0, &address)) {
            *why = "rank 0's server has host_ip \"" + zero.host_ip + "\", not an IP address";
            return HCCL_E_PARA;
        }
        *host = zero.host_ip;
        return HCCL_SUCCESS;
    }
    if (net::ParseIp(zero.server_id, 0, &address)) {
        *host = zero.server_id;
        return HCCL_SUCCESS;
    }
    const std::string if_ip = IfIp();
    if (!if_ip.empty() && net::ParseIp(if_ip, 0, &address)) {
        *host = if_ip;
        return HCCL_SUCCESS;
    }
    *why = "the rank table gives no address for rank 0's server (server_id \"" + zero.server_id +
           "\"): give the server a host_ip (version 1.2), use its IP address as server_id, or "
           "set HCCL_IF_IP to it";
    return HCCL_E_PARA;
}

}  // namespace openacl::hccl
