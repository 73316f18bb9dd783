// Memory: device, pinned host and DVPP allocation, synchronous copies and fills, queries.
#define ENABLE_DVPP_INTERFACE
#include "acl/ops/acl_dvpp.h"

#include <cstdint>

#include "acl/acl.h"
#include "core/cache_ops.h"
#include "core/context.h"
#include "core/device.h"
#include "core/error.h"
#include "core/host_register.h"
#include "core/indirect_copy.h"
#include "core/memcpy_batch.h"
#include "core/memory.h"
#include "core/model_ri.h"
#include "core/runtime.h"
#include "core/stream.h"
#include "core/value_wait.h"

using openacl::DeviceAllocKind;
using openacl::Fail;

// The application's call site, remembered with each allocation for leak reports.
#define OPENACL_CALLER() __builtin_return_address(0)

namespace {

aclError CheckMallocConfig(const aclrtMallocConfig* cfg) {
    if (cfg == nullptr) return ACL_SUCCESS;
    if (cfg->numAttrs > 0 && cfg->attrs == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "cfg->attrs is null but cfg->numAttrs is %zu",
                    cfg->numAttrs);
    }
    for (size_t i = 0; i < cfg->numAttrs; ++i) {
        const aclrtMallocAttribute& a = cfg->attrs[i];
        if (a.attr == ACL_RT_MEM_ATTR_DEVICE_ID) {
            int32_t current = -1;
            if (openacl::Context* ctx = openacl::CurrentContext()) current = ctx->device()->id();
            if (static_cast<int64_t>(a.value.deviceId) != current) {
                return Fail(ACL_ERROR_INVALID_PARAM,
                            "cfg asks for device %u but the current device is %d: set that "
                            "device first",
                            a.value.deviceId, current);
            }
        } else if (a.attr != ACL_RT_MEM_ATTR_RSV && a.attr != ACL_RT_MEM_ATTR_MODULE_ID &&
                   a.attr != ACL_RT_MEM_ATTR_VA_FLAG) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "cfg->attrs[%zu].attr %d is not an "
                        "aclrtMallocAttrType",
                        i, static_cast<int>(a.attr));
        }
    }
    return ACL_SUCCESS;
}

}  // namespace

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
    OPENACL_API();
    return openacl::DeviceMalloc(devPtr, size, policy, DeviceAllocKind::kMalloc, OPENACL_CALLER());
}

aclError aclrtMallocAlign32(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
    OPENACL_API();
    return openacl::DeviceMalloc(devPtr, size, policy, DeviceAllocKind::kAlign32, OPENACL_CALLER());
}

aclError aclrtMallocCached(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
    OPENACL_API();
    if (policy != ACL_MEM_MALLOC_HUGE_FIRST && policy != ACL_MEM_MALLOC_HUGE_ONLY &&
        policy != ACL_MEM_MALLOC_NORMAL_ONLY && policy != ACL_MEM_MALLOC_HUGE1G_ONLY) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "aclrtMallocCached takes ACL_MEM_MALLOC_HUGE_FIRST, HUGE_ONLY, NORMAL_ONLY "
                    "or HUGE1G_ONLY, not policy %d",
                    static_cast<int>(policy));
    }
    return openacl::DeviceMalloc(devPtr, size, policy, DeviceAllocKind::kCached, OPENACL_CALLER());
}

aclError aclrtMallocWithCfg(void** devPtr, size_t size, aclrtMemMallocPolicy policy,
                            aclrtMallocConfig* cfg) {
    OPENACL_API();
    if (aclError rc = CheckMallocConfig(cfg)) return rc;
    return openacl::DeviceMalloc(devPtr, size, policy, DeviceAllocKind::kMalloc, OPENACL_CALLER());
}

