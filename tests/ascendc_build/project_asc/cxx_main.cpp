// A plain C++ program calling a library built from .asc sources (static or shared).
#include <cstdio>
#include <vector>

#include "scale_lib.h"

int main() {
    std::vector<float> data(777);
    for (size_t i = 0; i < data.size(); ++i)
        data[i] = static_cast<float>(i) - 300.0f;
    if (RunScale(data.data(), static_cast<uint32_t>(data.size()), 2.5f) != 0) {
        std::fprintf(stderr, "RunScale failed\n");
        return 2;
    }
    for (size_t i = 0; i < data.size(); ++i) {
        const float want = (static_cast<float>(i) - 300.0f) * 2.5f;
        if (data[i] != want) {
            std::fprintf(stderr, "element %zu: got %g, want %g\n", i, data[i], want);
            return 1;
        }
    }
    std::printf("cxx_main: every element matches\n");
    return 0;
}
