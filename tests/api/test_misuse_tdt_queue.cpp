// Misuse table, message buffers (aclrt*Buf, acltdt*Buf) and TDT queues (acl_tdt_queue.h).
#include <cstdlib>

#include "acl/acl_tdt_queue.h"
#include "misuse_table.h"

TEST(MisuseTable, MessageBuffers) {
    aclrtMbuf live = nullptr, freed = nullptr, member = nullptr, out = nullptr;
    ASSERT_EQ(aclrtAllocBuf(&live, 16), ACL_SUCCESS);
    ASSERT_EQ(aclrtAllocBuf(&member, 16), ACL_SUCCESS);
    ASSERT_EQ(aclrtAppendBufChain(live, member), ACL_SUCCESS);
    ASSERT_EQ(aclrtAllocBuf(&freed, 16), ACL_SUCCESS);
    ASSERT_EQ(aclrtFreeBuf(freed), ACL_SUCCESS);
    void* foreign = std::malloc(16);
    void* data = nullptr;
    size_t size = 0;
    uint32_t num = 0;
    char bytes[97] = {};

    const std::vector<MisuseRow> rows = {
        {"aclrtAllocBuf(NULL)", [&] { return aclrtAllocBuf(nullptr, 8); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtAllocBuf(size 0)", [&] { return aclrtAllocBuf(&out, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtFreeBuf(NULL)", [&] { return aclrtFreeBuf(nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtFreeBuf(freed)", [&] { return aclrtFreeBuf(freed); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtFreeBuf(foreign)", [&] { return aclrtFreeBuf(foreign); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtFreeBuf(appended)", [&] { return aclrtFreeBuf(member); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetBufData(NULL dataPtr)", [&] { return aclrtGetBufData(live, nullptr, &size); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetBufData(freed)", [&] { return aclrtGetBufData(freed, &data, &size); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetBufDataLen(NULL len)", [&] { return aclrtGetBufDataLen(live, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtSetBufDataLen(len > size)", [&] { return aclrtSetBufDataLen(live, 17); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetBufUserData(past 96 bytes)",
         [&] { return aclrtGetBufUserData(live, bytes, 8, 90); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtSetBufUserData(97 bytes)", [&] { return aclrtSetBufUserData(live, bytes, 97, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCopyBufRef(NULL newBuf)", [&] { return aclrtCopyBufRef(live, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCopyBufRef(freed)", [&] { return aclrtCopyBufRef(freed, &out); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtAppendBufChain(itself)", [&] { return aclrtAppendBufChain(live, live); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtAppendBufChain(appended twice)", [&] { return aclrtAppendBufChain(live, member); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetBufChainNum(NULL num)", [&] { return aclrtGetBufChainNum(live, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetBufChainNum(not a head)", [&] { return aclrtGetBufChainNum(member, &num); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetBufFromChain(index past the chain)",
         [&] { return aclrtGetBufFromChain(live, 2, &out); }, ACL_ERROR_INVALID_PARAM},
        {"acltdtAllocBuf(type 7)", [&] { return acltdtAllocBuf(8, 7, &out); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtAllocBuf(NULL)", [&] { return acltdtAllocBuf(8, ACL_TDT_NORMAL_MEM, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtFreeBuf(freed)", [&] { return acltdtFreeBuf(freed); }, ACL_ERROR_INVALID_PARAM},
        {"acltdtGetBufData(NULL size)", [&] { return acltdtGetBufData(live, &data, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtGetBufDataLen(freed)", [&] { return acltdtGetBufDataLen(freed, &size); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtSetBufDataLen(NULL)", [&] { return acltdtSetBufDataLen(nullptr, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtGetBufUserData(NULL dataPtr)",
         [&] { return acltdtGetBufUserData(live, nullptr, 4, 0); }, ACL_ERROR_INVALID_PARAM},
        {"acltdtSetBufUserData(offset past 96)",
         [&] { return acltdtSetBufUserData(live, bytes, 1, 96); }, ACL_ERROR_INVALID_PARAM},
        {"acltdtCopyBufRef(foreign)", [&] { return acltdtCopyBufRef(foreign, &out); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtAppendBufChain(NULL headBuf)", [&] { return acltdtAppendBufChain(nullptr, live); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtGetBufChainNum(freed)", [&] { return acltdtGetBufChainNum(freed, &num); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtGetBufFromChain(NULL buf)", [&] { return acltdtGetBufFromChain(live, 0, nullptr); },
         ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    EXPECT_EQ(aclrtFreeBuf(live), ACL_SUCCESS);
    std::free(foreign);
}

TEST(MisuseTable, TdtQueues) {
    uint32_t qid = 0, gone = 0;
    ASSERT_EQ(acltdtCreateQueue(nullptr, &qid), ACL_SUCCESS);
    ASSERT_EQ(acltdtCreateQueue(nullptr, &gone), ACL_SUCCESS);
    ASSERT_EQ(acltdtDestroyQueue(gone), ACL_SUCCESS);
    // Every live descriptor exists before the freed ones are destroyed, so none takes a freed
    // one's address.
    acltdtQueueAttr* attr = acltdtCreateQueueAttr();
    acltdtQueueAttr* shallow = acltdtCreateQueueAttr();
    acltdtQueueAttr* freed_attr = acltdtCreateQueueAttr();
    ASSERT_EQ(acltdtDestroyQueueAttr(freed_attr), ACL_SUCCESS);
    const uint32_t one = 1;
    ASSERT_EQ(acltdtSetQueueAttr(shallow, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof(one), &one),
              ACL_SUCCESS);
    acltdtBuf buf = nullptr;
    int value = 0;
    size_t size = 0;
    uint32_t permission = 0;
    char small[2];

    const std::vector<MisuseRow> rows = {
        {"acltdtCreateQueue(NULL qid)", [&] { return acltdtCreateQueue(nullptr, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtCreateQueue(depth 1)", [&] { return acltdtCreateQueue(shallow, &gone); },
         ACL_ERROR_RT_PARAM_INVALID},
        {"acltdtCreateQueue(destroyed attr)", [&] { return acltdtCreateQueue(freed_attr, &gone); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtDestroyQueue(destroyed)", [&] { return acltdtDestroyQueue(gone); },
         ACL_ERROR_RT_PARAM_INVALID},
        {"acltdtEnqueue(NULL buf)", [&] { return acltdtEnqueue(qid, nullptr, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtEnqueue(destroyed queue)", [&] { return acltdtEnqueue(gone, &value, 0); },
         ACL_ERROR_RT_PARAM_INVALID},
        {"acltdtDequeue(NULL buf)", [&] { return acltdtDequeue(qid, nullptr, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtDequeue(empty)", [&] { return acltdtDequeue(qid, &buf, 0); },
         ACL_ERROR_RT_QUEUE_EMPTY},
        {"acltdtEnqueueData(NULL data)",
         [&] { return acltdtEnqueueData(qid, nullptr, 4, nullptr, 0, 0, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtEnqueueData(userDataSize 97)",
         [&] { return acltdtEnqueueData(qid, &value, 4, &value, 97, 0, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtDequeueData(NULL retDataSize)",
         [&] { return acltdtDequeueData(qid, &value, 4, nullptr, nullptr, 0, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtDequeueData(empty)",
         [&] { return acltdtDequeueData(qid, small, sizeof(small), &size, nullptr, 0, 0); },
         ACL_ERROR_RT_QUEUE_EMPTY},
        {"acltdtGrantQueue(permission 0)", [&] { return acltdtGrantQueue(qid, 1, 0, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtGrantQueue(another process)",
         [&] { return acltdtGrantQueue(qid, 1, ACL_TDT_QUEUE_PERMISSION_ENQUEUE, 0); },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
        {"acltdtAttachQueue(NULL permission)", [&] { return acltdtAttachQueue(qid, 0, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtAttachQueue(destroyed)", [&] { return acltdtAttachQueue(gone, 0, &permission); },
         ACL_ERROR_RT_PARAM_INVALID},
        {"acltdtDestroyQueueAttr(destroyed)", [&] { return acltdtDestroyQueueAttr(freed_attr); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtSetQueueAttr(len 2)",
         [&] { return acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 2, &value); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtGetQueueAttr(NULL paramRetSize)",
         [&] { return acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 4, nullptr, &value); },
         ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    EXPECT_EQ(acltdtDestroyQueueAttr(attr), ACL_SUCCESS);
    EXPECT_EQ(acltdtDestroyQueueAttr(shallow), ACL_SUCCESS);
    EXPECT_EQ(acltdtDestroyQueue(qid), ACL_SUCCESS);
}

TEST(MisuseTable, TdtQueueRoutes) {
    // Every live descriptor exists before the freed ones are destroyed, so none takes a freed
    // one's address.
    acltdtQueueRoute* route = acltdtCreateQueueRoute(1, 2);
    acltdtQueueRoute* unknown = acltdtCreateQueueRoute(0xFFFFFFF0u, 0xFFFFFFF1u);
    acltdtQueueRouteList* list = acltdtCreateQueueRouteList();
    acltdtQueueRouteList* unknown_queues = acltdtCreateQueueRouteList();
    ASSERT_EQ(acltdtAddQueueRoute(unknown_queues, unknown), ACL_SUCCESS);
    acltdtQueueRouteQueryInfo* query = acltdtCreateQueueRouteQueryInfo();
    acltdtQueueRoute* freed_route = acltdtCreateQueueRoute(1, 2);
    acltdtQueueRouteList* freed_list = acltdtCreateQueueRouteList();
    acltdtQueueRouteQueryInfo* freed_query = acltdtCreateQueueRouteQueryInfo();
    ASSERT_EQ(acltdtDestroyQueueRoute(freed_route), ACL_SUCCESS);
    ASSERT_EQ(acltdtDestroyQueueRouteList(freed_list), ACL_SUCCESS);
    ASSERT_EQ(acltdtDestroyQueueRouteQueryInfo(freed_query), ACL_SUCCESS);
    uint32_t field = 0;
    size_t size = 0;

    const std::vector<MisuseRow> rows = {
        {"acltdtBindQueueRoutes(NULL)", [&] { return acltdtBindQueueRoutes(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtBindQueueRoutes(unknown queues)",
         [&] { return acltdtBindQueueRoutes(unknown_queues); }, ACL_ERROR_RT_PARAM_INVALID},
        {"acltdtUnbindQueueRoutes(not bound)",
         [&] { return acltdtUnbindQueueRoutes(unknown_queues); }, ACL_ERROR_RT_PARAM_INVALID},
        {"acltdtUnbindQueueRoutes(destroyed list)",
         [&] { return acltdtUnbindQueueRoutes(freed_list); }, ACL_ERROR_INVALID_PARAM},
        {"acltdtQueryQueueRoutes(no mode set)", [&] { return acltdtQueryQueueRoutes(query, list); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtQueryQueueRoutes(destroyed query)",
         [&] { return acltdtQueryQueueRoutes(freed_query, list); }, ACL_ERROR_INVALID_PARAM},
        {"acltdtDestroyQueueRoute(destroyed)", [&] { return acltdtDestroyQueueRoute(freed_route); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtGetQueueRouteParam(type 9)",
         [&] {
             return acltdtGetQueueRouteParam(route, static_cast<acltdtQueueRouteParamType>(9), 4,
                                             &size, &field);
         },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtDestroyQueueRouteList(destroyed)",
         [&] { return acltdtDestroyQueueRouteList(freed_list); }, ACL_ERROR_INVALID_PARAM},
        {"acltdtAddQueueRoute(destroyed route)",
         [&] { return acltdtAddQueueRoute(list, freed_route); }, ACL_ERROR_INVALID_PARAM},
        {"acltdtGetQueueRoute(index past the list)",
         [&] { return acltdtGetQueueRoute(list, 0, route); }, ACL_ERROR_INVALID_PARAM},
        {"acltdtGetQueueRouteNum(NULL)",
         [&] { return acltdtGetQueueRouteNum(nullptr) == 0 ? RecordedError() : ACL_SUCCESS; },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtDestroyQueueRouteQueryInfo(destroyed)",
         [&] { return acltdtDestroyQueueRouteQueryInfo(freed_query); }, ACL_ERROR_INVALID_PARAM},
        {"acltdtSetQueueRouteQueryInfo(NULL value)",
         [&] {
             return acltdtSetQueueRouteQueryInfo(query, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, 4,
                                                 nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    EXPECT_EQ(acltdtDestroyQueueRoute(route), ACL_SUCCESS);
    EXPECT_EQ(acltdtDestroyQueueRoute(unknown), ACL_SUCCESS);
    EXPECT_EQ(acltdtDestroyQueueRouteList(list), ACL_SUCCESS);
    EXPECT_EQ(acltdtDestroyQueueRouteList(unknown_queues), ACL_SUCCESS);
    EXPECT_EQ(acltdtDestroyQueueRouteQueryInfo(query), ACL_SUCCESS);
}

// The descriptor constructors take no argument, or any ids (bind checks them): at their edges
// they answer and record nothing.
TEST(MisuseTable, TdtDescriptorsWithoutBadInputAnswerAtTheirEdges) {
    aclGetRecentErrMsg();
    acltdtQueueAttr* attr = acltdtCreateQueueAttr();
    acltdtQueueRouteList* list = acltdtCreateQueueRouteList();
    acltdtQueueRouteQueryInfo* query = acltdtCreateQueueRouteQueryInfo();
    acltdtQueueRoute* route = acltdtCreateQueueRoute(0xFFFFFFFFu, 0xFFFFFFFFu);
    EXPECT_NE(attr, nullptr);
    EXPECT_NE(list, nullptr);
    EXPECT_NE(query, nullptr);
    EXPECT_NE(route, nullptr);
    EXPECT_EQ(acltdtDestroyQueueAttr(attr), ACL_SUCCESS);
    EXPECT_EQ(acltdtDestroyQueueRouteList(list), ACL_SUCCESS);
    EXPECT_EQ(acltdtDestroyQueueRouteQueryInfo(query), ACL_SUCCESS);
    EXPECT_EQ(acltdtDestroyQueueRoute(route), ACL_SUCCESS);
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr) << "none of these is an error";
}
