// IPC memory sharing between real processes: this test exports or imports, a peer program
// (tests/support/ipc_peer.cpp, spawned) does the other side; bytes written on one side are read on
// the other, the allow-list is enforced, closed and orphaned keys are refused, and nothing stays
// behind in /dev/shm.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "ipc_peer.h"
#include "test_support.h"

namespace {

constexpr size_t kBytes = size_t{1} << 20;
const std::string kSize = std::to_string(kBytes);

class IpcMemory : public DeviceTest {
 protected:
    void TearDown() override {
        for (const std::string& key : keys_)
            aclrtIpcMemClose(key.c_str());
        for (void* p : buffers_)
            aclrtFree(p);
        DeviceTest::TearDown();
    }
    void* Malloc(size_t size = kBytes, int value = 0) {
        void* p = nullptr;
        EXPECT_EQ(aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS) << TakeErrMsg();
        if (p != nullptr) {
            buffers_.push_back(p);
            EXPECT_EQ(aclrtMemset(p, size, value, size), ACL_SUCCESS);
        }
        return p;
    }
    // Exports and closes the key at the end of the test.
    std::string Export(void* p, size_t size, uint64_t flags) {
        char key[ACL_IPC_HANDLE_SIZE] = {};
        EXPECT_EQ(aclrtIpcMemGetExportKey(p, size, key, sizeof key, flags), ACL_SUCCESS)
            << TakeErrMsg();
        keys_.push_back(key);
        return key;
    }
    void Allow(const std::string& key, int32_t pid) {
        ASSERT_EQ(aclrtIpcMemSetImportPid(key.c_str(), &pid, 1), ACL_SUCCESS) << TakeErrMsg();
    }
    // Bytes of [p, p + size) that differ from `value`, read with a device-to-host copy.
    static size_t Differing(const void* p, size_t size, unsigned char value) {
        std::vector<unsigned char> host(size);
        EXPECT_EQ(aclrtMemcpy(host.data(), size, p, size, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS)
            << TakeErrMsg();
        size_t wrong = 0;
        for (unsigned char c : host)
            wrong += c != value;
        return wrong;
    }
    // A key the peer exported from a fresh buffer of kBytes filled with `value`.
    static std::string PeerExport(IpcPeer& peer, int value, uint64_t flags) {
        EXPECT_EQ(peer.AskCode("malloc " + kSize), 0);
        EXPECT_EQ(peer.AskCode("fill " + std::to_string(value) + " " + kSize), 0);
        int code = 0;
        std::string key = peer.AskSecond("export " + std::to_string(flags), &code);
        EXPECT_EQ(code, 0);
        return key;
    }

    std::vector<std::string> keys_;
    std::vector<void*> buffers_;
};

TEST_F(IpcMemory, BytesTheExporterWroteAreReadByTheImporter) {
    void* p = Malloc(kBytes, 0x5A);
    const std::string key = Export(p, kBytes, ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT);
    IpcPeer peer;
    ASSERT_TRUE(peer.running());
    Allow(key, peer.pid());
    ASSERT_EQ(peer.AskCode("import " + key + " 0"), 0);
    EXPECT_EQ(peer.Ask("check 90 " + kSize), "0 0");
    EXPECT_EQ(peer.AskCode("close " + key), 0);
}

TEST_F(IpcMemory, BytesTheImporterWroteAreReadByTheExporter) {
    void* p = Malloc(kBytes, 0);
    const std::string key = Export(p, kBytes, ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT);
    IpcPeer peer;
    Allow(key, peer.pid());
    ASSERT_EQ(peer.AskCode("import " + key + " 0"), 0);
    ASSERT_EQ(peer.AskCode("fill 165 " + kSize), 0);
    EXPECT_EQ(Differing(p, kBytes, 165), 0u);
    EXPECT_EQ(peer.AskCode("close " + key), 0);
}

TEST_F(IpcMemory, AnInteriorRangeIsSharedFromItsFirstByte) {
    char* p = static_cast<char*>(Malloc(kBytes, 0));
    ASSERT_EQ(aclrtMemset(p + 1000, 4000, 7, 4000), ACL_SUCCESS);
    const std::string key =
        Export(p + 1000, 4000, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION);
    IpcPeer peer;
    ASSERT_EQ(peer.AskCode("import " + key + " 0"), 0);
    EXPECT_EQ(peer.Ask("check 7 4000"), "0 0");
    // The import ends where the export does: the peer's copy checks refuse more.
    EXPECT_EQ(peer.Ask("check 7 4001").substr(0, 6), std::to_string(ACL_ERROR_INVALID_PARAM));
}

TEST_F(IpcMemory, AProcessNotOnTheAllowListIsRefused) {
    void* p = Malloc();
    const std::string key = Export(p, kBytes, ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT);
    Allow(key, getpid());  // someone else
    IpcPeer peer;
    EXPECT_EQ(peer.AskCode("import " + key + " 0"), ACL_ERROR_RT_DRV_INTERNAL_ERROR);
}

TEST_F(IpcMemory, DisablingThePidCheckLetsAnyProcessImport) {
    void* p = Malloc(kBytes, 3);
    const std::string key = Export(p, kBytes, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION);
    IpcPeer peer;
    ASSERT_EQ(peer.AskCode("import " + key + " 0"), 0);
    EXPECT_EQ(peer.Ask("check 3 " + kSize), "0 0");
    EXPECT_EQ(peer.AskCode("close " + key), 0);
}

TEST_F(IpcMemory, AKeyTheExporterClosedIsRefusedAndLeavesNothingInDevShm) {
    void* p = Malloc();
    const std::string key = Export(p, kBytes, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION);
    EXPECT_TRUE(DevShmHas(key));
    ASSERT_EQ(aclrtIpcMemClose(key.c_str()), ACL_SUCCESS);
    keys_.clear();
    EXPECT_FALSE(DevShmHas(key));
    IpcPeer peer;
    EXPECT_EQ(peer.AskCode("import " + key + " 0"), ACL_ERROR_RT_DRV_INTERNAL_ERROR);
}

TEST_F(IpcMemory, AKilledExportersKeyIsRefusedWhileTheImportersMappingStaysReadable) {
    std::string key;
    void* imported = nullptr;
    {
        IpcPeer exporter;
        key = PeerExport(exporter, 0x3C, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION);
        ASSERT_EQ(aclrtIpcMemImportByKey(&imported, key.c_str(), 0), ACL_SUCCESS) << TakeErrMsg();
        keys_.push_back(key);
        exporter.Kill();
    }
    EXPECT_EQ(Differing(imported, kBytes, 0x3C), 0u);  // the pages outlive their exporter
    IpcPeer late;
    EXPECT_EQ(late.AskCode("import " + key + " 0"), ACL_ERROR_RT_DRV_INTERNAL_ERROR);
    EXPECT_FALSE(DevShmHas(key)) << "the dead exporter's record was not removed";
}

TEST_F(IpcMemory, AMalformedKeyIsRefused) {
    void* p = nullptr;
    EXPECT_EQ(aclrtIpcMemImportByKey(&p, "", 0), ACL_ERROR_INVALID_PARAM);
    const std::string unterminated(ACL_IPC_HANDLE_SIZE, 'k');
    EXPECT_EQ(aclrtIpcMemImportByKey(&p, unterminated.c_str(), 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtIpcMemImportByKey(&p, "../../etc/passwd", 0), ACL_ERROR_RT_DRV_INTERNAL_ERROR);
    EXPECT_EQ(p, nullptr);
}

TEST_F(IpcMemory, AKeyNoProcessExportedIsRefused) {
    void* p = nullptr;
    EXPECT_EQ(aclrtIpcMemImportByKey(&p, "openacl.mem.1.1.0123456789abcdef", 0),
              ACL_ERROR_RT_DRV_INTERNAL_ERROR);
    EXPECT_NE(std::string(TakeErrMsg()).find("names no export"), std::string::npos);
}

TEST_F(IpcMemory, ImportedMemoryIsReleasedByCloseNotByFree) {
    IpcPeer exporter;
    const std::string key =
        PeerExport(exporter, 1, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION);
    void* imported = nullptr;
    ASSERT_EQ(aclrtIpcMemImportByKey(&imported, key.c_str(), 0), ACL_SUCCESS) << TakeErrMsg();
    EXPECT_EQ(aclrtFree(imported), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(std::string(TakeErrMsg()).find("aclrtIpcMemClose"), std::string::npos);
    EXPECT_EQ(aclrtIpcMemClose(key.c_str()), ACL_SUCCESS) << TakeErrMsg();
}

TEST_F(IpcMemory, ImportingAKeyTwiceGivesOneMappingClosedTwice) {
    IpcPeer exporter;
    const std::string key =
        PeerExport(exporter, 9, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION);
    void* first = nullptr;
    void* second = nullptr;
    ASSERT_EQ(aclrtIpcMemImportByKey(&first, key.c_str(), 0), ACL_SUCCESS) << TakeErrMsg();
    ASSERT_EQ(aclrtIpcMemImportByKey(&second, key.c_str(), 0), ACL_SUCCESS) << TakeErrMsg();
    EXPECT_EQ(first, second);
    ASSERT_EQ(aclrtIpcMemClose(key.c_str()), ACL_SUCCESS);
    EXPECT_EQ(Differing(first, kBytes, 9), 0u);  // one import is still open
    ASSERT_EQ(aclrtIpcMemClose(key.c_str()), ACL_SUCCESS);
    EXPECT_EQ(aclrtIpcMemClose(key.c_str()), ACL_ERROR_RT_DRV_INTERNAL_ERROR);
}

TEST_F(IpcMemory, TheAllowListIsSetByTheExporterOnly) {
    IpcPeer exporter;
    const std::string key = PeerExport(exporter, 0, ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT);
    int32_t self = getpid();
    EXPECT_EQ(aclrtIpcMemSetImportPid(key.c_str(), &self, 1), ACL_ERROR_RT_DRV_INTERNAL_ERROR);
    EXPECT_EQ(exporter.AskCode("allow " + key + " " + std::to_string(self)), 0);
    void* imported = nullptr;
    EXPECT_EQ(aclrtIpcMemImportByKey(&imported, key.c_str(), 0), ACL_SUCCESS) << TakeErrMsg();
    keys_.push_back(key);
}

TEST_F(IpcMemory, FreeingAnExportedAllocationClosesItsKey) {
    void* p = Malloc();
    const std::string key = Export(p, kBytes, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION);
    ASSERT_EQ(aclrtFree(p), ACL_SUCCESS);
    buffers_.clear();
    keys_.clear();
    EXPECT_FALSE(DevShmHas(key));
    EXPECT_EQ(aclrtIpcMemClose(key.c_str()), ACL_ERROR_RT_DRV_INTERNAL_ERROR);
}

TEST_F(IpcMemory, OnlyAclrtMallocMemoryCanBeExported) {
    std::vector<char> host(4096);
    char key[ACL_IPC_HANDLE_SIZE] = {};
    EXPECT_EQ(aclrtIpcMemGetExportKey(host.data(), host.size(), key, sizeof key, 0),
              ACL_ERROR_INVALID_PARAM);
    void* p = Malloc(4096);
    EXPECT_EQ(aclrtIpcMemGetExportKey(p, 8192, key, sizeof key, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtIpcMemGetExportKey(p, 4096, key, ACL_IPC_HANDLE_SIZE - 1, 0),
              ACL_ERROR_INVALID_PARAM);
}

TEST_F(IpcMemory, AccessLinkAttributesAreNotAvailableOnAtlasA2) {
    void* p = Malloc();
    const std::string key = Export(p, kBytes, 0);
    EXPECT_EQ(aclrtIpcMemSetAttr(key.c_str(), ACL_RT_IPC_MEM_ATTR_ACCESS_LINK,
                                 ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

// The arena is shared memory so that it can be exported; a child forked without exec must still
// get its own copy, as it did when the arena was private memory.
TEST_F(IpcMemory, AForkedChildWritesItsOwnCopyOfDeviceMemory) {
    auto* p = static_cast<unsigned char*>(Malloc(kBytes, 1));
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        std::memset(p, 2, kBytes);  // the CPU backend's device memory is the process's memory
        _exit(p[kBytes - 1] == 2 ? 0 : 1);
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    EXPECT_EQ(Differing(p, kBytes, 1), 0u) << "the child's writes reached its parent";
}

}  // namespace