// Task-scheduler memory is device memory the scheduler reads; on the CPU it is plain device
// memory, freed with aclrtFree.
aclError aclrtMallocForTaskScheduler(void** devPtr, size_t size, aclrtMemMallocPolicy policy,
                                     aclrtMallocConfig* cfg) {
    OPENACL_API();
    if (aclError rc = CheckMallocConfig(cfg)) return rc;
    return openacl::DeviceMalloc(devPtr, size, policy, DeviceAllocKind::kMalloc, OPENACL_CALLER());
}

aclError aclrtFree(void* devPtr) {
    OPENACL_API();
    return openacl::DeviceFree(devPtr, false);
}

aclError aclrtFreeWithDevSync(void* devPtr) {
    OPENACL_API();
    if (aclError rc = openacl::SynchronizeDevice(-1)) return rc;
    return openacl::DeviceFree(devPtr, false);
}

aclError aclrtMallocHost(void** hostPtr, size_t size) {
    OPENACL_API();
    return openacl::HostMalloc(hostPtr, size, OPENACL_CALLER());
}

aclError aclrtMallocHostWithCfg(void** ptr, uint64_t size, aclrtMallocConfig* cfg) {
    OPENACL_API();
    if (aclError rc = CheckMallocConfig(cfg)) return rc;
    return openacl::HostMalloc(ptr, size, OPENACL_CALLER());
}

aclError aclrtHostRegister(void* ptr, uint64_t size, aclrtHostRegisterType type, void** devPtr) {
    OPENACL_API();
    if (devPtr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "devPtr is null");
    if (type == ACL_HOST_REGISTER_IOMEMORY || type == ACL_HOST_REGISTER_READONLY) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "type %d (IO memory / read-only registration) is reserved: CANN does not "
                    "support it yet",
                    static_cast<int>(type));
    }
    if (type != ACL_HOST_REGISTER_MAPPED) {
        return Fail(ACL_ERROR_INVALID_PARAM, "type %d is not an aclrtHostRegisterType",
                    static_cast<int>(type));
    }
    if (aclError rc = openacl::host_register::Register(ptr, size, true, "aclrtHostRegister")) {
        return rc;
    }
    *devPtr = ptr;  // one address space: the device reaches the memory where the host does
    return ACL_SUCCESS;
}

aclError aclrtHostRegisterV2(void* ptr, uint64_t size, uint32_t flag) {
    OPENACL_API();
    constexpr uint32_t kKnown =
        ACL_HOST_REG_MAPPED | ACL_HOST_REG_IOMEMORY | ACL_HOST_REG_READONLY | ACL_HOST_REG_PINNED;
    if ((flag & ~kKnown) != 0 || (flag & (ACL_HOST_REG_MAPPED | ACL_HOST_REG_PINNED)) == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "flag 0x%x is not ACL_HOST_REG_MAPPED and/or ACL_HOST_REG_PINNED", flag);
    }
    if ((flag & (ACL_HOST_REG_IOMEMORY | ACL_HOST_REG_READONLY)) != 0) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "ACL_HOST_REG_IOMEMORY and ACL_HOST_REG_READONLY are reserved: CANN does not "
                    "support them yet");
    }
    return openacl::host_register::Register(ptr, size, (flag & ACL_HOST_REG_MAPPED) != 0,
                                            "aclrtHostRegisterV2");
}

aclError aclrtHostGetDevicePointer(void* pHost, void** pDevice, uint32_t flag) {
    OPENACL_API();
    return openacl::host_register::GetDevicePointer(pHost, pDevice, flag);
}

aclError aclrtHostUnregister(void* ptr) {
    OPENACL_API();
    return openacl::host_register::Unregister(ptr);
}

aclError aclrtHostMemMapCapabilities(uint32_t deviceId, aclrtHacType hacType,
                                     aclrtHostMemMapCapability* capabilities) {
    OPENACL_API();
    if (capabilities == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "capabilities is null");
    openacl::Device* device = openacl::Runtime::Get().DeviceById(deviceId);
    if (device == nullptr) return ACL_ERROR_RT_INVALID_DEVICEID;
    if (static_cast<unsigned>(hacType) > ACL_RT_HAC_TYPE_CCU) {
        return Fail(ACL_ERROR_INVALID_PARAM, "hacType %d is not an aclrtHacType",
                    static_cast<int>(hacType));
    }
    // Every engine of the CPU device is host code reading host memory; the CUDA backend does
    // not register host memory yet.
    *capabilities = device->accelerator() == nullptr ? ACL_RT_HOST_MEM_MAP_SUPPORTED
                                                     : ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED;
    return ACL_SUCCESS;
}

