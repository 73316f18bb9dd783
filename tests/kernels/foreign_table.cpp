// A shared library that exports an openacl kernel table openacl must refuse: built for another
// backend (TABLE_BACKEND), another table version (TABLE_VERSION) or with a damaged magic
// (TABLE_MAGIC). Built as a plain MODULE library, not with openacl_add_kernel_binary.
#include <cstddef>
#include <cstdint>

#include "openacl/kernel_binary.h"

#ifndef TABLE_BACKEND
#define TABLE_BACKEND "cpu"
#endif
#ifndef TABLE_VERSION
#define TABLE_VERSION OPENACL_KERNEL_BINARY_VERSION
#endif
#ifndef TABLE_MAGIC
#define TABLE_MAGIC OPENACL_KERNEL_BINARY_MAGIC
#endif

namespace {
int RunNothing(const void*, uint32_t, uint32_t, char*, size_t) {
    return 0;
}
const openaclKernelEntry kKernels[] = {{"foreign_kernel", 0, 0, RunNothing}};
}  // namespace

extern "C" __attribute__((visibility("default")))
const openaclKernelTable openacl_kernel_binary_table = {TABLE_MAGIC, TABLE_VERSION, TABLE_BACKEND,
                                                        1, kKernels};
