#include "core/elf_symbols.h"

#include <cxxabi.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

namespace openacl {

namespace {

// offset + count * size <= length, without overflow.
bool Fits(uint64_t offset, uint64_t count, uint64_t size, size_t length) {
    if (offset > length) return false;
    return size == 0 || count <= (length - offset) / size;
}

// The last part of a C++ name: "scale" of "ns::scale".
std::string LastPart(const std::string& name) {
    const size_t at = name.rfind("::");
    return at == std::string::npos ? name : name.substr(at + 2);
}

}  // namespace

std::shared_ptr<const ElfSymbols> ElfSymbols::Parse(const void* data, size_t length) {
    auto result = std::make_shared<ElfSymbols>();
    const auto* bytes = static_cast<const unsigned char*>(data);
    Elf64_Ehdr header;
    if (length < sizeof header) return result;
    std::memcpy(&header, bytes, sizeof header);
    if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
        header.e_ident[EI_CLASS] != ELFCLASS64 ||
        (header.e_type != ET_DYN && header.e_type != ET_EXEC) ||
        header.e_shentsize != sizeof(Elf64_Shdr) || header.e_shnum == 0 ||
        !Fits(header.e_shoff, header.e_shnum, sizeof(Elf64_Shdr), length)) {
        return result;
    }
    std::vector<Elf64_Shdr> sections(header.e_shnum);
    std::memcpy(sections.data(), bytes + header.e_shoff, sections.size() * sizeof(Elf64_Shdr));
    // What RELRO makes read-only once the loader has relocated it, though its sections say
    // writable: a const table of pointers is not a variable a copy may write.
    uint64_t relro_begin = 0, relro_end = 0;
    if (header.e_phentsize == sizeof(Elf64_Phdr) &&
        Fits(header.e_phoff, header.e_phnum, sizeof(Elf64_Phdr), length)) {
        for (uint16_t i = 0; i < header.e_phnum; ++i) {
            Elf64_Phdr segment;
            std::memcpy(&segment, bytes + header.e_phoff + i * sizeof segment, sizeof segment);
            if (segment.p_type == PT_GNU_RELRO) {
                relro_begin = segment.p_vaddr;
                relro_end = segment.p_vaddr + segment.p_memsz;
            }
        }
    }
    const Elf64_Shdr* table = nullptr;
    for (uint32_t type : {SHT_SYMTAB, SHT_DYNSYM}) {
        for (const Elf64_Shdr& section : sections) {
            if (section.sh_type == type) {
                table = &section;
                break;
            }
        }
        if (table != nullptr) break;
    }
    if (table == nullptr || table->sh_entsize != sizeof(Elf64_Sym) ||
        table->sh_link >= sections.size()) {
        return result;
    }
    const Elf64_Shdr& strings = sections[table->sh_link];
    if (!Fits(strings.sh_offset, 1, strings.sh_size, length) ||
        !Fits(table->sh_offset, 1, table->sh_size, length)) {
        return result;
    }
    result->names_.assign(reinterpret_cast<const char*>(bytes + strings.sh_offset),
                          strings.sh_size);
    result->names_.push_back('\0');  // a damaged table's last name still ends
    const size_t count = table->sh_size / sizeof(Elf64_Sym);
    for (size_t i = 1; i < count; ++i) {
        Elf64_Sym symbol;
        std::memcpy(&symbol, bytes + table->sh_offset + i * sizeof symbol, sizeof symbol);
        const unsigned type = ELF64_ST_TYPE(symbol.st_info);
        if (type != STT_FUNC && type != STT_OBJECT) continue;
        if (symbol.st_shndx == SHN_UNDEF || symbol.st_shndx >= SHN_LORESERVE) continue;
        if (symbol.st_size == 0 || symbol.st_name >= strings.sh_size) continue;
        const unsigned bind = ELF64_ST_BIND(symbol.st_info);
        const bool relro = symbol.st_value >= relro_begin && symbol.st_value < relro_end;
        const bool writable = symbol.st_shndx < sections.size() &&
                              (sections[symbol.st_shndx].sh_flags & SHF_WRITE) != 0 && !relro;
        result->symbols_.push_back({symbol.st_name, symbol.st_value, symbol.st_size,
                                    type == STT_FUNC, bind == STB_GLOBAL || bind == STB_WEAK,
                                    writable});
    }
    std::stable_sort(result->symbols_.begin(), result->symbols_.end(),
                     [](const ElfSymbol& a, const ElfSymbol& b) { return a.value < b.value; });
    result->full_ = table->sh_type == SHT_SYMTAB;
    return result;
}

