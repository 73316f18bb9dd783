// Runs a fuzz target without libFuzzer, for CI: every seed file given on the command line, then
// a fixed number of deterministic mutations of each (truncations, flipped and overwritten
// bytes, inserted and deleted runs). Same seeds, same inputs, every run.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

// OPENACL_FUZZ_DUMP=<file>: each input is written there before it runs, so the input that
// crashed the target is left behind to reproduce.
void Run(const std::string& bytes) {
    static const char* dump = std::getenv("OPENACL_FUZZ_DUMP");
    if (dump != nullptr) std::ofstream(dump, std::ios::binary | std::ios::trunc) << bytes;
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

std::string Mutate(const std::string& seed, std::mt19937_64& rng) {
    std::string out = seed;
    if (out.empty()) return out;
    auto pick = [&](size_t n) { return static_cast<size_t>(rng() % n); };
    switch (rng() % 5) {
        case 0:  // truncate
            out.resize(pick(out.size()));
            break;
        case 1:  // flip bits in a few bytes
            for (int i = 0; i < 1 + static_cast<int>(rng() % 8); ++i) {
                out[pick(out.size())] ^= static_cast<char>(1u << (rng() % 8));
            }
            break;
        case 2:  // overwrite a run with an interesting value
        {
            static const char values[] = {
                0, 0x7f, static_cast<char>(0x80), static_cast<char>(0xff), 0x08, 0x12};
            size_t at = pick(out.size());
            size_t n = 1 + pick(std::min<size_t>(16, out.size() - at));
            for (size_t i = 0; i < n; ++i)
                out[at + i] = values[rng() % sizeof values];
            break;
        }
        case 3:  // insert random bytes
        {
            size_t at = pick(out.size());
            std::string junk(1 + pick(32), '\0');
            for (auto& c : junk)
                c = static_cast<char>(rng());
            out.insert(at, junk);
            break;
        }
        default:  // delete a run
        {
            size_t at = pick(out.size());
            out.erase(at, 1 + pick(std::min<size_t>(64, out.size() - at)));
            break;
        }
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    int mutations = 200;
    uint64_t seed_value = 20261130;
    std::vector<std::string> seeds;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg.rfind("--mutations=", 0) == 0) {
            mutations = std::atoi(arg.c_str() + 12);
            continue;
        }
        if (arg.rfind("--seed=", 0) == 0) {
            seed_value = std::strtoull(arg.c_str() + 7, nullptr, 10);
            continue;
        }
        std::ifstream file(arg, std::ios::binary);
        if (!file) {
            std::fprintf(stderr, "cannot read seed %s\n", arg.c_str());
            return 2;
        }
        std::stringstream bytes;
        bytes << file.rdbuf();
        seeds.push_back(bytes.str());
    }
    std::mt19937_64 rng(seed_value);
    size_t runs = 0;
    for (const auto& seed : seeds) {
        Run(seed);
        ++runs;
        for (int m = 0; m < mutations; ++m, ++runs)
            Run(Mutate(seed, rng));
    }
    std::printf("%zu inputs from %zu seeds ran cleanly\n", runs, seeds.size());
    return 0;
}
