// Physical memory shared between processes (aclrtMemExportToShareableHandle[V2],
// aclrtMemSetPidToShareableHandle[V2], aclrtMemImportFromShareableHandle[V2]): this test and a
// peer program (tests/support/ipc_peer.cpp, spawned) each map the same physical memory and see
// each other's bytes; the allow-list, the one-handle rules and revocation by aclrtFreePhysical
// hold.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "ipc_peer.h"
#include "test_support.h"

namespace {

constexpr size_t kBytes = size_t{2} << 20;
const std::string kSize = std::to_string(kBytes);

aclrtPhysicalMemProp DeviceProp() {
    aclrtPhysicalMemProp prop{};
    prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop.memAttr = ACL_HBM_MEM_HUGE;
    prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    return prop;
}

class ShareableHandle : public DeviceTest {
 protected:
    void TearDown() override {
        if (mapped_ != nullptr) aclrtUnmapMem(mapped_);
        if (reserved_ != nullptr) aclrtReleaseMemAddress(reserved_);
        for (aclrtDrvMemHandle h : handles_)
            aclrtFreePhysical(h);
        DeviceTest::TearDown();
    }
    aclrtDrvMemHandle Physical() {
        aclrtPhysicalMemProp prop = DeviceProp();
        aclrtDrvMemHandle h = nullptr;
        EXPECT_EQ(aclrtMallocPhysical(&h, kBytes, &prop, 0), ACL_SUCCESS) << TakeErrMsg();
        if (h != nullptr) handles_.push_back(h);
        return h;
    }
    // Maps `h` over a new reservation; the address.
    unsigned char* Map(aclrtDrvMemHandle h) {
        EXPECT_EQ(aclrtReserveMemAddress(&reserved_, kBytes, 0, nullptr, 0), ACL_SUCCESS);
        EXPECT_EQ(aclrtMapMem(reserved_, kBytes, 0, h, 0), ACL_SUCCESS) << TakeErrMsg();
        mapped_ = reserved_;
        return static_cast<unsigned char*>(mapped_);
    }
    uint64_t Export(aclrtDrvMemHandle h, uint64_t flags) {
        uint64_t shareable = 0;
        EXPECT_EQ(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, flags, &shareable),
                  ACL_SUCCESS)
            << TakeErrMsg();
        return shareable;
    }
    static size_t Differing(const void* p, unsigned char value) {
        std::vector<unsigned char> host(kBytes);
        EXPECT_EQ(aclrtMemcpy(host.data(), kBytes, p, kBytes, ACL_MEMCPY_DEVICE_TO_HOST),
                  ACL_SUCCESS)
            << TakeErrMsg();
        size_t wrong = 0;
        for (unsigned char c : host)
            wrong += c != value;
        return wrong;
    }

    std::vector<aclrtDrvMemHandle> handles_;
    void* reserved_ = nullptr;
    void* mapped_ = nullptr;
};

TEST_F(ShareableHandle, BytesOneProcessWritesAreReadByTheOther) {
    aclrtDrvMemHandle h = Physical();
    unsigned char* p = Map(h);
    ASSERT_EQ(aclrtMemset(p, kBytes, 0x11, kBytes), ACL_SUCCESS);
    const uint64_t shareable = Export(h, ACL_RT_VMM_EXPORT_FLAG_DEFAULT);
    IpcPeer peer;
    ASSERT_TRUE(peer.running());
    int32_t pid = peer.pid();
    ASSERT_EQ(aclrtMemSetPidToShareableHandle(shareable, &pid, 1), ACL_SUCCESS) << TakeErrMsg();
    ASSERT_EQ(peer.AskCode("pimport " + std::to_string(shareable) + " " + kSize), 0);
    EXPECT_EQ(peer.Ask("check 17 " + kSize), "0 0");
    ASSERT_EQ(peer.AskCode("fill 34 " + kSize), 0);
    EXPECT_EQ(Differing(p, 34), 0u);
    EXPECT_EQ(peer.AskCode("pfree"), 0);
}

TEST_F(ShareableHandle, AProcessNotOnTheAllowListIsRefused) {
    const uint64_t shareable = Export(Physical(), ACL_RT_VMM_EXPORT_FLAG_DEFAULT);
    IpcPeer peer;
    EXPECT_EQ(peer.AskCode("pimport " + std::to_string(shareable) + " " + kSize),
              ACL_ERROR_RT_DRV_INTERNAL_ERROR);
}

