// TDT queues (acl/acl_tdt_queue.h): bounded FIFOs of message buffers, plain-byte enqueue and
// dequeue, timeouts on full and empty queues, routes forwarding between queues, grants.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_tdt_queue.h"
#include "test_support.h"

namespace {

using Clock = std::chrono::steady_clock;

// A queue of `depth` items, destroyed after the test.
class TestQueue {
 public:
    explicit TestQueue(uint32_t depth = 8) {
        acltdtQueueAttr* attr = acltdtCreateQueueAttr();
        EXPECT_NE(attr, nullptr);
        EXPECT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof(depth), &depth),
                  ACL_SUCCESS);
        EXPECT_EQ(acltdtCreateQueue(attr, &id_), ACL_SUCCESS);
        acltdtDestroyQueueAttr(attr);
    }
    ~TestQueue() {
        // A queue in a bound route cannot be destroyed: unbind its routes first. Items left are
        // freed with the queue.
        for (int32_t mode : {ACL_TDT_QUEUE_ROUTE_QUERY_SRC, ACL_TDT_QUEUE_ROUTE_QUERY_DST}) {
            acltdtQueueRouteQueryInfo* query = acltdtCreateQueueRouteQueryInfo();
            acltdtQueueRouteList* routes = acltdtCreateQueueRouteList();
            acltdtSetQueueRouteQueryInfo(query, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, sizeof(mode),
                                         &mode);
            acltdtSetQueueRouteQueryInfo(query, ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32,
                                         sizeof(id_), &id_);
            acltdtSetQueueRouteQueryInfo(query, ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32,
                                         sizeof(id_), &id_);
            if (acltdtQueryQueueRoutes(query, routes) == ACL_SUCCESS &&
                acltdtGetQueueRouteNum(routes) > 0)
                acltdtUnbindQueueRoutes(routes);
            acltdtDestroyQueueRouteList(routes);
            acltdtDestroyQueueRouteQueryInfo(query);
        }
        EXPECT_EQ(acltdtDestroyQueue(id_), ACL_SUCCESS);
    }
    TestQueue(const TestQueue&) = delete;
    TestQueue& operator=(const TestQueue&) = delete;
    uint32_t id() const { return id_; }

 private:
    uint32_t id_ = 0;
};

aclError PutInt(uint32_t qid, int value, int32_t timeout = -1) {
    return acltdtEnqueueData(qid, &value, sizeof(value), nullptr, 0, timeout, 0);
}
int TakeInt(uint32_t qid, int32_t timeout = -1) {
    int value = -1;
    size_t size = 0;
    EXPECT_EQ(acltdtDequeueData(qid, &value, sizeof(value), &size, nullptr, 0, timeout),
              ACL_SUCCESS);
    EXPECT_EQ(size, sizeof(value));
    return value;
}

// A buffer holding `text` as its valid data.
acltdtBuf NewBuf(const std::string& text) {
    acltdtBuf buf = nullptr;
    EXPECT_EQ(acltdtAllocBuf(std::max<size_t>(text.size(), 1), ACL_TDT_NORMAL_MEM, &buf),
              ACL_SUCCESS);
    void* data = nullptr;
    size_t size = 0;
    EXPECT_EQ(acltdtGetBufData(buf, &data, &size), ACL_SUCCESS);
    std::memcpy(data, text.data(), text.size());
    EXPECT_EQ(acltdtSetBufDataLen(buf, text.size()), ACL_SUCCESS);
    return buf;
}
std::string Text(acltdtBuf buf) {
    void* data = nullptr;
    size_t size = 0, len = 0;
    EXPECT_EQ(acltdtGetBufData(buf, &data, &size), ACL_SUCCESS);
    EXPECT_EQ(acltdtGetBufDataLen(buf, &len), ACL_SUCCESS);
    return std::string(static_cast<const char*>(data), len);
}

int64_t MillisecondsSince(Clock::time_point start) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
}

class TdtQueue : public ::testing::Test {
 protected:
    void SetUp() override { ClearErrMsgs(); }
    void TearDown() override { ClearErrMsgs(); }
};

// Route lists and queries, destroyed after the test; routes bound are unbound first.
class TdtQueueRoute : public TdtQueue {
 protected:
    void TearDown() override {
        for (acltdtQueueRouteList* list : bound_)
            acltdtUnbindQueueRoutes(list);
        for (acltdtQueueRouteList* list : lists_)
            acltdtDestroyQueueRouteList(list);
        for (acltdtQueueRouteQueryInfo* query : queries_)
            acltdtDestroyQueueRouteQueryInfo(query);
        TdtQueue::TearDown();
    }
    acltdtQueueRouteList* List(std::initializer_list<std::pair<uint32_t, uint32_t>> routes) {
        acltdtQueueRouteList* list = acltdtCreateQueueRouteList();
        EXPECT_NE(list, nullptr);
        for (const auto& [src, dst] : routes) {
            acltdtQueueRoute* route = acltdtCreateQueueRoute(src, dst);
            EXPECT_EQ(acltdtAddQueueRoute(list, route), ACL_SUCCESS);
            acltdtDestroyQueueRoute(route);
        }
        lists_.push_back(list);
        return list;
    }
    aclError Bind(std::initializer_list<std::pair<uint32_t, uint32_t>> routes) {
        acltdtQueueRouteList* list = List(routes);
        bound_.push_back(list);
        return acltdtBindQueueRoutes(list);
    }
    acltdtQueueRouteList* Query(int32_t mode, uint32_t src, uint32_t dst) {
        acltdtQueueRouteQueryInfo* query = acltdtCreateQueueRouteQueryInfo();
        queries_.push_back(query);
        EXPECT_EQ(acltdtSetQueueRouteQueryInfo(query, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM,
                                               sizeof(mode), &mode),
                  ACL_SUCCESS);
        EXPECT_EQ(acltdtSetQueueRouteQueryInfo(query, ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32,
                                               sizeof(src), &src),
                  ACL_SUCCESS);
        EXPECT_EQ(acltdtSetQueueRouteQueryInfo(query, ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32,
                                               sizeof(dst), &dst),
                  ACL_SUCCESS);
        acltdtQueueRouteList* list = List({});
        EXPECT_EQ(acltdtQueryQueueRoutes(query, list), ACL_SUCCESS);
        return list;
    }
    static uint32_t Field(const acltdtQueueRouteList* list, size_t index,
                          acltdtQueueRouteParamType type) {
        acltdtQueueRoute* route = acltdtCreateQueueRoute(0, 0);
        EXPECT_EQ(acltdtGetQueueRoute(list, index, route), ACL_SUCCESS);
        uint32_t value = 0;
        size_t size = 0;
        EXPECT_EQ(acltdtGetQueueRouteParam(route, type, sizeof(value), &size, &value), ACL_SUCCESS);
        EXPECT_EQ(size, sizeof(value));
        acltdtDestroyQueueRoute(route);
        return value;
    }

