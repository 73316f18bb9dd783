// Message buffers (aclrtAllocBuf ... and their acltdt* names): a data area with a valid length,
// a 96-byte user-data area, reference copies sharing the data, chains of up to 128 buffers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_tdt_queue.h"
#include "test_support.h"

namespace {

class Mbuf : public ::testing::Test {
 protected:
    void SetUp() override { ClearErrMsgs(); }
    void TearDown() override {
        for (aclrtMbuf buf : owned_)
            aclrtFreeBuf(buf);
        ClearErrMsgs();
    }
    // A buffer of `size` bytes, freed after the test unless the test frees it.
    aclrtMbuf Alloc(size_t size) {
        aclrtMbuf buf = nullptr;
        EXPECT_EQ(aclrtAllocBuf(&buf, size), ACL_SUCCESS);
        owned_.push_back(buf);
        return buf;
    }
    void Forget(aclrtMbuf buf) {
        owned_.erase(std::remove(owned_.begin(), owned_.end(), buf), owned_.end());
    }
    static std::string Data(aclrtMbuf buf, size_t n) {
        void* data = nullptr;
        size_t size = 0;
        EXPECT_EQ(aclrtGetBufData(buf, &data, &size), ACL_SUCCESS);
        return std::string(static_cast<const char*>(data), n);
    }
    static void Write(aclrtMbuf buf, const std::string& text) {
        void* data = nullptr;
        size_t size = 0;
        ASSERT_EQ(aclrtGetBufData(buf, &data, &size), ACL_SUCCESS);
        ASSERT_GE(size, text.size());
        std::memcpy(data, text.data(), text.size());
        ASSERT_EQ(aclrtSetBufDataLen(buf, text.size()), ACL_SUCCESS);
    }

    std::vector<aclrtMbuf> owned_;
};

}  // namespace

TEST_F(Mbuf, AnAllocatedBufferHasTheRequestedSizeAndNoValidData) {
    aclrtMbuf buf = Alloc(1000);
    void* data = nullptr;
    size_t size = 0, len = 1;
    ASSERT_EQ(aclrtGetBufData(buf, &data, &size), ACL_SUCCESS);
    EXPECT_NE(data, nullptr);
    EXPECT_EQ(size, 1000u);
    ASSERT_EQ(aclrtGetBufDataLen(buf, &len), ACL_SUCCESS);
    EXPECT_EQ(len, 0u);
}

TEST_F(Mbuf, TheDataAreaIs64ByteAligned) {
    void* data = nullptr;
    size_t size = 0;
    ASSERT_EQ(aclrtGetBufData(Alloc(3), &data, &size), ACL_SUCCESS);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(data) % 64, 0u);
}

TEST_F(Mbuf, TheValidLengthIsWhatWasSet) {
    aclrtMbuf buf = Alloc(64);
    ASSERT_EQ(aclrtSetBufDataLen(buf, 64), ACL_SUCCESS);
    size_t len = 0;
    ASSERT_EQ(aclrtGetBufDataLen(buf, &len), ACL_SUCCESS);
    EXPECT_EQ(len, 64u);
}

