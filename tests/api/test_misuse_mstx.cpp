// Misuse table, mstx: marks, ranges, domains and memory pools. mstx functions return nothing
// (or 0, or NULL): a refused call records ACL_ERROR_INVALID_PARAM with its message.
#include <string>

#include "misuse_table.h"
#include "mstx/ms_tools_ext.h"

namespace {

// Runs a call that answers nothing and returns the code it recorded.
template <typename Fn>
aclError Recorded(Fn call) {
    call();
    return RecordedError();
}

}  // namespace

TEST(MisuseTable, MstxMarksRangesAndDomains) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    int not_a_stream = 0;
    const std::string too_long(157, 'x');
    mstxDomainHandle_t domain = mstxDomainCreateA("misuse");
    ASSERT_NE(domain, nullptr);
    auto* not_a_domain = reinterpret_cast<mstxDomainHandle_t>(&not_a_stream);
    uint64_t* no_id = nullptr;

    const std::vector<MisuseRow> rows = {
        {"mstxMarkA(NULL, NULL)", [] { return Recorded([] { mstxMarkA(nullptr, nullptr); }); },
         ACL_ERROR_INVALID_PARAM},
        {"mstxMarkA(157 bytes, NULL)",
         [&] { return Recorded([&] { mstxMarkA(too_long.c_str(), nullptr); }); },
         ACL_ERROR_INVALID_PARAM},
        {"mstxMarkA(msg, not a stream)",
         [&] { return Recorded([&] { mstxMarkA("m", &not_a_stream); }); }, ACL_ERROR_INVALID_PARAM},
        {"mstxRangeStartA(NULL, NULL)",
         [] { return mstxRangeStartA(nullptr, nullptr) == 0 ? RecordedError() : ACL_SUCCESS; },
         ACL_ERROR_INVALID_PARAM},
        {"mstxRangeEnd(never started)", [] { return Recorded([] { mstxRangeEnd(123456); }); },
         ACL_ERROR_INVALID_PARAM},
        {"mstxDomainCreateA(NULL)",
         [] { return mstxDomainCreateA(nullptr) == nullptr ? RecordedError() : ACL_SUCCESS; },
         ACL_ERROR_INVALID_PARAM},
        {"mstxDomainCreateA(\"has space\")",
         [] { return mstxDomainCreateA("has space") == nullptr ? RecordedError() : ACL_SUCCESS; },
         ACL_ERROR_INVALID_PARAM},
        {"mstxDomainCreateA(\"\")",
         [] { return mstxDomainCreateA("") == nullptr ? RecordedError() : ACL_SUCCESS; },
         ACL_ERROR_INVALID_PARAM},
        {"mstxDomainDestroy(not a domain)",
         [&] { return Recorded([&] { mstxDomainDestroy(not_a_domain); }); },
         ACL_ERROR_INVALID_PARAM},
        {"mstxDomainMarkA(not a domain, msg, NULL)",
         [&] { return Recorded([&] { mstxDomainMarkA(not_a_domain, "m", nullptr); }); },
         ACL_ERROR_INVALID_PARAM},
        {"mstxDomainMarkA(domain, NULL, NULL)",
         [&] { return Recorded([&] { mstxDomainMarkA(domain, nullptr, nullptr); }); },
         ACL_ERROR_INVALID_PARAM},
        {"mstxDomainRangeStartA(domain, NULL, NULL)",
         [&] {
             return mstxDomainRangeStartA(domain, nullptr, nullptr) == 0 ? RecordedError()
                                                                         : ACL_SUCCESS;
         },
         ACL_ERROR_INVALID_PARAM},
        {"mstxDomainRangeStartA(domain, msg, not a stream)",
         [&] {
             return mstxDomainRangeStartA(domain, "m", &not_a_stream) == 0 ? RecordedError()
                                                                           : ACL_SUCCESS;
         },
         ACL_ERROR_INVALID_PARAM},
        {"mstxDomainRangeEnd(domain, never started)",
         [&] { return Recorded([&] { mstxDomainRangeEnd(domain, 123456); }); },
         ACL_ERROR_INVALID_PARAM},
        {"mstxDomainRangeEnd(not a domain, id)",
         [&] { return Recorded([&] { mstxDomainRangeEnd(not_a_domain, 1); }); },
         ACL_ERROR_INVALID_PARAM},
        {"mstxGetToolId(NULL)", [&] { return Recorded([&] { mstxGetToolId(no_id); }); },
         ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    mstxDomainDestroy(domain);
    aclrtResetDeviceForce(0);
}

TEST(MisuseTable, MstxMemoryPools) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    constexpr uint64_t kBytes = 4096;
    void* pool = nullptr;
    ASSERT_EQ(aclrtMalloc(&pool, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    mstxMemVirtualRangeDesc_t range{0, pool, kBytes};
    mstxMemVirtualRangeDesc_t empty{0, pool, 0};
    mstxMemHeapDesc_t good{MSTX_MEM_HEAP_USAGE_TYPE_SUB_ALLOCATOR, MSTX_MEM_TYPE_VIRTUAL_ADDRESS,
                           &range};
    mstxMemHeapHandle_t heap = mstxMemHeapRegister(globalDomain, &good);
    ASSERT_NE(heap, nullptr);
    mstxMemHeapDesc_t bad_usage = good;
    bad_usage.usage = static_cast<mstxMemHeapUsageType>(3);
    mstxMemHeapDesc_t bad_type = good;
    bad_type.type = static_cast<mstxMemType>(2);
    mstxMemHeapDesc_t no_range = good;
    no_range.typeSpecificDesc = nullptr;
    mstxMemHeapDesc_t empty_heap = good;
    empty_heap.typeSpecificDesc = &empty;
    int not_a_heap = 0;
    mstxMemVirtualRangeDesc_t outside{0, static_cast<char*>(pool) + kBytes, 16};
    mstxMemRegionsRegisterBatch_t no_regions{heap, MSTX_MEM_TYPE_VIRTUAL_ADDRESS, 2, nullptr,
                                             nullptr};
    mstxMemRegionsRegisterBatch_t out_of_heap{heap, MSTX_MEM_TYPE_VIRTUAL_ADDRESS, 1, &outside,
                                              nullptr};
    mstxMemRegionsRegisterBatch_t no_heap{nullptr, MSTX_MEM_TYPE_VIRTUAL_ADDRESS, 1, &range,
                                          nullptr};
    mstxMemRegionRef_t unknown{};
    unknown.refType = MSTX_MEM_REGION_REF_TYPE_POINTER;
    unknown.pointer = pool;
    mstxMemRegionRef_t bad_ref{};
    bad_ref.refType = static_cast<mstxMemRegionRefType>(9);
    mstxMemRegionsUnregisterBatch_t unknown_region{1, &unknown};
    mstxMemRegionsUnregisterBatch_t bad_ref_type{1, &bad_ref};
    mstxMemRegionsUnregisterBatch_t no_refs{3, nullptr};
    auto refused = [](mstxMemHeapHandle_t h) {
        return h == nullptr ? RecordedError() : ACL_SUCCESS;
    };

    const std::vector<MisuseRow> rows = {
        {"mstxMemHeapRegister(globalDomain, NULL)",
         [&] { return refused(mstxMemHeapRegister(globalDomain, nullptr)); },
         ACL_ERROR_INVALID_PARAM},
        {"mstxMemHeapRegister(usage 3)",
         [&] { return refused(mstxMemHeapRegister(globalDomain, &bad_usage)); },
         ACL_ERROR_INVALID_PARAM},
        {"mstxMemHeapRegister(type 2)",
         [&] { return refused(mstxMemHeapRegister(globalDomain, &bad_type)); },
         ACL_ERROR_INVALID_PARAM},
        {"mstxMemHeapRegister(no range description)",
         [&] { return refused(mstxMemHeapRegister(globalDomain, &no_range)); },
         ACL_ERROR_INVALID_PARAM},
        {"mstxMemHeapRegister(0 bytes)",
         [&] { return refused(mstxMemHeapRegister(globalDomain, &empty_heap)); },
         ACL_ERROR_INVALID_PARAM},
        {"mstxMemHeapUnregister(globalDomain, not a heap)",
         [&] {
             return Recorded([&] {
                 mstxMemHeapUnregister(globalDomain,
                                       reinterpret_cast<mstxMemHeapHandle_t>(&not_a_heap));
             });
         },
         ACL_ERROR_INVALID_PARAM},
        {"mstxMemHeapUnregister(globalDomain, NULL)",
         [&] { return Recorded([&] { mstxMemHeapUnregister(globalDomain, nullptr); }); },
         ACL_ERROR_INVALID_PARAM},
        {"mstxMemRegionsRegister(globalDomain, NULL)",
         [&] { return Recorded([&] { mstxMemRegionsRegister(globalDomain, nullptr); }); },
         ACL_ERROR_INVALID_PARAM},
        {"mstxMemRegionsRegister(2 regions, no descriptions)",
         [&] { return Recorded([&] { mstxMemRegionsRegister(globalDomain, &no_regions); }); },
         ACL_ERROR_INVALID_PARAM},
        {"mstxMemRegionsRegister(region past the heap's end)",
         [&] { return Recorded([&] { mstxMemRegionsRegister(globalDomain, &out_of_heap); }); },
         ACL_ERROR_INVALID_PARAM},
        {"mstxMemRegionsRegister(no heap)",
         [&] { return Recorded([&] { mstxMemRegionsRegister(globalDomain, &no_heap); }); },
         ACL_ERROR_INVALID_PARAM},
        {"mstxMemRegionsUnregister(globalDomain, NULL)",
         [&] { return Recorded([&] { mstxMemRegionsUnregister(globalDomain, nullptr); }); },
         ACL_ERROR_INVALID_PARAM},
        {"mstxMemRegionsUnregister(region never registered)",
         [&] { return Recorded([&] { mstxMemRegionsUnregister(globalDomain, &unknown_region); }); },
         ACL_ERROR_INVALID_PARAM},
        {"mstxMemRegionsUnregister(refType 9)",
         [&] { return Recorded([&] { mstxMemRegionsUnregister(globalDomain, &bad_ref_type); }); },
         ACL_ERROR_INVALID_PARAM},
        {"mstxMemRegionsUnregister(3 references, no array)",
         [&] { return Recorded([&] { mstxMemRegionsUnregister(globalDomain, &no_refs); }); },
         ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    mstxMemHeapUnregister(globalDomain, heap);
    aclrtFree(pool);
    aclrtResetDeviceForce(0);
}
