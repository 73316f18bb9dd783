#include "backend/cuda/cuda_binary.h"

#include <elf.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace openacl::cuda {

namespace {

// The layouts below were read off nvcc 13 output (readelf -x on .nv.info sections, hex dumps
// of -fatbin files) and agree with what cuobjdump prints for them. All fields little-endian,
// as on every host openacl runs on.

constexpr uint16_t kEmCuda = 190;
constexpr unsigned char kStoCudaEntry = 0x10;  // st_other bit of a kernel entry's symbol
constexpr uint32_t kFatbinMagic = 0xBA55ED50;

// .nv.info attribute formats: no value, byte, half-word (all 4 bytes in total), and
// "sized": a 16-bit length, then that many bytes.
constexpr uint8_t kFmtNval = 1, kFmtBval = 2, kFmtHval = 3, kFmtSval = 4;
// .nv.info attributes we read.
constexpr uint8_t kAttrMaxThreads = 0x05;      // SVAL: uint32 x, y, z (__launch_bounds__)
constexpr uint8_t kAttrParamCbank = 0x0a;      // SVAL: uint32 symbol, uint16 offset, uint16 size
constexpr uint8_t kAttrReqntid = 0x10;         // SVAL: uint32 x, y, z
constexpr uint8_t kAttrKparamInfo = 0x17;      // SVAL: uint32 index, uint16 ordinal, uint16
                                               // offset, uint32 flags (size in bits 18..31)
constexpr uint8_t kAttrCbankParamSize = 0x19;  // HVAL: parameter bytes

// Fatbin entry header fields (offsets from the entry's start).
constexpr size_t kEntryKind = 0, kEntryHeaderSize = 4, kEntryPayloadSize = 8, kEntryFlags = 40;
constexpr size_t kEntryMinHeader = 48;
constexpr uint16_t kKindPtx = 1, kKindElf = 2;
constexpr uint64_t kFlagCompressedLz4 = 0x2000, kFlagCompressedZstd = 0x8000;

constexpr size_t kMaxNameLength = 64 * 1024;

template <class T>
bool Load(const uint8_t* data, size_t size, size_t offset, T* value) {
    if (offset > size || sizeof(T) > size - offset) return false;
    std::memcpy(value, data + offset, sizeof(T));
    return true;
}

// offset + count * each <= size, without overflow.
bool Fits(uint64_t offset, uint64_t count, uint64_t each, size_t size) {
    if (offset > size) return false;
    return each == 0 || count <= (size - offset) / each;
}

bool Fail(std::string* why, std::string reason) {
    if (why != nullptr) *why = std::move(reason);
    return false;
}

// x * y * z as a thread count; 0 when it does not fit 32 bits (no real GPU block does).
uint32_t Threads(uint32_t x, uint32_t y, uint32_t z) {
    uint64_t xy = uint64_t{x} * y;
    if (xy > UINT32_MAX) return 0;
    uint64_t xyz = xy * z;
    return xyz > UINT32_MAX ? 0 : static_cast<uint32_t>(xyz);
}

// ---- cubin --------------------------------------------------------------------------------

bool ReadNvInfo(const uint8_t* p, size_t n, KernelInfo* kernel, std::string* why) {
    uint32_t cbank_param_size = 0, param_cbank = 0, kparam_end = 0;
    uint32_t max_threads = 0, reqntid = 0;
    size_t pos = 0;
    while (pos < n) {
        if (n - pos < 4) return Fail(why, "attribute truncated at byte " + std::to_string(pos));
        uint8_t format = p[pos], attribute = p[pos + 1];
        uint16_t value = 0;
        Load(p, n, pos + 2, &value);
        if (format == kFmtNval || format == kFmtBval || format == kFmtHval) {
            if (format == kFmtHval && attribute == kAttrCbankParamSize) cbank_param_size = value;
            pos += 4;
            continue;
        }
        if (format != kFmtSval) {
            return Fail(why, "unknown attribute format " + std::to_string(format) + " at byte " +
                                 std::to_string(pos));
        }
        const size_t length = value;
        if (length > n - pos - 4) {
            return Fail(why, "attribute at byte " + std::to_string(pos) + " runs past the section");
        }
        const uint8_t* body = p + pos + 4;
        if ((attribute == kAttrMaxThreads || attribute == kAttrReqntid) && length >= 12) {
            uint32_t x, y, z;
            Load(body, length, 0, &x);
            Load(body, length, 4, &y);
            Load(body, length, 8, &z);
            (attribute == kAttrMaxThreads ? max_threads : reqntid) = Threads(x, y, z);
        } else if (attribute == kAttrParamCbank && length >= 8) {
            uint16_t size;
            Load(body, length, 6, &size);
            param_cbank = size;
        } else if (attribute == kAttrKparamInfo && length >= 12) {
            uint16_t offset;
            uint32_t flags;
            Load(body, length, 6, &offset);
            Load(body, length, 8, &flags);
            kparam_end = std::max(kparam_end, uint32_t{offset} + ((flags >> 18) & 0x3fff));
        }
        pos += 4 + length;
    }
    kernel->param_bytes = cbank_param_size   ? cbank_param_size
                          : param_cbank != 0 ? param_cbank
                                             : kparam_end;
    kernel->block_threads = reqntid != 0 ? reqntid : max_threads;
    return true;
}

// The NUL-terminated string at `offset` of a string table section (already bounds-checked).
bool StringAt(const uint8_t* data, const Elf64_Shdr& table, uint64_t offset,
              std::string_view* out) {
    if (table.sh_type == SHT_NOBITS || offset >= table.sh_size) return false;
    const char* begin = reinterpret_cast<const char*>(data + table.sh_offset + offset);
    size_t limit = std::min<uint64_t>(table.sh_size - offset, kMaxNameLength + 1);
    const void* end = std::memchr(begin, '\0', limit);
    if (end == nullptr) return false;
    *out = std::string_view(begin, static_cast<const char*>(end) - begin);
    return true;
}

bool ReadCubin(const uint8_t* data, size_t size, std::vector<KernelInfo>* out, std::string* why) {
    Elf64_Ehdr header;
    if (!Load(data, size, 0, &header)) return Fail(why, "too short for an ELF header");
    if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) return Fail(why, "no ELF magic");
    if (header.e_ident[EI_CLASS] != ELFCLASS64) return Fail(why, "not a 64-bit ELF object");
    if (header.e_ident[EI_DATA] != ELFDATA2LSB) return Fail(why, "not little-endian");
    if (header.e_machine != kEmCuda) {
        return Fail(why, "not a CUDA ELF (machine " + std::to_string(header.e_machine) + ")");
    }
    if (header.e_shnum == 0) return Fail(why, "no section table");
    if (header.e_shentsize != sizeof(Elf64_Shdr)) {
        return Fail(why, "damaged section table (entry size)");
    }
    if (!Fits(header.e_shoff, header.e_shnum, sizeof(Elf64_Shdr), size)) {
        return Fail(why, "truncated: the section table ends past byte " + std::to_string(size));
    }
    if (header.e_shstrndx >= header.e_shnum) return Fail(why, "bad section name table index");
    // Executable cubins (what nvcc -cubin makes) end with program headers: a cut one has lost
    // them, and the driver would refuse it.
    if (header.e_phnum != 0) {
        if (header.e_phentsize != sizeof(Elf64_Phdr)) {
            return Fail(why, "damaged program headers (entry size)");
        }
        if (!Fits(header.e_phoff, header.e_phnum, sizeof(Elf64_Phdr), size)) {
            return Fail(why,
                        "truncated: the program headers end past byte " + std::to_string(size));
        }
        for (uint16_t i = 0; i < header.e_phnum; ++i) {
            Elf64_Phdr segment;
            std::memcpy(&segment, data + header.e_phoff + i * sizeof segment, sizeof segment);
            if (!Fits(segment.p_offset, 1, segment.p_filesz, size)) {
                return Fail(why, "truncated: segment " + std::to_string(i) + " ends past byte " +
                                     std::to_string(size));
            }
        }
    }
    std::vector<Elf64_Shdr> sections(header.e_shnum);
    std::memcpy(sections.data(), data + header.e_shoff, sections.size() * sizeof(Elf64_Shdr));
    for (size_t i = 0; i < sections.size(); ++i) {
        if (sections[i].sh_type != SHT_NOBITS &&
            !Fits(sections[i].sh_offset, 1, sections[i].sh_size, size)) {
            return Fail(why, "truncated: section " + std::to_string(i) + " ends past byte " +
                                 std::to_string(size));
        }
    }
    const Elf64_Shdr& names = sections[header.e_shstrndx];
    std::unordered_map<std::string_view, size_t> by_name;
    const Elf64_Shdr* symtab = nullptr;
    for (size_t i = 0; i < sections.size(); ++i) {
        std::string_view name;
        if (i != 0 && !StringAt(data, names, sections[i].sh_name, &name)) {
            return Fail(why, "bad name of section " + std::to_string(i));
        }
        by_name.emplace(name, i);
        if (sections[i].sh_type == SHT_SYMTAB && symtab == nullptr) symtab = &sections[i];
    }
    if (symtab == nullptr) return Fail(why, "no symbol table");
    if (symtab->sh_entsize != sizeof(Elf64_Sym) || symtab->sh_link >= sections.size() ||
        sections[symtab->sh_link].sh_type != SHT_STRTAB) {
        return Fail(why, "damaged symbol table");
    }
    const Elf64_Shdr& strings = sections[symtab->sh_link];
    const uint64_t count = symtab->sh_size / sizeof(Elf64_Sym);
    std::unordered_set<std::string_view> seen;
    uint64_t name_bytes = 0;  // honest binaries store each kernel name once
    std::vector<KernelInfo> kernels;
    for (uint64_t i = 0; i < count; ++i) {
        Elf64_Sym symbol;
        std::memcpy(&symbol, data + symtab->sh_offset + i * sizeof symbol, sizeof symbol);
        if (ELF64_ST_TYPE(symbol.st_info) != STT_FUNC || (symbol.st_other & kStoCudaEntry) == 0) {
            continue;
        }
        std::string_view name;
        if (!StringAt(data, strings, symbol.st_name, &name) || name.empty()) {
            return Fail(why, "bad name of symbol " + std::to_string(i));
        }
        if (!seen.insert(name).second) continue;
        name_bytes += name.size();
        if (name_bytes > size) return Fail(why, "kernel names overlap (damaged string table)");
        KernelInfo kernel;
        kernel.name = std::string(name);
        auto info = by_name.find(".nv.info." + kernel.name);
        if (info != by_name.end()) {
            const Elf64_Shdr& section = sections[info->second];
            if (section.sh_type == SHT_NOBITS) return Fail(why, "empty .nv.info." + kernel.name);
            std::string problem;
            if (!ReadNvInfo(data + section.sh_offset, section.sh_size, &kernel, &problem)) {
                return Fail(why, "damaged .nv.info." + kernel.name + ": " + problem);
            }
        }
        kernels.push_back(std::move(kernel));
    }
    *out = std::move(kernels);
    return true;
}

