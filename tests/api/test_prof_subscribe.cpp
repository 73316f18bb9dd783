// Operator subscriptions (aclprofModelSubscribe): after each execution of a subscribed model,
// one record per layer it ran arrives on the subscriber's pipe, read back with aclprofGetOp*.
#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "onnx_builder.h"
#include "test_support.h"

namespace {

constexpr int kWidth = 8;

class ProfSubscribe : public InitializedDeviceTest {
 protected:
    void SetUp() override {
        InitializedDeviceTest::SetUp();
        ASSERT_EQ(pipe(fds_), 0);
        fcntl(fds_[0], F_SETFL, O_NONBLOCK);  // the tests read what is there, never wait
        test_onnx::Builder builder;
        builder.Input("x", {1, kWidth}).Output("y", {1, kWidth});
        builder.Node("Mul", {"x", "x"}, {"t"}).Name("sq");
        builder.Node("Softmax", {"t"}, {"y"}).Name("soft");
        bytes_ = builder.Bytes();
        ASSERT_EQ(aclmdlLoadFromMem(bytes_.data(), bytes_.size(), &model_), ACL_SUCCESS)
            << aclGetRecentErrMsg();
        ASSERT_EQ(aclprofGetOpDescSize(&record_), ACL_SUCCESS);
        const size_t bytes_io = kWidth * sizeof(float);
        aclrtMalloc(&x_, bytes_io, ACL_MEM_MALLOC_HUGE_FIRST);
        aclrtMalloc(&y_, bytes_io, ACL_MEM_MALLOC_HUGE_FIRST);
        aclrtMemset(x_, bytes_io, 0, bytes_io);
        in_ = aclmdlCreateDataset();
        out_ = aclmdlCreateDataset();
        xb_ = aclCreateDataBuffer(x_, bytes_io);
        yb_ = aclCreateDataBuffer(y_, bytes_io);
        aclmdlAddDatasetBuffer(in_, xb_);
        aclmdlAddDatasetBuffer(out_, yb_);
    }
    void TearDown() override {
        if (config_) aclprofDestroySubscribeConfig(config_);
        aclmdlUnload(model_);
        aclDestroyDataBuffer(xb_);
        aclDestroyDataBuffer(yb_);
        aclmdlDestroyDataset(in_);
        aclmdlDestroyDataset(out_);
        aclrtFree(x_);
        aclrtFree(y_);
        if (fds_[0] >= 0) close(fds_[0]);
        if (!handed_over_) close(fds_[1]);  // a subscription's write end is the runtime's to close
        InitializedDeviceTest::TearDown();
    }
    void Subscribe(int8_t time_info = 1) {
        config_ = aclprofCreateSubscribeConfig(time_info, ACL_AICORE_NONE, &fds_[1]);
        ASSERT_NE(config_, nullptr) << aclGetRecentErrMsg();
        ASSERT_EQ(aclprofModelSubscribe(model_, config_), ACL_SUCCESS) << aclGetRecentErrMsg();
        handed_over_ = true;
    }
    void Execute() {
        ASSERT_EQ(aclmdlExecute(model_, in_, out_), ACL_SUCCESS) << aclGetRecentErrMsg();
    }
    // Whatever the pipe holds now.
    std::string Drain() {
        std::string bytes;
        char buffer[4096];
        ssize_t n;
        while ((n = read(fds_[0], buffer, sizeof buffer)) > 0)
            bytes.append(buffer, static_cast<size_t>(n));
        return bytes;
    }
    std::string Name(const std::string& info, uint32_t index) {
        size_t length = 0;
        EXPECT_EQ(aclprofGetOpNameLen(info.data(), info.size(), index, &length), ACL_SUCCESS);
        std::string name(length, '\0');
        EXPECT_EQ(aclprofGetOpName(info.data(), info.size(), index, name.data(), length),
                  ACL_SUCCESS);
        return name.c_str();
    }
    std::string Type(const std::string& info, uint32_t index) {
        size_t length = 0;
        EXPECT_EQ(aclprofGetOpTypeLen(info.data(), info.size(), index, &length), ACL_SUCCESS);
        std::string type(length, '\0');
        EXPECT_EQ(aclprofGetOpType(info.data(), info.size(), index, type.data(), length),
                  ACL_SUCCESS);
        return type.c_str();
    }