aclError aclrtFreeHost(void* hostPtr) {
    OPENACL_API();
    return openacl::HostFree(hostPtr);
}

aclError aclrtFreeHostWithDevSync(void* hostPtr) {
    OPENACL_API();
    if (aclError rc = openacl::SynchronizeDevice(-1)) return rc;
    return openacl::HostFree(hostPtr);
}

aclError acldvppMalloc(void** devPtr, size_t size) {
    OPENACL_API();
    return openacl::DeviceMalloc(devPtr, size, ACL_MEM_MALLOC_HUGE_FIRST, DeviceAllocKind::kDvpp,
                                 OPENACL_CALLER());
}

aclError acldvppMallocWithCfg(void** devPtr, size_t size, aclrtMemMallocPolicy policy,
                              aclrtMallocConfig* cfg) {
    OPENACL_API();
    if (aclError rc = CheckMallocConfig(cfg)) return rc;
    return openacl::DeviceMalloc(devPtr, size, policy, DeviceAllocKind::kDvpp, OPENACL_CALLER());
}

aclError acldvppFree(void* devPtr) {
    OPENACL_API();
    return openacl::DeviceFree(devPtr, true);
}

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count,
                     aclrtMemcpyKind kind) {
    OPENACL_API();
    if (aclError rc = openacl::CheckUnsafeCall("aclrtMemcpy")) return rc;
    return openacl::Memcpy(dst, destMax, src, count, kind);
}

aclError aclrtMemcpy2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                       size_t height, aclrtMemcpyKind kind) {
    OPENACL_API();
    if (aclError rc = openacl::CheckUnsafeCall("aclrtMemcpy2d")) return rc;
    return openacl::Memcpy2d(dst, dpitch, src, spitch, width, height, kind);
}

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
    OPENACL_API();
    if (aclError rc = openacl::CheckUnsafeCall("aclrtMemset")) return rc;
    return openacl::Memset(devPtr, maxCount, value, count);
}

aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t* free, size_t* total) {
    OPENACL_API();
    return openacl::GetMemInfo(attr, free, total);
}

aclError aclrtPointerGetAttributes(const void* ptr, aclrtPtrAttributes* attributes) {
    OPENACL_API();
    return openacl::PointerGetAttributes(ptr, attributes);
}

namespace {

// The CPU keeps caches coherent, so flushing or invalidating only has to check its input.
aclError CheckCacheRange(void* devPtr, size_t size) {
    if (devPtr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "devPtr is null");
    if (size == 0) return Fail(ACL_ERROR_INVALID_PARAM, "size must be > 0");
    openacl::MemRegion region = openacl::ClassifyPointer(devPtr);
    if (!region.device_accessible()) {
        return Fail(ACL_ERROR_INVALID_PARAM, "%p is %s, not an acl allocation", devPtr,
                    openacl::DomainName(region.domain));
    }
    uint64_t offset = reinterpret_cast<uintptr_t>(devPtr) - region.base;
    if (size > region.usable - offset) {
        return Fail(ACL_ERROR_INVALID_PARAM, "%zu bytes at %p run past the end of the allocation",
                    size, devPtr);
    }
    return ACL_SUCCESS;
}

}  // namespace

aclError aclrtMemFlush(void* devPtr, size_t size) {
    OPENACL_API();
    return CheckCacheRange(devPtr, size);
}

aclError aclrtMemInvalidate(void* devPtr, size_t size) {
    OPENACL_API();
    return CheckCacheRange(devPtr, size);
}

