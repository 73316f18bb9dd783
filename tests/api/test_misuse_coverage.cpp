// The misuse table covers the whole implemented API: every function libascendcl implements
// (build/generated/API_COVERAGE.md, written from the library's objects) has rows in
// test_bad_input.cpp or test_misuse_*.cpp, or is listed below as having no bad input.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace {

std::string ReadText(const std::filesystem::path& path) {
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

// Functions no argument can make fail; MisuseTable.FunctionsWithoutBadInputAnswerAtTheirEdges
// calls each at its edges.
const std::map<std::string, std::string> kNoBadInput = {
    {"aclDestroyTensorDesc", "NULL is a documented no-op"},
    {"aclFloat16ToFloat", "every half is a number"},
    {"aclFloatToFloat16", "every float converts (saturating)"},
    {"aclDataTypeSize", "unknown types have no fixed size: 0, as documented"},
    {"aclAppLog", "logs whatever it is given"},
    {"aclrtGetSocName", "takes no argument"},
    {"aclrtAllocatorCreateDesc", "takes no argument"},
    {"aclprofCreateStepInfo", "takes no argument"},
    {"acldumpUnregCallback", "takes no argument; without a callback it does nothing"},
    {"aclGetRecentErrMsg", "takes no argument"},
    {"aclmdlCreateDesc", "takes no argument"},
    {"aclmdlCreateDataset", "takes no argument"},
    {"acltdtCreateDataset", "takes no argument"},
    {"aclmdlCreateConfigHandle", "takes no argument"},
    {"aclopCreateAttr", "takes no argument"},
    {"aclCreateGraphDumpOpt", "takes no argument"},
    {"aclrtCreateStreamConfigHandle", "takes no argument"},
    {"acldvppCreateChannelDesc", "takes no argument"},
    {"acldvppCreatePicDesc", "takes no argument"},
    {"acldvppCreateResizeConfig", "takes no argument"},
    {"acldvppCreateJpegeConfig", "takes no argument"},
    {"acldvppCreateBorderConfig", "takes no argument"},
    {"acldvppCreateLutMap", "takes no argument"},
    {"acldvppCreateHist", "takes no argument"},
    {"acldvppCreateStreamDesc", "takes no argument"},
    {"aclvdecCreateChannelDesc", "takes no argument"},
    {"aclvdecCreateFrameConfig", "takes no argument"},
    {"aclvencCreateChannelDesc", "takes no argument"},
    {"aclvencCreateFrameConfig", "takes no argument"},
    {"acldvppCreateRoiConfig", "any box is stored; the task that uses it checks the rules"},
    {"aclrtSetExceptionInfoCallback", "NULL clears the callback; any function is taken"},
    {"aclCreateIntArray", "a null pointer or size 0 makes an empty array, as documented"},
    {"aclCreateFloatArray", "a null pointer or size 0 makes an empty array, as documented"},
    {"aclCreateBoolArray", "a null pointer or size 0 makes an empty array, as documented"},
    {"aclnnFinalize", "takes no argument"},
    {"acltdtCreateQueueAttr", "takes no argument"},
    {"acltdtCreateQueueRouteList", "takes no argument"},
    {"acltdtCreateQueueRouteQueryInfo", "takes no argument"},
    {"acltdtCreateQueueRoute", "any ids are kept; binding the route checks them"},
};

}  // namespace

TEST(MisuseTable, EveryImplementedFunctionHasRows) {
    const std::string coverage = ReadText(OPENACL_GENERATED_COVERAGE);
    ASSERT_FALSE(coverage.empty()) << OPENACL_GENERATED_COVERAGE;
    std::set<std::string> implemented;
    const std::regex row(R"(^\| `(\w+)` \| ([^|]*) \|)", std::regex::multiline);
    for (std::sregex_iterator it(coverage.begin(), coverage.end(), row), end; it != end; ++it) {
        if ((*it)[2].str().find("not supported") == std::string::npos) implemented.insert((*it)[1]);
    }
    ASSERT_GT(implemented.size(), 100u) << "the coverage table was not understood";

    std::set<std::string> covered;
    const std::regex name(R"re(\{\s*"(\w+)[( ])re");
    for (const auto& entry : std::filesystem::directory_iterator(OPENACL_SOURCE_DIR "/tests/api")) {
        const std::string file = entry.path().filename().string();
        if (file != "test_bad_input.cpp" && file.rfind("test_misuse_", 0) != 0) continue;
        const std::string text = ReadText(entry.path());
        for (std::sregex_iterator it(text.begin(), text.end(), name), end; it != end; ++it)
            covered.insert((*it)[1]);
    }

    std::string missing;
    for (const std::string& function : implemented) {
        if (!covered.count(function) && !kNoBadInput.count(function)) missing += " " + function;
    }
    EXPECT_TRUE(missing.empty()) << "implemented functions without misuse rows:" << missing;
    for (const auto& [function, why] : kNoBadInput)
        EXPECT_TRUE(implemented.count(function)) << function << " is listed but not implemented";
}
