// aclInit / aclFinalize, versions, error text and init/finalize hooks.
#include <cstdio>
#include <cstring>

#include "acl/acl.h"
#include "core/error.h"
#include "core/runtime.h"

namespace {

// The CANN release whose interface (ACL 1.17.0) openacl implements.
constexpr int kCannMajor = 9, kCannMinor = 2, kCannPatch = 0;
// Package names as CANN lays them out under share/info.
const char* const kPackages[] = {"cann", "runtime",    "compiler", "hccl",   "toolkit",
                                 "opp",  "opp_kernel", "driver",   "openacl"};

bool KnownPackage(const char* name) {
    for (const char* known : kPackages) {
        if (strcasecmp(name, known) == 0) return true;
    }
    return false;
}

}  // namespace

aclError aclInit(const char* configPath) {
    OPENACL_API();
    return openacl::Runtime::Get().Init(configPath);
}

aclError aclFinalize(void) {
    OPENACL_API();
    return openacl::Runtime::Get().Finalize();
}

aclError aclFinalizeReference(uint64_t* refCount) {
    OPENACL_API();
    return openacl::Runtime::Get().FinalizeReference(refCount);
}

aclError aclrtGetVersion(int32_t* majorVersion, int32_t* minorVersion, int32_t* patchVersion) {
    OPENACL_API();
    if (majorVersion == nullptr || minorVersion == nullptr || patchVersion == nullptr) {
        return openacl::Fail(ACL_ERROR_INVALID_PARAM, "the version outputs must not be null");
    }
    *majorVersion = ACL_MAJOR_VERSION;
    *minorVersion = ACL_MINOR_VERSION;
    *patchVersion = ACL_PATCH_VERSION;
    return ACL_SUCCESS;
}

aclError aclsysGetVersionStr(char* pkgName, char* versionStr) {
    OPENACL_API();
    if (pkgName == nullptr || versionStr == nullptr) {
        return openacl::Fail(ACL_ERROR_INVALID_PARAM, "pkgName and versionStr must not be null");
    }
    if (!KnownPackage(pkgName)) {
        return openacl::Fail(ACL_ERROR_INVALID_FILE, "no version information for package \"%s\"",
                             pkgName);
    }
    std::snprintf(versionStr, ACL_PKG_VERSION_MAX_SIZE, "%d.%d.%d", kCannMajor, kCannMinor,
                  kCannPatch);
    return ACL_SUCCESS;
}

aclError aclsysGetVersionNum(char* pkgName, int32_t* versionNum) {
    OPENACL_API();
    if (pkgName == nullptr || versionNum == nullptr) {
        return openacl::Fail(ACL_ERROR_INVALID_PARAM, "pkgName and versionNum must not be null");
    }
    if (!KnownPackage(pkgName)) {
        return openacl::Fail(ACL_ERROR_INVALID_FILE, "no version information for package \"%s\"",
                             pkgName);
    }
    // CANN's encoding: major x 10^7 + minor x 10^5 + patch x 10^3 (9.1.0 is 90100000), the last
    // three digits left for a package's own build numbers.
    *versionNum = kCannMajor * 10000000 + kCannMinor * 100000 + kCannPatch * 1000;
    return ACL_SUCCESS;
}

aclError aclsysGetCANNVersion(aclCANNPackageName name, aclCANNPackageVersion* version) {
    OPENACL_API();
    if (version == nullptr) return openacl::Fail(ACL_ERROR_INVALID_PARAM, "version is null");
    if (static_cast<unsigned>(name) > ACL_PKG_NAME_DRIVER) {
        return openacl::Fail(ACL_ERROR_INVALID_PARAM, "name %d is not an aclCANNPackageName",
                             static_cast<int>(name));
    }
    std::memset(version, 0, sizeof *version);
    std::snprintf(version->version, sizeof version->version, "%d.%d.%d", kCannMajor, kCannMinor,
                  kCannPatch);
    std::snprintf(version->majorVersion, sizeof version->majorVersion, "%d", kCannMajor);
    std::snprintf(version->minorVersion, sizeof version->minorVersion, "%d", kCannMinor);
    std::snprintf(version->releaseVersion, sizeof version->releaseVersion, "%d", kCannPatch);
    std::snprintf(version->patchVersion, sizeof version->patchVersion, "0");
    return ACL_SUCCESS;
}

const char* aclGetRecentErrMsg(void) {
    return openacl::TakeRecentErrMsg();
}

aclError aclrtPeekAtLastError(aclrtLastErrLevel level) {
    if (level != ACL_RT_THREAD_LEVEL) {
        OPENACL_API();
        return openacl::Fail(ACL_ERROR_INVALID_PARAM, "level must be ACL_RT_THREAD_LEVEL");
    }
    return openacl::PeekLastError();
}

aclError aclrtGetLastError(aclrtLastErrLevel level) {
    if (level != ACL_RT_THREAD_LEVEL) {
        OPENACL_API();
        return openacl::Fail(ACL_ERROR_INVALID_PARAM, "level must be ACL_RT_THREAD_LEVEL");
    }
    return openacl::TakeLastError();
}

aclError aclInitCallbackRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc,
                                 void* userData) {
    OPENACL_API();
    if (cbFunc == nullptr) return openacl::Fail(ACL_ERROR_INVALID_PARAM, "cbFunc is null");
    return openacl::Runtime::Get().RegisterInitCallback(type, cbFunc, userData);
}

aclError aclInitCallbackUnRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc) {
    OPENACL_API();
    if (cbFunc == nullptr) return openacl::Fail(ACL_ERROR_INVALID_PARAM, "cbFunc is null");
    return openacl::Runtime::Get().UnregisterInitCallback(type, cbFunc);
}

aclError aclFinalizeCallbackRegister(aclRegisterCallbackType type, aclFinalizeCallbackFunc cbFunc,
                                     void* userData) {
    OPENACL_API();
    if (cbFunc == nullptr) return openacl::Fail(ACL_ERROR_INVALID_PARAM, "cbFunc is null");
    return openacl::Runtime::Get().RegisterFinalizeCallback(type, cbFunc, userData);
}

aclError aclFinalizeCallbackUnRegister(aclRegisterCallbackType type,
                                       aclFinalizeCallbackFunc cbFunc) {
    OPENACL_API();
    if (cbFunc == nullptr) return openacl::Fail(ACL_ERROR_INVALID_PARAM, "cbFunc is null");
    return openacl::Runtime::Get().UnregisterFinalizeCallback(type, cbFunc);
}
