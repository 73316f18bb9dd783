// Reads what the CUDA backend needs to know about a kernel binary before it hands the bytes to
// the driver: which kernels it holds, how many bytes of parameters each takes and how many
// threads per block it was built for. AscendCL's launch has no thread-count argument, so the
// block size must come from the binary itself (__launch_bounds__ or .reqntid/.maxntid).
//
// Host-only: plain C++ over the bytes, no CUDA runtime or driver, so it runs (and is tested)
// on machines without a GPU. Every read is bounds-checked; damaged or hostile input is refused
// with a reason, never followed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace openacl::cuda {

enum class BinaryFormat {
    kUnknown,
    kCubin,   // ELF64 with e_machine EM_CUDA (190): SASS for one GPU architecture
    kFatbin,  // fat binary container (magic 0xBA55ED50) of cubins and/or PTX
    kPtx,     // PTX assembly text (.version ...), compiled by the driver at load time
};

// What the bytes look like, from their first bytes only (ReadKernels checks the rest).
BinaryFormat DetectFormat(const void* data, size_t size);

// "cubin", "fatbin", "ptx" or "unknown".
const char* FormatName(BinaryFormat format);

struct KernelInfo {
    std::string name;            // the entry's symbol, as cuModuleGetFunction wants it
    uint32_t param_bytes = 0;    // size of the kernel's parameter block; 0: none or unknown
    uint32_t block_threads = 0;  // threads per block the binary asks for (__launch_bounds__
                                 // max threads, or .reqntid/.maxntid, x*y*z); 0: it says nothing
};

// Lists the kernels in a cubin, fatbin or PTX text. Returns false with a reason in *why when
// the bytes are not one of those or are damaged; *out is then left empty.
//
// A fatbin holds the same kernels once per architecture: they are listed once, each field
// taken from the first entry that gives it. Compressed fatbin entries (nvcc compresses PTX,
// and everything with -compress-all) cannot be read without a decompressor and are skipped:
// when some entry was readable the call succeeds and *why notes what was skipped; when none
// was, it fails ("every entry is compressed"). openacl_add_cuda_kernel_binary builds
// uncompressed fatbins, so its output is always readable.
bool ReadKernels(const void* data, size_t size, std::vector<KernelInfo>* out, std::string* why);

}  // namespace openacl::cuda
