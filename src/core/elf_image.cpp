#include "core/elf_image.h"

#include <elf.h>

#include <cstdint>
#include <cstring>

namespace openacl {

namespace {

#if defined(__x86_64__)
constexpr uint16_t kHostMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr uint16_t kHostMachine = EM_AARCH64;
#else
constexpr uint16_t kHostMachine = EM_NONE;  // not checked
#endif

// offset + count * size <= length, without overflow.
bool Fits(uint64_t offset, uint64_t count, uint64_t size, size_t length) {
    if (offset > length) return false;
    return size == 0 || count <= (length - offset) / size;
}

std::string Ends(const char* what, uint64_t end, size_t length) {
    return std::string("truncated: ") + what + " end at byte " + std::to_string(end) + " of " +
           std::to_string(length);
}

}  // namespace

std::string ElfImageProblem(const void* data, size_t length) {
    Elf64_Ehdr header;
    if (length < sizeof header) return "too short for an ELF header";
    std::memcpy(&header, data, sizeof header);
    if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) return "no ELF magic";
    if (header.e_ident[EI_CLASS] != ELFCLASS64) return "not a 64-bit ELF object";
    if (header.e_ident[EI_DATA] != ELFDATA2LSB) return "not little-endian";
    if (header.e_ident[EI_VERSION] != EV_CURRENT || header.e_version != EV_CURRENT) {
        return "unknown ELF version";
    }
    if (header.e_type != ET_DYN)
        return "not a shared object (ELF type " + std::to_string(header.e_type) + ")";
    if (kHostMachine != EM_NONE && header.e_machine != kHostMachine) {
        return "built for another CPU (ELF machine " + std::to_string(header.e_machine) + ")";
    }
    if (header.e_ehsize != sizeof(Elf64_Ehdr)) return "damaged ELF header (header size)";
    if (header.e_phentsize != sizeof(Elf64_Phdr) || header.e_phnum == 0 ||
        header.e_phnum == PN_XNUM) {
        return "damaged ELF header (program header table)";
    }
    if (!Fits(header.e_phoff, header.e_phnum, sizeof(Elf64_Phdr), length)) {
        return Ends("the program headers",
                    header.e_phoff + uint64_t{header.e_phnum} * sizeof(Elf64_Phdr), length);
    }
    if (header.e_shnum != 0) {
        if (header.e_shentsize != sizeof(Elf64_Shdr)) return "damaged ELF header (section size)";
        if (!Fits(header.e_shoff, header.e_shnum, sizeof(Elf64_Shdr), length)) {
            return Ends("the section headers",
                        header.e_shoff + uint64_t{header.e_shnum} * sizeof(Elf64_Shdr), length);
        }
    }
    int loads = 0, dynamics = 0;
    for (uint16_t i = 0; i < header.e_phnum; ++i) {
        Elf64_Phdr segment;
        std::memcpy(&segment, static_cast<const char*>(data) + header.e_phoff + i * sizeof segment,
                    sizeof segment);
        if (segment.p_type != PT_LOAD && segment.p_type != PT_DYNAMIC) continue;
        if (!Fits(segment.p_offset, 1, segment.p_filesz, length)) {
            return Ends(
                segment.p_type == PT_LOAD ? "a loadable segment's bytes" : "the dynamic section",
                segment.p_offset + segment.p_filesz, length);
        }
        if (segment.p_type == PT_DYNAMIC) {
            ++dynamics;
            continue;
        }
        ++loads;
        if (segment.p_filesz > segment.p_memsz) return "damaged segment (file size > memory size)";
        if (segment.p_align > 1 && (segment.p_align & (segment.p_align - 1)) != 0) {
            return "damaged segment (alignment is not a power of two)";
        }
    }
    if (loads == 0) return "no loadable segment";
    if (dynamics != 1) return "not exactly one dynamic section";
    return {};
}

}  // namespace openacl
