// Models on the CUDA backend: a small ONNX graph, converted by atc to .om and also loaded as
// ONNX, runs with aclmdlExecute and aclmdlExecuteAsync on device buffers and gives the host
// reference's numbers.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "gpu_test_support.h"
#include "onnx_builder.h"

using namespace gpu_test;

namespace {

constexpr int64_t kRows = 3, kIn = 8, kOut = 5;

std::vector<float> Values(size_t n, float scale, float shift) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = scale * static_cast<float>((i * 37) % 17) + shift;
    return v;
}

// y = Relu(x W + b): the graph and its host reference.
struct Dense {
    std::vector<float> w = Values(kIn * kOut, 0.125f, -1.0f);
    std::vector<float> b = Values(kOut, 0.5f, -2.0f);

    std::string Onnx() const {
        return test_onnx::Builder()
            .Input("x", {kRows, kIn})
            .Output("y", {kRows, kOut})
            .Weight("w", {kIn, kOut}, w)
            .Weight("b", {kOut}, b)
            .Node("MatMul", {"x", "w"}, {"xw"})
            .Node("Add", {"xw", "b"}, {"xwb"})
            .Node("Relu", {"xwb"}, {"y"})
            .Bytes();
    }
    std::vector<float> Reference(const std::vector<float>& x) const {
        std::vector<float> y(kRows * kOut);
        for (int64_t r = 0; r < kRows; ++r) {
            for (int64_t c = 0; c < kOut; ++c) {
                double sum = b[c];
                for (int64_t k = 0; k < kIn; ++k)
                    sum += static_cast<double>(x[r * kIn + k]) * w[k * kOut + c];
                y[r * kOut + c] = std::max(0.0f, static_cast<float>(sum));
            }
        }
        return y;
    }
};

class GpuModel : public GpuTest {
 protected:
    void TearDown() override {
        for (const auto& f : files_)
            std::remove(f.c_str());
        GpuTest::TearDown();
    }
    std::string WriteTemp(const std::string& bytes, const std::string& suffix) {
        std::string path = "/tmp/openacl-gpu-model-" + std::to_string(getpid()) + suffix;
        std::ofstream(path, std::ios::binary) << bytes;
        files_.push_back(path);
        return path;
    }
    // atc --framework=5 (ONNX) -> .om, as applications prepare models.
    std::string ConvertToOm(const std::string& onnx_path) {
        const std::string output = "/tmp/openacl-gpu-model-" + std::to_string(getpid()) + "-om";
        const std::string command = std::string(OPENACL_ATC) + " --model=" + onnx_path +
                                    " --framework=5 --soc_version=Ascend310P3 --log=error" +
                                    " --output=" + output + " > /dev/null";
        EXPECT_EQ(std::system(command.c_str()), 0) << command;
        files_.push_back(output + ".om");
        return output + ".om";
    }
    // Runs the model once on x (through device buffers) and returns y.
    std::vector<float> Run(uint32_t id, const std::vector<float>& x, bool async) {
        DeviceBuffer in(x.size() * sizeof(float)), out(kRows * kOut * sizeof(float));
        Upload(in.get(), x);
        aclmdlDataset* inputs = aclmdlCreateDataset();
        aclmdlDataset* outputs = aclmdlCreateDataset();
        aclDataBuffer* in_buffer = aclCreateDataBuffer(in.get(), in.size());
        aclDataBuffer* out_buffer = aclCreateDataBuffer(out.get(), out.size());
        EXPECT_EQ(aclmdlAddDatasetBuffer(inputs, in_buffer), ACL_SUCCESS);
        EXPECT_EQ(aclmdlAddDatasetBuffer(outputs, out_buffer), ACL_SUCCESS);
        if (async) {
            EXPECT_EQ(aclmdlExecuteAsync(id, inputs, outputs, stream_), ACL_SUCCESS)
                << RecentMessage();
            EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentMessage();
        } else {
            EXPECT_EQ(aclmdlExecute(id, inputs, outputs), ACL_SUCCESS) << RecentMessage();
        }
        std::vector<float> y = Download<float>(out.get(), kRows * kOut);
        aclDestroyDataBuffer(in_buffer);
        aclDestroyDataBuffer(out_buffer);
        aclmdlDestroyDataset(inputs);
        aclmdlDestroyDataset(outputs);
        return y;
    }
    void ExpectNear(const std::vector<float>& got, const std::vector<float>& want) {
        ASSERT_EQ(got.size(), want.size());
        for (size_t i = 0; i < got.size(); ++i)
            EXPECT_NEAR(got[i], want[i], 1e-4f * (1.0f + std::fabs(want[i]))) << "element " << i;
    }

    Dense dense_;
    std::vector<float> x_ = Values(kRows * kIn, 0.25f, -1.5f);

 private:
    std::vector<std::string> files_;
};

TEST_F(GpuModel, OmFromAtcExecutesLikeTheHostReference) {
    const std::string om = ConvertToOm(WriteTemp(dense_.Onnx(), ".onnx"));
    uint32_t id = 0;
    ASSERT_EQ(aclmdlLoadFromFile(om.c_str(), &id), ACL_SUCCESS) << om << ": " << RecentMessage();
    ExpectNear(Run(id, x_, false), dense_.Reference(x_));
    ACL_EXPECT(aclmdlUnload(id));
}

TEST_F(GpuModel, OnnxFromMemoryExecutesAsyncLikeTheHostReference) {
    const std::string bytes = dense_.Onnx();
    uint32_t id = 0;
    ASSERT_EQ(aclmdlLoadFromMem(bytes.data(), bytes.size(), &id), ACL_SUCCESS) << RecentMessage();
    ExpectNear(Run(id, x_, true), dense_.Reference(x_));
    // A second run with other inputs: nothing is left over from the first.
    const std::vector<float> x2 = Values(kRows * kIn, -0.5f, 2.0f);
    ExpectNear(Run(id, x2, true), dense_.Reference(x2));
    ACL_EXPECT(aclmdlUnload(id));
}

}  // namespace
