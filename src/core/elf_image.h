// Checks that bytes hold a structurally sound ELF shared object for this machine before they
// go to dlopen(). The dynamic loader trusts what it maps: a truncated or damaged kernel binary
// would make it read past the file (SIGBUS) or follow wild offsets instead of failing.
#pragma once

#include <cstddef>
#include <string>

namespace openacl {

// Empty when `data` is a 64-bit little-endian ELF shared object for this CPU whose headers,
// program segments and section table all lie inside the `length` bytes; otherwise what is
// wrong, in a few words ("truncated: the program headers end at byte 4096 of 1000").
std::string ElfImageProblem(const void* data, size_t length);

}  // namespace openacl
