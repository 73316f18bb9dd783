// Models: aclmdlLoad*, aclmdlDesc queries and aclmdlExecute / aclmdlExecuteAsync on ONNX
// models (from Debian's libonnx-testdata, or built in the test with test_onnx::Builder).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "async_test_support.h"
#include "onnx_builder.h"
#include "test_support.h"

namespace {

std::string TestModel(const char* name) {
    return std::string(OPENACL_ONNX_TESTDATA) + "/" + name + "/model.onnx";
}

std::string ReadFile(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    std::stringstream bytes;
    bytes << file.rdbuf();
    return bytes.str();
}

// Device memory that frees itself.
class DeviceBuffer {
 public:
    explicit DeviceBuffer(size_t size) : size_(size) {
        EXPECT_EQ(aclrtMalloc(&ptr_, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    }
    ~DeviceBuffer() {
        if (ptr_) aclrtFree(ptr_);
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    void* get() const { return ptr_; }
    size_t size() const { return size_; }
    void Release() { ptr_ = nullptr; }

    template <typename T>
    void Upload(const std::vector<T>& values) {
        ASSERT_EQ(aclrtMemcpy(ptr_, size_, values.data(), values.size() * sizeof(T),
                              ACL_MEMCPY_HOST_TO_DEVICE),
                  ACL_SUCCESS);
    }
    template <typename T>
    std::vector<T> Download(size_t count) const {
        std::vector<T> values(count);
        EXPECT_EQ(aclrtMemcpy(values.data(), count * sizeof(T), ptr_, count * sizeof(T),
                              ACL_MEMCPY_DEVICE_TO_HOST),
                  ACL_SUCCESS);
        return values;
    }

 private:
    void* ptr_ = nullptr;
    size_t size_;
};

// A dataset over raw (pointer, size) pairs; destroys its buffers with itself.
class Dataset {
 public:
    Dataset() : set_(aclmdlCreateDataset()) {}
    explicit Dataset(std::initializer_list<const DeviceBuffer*> buffers) : Dataset() {
        for (const auto* b : buffers)
            Add(b->get(), b->size());
    }
    ~Dataset() {
        for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(set_); ++i) {
            aclDestroyDataBuffer(aclmdlGetDatasetBuffer(set_, i));
        }
        aclmdlDestroyDataset(set_);
    }
    Dataset(const Dataset&) = delete;
    Dataset& operator=(const Dataset&) = delete;
    void Add(void* data, size_t size) {
        aclDataBuffer* buffer = aclCreateDataBuffer(data, size);
        ASSERT_NE(buffer, nullptr);
        ASSERT_EQ(aclmdlAddDatasetBuffer(set_, buffer), ACL_SUCCESS);
    }
    aclmdlDataset* get() const { return set_; }

 private:
    aclmdlDataset* set_;
};

std::vector<float> Iota(size_t n, float start = -30.0f) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = start + static_cast<float>(i);
    return v;
}

class ModelTest : public DeviceTest {
 protected:
    uint32_t Load(const std::string& path) {
        uint32_t id = 0;
        EXPECT_EQ(aclmdlLoadFromFile(path.c_str(), &id), ACL_SUCCESS) << aclGetRecentErrMsg();
        return id;
    }
    uint32_t LoadBytes(const std::string& bytes) {
        uint32_t id = 0;
        EXPECT_EQ(aclmdlLoadFromMem(bytes.data(), bytes.size(), &id), ACL_SUCCESS)
            << aclGetRecentErrMsg();
        return id;
    }
    // Fills desc_ from a loaded model.
    aclmdlDesc* Describe(uint32_t id) {
        desc_ = aclmdlCreateDesc();
        EXPECT_EQ(aclmdlGetDesc(desc_, id), ACL_SUCCESS);
        return desc_;
    }
    void TearDown() override {
        if (desc_) aclmdlDestroyDesc(desc_);
        DeviceTest::TearDown();
    }
    aclmdlDesc* desc_ = nullptr;
};

// ---- Loading ----

TEST_F(ModelTest, LoadFromFileAcceptsAnOnnxModelAndUnloadReleasesIt) {
    uint32_t id = Load(TestModel("node/test_relu"));
    EXPECT_NE(id, 0u);
    EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

TEST_F(ModelTest, LoadRecognisesOnnxByContentWhateverTheExtension) {
    TempFile copy(ReadFile(TestModel("node/test_relu")), ".bin");
    uint32_t id = Load(copy.path());
    EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

TEST_F(ModelTest, LoadFromMemAcceptsTheFileBytes) {
    uint32_t id = LoadBytes(ReadFile(TestModel("node/test_relu")));
    EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

TEST_F(ModelTest, EachLoadGetsItsOwnModelId) {
    std::string bytes = ReadFile(TestModel("node/test_relu"));
    uint32_t a = LoadBytes(bytes), b = LoadBytes(bytes);
    EXPECT_NE(a, b);
    EXPECT_EQ(aclmdlUnload(a), ACL_SUCCESS);
    EXPECT_EQ(aclmdlUnload(b), ACL_SUCCESS);
}

TEST_F(ModelTest, LoadOfAMissingFileReportsReadModelFailure) {
    uint32_t id = 0;
    EXPECT_EQ(aclmdlLoadFromFile("/nonexistent/model.om", &id), ACL_ERROR_READ_MODEL_FAILURE);
    EXPECT_THAT_MESSAGE_CONTAINS("/nonexistent/model.om");
}

TEST_F(ModelTest, LoadOfADirectoryReportsReadModelFailure) {
    uint32_t id = 0;
    EXPECT_EQ(aclmdlLoadFromFile("/tmp", &id), ACL_ERROR_READ_MODEL_FAILURE);
}

TEST_F(ModelTest, LoadOfBytesThatAreNoModelReportsParseModel) {
    std::string text = "this is not a model, just some text that happens to be long enough";
    uint32_t id = 0;
    EXPECT_EQ(aclmdlLoadFromMem(text.data(), text.size(), &id), ACL_ERROR_PARSE_MODEL);
    EXPECT_THAT_MESSAGE_CONTAINS("neither an .om model");
}

TEST_F(ModelTest, LoadOfATruncatedModelFailsCleanlyAtEveryLength) {
    std::string bytes = ReadFile(TestModel("pytorch-converted/test_Conv2d"));
    for (size_t length = 1; length < bytes.size(); length += 7) {
        uint32_t id = 0;
        aclError rc = aclmdlLoadFromMem(bytes.data(), length, &id);
        EXPECT_NE(rc, ACL_SUCCESS) << "length " << length;
        aclGetRecentErrMsg();
    }
}

TEST_F(ModelTest, LoadWithNullArgumentsReportsInvalidParam) {
    uint32_t id = 0;
    EXPECT_EQ(aclmdlLoadFromFile(nullptr, &id), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclmdlLoadFromFile(TestModel("node/test_relu").c_str(), nullptr),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclmdlLoadFromMem(nullptr, 10, &id), ACL_ERROR_INVALID_PARAM);
    std::string bytes = ReadFile(TestModel("node/test_relu"));
    EXPECT_EQ(aclmdlLoadFromMem(bytes.data(), 0, &id), ACL_ERROR_INVALID_PARAM);
}

TEST_F(ModelTest, LoadOfAGraphWithUnsupportedOperatorsNamesThem) {
    std::string bytes = test_onnx::Builder()
                            .Input("x", {2, 2})
                            .Output("y", {2, 2})
                            .Node("Frobnicate", {"x"}, {"y"}, "com.example")
                            .Bytes();
    uint32_t id = 0;
    EXPECT_EQ(aclmdlLoadFromMem(bytes.data(), bytes.size(), &id), ACL_ERROR_OP_NOT_FOUND);
    EXPECT_THAT_MESSAGE_CONTAINS("Frobnicate");
}

// Old exporters still write ONNX's retired experimental operators; ONNX's checker lets them
// through unchecked, so openacl checks their signatures itself.
TEST_F(ModelTest, LoadOfAnExperimentalOperatorWithoutItsInputReportsParseModel) {
    std::string bytes = test_onnx::Builder(8)
                            .Input("x", {1, 2})
                            .Output("y", {1, 2})
                            .Node("Scale", {}, {"y"})
                            .Bytes();
    uint32_t id = 0;
    EXPECT_EQ(aclmdlLoadFromMem(bytes.data(), bytes.size(), &id), ACL_ERROR_PARSE_MODEL);
    EXPECT_THAT_MESSAGE_CONTAINS("Scale, an experimental operator) has 0 inputs");
}

TEST_F(ModelTest, LoadOfAnExperimentalOperatorWithExtraOutputsReportsParseModel) {
    std::string bytes = test_onnx::Builder(8)
                            .Input("x", {1, 2})
                            .Output("y", {1, 2})
                            .Node("Scale", {"x"}, {"y", "z", "w"})
                            .Bytes();
    uint32_t id = 0;
    EXPECT_EQ(aclmdlLoadFromMem(bytes.data(), bytes.size(), &id), ACL_ERROR_PARSE_MODEL);
    EXPECT_THAT_MESSAGE_CONTAINS("3 outputs");
}

TEST_F(ModelTest, ExecuteRunsAWellFormedExperimentalOperator) {
    // ImageScaler: y = scale * x + bias[channel], as the tiny-YOLOv2 exports of opset 8 use it.
    std::string bytes = test_onnx::Builder(8)
                            .Input("x", {1, 2, 1, 2})
                            .Output("y", {1, 2, 1, 2})
                            .Node("ImageScaler", {"x"}, {"y"})
                            .FloatAttribute("scale", 2.0f)
                            .FloatsAttribute("bias", {1.0f, -1.0f})
                            .Bytes();
    uint32_t id = LoadBytes(bytes);
    DeviceBuffer in(4 * sizeof(float)), out(4 * sizeof(float));
    in.Upload(std::vector<float>{1, 2, 3, 4});
    Dataset inputs{&in}, outputs{&out};
    ASSERT_EQ(aclmdlExecute(id, inputs.get(), outputs.get()), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(out.Download<float>(4), (std::vector<float>{3, 5, 5, 7}));
    aclmdlUnload(id);
}

TEST_F(ModelTest, UnloadOfAnUnknownIdReportsInvalidModelId) {
    EXPECT_EQ(aclmdlUnload(424242), ACL_ERROR_INVALID_MODEL_ID);
    EXPECT_THAT_MESSAGE_CONTAINS("424242");
}

TEST_F(ModelTest, UnloadTwiceReportsInvalidModelId) {
    uint32_t id = Load(TestModel("node/test_relu"));
    EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
    EXPECT_EQ(aclmdlUnload(id), ACL_ERROR_INVALID_MODEL_ID);
}

TEST_F(ModelTest, LoadedModelOccupiesDeviceMemoryUntilUnloaded) {
    size_t free_before = 0, free_loaded = 0, free_after = 0, total = 0;
    ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_before, &total), ACL_SUCCESS);
    uint32_t id = Load(TestModel("pytorch-converted/test_Conv2d"));
    ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_loaded, &total), ACL_SUCCESS);
    EXPECT_LT(free_loaded, free_before);
    EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
    ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_after, &total), ACL_SUCCESS);
    EXPECT_EQ(free_after, free_before);
}

