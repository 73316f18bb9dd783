// TDT data channels (acl/acl_tdt.h): what a send puts on a channel, a receive on that channel
// takes off, once and in order; capacities, timeouts, stops and destroys; items and datasets.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_tdt.h"
#include "test_support.h"

namespace {

using namespace std::chrono_literals;

// The data of one item to send: its type, shape, element type and bytes.
struct ItemSpec {
    acltdtTensorType type = ACL_TENSOR_DATA_TENSOR;
    std::vector<int64_t> dims;
    aclDataType data_type = ACL_FLOAT;
    std::vector<uint8_t> bytes;
};

template <typename T>
ItemSpec Tensor(std::vector<int64_t> dims, aclDataType data_type, std::vector<T> values) {
    ItemSpec spec{ACL_TENSOR_DATA_TENSOR, std::move(dims), data_type, {}};
    spec.bytes.resize(values.size() * sizeof(T));
    if (!values.empty()) std::memcpy(spec.bytes.data(), values.data(), spec.bytes.size());
    return spec;
}

ItemSpec Marker(acltdtTensorType type) {
    return ItemSpec{type, {}, ACL_DT_UNDEFINED, {}};
}

// A dataset the program fills, with its items and their data, all freed at scope exit.
class SendSet {
 public:
    explicit SendSet(std::vector<ItemSpec> specs) : specs_(std::move(specs)) {
        dataset_ = acltdtCreateDataset();
        EXPECT_NE(dataset_, nullptr);
        for (ItemSpec& spec : specs_) {
            const bool tensor = spec.type == ACL_TENSOR_DATA_TENSOR;
            acltdtDataItem* item = acltdtCreateDataItem(
                spec.type, tensor && !spec.dims.empty() ? spec.dims.data() : nullptr,
                tensor ? spec.dims.size() : 0, spec.data_type,
                spec.bytes.empty() ? nullptr : spec.bytes.data(), spec.bytes.size());
            EXPECT_NE(item, nullptr);
            items_.push_back(item);
            EXPECT_EQ(acltdtAddDataItem(dataset_, item), ACL_SUCCESS);
        }
    }
    ~SendSet() {
        acltdtDestroyDataset(dataset_);
        for (acltdtDataItem* item : items_)
            acltdtDestroyDataItem(item);
    }
    SendSet(const SendSet&) = delete;
    SendSet& operator=(const SendSet&) = delete;

    acltdtDataset* get() const { return dataset_; }
    std::vector<ItemSpec>& specs() { return specs_; }
    acltdtDataItem* item(size_t i) const { return items_[i]; }

 private:
    std::vector<ItemSpec> specs_;
    acltdtDataset* dataset_ = nullptr;
    std::vector<acltdtDataItem*> items_;
};

// A dataset to receive into, freed (with what it received) at scope exit.
class ReceiveSet {
 public:
    ReceiveSet() : dataset_(acltdtCreateDataset()) { EXPECT_NE(dataset_, nullptr); }
    ~ReceiveSet() { acltdtDestroyDataset(dataset_); }
    ReceiveSet(const ReceiveSet&) = delete;
    ReceiveSet& operator=(const ReceiveSet&) = delete;
    acltdtDataset* get() const { return dataset_; }

 private:
    acltdtDataset* dataset_;
};

// Expects that `item` is what `spec` describes.
void ExpectItem(const acltdtDataItem* item, const ItemSpec& spec) {
    ASSERT_NE(item, nullptr);
    EXPECT_EQ(acltdtGetTensorTypeFromItem(item), spec.type);
    EXPECT_EQ(acltdtGetDataTypeFromItem(item), spec.data_type);
    ASSERT_EQ(acltdtGetDimNumFromItem(item), spec.dims.size());
    std::vector<int64_t> dims(spec.dims.size() + 1, -7);
    EXPECT_EQ(acltdtGetDimsFromItem(item, dims.data(), dims.size()), ACL_SUCCESS);
    dims.pop_back();
    EXPECT_EQ(dims, spec.dims);
    ASSERT_EQ(acltdtGetDataSizeFromItem(item), spec.bytes.size());
    if (!spec.bytes.empty()) {
        const auto* data = static_cast<const uint8_t*>(acltdtGetDataAddrFromItem(item));
        ASSERT_NE(data, nullptr);
        EXPECT_EQ(std::vector<uint8_t>(data, data + spec.bytes.size()), spec.bytes);
    }
}

// One int32 tensor, for tests that count datasets.
SendSet* NewNumbered(int32_t value) {
    return new SendSet({Tensor<int32_t>({1}, ACL_INT32, {value})});
}

int32_t NumberIn(const acltdtDataset* dataset) {
    acltdtDataItem* item = acltdtGetDataItem(dataset, 0);
    if (item == nullptr || acltdtGetDataSizeFromItem(item) != sizeof(int32_t)) return -1;
    int32_t value = 0;
    std::memcpy(&value, acltdtGetDataAddrFromItem(item), sizeof value);
    return value;
}

// A channel of capacity 2 on device 0.
class TdtChannel : public DeviceTest {
 protected:
    void SetUp() override {
        DeviceTest::SetUp();
        channel_ = acltdtCreateChannelWithCapacity(0, "tdt_test", 2);
        ASSERT_NE(channel_, nullptr);
    }
    void TearDown() override {
        if (channel_ != nullptr) {
            EXPECT_EQ(acltdtStopChannel(channel_), ACL_SUCCESS);
            EXPECT_EQ(acltdtDestroyChannel(channel_), ACL_SUCCESS);
        }
        DeviceTest::TearDown();
    }
    // Fills the channel to its capacity.
    void Fill() {
        SendSet one({Tensor<int32_t>({1}, ACL_INT32, {1})});
        ASSERT_EQ(acltdtSendTensor(channel_, one.get(), 0), ACL_SUCCESS);
        ASSERT_EQ(acltdtSendTensor(channel_, one.get(), 0), ACL_SUCCESS);
    }

