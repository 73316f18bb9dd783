// atc's whole command line run: parses argv as CANN's atc does, converts or shows a model,
// prints what it did, and returns the process exit status (0 success, 1 failure).
#pragma once

#include <string>

namespace openacl::model {
struct EngineChoices;
struct Plan;
}  // namespace openacl::model

int AtcMain(int argc, char** argv);

// Times the compiled engine for `plan` on this machine: false with *error when it cannot be
// built. The atc binary sets one (main.cpp links the engine); the fuzz target and the
// conformance runner, which share this library, leave it unset and store no choices.
using EngineTimer = bool (*)(const openacl::model::Plan& plan,
                             openacl::model::EngineChoices* choices, std::string* error);
void SetEngineTimer(EngineTimer timer);
