// The symbol tables of ELF objects: where the functions and variables of the program, its
// libraries and kernel binaries lie, and how large they are. A kernel's code
// (aclrtGetFunctionAddr) and a device variable's extent (aclrtGetSymbolSize) are known only
// there: dladdr() sees exported symbols alone, and kernel binaries hide theirs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace openacl {

// A defined function or variable with a size.
struct ElfSymbol {
    uint32_t name;   // offset into the table's names (C++ names stay mangled)
    uint64_t value;  // the address, less the object's load bias
    uint64_t size;   // bytes
    bool function;   // else a variable
    bool global;     // global or weak binding; local ones include hidden and static symbols
    bool writable;   // lies in a writable section (a variable that is not const)
};

class ElfSymbols {
 public:
    // The symbols of an ELF image in memory: its full table (.symtab), or the dynamic one when
    // the image was stripped. Undefined, absolute, thread-local and sizeless symbols are left
    // out. A damaged table gives what could be read of it.
    static std::shared_ptr<const ElfSymbols> Parse(const void* data, size_t length);

    const char* Name(const ElfSymbol& symbol) const { return names_.c_str() + symbol.name; }
    // The function (or variable) that starts at `value`, or nullptr.
    const ElfSymbol* StartingAt(uint64_t value, bool function) const;
    // Any symbol whose bytes hold `value` (for messages), or nullptr.
    const ElfSymbol* Containing(uint64_t value) const;
    // The functions (or variables) called `name`: by their symbol name, their C++ name
    // ("ns::scale") or, when `name` has no "::", the last part of it. Template instances and
    // compiler clones are left out.
    std::vector<const ElfSymbol*> Named(const std::string& name, bool function) const;
    // The variables whose name (or C++ name: a static one's is mangled) starts with `prefix`.
    std::vector<const ElfSymbol*> VariablesWithPrefix(const std::string& prefix) const;
    // Whether the names came from the full table (false: stripped, exported symbols only).
    bool full() const { return full_; }

 private:
    std::string names_;               // the string table, '\0'-separated
    std::vector<ElfSymbol> symbols_;  // by value
    bool full_ = false;
};

// The one symbol that `found` (Named's answer) stands for: the only one, the only global one, or
// the first of aliases at one address; nullptr when there is none or they are distinct objects
// (file-static ones of one name in different sources).
const ElfSymbol* SoleSymbol(const std::vector<const ElfSymbol*>& found);

// What a symbol name stands for in the source: the C++ name without its parameters
// ("ns::add_custom", "ns::scale") for a mangled name, the name itself otherwise; "" for
// template instances, compiler clones and the compiler's own objects (vtables, guards).
std::string SourceName(const char* symbol_name);

// An object loaded into the process: the program or a shared library.
struct LoadedObject {
    std::string path;     // the file it came from ("/proc/self/exe" for the program)
    uintptr_t bias = 0;   // what its symbol values are offset by in memory
    uintptr_t begin = 0;  // the extent of its loaded segments
    uintptr_t end = 0;
};

// The loaded object whose segments hold `address`; false when none does (heap, stack).
bool FindLoadedObject(const void* address, LoadedObject* out);
// Held around dlopen and around reading the loader's records (link maps, object names): the
// loader's own lock is invisible to ThreadSanitizer, so this one orders a load that writes them
// before a reader on another thread.
std::mutex& LoaderMutex();

// The symbols of a loaded object, read from its file once and kept. nullptr, with the reason in
// *why, when the file cannot be read (the vdso has none).
std::shared_ptr<const ElfSymbols> LoadedObjectSymbols(const LoadedObject& object, std::string* why);

}  // namespace openacl