const ElfSymbol* ElfSymbols::StartingAt(uint64_t value, bool function) const {
    auto it = std::lower_bound(symbols_.begin(), symbols_.end(), value,
                               [](const ElfSymbol& s, uint64_t v) { return s.value < v; });
    const ElfSymbol* found = nullptr;
    for (; it != symbols_.end() && it->value == value; ++it) {
        if (it->function != function) continue;
        if (found == nullptr || (it->global && !found->global)) found = &*it;
    }
    return found;
}

const ElfSymbol* ElfSymbols::Containing(uint64_t value) const {
    auto it = std::upper_bound(symbols_.begin(), symbols_.end(), value,
                               [](uint64_t v, const ElfSymbol& s) { return v < s.value; });
    // Symbols rarely nest: the few before `value` are enough for a message.
    for (int looked = 0; it != symbols_.begin() && looked < 16; ++looked) {
        --it;
        if (value - it->value < it->size) return &*it;
    }
    return nullptr;
}

std::vector<const ElfSymbol*> ElfSymbols::Named(const std::string& name, bool function) const {
    std::vector<const ElfSymbol*> found;
    const bool qualified = name.find("::") != std::string::npos;
    // A mangled name holds each part of the C++ name as <length><identifier>: only those
    // are worth demangling.
    const std::string last = LastPart(name);
    const std::string encoded = std::to_string(last.size()) + last;
    for (const ElfSymbol& symbol : symbols_) {
        if (symbol.function != function) continue;
        const char* raw = Name(symbol);
        if (name == raw) {
            found.push_back(&symbol);
            continue;
        }
        if (std::strncmp(raw, "_Z", 2) != 0 || std::strstr(raw, encoded.c_str()) == nullptr) {
            continue;
        }
        const std::string source = SourceName(raw);
        if (source.empty()) continue;
        if (source == name || (!qualified && LastPart(source) == name)) found.push_back(&symbol);
    }
    return found;
}

std::vector<const ElfSymbol*> ElfSymbols::VariablesWithPrefix(const std::string& prefix) const {
    std::vector<const ElfSymbol*> found;
    for (const ElfSymbol& symbol : symbols_) {
        if (symbol.function) continue;
        const char* raw = Name(symbol);
        if (std::strncmp(raw, prefix.c_str(), prefix.size()) == 0 ||
            (std::strncmp(raw, "_Z", 2) == 0 && std::strstr(raw, prefix.c_str()) != nullptr &&
             SourceName(raw).compare(0, prefix.size(), prefix) == 0)) {
            found.push_back(&symbol);
        }
    }
    return found;
}

const ElfSymbol* SoleSymbol(const std::vector<const ElfSymbol*>& found) {
    if (found.empty()) return nullptr;
    const ElfSymbol* global = nullptr;
    size_t globals = 0;
    bool aliases = true;
    for (const ElfSymbol* symbol : found) {
        if (symbol->global) {
            global = symbol;
            ++globals;
        }
        aliases = aliases && symbol->value == found.front()->value;
    }
    if (aliases) return found.front();
    return globals == 1 ? global : nullptr;
}