    std::vector<acltdtQueueRouteList*> lists_, bound_;
    std::vector<acltdtQueueRouteQueryInfo*> queries_;
};

class TdtQueueAttr : public TdtQueue {
 protected:
    void SetUp() override {
        TdtQueue::SetUp();
        attr_ = acltdtCreateQueueAttr();
        ASSERT_NE(attr_, nullptr);
    }
    void TearDown() override {
        acltdtDestroyQueueAttr(attr_);
        TdtQueue::TearDown();
    }
    acltdtQueueAttr* attr_ = nullptr;
};

}  // namespace

// Queues.

TEST_F(TdtQueue, BuffersComeOutInTheOrderTheyWentIn) {
    TestQueue queue;
    acltdtBuf in[3] = {NewBuf("one"), NewBuf("two"), NewBuf("three")};
    for (acltdtBuf buf : in)
        ASSERT_EQ(acltdtEnqueue(queue.id(), buf, 0), ACL_SUCCESS);
    for (acltdtBuf expected : in) {
        acltdtBuf out = nullptr;
        ASSERT_EQ(acltdtDequeue(queue.id(), &out, 0), ACL_SUCCESS);
        EXPECT_EQ(out, expected) << "a dequeue hands back the buffer itself";
        EXPECT_EQ(acltdtFreeBuf(out), ACL_SUCCESS);
    }
}

TEST_F(TdtQueue, ADequeuedBufferKeepsItsDataAndUserData) {
    TestQueue queue;
    acltdtBuf buf = NewBuf("payload");
    const char tag[] = "tag";
    ASSERT_EQ(acltdtSetBufUserData(buf, tag, sizeof(tag), 16), ACL_SUCCESS);
    ASSERT_EQ(acltdtEnqueue(queue.id(), buf, 0), ACL_SUCCESS);
    acltdtBuf out = nullptr;
    ASSERT_EQ(acltdtDequeue(queue.id(), &out, 0), ACL_SUCCESS);
    EXPECT_EQ(Text(out), "payload");
    char read[sizeof(tag)] = {};
    ASSERT_EQ(acltdtGetBufUserData(out, read, sizeof(read), 16), ACL_SUCCESS);
    EXPECT_STREQ(read, "tag");
    EXPECT_EQ(acltdtFreeBuf(out), ACL_SUCCESS);
}

TEST_F(TdtQueue, EnqueueDataAndDequeueDataCopyTheBytesAndTheUserData) {
    TestQueue queue;
    const char data[] = "bytes in";
    const uint64_t user = 0x1122334455667788;
    ASSERT_EQ(acltdtEnqueueData(queue.id(), data, sizeof(data), &user, sizeof(user), 0, 0),
              ACL_SUCCESS);
    char out[64] = {};
    uint64_t user_out = 0;
    size_t size = 0;
    ASSERT_EQ(
        acltdtDequeueData(queue.id(), out, sizeof(out), &size, &user_out, sizeof(user_out), 0),
        ACL_SUCCESS);
    EXPECT_EQ(size, sizeof(data));
    EXPECT_STREQ(out, "bytes in");
    EXPECT_EQ(user_out, user);
}

TEST_F(TdtQueue, DequeueDataReadsAChainEnqueuedWithEnqueueAsOneItem) {
    TestQueue queue;
    acltdtBuf head = NewBuf("head,"), tail = NewBuf("tail");
    const uint32_t tag = 5;
    ASSERT_EQ(acltdtSetBufUserData(head, &tag, sizeof(tag), 0), ACL_SUCCESS);
    ASSERT_EQ(acltdtAppendBufChain(head, tail), ACL_SUCCESS);
    ASSERT_EQ(acltdtEnqueue(queue.id(), head, 0), ACL_SUCCESS);
    char out[32] = {};
    uint32_t tag_out = 0;
    size_t size = 0;
    ASSERT_EQ(acltdtDequeueData(queue.id(), out, sizeof(out), &size, &tag_out, sizeof(tag_out), 0),
              ACL_SUCCESS);
    EXPECT_EQ(std::string(out, size), "head,tail");
    EXPECT_EQ(tag_out, 5u);
    size_t len = 0;
    EXPECT_EQ(acltdtGetBufDataLen(head, &len), ACL_ERROR_INVALID_PARAM)
        << "DequeueData consumed and freed the chain";
}

TEST_F(TdtQueue, DequeueHandsItemsOfEnqueueDataOverAsBuffers) {
    TestQueue queue;
    const uint16_t user = 77;
    ASSERT_EQ(acltdtEnqueueData(queue.id(), "abc", 3, &user, sizeof(user), 0, 0), ACL_SUCCESS);
    acltdtBuf out = nullptr;
    ASSERT_EQ(acltdtDequeue(queue.id(), &out, 0), ACL_SUCCESS);
    EXPECT_EQ(Text(out), "abc");
    uint16_t user_out = 0;
    ASSERT_EQ(acltdtGetBufUserData(out, &user_out, sizeof(user_out), 0), ACL_SUCCESS);
    EXPECT_EQ(user_out, 77);
    EXPECT_EQ(acltdtFreeBuf(out), ACL_SUCCESS);
}

TEST_F(TdtQueue, ADequeueFromAnEmptyQueueTimesOutWithItsCode) {
    TestQueue queue;
    acltdtBuf buf = nullptr;
    EXPECT_EQ(acltdtDequeue(queue.id(), &buf, 0), ACL_ERROR_RT_QUEUE_EMPTY);
    EXPECT_THAT_MESSAGE_CONTAINS("is empty");
    const auto start = Clock::now();
    EXPECT_EQ(acltdtDequeue(queue.id(), &buf, 50), ACL_ERROR_RT_QUEUE_EMPTY);
    EXPECT_GE(MillisecondsSince(start), 45);
    int value = 0;
    size_t size = 0;
    EXPECT_EQ(acltdtDequeueData(queue.id(), &value, sizeof(value), &size, nullptr, 0, 0),
              ACL_ERROR_RT_QUEUE_EMPTY);
    EXPECT_EQ(buf, nullptr);
}