// ---- Asynchronous -----------------------------------------------------------------------

aclError aclrtMemcpyBatch(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes,
                          size_t numBatches, aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes,
                          size_t numAttrs, size_t* failIndex) {
    OPENACL_API();
    if (failIndex == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "failIndex is null");
    return openacl::CopyBatch(
        {dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs}, failIndex,
        nullptr);
}

aclError aclrtMemcpyBatchV2(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes,
                            size_t numBatches, aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes,
                            size_t numAttrs) {
    OPENACL_API();
    return openacl::CopyBatch(
        {dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs}, nullptr, nullptr);
}

aclError aclrtMemcpyBatchAsync(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes,
                               size_t numBatches, aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes,
                               size_t numAttrs, size_t* failIndex, aclrtStream stream) {
    OPENACL_API();
    if (failIndex == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "failIndex is null");
    *failIndex = SIZE_MAX;
    aclError rc = ACL_SUCCESS;
    openacl::Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::CopyBatch(
        {dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs}, failIndex,
        resolved);
}

aclError aclrtMemcpyBatchAsyncV2(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes,
                                 size_t numBatches, aclrtMemcpyBatchAttr* attrs,
                                 size_t* attrsIndexes, size_t numAttrs, aclrtStream stream) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    openacl::Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::CopyBatch(
        {dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs}, nullptr,
        resolved);
}

aclError aclrtMemsetD32(void* ptr, size_t memSize, uint32_t value, size_t N) {
    OPENACL_API();
    if (aclError rc = openacl::CheckUnsafeCall("aclrtMemsetD32")) return rc;  // as aclrtMemset
    return openacl::MemsetD32(ptr, memSize, value, N, nullptr);
}

aclError aclrtMemsetD32Async(void* ptr, size_t memSize, uint32_t value, size_t N,
                             aclrtStream stream) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    openacl::Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::MemsetD32(ptr, memSize, value, N, resolved);
}

aclError aclrtValueWrite(void* devAddr, uint64_t value, uint32_t flag, aclrtStream stream) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    openacl::Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::ValueWrite(devAddr, value, flag, resolved);
}

aclError aclrtValueWait(void* devAddr, uint64_t value, uint32_t flag, aclrtStream stream) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    openacl::Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::ValueWait(devAddr, value, flag, resolved);
}

aclError aclrtGetMemUsageInfo(int32_t deviceId, aclrtMemUsageInfo* memUsageInfo, size_t inputNum,
                              size_t* outputNum) {
    OPENACL_API();
    return openacl::GetMemUsageInfo(deviceId, memUsageInfo, inputNum, outputNum);
}

aclError aclrtCheckMemType(void** addrList, uint32_t size, uint32_t memType, uint32_t* checkResult,
                           uint32_t reserve) {
    OPENACL_API();
    return openacl::CheckMemType(addrList, size, memType, checkResult, reserve);
}

// Host memory has no uncorrectable errors the runtime could see: nothing is ever reported, so
// nothing can be repaired.
aclError aclrtGetMemUceInfo(int32_t deviceId, aclrtMemUceInfo* memUceInfoArray, size_t arraySize,
                            size_t* retSize) {
    OPENACL_API();
    if (memUceInfoArray == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "memUceInfoArray is null");
    if (retSize == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "retSize is null");
    if (arraySize == 0) return Fail(ACL_ERROR_INVALID_PARAM, "arraySize must not be 0");
    if (openacl::Runtime::Get().DeviceById(deviceId) == nullptr) {
        return ACL_ERROR_RT_INVALID_DEVICEID;
    }
    *retSize = 0;
    return ACL_SUCCESS;
}