    acltdtChannelHandle* channel_ = nullptr;
};

// What a receive started on another thread returned, and after how long.
struct Outcome {
    aclError rc;
    std::chrono::steady_clock::duration took;
};

template <typename Fn>
std::future<Outcome> OnAnotherThread(Fn fn) {
    return std::async(std::launch::async, [fn] {
        const auto start = std::chrono::steady_clock::now();
        const aclError rc = fn();
        return Outcome{rc, std::chrono::steady_clock::now() - start};
    });
}

// Whether `future` is still running after a short while (it is blocked).
template <typename T>
bool StillBlocked(std::future<T>& future) {
    return future.wait_for(50ms) == std::future_status::timeout;
}

}  // namespace

// Round trips.

TEST_F(TdtChannel, ARoundTripCarriesTensorsOfSeveralTypesAndShapes) {
    SendSet sent({Tensor<float>({2, 3}, ACL_FLOAT, {1.5f, -2, 3, 4, 5, 6.25f}),
                  Tensor<int8_t>({4}, ACL_INT8, {-1, 2, -3, 4}),
                  Tensor<int64_t>({}, ACL_INT64, {int64_t{1} << 40}),
                  Tensor<uint16_t>({1, 2, 2}, ACL_UINT16, {1, 2, 65535, 4}),
                  Tensor<double>({0, 5}, ACL_DOUBLE, {}),
                  Tensor<uint8_t>({3}, ACL_BOOL, {1, 0, 1})});
    ASSERT_EQ(acltdtSendTensor(channel_, sent.get(), -1), ACL_SUCCESS);

    ReceiveSet received;
    ASSERT_EQ(acltdtReceiveTensor(channel_, received.get(), -1), ACL_SUCCESS);
    ASSERT_EQ(acltdtGetDatasetSize(received.get()), sent.specs().size());
    for (size_t i = 0; i < sent.specs().size(); ++i) {
        SCOPED_TRACE(i);
        ExpectItem(acltdtGetDataItem(received.get(), i), sent.specs()[i]);
    }
}

TEST_F(TdtChannel, ASendCopiesTheDataSoTheSenderMayReuseItsBuffer) {
    SendSet sent({Tensor<int32_t>({3}, ACL_INT32, {7, 8, 9})});
    ASSERT_EQ(acltdtSendTensor(channel_, sent.get(), 0), ACL_SUCCESS);
    const ItemSpec original = sent.specs()[0];
    std::fill(sent.specs()[0].bytes.begin(), sent.specs()[0].bytes.end(), 0xEE);

    ReceiveSet received;
    ASSERT_EQ(acltdtReceiveTensor(channel_, received.get(), 0), ACL_SUCCESS);
    acltdtDataItem* item = acltdtGetDataItem(received.get(), 0);
    ExpectItem(item, original);
    EXPECT_NE(acltdtGetDataAddrFromItem(item), sent.specs()[0].bytes.data());
}

TEST_F(TdtChannel, AnItemRefersToTheProgramsDataWithoutCopying) {
    std::vector<float> data = {1, 2};
    int64_t dims[] = {2};
    acltdtDataItem* item =
        acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_FLOAT, data.data(), 8);
    ASSERT_NE(item, nullptr);
    EXPECT_EQ(acltdtGetDataAddrFromItem(item), data.data());
    EXPECT_EQ(acltdtGetDataSizeFromItem(item), 8u);
    EXPECT_EQ(acltdtDestroyDataItem(item), ACL_SUCCESS);
}

TEST_F(TdtChannel, MarkersArriveWithoutDataOrShape) {
    SendSet sent({Marker(ACL_TENSOR_DATA_END_OF_SEQUENCE), Marker(ACL_TENSOR_DATA_ABNORMAL)});
    ASSERT_EQ(acltdtSendTensor(channel_, sent.get(), 0), ACL_SUCCESS);
    ReceiveSet received;
    ASSERT_EQ(acltdtReceiveTensor(channel_, received.get(), 0), ACL_SUCCESS);
    ASSERT_EQ(acltdtGetDatasetSize(received.get()), 2u);
    ExpectItem(acltdtGetDataItem(received.get(), 0), sent.specs()[0]);
    ExpectItem(acltdtGetDataItem(received.get(), 1), sent.specs()[1]);
    EXPECT_EQ(acltdtGetDataAddrFromItem(acltdtGetDataItem(received.get(), 0)), nullptr);
}

TEST_F(TdtChannel, AMarkerIgnoresTheDataItIsGiven) {
    int32_t value = 5;
    acltdtDataItem* item = acltdtCreateDataItem(ACL_TENSOR_DATA_END_OF_SEQUENCE, nullptr, 0,
                                                ACL_INT32, &value, sizeof value);
    ASSERT_NE(item, nullptr);
    EXPECT_EQ(acltdtGetDataAddrFromItem(item), nullptr);
    EXPECT_EQ(acltdtGetDataSizeFromItem(item), 0u);
    EXPECT_EQ(acltdtGetDataTypeFromItem(item), ACL_DT_UNDEFINED);
    EXPECT_EQ(acltdtDestroyDataItem(item), ACL_SUCCESS);
}

TEST_F(TdtChannel, DatasetsArriveInTheOrderTheyWereSent) {
    for (int32_t round = 0; round < 3; ++round) {
        std::unique_ptr<SendSet> a(NewNumbered(2 * round)), b(NewNumbered(2 * round + 1));
        ASSERT_EQ(acltdtSendTensor(channel_, a->get(), 0), ACL_SUCCESS);
        ASSERT_EQ(acltdtSendTensor(channel_, b->get(), 0), ACL_SUCCESS);
        ReceiveSet received;
        ASSERT_EQ(acltdtReceiveTensor(channel_, received.get(), 0), ACL_SUCCESS);
        EXPECT_EQ(NumberIn(received.get()), 2 * round);
        ASSERT_EQ(acltdtReceiveTensor(channel_, received.get(), 0), ACL_SUCCESS);
        EXPECT_EQ(NumberIn(received.get()), 2 * round + 1);
    }
}

TEST_F(TdtChannel, AReceiveReplacesWhatTheLastReceiveDelivered) {
    SendSet two({Tensor<int32_t>({1}, ACL_INT32, {1}), Tensor<int32_t>({1}, ACL_INT32, {2})});
    std::unique_ptr<SendSet> one(NewNumbered(3));
    ASSERT_EQ(acltdtSendTensor(channel_, two.get(), 0), ACL_SUCCESS);
    ASSERT_EQ(acltdtSendTensor(channel_, one->get(), 0), ACL_SUCCESS);
    ReceiveSet received;
    ASSERT_EQ(acltdtReceiveTensor(channel_, received.get(), 0), ACL_SUCCESS);
    ASSERT_EQ(acltdtGetDatasetSize(received.get()), 2u);
    ASSERT_EQ(acltdtReceiveTensor(channel_, received.get(), 0), ACL_SUCCESS);
    ASSERT_EQ(acltdtGetDatasetSize(received.get()), 1u);
    EXPECT_EQ(NumberIn(received.get()), 3);
}