TEST_F(TdtQueue, AnEnqueueOnAFullQueueTimesOutWithItsCode) {
    TestQueue queue(2);
    ASSERT_EQ(PutInt(queue.id(), 1, 0), ACL_SUCCESS);
    ASSERT_EQ(PutInt(queue.id(), 2, 0), ACL_SUCCESS);
    EXPECT_EQ(PutInt(queue.id(), 3, 0), ACL_ERROR_RT_QUEUE_FULL);
    EXPECT_THAT_MESSAGE_CONTAINS("is full (depth 2)");
    const auto start = Clock::now();
    acltdtBuf buf = NewBuf("x");
    EXPECT_EQ(acltdtEnqueue(queue.id(), buf, 50), ACL_ERROR_RT_QUEUE_FULL);
    EXPECT_GE(MillisecondsSince(start), 45);
    EXPECT_EQ(acltdtFreeBuf(buf), ACL_SUCCESS) << "a failed enqueue leaves the buffer the caller's";
    EXPECT_EQ(TakeInt(queue.id(), 0), 1);
}

TEST_F(TdtQueue, ABlockedDequeueWakesWhenAnItemArrives) {
    TestQueue queue;
    std::thread producer([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        EXPECT_EQ(PutInt(queue.id(), 9), ACL_SUCCESS);
    });
    EXPECT_EQ(TakeInt(queue.id(), -1), 9);
    producer.join();
}

TEST_F(TdtQueue, ABlockedEnqueueWakesWhenRoomIsMade) {
    TestQueue queue(2);
    ASSERT_EQ(PutInt(queue.id(), 1), ACL_SUCCESS);
    ASSERT_EQ(PutInt(queue.id(), 2), ACL_SUCCESS);
    std::thread consumer([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        EXPECT_EQ(TakeInt(queue.id()), 1);
    });
    EXPECT_EQ(PutInt(queue.id(), 3, -1), ACL_SUCCESS);
    consumer.join();
    EXPECT_EQ(TakeInt(queue.id(), 0), 2);
    EXPECT_EQ(TakeInt(queue.id(), 0), 3);
}

TEST_F(TdtQueue, AQueueWithDefaultAttributesHoldsEightItems) {
    uint32_t qid = 0;
    ASSERT_EQ(acltdtCreateQueue(nullptr, &qid), ACL_SUCCESS);
    for (int i = 0; i < 8; ++i)
        EXPECT_EQ(PutInt(qid, i, 0), ACL_SUCCESS);
    EXPECT_EQ(PutInt(qid, 8, 0), ACL_ERROR_RT_QUEUE_FULL);
    EXPECT_EQ(acltdtDestroyQueue(qid), ACL_SUCCESS);
}

TEST_F(TdtQueue, ADepthBelowTwoIsRefused) {
    acltdtQueueAttr* attr = acltdtCreateQueueAttr();
    const uint32_t depth = 1;
    ASSERT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof(depth), &depth),
              ACL_SUCCESS);
    uint32_t qid = 0;
    EXPECT_EQ(acltdtCreateQueue(attr, &qid), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_THAT_MESSAGE_CONTAINS("depth 1 is below 2");
    acltdtDestroyQueueAttr(attr);
}

