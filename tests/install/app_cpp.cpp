// An application using openacl's C++ layer, built against the installed tree: the header is
// there and works with nothing but the installed library.
#include <cstdio>
#include <vector>

#include "openacl/acl.hpp"

int main() {
    try {
        acl::Runtime runtime;
        acl::Device device(0);
        auto stream = acl::Stream::create();
        auto buffer = acl::DeviceBuffer<int>::create(4);
        std::vector<int> in = {1, 2, 3, 4}, out(4, 0);
        stream.copy(buffer, in);
        stream.copy(out, buffer);
        stream.synchronize();
        if (out != in) {
            std::printf("app_cpp: the data came back different\n");
            return 1;
        }
    } catch (const acl::Error& e) {
        std::printf("app_cpp: %s\n", e.what());
        return 1;
    }
    return 0;
}