// ---- PTX ----------------------------------------------------------------------------------

// Splits PTX text into tokens: directives and identifiers (.entry, %r1, name), numbers, quoted
// strings and single punctuation characters. Comments are skipped; strings are kept whole so
// a "//" inside a .file path is not taken for a comment.
class PtxLexer {
 public:
    PtxLexer(const char* text, size_t size) : p_(text), end_(text + size) {}

    // The next token, or an empty view at the end. Sets *error on an unterminated comment or
    // string.
    std::string_view Next(bool* error) {
        SkipSpaceAndComments(error);
        if (p_ == end_ || *error) return {};
        const char* begin = p_;
        char c = *p_;
        if (c == '"') {
            ++p_;
            while (p_ != end_ && *p_ != '"' && *p_ != '\n')
                ++p_;
            if (p_ == end_ || *p_ != '"') {
                *error = true;
                return {};
            }
            ++p_;
        } else if (IsWordChar(c)) {
            while (p_ != end_ && IsWordChar(*p_))
                ++p_;
        } else {
            ++p_;
        }
        return std::string_view(begin, p_ - begin);
    }

 private:
    static bool IsWordChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '.' || c == '$' || c == '%';
    }
    void SkipSpaceAndComments(bool* error) {
        while (p_ != end_) {
            if (*p_ == ' ' || *p_ == '\t' || *p_ == '\n' || *p_ == '\r' || *p_ == '\f' ||
                *p_ == '\v') {
                ++p_;
            } else if (*p_ == '/' && end_ - p_ >= 2 && p_[1] == '/') {
                while (p_ != end_ && *p_ != '\n')
                    ++p_;
            } else if (*p_ == '/' && end_ - p_ >= 2 && p_[1] == '*') {
                const char* close = nullptr;
                for (const char* q = p_ + 2; end_ - q >= 2; ++q) {
                    if (q[0] == '*' && q[1] == '/') {
                        close = q;
                        break;
                    }
                }
                if (close == nullptr) {
                    *error = true;
                    return;
                }
                p_ = close + 2;
            } else {
                return;
            }
        }
    }

    const char* p_;
    const char* end_;
};

