// Models converted by openacl's atc: float16 inputs and outputs converted at the boundary,
// output types, and dynamic batch / image-size gears chosen with aclmdlSetDynamic*.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "test_support.h"

namespace {

std::string TestModel(const char* name) {
    return std::string(OPENACL_ONNX_TESTDATA) + "/" + name + "/model.onnx";
}

// Runs atc with the flags given and returns the path of the .om it wrote.
std::string Convert(const std::string& model, const std::string& flags, const char* name) {
    std::string output =
        std::string("/tmp/openacl-atc-test-") + std::to_string(getpid()) + "-" + name;
    std::string command =
        std::string(OPENACL_ATC) + " --model=" + model +
        " --framework=5 --soc_version=Ascend310P3 --log=error --output=" + output + " " + flags +
        " > /dev/null";
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
    return output + ".om";
}

class AtcModelTest : public DeviceTest {
 protected:
    void TearDown() override {
        for (auto* b : buffers_)
            aclrtFree(b);
        for (auto& f : files_)
            std::remove(f.c_str());
        if (desc_) aclmdlDestroyDesc(desc_);
        DeviceTest::TearDown();
    }
    uint32_t Load(const std::string& om) {
        files_.push_back(om);
        uint32_t id = 0;
        EXPECT_EQ(aclmdlLoadFromFile(om.c_str(), &id), ACL_SUCCESS) << aclGetRecentErrMsg();
        desc_ = aclmdlCreateDesc();
        EXPECT_EQ(aclmdlGetDesc(desc_, id), ACL_SUCCESS);
        return id;
    }
    void* Device(size_t size) {
        void* p = nullptr;
        EXPECT_EQ(aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        buffers_.push_back(p);
        return p;
    }
    void* Upload(const void* host, size_t size) {
        void* p = Device(size);
        EXPECT_EQ(aclrtMemcpy(p, size, host, size, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
        return p;
    }
    template <typename T>
    std::vector<T> Download(const void* device, size_t count) {
        std::vector<T> out(count);
        EXPECT_EQ(aclrtMemcpy(out.data(), count * sizeof(T), device, count * sizeof(T),
                              ACL_MEMCPY_DEVICE_TO_HOST),
                  ACL_SUCCESS);
        return out;
    }
    // A dataset over (pointer, size) pairs; the test's TearDown frees the memory.
    aclmdlDataset* Dataset(std::initializer_list<std::pair<void*, size_t>> buffers) {
        aclmdlDataset* set = aclmdlCreateDataset();
        for (auto [p, n] : buffers)
            aclmdlAddDatasetBuffer(set, aclCreateDataBuffer(p, n));
        sets_.push_back(set);
        return set;
    }
    void DestroyDatasets() {
        for (auto* set : sets_) {
            for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(set); ++i) {
                aclDestroyDataBuffer(aclmdlGetDatasetBuffer(set, i));
            }
            aclmdlDestroyDataset(set);
        }
        sets_.clear();
    }
    ~AtcModelTest() override { DestroyDatasets(); }

    aclmdlDesc* desc_ = nullptr;
    std::vector<void*> buffers_;
    std::vector<std::string> files_;
    std::vector<aclmdlDataset*> sets_;
};

std::vector<float> Iota(size_t n, float start) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = start + 0.5f * static_cast<float>(i);
    return v;
}

TEST_F(AtcModelTest, Fp16InputNodesTakeHalfPrecisionData) {
    uint32_t id = Load(Convert(TestModel("node/test_relu"), "--input_fp16_nodes=x", "fp16in"));
    EXPECT_EQ(aclmdlGetInputDataType(desc_, 0), ACL_FLOAT16);
    EXPECT_EQ(aclmdlGetInputSizeByIndex(desc_, 0), 60u * 2);
    EXPECT_EQ(aclmdlGetOutputDataType(desc_, 0), ACL_FLOAT);
    std::vector<aclFloat16> x(60);
    std::vector<float> values = Iota(60, -10);
    for (size_t i = 0; i < 60; ++i)
        x[i] = aclFloatToFloat16(values[i]);
    void* in = Upload(x.data(), 120);
    void* out = Device(240);
    ASSERT_EQ(aclmdlExecute(id, Dataset({{in, 120}}), Dataset({{out, 240}})), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    std::vector<float> y = Download<float>(out, 60);
    for (size_t i = 0; i < 60; ++i)
        EXPECT_EQ(y[i], std::max(values[i], 0.0f)) << i;
    aclmdlUnload(id);
}

TEST_F(AtcModelTest, OutputTypeFp16GivesHalfPrecisionOutputs) {
    uint32_t id = Load(Convert(TestModel("node/test_relu"), "--output_type=FP16", "fp16out"));
    EXPECT_EQ(aclmdlGetOutputDataType(desc_, 0), ACL_FLOAT16);
    EXPECT_EQ(aclmdlGetOutputSizeByIndex(desc_, 0), 60u * 2);
    std::vector<float> values = Iota(60, -10);
    void* in = Upload(values.data(), 240);
    void* out = Device(120);
    ASSERT_EQ(aclmdlExecute(id, Dataset({{in, 240}}), Dataset({{out, 120}})), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    std::vector<aclFloat16> y = Download<aclFloat16>(out, 60);
    for (size_t i = 0; i < 60; ++i) {
        EXPECT_EQ(aclFloat16ToFloat(y[i]), std::max(values[i], 0.0f)) << i;
    }
    aclmdlUnload(id);
}

TEST_F(AtcModelTest, InputShapeFixesASymbolicDimension) {
    // test_Conv2d declares 2x3x7x5; atc narrows it to a batch of 1.
    uint32_t id = Load(
        Convert(TestModel("pytorch-converted/test_Conv2d"), "--input_shape=0:1,3,7,5", "shape"));
    aclmdlIODims dims;
    ASSERT_EQ(aclmdlGetOutputDims(desc_, 0, &dims), ACL_SUCCESS);
    EXPECT_EQ(dims.dims[0], 1);
    EXPECT_EQ(aclmdlGetInputSizeByIndex(desc_, 0), 3u * 7 * 5 * sizeof(float));
    aclmdlUnload(id);
}

class DynamicBatchTest : public AtcModelTest {
 protected:
    void SetUp() override {
        AtcModelTest::SetUp();
        id_ = Load(Convert(TestModel("pytorch-converted/test_Conv2d"),
                           "--input_shape=0:-1,3,7,5 --dynamic_batch_size=1,2,4", "batch"));
        ASSERT_EQ(aclmdlGetInputIndexByName(desc_, ACL_DYNAMIC_TENSOR_NAME, &dynamic_),
                  ACL_SUCCESS);
    }
    void TearDown() override {
        DestroyDatasets();
        aclmdlUnload(id_);
        AtcModelTest::TearDown();
    }
    uint32_t id_ = 0;
    size_t dynamic_ = 0;
};

TEST_F(DynamicBatchTest, DescListsTheGearsAndTheDynamicInput) {
    EXPECT_EQ(aclmdlGetNumInputs(desc_), 2u);
    EXPECT_EQ(dynamic_, 1u);
    aclmdlBatch batch;
    ASSERT_EQ(aclmdlGetDynamicBatch(desc_, &batch), ACL_SUCCESS);
    ASSERT_EQ(batch.batchCount, 3u);
    EXPECT_EQ(batch.batch[0], 1u);
    EXPECT_EQ(batch.batch[2], 4u);
    aclmdlIODims dims;
    ASSERT_EQ(aclmdlGetInputDims(desc_, 0, &dims), ACL_SUCCESS);
    EXPECT_EQ(dims.dims[0], -1);
    // Buffers are sized for the largest gear.
    EXPECT_EQ(aclmdlGetInputSizeByIndex(desc_, 0), 4u * 3 * 7 * 5 * sizeof(float));
    EXPECT_EQ(aclmdlGetOutputSizeByIndex(desc_, 0), 4u * 4 * 5 * 4 * sizeof(float));
}

TEST_F(DynamicBatchTest, ExecuteWithoutChoosingAGearReportsWhatToCall) {
    size_t in_size = aclmdlGetInputSizeByIndex(desc_, 0);
    size_t out_size = aclmdlGetOutputSizeByIndex(desc_, 0);
    aclmdlDataset* in = Dataset({{Device(in_size), in_size}, {Device(8), 8}});
    EXPECT_EQ(aclmdlExecute(id_, in, Dataset({{Device(out_size), out_size}})),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("aclmdlSetDynamicBatchSize");
}

TEST_F(DynamicBatchTest, SetDynamicBatchSizeRefusesASizeThatIsNoGear) {
    aclmdlDataset* in = Dataset({{Device(1680), 1680}, {Device(8), 8}});
    EXPECT_EQ(aclmdlSetDynamicBatchSize(id_, in, dynamic_, 3), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("1, 2, 4");
    EXPECT_EQ(aclmdlSetDynamicBatchSize(id_, in, 0, 2), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS(ACL_DYNAMIC_TENSOR_NAME);
}

TEST_F(DynamicBatchTest, ExecuteRunsTheChosenBatchLikeTheStaticModel) {
    // The same two images through the static model (batch 2) and the dynamic one at gear 2.
    uint32_t fixed = 0;
    ASSERT_EQ(aclmdlLoadFromFile(TestModel("pytorch-converted/test_Conv2d").c_str(), &fixed),
              ACL_SUCCESS);
    std::vector<float> x = Iota(2 * 3 * 7 * 5, -20);
    size_t in_size = aclmdlGetInputSizeByIndex(desc_, 0);
    void* in = Device(in_size);
    ASSERT_EQ(aclrtMemcpy(in, in_size, x.data(), x.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    size_t out_size = aclmdlGetOutputSizeByIndex(desc_, 0);
    void* out = Device(out_size);
    void* expected = Device(2 * 4 * 5 * 4 * 4);
    aclmdlDataset* inputs = Dataset({{in, in_size}, {Device(8), 8}});
    ASSERT_EQ(aclmdlSetDynamicBatchSize(id_, inputs, dynamic_, 2), ACL_SUCCESS);
    ASSERT_EQ(aclmdlExecute(id_, inputs, Dataset({{out, out_size}})), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(aclmdlExecute(fixed, Dataset({{in, x.size() * 4}}),
                            Dataset({{expected, 2 * 4 * 5 * 4 * 4}})),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
    // The static model runs on the compiled engine, the dynamic one on OpenCV DNN: the same
    // convolution, summed in another order.
    const std::vector<float> got = Download<float>(out, 160), want = Download<float>(expected, 160);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i)
        EXPECT_NEAR(got[i], want[i], 1e-5f * std::max(1.0f, std::fabs(want[i]))) << i;
    aclmdlIODims dims;
    ASSERT_EQ(aclmdlGetCurOutputDims(desc_, 0, &dims), ACL_SUCCESS);
    EXPECT_EQ(dims.dims[0], 2);
    aclmdlUnload(fixed);
}

TEST_F(AtcModelTest, DynamicImageSizeRunsTheChosenSize) {
    uint32_t id = Load(Convert(TestModel("pytorch-converted/test_Conv2d"),
                               "--input_shape=0:1,3,-1,-1 '--dynamic_image_size=7,5;14,10'", "hw"));
    size_t dynamic = 0;
    ASSERT_EQ(aclmdlGetInputIndexByName(desc_, ACL_DYNAMIC_TENSOR_NAME, &dynamic), ACL_SUCCESS);
    aclmdlHW hw;
    ASSERT_EQ(aclmdlGetDynamicHW(desc_, 0, &hw), ACL_SUCCESS);
    ASSERT_EQ(hw.hwCount, 2u);
    EXPECT_EQ(hw.hw[1][0], 14u);
    EXPECT_EQ(hw.hw[1][1], 10u);
    EXPECT_EQ(aclmdlGetInputSizeByIndex(desc_, 0), 3u * 14 * 10 * sizeof(float));
    size_t in_size = aclmdlGetInputSizeByIndex(desc_, 0);
    size_t out_size = aclmdlGetOutputSizeByIndex(desc_, 0);
    std::vector<float> x = Iota(3 * 7 * 5, -5);
    void* in = Device(in_size);  // sized for the largest gear, filled for the one chosen
    ASSERT_EQ(aclrtMemcpy(in, in_size, x.data(), x.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    void* out = Device(out_size);
    aclmdlDataset* inputs = Dataset({{in, in_size}, {Device(16), 16}});
    ASSERT_EQ(aclmdlSetDynamicHWSize(id, inputs, dynamic, 7, 5), ACL_SUCCESS);
    ASSERT_EQ(aclmdlExecute(id, inputs, Dataset({{out, out_size}})), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    aclmdlIODims dims;
    ASSERT_EQ(aclmdlGetCurOutputDims(desc_, 0, &dims), ACL_SUCCESS);
    ASSERT_EQ(dims.dimCount, 4u);
    EXPECT_EQ(dims.dims[2], 5);  // 7x5 through a 3x3 kernel, no padding... as test_Conv2d
    EXPECT_EQ(dims.dims[3], 4);
    EXPECT_EQ(aclmdlSetDynamicHWSize(id, inputs, dynamic, 8, 8), ACL_ERROR_INVALID_PARAM);
    DestroyDatasets();
    aclmdlUnload(id);
}

// test_relu's x[3, 4, 5] with its first and last dims left to two gears: 3x4x5 and 2x4x7.
class DynamicDimsTest : public AtcModelTest {
 protected:
    void SetUp() override {
        AtcModelTest::SetUp();
        id_ = Load(Convert(TestModel("node/test_relu"),
                           "--input_format=ND --input_shape=x:-1,4,-1 '--dynamic_dims=3,5;2,7'",
                           "dims"));
        ASSERT_EQ(aclmdlGetInputIndexByName(desc_, ACL_DYNAMIC_TENSOR_NAME, &dynamic_),
                  ACL_SUCCESS);
    }
    void TearDown() override {
        DestroyDatasets();
        aclmdlUnload(id_);
        AtcModelTest::TearDown();
    }
    static aclmdlIODims Gear(std::initializer_list<int64_t> values) {
        aclmdlIODims dims{};
        for (int64_t v : values)
            dims.dims[dims.dimCount++] = v;
        return dims;
    }
    uint32_t id_ = 0;
    size_t dynamic_ = 0;
};

TEST_F(DynamicDimsTest, TheDescriptionListsEachGearAsEveryInputsDims) {
    size_t count = 0;
    ASSERT_EQ(aclmdlGetInputDynamicGearCount(desc_, static_cast<size_t>(-1), &count), ACL_SUCCESS);
    ASSERT_EQ(count, 2u);
    aclmdlIODims gears[2];
    ASSERT_EQ(aclmdlGetInputDynamicDims(desc_, static_cast<size_t>(-1), gears, 2), ACL_SUCCESS);
    ASSERT_EQ(gears[0].dimCount, 3u);
    EXPECT_EQ(std::vector<int64_t>(gears[0].dims, gears[0].dims + 3),
              (std::vector<int64_t>{3, 4, 5}));
    ASSERT_EQ(gears[1].dimCount, 3u);
    EXPECT_EQ(std::vector<int64_t>(gears[1].dims, gears[1].dims + 3),
              (std::vector<int64_t>{2, 4, 7}));
    EXPECT_EQ(aclmdlGetInputDynamicDims(desc_, static_cast<size_t>(-1), gears, 1),
              ACL_ERROR_INVALID_PARAM)
        << "gearCount must be the model's";
    EXPECT_EQ(aclmdlGetInputSizeByIndex(desc_, 0), 3u * 4 * 5 * sizeof(float))
        << "sized for the largest gear (3x4x5 holds more than 2x4x7)";
}

TEST_F(DynamicDimsTest, TheRangeOfEachDimSpansTheGears) {
    aclmdlIODimsRange range;
    ASSERT_EQ(aclmdlGetInputDimsRange(desc_, 0, &range), ACL_SUCCESS);
    ASSERT_EQ(range.rangeCount, 3u);
    EXPECT_EQ(range.range[0][0], 2);
    EXPECT_EQ(range.range[0][1], 3);
    EXPECT_EQ(range.range[1][0], 4);
    EXPECT_EQ(range.range[1][1], 4);
    EXPECT_EQ(range.range[2][0], 5);
    EXPECT_EQ(range.range[2][1], 7);
}

TEST_F(DynamicDimsTest, ExecuteRunsTheGearChosen) {
    const size_t in_size = aclmdlGetInputSizeByIndex(desc_, 0);
    std::vector<float> x = Iota(2 * 4 * 7, -20);
    void* in = Device(in_size);
    ASSERT_EQ(aclrtMemcpy(in, in_size, x.data(), x.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    void* out = Device(in_size);
    aclmdlDataset* inputs = Dataset({{in, in_size}, {Device(16), 16}});
    aclmdlDataset* outputs = Dataset({{out, in_size}});
    EXPECT_EQ(aclmdlExecute(id_, inputs, outputs), ACL_ERROR_INVALID_PARAM) << "no gear chosen yet";
    const aclmdlIODims gear = Gear({2, 4, 7});
    ASSERT_EQ(aclmdlSetInputDynamicDims(id_, inputs, dynamic_, &gear), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(aclmdlExecute(id_, inputs, outputs), ACL_SUCCESS) << aclGetRecentErrMsg();
    aclmdlIODims dims;
    ASSERT_EQ(aclmdlGetCurOutputDims(desc_, 0, &dims), ACL_SUCCESS);
    EXPECT_EQ(std::vector<int64_t>(dims.dims, dims.dims + dims.dimCount),
              (std::vector<int64_t>{2, 4, 7}));
    std::vector<float> y = Download<float>(out, x.size());
    for (size_t i = 0; i < x.size(); ++i)
        EXPECT_EQ(y[i], std::max(x[i], 0.0f)) << i;
}

TEST_F(DynamicDimsTest, ADimsListThatIsNoGearIsRefused) {
    aclmdlDataset* inputs = Dataset({{Device(256), 256}, {Device(16), 16}});
    const aclmdlIODims partial = Gear({2, 7});
    EXPECT_EQ(aclmdlSetInputDynamicDims(id_, inputs, dynamic_, &partial), ACL_ERROR_INVALID_PARAM);
    const aclmdlIODims other = Gear({2, 4, 5});
    EXPECT_EQ(aclmdlSetInputDynamicDims(id_, inputs, dynamic_, &other), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclmdlSetInputDynamicDims(id_, inputs, dynamic_, nullptr), ACL_ERROR_INVALID_PARAM);
    const aclmdlIODims gear = Gear({3, 4, 5});
    EXPECT_EQ(aclmdlSetInputDynamicDims(id_, inputs, 0, &gear), ACL_ERROR_INVALID_PARAM)
        << "index must name the dynamic tensor input";
}

TEST_F(AtcModelTest, AModelWithoutDimsGearsHasNone) {
    uint32_t id = Load(Convert(TestModel("node/test_relu"), "", "static"));
    size_t count = 7;
    ASSERT_EQ(aclmdlGetInputDynamicGearCount(desc_, static_cast<size_t>(-1), &count), ACL_SUCCESS);
    EXPECT_EQ(count, 0u);
    aclmdlIODims dims;
    EXPECT_EQ(aclmdlGetInputDynamicDims(desc_, static_cast<size_t>(-1), &dims, 0),
              ACL_ERROR_INVALID_PARAM);
    aclmdlIODimsRange range;
    ASSERT_EQ(aclmdlGetInputDimsRange(desc_, 0, &range), ACL_SUCCESS);
    EXPECT_EQ(range.range[2][0], 5);
    EXPECT_EQ(range.range[2][1], 5);
    EXPECT_STREQ(aclmdlGetTensorRealName(desc_, "x"), "x");
    EXPECT_EQ(aclmdlGetTensorRealName(desc_, "no_such_tensor"), nullptr);
    aclmdlUnload(id);
}

TEST_F(AtcModelTest, SetDynamicBatchSizeOnAStaticModelReportsInvalidParam) {
    uint32_t id = 0;
    ASSERT_EQ(aclmdlLoadFromFile(TestModel("node/test_relu").c_str(), &id), ACL_SUCCESS);
    aclmdlDataset* in = Dataset({{Device(240), 240}});
    EXPECT_EQ(aclmdlSetDynamicBatchSize(id, in, 0, 1), ACL_ERROR_INVALID_PARAM);
    aclmdlUnload(id);
}

TEST_F(AtcModelTest, DamagedOmReportsParseModel) {
    std::string om = Convert(TestModel("node/test_relu"), "", "damaged");
    files_.push_back(om);
    FILE* f = std::fopen(om.c_str(), "r+b");
    ASSERT_NE(f, nullptr);
    std::fseek(f, 100, SEEK_SET);
    std::fputc(0x5a, f);
    std::fclose(f);
    uint32_t id = 0;
    EXPECT_EQ(aclmdlLoadFromFile(om.c_str(), &id), ACL_ERROR_PARSE_MODEL);
    EXPECT_THAT_MESSAGE_CONTAINS(".om model is damaged");
}

// CRC-32 as docs/OM_FORMAT.md specifies it, to re-seal an image damaged on purpose.
uint32_t Crc32(const std::string& bytes) {
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < bytes.size(); ++i) {
        if (i >= 60 && i < 64) continue;  // the checksum field itself
        crc ^= static_cast<uint8_t>(bytes[i]);
        for (int k = 0; k < 8; ++k)
            crc = (crc & 1) ? (crc >> 1) ^ 0xEDB88320u : crc >> 1;
    }
    return ~crc;
}

TEST_F(AtcModelTest, DamagedCompiledPlanIsRefusedAtLoad) {
    // A sealed .om whose plan section lies: its tensor count exceeds the plan's bytes.
    std::string om = Convert(TestModel("node/test_relu"), "", "plan");
    files_.push_back(om);
    std::string image;
    {
        std::ifstream in(om, std::ios::binary);
        image.assign(std::istreambuf_iterator<char>(in), {});
    }
    ASSERT_GE(image.size(), 80u);
    uint64_t plan_offset = 0;
    std::memcpy(&plan_offset, image.data() + 64, 8);
    ASSERT_GT(plan_offset, 0u) << "atc compiled no plan for Relu";
    ASSERT_LT(plan_offset + 12, image.size());
    image[plan_offset + 8] = '\xff';  // tensor count, after "OAPL" and the version
    image[plan_offset + 11] = '\x7f';
    const uint32_t crc = Crc32(image);
    std::memcpy(image.data() + 60, &crc, 4);
    uint32_t id = 0;
    EXPECT_EQ(aclmdlLoadFromMem(image.data(), image.size(), &id), ACL_ERROR_PARSE_MODEL);
    EXPECT_THAT_MESSAGE_CONTAINS("compiled plan is damaged");
}

}  // namespace
