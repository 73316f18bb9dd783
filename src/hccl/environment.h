// HCCL's environment variables (CANN's hccl_env documentation), read when they are needed.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "hccl/hccl_types.h"

namespace openacl::hccl {

// HCCL_CONNECT_TIMEOUT (seconds, default 120): how long communicator creation waits for every
// rank to join. CANN accepts 120..7200 and waits 20 s longer than asked; openacl also takes
// shorter values (tests), and waits exactly what is asked.
int64_t ConnectTimeoutMs();
// HCCL_EXEC_TIMEOUT (seconds, default 1836; 0: never): how long a collective waits for the
// other ranks once it has started.
int64_t ExecTimeoutMs();

// HCCL_IF_IP: the host address to use ("" when unset).
std::string IfIp();
// HCCL_SOCKET_IFNAME: which NICs may carry the bootstrap ("" when unset).
std::string SocketIfname();
// HCCL_SOCKET_FAMILY: AF_INET (default) or AF_INET6. Fails on another value.
HcclResult SocketFamily(int* family, std::string* why);

// Ports a root's listener may take, in order: HCCL_HOST_SOCKET_PORT_RANGE (a list of ports
// and ranges, "8000,8010-8020"; "auto" is the single range {0, 0}: a port the system picks),
// else the 32 ports from HCCL_IF_BASE_PORT (default 60000). Fails on a malformed value.
HcclResult HostPorts(std::vector<std::pair<uint16_t, uint16_t>>* ranges, std::string* why);
// The first port HCCL_IF_BASE_PORT names (default 60000), where a rank table's rank 0 listens.
HcclResult BasePort(uint16_t* port, std::string* why);

}  // namespace openacl::hccl