    int fds_[2] = {-1, -1};
    bool handed_over_ = false;
    std::string bytes_;
    uint32_t model_ = 0;
    size_t record_ = 0;
    aclprofSubscribeConfig* config_ = nullptr;
    void* x_ = nullptr;
    void* y_ = nullptr;
    aclmdlDataset* in_ = nullptr;
    aclmdlDataset* out_ = nullptr;
    aclDataBuffer* xb_ = nullptr;
    aclDataBuffer* yb_ = nullptr;
};

TEST_F(ProfSubscribe, EachExecutionWritesOneRecordPerLayer) {
    Subscribe();
    Execute();
    const std::string info = Drain();
    ASSERT_EQ(info.size(), 2 * record_);
    uint32_t count = 0;
    ASSERT_EQ(aclprofGetOpNum(info.data(), info.size(), &count), ACL_SUCCESS);
    EXPECT_EQ(count, 2u);
    EXPECT_EQ(Name(info, 0), "sq");
    EXPECT_EQ(Type(info, 0), "Binary");
    EXPECT_EQ(Name(info, 1), "soft");
    EXPECT_EQ(Type(info, 1), "Softmax");
    Execute();
    EXPECT_EQ(Drain().size(), 2 * record_);
}

TEST_F(ProfSubscribe, RecordsCarryTimesModelFlagAndThread) {
    Subscribe();
    Execute();
    const std::string info = Drain();
    ASSERT_EQ(info.size(), 2 * record_);
    for (uint32_t i = 0; i < 2; ++i) {
        const uint64_t start = aclprofGetOpStart(info.data(), info.size(), i);
        const uint64_t end = aclprofGetOpEnd(info.data(), info.size(), i);
        EXPECT_GT(start, 0u);
        EXPECT_GE(end, start);
        EXPECT_EQ(aclprofGetOpDuration(info.data(), info.size(), i), end - start);
        EXPECT_EQ(aclprofGetModelId(info.data(), info.size(), i), model_);
        EXPECT_EQ(aclprofGetOpFlag(info.data(), info.size(), i), ACL_SUBSCRIBE_OP);
        const char* thread =
            aclprofGetOpAttriValue(info.data(), info.size(), i, ACL_SUBSCRIBE_ATTRI_THREADID);
        ASSERT_NE(thread, nullptr);
        EXPECT_TRUE(std::isdigit(static_cast<unsigned char>(thread[0]))) << thread;
    }
    // The second layer starts after the first ends.
    EXPECT_GE(aclprofGetOpStart(info.data(), info.size(), 1),
              aclprofGetOpEnd(info.data(), info.size(), 0));
}

TEST_F(ProfSubscribe, WithoutTimeInfoTheTimesAreZero) {
    Subscribe(0);
    Execute();
    const std::string info = Drain();
    ASSERT_EQ(info.size(), 2 * record_);
    EXPECT_EQ(aclprofGetOpStart(info.data(), info.size(), 0), 0u);
    EXPECT_EQ(aclprofGetOpDuration(info.data(), info.size(), 0), 0u);
    EXPECT_EQ(Name(info, 0), "sq");
}

TEST_F(ProfSubscribe, AnAsynchronousExecutionWritesItsRecordsWhenItRuns) {
    Subscribe();
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ASSERT_EQ(aclmdlExecuteAsync(model_, in_, out_, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(Drain().size(), 2 * record_);
    aclrtDestroyStream(stream);
}

TEST_F(ProfSubscribe, AfterUnsubscribeNothingIsWritten) {
    Subscribe();
    ASSERT_EQ(aclprofModelUnSubscribe(model_), ACL_SUCCESS);
    Execute();
    EXPECT_TRUE(Drain().empty());
}

TEST_F(ProfSubscribe, UnsubscribeClosesTheWriteEndSoTheReaderSeesTheEnd) {
    Subscribe();
    Execute();
    ASSERT_EQ(aclprofModelUnSubscribe(model_), ACL_SUCCESS);
    EXPECT_EQ(Drain().size(), 2 * record_) << "what was sent stays readable";
    char byte = 0;
    EXPECT_EQ(read(fds_[0], &byte, 1), 0) << "end of file: no writer is left";
}

TEST_F(ProfSubscribe, UnloadingTheModelEndsItsSubscription) {
    Subscribe();
    ASSERT_EQ(aclmdlUnload(model_), ACL_SUCCESS);
    char byte = 0;
    EXPECT_EQ(read(fds_[0], &byte, 1), 0);
    EXPECT_EQ(aclprofModelUnSubscribe(model_), ACL_ERROR_INVALID_MODEL_ID);
    ASSERT_EQ(aclmdlLoadFromMem(bytes_.data(), bytes_.size(), &model_), ACL_SUCCESS);
}

TEST_F(ProfSubscribe, SubscribingTwiceIsRefused) {
    Subscribe();
    EXPECT_EQ(aclprofModelSubscribe(model_, config_), ACL_ERROR_PROF_REPEAT_SUBSCRIBE);
}

TEST_F(ProfSubscribe, AnUnknownModelCannotBeSubscribed) {
    config_ = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds_[1]);
    EXPECT_EQ(aclprofModelSubscribe(model_ + 1000, config_), ACL_ERROR_INVALID_MODEL_ID);
    EXPECT_EQ(aclprofModelUnSubscribe(model_), ACL_ERROR_INVALID_MODEL_ID);
}

TEST_F(ProfSubscribe, AReaderThatWentAwayDoesNotStopTheModel) {
    Subscribe();
    close(fds_[0]);
    fds_[0] = -1;
    Execute();  // writing to a pipe without a reader raises SIGPIPE: it must be absorbed
    Execute();
}

TEST_F(ProfSubscribe, TheReadersCheckTheBufferAndIndex) {
    Subscribe();
    Execute();
    const std::string info = Drain();
    uint32_t count = 0;
    EXPECT_EQ(aclprofGetOpNum(info.data(), info.size() - 1, &count), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("aclprofGetOpDescSize");
    size_t length = 0;
    EXPECT_EQ(aclprofGetOpNameLen(info.data(), info.size(), 2, &length), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("index 2");
    std::string garbage(record_, 'x');
    EXPECT_EQ(aclprofGetOpNum(garbage.data(), garbage.size(), &count), ACL_ERROR_INVALID_PARAM);
    char small[2];
    EXPECT_EQ(aclprofGetOpName(info.data(), info.size(), 1, small, sizeof small),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("too small");
    EXPECT_EQ(aclprofGetOpStart(info.data(), info.size(), 5), 0u);
    EXPECT_EQ(aclprofGetOpAttriValue(info.data(), info.size(), 0, ACL_SUBSCRIBE_ATTRI_NONE),
              nullptr);
}

TEST_F(ProfSubscribe, AConfigNeedsAValidSwitchMetricsAndDescriptor) {
    EXPECT_EQ(aclprofCreateSubscribeConfig(2, ACL_AICORE_NONE, &fds_[1]), nullptr);
    EXPECT_EQ(aclprofCreateSubscribeConfig(1, static_cast<aclprofAicoreMetrics>(42), &fds_[1]),
              nullptr);
    EXPECT_EQ(aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, nullptr), nullptr);
    int closed = 1000;
    EXPECT_EQ(aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &closed), nullptr);
    EXPECT_THAT_MESSAGE_CONTAINS("not an open file descriptor");
}

TEST_F(ProfSubscribe, AConfigIsDestroyedOnce) {
    aclprofSubscribeConfig* config = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds_[1]);
    ASSERT_NE(config, nullptr);
    EXPECT_EQ(aclprofDestroySubscribeConfig(config), ACL_SUCCESS);
    EXPECT_EQ(aclprofDestroySubscribeConfig(config), ACL_ERROR_INVALID_PARAM);
}

}  // namespace

namespace {

// A graph the compiled engine does not take runs on OpenCV DNN, which reports no layers: the
// whole graph is one operator.
TEST(ProfSubscribeOpenCv, AnEngineWithoutLayersReportsTheWholeGraph) {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    test_onnx::Builder builder;
    builder.Input("x", {1, kWidth}).Output("y", {1, kWidth}).Node("Sin", {"x"}, {"y"});
    const std::string bytes = builder.Bytes();
    uint32_t model = 0;
    ASSERT_EQ(aclmdlLoadFromMem(bytes.data(), bytes.size(), &model), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    fcntl(fds[0], F_SETFL, O_NONBLOCK);
    aclprofSubscribeConfig* config = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds[1]);
    ASSERT_EQ(aclprofModelSubscribe(model, config), ACL_SUCCESS);
    void* x = nullptr;
    void* y = nullptr;
    aclrtMalloc(&x, kWidth * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&y, kWidth * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclmdlDataset* in = aclmdlCreateDataset();
    aclmdlDataset* out = aclmdlCreateDataset();
    aclDataBuffer* xb = aclCreateDataBuffer(x, kWidth * 4);
    aclDataBuffer* yb = aclCreateDataBuffer(y, kWidth * 4);
    aclmdlAddDatasetBuffer(in, xb);
    aclmdlAddDatasetBuffer(out, yb);
    ASSERT_EQ(aclmdlExecute(model, in, out), ACL_SUCCESS) << aclGetRecentErrMsg();
    std::string info(4096, '\0');
    const ssize_t n = read(fds[0], info.data(), info.size());
    size_t record = 0;
    aclprofGetOpDescSize(&record);
    ASSERT_EQ(n, static_cast<ssize_t>(record));
    info.resize(static_cast<size_t>(n));
    char type[16];
    ASSERT_EQ(aclprofGetOpType(info.data(), info.size(), 0, type, sizeof type), ACL_SUCCESS);
    EXPECT_STREQ(type, "Graph");
    EXPECT_GT(aclprofGetOpDuration(info.data(), info.size(), 0), 0u);
    aclprofDestroySubscribeConfig(config);
    aclmdlUnload(model);
    aclDestroyDataBuffer(xb);
    aclDestroyDataBuffer(yb);
    aclmdlDestroyDataset(in);
    aclmdlDestroyDataset(out);
    aclrtFree(x);
    aclrtFree(y);
    close(fds[0]);  // the write end went with the subscription, at the unload
    aclFinalize();
}

}  // namespace
