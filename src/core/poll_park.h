// Parking for suspended tasks whose condition nothing signals (a value in memory a kernel may
// write, an event on another stream with a deadline): a parked task is resumed at the next poll,
// every 200 microseconds while any is parked, or at once by WakeParked(), and then checks its
// condition again. One thread for the process, started by the first park.
#pragma once

#include "backend/cpu/task.h"

namespace openacl {

void ParkUntilPolled(cpu::SuspendToken token);
// Resumes every parked task now (after a write that may satisfy them).
void WakeParked();

}  // namespace openacl
