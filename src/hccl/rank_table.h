// Rank-table files (HcclCommInitClusterInfo): the JSON that lists a cluster's servers and the
// devices on them, each with its rank. Read leniently, as real files are looser than CANN's
// templates: template 1 ("server_list", versions 1.0 and 1.2) and template 2 ("group_list"),
// values as strings or numbers, optional fields missing, unknown fields ignored.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hccl/hccl_types.h"

namespace openacl::hccl {

struct RankTableEntry {
    uint32_t rank = 0;
    int32_t device = -1;    // device_id; -1 when the table has none
    std::string server_id;  // the server's name in the table (an address or a node name)
    std::string host_ip;    // the server's host_ip (version 1.2), or ""
};

struct RankTable {
    std::string identifier;             // derived from the contents: the same for every rank
    std::vector<RankTableEntry> ranks;  // by rank
};

// Reads and checks the file. HCCL_E_OPEN_FILE_FAILURE when it cannot be read, HCCL_E_PARA when
// it is not a rank table (with what is wrong and where).
HcclResult LoadRankTable(const std::string& path, RankTable* table, std::string* why);

// Where rank 0 listens: its server's host_ip, else its server_id when that is an address,
// else HCCL_IF_IP. Fails when none of them gives one.
HcclResult RootHost(const RankTable& table, std::string* host, std::string* why);

}  // namespace openacl::hccl
