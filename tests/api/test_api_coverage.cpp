// The library exports every function the headers declare, under each of CANN's library names,
// and what it says it does not support matches docs/API_COVERAGE.md.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_rt_allocator.h"
#include "test_support.h"

extern "C" const char* const* openaclUnsupportedApis(size_t* count);

namespace {

struct CoverageRow {
    std::string name;
    std::string status;
};

// The rows "| `name` | status |" of a coverage table.
std::vector<CoverageRow> ReadCoverage(const std::string& path) {
    std::ifstream in(path);
    std::vector<CoverageRow> rows;
    const std::regex row(
        R"(^\| `([A-Za-z_][A-Za-z0-9_]*)` \| (implemented|not supported(?: off the chip: .*)?) \|$)");
    std::string line;
    std::smatch match;
    while (std::getline(in, line)) {
        if (std::regex_match(line, match, row)) rows.push_back({match[1], match[2]});
    }
    return rows;
}

std::set<std::string> NotSupported(const std::vector<CoverageRow>& rows) {
    std::set<std::string> names;
    for (const auto& row : rows) {
        if (row.status.rfind("not supported", 0) == 0) names.insert(row.name);
    }
    return names;
}

const char* const kLibraries[] = {
    "libascendcl.so",        "libacl_rt.so",          "libacl_mdl.so",
    "libacl_dvpp.so",        "libacl_cblas.so",       "libmsprofiler.so",
    "libacl_op_compiler.so", "libacl_op_executor.so", "libacl_tdt_queue.so"};

}  // namespace

TEST(ApiCoverage, GeneratedTableListsTheWholeApi) {
    std::vector<CoverageRow> rows = ReadCoverage(OPENACL_GENERATED_COVERAGE);
    EXPECT_GT(rows.size(), 700u) << OPENACL_GENERATED_COVERAGE;
    std::set<std::string> names;
    for (const auto& row : rows) {
        EXPECT_TRUE(names.insert(row.name).second) << row.name << " is listed twice";
    }
    for (const char* name : {"aclInit", "aclrtMalloc", "aclmdlLoadFromFile", "acldvppMalloc",
                             "aclprofInit", "aclblasGemmEx", "aclopExecuteV2"}) {
        EXPECT_EQ(names.count(name), 1u) << name;
    }
}

TEST(ApiCoverage, EveryListedFunctionResolvesInEveryLibraryName) {
    std::vector<CoverageRow> rows = ReadCoverage(OPENACL_GENERATED_COVERAGE);
    ASSERT_FALSE(rows.empty());
    for (const char* library : kLibraries) {
        SCOPED_TRACE(library);
        std::string path = std::string(OPENACL_LIB_DIR) + "/" + library;
        void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        ASSERT_NE(handle, nullptr) << dlerror();
        std::vector<std::string> missing;
        for (const auto& row : rows) {
            if (dlsym(handle, row.name.c_str()) == nullptr) missing.push_back(row.name);
        }
        EXPECT_TRUE(missing.empty()) << missing.size() << " missing, first " << missing.front();
        EXPECT_NE(dlsym(handle, "openaclUnsupportedApis"), nullptr);
        dlclose(handle);
    }
}

TEST(ApiCoverage, InternalSymbolsAreNotExported) {
    std::string path = std::string(OPENACL_LIB_DIR) + "/libascendcl.so";
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(handle, nullptr) << dlerror();
    // openacl::Fail(int, const char*, ...)
    EXPECT_EQ(dlsym(handle, "_ZN7openacl4FailEiPKcz"), nullptr);
    dlclose(handle);
}

TEST(ApiCoverage, UnsupportedListEqualsTheDocumentedOne) {
    size_t count = 0;
    const char* const* list = openaclUnsupportedApis(&count);
    ASSERT_NE(list, nullptr);
    std::set<std::string> library;
    for (size_t i = 0; i < count; ++i) {
        EXPECT_TRUE(library.insert(list[i]).second) << list[i] << " is listed twice";
    }
    std::set<std::string> documented =
        NotSupported(ReadCoverage(OPENACL_SOURCE_DIR "/docs/API_COVERAGE.md"));
    ASSERT_FALSE(documented.empty());
    std::vector<std::string> only_library, only_doc;
    std::set_difference(library.begin(), library.end(), documented.begin(), documented.end(),
                        std::back_inserter(only_library));
    std::set_difference(documented.begin(), documented.end(), library.begin(), library.end(),
                        std::back_inserter(only_doc));
    EXPECT_TRUE(only_library.empty())
        << only_library.size() << " unsupported but documented as implemented, first "
        << only_library.front() << " (refresh with: cmake --build build --target api-coverage)";
    EXPECT_TRUE(only_doc.empty()) << only_doc.size()
                                  << " implemented but documented as not supported, first "
                                  << only_doc.front()
                                  << " (refresh with: cmake --build build --target api-coverage)";
}

TEST(ApiCoverage, UnsupportedListEqualsTheGeneratedTable) {
    size_t count = 0;
    const char* const* list = openaclUnsupportedApis(&count);
    std::set<std::string> library(list, list + count);
    EXPECT_EQ(library, NotSupported(ReadCoverage(OPENACL_GENERATED_COVERAGE)));
}

TEST(ApiCoverage, NotSupportedFunctionReturnsFeatureNotSupportWithAMessage) {
    size_t count = 0;
    const char* const* list = openaclUnsupportedApis(&count);
    if (std::find_if(list, list + count, [](const char* name) {
            return std::string(name) == "aclmdlBundleUnload";
        }) == list + count) {
        GTEST_SKIP() << "aclmdlBundleUnload is implemented now: pick another function";
    }
    EXPECT_EQ(aclmdlBundleUnload(0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_THAT_MESSAGE_CONTAINS("aclmdlBundleUnload is not supported by openacl yet");
    EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

TEST(ApiCoverage, AFunctionThatMeansNothingOffTheChipSaysWhy) {
    EXPECT_EQ(aclrtSnapShotProcessLock(0, nullptr), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_THAT_MESSAGE_CONTAINS(
        "aclrtSnapShotProcessLock is not available off an Ascend chip: process snapshots");
    std::ifstream doc(OPENACL_SOURCE_DIR "/docs/API_COVERAGE.md");
    const std::string text((std::istreambuf_iterator<char>(doc)), {});
    EXPECT_NE(text.find("| `aclrtSnapShotProcessLock` | not supported off the chip: process "
                        "snapshots"),
              std::string::npos);
}
