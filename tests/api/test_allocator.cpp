// acl_rt_allocator.h: describing an application's allocator and registering it on a stream.
#include <gtest/gtest.h>

#include <cstdlib>

#include "acl/acl.h"
#include "test_support.h"

namespace {

int g_object;  // the application's allocator object; only its address matters here

aclrtAllocatorBlock Alloc(aclrtAllocator, size_t size) {
    return std::malloc(size);
}
void Free(aclrtAllocator, aclrtAllocatorBlock block) {
    std::free(block);
}
aclrtAllocatorBlock AllocAdvise(aclrtAllocator, size_t size, aclrtAllocatorAddr) {
    return std::malloc(size);
}
aclrtAllocatorAddr AddrOfBlock(aclrtAllocatorBlock block) {
    return block;
}

// A description with everything registration needs.
aclrtAllocatorDesc CompleteDesc() {
    aclrtAllocatorDesc desc = aclrtAllocatorCreateDesc();
    EXPECT_NE(desc, nullptr);
    EXPECT_EQ(aclrtAllocatorSetObjToDesc(desc, &g_object), ACL_SUCCESS);
    EXPECT_EQ(aclrtAllocatorSetAllocFuncToDesc(desc, Alloc), ACL_SUCCESS);
    EXPECT_EQ(aclrtAllocatorSetFreeFuncToDesc(desc, Free), ACL_SUCCESS);
    EXPECT_EQ(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc, AddrOfBlock), ACL_SUCCESS);
    return desc;
}

struct Registered {
    aclrtAllocatorDesc desc = nullptr;
    aclrtAllocator object = nullptr;
    aclrtAllocatorAllocFunc alloc = nullptr;
    aclrtAllocatorFreeFunc free = nullptr;
    aclrtAllocatorAllocAdviseFunc advise = nullptr;
    aclrtAllocatorGetAddrFromBlockFunc addr = nullptr;
};

aclError GetByStream(aclrtStream stream, Registered* r) {
    return aclrtAllocatorGetByStream(stream, &r->desc, &r->object, &r->alloc, &r->free, &r->advise,
                                     &r->addr);
}

class AllocatorDesc : public ::testing::Test {};
class AllocatorRegister : public DeviceTest {};

TEST_F(AllocatorDesc, CreateAndDestroyNeedNoDevice) {
    aclrtAllocatorDesc desc = aclrtAllocatorCreateDesc();
    ASSERT_NE(desc, nullptr);
    EXPECT_EQ(aclrtAllocatorDestroyDesc(desc), ACL_SUCCESS);
}

