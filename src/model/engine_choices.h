// What the compiled engine decides by timing at load — the convolutions' layout, one thread or
// several, running a batch's first layers image by image, Winograd or direct per convolution —
// for one machine. atc times them and keeps them in the .om's options, as CANN's atc tunes for
// the chip it is given, so that a load on that machine builds the engine once instead of timing
// it (hundreds of milliseconds for a detector); on another machine the load times again.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace openacl::model {

// Per timed convolution, what was tried and what won (bits); kNotTimed where nothing was.
inline constexpr int8_t kNotTimed = -1;
inline constexpr int8_t kWinogradTimed = 1;  // oneDNN's Winograd timed against direct ...
inline constexpr int8_t kWinogradWon = 2;    // ... and kept
inline constexpr int8_t kOwnTimed = 4;       // the engine's own Winograd against oneDNN's ...
inline constexpr int8_t kOwnWon = 8;         // ... and kept

struct EngineChoices {
    std::string machine;  // MachineSignature(threads) where they were timed; empty: none
    bool nhwc = false;
    int threads = 1;
    uint64_t head_layers = 0;        // layers run image by image (0: the whole batch)
    std::vector<int8_t> convs;       // per plan layer (the bits above), the whole batch's build
    std::vector<int8_t> head_convs;  // the same for the one-image build of the head
};

// The CPU (model name and the instruction sets the engine's kernels depend on) and the
// threads a model's runs get: choices timed under another signature are timed again.
std::string MachineSignature(int threads);

}  // namespace openacl::model