TEST_F(TdtQueue, ABufferInAQueueBelongsToTheQueue) {
    TestQueue queue, other;
    acltdtBuf buf = NewBuf("mine");
    ASSERT_EQ(acltdtEnqueue(queue.id(), buf, 0), ACL_SUCCESS);
    EXPECT_EQ(acltdtFreeBuf(buf), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is in queue");
    EXPECT_EQ(acltdtEnqueue(other.id(), buf, 0), ACL_ERROR_INVALID_PARAM);
    size_t len = 0;
    EXPECT_EQ(acltdtGetBufDataLen(buf, &len), ACL_ERROR_INVALID_PARAM);
}

TEST_F(TdtQueue, AnAppendedBufferIsEnqueuedThroughItsHead) {
    TestQueue queue;
    acltdtBuf head = NewBuf("h"), member = NewBuf("m");
    ASSERT_EQ(acltdtAppendBufChain(head, member), ACL_SUCCESS);
    EXPECT_EQ(acltdtEnqueue(queue.id(), member, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("enqueue the head");
    EXPECT_EQ(acltdtFreeBuf(head), ACL_SUCCESS);
}

TEST_F(TdtQueue, DestroyingAQueueFreesTheItemsInIt) {
    uint32_t qid = 0;
    ASSERT_EQ(acltdtCreateQueue(nullptr, &qid), ACL_SUCCESS);
    acltdtBuf buf = NewBuf("left behind");
    ASSERT_EQ(acltdtEnqueue(qid, buf, 0), ACL_SUCCESS);
    ASSERT_EQ(acltdtDestroyQueue(qid), ACL_SUCCESS);
    EXPECT_EQ(acltdtFreeBuf(buf), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live buffer");
}

TEST_F(TdtQueue, DestroyingAQueueWakesItsWaitersWithAnError) {
    uint32_t qid = 0;
    ASSERT_EQ(acltdtCreateQueue(nullptr, &qid), ACL_SUCCESS);
    std::atomic<aclError> rc{ACL_SUCCESS};
    std::thread consumer([&] {
        acltdtBuf buf = nullptr;
        rc = acltdtDequeue(qid, &buf, -1);
        aclGetRecentErrMsg();
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    ASSERT_EQ(acltdtDestroyQueue(qid), ACL_SUCCESS);
    consumer.join();
    EXPECT_EQ(rc.load(), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(TdtQueue, AnUnknownQueueIdIsRefused) {
    const uint32_t unknown = 0xFFFFFF00u;
    acltdtBuf buf = NewBuf("x");
    acltdtBuf out = nullptr;
    int value = 0;
    size_t size = 0;
    EXPECT_EQ(acltdtEnqueue(unknown, buf, 0), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_THAT_MESSAGE_CONTAINS("qid 4294967040 is not a queue of this process");
    EXPECT_EQ(acltdtDequeue(unknown, &out, 0), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(acltdtEnqueueData(unknown, &value, sizeof(value), nullptr, 0, 0, 0),
              ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(acltdtDequeueData(unknown, &value, sizeof(value), &size, nullptr, 0, 0),
              ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(acltdtDestroyQueue(unknown), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(acltdtFreeBuf(buf), ACL_SUCCESS);
}

TEST_F(TdtQueue, ADestroyedQueuesIdIsNotReused) {
    uint32_t first = 0, second = 0;
    ASSERT_EQ(acltdtCreateQueue(nullptr, &first), ACL_SUCCESS);
    ASSERT_EQ(acltdtDestroyQueue(first), ACL_SUCCESS);
    ASSERT_EQ(acltdtCreateQueue(nullptr, &second), ACL_SUCCESS);
    EXPECT_NE(first, second);
    EXPECT_EQ(acltdtDestroyQueue(first), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(acltdtDestroyQueue(second), ACL_SUCCESS);
}

TEST_F(TdtQueue, DequeueDataIntoATooSmallBufferLeavesTheItemQueued) {
    TestQueue queue;
    const char data[] = "twelve bytes";
    ASSERT_EQ(acltdtEnqueueData(queue.id(), data, 12, nullptr, 0, 0, 0), ACL_SUCCESS);
    char small[4];
    size_t size = 0;
    EXPECT_EQ(acltdtDequeueData(queue.id(), small, sizeof(small), &size, nullptr, 0, 0),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("dataSize 4 is less than the 12 bytes");
    EXPECT_EQ(size, 12u) << "the size needed";
    char big[16] = {};
    ASSERT_EQ(acltdtDequeueData(queue.id(), big, sizeof(big), &size, nullptr, 0, 0), ACL_SUCCESS);
    EXPECT_EQ(std::string(big, size), "twelve bytes");
}

TEST_F(TdtQueue, BadArgumentsOfEnqueueDataAreRefusedNamingTheParameter) {
    TestQueue queue;
    int value = 0;
    char user[97] = {};
    EXPECT_EQ(acltdtEnqueueData(queue.id(), nullptr, 4, nullptr, 0, 0, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("data is null");
    EXPECT_EQ(acltdtEnqueueData(queue.id(), &value, 0, nullptr, 0, 0, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("dataSize is 0");
    EXPECT_EQ(acltdtEnqueueData(queue.id(), &value, 4, user, 97, 0, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("userDataSize 97 is above 96");
    EXPECT_EQ(acltdtEnqueueData(queue.id(), &value, 4, nullptr, 8, 0, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("userData is null but userDataSize is 8");
    acltdtBuf out = nullptr;
    EXPECT_EQ(acltdtDequeue(queue.id(), &out, 0), ACL_ERROR_RT_QUEUE_EMPTY) << "nothing went in";
}

TEST_F(TdtQueue, BadArgumentsOfDequeueDataAreRefusedNamingTheParameter) {
    TestQueue queue;
    ASSERT_EQ(PutInt(queue.id(), 1), ACL_SUCCESS);
    int value = 0;
    size_t size = 0;
    char user[97] = {};
    EXPECT_EQ(acltdtDequeueData(queue.id(), nullptr, 4, &size, nullptr, 0, 0),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("data is null");
    EXPECT_EQ(acltdtDequeueData(queue.id(), &value, 0, &size, nullptr, 0, 0),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("dataSize is 0");
    EXPECT_EQ(acltdtDequeueData(queue.id(), &value, 4, nullptr, nullptr, 0, 0),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("retDataSize is null");
    EXPECT_EQ(acltdtDequeueData(queue.id(), &value, 4, &size, user, 97, 0),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("userDataSize 97 is above 96");
    EXPECT_EQ(acltdtDequeueData(queue.id(), &value, 4, &size, nullptr, 4, 0),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("userData is null");
    EXPECT_EQ(TakeInt(queue.id(), 0), 1) << "the item stayed";
}

TEST_F(TdtQueue, NullArgumentsOfQueueCallsAreRefused) {
    uint32_t qid = 0;
    EXPECT_EQ(acltdtCreateQueue(nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("qid is null");
    TestQueue queue;
    EXPECT_EQ(acltdtEnqueue(queue.id(), nullptr, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("buf is null");
    EXPECT_EQ(acltdtDequeue(queue.id(), nullptr, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("buf is null");
    int on_stack = 0;
    EXPECT_EQ(acltdtEnqueue(queue.id(), &on_stack, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live buffer");
    (void)qid;
}

TEST_F(TdtQueue, ManyProducersAndConsumersPassEveryItemExactlyOnce) {
    constexpr int kProducers = 4, kConsumers = 4, kEach = 2000;
    TestQueue queue(16);
    std::vector<std::atomic<int>> seen(kProducers * kEach);
    std::vector<std::thread> threads;
    for (int p = 0; p < kProducers; ++p) {
        threads.emplace_back([&, p] {
            for (int i = 0; i < kEach; ++i)
                EXPECT_EQ(PutInt(queue.id(), p * kEach + i), ACL_SUCCESS);
        });
    }
    for (int c = 0; c < kConsumers; ++c) {
        threads.emplace_back([&, c] {
            for (int i = 0; i < kEach; ++i) {
                // Half the consumers take buffers, half take bytes.
                int value = -1;
                if (c % 2 == 0) {
                    value = TakeInt(queue.id());
                } else {
                    acltdtBuf buf = nullptr;
                    ASSERT_EQ(acltdtDequeue(queue.id(), &buf, -1), ACL_SUCCESS);
                    void* data = nullptr;
                    size_t size = 0;
                    ASSERT_EQ(acltdtGetBufData(buf, &data, &size), ACL_SUCCESS);
                    std::memcpy(&value, data, sizeof(value));
                    ASSERT_EQ(acltdtFreeBuf(buf), ACL_SUCCESS);
                }
                ASSERT_GE(value, 0);
                ASSERT_LT(value, kProducers * kEach);
                seen[value].fetch_add(1);
            }
        });
    }
    for (auto& thread : threads)
        thread.join();
    for (int v = 0; v < kProducers * kEach; ++v)
        ASSERT_EQ(seen[v].load(), 1) << "item " << v;
    acltdtBuf buf = nullptr;
    EXPECT_EQ(acltdtDequeue(queue.id(), &buf, 0), ACL_ERROR_RT_QUEUE_EMPTY);
}

TEST_F(TdtQueue, EachProducersItemsArriveInTheOrderItSentThem) {
    constexpr int kProducers = 3, kEach = 1000;
    TestQueue queue(4);
    std::vector<std::thread> producers;
    for (int p = 0; p < kProducers; ++p) {
        producers.emplace_back([&, p] {
            for (int i = 0; i < kEach; ++i)
                EXPECT_EQ(PutInt(queue.id(), p * kEach + i), ACL_SUCCESS);
        });
    }
    std::vector<int> last(kProducers, -1);
    for (int n = 0; n < kProducers * kEach; ++n) {
        const int value = TakeInt(queue.id());
        const int p = value / kEach;
        ASSERT_GT(value % kEach, last[p]);
        last[p] = value % kEach;
    }
    for (auto& thread : producers)
        thread.join();
}

// Grants and attachments.

TEST_F(TdtQueue, GrantingAQueueToThisProcessSucceeds) {
    TestQueue queue;
    EXPECT_EQ(
        acltdtGrantQueue(queue.id(), getpid(),
                         ACL_TDT_QUEUE_PERMISSION_ENQUEUE | ACL_TDT_QUEUE_PERMISSION_DEQUEUE, 0),
        ACL_SUCCESS);
}

TEST_F(TdtQueue, GrantingAQueueToAnotherProcessIsNotSupported) {
    TestQueue queue;
    EXPECT_EQ(acltdtGrantQueue(queue.id(), getppid(), ACL_TDT_QUEUE_PERMISSION_DEQUEUE, 0),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_THAT_MESSAGE_CONTAINS("not shared with other processes");
}

TEST_F(TdtQueue, AGrantWithoutAKnownPermissionOrProcessIsRefused) {
    TestQueue queue;
    EXPECT_EQ(acltdtGrantQueue(queue.id(), getpid(), 0, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("permission 0x0");
    EXPECT_EQ(acltdtGrantQueue(queue.id(), getpid(), 8, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("permission 0x8");
    EXPECT_EQ(acltdtGrantQueue(queue.id(), 0, ACL_TDT_QUEUE_PERMISSION_MANAGE, 0),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("pid 0 is not a process id");
    EXPECT_EQ(acltdtGrantQueue(0xFFFFFF01u, getpid(), ACL_TDT_QUEUE_PERMISSION_MANAGE, 0),
              ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(TdtQueue, TheCreatingProcessAttachesWithEveryPermission) {
    TestQueue queue;
    uint32_t permission = 0;
    ASSERT_EQ(acltdtAttachQueue(queue.id(), 0, &permission), ACL_SUCCESS);
    EXPECT_EQ(permission,
              uint32_t{ACL_TDT_QUEUE_PERMISSION_MANAGE | ACL_TDT_QUEUE_PERMISSION_DEQUEUE |
                       ACL_TDT_QUEUE_PERMISSION_ENQUEUE});
}

TEST_F(TdtQueue, AttachingAQueueOfNoProcessHereFails) {
    uint32_t permission = 0;
    EXPECT_EQ(acltdtAttachQueue(0xFFFFFF02u, 0, &permission), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_THAT_MESSAGE_CONTAINS("not shared with other processes");
    TestQueue queue;
    EXPECT_EQ(acltdtAttachQueue(queue.id(), 0, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("permission is null");
}

// Queue attributes.

TEST_F(TdtQueueAttr, ANewAttributeHasDepthEightAndNoName) {
    uint32_t depth = 0;
    size_t size = 0;
    ASSERT_EQ(acltdtGetQueueAttr(attr_, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof(depth), &size, &depth),
              ACL_SUCCESS);
    EXPECT_EQ(depth, 8u);
    EXPECT_EQ(size, sizeof(depth));
    const char* name = nullptr;
    ASSERT_EQ(acltdtGetQueueAttr(attr_, ACL_TDT_QUEUE_NAME_PTR, sizeof(name), &size, &name),
              ACL_SUCCESS);
    ASSERT_NE(name, nullptr);
    EXPECT_STREQ(name, "");
}

TEST_F(TdtQueueAttr, TheNameAndDepthRoundTrip) {
    const char* name = "frames";
    const uint32_t depth = 100;
    ASSERT_EQ(acltdtSetQueueAttr(attr_, ACL_TDT_QUEUE_NAME_PTR, sizeof(name), &name), ACL_SUCCESS);
    ASSERT_EQ(acltdtSetQueueAttr(attr_, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof(depth), &depth),
              ACL_SUCCESS);
    const char* name_out = nullptr;
    uint32_t depth_out = 0;
    size_t size = 0;
    ASSERT_EQ(acltdtGetQueueAttr(attr_, ACL_TDT_QUEUE_NAME_PTR, sizeof(name_out), &size, &name_out),
              ACL_SUCCESS);
    ASSERT_EQ(
        acltdtGetQueueAttr(attr_, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof(depth_out), &size, &depth_out),
        ACL_SUCCESS);
    EXPECT_STREQ(name_out, "frames");
    EXPECT_NE(name_out, name) << "the attribute keeps its own copy";
    EXPECT_EQ(depth_out, 100u);
    uint32_t qid = 0;
    ASSERT_EQ(acltdtCreateQueue(attr_, &qid), ACL_SUCCESS);
    for (uint32_t i = 0; i < 100; ++i)
        ASSERT_EQ(PutInt(qid, 0, 0), ACL_SUCCESS);
    EXPECT_EQ(PutInt(qid, 0, 0), ACL_ERROR_RT_QUEUE_FULL);
    EXPECT_EQ(acltdtDestroyQueue(qid), ACL_SUCCESS);
}

TEST_F(TdtQueueAttr, ANameOf128CharactersIsRefused) {
    const std::string longest(127, 'q'), too_long(128, 'q');
    const char* name = longest.c_str();
    EXPECT_EQ(acltdtSetQueueAttr(attr_, ACL_TDT_QUEUE_NAME_PTR, sizeof(name), &name), ACL_SUCCESS);
    name = too_long.c_str();
    EXPECT_EQ(acltdtSetQueueAttr(attr_, ACL_TDT_QUEUE_NAME_PTR, sizeof(name), &name),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("at most 127");
}

TEST_F(TdtQueueAttr, WrongLengthsTypesAndNullsAreRefused) {
    uint32_t depth = 4;
    size_t size = 0;
    const char* null_name = nullptr;
    EXPECT_EQ(acltdtSetQueueAttr(attr_, ACL_TDT_QUEUE_DEPTH_UINT32, 2, &depth),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("len 2 is not 4");
    EXPECT_EQ(acltdtSetQueueAttr(attr_, ACL_TDT_QUEUE_NAME_PTR, 4, &depth),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(acltdtSetQueueAttr(attr_, ACL_TDT_QUEUE_NAME_PTR, sizeof(null_name), &null_name),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("the name is null");
    EXPECT_EQ(acltdtSetQueueAttr(attr_, static_cast<acltdtQueueAttrType>(7), 4, &depth),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("type 7");
    EXPECT_EQ(acltdtSetQueueAttr(attr_, ACL_TDT_QUEUE_DEPTH_UINT32, 4, nullptr),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("param is null");
    EXPECT_EQ(acltdtGetQueueAttr(attr_, ACL_TDT_QUEUE_DEPTH_UINT32, 2, &size, &depth),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("len 2 is less than");
    EXPECT_EQ(acltdtGetQueueAttr(attr_, ACL_TDT_QUEUE_DEPTH_UINT32, 4, nullptr, &depth),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("paramRetSize is null");
    EXPECT_EQ(acltdtGetQueueAttr(nullptr, ACL_TDT_QUEUE_DEPTH_UINT32, 4, &size, &depth),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("attr is null");
}

TEST_F(TdtQueueAttr, ADestroyedOrForeignAttributeIsRefused) {
    acltdtQueueAttr* gone = acltdtCreateQueueAttr();
    ASSERT_EQ(acltdtDestroyQueueAttr(gone), ACL_SUCCESS);
    EXPECT_EQ(acltdtDestroyQueueAttr(gone), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live queue attribute");
    uint32_t qid = 0;
    alignas(8) char foreign[256] = {};
    EXPECT_EQ(acltdtCreateQueue(reinterpret_cast<acltdtQueueAttr*>(foreign), &qid),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live queue attribute");
    EXPECT_EQ(acltdtDestroyQueueAttr(nullptr), ACL_ERROR_INVALID_PARAM);
}

// Routes.

TEST_F(TdtQueueRoute, ARouteForwardsEveryItemInOrder) {
    TestQueue src, dst(64);
    ASSERT_EQ(Bind({{src.id(), dst.id()}}), ACL_SUCCESS);
    for (int i = 0; i < 50; ++i)
        ASSERT_EQ(PutInt(src.id(), i), ACL_SUCCESS);
    for (int i = 0; i < 50; ++i)
        ASSERT_EQ(TakeInt(dst.id(), 1000), i);
}

TEST_F(TdtQueueRoute, ARouteCarriesBuffersWithTheirUserData) {
    TestQueue src, dst;
    ASSERT_EQ(Bind({{src.id(), dst.id()}}), ACL_SUCCESS);
    acltdtBuf buf = NewBuf("routed");
    const uint32_t tag = 11;
    ASSERT_EQ(acltdtSetBufUserData(buf, &tag, sizeof(tag), 0), ACL_SUCCESS);
    ASSERT_EQ(acltdtEnqueue(src.id(), buf, 0), ACL_SUCCESS);
    acltdtBuf out = nullptr;
    ASSERT_EQ(acltdtDequeue(dst.id(), &out, 1000), ACL_SUCCESS);
    EXPECT_EQ(Text(out), "routed");
    uint32_t tag_out = 0;
    ASSERT_EQ(acltdtGetBufUserData(out, &tag_out, sizeof(tag_out), 0), ACL_SUCCESS);
    EXPECT_EQ(tag_out, 11u);
    EXPECT_EQ(acltdtFreeBuf(out), ACL_SUCCESS);
}

TEST_F(TdtQueueRoute, EveryDestinationOfASourceGetsEveryItemSharingItsData) {
    TestQueue src, a, b;
    ASSERT_EQ(Bind({{src.id(), a.id()}, {src.id(), b.id()}}), ACL_SUCCESS);
    ASSERT_EQ(acltdtEnqueue(src.id(), NewBuf("fan-out"), 0), ACL_SUCCESS);
    acltdtBuf from_a = nullptr, from_b = nullptr;
    ASSERT_EQ(acltdtDequeue(a.id(), &from_a, 1000), ACL_SUCCESS);
    ASSERT_EQ(acltdtDequeue(b.id(), &from_b, 1000), ACL_SUCCESS);
    EXPECT_NE(from_a, from_b);
    EXPECT_EQ(Text(from_a), "fan-out");
    EXPECT_EQ(Text(from_b), "fan-out");
    void *data_a = nullptr, *data_b = nullptr;
    size_t size = 0;
    ASSERT_EQ(acltdtGetBufData(from_a, &data_a, &size), ACL_SUCCESS);
    ASSERT_EQ(acltdtGetBufData(from_b, &data_b, &size), ACL_SUCCESS);
    EXPECT_EQ(data_a, data_b) << "the destinations share one data area";
    EXPECT_EQ(acltdtFreeBuf(from_a), ACL_SUCCESS);
    EXPECT_EQ(acltdtFreeBuf(from_b), ACL_SUCCESS);
}

TEST_F(TdtQueueRoute, RoutesChainFromQueueToQueue) {
    TestQueue first, second, third;
    ASSERT_EQ(Bind({{first.id(), second.id()}, {second.id(), third.id()}}), ACL_SUCCESS);
    ASSERT_EQ(PutInt(first.id(), 3), ACL_SUCCESS);
    EXPECT_EQ(TakeInt(third.id(), 1000), 3);
}

TEST_F(TdtQueueRoute, ItemsWaitingInTheSourceMoveWhenTheRouteIsBound) {
    TestQueue src, dst;
    ASSERT_EQ(PutInt(src.id(), 1), ACL_SUCCESS);
    ASSERT_EQ(PutInt(src.id(), 2), ACL_SUCCESS);
    ASSERT_EQ(Bind({{src.id(), dst.id()}}), ACL_SUCCESS);
    EXPECT_EQ(TakeInt(dst.id(), 1000), 1);
    EXPECT_EQ(TakeInt(dst.id(), 1000), 2);
}

TEST_F(TdtQueueRoute, AFullDestinationHoldsTheSourceBack) {
    TestQueue src(2), dst(2);
    ASSERT_EQ(Bind({{src.id(), dst.id()}}), ACL_SUCCESS);
    for (int i = 0; i < 4; ++i)
        ASSERT_EQ(PutInt(src.id(), i, 1000), ACL_SUCCESS) << i;
    EXPECT_EQ(PutInt(src.id(), 4, 20), ACL_ERROR_RT_QUEUE_FULL)
        << "two items in the destination, two waiting in the source";
    for (int i = 0; i < 4; ++i)
        EXPECT_EQ(TakeInt(dst.id(), 1000), i);
}

TEST_F(TdtQueueRoute, UnbindingStopsTheForwarding) {
    TestQueue src, dst;
    acltdtQueueRouteList* list = List({{src.id(), dst.id()}});
    ASSERT_EQ(acltdtBindQueueRoutes(list), ACL_SUCCESS);
    ASSERT_EQ(acltdtUnbindQueueRoutes(list), ACL_SUCCESS);
    EXPECT_EQ(Field(list, 0, ACL_TDT_QUEUE_ROUTE_STATUS_INT32),
              uint32_t{ACL_TDT_QUEUE_ROUTE_UNBIND});
    ASSERT_EQ(PutInt(src.id(), 5), ACL_SUCCESS);
    int value = 0;
    size_t size = 0;
    EXPECT_EQ(acltdtDequeueData(dst.id(), &value, sizeof(value), &size, nullptr, 0, 30),
              ACL_ERROR_RT_QUEUE_EMPTY);
    EXPECT_EQ(TakeInt(src.id(), 0), 5);
}

TEST_F(TdtQueueRoute, BindingSetsEachRoutesStatusAndReportsTheFailures) {
    TestQueue a, b;
    const uint32_t unknown = 0xFFFFFF03u;
    acltdtQueueRouteList* list = List({{a.id(), b.id()}, {a.id(), unknown}});
    bound_.push_back(list);
    EXPECT_EQ(acltdtBindQueueRoutes(list), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_THAT_MESSAGE_CONTAINS("destination 4294967043 is not a queue of this process");
    EXPECT_EQ(Field(list, 0, ACL_TDT_QUEUE_ROUTE_STATUS_INT32), uint32_t{ACL_TDT_QUEUE_ROUTE_BIND});
    EXPECT_EQ(Field(list, 1, ACL_TDT_QUEUE_ROUTE_STATUS_INT32),
              uint32_t{ACL_TDT_QUEUE_ROUTE_UNBIND});
    EXPECT_EQ(Field(list, 1, ACL_TDT_QUEUE_ROUTE_DST_UINT32), unknown);
    EXPECT_EQ(acltdtGetQueueRouteNum(Query(ACL_TDT_QUEUE_ROUTE_QUERY_SRC, a.id(), 0)), 1u);
}

TEST_F(TdtQueueRoute, ARouteClosingACycleOrToItselfIsRefused) {
    TestQueue a, b, c;
    ASSERT_EQ(Bind({{a.id(), b.id()}, {b.id(), c.id()}}), ACL_SUCCESS);
    EXPECT_EQ(Bind({{c.id(), a.id()}}), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_THAT_MESSAGE_CONTAINS("would close a cycle");
    EXPECT_EQ(Bind({{a.id(), a.id()}}), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_THAT_MESSAGE_CONTAINS("cannot forward to itself");
}

TEST_F(TdtQueueRoute, UnbindingARouteNotBoundFails) {
    TestQueue a, b;
    EXPECT_EQ(acltdtUnbindQueueRoutes(List({{a.id(), b.id()}})), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_THAT_MESSAGE_CONTAINS("is not bound");
}

TEST_F(TdtQueueRoute, QueriesSelectBySourceDestinationOrBoth) {
    TestQueue a, b, c;
    ASSERT_EQ(Bind({{a.id(), b.id()}, {a.id(), c.id()}, {b.id(), c.id()}}), ACL_SUCCESS);
    acltdtQueueRouteList* from_a = Query(ACL_TDT_QUEUE_ROUTE_QUERY_SRC, a.id(), 0);
    ASSERT_EQ(acltdtGetQueueRouteNum(from_a), 2u);
    EXPECT_EQ(Field(from_a, 0, ACL_TDT_QUEUE_ROUTE_DST_UINT32), b.id());
    EXPECT_EQ(Field(from_a, 1, ACL_TDT_QUEUE_ROUTE_DST_UINT32), c.id());
    EXPECT_EQ(Field(from_a, 0, ACL_TDT_QUEUE_ROUTE_STATUS_INT32),
              uint32_t{ACL_TDT_QUEUE_ROUTE_BIND});
    acltdtQueueRouteList* to_c = Query(ACL_TDT_QUEUE_ROUTE_QUERY_DST, 0, c.id());
    ASSERT_EQ(acltdtGetQueueRouteNum(to_c), 2u);
    EXPECT_EQ(Field(to_c, 1, ACL_TDT_QUEUE_ROUTE_SRC_UINT32), b.id());
    acltdtQueueRouteList* b_to_c = Query(ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST, b.id(), c.id());
    EXPECT_EQ(acltdtGetQueueRouteNum(b_to_c), 1u);
    EXPECT_EQ(acltdtGetQueueRouteNum(Query(ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL, 0, 0)), 0u);
}

TEST_F(TdtQueueRoute, AQueryNeedsItsModeAndQueues) {
    acltdtQueueRouteQueryInfo* query = acltdtCreateQueueRouteQueryInfo();
    queries_.push_back(query);
    acltdtQueueRouteList* list = List({});
    EXPECT_EQ(acltdtQueryQueueRoutes(query, list), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("queryInfo has no mode");
    int32_t mode = ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST;
    ASSERT_EQ(acltdtSetQueueRouteQueryInfo(query, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, sizeof(mode),
                                           &mode),
              ACL_SUCCESS);
    EXPECT_EQ(acltdtQueryQueueRoutes(query, list), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("no source queue");
    mode = 5;
    ASSERT_EQ(acltdtSetQueueRouteQueryInfo(query, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, sizeof(mode),
                                           &mode),
              ACL_SUCCESS);
    EXPECT_EQ(acltdtQueryQueueRoutes(query, list), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("mode 5 is not");
    EXPECT_EQ(acltdtSetQueueRouteQueryInfo(query, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, 8, &mode),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("len 8 is not 4");
    EXPECT_EQ(acltdtSetQueueRouteQueryInfo(
                  query, static_cast<acltdtQueueRouteQueryInfoParamType>(9), 4, &mode),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(acltdtSetQueueRouteQueryInfo(query, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, 4, nullptr),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("value is null");
}

TEST_F(TdtQueueRoute, AQueueInABoundRouteCannotBeDestroyedUntilUnbound) {
    uint32_t qid = 0;
    ASSERT_EQ(acltdtCreateQueue(nullptr, &qid), ACL_SUCCESS);
    TestQueue dst;
    acltdtQueueRouteList* list = List({{qid, dst.id()}});
    ASSERT_EQ(acltdtBindQueueRoutes(list), ACL_SUCCESS);
    EXPECT_EQ(acltdtDestroyQueue(qid), ACL_ERROR_FAILURE);
    EXPECT_THAT_MESSAGE_CONTAINS("unbind its routes before destroying it");
    ASSERT_EQ(acltdtUnbindQueueRoutes(list), ACL_SUCCESS);
    EXPECT_EQ(acltdtDestroyQueue(qid), ACL_SUCCESS);
}

TEST_F(TdtQueueRoute, ARouteReadsBackItsQueuesAndStatus) {
    acltdtQueueRoute* route = acltdtCreateQueueRoute(3, 4);
    ASSERT_NE(route, nullptr);
    uint32_t src = 0, dst = 0;
    int32_t status = -1;
    size_t size = 0;
    ASSERT_EQ(acltdtGetQueueRouteParam(route, ACL_TDT_QUEUE_ROUTE_SRC_UINT32, 4, &size, &src),
              ACL_SUCCESS);
    ASSERT_EQ(acltdtGetQueueRouteParam(route, ACL_TDT_QUEUE_ROUTE_DST_UINT32, 4, &size, &dst),
              ACL_SUCCESS);
    ASSERT_EQ(acltdtGetQueueRouteParam(route, ACL_TDT_QUEUE_ROUTE_STATUS_INT32, 4, &size, &status),
              ACL_SUCCESS);
    EXPECT_EQ(src, 3u);
    EXPECT_EQ(dst, 4u);
    EXPECT_EQ(status, ACL_TDT_QUEUE_ROUTE_UNBIND);
    EXPECT_EQ(acltdtGetQueueRouteParam(route, ACL_TDT_QUEUE_ROUTE_SRC_UINT32, 2, &size, &src),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("len 2 is less than");
    EXPECT_EQ(
        acltdtGetQueueRouteParam(route, static_cast<acltdtQueueRouteParamType>(3), 4, &size, &src),
        ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(acltdtGetQueueRouteParam(route, ACL_TDT_QUEUE_ROUTE_SRC_UINT32, 4, nullptr, &src),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("paramRetSize is null");
    EXPECT_EQ(acltdtDestroyQueueRoute(route), ACL_SUCCESS);
}

TEST_F(TdtQueueRoute, RouteListsCountAndIndexTheirRoutes) {
    acltdtQueueRouteList* list = List({{1, 2}, {3, 4}});
    EXPECT_EQ(acltdtGetQueueRouteNum(list), 2u);
    EXPECT_EQ(Field(list, 1, ACL_TDT_QUEUE_ROUTE_SRC_UINT32), 3u);
    acltdtQueueRoute* route = acltdtCreateQueueRoute(0, 0);
    EXPECT_EQ(acltdtGetQueueRoute(list, 2, route), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("index 2 is past the list's 2 routes");
    EXPECT_EQ(acltdtGetQueueRoute(list, 0, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("route is null");
    acltdtDestroyQueueRoute(route);
}

TEST_F(TdtQueueRoute, DestroyedOrForeignRouteObjectsAreRefused) {
    acltdtQueueRoute* route = acltdtCreateQueueRoute(1, 2);
    ASSERT_EQ(acltdtDestroyQueueRoute(route), ACL_SUCCESS);
    EXPECT_EQ(acltdtDestroyQueueRoute(route), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live route");
    acltdtQueueRouteList* list = acltdtCreateQueueRouteList();
    ASSERT_EQ(acltdtDestroyQueueRouteList(list), ACL_SUCCESS);
    EXPECT_EQ(acltdtGetQueueRouteNum(list), 0u);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live route list");
    EXPECT_EQ(acltdtBindQueueRoutes(list), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(acltdtBindQueueRoutes(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("qRouteList is null");
    acltdtQueueRouteQueryInfo* query = acltdtCreateQueueRouteQueryInfo();
    ASSERT_EQ(acltdtDestroyQueueRouteQueryInfo(query), ACL_SUCCESS);
    EXPECT_EQ(acltdtDestroyQueueRouteQueryInfo(query), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live route query");
    EXPECT_EQ(acltdtQueryQueueRoutes(nullptr, List({})), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("queryInfo is null");
    alignas(8) char foreign[64] = {};
    EXPECT_EQ(acltdtAddQueueRoute(reinterpret_cast<acltdtQueueRouteList*>(foreign),
                                  reinterpret_cast<acltdtQueueRoute*>(foreign)),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live route list");
}

TEST_F(TdtQueueRoute, ProducersAndConsumersAcrossARoutePassEveryItemExactlyOnce) {
    constexpr int kProducers = 2, kEach = 1500;
    TestQueue src(8), dst(8);
    ASSERT_EQ(Bind({{src.id(), dst.id()}}), ACL_SUCCESS);
    std::vector<std::atomic<int>> seen(kProducers * kEach);
    std::vector<std::thread> threads;
    for (int p = 0; p < kProducers; ++p) {
        threads.emplace_back([&, p] {
            for (int i = 0; i < kEach; ++i)
                EXPECT_EQ(PutInt(src.id(), p * kEach + i), ACL_SUCCESS);
        });
        threads.emplace_back([&] {
            for (int i = 0; i < kEach; ++i) {
                const int value = TakeInt(dst.id(), 5000);
                ASSERT_GE(value, 0);
                ASSERT_LT(value, kProducers * kEach);
                seen[value].fetch_add(1);
            }
        });
    }
    for (auto& thread : threads)
        thread.join();
    for (int v = 0; v < kProducers * kEach; ++v)
        ASSERT_EQ(seen[v].load(), 1) << "item " << v;
}
