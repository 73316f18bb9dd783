// Reading an HcclCommConfig. The structure grew over CANN releases (300, 312, then 2240
// bytes), and programs built against an older header pass the smaller one: only the fields
// the size written by HcclCommConfigInit covers are read.
#pragma once

#include <string>

#include "hccl/communicator.h"
#include "hccl/hccl_types.h"

namespace openacl::hccl {

// Fills `options` from `config` (null: defaults). Fails with HCCL_E_PARA when the config was
// not initialised with HcclCommConfigInit or a field is out of range.
HcclResult ReadConfig(const HcclCommConfig* config, CommOptions* options, std::string* why);

}  // namespace openacl::hccl
