// The CUDA binary reader (backend/cuda/cuda_binary.h): what the CUDA backend learns about a
// kernel binary without a GPU: its format, its kernels, each kernel's parameter bytes and the
// threads per block it asks for. The fixtures are built by nvcc at build time from
// tests/kernels/cuda_binary_kernels.cpp (and cuda_reqntid.ptx) in each format.
#include "backend/cuda/cuda_binary.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

namespace openacl::cuda {
namespace {

std::string ReadFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    EXPECT_TRUE(in.good()) << "cannot open " << path;
    return std::string(std::istreambuf_iterator<char>(in), {});
}

struct Fixture {
    const char* path;
    BinaryFormat format;
};
const Fixture kFixtures[] = {{OPENACL_CUDA_TEST_CUBIN, BinaryFormat::kCubin},
                             {OPENACL_CUDA_TEST_FATBIN, BinaryFormat::kFatbin},
                             {OPENACL_CUDA_TEST_PTX, BinaryFormat::kPtx}};

std::vector<KernelInfo> Read(const std::string& bytes, std::string* why = nullptr) {
    std::vector<KernelInfo> kernels;
    std::string reason;
    EXPECT_TRUE(ReadKernels(bytes.data(), bytes.size(), &kernels, &reason)) << reason;
    if (why != nullptr) *why = reason;
    return kernels;
}

const KernelInfo* Find(const std::vector<KernelInfo>& kernels, const std::string& name) {
    for (const KernelInfo& kernel : kernels) {
        if (kernel.name == name) return &kernel;
    }
    return nullptr;
}

// Rejected with a reason, and nothing listed.
void ExpectRejected(const std::string& bytes, const std::string& what) {
    std::vector<KernelInfo> kernels{KernelInfo{"stale"}};
    std::string why;
    EXPECT_FALSE(ReadKernels(bytes.data(), bytes.size(), &kernels, &why)) << what;
    EXPECT_FALSE(why.empty()) << what;
    EXPECT_TRUE(kernels.empty()) << what;
}

class EachFormat : public ::testing::TestWithParam<Fixture> {
 protected:
    std::string bytes_ = ReadFile(GetParam().path);
};

std::string FormatOf(const ::testing::TestParamInfo<Fixture>& info) {
    return FormatName(info.param.format);
}

TEST_P(EachFormat, DetectsTheFormat) {
    EXPECT_EQ(DetectFormat(bytes_.data(), bytes_.size()), GetParam().format);
}

TEST_P(EachFormat, ListsEveryKernelOnceByItsName) {
    std::vector<KernelInfo> kernels = Read(bytes_);
    std::vector<std::string> names;
    for (const KernelInfo& kernel : kernels)
        names.push_back(kernel.name);
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, (std::vector<std::string>{"bounded_copy", "unbounded_axpy"}));
}

TEST_P(EachFormat, ReadsEachKernelsParameterBytes) {
    std::vector<KernelInfo> kernels = Read(bytes_);
    ASSERT_NE(Find(kernels, "bounded_copy"), nullptr);
    ASSERT_NE(Find(kernels, "unbounded_axpy"), nullptr);
    EXPECT_EQ(Find(kernels, "bounded_copy")->param_bytes, 3u * 8);
    EXPECT_EQ(Find(kernels, "unbounded_axpy")->param_bytes, 5u * 8);
}

TEST_P(EachFormat, LaunchBoundsGiveTheThreadsPerBlock) {
    const std::vector<KernelInfo> kernels = Read(bytes_);
    const KernelInfo* kernel = Find(kernels, "bounded_copy");
    ASSERT_NE(kernel, nullptr);
    EXPECT_EQ(kernel->block_threads, 128u);
}

TEST_P(EachFormat, WithoutLaunchBoundsTheThreadsPerBlockAreUnknown) {
    const std::vector<KernelInfo> kernels = Read(bytes_);
    const KernelInfo* kernel = Find(kernels, "unbounded_axpy");
    ASSERT_NE(kernel, nullptr);
    EXPECT_EQ(kernel->block_threads, 0u);
}

TEST_P(EachFormat, TruncatedBinaryIsRejectedWithAReason) {
    // Every cut of a cubin or fatbin loses part of a section table or an entry; a PTX cut
    // inside a kernel's body leaves its braces open.
    size_t step = GetParam().format == BinaryFormat::kPtx ? 1 : 7;
    size_t last_body = bytes_.rfind('}');
    ASSERT_NE(last_body, std::string::npos);
    size_t from = GetParam().format == BinaryFormat::kPtx ? bytes_.rfind('{') + 1 : 0;
    size_t to = GetParam().format == BinaryFormat::kPtx ? last_body : bytes_.size();
    for (size_t length = from; length < to; length += step)
        ExpectRejected(bytes_.substr(0, length), "cut at " + std::to_string(length));
}

INSTANTIATE_TEST_SUITE_P(CudaBinary, EachFormat, ::testing::ValuesIn(kFixtures), FormatOf);

TEST(CudaBinary, ReqntidGivesTheThreadsPerBlockInPtx) {
    const std::vector<KernelInfo> kernels = Read(ReadFile(OPENACL_CUDA_REQNTID_PTX));
    const KernelInfo* kernel = Find(kernels, "fixed_block");
    ASSERT_NE(kernel, nullptr);
    EXPECT_EQ(kernel->block_threads, 64u * 2);
    EXPECT_EQ(kernel->param_bytes, 8u + 24);  // a .b8 array of 24 bytes, 8-byte aligned
}