TEST_F(ModelTest, QuerySizeReportsWorkAndWeightMemory) {
    size_t work = 0, weight = 0;
    std::string path = TestModel("pytorch-converted/test_Conv2d");
    ASSERT_EQ(aclmdlQuerySize(path.c_str(), &work, &weight), ACL_SUCCESS);
    EXPECT_GE(weight, ReadFile(path).size());
    // Work memory covers at least the input (2x3x7x5 floats) and output (2x4x5x4 floats).
    EXPECT_GE(work, (2 * 3 * 7 * 5 + 2 * 4 * 5 * 4) * sizeof(float));
    std::string bytes = ReadFile(path);
    size_t work_mem = 0, weight_mem = 0;
    ASSERT_EQ(aclmdlQuerySizeFromMem(bytes.data(), bytes.size(), &work_mem, &weight_mem),
              ACL_SUCCESS);
    EXPECT_EQ(work_mem, work);
    EXPECT_EQ(weight_mem, weight);
}

TEST_F(ModelTest, LoadWithMemUsesTheCallersDeviceMemory) {
    std::string path = TestModel("node/test_relu");
    size_t work = 0, weight = 0;
    ASSERT_EQ(aclmdlQuerySize(path.c_str(), &work, &weight), ACL_SUCCESS);
    DeviceBuffer work_mem(work), weight_mem(weight);
    uint32_t id = 0;
    ASSERT_EQ(aclmdlLoadFromFileWithMem(path.c_str(), &id, work_mem.get(), work, weight_mem.get(),
                                        weight),
              ACL_SUCCESS);
    EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

TEST_F(ModelTest, LoadWithMemRefusesTooLittleWeightMemory) {
    std::string path = TestModel("node/test_relu");
    DeviceBuffer weight_mem(8);
    uint32_t id = 0;
    EXPECT_EQ(aclmdlLoadFromFileWithMem(path.c_str(), &id, nullptr, 0, weight_mem.get(), 8),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("aclmdlQuerySize");
}

TEST_F(ModelTest, LoadWithMemRefusesHostMemory) {
    std::string path = TestModel("node/test_relu");
    std::vector<char> host(1 << 16);
    uint32_t id = 0;
    EXPECT_EQ(aclmdlLoadFromFileWithMem(path.c_str(), &id, nullptr, 0, host.data(), host.size()),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("device memory");
}

TEST_F(ModelTest, LoadWithConfigLoadsFromAFile) {
    std::string path = TestModel("node/test_relu");
    const char* path_ptr = path.c_str();
    size_t type = ACL_MDL_LOAD_FROM_FILE;
    aclmdlConfigHandle* config = aclmdlCreateConfigHandle();
    ASSERT_EQ(aclmdlSetConfigOpt(config, ACL_MDL_LOAD_TYPE_SIZET, &type, sizeof type), ACL_SUCCESS);
    ASSERT_EQ(aclmdlSetConfigOpt(config, ACL_MDL_PATH_PTR, &path_ptr, sizeof path_ptr),
              ACL_SUCCESS);
    uint32_t id = 0;
    ASSERT_EQ(aclmdlLoadWithConfig(config, &id), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
    EXPECT_EQ(aclmdlDestroyConfigHandle(config), ACL_SUCCESS);
}

TEST_F(ModelTest, LoadWithConfigLoadsFromMemory) {
    std::string bytes = ReadFile(TestModel("node/test_relu"));
    const void* mem = bytes.data();
    size_t size = bytes.size(), type = ACL_MDL_LOAD_FROM_MEM;
    aclmdlConfigHandle* config = aclmdlCreateConfigHandle();
    ASSERT_EQ(aclmdlSetConfigOpt(config, ACL_MDL_LOAD_TYPE_SIZET, &type, sizeof type), ACL_SUCCESS);
    ASSERT_EQ(aclmdlSetConfigOpt(config, ACL_MDL_MEM_ADDR_PTR, &mem, sizeof mem), ACL_SUCCESS);
    ASSERT_EQ(aclmdlSetConfigOpt(config, ACL_MDL_MEM_SIZET, &size, sizeof size), ACL_SUCCESS);
    uint32_t id = 0;
    ASSERT_EQ(aclmdlLoadWithConfig(config, &id), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
    aclmdlDestroyConfigHandle(config);
}

TEST_F(ModelTest, LoadWithConfigWithoutALoadTypeReportsInvalidParam) {
    aclmdlConfigHandle* config = aclmdlCreateConfigHandle();
    uint32_t id = 0;
    EXPECT_EQ(aclmdlLoadWithConfig(config, &id), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("ACL_MDL_LOAD_TYPE_SIZET");
    aclmdlDestroyConfigHandle(config);
}

TEST_F(ModelTest, SetConfigOptRefusesAValueOfTheWrongSize) {
    aclmdlConfigHandle* config = aclmdlCreateConfigHandle();
    int32_t type = ACL_MDL_LOAD_FROM_FILE;
    EXPECT_EQ(aclmdlSetConfigOpt(config, ACL_MDL_LOAD_TYPE_SIZET, &type, sizeof type),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("8 bytes");
    aclmdlDestroyConfigHandle(config);
}

TEST_F(ModelTest, LoadWithConfigOfAQueueModelIsNotSupported) {
    aclmdlConfigHandle* config = aclmdlCreateConfigHandle();
    size_t type = ACL_MDL_LOAD_FROM_FILE_WITH_Q;
    ASSERT_EQ(aclmdlSetConfigOpt(config, ACL_MDL_LOAD_TYPE_SIZET, &type, sizeof type), ACL_SUCCESS);
    uint32_t id = 0;
    EXPECT_EQ(aclmdlLoadWithConfig(config, &id), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    aclmdlDestroyConfigHandle(config);
}

// ---- Descriptions ----

TEST_F(ModelTest, DescReportsInputsAndOutputs) {
    uint32_t id = Load(TestModel("node/test_add"));
    aclmdlDesc* desc = Describe(id);
    EXPECT_EQ(aclmdlGetNumInputs(desc), 2u);
    EXPECT_EQ(aclmdlGetNumOutputs(desc), 1u);
    EXPECT_STREQ(aclmdlGetInputNameByIndex(desc, 0), "x");
    EXPECT_STREQ(aclmdlGetInputNameByIndex(desc, 1), "y");
    EXPECT_STREQ(aclmdlGetOutputNameByIndex(desc, 0), "sum");
    EXPECT_EQ(aclmdlGetInputSizeByIndex(desc, 0), 3u * 4 * 5 * sizeof(float));
    EXPECT_EQ(aclmdlGetOutputSizeByIndex(desc, 0), 3u * 4 * 5 * sizeof(float));
    EXPECT_EQ(aclmdlGetInputDataType(desc, 0), ACL_FLOAT);
    EXPECT_EQ(aclmdlGetOutputDataType(desc, 0), ACL_FLOAT);
    EXPECT_EQ(aclmdlGetInputFormat(desc, 0), ACL_FORMAT_ND);
    aclmdlIODims dims;
    ASSERT_EQ(aclmdlGetInputDims(desc, 1, &dims), ACL_SUCCESS);
    EXPECT_STREQ(dims.name, "y");
    ASSERT_EQ(dims.dimCount, 3u);
    EXPECT_EQ(dims.dims[0], 3);
    EXPECT_EQ(dims.dims[1], 4);
    EXPECT_EQ(dims.dims[2], 5);
    aclmdlUnload(id);
}

TEST_F(ModelTest, DescOfAFourDimensionalModelReportsNchw) {
    uint32_t id = Load(TestModel("pytorch-converted/test_Conv2d"));
    aclmdlDesc* desc = Describe(id);
    EXPECT_EQ(aclmdlGetInputFormat(desc, 0), ACL_FORMAT_NCHW);
    aclmdlIODims dims;
    ASSERT_EQ(aclmdlGetOutputDims(desc, 0, &dims), ACL_SUCCESS);
    ASSERT_EQ(dims.dimCount, 4u);
    EXPECT_EQ(dims.dims[0], 2);
    EXPECT_EQ(dims.dims[1], 4);
    EXPECT_EQ(dims.dims[2], 5);
    EXPECT_EQ(dims.dims[3], 4);
    aclmdlUnload(id);
}

TEST_F(ModelTest, DescSizesFollowTheDeclaredDataTypes) {
    uint32_t id = Load(TestModel("node/test_argmax_default_axis_example"));
    aclmdlDesc* desc = Describe(id);
    EXPECT_EQ(aclmdlGetOutputDataType(desc, 0), ACL_INT64);
    EXPECT_EQ(aclmdlGetOutputSizeByIndex(desc, 0), 2u * sizeof(int64_t));
    aclmdlUnload(id);
}

TEST_F(ModelTest, DescFindsInputsAndOutputsByName) {
    uint32_t id = Load(TestModel("node/test_add"));
    aclmdlDesc* desc = Describe(id);
    size_t index = 99;
    ASSERT_EQ(aclmdlGetInputIndexByName(desc, "y", &index), ACL_SUCCESS);
    EXPECT_EQ(index, 1u);
    ASSERT_EQ(aclmdlGetOutputIndexByName(desc, "sum", &index), ACL_SUCCESS);
    EXPECT_EQ(index, 0u);
    EXPECT_EQ(aclmdlGetInputIndexByName(desc, "nope", &index), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("nope");
    aclmdlUnload(id);
}

TEST_F(ModelTest, DescQueriesOutOfRangeReportErrors) {
    uint32_t id = Load(TestModel("node/test_relu"));
    aclmdlDesc* desc = Describe(id);
    EXPECT_EQ(aclmdlGetInputSizeByIndex(desc, 5), 0u);
    EXPECT_THAT_MESSAGE_CONTAINS("out of range");
    EXPECT_STREQ(aclmdlGetOutputNameByIndex(desc, 5), "");
    EXPECT_EQ(aclmdlGetInputDataType(desc, 5), ACL_DT_UNDEFINED);
    EXPECT_EQ(aclmdlGetOutputFormat(desc, 5), ACL_FORMAT_UNDEFINED);
    aclmdlIODims dims;
    EXPECT_EQ(aclmdlGetInputDims(desc, 5, &dims), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclmdlGetInputDims(desc, 0, nullptr), ACL_ERROR_INVALID_PARAM);
    aclmdlUnload(id);
}

TEST_F(ModelTest, GetDescOfAnUnknownModelReportsInvalidModelId) {
    aclmdlDesc* desc = aclmdlCreateDesc();
    EXPECT_EQ(aclmdlGetDesc(desc, 777), ACL_ERROR_INVALID_MODEL_ID);
    EXPECT_EQ(aclmdlGetNumInputs(desc), 0u);
    EXPECT_THAT_MESSAGE_CONTAINS("aclmdlGetDesc");
    aclmdlDestroyDesc(desc);
}

TEST_F(ModelTest, GetDescFromFileDescribesWithoutLoading) {
    aclmdlDesc* desc = aclmdlCreateDesc();
    ASSERT_EQ(aclmdlGetDescFromFile(desc, TestModel("node/test_add").c_str()), ACL_SUCCESS);
    EXPECT_EQ(aclmdlGetNumInputs(desc), 2u);
    aclmdlDestroyDesc(desc);
}

TEST_F(ModelTest, DestroyDescTwiceReportsInvalidParam) {
    aclmdlDesc* desc = aclmdlCreateDesc();
    EXPECT_EQ(aclmdlDestroyDesc(desc), ACL_SUCCESS);
    EXPECT_EQ(aclmdlDestroyDesc(desc), ACL_ERROR_INVALID_PARAM);
}

TEST_F(ModelTest, SymbolicDimensionsAreReportedAsMinusOne) {
    std::string bytes = test_onnx::Builder()
                            .Input("x", {-1, 4})
                            .Output("y", {-1, 4})
                            .Node("Relu", {"x"}, {"y"})
                            .Bytes();
    uint32_t id = LoadBytes(bytes);
    aclmdlDesc* desc = Describe(id);
    aclmdlIODims dims;
    ASSERT_EQ(aclmdlGetInputDims(desc, 0, &dims), ACL_SUCCESS);
    ASSERT_EQ(dims.dimCount, 2u);
    EXPECT_EQ(dims.dims[0], -1);
    EXPECT_EQ(dims.dims[1], 4);
    EXPECT_EQ(aclmdlGetInputSizeByIndex(desc, 0), 0u);  // not bounded
    aclmdlUnload(id);
}

// ---- Execution ----

TEST_F(ModelTest, ExecuteComputesTheModel) {
    uint32_t id = Load(TestModel("node/test_relu"));
    std::vector<float> x = Iota(60);
    DeviceBuffer in(60 * sizeof(float)), out(60 * sizeof(float));
    in.Upload(x);
    Dataset inputs{&in}, outputs{&out};
    ASSERT_EQ(aclmdlExecute(id, inputs.get(), outputs.get()), ACL_SUCCESS) << aclGetRecentErrMsg();
    std::vector<float> y = out.Download<float>(60);
    for (size_t i = 0; i < 60; ++i)
        EXPECT_EQ(y[i], std::max(x[i], 0.0f)) << i;
    aclmdlUnload(id);
}

TEST_F(ModelTest, ExecuteTakesInputsInDescOrder) {
    std::string bytes = test_onnx::Builder()
                            .Input("a", {2, 3})
                            .Input("b", {2, 3})
                            .Output("d", {2, 3})
                            .Node("Sub", {"a", "b"}, {"d"})
                            .Bytes();
    uint32_t id = LoadBytes(bytes);
    DeviceBuffer a(6 * sizeof(float)), b(6 * sizeof(float)), d(6 * sizeof(float));
    a.Upload(std::vector<float>{10, 20, 30, 40, 50, 60});
    b.Upload(std::vector<float>{1, 2, 3, 4, 5, 6});
    Dataset inputs{&a, &b}, outputs{&d};
    ASSERT_EQ(aclmdlExecute(id, inputs.get(), outputs.get()), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(d.Download<float>(6), (std::vector<float>{9, 18, 27, 36, 45, 54}));
    aclmdlUnload(id);
}

TEST_F(ModelTest, ExecuteWritesIntegerOutputsInTheirDeclaredType) {
    uint32_t id = Load(TestModel("node/test_argmax_default_axis_example"));
    DeviceBuffer in(4 * sizeof(float)), out(2 * sizeof(int64_t));
    in.Upload(std::vector<float>{2, 1, 3, 10});  // columns: argmax (2,3)->1, (1,10)->1
    Dataset inputs{&in}, outputs{&out};
    ASSERT_EQ(aclmdlExecute(id, inputs.get(), outputs.get()), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(out.Download<int64_t>(2), (std::vector<int64_t>{1, 1}));
    aclmdlUnload(id);
}

TEST_F(ModelTest, ExecuteReportsTheOutputShapeInTheOutputDataset) {
    uint32_t id = Load(TestModel("pytorch-converted/test_Conv2d"));
    DeviceBuffer in(2 * 3 * 7 * 5 * sizeof(float)), out(2 * 4 * 5 * 4 * sizeof(float));
    Dataset inputs{&in}, outputs{&out};
    ASSERT_EQ(aclmdlExecute(id, inputs.get(), outputs.get()), ACL_SUCCESS) << aclGetRecentErrMsg();
    aclTensorDesc* shape = aclmdlGetDatasetTensorDesc(outputs.get(), 0);
    ASSERT_NE(shape, nullptr);
    ASSERT_EQ(aclGetTensorDescNumDims(shape), 4u);
    EXPECT_EQ(aclGetTensorDescElementCount(shape), 2u * 4 * 5 * 4);
    aclmdlUnload(id);
}

TEST_F(ModelTest, ExecuteAllocatesOutputsGivenAsEmptyBuffers) {
    uint32_t id = Load(TestModel("node/test_relu"));
    DeviceBuffer in(60 * sizeof(float));
    in.Upload(Iota(60));
    Dataset inputs{&in}, outputs;
    outputs.Add(nullptr, 0);
    ASSERT_EQ(aclmdlExecute(id, inputs.get(), outputs.get()), ACL_SUCCESS) << aclGetRecentErrMsg();
    aclDataBuffer* buffer = aclmdlGetDatasetBuffer(outputs.get(), 0);
    void* data = aclGetDataBufferAddr(buffer);
    ASSERT_NE(data, nullptr);
    EXPECT_EQ(aclGetDataBufferSizeV2(buffer), 60 * sizeof(float));
    float last = 0;
    ASSERT_EQ(aclrtMemcpy(&last, sizeof last, static_cast<float*>(data) + 59, sizeof last,
                          ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    EXPECT_EQ(last, 29.0f);
    EXPECT_EQ(aclrtFree(data), ACL_SUCCESS);  // the caller owns what the runtime allocated
    aclmdlUnload(id);
}

TEST_F(ModelTest, ExecuteTakesASymbolicDimensionFromTheBufferSize) {
    std::string bytes = test_onnx::Builder()
                            .Input("x", {-1, 4})
                            .Output("y", {-1, 4})
                            .Node("Relu", {"x"}, {"y"})
                            .Bytes();
    uint32_t id = LoadBytes(bytes);
    DeviceBuffer in(3 * 4 * sizeof(float)), out(3 * 4 * sizeof(float));
    in.Upload(Iota(12, -6));
    Dataset inputs{&in}, outputs{&out};
    ASSERT_EQ(aclmdlExecute(id, inputs.get(), outputs.get()), ACL_SUCCESS) << aclGetRecentErrMsg();
    std::vector<float> y = out.Download<float>(12);
    EXPECT_EQ(y[0], 0.0f);
    EXPECT_EQ(y[11], 5.0f);
    aclmdlUnload(id);
}

TEST_F(ModelTest, ExecuteTakesASymbolicShapeFromTheDatasetTensorDesc) {
    std::string bytes = test_onnx::Builder()
                            .Input("x", {-1, -1})
                            .Output("y", {-1, -1})
                            .Node("Relu", {"x"}, {"y"})
                            .Bytes();
    uint32_t id = LoadBytes(bytes);
    DeviceBuffer in(6 * sizeof(float)), out(6 * sizeof(float));
    in.Upload(Iota(6, -3));
    Dataset inputs{&in}, outputs{&out};
    int64_t shape[] = {2, 3};
    aclTensorDesc* desc = aclCreateTensorDesc(ACL_FLOAT, 2, shape, ACL_FORMAT_ND);
    ASSERT_EQ(aclmdlSetDatasetTensorDesc(inputs.get(), desc, 0), ACL_SUCCESS);
    aclDestroyTensorDesc(desc);
    ASSERT_EQ(aclmdlExecute(id, inputs.get(), outputs.get()), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(out.Download<float>(6), (std::vector<float>{0, 0, 0, 0, 1, 2}));
    aclmdlUnload(id);
}

TEST_F(ModelTest, ExecuteRefusesAnAmbiguousSymbolicShape) {
    std::string bytes = test_onnx::Builder()
                            .Input("x", {-1, -1})
                            .Output("y", {-1, -1})
                            .Node("Relu", {"x"}, {"y"})
                            .Bytes();
    uint32_t id = LoadBytes(bytes);
    DeviceBuffer in(6 * sizeof(float)), out(6 * sizeof(float));
    Dataset inputs{&in}, outputs{&out};
    EXPECT_EQ(aclmdlExecute(id, inputs.get(), outputs.get()), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("aclmdlSetDatasetTensorDesc");
    aclmdlUnload(id);
}

TEST_F(ModelTest, ExecuteRefusesHostMemory) {
    uint32_t id = Load(TestModel("node/test_relu"));
    std::vector<float> host(60);
    DeviceBuffer out(60 * sizeof(float));
    Dataset inputs, outputs{&out};
    inputs.Add(host.data(), host.size() * sizeof(float));
    EXPECT_EQ(aclmdlExecute(id, inputs.get(), outputs.get()), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("must be device memory");
    aclmdlUnload(id);
}

TEST_F(ModelTest, ExecuteRefusesPinnedHostMemory) {
    uint32_t id = Load(TestModel("node/test_relu"));
    void* pinned = nullptr;
    ASSERT_EQ(aclrtMallocHost(&pinned, 60 * sizeof(float)), ACL_SUCCESS);
    DeviceBuffer out(60 * sizeof(float));
    Dataset inputs, outputs{&out};
    inputs.Add(pinned, 60 * sizeof(float));
    EXPECT_EQ(aclmdlExecute(id, inputs.get(), outputs.get()), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("must be device memory");
    aclrtFreeHost(pinned);
    aclmdlUnload(id);
}

TEST_F(ModelTest, ExecuteRefusesATooSmallInputBuffer) {
    uint32_t id = Load(TestModel("node/test_relu"));
    DeviceBuffer in(59 * sizeof(float)), out(60 * sizeof(float));
    Dataset inputs{&in}, outputs{&out};
    EXPECT_EQ(aclmdlExecute(id, inputs.get(), outputs.get()), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("needs 240 bytes");
    aclmdlUnload(id);
}

TEST_F(ModelTest, ExecuteRefusesATooSmallOutputBuffer) {
    uint32_t id = Load(TestModel("node/test_relu"));
    DeviceBuffer in(60 * sizeof(float)), out(10 * sizeof(float));
    Dataset inputs{&in}, outputs{&out};
    EXPECT_EQ(aclmdlExecute(id, inputs.get(), outputs.get()), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("output 0");
    aclmdlUnload(id);
}

TEST_F(ModelTest, ExecuteRefusesTheWrongNumberOfInputs) {
    uint32_t id = Load(TestModel("node/test_add"));
    DeviceBuffer x(240), out(240);
    Dataset inputs{&x}, outputs{&out};
    EXPECT_EQ(aclmdlExecute(id, inputs.get(), outputs.get()), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("has 2 inputs (x, y)");
    aclmdlUnload(id);
}

TEST_F(ModelTest, ExecuteOfAnUnloadedModelReportsInvalidModelId) {
    uint32_t id = Load(TestModel("node/test_relu"));
    ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);
    DeviceBuffer in(240), out(240);
    Dataset inputs{&in}, outputs{&out};
    EXPECT_EQ(aclmdlExecute(id, inputs.get(), outputs.get()), ACL_ERROR_INVALID_MODEL_ID);
}

TEST_F(ModelTest, ExecuteWithNullDatasetsReportsInvalidParam) {
    uint32_t id = Load(TestModel("node/test_relu"));
    DeviceBuffer out(240);
    Dataset outputs{&out};
    EXPECT_EQ(aclmdlExecute(id, nullptr, outputs.get()), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclmdlExecute(id, outputs.get(), nullptr), ACL_ERROR_INVALID_PARAM);
    aclmdlUnload(id);
}

TEST_F(ModelTest, ExecuteAsyncRunsInStreamOrder) {
    uint32_t id = Load(TestModel("node/test_relu"));
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    void* host_in = nullptr;
    void* host_out = nullptr;
    ASSERT_EQ(aclrtMallocHost(&host_in, 240), ACL_SUCCESS);
    ASSERT_EQ(aclrtMallocHost(&host_out, 240), ACL_SUCCESS);
    std::vector<float> x = Iota(60);
    std::memcpy(host_in, x.data(), 240);
    DeviceBuffer in(240), out(240);
    Dataset inputs{&in}, outputs{&out};
    ASSERT_EQ(aclrtMemcpyAsync(in.get(), 240, host_in, 240, ACL_MEMCPY_HOST_TO_DEVICE, stream),
              ACL_SUCCESS);
    ASSERT_EQ(aclmdlExecuteAsync(id, inputs.get(), outputs.get(), stream), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtMemcpyAsync(host_out, 240, out.get(), 240, ACL_MEMCPY_DEVICE_TO_HOST, stream),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    const float* y = static_cast<const float*>(host_out);
    for (size_t i = 0; i < 60; ++i)
        EXPECT_EQ(y[i], std::max(x[i], 0.0f)) << i;
    aclrtFreeHost(host_in);
    aclrtFreeHost(host_out);
    aclrtDestroyStream(stream);
    aclmdlUnload(id);
}

TEST_F(ModelTest, ExecuteAsyncAllocatesEmptyOutputsAtTheirLargestSize) {
    uint32_t id = Load(TestModel("node/test_relu"));
    DeviceBuffer in(240);
    in.Upload(Iota(60));
    Dataset inputs{&in}, outputs;
    outputs.Add(nullptr, 0);
    ASSERT_EQ(aclmdlExecuteAsync(id, inputs.get(), outputs.get(), nullptr), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    aclDataBuffer* buffer = aclmdlGetDatasetBuffer(outputs.get(), 0);
    EXPECT_EQ(aclGetDataBufferSizeV2(buffer), 240u);
    EXPECT_EQ(aclrtFree(aclGetDataBufferAddr(buffer)), ACL_SUCCESS);
    aclmdlUnload(id);
}

TEST_F(ModelTest, ExecuteAsyncOnAForeignStreamReportsStreamContext) {
    uint32_t id = Load(TestModel("node/test_relu"));
    DeviceBuffer in(240), out(240);
    Dataset inputs{&in}, outputs{&out};
    EXPECT_EQ(
        aclmdlExecuteAsync(id, inputs.get(), outputs.get(), reinterpret_cast<aclrtStream>(0x1234)),
        ACL_ERROR_INVALID_PARAM);
    aclmdlUnload(id);
}

TEST_F(ModelTest, ExecuteAsyncWhoseInputIsFreedBeforeItRunsFailsTheStream) {
    uint32_t id = Load(TestModel("node/test_relu"));
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    auto* in = new DeviceBuffer(240);
    DeviceBuffer out(240);
    Dataset inputs{in}, outputs{&out};
    async_test::Gate gate;
    ASSERT_EQ(gate.Block(stream), ACL_SUCCESS);
    ASSERT_EQ(aclmdlExecuteAsync(id, inputs.get(), outputs.get(), stream), ACL_SUCCESS);
    delete in;  // frees the device memory while the execution waits behind the gate
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_COPY_DATA);
    EXPECT_THAT_MESSAGE_CONTAINS("freed before the execution ran");
    aclrtDestroyStream(stream);
    aclmdlUnload(id);
}

TEST_F(ModelTest, UnloadWhileAnExecutionIsQueuedLetsItFinish) {
    uint32_t id = Load(TestModel("node/test_relu"));
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    DeviceBuffer in(240), out(240);
    in.Upload(Iota(60));
    Dataset inputs{&in}, outputs{&out};
    async_test::Gate gate;
    ASSERT_EQ(gate.Block(stream), ACL_SUCCESS);
    ASSERT_EQ(aclmdlExecuteAsync(id, inputs.get(), outputs.get(), stream), ACL_SUCCESS);
    EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(out.Download<float>(60)[59], 29.0f);
    aclrtDestroyStream(stream);
}

TEST_F(ModelTest, OneModelRunsConcurrentlyFromSeveralThreads) {
    uint32_t id = Load(TestModel("pytorch-converted/test_Linear"));
    aclrtContext context = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
    std::vector<std::thread> threads;
    std::atomic<int> failures{0};
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            aclrtSetCurrentContext(context);
            DeviceBuffer in(4 * 10 * sizeof(float)), out(4 * 8 * sizeof(float));
            in.Upload(Iota(40, static_cast<float>(t)));
            Dataset inputs{&in}, outputs{&out};
            std::vector<float> first;
            for (int i = 0; i < 20; ++i) {
                if (aclmdlExecute(id, inputs.get(), outputs.get()) != ACL_SUCCESS) ++failures;
                std::vector<float> y = out.Download<float>(32);
                if (first.empty()) first = y;
                if (y != first) ++failures;  // same input, same answer, whatever else runs
            }
        });
    }
    for (auto& t : threads)
        t.join();
    EXPECT_EQ(failures.load(), 0);
    aclmdlUnload(id);
}

TEST_F(ModelTest, OneModelRunsConcurrentlyOnTwoStreams) {
    uint32_t id = Load(TestModel("pytorch-converted/test_Linear"));
    aclrtStream streams[2] = {};
    ASSERT_EQ(aclrtCreateStream(&streams[0]), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&streams[1]), ACL_SUCCESS);
    DeviceBuffer in0(160), in1(160), out0(128), out1(128), ref0(128), ref1(128);
    in0.Upload(Iota(40, 1));
    in1.Upload(Iota(40, -7));
    Dataset i0{&in0}, i1{&in1}, o0{&out0}, o1{&out1}, r0{&ref0}, r1{&ref1};
    ASSERT_EQ(aclmdlExecute(id, i0.get(), r0.get()), ACL_SUCCESS);  // the answers, one at a time
    ASSERT_EQ(aclmdlExecute(id, i1.get(), r1.get()), ACL_SUCCESS);
    for (int round = 0; round < 10; ++round) {
        ASSERT_EQ(aclmdlExecuteAsync(id, i0.get(), o0.get(), streams[0]), ACL_SUCCESS);
        ASSERT_EQ(aclmdlExecuteAsync(id, i1.get(), o1.get(), streams[1]), ACL_SUCCESS);
    }
    ASSERT_EQ(aclrtSynchronizeStream(streams[0]), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(streams[1]), ACL_SUCCESS);
    EXPECT_EQ(out0.Download<float>(32), ref0.Download<float>(32));
    EXPECT_EQ(out1.Download<float>(32), ref1.Download<float>(32));
    aclrtDestroyStream(streams[0]);
    aclrtDestroyStream(streams[1]);
    aclmdlUnload(id);
}

TEST(ModelContextTest, ExecuteOnAnotherDeviceReportsWhereTheModelLives) {
    ScopedEnv devices("OPENACL_DEVICE_COUNT", "2");
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    uint32_t id = 0;
    ASSERT_EQ(aclmdlLoadFromFile(TestModel("node/test_relu").c_str(), &id), ACL_SUCCESS);
    {
        DeviceBuffer in(240), out(240);
        Dataset inputs{&in}, outputs{&out};
        if (aclrtSetDevice(1) != ACL_SUCCESS) {
            aclmdlUnload(id);
            GTEST_SKIP() << "the device count was fixed before this test set it (run alone)";
        }
        EXPECT_EQ(aclmdlExecute(id, inputs.get(), outputs.get()), ACL_ERROR_INVALID_PARAM);
        EXPECT_THAT_MESSAGE_CONTAINS("same context");
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    }
    EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
    aclrtResetDeviceForce(1);
    aclrtResetDeviceForce(0);
}

}  // namespace

namespace {

TEST(ModelLifetimeTest, FinalizeUnloadsModelsStillLoaded) {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    uint32_t id = 0;
    ASSERT_EQ(aclmdlLoadFromFile(TestModel("node/test_relu").c_str(), &id), ACL_SUCCESS);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclmdlUnload(id), ACL_ERROR_INVALID_MODEL_ID);
    aclFinalize();
    aclGetRecentErrMsg();
}

}  // namespace
