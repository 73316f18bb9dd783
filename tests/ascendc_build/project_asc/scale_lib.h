// The host function of scale_lib.asc: multiplies n floats at `host` by `factor` on the device.
// 0 on success.
#pragma once

#include <cstdint>

int RunScale(float* host, uint32_t n, float factor);