// A decimal or 0x-hexadecimal number token; false when it is not one or exceeds 32 bits.
bool ParseNumber(std::string_view token, uint32_t* value) {
    if (token.empty()) return false;
    int base = 10;
    if (token.size() > 2 && token[0] == '0' && (token[1] == 'x' || token[1] == 'X')) {
        base = 16;
        token.remove_prefix(2);
    }
    if (!token.empty() && (token.back() == 'U' || token.back() == 'u')) token.remove_suffix(1);
    if (token.empty()) return false;
    uint64_t result = 0;
    for (char c : token) {
        int digit;
        if (c >= '0' && c <= '9') {
            digit = c - '0';
        } else if (base == 16 && c >= 'a' && c <= 'f') {
            digit = c - 'a' + 10;
        } else if (base == 16 && c >= 'A' && c <= 'F') {
            digit = c - 'A' + 10;
        } else {
            return false;
        }
        result = result * base + digit;
        if (result > UINT32_MAX) return false;
    }
    *value = static_cast<uint32_t>(result);
    return true;
}

// Bytes of a PTX fundamental type (.u32, .f64, .b8, ...); 0 when `token` is not one.
uint32_t PtxTypeBytes(std::string_view token) {
    static const std::pair<std::string_view, uint32_t> kTypes[] = {
        {".b8", 1},  {".u8", 1},   {".s8", 1},    {".b16", 2},   {".u16", 2},
        {".s16", 2}, {".f16", 2},  {".bf16", 2},  {".b32", 4},   {".u32", 4},
        {".s32", 4}, {".f32", 4},  {".b64", 8},   {".u64", 8},   {".s64", 8},
        {".f64", 8}, {".pred", 1}, {".b128", 16}, {".f16x2", 4}, {".bf16x2", 4}};
    for (const auto& [name, bytes] : kTypes) {
        if (token == name) return bytes;
    }
    return 0;
}