TEST(CudaBinary, ReqntidGivesTheThreadsPerBlockInACubin) {
    const std::vector<KernelInfo> kernels = Read(ReadFile(OPENACL_CUDA_REQNTID_CUBIN));
    const KernelInfo* kernel = Find(kernels, "fixed_block");
    ASSERT_NE(kernel, nullptr);
    EXPECT_EQ(kernel->block_threads, 64u * 2);
    EXPECT_EQ(kernel->param_bytes, 8u + 24);
}

TEST(CudaBinary, PtxParametersAreLaidOutWithTheirAlignment) {
    const std::string ptx =
        "// comment with .entry decoy(\n"
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry mixed(\n"
        "  .param .u8 mixed_param_0,   /* 1 byte at 0 */\n"
        "  .param .u32 mixed_param_1,  // 4 bytes at 4\n"
        "  .param .u64 .ptr .global .align 16 mixed_param_2\n"  // pointee alignment: 8 at 8
        ")\n.maxntid 32\n{\n  ret;\n}\n";
    std::vector<KernelInfo> kernels = Read(ptx);
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels[0].name, "mixed");
    EXPECT_EQ(kernels[0].param_bytes, 16u);
    EXPECT_EQ(kernels[0].block_threads, 32u);
}

// Rewrites the flags of fatbin entries as if fatbinary had compressed them (0x2000: LZ4).
std::string MarkEntriesCompressed(std::string fatbin, size_t how_many) {
    uint16_t header_size;
    std::memcpy(&header_size, fatbin.data() + 6, sizeof header_size);
    for (size_t at = header_size, n = 0; at + 48 <= fatbin.size() && n < how_many; ++n) {
        uint32_t entry_header;
        uint64_t payload, flags;
        std::memcpy(&entry_header, fatbin.data() + at + 4, sizeof entry_header);
        std::memcpy(&payload, fatbin.data() + at + 8, sizeof payload);
        std::memcpy(&flags, fatbin.data() + at + 40, sizeof flags);
        flags |= 0x2000;
        std::memcpy(fatbin.data() + at + 40, &flags, sizeof flags);
        at += entry_header + payload;
    }
    return fatbin;
}

TEST(CudaBinary, CompressedFatbinEntriesAreSkippedWithANote) {
    std::string why;
    std::vector<KernelInfo> kernels =
        Read(MarkEntriesCompressed(ReadFile(OPENACL_CUDA_TEST_FATBIN), 1), &why);
    EXPECT_NE(Find(kernels, "bounded_copy"), nullptr);
    EXPECT_NE(why.find("compressed"), std::string::npos) << why;
}

TEST(CudaBinary, FatbinOfOnlyCompressedEntriesIsRejected) {
    std::string fatbin = MarkEntriesCompressed(ReadFile(OPENACL_CUDA_TEST_FATBIN), 100);
    std::vector<KernelInfo> kernels;
    std::string why;
    EXPECT_FALSE(ReadKernels(fatbin.data(), fatbin.size(), &kernels, &why));
    EXPECT_NE(why.find("compressed"), std::string::npos) << why;
}

TEST(CudaBinary, GarbageIsRejectedWithAReason) {
    std::mt19937 rng(7);
    std::string noise(4096, '\0');
    for (char& c : noise)
        c = static_cast<char>(rng());
    ExpectRejected(noise, "random bytes");
    ExpectRejected("", "empty");
    ExpectRejected(ReadFile("/proc/self/exe"), "an x86 ELF");
    ExpectRejected(".version 8.0\n.visible .entry broken(\n.param .u64 p\n", "unfinished PTX");
    EXPECT_EQ(DetectFormat(noise.data(), noise.size()), BinaryFormat::kUnknown);
}

TEST(CudaBinary, NullInputIsRejected) {
    std::vector<KernelInfo> kernels;
    std::string why;
    EXPECT_FALSE(ReadKernels(nullptr, 16, &kernels, &why));
    EXPECT_FALSE(why.empty());
    EXPECT_EQ(DetectFormat(nullptr, 16), BinaryFormat::kUnknown);
}

TEST(CudaBinary, DamagedAttributeIsRejectedNotFollowed) {
    // The cubin's first sized .nv.info attribute (format 4) claims to run past its section.
    std::string cubin = ReadFile(OPENACL_CUDA_TEST_CUBIN);
    size_t at = cubin.find(std::string("\x04\x37\x04\x00", 4));  // EIATTR_CUDA_API_VERSION
    ASSERT_NE(at, std::string::npos);
    cubin[at + 2] = '\xff';
    cubin[at + 3] = '\xff';
    ExpectRejected(cubin, "attribute length 65535");
}

TEST(CudaBinary, FormatNamesAreShortWords) {
    EXPECT_STREQ(FormatName(BinaryFormat::kCubin), "cubin");
    EXPECT_STREQ(FormatName(BinaryFormat::kFatbin), "fatbin");
    EXPECT_STREQ(FormatName(BinaryFormat::kPtx), "ptx");
    EXPECT_STREQ(FormatName(BinaryFormat::kUnknown), "unknown");
}

}  // namespace
}  // namespace openacl::cuda