TEST_F(TdtChannel, DeviceMemoryIsSentLikeHostMemory) {
    const std::vector<float> values = {0.5f, 1.5f, 2.5f, 3.5f};
    void* device = nullptr;
    ASSERT_EQ(aclrtMalloc(&device, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(device, 16, values.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    int64_t dims[] = {4};
    acltdtDataItem* item =
        acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_FLOAT, device, 16);
    acltdtDataset* dataset = acltdtCreateDataset();
    ASSERT_EQ(acltdtAddDataItem(dataset, item), ACL_SUCCESS);
    ASSERT_EQ(acltdtSendTensor(channel_, dataset, 0), ACL_SUCCESS);
    acltdtDestroyDataset(dataset);
    acltdtDestroyDataItem(item);
    aclrtFree(device);

    ReceiveSet received;
    ASSERT_EQ(acltdtReceiveTensor(channel_, received.get(), 0), ACL_SUCCESS);
    ExpectItem(acltdtGetDataItem(received.get(), 0), Tensor<float>({4}, ACL_FLOAT, values));
}

TEST_F(TdtChannel, AChannelWithoutCapacityCarriesDatasetsToo) {
    acltdtChannelHandle* channel = acltdtCreateChannel(0, "TF_RECEIVE_plain");
    ASSERT_NE(channel, nullptr);
    SendSet sent({Tensor<int16_t>({2}, ACL_INT16, {-5, 5})});
    for (int i = 0; i < 10; ++i)  // more than a sized channel's least capacity
        ASSERT_EQ(acltdtSendTensor(channel, sent.get(), 0), ACL_SUCCESS);
    ReceiveSet received;
    for (int i = 0; i < 10; ++i) {
        ASSERT_EQ(acltdtReceiveTensor(channel, received.get(), -1), ACL_SUCCESS);
        ExpectItem(acltdtGetDataItem(received.get(), 0), sent.specs()[0]);
    }
    EXPECT_EQ(acltdtStopChannel(channel), ACL_SUCCESS);
    EXPECT_EQ(acltdtDestroyChannel(channel), ACL_SUCCESS);
}

TEST_F(TdtChannel, ADatasetHasNoNameAndItsItemsAreWholeTensors) {
    SendSet sent({Tensor<int32_t>({1}, ACL_INT32, {1})});
    ASSERT_NE(acltdtGetDatasetName(sent.get()), nullptr);
    EXPECT_STREQ(acltdtGetDatasetName(sent.get()), "");
    size_t slice_num = 9, slice_id = 9;
    EXPECT_EQ(acltdtGetSliceInfoFromItem(sent.item(0), &slice_num, &slice_id), ACL_SUCCESS);
    EXPECT_EQ(slice_num, 0u);
    EXPECT_EQ(slice_id, 0u);

    ASSERT_EQ(acltdtSendTensor(channel_, sent.get(), 0), ACL_SUCCESS);
    ReceiveSet received;
    ASSERT_EQ(acltdtReceiveTensor(channel_, received.get(), 0), ACL_SUCCESS);
    EXPECT_STREQ(acltdtGetDatasetName(received.get()), "");
    slice_num = slice_id = 9;
    EXPECT_EQ(
        acltdtGetSliceInfoFromItem(acltdtGetDataItem(received.get(), 0), &slice_num, &slice_id),
        ACL_SUCCESS);
    EXPECT_EQ(slice_num, 0u);
    EXPECT_EQ(slice_id, 0u);
}

TEST_F(TdtChannel, TheProgramsItemsOutliveItsDataset) {
    int32_t value = 1;
    int64_t dims[] = {1};
    acltdtDataItem* item =
        acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_INT32, &value, sizeof value);
    acltdtDataset* dataset = acltdtCreateDataset();
    ASSERT_EQ(acltdtAddDataItem(dataset, item), ACL_SUCCESS);
    ASSERT_EQ(acltdtDestroyDataset(dataset), ACL_SUCCESS);
    EXPECT_EQ(acltdtGetDataAddrFromItem(item), &value);
    EXPECT_EQ(acltdtDestroyDataItem(item), ACL_SUCCESS);
}

// Capacity and timeouts.

TEST_F(TdtChannel, ASendBeyondCapacityWaitsForAReceive) {
    Fill();
    std::unique_ptr<SendSet> third(NewNumbered(3));
    auto send = OnAnotherThread([&] { return acltdtSendTensor(channel_, third->get(), -1); });
    ASSERT_TRUE(StillBlocked(send));
    ReceiveSet received;
    ASSERT_EQ(acltdtReceiveTensor(channel_, received.get(), 0), ACL_SUCCESS);
    EXPECT_EQ(send.get().rc, ACL_SUCCESS);
    size_t size = 0;
    EXPECT_EQ(acltdtQueryChannelSize(channel_, &size), ACL_SUCCESS);
    EXPECT_EQ(size, 2u);
}

TEST_F(TdtChannel, ASendToAFullChannelWithoutTimeoutFailsAtOnceWithQueueFull) {
    Fill();
    std::unique_ptr<SendSet> third(NewNumbered(3));
    EXPECT_EQ(acltdtSendTensor(channel_, third->get(), 0), ACL_ERROR_RT_QUEUE_FULL);
    EXPECT_THAT_MESSAGE_CONTAINS("is full");
}

TEST_F(TdtChannel, ASendToAFullChannelFailsWithQueueFullAfterItsTimeout) {
    Fill();
    std::unique_ptr<SendSet> third(NewNumbered(3));
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(acltdtSendTensor(channel_, third->get(), 30), ACL_ERROR_RT_QUEUE_FULL);
    EXPECT_GE(std::chrono::steady_clock::now() - start, 30ms);
    EXPECT_THAT_MESSAGE_CONTAINS("timeout of 30 ms");
    size_t size = 0;
    EXPECT_EQ(acltdtQueryChannelSize(channel_, &size), ACL_SUCCESS);
    EXPECT_EQ(size, 2u) << "a send that timed out added nothing";
}

TEST_F(TdtChannel, AReceiveFromAnEmptyChannelWithoutTimeoutFailsAtOnceWithQueueEmpty) {
    ReceiveSet received;
    EXPECT_EQ(acltdtReceiveTensor(channel_, received.get(), 0), ACL_ERROR_RT_QUEUE_EMPTY);
    EXPECT_THAT_MESSAGE_CONTAINS("is empty");
}

TEST_F(TdtChannel, AReceiveFromAnEmptyChannelFailsWithQueueEmptyAfterItsTimeout) {
    ReceiveSet received;
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(acltdtReceiveTensor(channel_, received.get(), 30), ACL_ERROR_RT_QUEUE_EMPTY);
    EXPECT_GE(std::chrono::steady_clock::now() - start, 30ms);
    EXPECT_EQ(acltdtGetDatasetSize(received.get()), 0u);
}

TEST_F(TdtChannel, AReceiveWaitsForASend) {
    ReceiveSet received;
    auto receive =
        OnAnotherThread([&] { return acltdtReceiveTensor(channel_, received.get(), -1); });
    ASSERT_TRUE(StillBlocked(receive));
    std::unique_ptr<SendSet> sent(NewNumbered(42));
    ASSERT_EQ(acltdtSendTensor(channel_, sent->get(), 0), ACL_SUCCESS);
    EXPECT_EQ(receive.get().rc, ACL_SUCCESS);
    EXPECT_EQ(NumberIn(received.get()), 42);
}

TEST_F(TdtChannel, AReceiveWithATimeoutTakesDataThatArrivesWithinIt) {
    ReceiveSet received;
    auto receive =
        OnAnotherThread([&] { return acltdtReceiveTensor(channel_, received.get(), 10000); });
    ASSERT_TRUE(StillBlocked(receive));
    std::unique_ptr<SendSet> sent(NewNumbered(5));
    ASSERT_EQ(acltdtSendTensor(channel_, sent->get(), 0), ACL_SUCCESS);
    const Outcome outcome = receive.get();
    EXPECT_EQ(outcome.rc, ACL_SUCCESS);
    EXPECT_LT(outcome.took, 5s);
    EXPECT_EQ(NumberIn(received.get()), 5);
}

TEST_F(TdtChannel, QueryChannelSizeCountsTheWaitingDatasets) {
    size_t size = 9;
    ASSERT_EQ(acltdtQueryChannelSize(channel_, &size), ACL_SUCCESS);
    EXPECT_EQ(size, 0u);
    std::unique_ptr<SendSet> sent(NewNumbered(1));
    ASSERT_EQ(acltdtSendTensor(channel_, sent->get(), 0), ACL_SUCCESS);
    ASSERT_EQ(acltdtQueryChannelSize(channel_, &size), ACL_SUCCESS);
    EXPECT_EQ(size, 1u);
    ReceiveSet received;
    ASSERT_EQ(acltdtReceiveTensor(channel_, received.get(), 0), ACL_SUCCESS);
    ASSERT_EQ(acltdtQueryChannelSize(channel_, &size), ACL_SUCCESS);
    EXPECT_EQ(size, 0u);
}

TEST_F(TdtChannel, CleanDropsTheWaitingDatasetsAndMakesRoom) {
    Fill();
    ASSERT_EQ(acltdtCleanChannel(channel_), ACL_SUCCESS);
    size_t size = 9;
    ASSERT_EQ(acltdtQueryChannelSize(channel_, &size), ACL_SUCCESS);
    EXPECT_EQ(size, 0u);
    ReceiveSet received;
    EXPECT_EQ(acltdtReceiveTensor(channel_, received.get(), 0), ACL_ERROR_RT_QUEUE_EMPTY);
    std::unique_ptr<SendSet> sent(NewNumbered(8));
    EXPECT_EQ(acltdtSendTensor(channel_, sent->get(), 0), ACL_SUCCESS);
}

TEST_F(TdtChannel, CleanWakesASenderWaitingForRoom) {
    Fill();
    std::unique_ptr<SendSet> third(NewNumbered(3));
    auto send = OnAnotherThread([&] { return acltdtSendTensor(channel_, third->get(), -1); });
    ASSERT_TRUE(StillBlocked(send));
    ASSERT_EQ(acltdtCleanChannel(channel_), ACL_SUCCESS);
    EXPECT_EQ(send.get().rc, ACL_SUCCESS);
    ReceiveSet received;
    ASSERT_EQ(acltdtReceiveTensor(channel_, received.get(), 0), ACL_SUCCESS);
    EXPECT_EQ(NumberIn(received.get()), 3);
}

// Stop and destroy.

TEST_F(TdtChannel, StopWakesABlockedReceiverWithQueueEmpty) {
    ReceiveSet received;
    auto receive =
        OnAnotherThread([&] { return acltdtReceiveTensor(channel_, received.get(), -1); });
    ASSERT_TRUE(StillBlocked(receive));
    ASSERT_EQ(acltdtStopChannel(channel_), ACL_SUCCESS);
    EXPECT_EQ(receive.get().rc, ACL_ERROR_RT_QUEUE_EMPTY);
}

TEST_F(TdtChannel, StopWakesABlockedSenderWithQueueFull) {
    Fill();
    std::unique_ptr<SendSet> third(NewNumbered(3));
    auto send = OnAnotherThread([&] { return acltdtSendTensor(channel_, third->get(), -1); });
    ASSERT_TRUE(StillBlocked(send));
    ASSERT_EQ(acltdtStopChannel(channel_), ACL_SUCCESS);
    EXPECT_EQ(send.get().rc, ACL_ERROR_RT_QUEUE_FULL);
}

TEST_F(TdtChannel, AStoppedChannelDeliversWhatItHoldsAndTakesNothingMore) {
    std::unique_ptr<SendSet> first(NewNumbered(1));
    ASSERT_EQ(acltdtSendTensor(channel_, first->get(), 0), ACL_SUCCESS);
    ASSERT_EQ(acltdtStopChannel(channel_), ACL_SUCCESS);
    EXPECT_EQ(acltdtSendTensor(channel_, first->get(), -1), ACL_ERROR_RT_QUEUE_FULL);
    EXPECT_THAT_MESSAGE_CONTAINS("was stopped");
    ReceiveSet received;
    ASSERT_EQ(acltdtReceiveTensor(channel_, received.get(), -1), ACL_SUCCESS);
    EXPECT_EQ(NumberIn(received.get()), 1);
    EXPECT_EQ(acltdtReceiveTensor(channel_, received.get(), -1), ACL_ERROR_RT_QUEUE_EMPTY);
    EXPECT_THAT_MESSAGE_CONTAINS("was stopped");
    EXPECT_EQ(acltdtStopChannel(channel_), ACL_SUCCESS) << "a second stop is harmless";
}

TEST_F(TdtChannel, DestroyWakesABlockedReceiver) {
    ReceiveSet received;
    auto receive =
        OnAnotherThread([&] { return acltdtReceiveTensor(channel_, received.get(), -1); });
    ASSERT_TRUE(StillBlocked(receive));
    ASSERT_EQ(acltdtDestroyChannel(channel_), ACL_SUCCESS);
    channel_ = nullptr;
    EXPECT_EQ(receive.get().rc, ACL_ERROR_RT_QUEUE_EMPTY);
}

TEST_F(TdtChannel, ADestroyedChannelIsRefused) {
    std::unique_ptr<SendSet> sent(NewNumbered(1));
    ASSERT_EQ(acltdtSendTensor(channel_, sent->get(), 0), ACL_SUCCESS);  // dropped by the destroy
    ASSERT_EQ(acltdtDestroyChannel(channel_), ACL_SUCCESS);
    ReceiveSet received;
    size_t size = 0;
    EXPECT_EQ(acltdtSendTensor(channel_, sent->get(), 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live channel");
    EXPECT_EQ(acltdtReceiveTensor(channel_, received.get(), 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(acltdtQueryChannelSize(channel_, &size), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(acltdtCleanChannel(channel_), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(acltdtStopChannel(channel_), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(acltdtDestroyChannel(channel_), ACL_ERROR_INVALID_PARAM);
    channel_ = nullptr;
}

// Threads.

TEST_F(TdtChannel, ProducersAndConsumersOnManyThreadsLoseAndDuplicateNothing) {
    constexpr int kProducers = 4, kConsumers = 3, kPerProducer = 300;
    std::vector<std::thread> threads;
    std::vector<std::vector<int32_t>> got(kConsumers);
    std::atomic<int> send_failures{0}, receive_failures{0};
    for (int c = 0; c < kConsumers; ++c) {
        threads.emplace_back([&, c] {
            ReceiveSet received;
            for (;;) {
                if (acltdtReceiveTensor(channel_, received.get(), -1) != ACL_SUCCESS) {
                    ++receive_failures;
                    return;
                }
                acltdtDataItem* item = acltdtGetDataItem(received.get(), 0);
                if (acltdtGetTensorTypeFromItem(item) == ACL_TENSOR_DATA_END_OF_SEQUENCE) return;
                got[c].push_back(NumberIn(received.get()));
            }
        });
    }
    std::vector<std::thread> producers;
    for (int p = 0; p < kProducers; ++p) {
        producers.emplace_back([&, p] {
            for (int i = 0; i < kPerProducer; ++i) {
                std::unique_ptr<SendSet> sent(NewNumbered(p * kPerProducer + i));
                if (acltdtSendTensor(channel_, sent->get(), -1) != ACL_SUCCESS) ++send_failures;
            }
        });
    }
    for (std::thread& producer : producers)
        producer.join();
    SendSet end({Marker(ACL_TENSOR_DATA_END_OF_SEQUENCE)});
    for (int c = 0; c < kConsumers; ++c)
        ASSERT_EQ(acltdtSendTensor(channel_, end.get(), -1), ACL_SUCCESS);
    for (std::thread& consumer : threads)
        consumer.join();

    EXPECT_EQ(send_failures.load(), 0);
    EXPECT_EQ(receive_failures.load(), 0);
    std::vector<int32_t> all;
    for (const auto& values : got)
        all.insert(all.end(), values.begin(), values.end());
    std::sort(all.begin(), all.end());
    ASSERT_EQ(all.size(), static_cast<size_t>(kProducers * kPerProducer));
    for (int32_t i = 0; i < kProducers * kPerProducer; ++i)
        ASSERT_EQ(all[i], i) << "lost or duplicated";
    // Each producer's datasets arrive in the order it sent them, whichever consumer took them.
    for (const auto& values : got) {
        for (size_t i = 1; i < values.size(); ++i) {
            if (values[i] / kPerProducer == values[i - 1] / kPerProducer) {
                EXPECT_LT(values[i - 1], values[i]);
            }
        }
    }
}

// Bad input: channels.

TEST_F(TdtChannel, CreateRefusesANullName) {
    EXPECT_EQ(acltdtCreateChannel(0, nullptr), nullptr);
    EXPECT_EQ(RecordedError(), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("name is null");
    EXPECT_EQ(acltdtCreateChannelWithCapacity(0, nullptr, 4), nullptr);
    EXPECT_EQ(RecordedError(), ACL_ERROR_INVALID_PARAM);
}

TEST_F(TdtChannel, CreateWithCapacityAcceptsOnlyCapacitiesFrom2To8192) {
    for (size_t capacity : {size_t{0}, size_t{1}, size_t{8193}, SIZE_MAX}) {
        SCOPED_TRACE(capacity);
        EXPECT_EQ(acltdtCreateChannelWithCapacity(0, "c", capacity), nullptr);
        EXPECT_EQ(RecordedError(), ACL_ERROR_INVALID_PARAM);
        EXPECT_THAT_MESSAGE_CONTAINS("out of range [2, 8192]");
    }
    for (size_t capacity : {size_t{2}, size_t{8192}}) {
        acltdtChannelHandle* channel = acltdtCreateChannelWithCapacity(0, "c", capacity);
        EXPECT_NE(channel, nullptr);
        EXPECT_EQ(acltdtDestroyChannel(channel), ACL_SUCCESS);
    }
}

TEST_F(TdtChannel, CreateWithCapacityRefusesANameLongerThan127Characters) {
    const std::string longest(127, 'n');
    acltdtChannelHandle* channel = acltdtCreateChannelWithCapacity(0, longest.c_str(), 2);
    EXPECT_NE(channel, nullptr);
    EXPECT_EQ(acltdtDestroyChannel(channel), ACL_SUCCESS);
    const std::string too_long(128, 'n');
    EXPECT_EQ(acltdtCreateChannelWithCapacity(0, too_long.c_str(), 2), nullptr);
    EXPECT_EQ(RecordedError(), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("128 characters long; the limit is 127");
}

TEST_F(TdtChannel, CreateRefusesADeviceThatDoesNotExist) {
    uint32_t count = 0;
    ASSERT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
    EXPECT_EQ(acltdtCreateChannel(count, "x"), nullptr);
    EXPECT_EQ(RecordedError(), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_EQ(acltdtCreateChannelWithCapacity(count, "x", 2), nullptr);
    EXPECT_EQ(RecordedError(), ACL_ERROR_RT_INVALID_DEVICEID);
}

TEST_F(TdtChannel, ChannelCallsRefuseNullAndForeignHandles) {
    int not_a_channel = 0;
    auto* foreign = reinterpret_cast<acltdtChannelHandle*>(&not_a_channel);
    std::unique_ptr<SendSet> sent(NewNumbered(1));
    ReceiveSet received;
    size_t size = 0;
    for (acltdtChannelHandle* handle : {static_cast<acltdtChannelHandle*>(nullptr), foreign}) {
        EXPECT_EQ(acltdtSendTensor(handle, sent->get(), 0), ACL_ERROR_INVALID_PARAM);
        EXPECT_THAT_MESSAGE_CONTAINS("handle");
        EXPECT_EQ(acltdtReceiveTensor(handle, received.get(), 0), ACL_ERROR_INVALID_PARAM);
        EXPECT_EQ(acltdtQueryChannelSize(handle, &size), ACL_ERROR_INVALID_PARAM);
        EXPECT_EQ(acltdtCleanChannel(handle), ACL_ERROR_INVALID_PARAM);
        EXPECT_EQ(acltdtStopChannel(handle), ACL_ERROR_INVALID_PARAM);
        EXPECT_EQ(acltdtDestroyChannel(handle), ACL_ERROR_INVALID_PARAM);
        EXPECT_THAT_MESSAGE_CONTAINS("handle");
    }
}

TEST_F(TdtChannel, SendAndReceiveRefuseNullForeignOrDestroyedDatasets) {
    int not_a_dataset = 0;
    auto* foreign = reinterpret_cast<acltdtDataset*>(&not_a_dataset);
    acltdtDataset* destroyed = acltdtCreateDataset();
    ASSERT_EQ(acltdtDestroyDataset(destroyed), ACL_SUCCESS);
    for (acltdtDataset* dataset : {static_cast<acltdtDataset*>(nullptr), foreign, destroyed}) {
        EXPECT_EQ(acltdtSendTensor(channel_, dataset, 0), ACL_ERROR_INVALID_PARAM);
        EXPECT_THAT_MESSAGE_CONTAINS("dataset");
        EXPECT_EQ(acltdtReceiveTensor(channel_, dataset, 0), ACL_ERROR_INVALID_PARAM);
        EXPECT_THAT_MESSAGE_CONTAINS("dataset");
    }
}

TEST_F(TdtChannel, SendAndReceiveRefuseATimeoutBelowMinusOne) {
    std::unique_ptr<SendSet> sent(NewNumbered(1));
    ReceiveSet received;
    EXPECT_EQ(acltdtSendTensor(channel_, sent->get(), -2), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("timeout -2 is invalid");
    EXPECT_EQ(acltdtReceiveTensor(channel_, received.get(), INT32_MIN), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is invalid");
}

TEST_F(TdtChannel, SendRefusesAnEmptyDataset) {
    ReceiveSet empty;
    EXPECT_EQ(acltdtSendTensor(channel_, empty.get(), 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("holds no items");
}

TEST_F(TdtChannel, SendRefusesItemsOnlyTheDeviceSideSends) {
    for (acltdtTensorType type :
         {ACL_TENSOR_DATA_UNDEFINED, ACL_TENSOR_DATA_SLICE_TENSOR, ACL_TENSOR_DATA_END_TENSOR}) {
        SCOPED_TRACE(type);
        SendSet sent({Marker(type)});
        EXPECT_EQ(acltdtSendTensor(channel_, sent.get(), 0), ACL_ERROR_INVALID_PARAM);
        EXPECT_THAT_MESSAGE_CONTAINS("a send carries ACL_TENSOR_DATA_TENSOR");
    }
    size_t size = 9;
    ASSERT_EQ(acltdtQueryChannelSize(channel_, &size), ACL_SUCCESS);
    EXPECT_EQ(size, 0u);
}

TEST_F(TdtChannel, SendRefusesADatasetWhoseItemWasDestroyed) {
    int32_t value = 1;
    int64_t dims[] = {1};
    acltdtDataItem* item =
        acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_INT32, &value, sizeof value);
    acltdtDataset* dataset = acltdtCreateDataset();
    ASSERT_EQ(acltdtAddDataItem(dataset, item), ACL_SUCCESS);
    ASSERT_EQ(acltdtDestroyDataItem(item), ACL_SUCCESS);
    EXPECT_EQ(acltdtSendTensor(channel_, dataset, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("was destroyed after it was added");
    acltdtDestroyDataset(dataset);
}

TEST_F(TdtChannel, SendRefusesFreedDeviceMemory) {
    void* device = nullptr;
    ASSERT_EQ(aclrtMalloc(&device, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    int64_t dims[] = {16};
    acltdtDataItem* item =
        acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_FLOAT, device, 64);
    acltdtDataset* dataset = acltdtCreateDataset();
    ASSERT_EQ(acltdtAddDataItem(dataset, item), ACL_SUCCESS);
    ASSERT_EQ(aclrtFree(device), ACL_SUCCESS);
    EXPECT_NE(acltdtSendTensor(channel_, dataset, 0), ACL_SUCCESS);
    EXPECT_NE(TakeErrMsg(), nullptr);
    acltdtDestroyDataset(dataset);
    acltdtDestroyDataItem(item);
}

TEST_F(TdtChannel, ReceiveRefusesADatasetTheProgramFilledAndLosesNothing) {
    std::unique_ptr<SendSet> sent(NewNumbered(6));
    ASSERT_EQ(acltdtSendTensor(channel_, sent->get(), 0), ACL_SUCCESS);
    std::unique_ptr<SendSet> filled(NewNumbered(0));
    EXPECT_EQ(acltdtReceiveTensor(channel_, filled->get(), 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("the program added");
    ReceiveSet received;
    ASSERT_EQ(acltdtReceiveTensor(channel_, received.get(), 0), ACL_SUCCESS);
    EXPECT_EQ(NumberIn(received.get()), 6);
}

TEST_F(TdtChannel, SizeAndCleanNeedAChannelMadeWithACapacity) {
    acltdtChannelHandle* channel = acltdtCreateChannel(0, "plain");
    ASSERT_NE(channel, nullptr);
    size_t size = 0;
    EXPECT_EQ(acltdtQueryChannelSize(channel, &size), ACL_ERROR_FEATURE_UNSUPPORTED);
    EXPECT_THAT_MESSAGE_CONTAINS("acltdtCreateChannelWithCapacity");
    EXPECT_EQ(acltdtCleanChannel(channel), ACL_ERROR_FEATURE_UNSUPPORTED);
    EXPECT_THAT_MESSAGE_CONTAINS("acltdtCreateChannelWithCapacity");
    EXPECT_EQ(acltdtDestroyChannel(channel), ACL_SUCCESS);
}

TEST_F(TdtChannel, QueryChannelSizeRefusesANullSize) {
    EXPECT_EQ(acltdtQueryChannelSize(channel_, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("size is null");
}

// Bad input: items and datasets.

TEST_F(TdtChannel, CreateDataItemRefusesInconsistentArguments) {
    int64_t dims[129] = {};
    float data[4] = {};
    struct Case {
        acltdtTensorType type;
        const int64_t* dims;
        size_t dim_num;
        void* data;
        size_t size;
        const char* message;
    } cases[] = {
        {ACL_TENSOR_DATA_TENSOR, nullptr, 2, data, 16, "dims is null but dimNum is 2"},
        {ACL_TENSOR_DATA_TENSOR, dims, 0, data, 16, "dimNum is 0 but dims is not null"},
        {ACL_TENSOR_DATA_TENSOR, dims, 129, data, 16, "dimNum 129 exceeds the limit of 128"},
        {static_cast<acltdtTensorType>(99), nullptr, 0, data, 16, "tdtType 99"},
        {ACL_TENSOR_DATA_END_OF_SEQUENCE, dims, 1, nullptr, 0, "dims must be null"},
        {ACL_TENSOR_DATA_TENSOR, dims, 1, nullptr, 16, "data is null but size is 16"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.message);
        EXPECT_EQ(acltdtCreateDataItem(c.type, c.dims, c.dim_num, ACL_FLOAT, c.data, c.size),
                  nullptr);
        EXPECT_EQ(RecordedError(), ACL_ERROR_INVALID_PARAM);
        EXPECT_THAT_MESSAGE_CONTAINS(c.message);
    }
    acltdtDataItem* most =
        acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 128, ACL_FLOAT, nullptr, 0);
    EXPECT_NE(most, nullptr) << "128 dimensions and no data are allowed";
    EXPECT_EQ(acltdtDestroyDataItem(most), ACL_SUCCESS);
}

TEST_F(TdtChannel, ItemGettersAnswerTheirFailureValueForNullOrForeignItems) {
    int not_an_item = 0;
    auto* foreign = reinterpret_cast<acltdtDataItem*>(&not_an_item);
    for (acltdtDataItem* item : {static_cast<acltdtDataItem*>(nullptr), foreign}) {
        EXPECT_EQ(acltdtGetTensorTypeFromItem(item), ACL_TENSOR_DATA_UNDEFINED);
        EXPECT_EQ(RecordedError(), ACL_ERROR_INVALID_PARAM);
        EXPECT_THAT_MESSAGE_CONTAINS("dataItem");
        EXPECT_EQ(acltdtGetDataTypeFromItem(item), ACL_DT_UNDEFINED);
        EXPECT_EQ(acltdtGetDataAddrFromItem(item), nullptr);
        EXPECT_EQ(acltdtGetDataSizeFromItem(item), 0u);
        EXPECT_EQ(acltdtGetDimNumFromItem(item), 0u);
        EXPECT_EQ(RecordedError(), ACL_ERROR_INVALID_PARAM);
        size_t num = 0, id = 0;
        int64_t dims[4] = {};
        EXPECT_EQ(acltdtGetSliceInfoFromItem(item, &num, &id), ACL_ERROR_INVALID_PARAM);
        EXPECT_EQ(acltdtGetDimsFromItem(item, dims, 4), ACL_ERROR_INVALID_PARAM);
        EXPECT_EQ(acltdtDestroyDataItem(item), ACL_ERROR_INVALID_PARAM);
        ClearErrMsgs();
    }
}

TEST_F(TdtChannel, GetSliceInfoRefusesNullOutputs) {
    SendSet sent({Tensor<int32_t>({1}, ACL_INT32, {1})});
    size_t value = 0;
    EXPECT_EQ(acltdtGetSliceInfoFromItem(sent.item(0), nullptr, &value), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("sliceNum is null");
    EXPECT_EQ(acltdtGetSliceInfoFromItem(sent.item(0), &value, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("sliceId is null");
}

TEST_F(TdtChannel, GetDimsRefusesTooFewOrInconsistentDims) {
    SendSet sent({Tensor<float>({2, 3}, ACL_FLOAT, {1, 2, 3, 4, 5, 6})});
    int64_t dims[2] = {};
    EXPECT_EQ(acltdtGetDimsFromItem(sent.item(0), dims, 1), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("dimNum 1 is less than the item's 2 dimension(s)");
    EXPECT_EQ(acltdtGetDimsFromItem(sent.item(0), nullptr, 2), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(acltdtGetDimsFromItem(sent.item(0), dims, 0), ACL_ERROR_INVALID_PARAM);
    SendSet scalar({Tensor<float>({}, ACL_FLOAT, {1})});
    EXPECT_EQ(acltdtGetDimsFromItem(scalar.item(0), nullptr, 0), ACL_SUCCESS);
}

TEST_F(TdtChannel, AReceivedItemIsFreedWithItsDatasetNotAlone) {
    std::unique_ptr<SendSet> sent(NewNumbered(1));
    ASSERT_EQ(acltdtSendTensor(channel_, sent->get(), 0), ACL_SUCCESS);
    ReceiveSet received;
    ASSERT_EQ(acltdtReceiveTensor(channel_, received.get(), 0), ACL_SUCCESS);
    EXPECT_EQ(acltdtDestroyDataItem(acltdtGetDataItem(received.get(), 0)), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("acltdtDestroyDataset frees it");
    EXPECT_EQ(NumberIn(received.get()), 1) << "the item is still there";
}

TEST_F(TdtChannel, DestroyingAnItemTwiceIsRefused) {
    acltdtDataItem* item =
        acltdtCreateDataItem(ACL_TENSOR_DATA_ABNORMAL, nullptr, 0, ACL_DT_UNDEFINED, nullptr, 0);
    ASSERT_NE(item, nullptr);
    EXPECT_EQ(acltdtDestroyDataItem(item), ACL_SUCCESS);
    EXPECT_EQ(acltdtDestroyDataItem(item), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live data item");
}

TEST_F(TdtChannel, DatasetCallsRefuseNullAndForeignDatasets) {
    int not_a_dataset = 0;
    auto* foreign = reinterpret_cast<acltdtDataset*>(&not_a_dataset);
    SendSet sent({Tensor<int32_t>({1}, ACL_INT32, {1})});
    for (acltdtDataset* dataset : {static_cast<acltdtDataset*>(nullptr), foreign}) {
        EXPECT_EQ(acltdtGetDatasetSize(dataset), 0u);
        EXPECT_EQ(RecordedError(), ACL_ERROR_INVALID_PARAM);
        EXPECT_THAT_MESSAGE_CONTAINS("dataset");
        EXPECT_EQ(acltdtGetDatasetName(dataset), nullptr);
        EXPECT_EQ(acltdtGetDataItem(dataset, 0), nullptr);
        EXPECT_EQ(RecordedError(), ACL_ERROR_INVALID_PARAM);
        EXPECT_EQ(acltdtAddDataItem(dataset, sent.item(0)), ACL_ERROR_INVALID_PARAM);
        EXPECT_EQ(acltdtDestroyDataset(dataset), ACL_ERROR_INVALID_PARAM);
        ClearErrMsgs();
    }
    EXPECT_EQ(acltdtAddDataItem(sent.get(), nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("dataItem is null");
}

TEST_F(TdtChannel, GetDataItemRefusesAnIndexOutOfRange) {
    SendSet sent({Tensor<int32_t>({1}, ACL_INT32, {1})});
    EXPECT_EQ(acltdtGetDataItem(sent.get(), 1), nullptr);
    EXPECT_EQ(RecordedError(), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("index 1 is out of range: the dataset holds 1 item(s)");
}

TEST_F(TdtChannel, AddDataItemRefusesADatasetAReceiveFilled) {
    std::unique_ptr<SendSet> sent(NewNumbered(1));
    ASSERT_EQ(acltdtSendTensor(channel_, sent->get(), 0), ACL_SUCCESS);
    ReceiveSet received;
    ASSERT_EQ(acltdtReceiveTensor(channel_, received.get(), 0), ACL_SUCCESS);
    EXPECT_EQ(acltdtAddDataItem(received.get(), sent->item(0)), ACL_ERROR_FEATURE_UNSUPPORTED);
    EXPECT_THAT_MESSAGE_CONTAINS("filled by acltdtReceiveTensor");
}

TEST_F(TdtChannel, AddDataItemRefusesMixingHostAndDeviceMemory) {
    void* device = nullptr;
    ASSERT_EQ(aclrtMalloc(&device, 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    int32_t host = 0;
    int64_t dims[] = {1};
    acltdtDataItem* on_host =
        acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_INT32, &host, 4);
    acltdtDataItem* on_device =
        acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_INT32, device, 4);
    acltdtDataItem* marker = acltdtCreateDataItem(ACL_TENSOR_DATA_END_OF_SEQUENCE, nullptr, 0,
                                                  ACL_DT_UNDEFINED, nullptr, 0);
    acltdtDataset* dataset = acltdtCreateDataset();
    EXPECT_EQ(acltdtAddDataItem(dataset, marker), ACL_SUCCESS);
    EXPECT_EQ(acltdtAddDataItem(dataset, on_host), ACL_SUCCESS);
    EXPECT_EQ(acltdtAddDataItem(dataset, marker), ACL_SUCCESS) << "a marker has no memory";
    EXPECT_EQ(acltdtAddDataItem(dataset, on_device), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("all host memory or all device memory");
    EXPECT_EQ(acltdtGetDatasetSize(dataset), 3u);
    acltdtDestroyDataset(dataset);
    for (acltdtDataItem* item : {on_host, on_device, marker})
        acltdtDestroyDataItem(item);
    aclrtFree(device);
}

// Items and datasets need neither aclInit nor a device; the library answers to CANN's name.

TEST(TdtChannelData, ItemsAndDatasetsNeedNoDevice) {
    int64_t dims[] = {2};
    int16_t data[] = {1, 2};
    acltdtDataItem* item =
        acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_INT16, data, sizeof data);
    ASSERT_NE(item, nullptr);
    acltdtDataset* dataset = acltdtCreateDataset();
    ASSERT_NE(dataset, nullptr);
    EXPECT_EQ(acltdtAddDataItem(dataset, item), ACL_SUCCESS);
    EXPECT_EQ(acltdtGetDataItem(dataset, 0), item);
    EXPECT_EQ(acltdtDestroyDataset(dataset), ACL_SUCCESS);
    EXPECT_EQ(acltdtDestroyDataItem(item), ACL_SUCCESS);
    EXPECT_EQ(TakeErrMsg(), nullptr);
}

TEST(TdtChannelData, TheLibraryIsAlsoLibaclTdtChannel) {
    const std::string path = std::string(OPENACL_LIB_DIR) + "/libacl_tdt_channel.so";
    void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(library, nullptr) << dlerror();
    for (const char* name : {"acltdtCreateChannelWithCapacity", "acltdtSendTensor",
                             "acltdtReceiveTensor", "acltdtCreateDataItem"}) {
        EXPECT_NE(dlsym(library, name), nullptr) << name;
    }
    dlclose(library);
}