// Reads `.maxntid`/`.reqntid`'s one to three numbers; false on malformed input.
bool ReadDims(PtxLexer* lexer, std::string_view* token, uint32_t* threads, bool* error) {
    uint32_t dims[3] = {1, 1, 1};
    for (int i = 0; i < 3; ++i) {
        *token = lexer->Next(error);
        if (!ParseNumber(*token, &dims[i])) return false;
        *token = lexer->Next(error);
        if (*token != ",") break;
        if (i == 2) return false;
    }
    *threads = Threads(dims[0], dims[1], dims[2]);
    return true;  // *token: the one after the numbers
}

bool ReadPtx(const char* text, size_t size, std::vector<KernelInfo>* out, std::string* why) {
    size = std::find(text, text + size, '\0') - text;  // fatbin payloads are NUL-padded
    PtxLexer lexer(text, size);
    bool error = false;
    int depth = 0;
    std::vector<KernelInfo> kernels;
    std::unordered_set<std::string> seen;
    uint64_t name_bytes = 0;
    std::string_view token = lexer.Next(&error);
    while (!token.empty()) {
        if (token == "{") {
            ++depth;
        } else if (token == "}") {
            if (--depth < 0) return Fail(why, "PTX: unbalanced '}'");
        } else if (token == ".entry" && depth == 0) {
            KernelInfo kernel;
            std::string_view name = lexer.Next(&error);
            if (name.empty() || name[0] == '.' || name[0] == '"' || name.size() > kMaxNameLength ||
                !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_' ||
                  name[0] == '$' || name[0] == '%')) {
                return Fail(why, "PTX: .entry without a name");
            }
            kernel.name = std::string(name);
            token = lexer.Next(&error);
            // The parameter list: each ".param [.align N] .type [.ptr ...] name[[count]]".
            uint64_t offset = 0;
            bool known = true;
            if (token == "(") {
                token = lexer.Next(&error);
                while (token != ")") {
                    if (token != ".param") return Fail(why, "PTX: bad parameter of " + kernel.name);
                    uint32_t align = 0, type_bytes = 0;
                    uint64_t count = 1;
                    token = lexer.Next(&error);
                    while (!token.empty() && token != "," && token != ")") {
                        uint32_t number;
                        if (token == ".align" && type_bytes == 0) {
                            token = lexer.Next(&error);
                            if (!ParseNumber(token, &number) || number == 0 ||
                                (number & (number - 1)) != 0) {
                                return Fail(why, "PTX: bad .align in " + kernel.name);
                            }
                            align = number;
                        } else if (token == "[") {
                            token = lexer.Next(&error);
                            if (!ParseNumber(token, &number) || lexer.Next(&error) != "]") {
                                return Fail(why, "PTX: bad array parameter in " + kernel.name);
                            }
                            count *= number;
                            if (count > UINT32_MAX) return Fail(why, "PTX: parameter too large");
                        } else if (type_bytes == 0 && PtxTypeBytes(token) != 0) {
                            type_bytes = PtxTypeBytes(token);
                        }
                        token = lexer.Next(&error);
                    }
                    if (token.empty()) return Fail(why, "PTX: unterminated parameter list");
                    if (type_bytes == 0) {
                        known = false;  // .texref, .samplerref, ...: size not ours to guess
                    } else {
                        if (align == 0) align = type_bytes;
                        offset = (offset + align - 1) / align * align + type_bytes * count;
                        if (offset > UINT32_MAX) return Fail(why, "PTX: parameters too large");
                    }
                    if (token == ",") token = lexer.Next(&error);
                }
                token = lexer.Next(&error);
            }
            kernel.param_bytes = known ? static_cast<uint32_t>(offset) : 0;
            // Performance directives up to the body: .maxntid, .reqntid, .minnctapersm, ...
            uint32_t max_threads = 0, reqntid = 0;
            while (!token.empty() && token != "{" && token != ";") {
                if (token == ".maxntid" || token == ".reqntid") {
                    uint32_t threads;
                    bool req = token == ".reqntid";
                    if (!ReadDims(&lexer, &token, &threads, &error)) {
                        return Fail(why, "PTX: bad thread count of " + kernel.name);
                    }
                    (req ? reqntid : max_threads) = threads;
                    continue;
                }
                token = lexer.Next(&error);
            }
            if (token.empty()) return Fail(why, "PTX: " + kernel.name + " has no body");
            kernel.block_threads = reqntid != 0 ? reqntid : max_threads;
            if (token == "{") ++depth;
            // A declaration without a body (";") is not a kernel this module defines.
            if (token == "{" && seen.insert(kernel.name).second) {
                name_bytes += kernel.name.size();
                if (name_bytes > size) return Fail(why, "PTX: implausible kernel names");
                kernels.push_back(std::move(kernel));
            }
        }
        if (error) break;
        token = lexer.Next(&error);
    }
    if (error) return Fail(why, "PTX: unterminated comment or string");
    if (depth != 0) return Fail(why, "PTX: unbalanced '{'");
    *out = std::move(kernels);
    return true;
}