TEST_F(Mbuf, ALengthAboveTheSizeIsRefused) {
    aclrtMbuf buf = Alloc(64);
    EXPECT_EQ(aclrtSetBufDataLen(buf, 65), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("len 65 is more than the buffer's 64 bytes");
}

TEST_F(Mbuf, UserDataRoundTripsAtAnOffset) {
    aclrtMbuf buf = Alloc(8);
    const char in[] = "context";
    ASSERT_EQ(aclrtSetBufUserData(buf, in, sizeof(in), 40), ACL_SUCCESS);
    char out[sizeof(in)] = {};
    ASSERT_EQ(aclrtGetBufUserData(buf, out, sizeof(out), 40), ACL_SUCCESS);
    EXPECT_STREQ(out, "context");
}

TEST_F(Mbuf, TheWhole96ByteUserDataAreaIsUsable) {
    aclrtMbuf buf = Alloc(8);
    unsigned char in[96], out[96] = {};
    for (int i = 0; i < 96; ++i)
        in[i] = static_cast<unsigned char>(i);
    ASSERT_EQ(aclrtSetBufUserData(buf, in, 96, 0), ACL_SUCCESS);
    ASSERT_EQ(aclrtGetBufUserData(buf, out, 96, 0), ACL_SUCCESS);
    EXPECT_EQ(std::memcmp(in, out, 96), 0);
}

TEST_F(Mbuf, UserDataPastTheNinetySixthByteIsRefused) {
    aclrtMbuf buf = Alloc(8);
    char bytes[97] = {};
    EXPECT_EQ(aclrtSetBufUserData(buf, bytes, 97, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("leaves the 96-byte user-data area");
    EXPECT_EQ(aclrtGetBufUserData(buf, bytes, 8, 89), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("size 8 at offset 89");
    EXPECT_EQ(aclrtSetBufUserData(buf, bytes, 1, SIZE_MAX), ACL_ERROR_INVALID_PARAM);
}

TEST_F(Mbuf, ACopiedReferenceSharesTheDataArea) {
    aclrtMbuf buf = Alloc(16);
    Write(buf, "shared");
    aclrtMbuf copy = nullptr;
    ASSERT_EQ(aclrtCopyBufRef(buf, &copy), ACL_SUCCESS);
    EXPECT_NE(copy, buf);
    void *a = nullptr, *b = nullptr;
    size_t size_a = 0, size_b = 0;
    ASSERT_EQ(aclrtGetBufData(buf, &a, &size_a), ACL_SUCCESS);
    ASSERT_EQ(aclrtGetBufData(copy, &b, &size_b), ACL_SUCCESS);
    EXPECT_EQ(a, b);
    EXPECT_EQ(size_a, size_b);
    ASSERT_EQ(aclrtFreeBuf(buf), ACL_SUCCESS);
    Forget(buf);
    EXPECT_EQ(Data(copy, 6), "shared") << "the data lives while a reference does";
    EXPECT_EQ(aclrtFreeBuf(copy), ACL_SUCCESS);
}

TEST_F(Mbuf, ACopiedReferenceStartsWithTheLengthAndUserDataThenKeepsItsOwn) {
    aclrtMbuf buf = Alloc(16);
    Write(buf, "abcd");
    const uint32_t tag = 7;
    ASSERT_EQ(aclrtSetBufUserData(buf, &tag, sizeof(tag), 0), ACL_SUCCESS);
    aclrtMbuf copy = nullptr;
    ASSERT_EQ(aclrtCopyBufRef(buf, &copy), ACL_SUCCESS);
    owned_.push_back(copy);
    size_t len = 0;
    uint32_t copied_tag = 0;
    ASSERT_EQ(aclrtGetBufDataLen(copy, &len), ACL_SUCCESS);
    ASSERT_EQ(aclrtGetBufUserData(copy, &copied_tag, sizeof(copied_tag), 0), ACL_SUCCESS);
    EXPECT_EQ(len, 4u);
    EXPECT_EQ(copied_tag, 7u);
    ASSERT_EQ(aclrtSetBufDataLen(copy, 2), ACL_SUCCESS);
    ASSERT_EQ(aclrtGetBufDataLen(buf, &len), ACL_SUCCESS);
    EXPECT_EQ(len, 4u);
}

TEST_F(Mbuf, AppendedBuffersAreCountedAndIndexedInOrder) {
    aclrtMbuf head = Alloc(4), second = Alloc(4), third = Alloc(4);
    ASSERT_EQ(aclrtAppendBufChain(head, second), ACL_SUCCESS);
    ASSERT_EQ(aclrtAppendBufChain(head, third), ACL_SUCCESS);
    Forget(second);
    Forget(third);
    uint32_t num = 0;
    ASSERT_EQ(aclrtGetBufChainNum(head, &num), ACL_SUCCESS);
    EXPECT_EQ(num, 3u);
    aclrtMbuf at[3] = {};
    for (uint32_t i = 0; i < 3; ++i)
        ASSERT_EQ(aclrtGetBufFromChain(head, i, &at[i]), ACL_SUCCESS);
    EXPECT_EQ(at[0], head);
    EXPECT_EQ(at[1], second);
    EXPECT_EQ(at[2], third);
}

TEST_F(Mbuf, ALoneBufferIsAChainOfOne) {
    uint32_t num = 0;
    ASSERT_EQ(aclrtGetBufChainNum(Alloc(4), &num), ACL_SUCCESS);
    EXPECT_EQ(num, 1u);
}

TEST_F(Mbuf, AppendingAChainsHeadAppendsTheWholeChain) {
    aclrtMbuf head = Alloc(4), other = Alloc(4), tail = Alloc(4);
    ASSERT_EQ(aclrtAppendBufChain(other, tail), ACL_SUCCESS);
    ASSERT_EQ(aclrtAppendBufChain(head, other), ACL_SUCCESS);
    Forget(other);
    Forget(tail);
    uint32_t num = 0;
    ASSERT_EQ(aclrtGetBufChainNum(head, &num), ACL_SUCCESS);
    EXPECT_EQ(num, 3u);
    aclrtMbuf last = nullptr;
    ASSERT_EQ(aclrtGetBufFromChain(head, 2, &last), ACL_SUCCESS);
    EXPECT_EQ(last, tail);
}

TEST_F(Mbuf, FreeingTheHeadFreesTheWholeChain) {
    aclrtMbuf head = Alloc(4), member = Alloc(4);
    ASSERT_EQ(aclrtAppendBufChain(head, member), ACL_SUCCESS);
    ASSERT_EQ(aclrtFreeBuf(head), ACL_SUCCESS);
    Forget(head);
    Forget(member);
    size_t len = 0;
    EXPECT_EQ(aclrtGetBufDataLen(member, &len), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live buffer");
}

TEST_F(Mbuf, FreeingAnAppendedBufferIsRefused) {
    aclrtMbuf head = Alloc(4), member = Alloc(4);
    ASSERT_EQ(aclrtAppendBufChain(head, member), ACL_SUCCESS);
    Forget(member);
    EXPECT_EQ(aclrtFreeBuf(member), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("freeing the head frees it");
}

TEST_F(Mbuf, AChainHoldsAtMost128Buffers) {
    aclrtMbuf head = Alloc(1);
    for (int i = 1; i < 128; ++i) {
        aclrtMbuf buf = nullptr;
        ASSERT_EQ(aclrtAllocBuf(&buf, 1), ACL_SUCCESS);
        ASSERT_EQ(aclrtAppendBufChain(head, buf), ACL_SUCCESS) << i;
    }
    aclrtMbuf extra = Alloc(1);
    EXPECT_EQ(aclrtAppendBufChain(head, extra), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("at most 128");
}

TEST_F(Mbuf, AppendingABufferToItselfOrTwiceIsRefused) {
    aclrtMbuf head = Alloc(4), member = Alloc(4), other = Alloc(4);
    EXPECT_EQ(aclrtAppendBufChain(head, head), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is headBuf itself");
    ASSERT_EQ(aclrtAppendBufChain(head, member), ACL_SUCCESS);
    Forget(member);
    EXPECT_EQ(aclrtAppendBufChain(other, member), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is in the chain headed by");
    EXPECT_EQ(aclrtAppendBufChain(member, other), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a chain's head");
}

TEST_F(Mbuf, AnIndexPastTheChainIsRefused) {
    aclrtMbuf buf = nullptr;
    EXPECT_EQ(aclrtGetBufFromChain(Alloc(4), 1, &buf), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("index 1 is past the chain's 1 buffers");
}

TEST_F(Mbuf, ADoubleFreeIsRefused) {
    aclrtMbuf buf = nullptr;
    ASSERT_EQ(aclrtAllocBuf(&buf, 4), ACL_SUCCESS);
    ASSERT_EQ(aclrtFreeBuf(buf), ACL_SUCCESS);
    EXPECT_EQ(aclrtFreeBuf(buf), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("freed already");
}

TEST_F(Mbuf, AFreedHandleNeverNamesANewerBuffer) {
    aclrtMbuf old_buf = nullptr, new_buf = nullptr;
    ASSERT_EQ(aclrtAllocBuf(&old_buf, 4), ACL_SUCCESS);
    ASSERT_EQ(aclrtFreeBuf(old_buf), ACL_SUCCESS);
    new_buf = Alloc(4);
    EXPECT_NE(new_buf, old_buf);
    EXPECT_EQ(aclrtFreeBuf(old_buf), ACL_ERROR_INVALID_PARAM);
}

TEST_F(Mbuf, AForeignPointerIsRefused) {
    void* heap = std::malloc(64);
    int on_stack = 0;
    size_t len = 0;
    EXPECT_EQ(aclrtFreeBuf(heap), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live buffer");
    EXPECT_EQ(aclrtGetBufDataLen(&on_stack, &len), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live buffer");
    std::free(heap);
}

TEST_F(Mbuf, NullArgumentsAreRefusedNamingTheParameter) {
    aclrtMbuf buf = Alloc(8);
    void* data = nullptr;
    size_t size = 0;
    uint32_t num = 0;
    char bytes[4] = {};
    struct Case {
        aclError rc;
        const char* message;
    } cases[] = {
        {aclrtAllocBuf(nullptr, 8), "buf is null"},
        {aclrtFreeBuf(nullptr), "buf is null"},
        {aclrtGetBufData(buf, nullptr, &size), "dataPtr is null"},
        {aclrtGetBufData(buf, &data, nullptr), "size is null"},
        {aclrtGetBufData(nullptr, &data, &size), "buf is null"},
        {aclrtGetBufDataLen(buf, nullptr), "len is null"},
        {aclrtSetBufDataLen(nullptr, 0), "buf is null"},
        {aclrtGetBufUserData(buf, nullptr, 4, 0), "dataPtr is null"},
        {aclrtSetBufUserData(buf, nullptr, 4, 0), "dataPtr is null"},
        {aclrtSetBufUserData(nullptr, bytes, 4, 0), "buf is null"},
        {aclrtCopyBufRef(buf, nullptr), "newBuf is null"},
        {aclrtCopyBufRef(nullptr, &data), "buf is null"},
        {aclrtAppendBufChain(nullptr, buf), "headBuf is null"},
        {aclrtAppendBufChain(buf, nullptr), "buf is null"},
        {aclrtGetBufChainNum(buf, nullptr), "num is null"},
        {aclrtGetBufChainNum(nullptr, &num), "headBuf is null"},
        {aclrtGetBufFromChain(buf, 0, nullptr), "buf is null"},
    };
    (void)data;
    const char* messages = TakeErrMsg();
    ASSERT_NE(messages, nullptr);
    for (const Case& c : cases) {
        EXPECT_EQ(c.rc, ACL_ERROR_INVALID_PARAM) << c.message;
        EXPECT_NE(std::string(messages).find(c.message), std::string::npos) << c.message;
    }
}

TEST_F(Mbuf, ZeroAndAbove4GiBSizesAreRefused) {
    aclrtMbuf buf = nullptr;
    EXPECT_EQ(aclrtAllocBuf(&buf, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("size is 0");
    EXPECT_EQ(aclrtAllocBuf(&buf, (size_t{4} << 30) + 1), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("above 4 GiB");
    EXPECT_EQ(buf, nullptr);
}

TEST_F(Mbuf, TheAcltdtAndAclrtNamesHandleTheSameBuffers) {
    acltdtBuf buf = nullptr;
    ASSERT_EQ(acltdtAllocBuf(32, ACL_TDT_NORMAL_MEM, &buf), ACL_SUCCESS);
    ASSERT_EQ(acltdtSetBufDataLen(buf, 5), ACL_SUCCESS);
    size_t len = 0;
    ASSERT_EQ(aclrtGetBufDataLen(buf, &len), ACL_SUCCESS);
    EXPECT_EQ(len, 5u);
    acltdtBuf copy = nullptr;
    ASSERT_EQ(acltdtCopyBufRef(buf, &copy), ACL_SUCCESS);
    ASSERT_EQ(acltdtAppendBufChain(buf, copy), ACL_SUCCESS);
    uint32_t num = 0;
    ASSERT_EQ(acltdtGetBufChainNum(buf, &num), ACL_SUCCESS);
    EXPECT_EQ(num, 2u);
    acltdtBuf second = nullptr;
    ASSERT_EQ(acltdtGetBufFromChain(buf, 1, &second), ACL_SUCCESS);
    EXPECT_EQ(second, copy);
    const uint64_t tag = 42;
    uint64_t read = 0;
    ASSERT_EQ(acltdtSetBufUserData(buf, &tag, sizeof(tag), 8), ACL_SUCCESS);
    ASSERT_EQ(acltdtGetBufUserData(buf, &read, sizeof(read), 8), ACL_SUCCESS);
    EXPECT_EQ(read, 42u);
    void* data = nullptr;
    size_t size = 0;
    ASSERT_EQ(acltdtGetBufData(buf, &data, &size), ACL_SUCCESS);
    EXPECT_EQ(size, 32u);
    ASSERT_EQ(acltdtGetBufDataLen(buf, &len), ACL_SUCCESS);
    EXPECT_EQ(len, 5u);
    EXPECT_EQ(aclrtFreeBuf(buf), ACL_SUCCESS);
}

TEST_F(Mbuf, DvppMemoryIsAcceptedAndAnUnknownTypeIsRefused) {
    acltdtBuf buf = nullptr;
    ASSERT_EQ(acltdtAllocBuf(8, ACL_TDT_DVPP_MEM, &buf), ACL_SUCCESS);
    EXPECT_EQ(acltdtFreeBuf(buf), ACL_SUCCESS);
    EXPECT_EQ(acltdtAllocBuf(8, 2, &buf), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("type 2 is not ACL_TDT_NORMAL_MEM or ACL_TDT_DVPP_MEM");
}

TEST_F(Mbuf, ThreadsAllocatingAndFreeingAtOnceGetDistinctBuffers) {
    constexpr int kThreads = 4, kEach = 500;
    std::vector<std::vector<aclrtMbuf>> got(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            for (int i = 0; i < kEach; ++i) {
                aclrtMbuf buf = nullptr;
                if (aclrtAllocBuf(&buf, 16) == ACL_SUCCESS) got[t].push_back(buf);
                if (i % 2 == 1) {
                    aclrtFreeBuf(got[t].back());
                    got[t].pop_back();
                }
            }
        });
    }
    for (auto& thread : threads)
        thread.join();
    std::vector<aclrtMbuf> all;
    for (auto& list : got)
        all.insert(all.end(), list.begin(), list.end());
    std::sort(all.begin(), all.end());
    EXPECT_EQ(all.size(), size_t{kThreads * kEach / 2});
    EXPECT_EQ(std::adjacent_find(all.begin(), all.end()), all.end());
    for (aclrtMbuf buf : all)
        EXPECT_EQ(aclrtFreeBuf(buf), ACL_SUCCESS);
}
