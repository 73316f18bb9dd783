#include "model/engine_choices.h"

#include <fstream>
#include <string>

namespace openacl::model {

std::string MachineSignature(int threads) {
    std::string model = "unknown CPU";
    std::ifstream cpuinfo("/proc/cpuinfo");
    for (std::string line; std::getline(cpuinfo, line);) {
        if (line.rfind("model name", 0) == 0) {
            const size_t colon = line.find(':');
            if (colon != std::string::npos)
                model = line.substr(line.find_first_not_of(" ", colon + 1));
            break;
        }
    }
    std::string isa;
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) isa += " avx512f";
    if (__builtin_cpu_supports("avx512bw")) isa += " avx512bw";
    if (__builtin_cpu_supports("avx512vnni")) isa += " avx512vnni";
    if (__builtin_cpu_supports("avx2")) isa += " avx2";
    if (__builtin_cpu_supports("fma")) isa += " fma";
#endif
    return model + ";" + isa + "; " + std::to_string(threads) + " threads";
}

}  // namespace openacl::model