// ---- fatbin -------------------------------------------------------------------------------

bool AllZero(const uint8_t* p, size_t n) {
    return std::all_of(p, p + n, [](uint8_t b) { return b == 0; });
}

// Adds `more` to `into` (`index`: each name's place in it): kernels new by name are appended,
// known ones get the fields they lack.
void Merge(const std::vector<KernelInfo>& more, std::vector<KernelInfo>* into,
           std::unordered_map<std::string, size_t>* index) {
    for (const KernelInfo& kernel : more) {
        auto [place, added] = index->emplace(kernel.name, into->size());
        if (added) {
            into->push_back(kernel);
            continue;
        }
        KernelInfo& same = (*into)[place->second];
        if (same.param_bytes == 0) same.param_bytes = kernel.param_bytes;
        if (same.block_threads == 0) same.block_threads = kernel.block_threads;
    }
}

bool ReadFatbin(const uint8_t* data, size_t size, std::vector<KernelInfo>* out, std::string* why) {
    std::vector<KernelInfo> kernels;
    std::unordered_map<std::string, size_t> index;
    size_t readable = 0, compressed = 0, other = 0;
    size_t pos = 0;
    while (pos < size) {
        uint32_t magic = 0;
        uint16_t header_size = 0;
        uint64_t fat_size = 0;
        if (!Load(data, size, pos, &magic) || magic != kFatbinMagic) {
            if (pos != 0 && AllZero(data + pos, size - pos)) break;  // padding after the last
            return Fail(why, "fatbin: no fatbin header at byte " + std::to_string(pos));
        }
        if (!Load(data, size, pos + 6, &header_size) || !Load(data, size, pos + 8, &fat_size)) {
            return Fail(why, "fatbin: truncated header");
        }
        if (header_size < 16 || !Fits(pos + header_size, 1, fat_size, size)) {
            return Fail(why, "fatbin: truncated: the container at byte " + std::to_string(pos) +
                                 " ends past byte " + std::to_string(size));
        }
        const size_t begin = pos + header_size, end = begin + fat_size;
        for (size_t at = begin; at < end;) {
            uint16_t kind = 0;
            uint32_t entry_header = 0;
            uint64_t payload_size = 0, flags = 0;
            if (end - at < kEntryMinHeader) {
                if (AllZero(data + at, end - at)) break;
                return Fail(why, "fatbin: truncated entry at byte " + std::to_string(at));
            }
            Load(data, end, at + kEntryKind, &kind);
            Load(data, end, at + kEntryHeaderSize, &entry_header);
            Load(data, end, at + kEntryPayloadSize, &payload_size);
            Load(data, end, at + kEntryFlags, &flags);
            if (entry_header < kEntryMinHeader || !Fits(at + entry_header, 1, payload_size, end)) {
                return Fail(why, "fatbin: damaged entry at byte " + std::to_string(at));
            }
            const uint8_t* payload = data + at + entry_header;
            at += entry_header + payload_size;
            std::vector<KernelInfo> found;
            std::string problem;
            if ((flags & (kFlagCompressedLz4 | kFlagCompressedZstd)) != 0) {
                ++compressed;
                continue;
            }
            if (kind == kKindElf && payload_size >= SELFMAG &&
                std::memcmp(payload, ELFMAG, SELFMAG) == 0) {
                if (!ReadCubin(payload, payload_size, &found, &problem)) {
                    return Fail(why, "fatbin: damaged cubin entry: " + problem);
                }
            } else if (kind == kKindPtx &&
                       DetectFormat(payload, payload_size) == BinaryFormat::kPtx) {
                if (!ReadPtx(reinterpret_cast<const char*>(payload), payload_size, &found,
                             &problem)) {
                    return Fail(why, "fatbin: damaged PTX entry: " + problem);
                }
            } else {
                ++other;  // another encoding we do not know: the driver may still load it
                continue;
            }
            ++readable;
            Merge(found, &kernels, &index);
        }
        pos = end;
    }
    if (readable == 0) {
        if (compressed != 0) {
            return Fail(why,
                        "fatbin: every entry is compressed (build with nvcc --no-compress "
                        "to make kernel metadata readable)");
        }
        return Fail(why, "fatbin: no cubin or PTX entry");
    }
    if (why != nullptr) {
        why->clear();
        if (compressed + other != 0) {
            *why = "fatbin: skipped " + std::to_string(compressed) + " compressed and " +
                   std::to_string(other) + " unreadable entries";
        }
    }
    *out = std::move(kernels);
    return true;
}

}  // namespace

