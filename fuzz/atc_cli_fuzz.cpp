// Fuzz target: atc's command line. Each line of the input is one argument; "@MODEL@" stands for
// a small ONNX model. Whatever the arguments, atc must answer with an exit status and a
// message: no crash, hang or leak.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "atc.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    // atc writes --output and --json files: into a scratch directory, and only by plain names,
    // so the fuzzer cannot write elsewhere. The directory goes when the run ends.
    static const bool in_scratch = [] {
        static char dir[] = "/tmp/openacl-atc-fuzz-XXXXXX";
        if (mkdtemp(dir) == nullptr) return false;
        std::atexit([] {
            std::error_code ignored;
            std::filesystem::remove_all(dir, ignored);
        });
        return chdir(dir) == 0;
    }();
    if (!in_scratch) return 0;
    std::vector<std::string> args = {"atc"};
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    for (size_t start = 0; start <= text.size() && args.size() < 64;) {
        size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        std::string arg(text.substr(start, end - start));
        for (size_t at; (at = arg.find("@MODEL@")) != std::string::npos;)
            arg.replace(at, 7, OPENACL_FUZZ_ATC_MODEL);
        const bool writes = arg.rfind("--output", 0) == 0 || arg.rfind("--json", 0) == 0;
        if (writes && (arg.find('/') != std::string::npos || arg.find("..") != std::string::npos)) {
            return 0;
        }
        if (!arg.empty()) args.push_back(std::move(arg));
        start = end + 1;
    }
    std::vector<char*> argv;
    for (std::string& arg : args)
        argv.push_back(arg.data());
    argv.push_back(nullptr);
    AtcMain(static_cast<int>(args.size()), argv.data());
    return 0;
}