TEST_F(ShareableHandle, DisablingThePidCheckLetsAnyProcessImport) {
    aclrtDrvMemHandle h = Physical();
    ASSERT_EQ(aclrtMemset(Map(h), kBytes, 5, kBytes), ACL_SUCCESS);
    const uint64_t shareable = Export(h, ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION);
    IpcPeer peer;
    ASSERT_EQ(peer.AskCode("pimport " + std::to_string(shareable) + " " + kSize), 0);
    EXPECT_EQ(peer.Ask("check 5 " + kSize), "0 0");
}

TEST_F(ShareableHandle, TheV2DefaultTypeCarriesTheSameHandle) {
    aclrtDrvMemHandle h = Physical();
    ASSERT_EQ(aclrtMemset(Map(h), kBytes, 6, kBytes), ACL_SUCCESS);
    uint64_t shareable = 0;
    ASSERT_EQ(
        aclrtMemExportToShareableHandleV2(h, 0, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &shareable),
        ACL_SUCCESS)
        << TakeErrMsg();
    IpcPeer peer;
    int32_t pid = peer.pid();
    ASSERT_EQ(
        aclrtMemSetPidToShareableHandleV2(&shareable, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &pid, 1),
        ACL_SUCCESS)
        << TakeErrMsg();
    ASSERT_EQ(peer.AskCode("pimport " + std::to_string(shareable) + " " + kSize), 0);
    EXPECT_EQ(peer.Ask("check 6 " + kSize), "0 0");
}

TEST_F(ShareableHandle, AHandleIsExportedOnce) {
    aclrtDrvMemHandle h = Physical();
    Export(h, 0);
    uint64_t again = 0;
    EXPECT_EQ(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 0, &again),
              ACL_ERROR_INVALID_PARAM);
}

TEST_F(ShareableHandle, TheExportingProcessCannotImportItsOwnHandle) {
    const uint64_t shareable = Export(Physical(), ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION);
    aclrtDrvMemHandle imported = nullptr;
    EXPECT_EQ(aclrtMemImportFromShareableHandle(shareable, 0, &imported), ACL_ERROR_INVALID_PARAM);
}

TEST_F(ShareableHandle, FreeingTheExportedHandleRefusesNewImports) {
    aclrtDrvMemHandle h = Physical();
    const uint64_t shareable = Export(h, ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION);
    ASSERT_EQ(aclrtFreePhysical(h), ACL_SUCCESS);
    handles_.clear();
    IpcPeer peer;
    EXPECT_EQ(peer.AskCode("pimport " + std::to_string(shareable) + " " + kSize),
              ACL_ERROR_RT_DRV_INTERNAL_ERROR);
    char hex[32];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(shareable));
    EXPECT_FALSE(DevShmHas(hex));
}

TEST_F(ShareableHandle, ImportedMemoryOutlivesItsKilledExporterWhoseHandleIsThenRefused) {
    aclrtDrvMemHandle imported = nullptr;
    uint64_t shareable = 0;
    {
        IpcPeer exporter;
        std::istringstream answer(exporter.Ask("physical " + kSize + " 1"));
        int code = -1;
        answer >> code >> shareable;
        ASSERT_EQ(code, 0);
        ASSERT_EQ(exporter.AskCode("fill 77 " + kSize), 0);
        ASSERT_EQ(aclrtMemImportFromShareableHandle(shareable, 0, &imported), ACL_SUCCESS)
            << TakeErrMsg();
        handles_.push_back(imported);
        exporter.Kill();
    }
    EXPECT_EQ(Differing(Map(imported), 77), 0u);
    IpcPeer late;
    EXPECT_EQ(late.AskCode("pimport " + std::to_string(shareable) + " " + kSize),
              ACL_ERROR_RT_DRV_INTERNAL_ERROR);
    char hex[32];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(shareable));
    EXPECT_FALSE(DevShmHas(hex)) << "the dead exporter's record was not removed";
}

TEST_F(ShareableHandle, FabricHandlesAreNotAvailableOnAtlasA2) {
    aclrtMemFabricHandle fabric{};
    EXPECT_EQ(
        aclrtMemExportToShareableHandleV2(Physical(), 0, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, &fabric),
        ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

TEST_F(ShareableHandle, AHandleNoProcessExportedIsRefused) {
    aclrtDrvMemHandle imported = nullptr;
    EXPECT_EQ(aclrtMemImportFromShareableHandle(0x0000000100000003ULL, 0, &imported),
              ACL_ERROR_RT_DRV_INTERNAL_ERROR);
    EXPECT_EQ(imported, nullptr);
}

}  // namespace