BinaryFormat DetectFormat(const void* data, size_t size) {
    const auto* bytes = static_cast<const uint8_t*>(data);
    if (data == nullptr) return BinaryFormat::kUnknown;
    uint32_t magic = 0;
    if (Load(bytes, size, 0, &magic) && magic == kFatbinMagic) return BinaryFormat::kFatbin;
    Elf64_Ehdr header;
    if (Load(bytes, size, 0, &header) && std::memcmp(header.e_ident, ELFMAG, SELFMAG) == 0 &&
        header.e_ident[EI_CLASS] == ELFCLASS64 && header.e_machine == kEmCuda) {
        return BinaryFormat::kCubin;
    }
    // PTX: after blank lines and comments, the first statement is ".version".
    bool error = false;
    PtxLexer lexer(static_cast<const char*>(data), size);
    if (lexer.Next(&error) == ".version" && !error) return BinaryFormat::kPtx;
    return BinaryFormat::kUnknown;
}

const char* FormatName(BinaryFormat format) {
    switch (format) {
        case BinaryFormat::kCubin:
            return "cubin";
        case BinaryFormat::kFatbin:
            return "fatbin";
        case BinaryFormat::kPtx:
            return "ptx";
        case BinaryFormat::kUnknown:
            break;
    }
    return "unknown";
}

bool ReadKernels(const void* data, size_t size, std::vector<KernelInfo>* out, std::string* why) {
    if (out == nullptr) return Fail(why, "no output list");
    out->clear();
    if (why != nullptr) why->clear();
    if (data == nullptr) return Fail(why, "no data");
    const auto* bytes = static_cast<const uint8_t*>(data);
    switch (DetectFormat(data, size)) {
        case BinaryFormat::kCubin:
            return ReadCubin(bytes, size, out, why);
        case BinaryFormat::kFatbin:
            return ReadFatbin(bytes, size, out, why);
        case BinaryFormat::kPtx:
            return ReadPtx(static_cast<const char*>(data), size, out, why);
        case BinaryFormat::kUnknown:
            break;
    }
    return Fail(why, "not a CUDA binary (cubin, fatbin or PTX)");
}

}  // namespace openacl::cuda
