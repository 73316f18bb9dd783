// HCCL's environment variables (CANN's hccl_env documentation), read when they are needed.
#pragma once

#include <cstdint>

namespace openacl::hccl {

// HCCL_CONNECT_TIMEOUT (seconds, default 120): how long communicator creation waits for every
// rank to join. CANN accepts 120..7200 and waits 20 s longer than asked; openacl also takes
// shorter values (tests), and waits exactly what is asked.
int64_t ConnectTimeoutMs();
// HCCL_EXEC_TIMEOUT (seconds, default 1836; 0: never): how long a collective waits for the
// other ranks once it has started.
int64_t ExecTimeoutMs();

}  // namespace openacl::hccl