TEST_F(AllocatorDesc, DestroyTwiceIsInvalidParam) {
    aclrtAllocatorDesc desc = aclrtAllocatorCreateDesc();
    ASSERT_EQ(aclrtAllocatorDestroyDesc(desc), ACL_SUCCESS);
    EXPECT_EQ(aclrtAllocatorDestroyDesc(desc), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("not a live allocator description");
}

TEST_F(AllocatorDesc, SettersRejectNullDescriptionAndNullValues) {
    EXPECT_EQ(aclrtAllocatorSetObjToDesc(nullptr, &g_object), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtAllocatorSetAllocFuncToDesc(nullptr, Alloc), ACL_ERROR_INVALID_PARAM);
    aclrtAllocatorDesc desc = aclrtAllocatorCreateDesc();
    EXPECT_EQ(aclrtAllocatorSetObjToDesc(desc, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtAllocatorSetAllocFuncToDesc(desc, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtAllocatorSetFreeFuncToDesc(desc, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtAllocatorSetAllocAdviseFuncToDesc(desc, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("func is null");
    aclrtAllocatorDestroyDesc(desc);
}

TEST_F(AllocatorDesc, SettersRejectADestroyedDescription) {
    aclrtAllocatorDesc desc = aclrtAllocatorCreateDesc();
    aclrtAllocatorDestroyDesc(desc);
    EXPECT_EQ(aclrtAllocatorSetFreeFuncToDesc(desc, Free), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("not a live allocator description");
}

TEST_F(AllocatorRegister, GetByStreamReturnsWhatWasRegistered) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    aclrtAllocatorDesc desc = CompleteDesc();
    ASSERT_EQ(aclrtAllocatorSetAllocAdviseFuncToDesc(desc, AllocAdvise), ACL_SUCCESS);
    ASSERT_EQ(aclrtAllocatorRegister(stream, desc), ACL_SUCCESS);
    Registered r;
    ASSERT_EQ(GetByStream(stream, &r), ACL_SUCCESS);
    EXPECT_EQ(r.desc, desc);
    EXPECT_EQ(r.object, &g_object);
    EXPECT_EQ(r.alloc, &Alloc);
    EXPECT_EQ(r.free, &Free);
    EXPECT_EQ(r.advise, &AllocAdvise);
    EXPECT_EQ(r.addr, &AddrOfBlock);
    aclrtAllocatorDestroyDesc(desc);
    aclrtDestroyStream(stream);
}

TEST_F(AllocatorRegister, AStreamWithoutOneAnswersNulls) {
    Registered r;
    r.object = &g_object;
    ASSERT_EQ(GetByStream(nullptr, &r), ACL_SUCCESS);
    EXPECT_EQ(r.desc, nullptr);
    EXPECT_EQ(r.object, nullptr);
    EXPECT_EQ(r.alloc, nullptr);
}

TEST_F(AllocatorRegister, TheDefaultStreamTakesOneToo) {
    aclrtAllocatorDesc desc = CompleteDesc();
    ASSERT_EQ(aclrtAllocatorRegister(nullptr, desc), ACL_SUCCESS);
    Registered r;
    ASSERT_EQ(GetByStream(nullptr, &r), ACL_SUCCESS);
    EXPECT_EQ(r.object, &g_object);
    aclrtAllocatorDestroyDesc(desc);
}

TEST_F(AllocatorRegister, RegistrationOutlivesTheDescription) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    aclrtAllocatorDesc desc = CompleteDesc();
    ASSERT_EQ(aclrtAllocatorRegister(stream, desc), ACL_SUCCESS);
    ASSERT_EQ(aclrtAllocatorDestroyDesc(desc), ACL_SUCCESS);
    Registered r;
    ASSERT_EQ(GetByStream(stream, &r), ACL_SUCCESS);
    EXPECT_EQ(r.alloc, &Alloc);
    aclrtDestroyStream(stream);
}

TEST_F(AllocatorRegister, ASecondRegistrationReplacesTheFirst) {
    aclrtAllocatorDesc first = CompleteDesc();
    aclrtAllocatorDesc second = CompleteDesc();
    ASSERT_EQ(aclrtAllocatorSetAllocAdviseFuncToDesc(second, AllocAdvise), ACL_SUCCESS);
    ASSERT_EQ(aclrtAllocatorRegister(nullptr, first), ACL_SUCCESS);
    ASSERT_EQ(aclrtAllocatorRegister(nullptr, second), ACL_SUCCESS);
    Registered r;
    ASSERT_EQ(GetByStream(nullptr, &r), ACL_SUCCESS);
    EXPECT_EQ(r.desc, second);
    EXPECT_EQ(r.advise, &AllocAdvise);
    aclrtAllocatorDestroyDesc(first);
    aclrtAllocatorDestroyDesc(second);
}

TEST_F(AllocatorRegister, UnregisterLeavesTheStreamWithout) {
    aclrtAllocatorDesc desc = CompleteDesc();
    ASSERT_EQ(aclrtAllocatorRegister(nullptr, desc), ACL_SUCCESS);
    ASSERT_EQ(aclrtAllocatorUnregister(nullptr), ACL_SUCCESS);
    Registered r;
    ASSERT_EQ(GetByStream(nullptr, &r), ACL_SUCCESS);
    EXPECT_EQ(r.desc, nullptr);
    EXPECT_EQ(aclrtAllocatorUnregister(nullptr), ACL_SUCCESS);
    aclrtAllocatorDestroyDesc(desc);
}

TEST_F(AllocatorRegister, AnIncompleteDescriptionIsRefusedNamingWhatIsMissing) {
    aclrtAllocatorDesc desc = aclrtAllocatorCreateDesc();
    ASSERT_EQ(aclrtAllocatorSetObjToDesc(desc, &g_object), ACL_SUCCESS);
    ASSERT_EQ(aclrtAllocatorSetAllocFuncToDesc(desc, Alloc), ACL_SUCCESS);
    EXPECT_EQ(aclrtAllocatorRegister(nullptr, desc), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("aclrtAllocatorSetFreeFuncToDesc");
    aclrtAllocatorDestroyDesc(desc);
}

TEST_F(AllocatorRegister, ADeadStreamIsInvalidParam) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    aclrtAllocatorDesc desc = CompleteDesc();
    EXPECT_EQ(aclrtAllocatorRegister(stream, desc), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtAllocatorUnregister(stream), ACL_ERROR_INVALID_PARAM);
    aclrtAllocatorDestroyDesc(desc);
}

TEST_F(AllocatorRegister, GetByStreamRejectsNullOutputs) {
    Registered r;
    EXPECT_EQ(
        aclrtAllocatorGetByStream(nullptr, &r.desc, &r.object, &r.alloc, &r.free, nullptr, &r.addr),
        ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("allocAdviseFunc is null");
}

TEST(AllocatorWithoutContext, RegisterNeedsACurrentContext) {
    aclrtAllocatorDesc desc = CompleteDesc();
    EXPECT_EQ(aclrtAllocatorRegister(nullptr, desc), ACL_ERROR_RT_CONTEXT_NULL);
    aclrtAllocatorDestroyDesc(desc);
}

}  // namespace
