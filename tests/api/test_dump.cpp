// Data dumps: aclmdlInitDump / SetDump / FinalizeDump, aclInit's "dump" section and acl_dump.h.
// A model loaded while a dump is configured writes, per execution, one file per layer with the
// layer's inputs or outputs in CANN's format, at CANN's paths (core/dump.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <regex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "onnx_builder.h"
#include "scoped_env.h"
#include "temp_dir.h"
#include "test_support.h"

namespace {

constexpr int kWidth = 8;

std::string ReadFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// The floats a dump file ends with (its last tensor).
std::vector<float> TrailingFloats(const std::string& bytes, size_t count) {
    std::vector<float> values(count);
    if (bytes.size() >= count * sizeof(float)) {
        std::memcpy(values.data(), bytes.data() + bytes.size() - count * sizeof(float),
                    count * sizeof(float));
    }
    return values;
}

class Dump : public InitializedDeviceTest {
 protected:
    void SetUp() override {
        InitializedDeviceTest::SetUp();
        ASSERT_FALSE(dir_.path().empty());
        // y = softmax(x * x): two layers the compiled engine runs one after the other.
        test_onnx::Builder builder;
        builder.Input("x", {1, kWidth}).Output("y", {1, kWidth});
        builder.Node("Mul", {"x", "x"}, {"t"}).Name("sq");
        builder.Node("Softmax", {"t"}, {"y"}).Name("soft");
        model_path_ = dir_.File("square.onnx");
        std::ofstream(model_path_, std::ios::binary) << builder.Bytes();
        for (int i = 0; i < kWidth; ++i)
            x_.push_back(0.25f * static_cast<float>(i));
    }
    void TearDown() override {
        for (uint32_t id : models_)
            aclmdlUnload(id);
        aclmdlFinalizeDump();
        acldumpUnregCallback();
        InitializedDeviceTest::TearDown();
    }
    std::string Config(const std::string& dump_section) {
        const std::string path = dir_.File("dump.json");
        std::ofstream(path) << "{\"dump\": " << dump_section << "}";
        return path;
    }
    std::string Section(const std::string& extra = "") {
        return "{\"dump_path\": \"" + out_ + "\", \"dump_list\": [{\"model_name\": \"square\"}]" +
               extra + "}";
    }
    void Configure(const std::string& section) {
        ASSERT_EQ(aclmdlInitDump(), ACL_SUCCESS) << aclGetRecentErrMsg();
        ASSERT_EQ(aclmdlSetDump(Config(section).c_str()), ACL_SUCCESS) << aclGetRecentErrMsg();
    }
    uint32_t Load() {
        uint32_t id = 0;
        EXPECT_EQ(aclmdlLoadFromFile(model_path_.c_str(), &id), ACL_SUCCESS)
            << aclGetRecentErrMsg();
        models_.push_back(id);
        return id;
    }
    // Runs the model once on x_; returns y.
    std::vector<float> Execute(uint32_t id) {
        const size_t bytes = kWidth * sizeof(float);
        void* x = nullptr;
        void* y = nullptr;
        EXPECT_EQ(aclrtMalloc(&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        EXPECT_EQ(aclrtMalloc(&y, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        EXPECT_EQ(aclrtMemcpy(x, bytes, x_.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
        aclmdlDataset* in = aclmdlCreateDataset();
        aclmdlDataset* out = aclmdlCreateDataset();
        aclDataBuffer* xb = aclCreateDataBuffer(x, bytes);
        aclDataBuffer* yb = aclCreateDataBuffer(y, bytes);
        aclmdlAddDatasetBuffer(in, xb);
        aclmdlAddDatasetBuffer(out, yb);
        EXPECT_EQ(aclmdlExecute(id, in, out), ACL_SUCCESS) << aclGetRecentErrMsg();
        std::vector<float> result(kWidth);
        EXPECT_EQ(aclrtMemcpy(result.data(), bytes, y, bytes, ACL_MEMCPY_DEVICE_TO_HOST),
                  ACL_SUCCESS);
        aclDestroyDataBuffer(xb);
        aclDestroyDataBuffer(yb);
        aclmdlDestroyDataset(in);
        aclmdlDestroyDataset(out);
        aclrtFree(x);
        aclrtFree(y);
        return result;
    }
    // Dump files below the output folder, sorted.
    std::vector<std::string> DumpFiles() {
        std::vector<std::string> files;
        for (const auto& f : dir_.Files()) {
            if (f.rfind(out_ + "/", 0) == 0) files.push_back(f);
        }
        std::sort(files.begin(), files.end());
        return files;
    }
    std::string FileOf(const std::string& layer) {
        for (const auto& f : DumpFiles()) {
            if (f.find("." + layer + ".") != std::string::npos) return f;
        }
        return {};
    }

    TempDir dir_{"openacl-dump"};
    std::string out_ = dir_.File("out");
    std::string model_path_;
    std::vector<float> x_;
    std::vector<uint32_t> models_;
};

TEST_F(Dump, AModelLoadedAfterSetDumpWritesOneFilePerLayerAtCannsPaths) {
    Configure(Section());
    const uint32_t id = Load();
    Execute(id);
    const auto files = DumpFiles();
    ASSERT_EQ(files.size(), 2u);
    // {dump_path}/{time}/{device}/{model}/{model id}/{execution}/{type}.{name}.{task}.{stream}.{µs}
    const std::regex layout(out_ + R"(/\d{14}/0/square/)" + std::to_string(id) +
                            R"(/0/(Binary\.sq\.0|Softmax\.soft\.1)\.0\.\d{16})");
    for (const auto& f : files)
        EXPECT_TRUE(std::regex_match(f, layout)) << f;
}

TEST_F(Dump, TheOutputDumpHoldsTheLayersOutput) {
    Configure(Section());
    const std::vector<float> y = Execute(Load());
    EXPECT_EQ(TrailingFloats(ReadFile(FileOf("soft")), kWidth), y);
    std::vector<float> squares;
    for (float v : x_)
        squares.push_back(v * v);
    EXPECT_EQ(TrailingFloats(ReadFile(FileOf("sq")), kWidth), squares);
}

TEST_F(Dump, TheFileStartsWithItsHeaderLengthAndNamesItsOperator) {
    Configure(Section());
    Execute(Load());
    const std::string bytes = ReadFile(FileOf("soft"));
    ASSERT_GT(bytes.size(), 8u);
    uint64_t header = 0;
    std::memcpy(&header, bytes.data(), 8);  // little-endian
    EXPECT_EQ(8 + header + kWidth * sizeof(float), bytes.size());
    EXPECT_NE(bytes.substr(8, header).find("soft"), std::string::npos);
}

TEST_F(Dump, InputModeDumpsTheLayersInputs) {
    Configure(Section(", \"dump_mode\": \"input\""));
    Execute(Load());
    std::vector<float> squares;
    for (float v : x_)
        squares.push_back(v * v);
    // Softmax's input is Mul's output.
    EXPECT_EQ(TrailingFloats(ReadFile(FileOf("soft")), kWidth), squares);
}

TEST_F(Dump, AllModeDumpsInputsThenOutputs) {
    Configure(Section(", \"dump_mode\": \"all\""));
    const std::vector<float> y = Execute(Load());
    const std::string bytes = ReadFile(FileOf("soft"));
    EXPECT_EQ(TrailingFloats(bytes, kWidth), y);
    const std::string without_output = bytes.substr(0, bytes.size() - kWidth * sizeof(float));
    std::vector<float> squares;
    for (float v : x_)
        squares.push_back(v * v);
    EXPECT_EQ(TrailingFloats(without_output, kWidth), squares);
}

TEST_F(Dump, TheLayerListChoosesTheLayers) {
    Configure("{\"dump_path\": \"" + out_ +
              "\", \"dump_list\": [{\"model_name\": \"square\", \"layer\": [\"soft\"]}]}");
    Execute(Load());
    const auto files = DumpFiles();
    ASSERT_EQ(files.size(), 1u);
    EXPECT_NE(files[0].find("Softmax.soft."), std::string::npos) << files[0];
}

TEST_F(Dump, AModelNotOnTheListIsNotDumped) {
    Configure("{\"dump_path\": \"" + out_ + "\", \"dump_list\": [{\"model_name\": \"other\"}]}");
    Execute(Load());
    EXPECT_TRUE(DumpFiles().empty());
}

TEST_F(Dump, AModelLoadedBeforeSetDumpIsNotDumped) {
    const uint32_t id = Load();
    Configure(Section());
    Execute(id);
    EXPECT_TRUE(DumpFiles().empty());
}

TEST_F(Dump, AModelLoadedAfterFinalizeDumpIsNotDumped) {
    Configure(Section());
    ASSERT_EQ(aclmdlFinalizeDump(), ACL_SUCCESS);
    Execute(Load());
    EXPECT_TRUE(DumpFiles().empty());
}

TEST_F(Dump, DumpStepChoosesTheExecutions) {
    Configure(Section(", \"dump_step\": \"1|3-4\""));
    const uint32_t id = Load();
    for (int i = 0; i < 6; ++i)
        Execute(id);
    std::vector<std::string> executions;
    for (const auto& f : DumpFiles()) {
        const std::string folder = f.substr(0, f.rfind('/'));
        executions.push_back(folder.substr(folder.rfind('/') + 1));
    }
    std::sort(executions.begin(), executions.end());
    executions.erase(std::unique(executions.begin(), executions.end()), executions.end());
    EXPECT_EQ(executions, (std::vector<std::string>{"1", "3", "4"}));
}

TEST_F(Dump, AscendDumpPathOverridesTheConfiguredPath) {
    const std::string elsewhere = dir_.File("from-env");
    ScopedEnv env("ASCEND_DUMP_PATH", elsewhere.c_str());
    Configure(Section());
    Execute(Load());
    EXPECT_TRUE(DumpFiles().empty());
    size_t found = 0;
    for (const auto& f : dir_.Files())
        found += f.rfind(elsewhere + "/", 0) == 0 ? 1 : 0;
    EXPECT_EQ(found, 2u);
}

struct Received {
    std::string file;
    std::string bytes;
    int chunks = 0;
    bool last = false;
};
Received g_received;

int32_t Collect(const acldumpChunk* chunk, int32_t length) {
    if (length != static_cast<int32_t>(sizeof(acldumpChunk) + chunk->bufLen)) return 1;
    if (std::string(chunk->fileName).find(".soft.") == std::string::npos) return 0;
    g_received.file = chunk->fileName;
    if (chunk->offset != static_cast<int64_t>(g_received.bytes.size())) return 1;
    g_received.bytes.append(reinterpret_cast<const char*>(chunk->dataBuf), chunk->bufLen);
    ++g_received.chunks;
    g_received.last = chunk->isLastChunk == 1;
    return 0;
}

TEST_F(Dump, ARegisteredCallbackReceivesTheDataInsteadOfFiles) {
    g_received = Received{};
    ASSERT_EQ(acldumpRegCallback(Collect, 0), ACL_SUCCESS);
    Configure(Section());
    const std::vector<float> y = Execute(Load());
    EXPECT_TRUE(DumpFiles().empty());
    EXPECT_EQ(g_received.file.rfind(out_ + "/", 0), 0u) << g_received.file;
    EXPECT_TRUE(g_received.last);
    EXPECT_EQ(g_received.chunks, 1);
    EXPECT_EQ(TrailingFloats(g_received.bytes, kWidth), y);
}

TEST_F(Dump, AfterUnregisterCallbackFilesAreWrittenAgain) {
    g_received = Received{};
    ASSERT_EQ(acldumpRegCallback(Collect, 0), ACL_SUCCESS);
    acldumpUnregCallback();
    Configure(Section());
    Execute(Load());
    EXPECT_EQ(g_received.chunks, 0);
    EXPECT_EQ(DumpFiles().size(), 2u);
}

TEST_F(Dump, GetPathAnswersTheConfiguredFolders) {
    EXPECT_EQ(acldumpGetPath(DATA_DUMP), nullptr);
    Configure(Section());
    ASSERT_NE(acldumpGetPath(DATA_DUMP), nullptr);
    EXPECT_EQ(std::string(acldumpGetPath(DATA_DUMP)), out_);
    EXPECT_EQ(acldumpGetPath(AIC_ERR_BRIEF_DUMP), nullptr) << "no exception dump is on";
    ASSERT_EQ(aclmdlFinalizeDump(), ACL_SUCCESS);
    EXPECT_EQ(acldumpGetPath(DATA_DUMP), nullptr);
}

// ---- exception dumps ----

TEST_F(Dump, AFailingKernelLeavesTheMemoryItsArgumentsPointAtInTheExceptionFolder) {
    Configure("{\"dump_path\": \"" + out_ + "\", \"dump_scene\": \"aic_err_brief_dump\"}");
    EXPECT_EQ(std::string(acldumpGetPath(AIC_ERR_BRIEF_DUMP)), out_ + "/extra-info/data-dump");
    aclrtBinHandle binary = nullptr;
    ASSERT_EQ(aclrtBinaryLoadFromFile(OPENACL_EXAMPLE_KERNELS, nullptr, &binary), ACL_SUCCESS);
    aclrtFuncHandle checked = nullptr;
    ASSERT_EQ(aclrtBinaryGetFunction(binary, "checked_copy", &checked), ACL_SUCCESS);
    void* src = nullptr;
    void* dst = nullptr;
    ASSERT_EQ(aclrtMalloc(&src, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&dst, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    const std::vector<float> values = {1, 2, 3, 4};
    ASSERT_EQ(aclrtMemcpy(src, 16, values.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    uint64_t args[4] = {reinterpret_cast<uint64_t>(src), reinterpret_cast<uint64_t>(dst), 16, 1};
    ASSERT_EQ(
        aclrtLaunchKernelWithHostArgs(checked, 2, nullptr, nullptr, args, sizeof args, nullptr, 0),
        ACL_SUCCESS);
    EXPECT_NE(aclrtSynchronizeDevice(), ACL_SUCCESS);  // block 1 fails its assertion
    aclGetRecentErrMsg();
    const auto files = DumpFiles();
    ASSERT_EQ(files.size(), 1u);
    EXPECT_TRUE(std::regex_match(
        files[0],
        std::regex(out_ +
                   R"(/extra-info/data-dump/0/checked_copy\.checked_copy\.\d+\.\d+\.\d{16})")))
        << files[0];
    const std::string bytes = ReadFile(files[0]);
    // src then dst, each from its pointer to the end of its allocation.
    EXPECT_EQ(TrailingFloats(bytes.substr(0, bytes.size() - 16), 4), values);
    aclrtFree(src);
    aclrtFree(dst);
    aclrtBinaryUnLoad(binary);
}

TEST_F(Dump, SaveExceptionInfoWritesTheTensorsAndTagUnderTheDevicesFolder) {
    Configure("{\"dump_path\": \"" + out_ + "\", \"dump_scene\": \"aic_err_brief_dump\"}");
    char path[ACL_DUMP_MAX_FILE_PATH_LENGTH];
    ASSERT_EQ(acldumpGetExceptionInfoPath(path, sizeof path), ACL_SUCCESS);
    EXPECT_EQ(std::string(path), out_ + "/extra-info/data-dump/0/");
    void* data = nullptr;
    ASSERT_EQ(aclrtMalloc(&data, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    const std::vector<float> values = {5, 6, 7, 8};
    ASSERT_EQ(aclrtMemcpy(data, 16, values.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    acldumpTensorInfo tensor{};
    tensor.type = ACL_DUMP_TENSOR_OUTPUT;
    tensor.tensorSize = 16;
    tensor.format = ACL_FORMAT_ND;
    tensor.dataType = ACL_FLOAT;
    tensor.tensorAddr = static_cast<int64_t*>(data);
    tensor.addrType = ACL_DUMP_ADDR_RAW;
    tensor.placement = ACL_DUMP_PLACEMENT_DEVICE;
    tensor.shapeNum = 1;
    tensor.shape[0] = 4;
    ASSERT_EQ(acldumpSaveExceptionInfo("mine/info", "stage=test", &tensor, 1), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    const auto files = DumpFiles();
    ASSERT_EQ(files.size(), 1u);
    EXPECT_TRUE(std::regex_match(
        files[0], std::regex(out_ + R"(/extra-info/data-dump/0/mine/info\.custom\.\d{17})")))
        << files[0];
    const std::string bytes = ReadFile(files[0]);
    EXPECT_EQ(TrailingFloats(bytes, 4), values);
    EXPECT_NE(bytes.find("stage=test"), std::string::npos);
    std::vector<int64_t> host(2);
    tensor.tensorAddr = host.data();
    EXPECT_EQ(acldumpSaveExceptionInfo("info", nullptr, &tensor, 1), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("device memory");
    tensor.tensorAddr = static_cast<int64_t*>(data);
    tensor.addrType = ACL_DUMP_ADDR_PTR;
    EXPECT_EQ(acldumpSaveExceptionInfo("info", nullptr, &tensor, 1), ACL_ERROR_INVALID_PARAM);
    tensor.addrType = ACL_DUMP_ADDR_RAW;
    EXPECT_EQ(acldumpSaveExceptionInfo("../up", nullptr, &tensor, 1), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(acldumpSaveExceptionInfo("info", nullptr, &tensor, 0), ACL_ERROR_INVALID_PARAM);
    char tiny[4];
    EXPECT_EQ(acldumpGetExceptionInfoPath(tiny, sizeof tiny), ACL_ERROR_INVALID_PARAM);
    aclrtFree(data);
}

TEST_F(Dump, WithoutExceptionDumpsSaveExceptionInfoAndItsPathFail) {
    acldumpTensorInfo tensor{};
    void* data = nullptr;
    ASSERT_EQ(aclrtMalloc(&data, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    tensor.tensorSize = 16;
    tensor.tensorAddr = static_cast<int64_t*>(data);
    tensor.addrType = ACL_DUMP_ADDR_RAW;
    EXPECT_EQ(acldumpSaveExceptionInfo("info", nullptr, &tensor, 1), ACL_ERROR_FAILURE);
    EXPECT_THAT_MESSAGE_CONTAINS("exception dumps are off");
    char path[256];
    EXPECT_EQ(acldumpGetExceptionInfoPath(path, sizeof path), ACL_ERROR_FAILURE);
    aclrtFree(data);
}

TEST_F(Dump, AnExceptionDumpCannotBeOnWithAModelDump) {
    ASSERT_EQ(aclmdlInitDump(), ACL_SUCCESS);
    EXPECT_EQ(aclmdlSetDump(Config(Section(", \"dump_scene\": \"aic_err_brief_dump\"")).c_str()),
              ACL_ERROR_INVALID_DUMP_CONFIG);
    EXPECT_THAT_MESSAGE_CONTAINS("dump_scene");
}

TEST_F(Dump, TheReaderToolDecodesADumpFile) {
    if (std::system("python3 --version > /dev/null 2>&1") != 0) GTEST_SKIP() << "no python3";
    Configure(Section(", \"dump_mode\": \"all\""));
    const std::vector<float> y = Execute(Load());
    const std::string command = std::string("python3 ") + OPENACL_SOURCE_DIR +
                                "/tools/openacl_dump.py --json --values " + FileOf("soft");
    FILE* pipe = popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string text;
    char buffer[4096];
    while (size_t n = fread(buffer, 1, sizeof buffer, pipe))
        text.append(buffer, n);
    ASSERT_EQ(pclose(pipe), 0) << text;
    const auto report = nlohmann::json::parse(text);
    ASSERT_EQ(report.size(), 1u);
    EXPECT_EQ(report[0]["op_name"], "soft");
    ASSERT_EQ(report[0]["inputs"].size(), 1u);
    ASSERT_EQ(report[0]["outputs"].size(), 1u);
    EXPECT_EQ(report[0]["outputs"][0]["dtype"], "float32");
    EXPECT_EQ(report[0]["outputs"][0]["shape"], (std::vector<int>{1, kWidth}));
    EXPECT_EQ(report[0]["outputs"][0]["values"].get<std::vector<float>>(), y);
}

uint64_t FloatSlot(float value) {
    uint64_t slot = 0;
    std::memcpy(&slot, &value, sizeof value);
    return slot;
}

TEST_F(Dump, WithTheOperatorSwitchOnAKernelDumpsTheMemoryItsArgumentsPointAt) {
    Configure("{\"dump_path\": \"" + out_ +
              "\", \"dump_op_switch\": \"on\", \"dump_mode\": \"all\"}");
    aclrtBinHandle binary = nullptr;
    ASSERT_EQ(aclrtBinaryLoadFromFile(OPENACL_TEST_KERNELS, nullptr, &binary), ACL_SUCCESS);
    aclrtFuncHandle affine = nullptr;
    ASSERT_EQ(aclrtBinaryGetFunction(binary, "affine", &affine), ACL_SUCCESS);
    const std::vector<float> before = {1, 2, 3, 4};
    void* data = nullptr;
    ASSERT_EQ(aclrtMalloc(&data, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(data, 16, before.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    // data[i] = data[i] * 2 + 1
    uint64_t args[4] = {reinterpret_cast<uint64_t>(data), 4, FloatSlot(2.0f), FloatSlot(1.0f)};
    ASSERT_EQ(
        aclrtLaunchKernelWithHostArgs(affine, 2, nullptr, nullptr, args, sizeof args, nullptr, 0),
        ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
    const auto files = DumpFiles();
    ASSERT_EQ(files.size(), 1u);
    EXPECT_TRUE(std::regex_match(
        files[0], std::regex(out_ + R"(/\d{14}/0/affine\.affine\.\d+\.\d+\.\d{16})")))
        << files[0];
    const std::string bytes = ReadFile(files[0]);
    // The allocation as the kernel found it, then as it left it.
    EXPECT_EQ(TrailingFloats(bytes, 4), (std::vector<float>{3, 5, 7, 9}));
    EXPECT_EQ(TrailingFloats(bytes.substr(0, bytes.size() - 16), 4), before);
    aclrtFree(data);
    aclrtBinaryUnLoad(binary);
}

TEST_F(Dump, WithTheOperatorSwitchOffKernelsAreNotDumped) {
    Configure("{\"dump_path\": \"" + out_ + "\", \"dump_op_switch\": \"off\"}");
    aclrtBinHandle binary = nullptr;
    ASSERT_EQ(aclrtBinaryLoadFromFile(OPENACL_TEST_KERNELS, nullptr, &binary), ACL_SUCCESS);
    aclrtFuncHandle affine = nullptr;
    ASSERT_EQ(aclrtBinaryGetFunction(binary, "affine", &affine), ACL_SUCCESS);
    void* data = nullptr;
    ASSERT_EQ(aclrtMalloc(&data, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    uint64_t args[4] = {reinterpret_cast<uint64_t>(data), 4, FloatSlot(2.0f), FloatSlot(1.0f)};
    ASSERT_EQ(
        aclrtLaunchKernelWithHostArgs(affine, 1, nullptr, nullptr, args, sizeof args, nullptr, 0),
        ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
    EXPECT_TRUE(DumpFiles().empty());
    aclrtFree(data);
    aclrtBinaryUnLoad(binary);
}

// --- the calls' order and arguments ---

TEST_F(Dump, SetDumpNeedsInitDump) {
    EXPECT_EQ(aclmdlSetDump(Config(Section()).c_str()), ACL_ERROR_DUMP_NOT_RUN);
    EXPECT_THAT_MESSAGE_CONTAINS("aclmdlInitDump");
}

TEST_F(Dump, InitDumpTwiceIsRefused) {
    ASSERT_EQ(aclmdlInitDump(), ACL_SUCCESS);
    EXPECT_EQ(aclmdlInitDump(), ACL_ERROR_DUMP_ALREADY_RUN);
}

TEST_F(Dump, FinalizeDumpWithoutInitDumpIsRefused) {
    EXPECT_EQ(aclmdlFinalizeDump(), ACL_ERROR_DUMP_NOT_RUN);
}

TEST_F(Dump, InitDumpCanFollowFinalizeDump) {
    ASSERT_EQ(aclmdlInitDump(), ACL_SUCCESS);
    ASSERT_EQ(aclmdlFinalizeDump(), ACL_SUCCESS);
    EXPECT_EQ(aclmdlInitDump(), ACL_SUCCESS);
}

namespace {

// A statistic.csv as rows of fields (quoted fields unquoted), the header first.
std::vector<std::vector<std::string>> ReadCsv(const std::string& path) {
    std::vector<std::vector<std::string>> rows;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
        std::vector<std::string> fields(1);
        bool quoted = false;
        for (char c : line) {
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                fields.emplace_back();
            } else {
                fields.back() += c;
            }
        }
        rows.push_back(fields);
    }
    return rows;
}

// The field of `row` under `column` of the header.
std::string Field(const std::vector<std::vector<std::string>>& csv, size_t row,
                  const std::string& column) {
    const auto& header = csv.at(0);
    const auto at = std::find(header.begin(), header.end(), column);
    if (at == header.end() || row >= csv.size()) return "<no " + column + ">";
    const size_t index = static_cast<size_t>(at - header.begin());
    return index < csv[row].size() ? csv[row][index] : "<short row>";
}

// The row of `op_name`'s `side` ("Input" or "Output") `slot`.
size_t RowOf(const std::vector<std::vector<std::string>>& csv, const std::string& op_name,
             const std::string& side, const std::string& slot) {
    for (size_t i = 1; i < csv.size(); ++i) {
        if (Field(csv, i, "Op Name") == op_name && Field(csv, i, "Input/Output") == side &&
            Field(csv, i, "Slot") == slot) {
            return i;
        }
    }
    return csv.size();
}

double Number(const std::string& text) {
    return std::strtod(text.c_str(), nullptr);
}

}  // namespace

TEST_F(Dump, StatsWriteOneCsvRowPerTensorInsteadOfTheTensors) {
    Configure(Section(", \"dump_data\": \"stats\""));
    const uint32_t id = Load();
    Execute(id);
    const auto files = DumpFiles();
    ASSERT_EQ(files.size(), 1u);
    const std::regex layout(out_ + R"(/\d{14}/0/square/)" + std::to_string(id) +
                            R"(/0/statistic\.csv)");
    EXPECT_TRUE(std::regex_match(files[0], layout)) << files[0];
    const auto csv = ReadCsv(files[0]);
    ASSERT_EQ(csv.size(), 3u) << "a header and the two layers' outputs";
    const std::vector<std::string> header = {"Op Type",
                                             "Op Name",
                                             "Task ID",
                                             "Stream ID",
                                             "Timestamp",
                                             "Input/Output",
                                             "Slot",
                                             "Data Size",
                                             "Data Type",
                                             "Format",
                                             "Shape",
                                             "Count",
                                             "Max Value",
                                             "Min Value",
                                             "Avg Value",
                                             "Nan Count",
                                             "Negative Inf Count",
                                             "Positive Inf Count"};
    EXPECT_EQ(csv[0], header);
    const size_t sq = RowOf(csv, "sq", "Output", "0");
    ASSERT_LT(sq, csv.size());
    EXPECT_EQ(Field(csv, sq, "Data Type"), "DT_FLOAT");
    EXPECT_EQ(Field(csv, sq, "Shape"), "[1,8]");
    EXPECT_EQ(Field(csv, sq, "Count"), "8");
    EXPECT_EQ(Field(csv, sq, "Data Size"), "32");
    double sum = 0;
    for (float v : x_)
        sum += static_cast<double>(v) * v;
    EXPECT_DOUBLE_EQ(Number(Field(csv, sq, "Max Value")), 1.75 * 1.75);
    EXPECT_DOUBLE_EQ(Number(Field(csv, sq, "Min Value")), 0.0);
    EXPECT_NEAR(Number(Field(csv, sq, "Avg Value")), sum / kWidth, 1e-7);
    EXPECT_EQ(Field(csv, sq, "Nan Count"), "0");
}

TEST_F(Dump, DumpStatsChoosesTheStatistics) {
    Configure(Section(", \"dump_data\": \"stats\", \"dump_stats\": [\"Max\", \"L2norm\"]"));
    const std::vector<float> y = Execute(Load());
    const auto files = DumpFiles();
    ASSERT_EQ(files.size(), 1u);
    const auto csv = ReadCsv(files[0]);
    ASSERT_FALSE(csv.empty());
    ASSERT_GE(csv[0].size(), 3u);
    EXPECT_EQ(std::vector<std::string>(csv[0].end() - 3, csv[0].end()),
              (std::vector<std::string>{"Count", "Max Value", "L2Norm Value"}));
    const size_t soft = RowOf(csv, "soft", "Output", "0");
    ASSERT_LT(soft, csv.size());
    double squares = 0;
    for (float v : y)
        squares += static_cast<double>(v) * v;
    EXPECT_NEAR(Number(Field(csv, soft, "L2Norm Value")), std::sqrt(squares), 1e-6);
    EXPECT_NEAR(Number(Field(csv, soft, "Max Value")), *std::max_element(y.begin(), y.end()), 1e-7);
}

TEST_F(Dump, StatsCountNanAndInfinitiesAndNameInputsAndOutputs) {
    const float inf = std::numeric_limits<float>::infinity();
    x_ = {std::nanf(""), inf, -inf, 1.0f, 2.0f, 3.0f, 0.5f, -2.0f};
    Configure(Section(", \"dump_data\": \"stats\", \"dump_mode\": \"all\""));
    Execute(Load());
    const auto files = DumpFiles();
    ASSERT_EQ(files.size(), 1u);
    const auto csv = ReadCsv(files[0]);
    const size_t in = RowOf(csv, "sq", "Input", "1");
    const size_t out = RowOf(csv, "sq", "Output", "0");
    ASSERT_LT(in, csv.size());
    ASSERT_LT(out, csv.size());
    EXPECT_EQ(Field(csv, in, "Nan Count"), "1");
    EXPECT_EQ(Field(csv, in, "Negative Inf Count"), "1");
    EXPECT_EQ(Field(csv, in, "Positive Inf Count"), "1");
    EXPECT_EQ(Field(csv, in, "Max Value"), "inf");
    EXPECT_EQ(Field(csv, in, "Min Value"), "-inf");
    // The squares: NaN, inf, inf, 1, 4, 9, 0.25, 4.
    EXPECT_EQ(Field(csv, out, "Nan Count"), "1");
    EXPECT_EQ(Field(csv, out, "Negative Inf Count"), "0");
    EXPECT_EQ(Field(csv, out, "Positive Inf Count"), "2");
    EXPECT_EQ(Field(csv, out, "Max Value"), "inf");
    EXPECT_DOUBLE_EQ(Number(Field(csv, out, "Min Value")), 0.25);
}

TEST_F(Dump, AnUnknownStatisticIsRefusedByName) {
    ASSERT_EQ(aclmdlInitDump(), ACL_SUCCESS);
    EXPECT_EQ(
        aclmdlSetDump(
            Config(Section(", \"dump_data\": \"stats\", \"dump_stats\": [\"Median\"]")).c_str()),
        ACL_ERROR_INVALID_DUMP_CONFIG);
    EXPECT_THAT_MESSAGE_CONTAINS("Median");
}

TEST_F(Dump, AConfigurationThatIsNotJsonIsRefused) {
    ASSERT_EQ(aclmdlInitDump(), ACL_SUCCESS);
    const std::string path = dir_.File("bad.json");
    std::ofstream(path) << "{\"dump\": ";
    EXPECT_EQ(aclmdlSetDump(path.c_str()), ACL_ERROR_INVALID_DUMP_CONFIG);
}

TEST_F(Dump, AnUnknownDumpModeIsRefusedByName) {
    ASSERT_EQ(aclmdlInitDump(), ACL_SUCCESS);
    EXPECT_EQ(aclmdlSetDump(Config(Section(", \"dump_mode\": \"both\"")).c_str()),
              ACL_ERROR_INVALID_DUMP_CONFIG);
    EXPECT_THAT_MESSAGE_CONTAINS("dump_mode");
}

TEST_F(Dump, AModelDumpNeedsADumpPath) {
    ASSERT_EQ(aclmdlInitDump(), ACL_SUCCESS);
    EXPECT_EQ(aclmdlSetDump(Config("{\"dump_list\": []}").c_str()), ACL_ERROR_INVALID_DUMP_CONFIG);
    EXPECT_THAT_MESSAGE_CONTAINS("dump_path");
}

TEST_F(Dump, ABadDumpStepIsRefused) {
    ASSERT_EQ(aclmdlInitDump(), ACL_SUCCESS);
    EXPECT_EQ(aclmdlSetDump(Config(Section(", \"dump_step\": \"3-1\"")).c_str()),
              ACL_ERROR_INVALID_DUMP_CONFIG);
    EXPECT_THAT_MESSAGE_CONTAINS("dump_step");
}

TEST_F(Dump, AMissingConfigurationFileIsRefused) {
    ASSERT_EQ(aclmdlInitDump(), ACL_SUCCESS);
    EXPECT_EQ(aclmdlSetDump(dir_.File("none.json").c_str()), ACL_ERROR_INVALID_FILE);
}

TEST_F(Dump, OnlyFlagZeroRegistersACallback) {
    EXPECT_EQ(acldumpRegCallback(Collect, 1), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(acldumpRegCallback(nullptr, 0), ACL_ERROR_INVALID_PARAM);
}

TEST_F(Dump, OperatorArgumentDumpsTakeTheirOneTypeAndMakeTheFolder) {
    const std::string path = dir_.File("args/deeper");
    EXPECT_EQ(aclopStartDumpArgs(2, path.c_str()), ACL_ERROR_INVALID_PARAM);
    ASSERT_EQ(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, path.c_str()), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_TRUE(std::filesystem::is_directory(path));
    EXPECT_EQ(aclopStopDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS), ACL_SUCCESS);
}

// aclInit's file configures dumps for the whole process.
class DumpFromInit : public ::testing::Test {
 protected:
    void TearDown() override {
        aclFinalize();
        aclGetRecentErrMsg();
    }
    TempDir dir_{"openacl-dump-init"};
};

TEST_F(DumpFromInit, ADumpSectionInTheInitFileDumpsWithoutInitDump) {
    const std::string out = dir_.File("out");
    const std::string config = dir_.File("acl.json");
    std::ofstream(config) << "{\"dump\": {\"dump_path\": \"" << out << "\", \"dump_list\": []}}";
    ASSERT_EQ(aclInit(config.c_str()), ACL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclmdlInitDump(), ACL_ERROR_DUMP_ALREADY_RUN);
    EXPECT_THAT_MESSAGE_CONTAINS("aclInit");
    ASSERT_NE(acldumpGetPath(DATA_DUMP), nullptr);
    EXPECT_EQ(std::string(acldumpGetPath(DATA_DUMP)), out);
}

TEST_F(DumpFromInit, ABadDumpSectionFailsAclInit) {
    const std::string config = dir_.File("acl.json");
    std::ofstream(config) << "{\"dump\": {\"dump_path\": \"x\", \"dump_mode\": 3}}";
    EXPECT_EQ(aclInit(config.c_str()), ACL_ERROR_INVALID_DUMP_CONFIG);
}

TEST_F(DumpFromInit, InitDumpNeedsAclInit) {
    EXPECT_EQ(aclmdlInitDump(), ACL_ERROR_UNINITIALIZE);
}

}  // namespace
