// Fuzz target: the checks a kernel binary passes before dlopen() sees it (core/elf_image.cpp).
// Whatever the bytes, the check must answer, and what it accepts must keep every header and
// segment inside the bytes. dlopen itself is not fuzzed: a structurally sound shared object
// is code the program chose to load, trusted as any library is.
#include <elf.h>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "core/elf_image.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (!openacl::ElfImageProblem(data, size).empty()) return 0;
    // Accepted: the program headers it promised are really there (ASan would catch a read
    // past the input; this states the contract for the replay build too).
    Elf64_Ehdr header;
    std::memcpy(&header, data, sizeof header);
    for (uint16_t i = 0; i < header.e_phnum; ++i) {
        Elf64_Phdr segment;
        std::memcpy(&segment, data + header.e_phoff + i * sizeof segment, sizeof segment);
        if ((segment.p_type == PT_LOAD || segment.p_type == PT_DYNAMIC) &&
            segment.p_offset + segment.p_filesz > size) {
            std::abort();
        }
    }
    return 0;
}