aclError aclrtMemUceRepair(int32_t deviceId, aclrtMemUceInfo* memUceInfoArray, size_t arraySize) {
    OPENACL_API();
    if (memUceInfoArray == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "memUceInfoArray is null");
    if (openacl::Runtime::Get().DeviceById(deviceId) == nullptr) {
        return ACL_ERROR_RT_INVALID_DEVICEID;
    }
    return Fail(ACL_ERROR_INVALID_PARAM,
                "device %d reported no uncorrectable memory errors (aclrtGetMemUceInfo): the "
                "%zu entr%s given cannot be repaired",
                deviceId, arraySize, arraySize == 1 ? "y" : "ies");
}

aclError aclrtCmoAsync(void* src, size_t size, aclrtCmoType cmoType, aclrtStream stream) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    openacl::Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::CmoAsync(src, size, cmoType, resolved);
}

aclError aclrtCmoGetDescSize(size_t* size) {
    OPENACL_API();
    return openacl::CmoGetDescSize(size);
}

aclError aclrtCmoSetDesc(void* cmoDesc, void* src, size_t size) {
    OPENACL_API();
    return openacl::CmoSetDesc(cmoDesc, src, size);
}

aclError aclrtCmoAsyncWithDesc(void* cmoDesc, aclrtCmoType cmoType, aclrtStream stream,
                               const void* reserve) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    openacl::Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::CmoAsyncWithDesc(cmoDesc, cmoType, resolved, reserve);
}

// CANN documents the barrier forms for no product.
aclError aclrtCmoAsyncWithBarrier(void* src, size_t size, aclrtCmoType cmoType, uint32_t barrierId,
                                  aclrtStream stream) {
    OPENACL_API();
    (void)src, (void)size, (void)cmoType, (void)barrierId, (void)stream;
    return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                "aclrtCmoAsyncWithBarrier: CANN documents it for no product (Ascend 950, Atlas "
                "A2 and A3 lack it)");
}

aclError aclrtCmoWaitBarrier(aclrtBarrierTaskInfo* taskInfo, aclrtStream stream, uint32_t flag) {
    OPENACL_API();
    (void)taskInfo, (void)stream, (void)flag;
    return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                "aclrtCmoWaitBarrier: CANN documents it for no product (Ascend 950, Atlas A2 and "
                "A3 lack it)");
}

aclError aclrtGetMemcpyDescSize(aclrtMemcpyKind kind, size_t* descSize) {
    OPENACL_API();
    return openacl::GetMemcpyDescSize(kind, descSize);
}

aclError aclrtSetMemcpyDesc(void* desc, aclrtMemcpyKind kind, void* srcAddr, void* dstAddr,
                            size_t count, void* config) {
    OPENACL_API();
    return openacl::SetMemcpyDesc(desc, kind, srcAddr, dstAddr, count, config);
}

aclError aclrtMemcpyAsyncWithDesc(void* desc, aclrtMemcpyKind kind, aclrtStream stream) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    openacl::Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::MemcpyAsyncWithDesc(desc, kind, resolved);
}

aclError aclrtMemcpyAsyncWithOffset(void** dst, size_t destMax, size_t dstDataOffset,
                                    const void** src, size_t count, size_t srcDataOffset,
                                    aclrtMemcpyKind kind, aclrtStream stream) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    openacl::Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::MemcpyAsyncWithOffset(dst, destMax, dstDataOffset, src, count, srcDataOffset,
                                          kind, resolved);
}

aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count,
                          aclrtMemcpyKind kind, aclrtStream stream) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    openacl::Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::MemcpyAsync(dst, destMax, src, count, kind, resolved);
}

aclError aclrtMemcpyAsyncWithCondition(void* dst, size_t destMax, const void* src, size_t count,
                                       aclrtMemcpyKind kind, aclrtStream stream) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    openacl::Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::MemcpyAsync(dst, destMax, src, count, kind, resolved);
}

aclError aclrtMemcpy2dAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                            size_t height, aclrtMemcpyKind kind, aclrtStream stream) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    openacl::Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::Memcpy2dAsync(dst, dpitch, src, spitch, width, height, kind, resolved);
}

aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count,
                          aclrtStream stream) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    openacl::Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::MemsetAsync(devPtr, maxCount, value, count, resolved);
}