std::string SourceName(const char* symbol_name) {
    if (std::strncmp(symbol_name, "_Z", 2) != 0) {
        // A C name never holds a '.': "add.cold" and "x.lto_priv.0" are the compiler's.
        return std::strchr(symbol_name, '.') != nullptr ? std::string() : symbol_name;
    }
    int status = 0;
    char* demangled = abi::__cxa_demangle(symbol_name, nullptr, nullptr, &status);
    if (status != 0 || demangled == nullptr) {
        std::free(demangled);
        return {};
    }
    std::string text = demangled;
    std::free(demangled);
    if (text.find("[clone") != std::string::npos) return {};
    for (size_t at; (at = text.find("(anonymous namespace)::")) != std::string::npos;)
        text.erase(at, std::strlen("(anonymous namespace)::"));
    // A function: cut the parameter list, the parentheses that close the name.
    const size_t close = text.rfind(')');
    if (close != std::string::npos) {
        int depth = 0;
        size_t open = close + 1;
        for (size_t i = close + 1; i-- > 0;) {
            if (text[i] == ')') ++depth;
            if (text[i] == '(' && --depth == 0) {
                open = i;
                break;
            }
        }
        if (open > close) return {};
        text.resize(open);
    }
    // A return type (template instances have one), template arguments or "vtable for" are not
    // a plain function or variable.
    if (text.empty() || text.find_first_of(" <>()") != std::string::npos) return {};
    return text;
}

std::mutex& LoaderMutex() {
    static std::mutex mutex;
    return mutex;
}

bool FindLoadedObject(const void* address, LoadedObject* out) {
    std::lock_guard loader_lock(LoaderMutex());
    struct Search {
        uintptr_t address;
        LoadedObject* out;
        bool found;
    } search{reinterpret_cast<uintptr_t>(address), out, false};
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* arg) -> int {
            auto* s = static_cast<Search*>(arg);
            uintptr_t begin = UINTPTR_MAX, end = 0;
            bool inside = false;
            for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
                const ElfW(Phdr)& segment = info->dlpi_phdr[i];
                if (segment.p_type != PT_LOAD) continue;
                const uintptr_t start = info->dlpi_addr + segment.p_vaddr;
                begin = std::min(begin, start);
                end = std::max(end, static_cast<uintptr_t>(start + segment.p_memsz));
                if (s->address >= start && s->address - start < segment.p_memsz) inside = true;
            }
            if (!inside) return 0;
            const char* name = info->dlpi_name;
            s->out->path = name != nullptr && name[0] != '\0' ? name : "/proc/self/exe";
            s->out->bias = info->dlpi_addr;
            s->out->begin = begin;
            s->out->end = end;
            s->found = true;
            return 1;
        },
        &search);
    return search.found;
}

std::shared_ptr<const ElfSymbols> LoadedObjectSymbols(const LoadedObject& object,
                                                      std::string* why) {
    int fd = open(object.path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        *why = "cannot read " + object.path + ": " + std::strerror(errno);
        return nullptr;
    }
    struct stat info {};
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode) || info.st_size == 0) {
        close(fd);
        *why = object.path + " is not a readable file";
        return nullptr;
    }
    // One parse per file and load address: the program's table can be large. A rebuilt file
    // (another inode or time) is read again.
    static auto* mutex = new std::mutex;
    static auto* cache = new std::map<std::string, std::shared_ptr<const ElfSymbols>>;
    const std::string key = object.path + '\n' + std::to_string(object.bias) + '\n' +
                            std::to_string(info.st_dev) + ':' + std::to_string(info.st_ino) + ':' +
                            std::to_string(info.st_mtim.tv_sec) + '.' +
                            std::to_string(info.st_mtim.tv_nsec);
    std::lock_guard lock(*mutex);
    if (auto it = cache->find(key); it != cache->end()) {
        close(fd);
        return it->second;
    }
    const auto size = static_cast<size_t>(info.st_size);
    void* mapped = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (mapped == MAP_FAILED) {
        *why = "cannot map " + object.path + ": " + std::strerror(errno);
        return nullptr;
    }
    std::shared_ptr<const ElfSymbols> symbols = ElfSymbols::Parse(mapped, size);
    munmap(mapped, size);
    cache->emplace(key, symbols);
    return symbols;
}

}  // namespace openacl
