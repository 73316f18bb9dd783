// aclGenGraphAndDumpForOp: the graph of one single-operator call written as text, into a
// directory (a file named after the call) or a named .txt file; and its reserved options.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "op_test_support.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;

class OpGraphDump : public DeviceTest {
 protected:
    void SetUp() override {
        DeviceTest::SetUp();
        char pattern[] = "/tmp/openacl-graph-dump-XXXXXX";
        ASSERT_NE(mkdtemp(pattern), nullptr);
        dir_ = pattern;
        // The tensors need the device DeviceTest::SetUp sets.
        x1_ = std::make_unique<OpTensor>(ACL_FLOAT, std::vector<int64_t>{2, 3},
                                         std::vector<float>(6, 1));
        x2_ = std::make_unique<OpTensor>(ACL_FLOAT, std::vector<int64_t>{2, 3},
                                         std::vector<float>(6, 2));
        y_ = std::make_unique<OpTensor>(ACL_FLOAT, std::vector<int64_t>{2, 3}, 6, 4);
    }
    void TearDown() override {
        x1_.reset();
        x2_.reset();
        y_.reset();
        fs::remove_all(dir_);
        DeviceTest::TearDown();
    }
    // Dumps Add(x1, x2) -> y over float [2, 3] to `path`, with `attr`.
    aclError DumpAdd(const std::string& path, const aclopAttr* attr = nullptr,
                     const aclGraphDumpOption* option = nullptr) {
        OpArrays in({x1_.get(), x2_.get()}), out({y_.get()});
        return aclGenGraphAndDumpForOp("Add", 2, in.d(), in.b(), 1, out.d(), out.b(), attr,
                                       ACL_ENGINE_SYS, path.c_str(), option);
    }
    std::vector<fs::path> Files() const {
        std::vector<fs::path> files;
        for (const auto& entry : fs::directory_iterator(dir_))
            files.push_back(entry.path());
        return files;
    }
    static std::string Read(const fs::path& file) {
        std::ifstream in(file);
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    }

    std::string dir_;
    std::unique_ptr<OpTensor> x1_, x2_, y_;
};

TEST_F(OpGraphDump, ADirectoryReceivesATxtFileWithTheCallsGraph) {
    OpAttr attr;
    attr.Float("alpha", 0.5f);
    ASSERT_EQ(DumpAdd(dir_, attr.get()), ACL_SUCCESS) << aclGetRecentErrMsg();
    const std::vector<fs::path> files = Files();
    ASSERT_EQ(files.size(), 1u);
    EXPECT_EQ(files[0].extension(), ".txt");
    const std::string text = Read(files[0]);
    for (const char* part :
         {"type: \"Data\"", "type: \"Add\"", "type: \"NetOutput\"", "input: \"Data_0:0\"",
          "input: \"Data_1:0\"", "input: \"Add:0\"", "dtype: \"float\"", "shape { dim: 2 dim: 3 }",
          "attr { key: \"alpha\" value { f: 0.5 } }"}) {
        EXPECT_NE(text.find(part), std::string::npos) << part << " not in\n" << text;
    }
}

TEST_F(OpGraphDump, TheSameCallDumpedAgainReplacesItsFile) {
    ASSERT_EQ(DumpAdd(dir_), ACL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(DumpAdd(dir_ + "/"), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(Files().size(), 1u);
    OpAttr attr;
    attr.Float("alpha", 2.0f);  // another call: another file
    ASSERT_EQ(DumpAdd(dir_, attr.get()), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(Files().size(), 2u);
}

TEST_F(OpGraphDump, ANamedTxtFileIsWrittenWhereItSays) {
    const std::string file = dir_ + "/add_graph.txt";
    ASSERT_EQ(DumpAdd(file), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_NE(Read(file).find("type: \"Add\""), std::string::npos);
}

TEST_F(OpGraphDump, APathInAMissingDirectoryIsInvalidParam) {
    EXPECT_EQ(DumpAdd(dir_ + "/missing/add.txt"), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(DumpAdd(dir_ + "/missing"), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(DumpAdd(""), ACL_ERROR_INVALID_PARAM);
    EXPECT_TRUE(Files().empty());
}

TEST_F(OpGraphDump, AnOperatorTypeNothingRunsIsOpNotFound) {
    OpArrays in({x1_.get(), x2_.get()}), out({y_.get()});
    EXPECT_EQ(aclGenGraphAndDumpForOp("NoSuchOperator", 2, in.d(), in.b(), 1, out.d(), out.b(),
                                      nullptr, ACL_ENGINE_SYS, dir_.c_str(), nullptr),
              ACL_ERROR_OP_NOT_FOUND);
    EXPECT_TRUE(Files().empty());
}

TEST_F(OpGraphDump, AnOptionIsMadeTakenAndDestroyedOnce) {
    aclGraphDumpOption* option = aclCreateGraphDumpOpt();
    ASSERT_NE(option, nullptr);
    EXPECT_EQ(DumpAdd(dir_, nullptr, option), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(aclDestroyGraphDumpOpt(option), ACL_SUCCESS);
    EXPECT_EQ(aclDestroyGraphDumpOpt(option), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclDestroyGraphDumpOpt(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(OpGraphDump, ADestroyedOptionIsRefused) {
    aclGraphDumpOption* option = aclCreateGraphDumpOpt();
    ASSERT_EQ(aclDestroyGraphDumpOpt(option), ACL_SUCCESS);
    EXPECT_EQ(DumpAdd(dir_, nullptr, option), ACL_ERROR_INVALID_PARAM);
}

}  // namespace
