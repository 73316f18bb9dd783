/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * hccl/hccl_comm.h: HCCL communicators (libhccl.so, also found through libhcomm.so). A
 * communicator joins `nRanks` ranks, each bound to the device current on the thread that
 * created it: ranks may be threads of one process (one device each), processes on one
 * machine, or machines. Bootstrap: one rank calls HcclGetRootInfo, the program ships the bytes
 * to every rank, and every rank calls HcclCommInitRootInfo; or one process creates a rank per
 * device with HcclCommInitAll; or every rank reads a rank-table file (HcclCommInitClusterInfo).
 * The collectives themselves are in hccl.h.
 */
#ifndef HCCL_COMM_H_
#define HCCL_COMM_H_

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

#include "acl/acl.h"
#include "hccl/hccl_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fills the root info on the root rank: the address and port it listens on (HCCL_IF_IP,
 * HCCL_SOCKET_IFNAME; HCCL_HOST_SOCKET_PORT_RANGE, HCCL_IF_BASE_PORT) and this communicator's
 * identity. Returns at once; the root listens until every rank has joined. */
extern HcclResult HcclGetRootInfo(HcclRootInfo* rootInfo);

/* Joins the communicator as `rank` of `nRanks` on the calling thread's current device; blocks
 * until every rank has joined (HCCL_CONNECT_TIMEOUT). */
extern HcclResult HcclCommInitRootInfo(uint32_t nRanks, const HcclRootInfo* rootInfo, uint32_t rank,
                                       HcclComm* comm);
extern HcclResult HcclCommInitRootInfoConfig(uint32_t nRanks, const HcclRootInfo* rootInfo,
                                             uint32_t rank, const HcclCommConfig* config,
                                             HcclComm* comm);

/* Joins the communicator a rank-table file describes as its `rank`. */
extern HcclResult HcclCommInitClusterInfo(const char* clusterInfo, uint32_t rank, HcclComm* comm);
extern HcclResult HcclCommInitClusterInfoConfig(const char* clusterInfo, uint32_t rank,
                                                HcclCommConfig* config, HcclComm* comm);

/* One process, one rank per device: comms[i] is rank i on devices[i]. */
extern HcclResult HcclCommInitAll(uint32_t ndev, int32_t* devices, HcclComm* comms);

/* Splits `*comm` (a global communicator): every rank calls it; members pass the same sorted
 * rankIds (index = rank in the new communicator), subCommId and config; others pass
 * rankIds = NULL and get no communicator. */
extern HcclResult HcclCreateSubCommConfig(HcclComm* comm, uint32_t rankNum, uint32_t* rankIds,
                                          uint64_t subCommId, uint32_t subCommRankId,
                                          HcclCommConfig* config, HcclComm* subComm);

extern HcclResult HcclCommDestroy(HcclComm comm);

extern HcclResult HcclGetRankSize(HcclComm comm, uint32_t* rankSize);
extern HcclResult HcclGetRankId(HcclComm comm, uint32_t* rank);

/* Holds every rank's stream until all ranks have reached it. */
extern HcclResult HcclBarrier(HcclComm comm, aclrtStream stream);

/* The first failure of a collective already run (HCCL_SUCCESS when none), for watchdogs. */
extern HcclResult HcclGetCommAsyncError(HcclComm comm, HcclResult* asyncError);

extern const char* HcclGetErrorString(HcclResult code);

/* Greater than a HcclCommConfigCapability value: that configuration field is honoured. */
extern uint32_t HcclGetCommConfigCapability(void);

/* Process-wide settings: HCCL_DETERMINISTIC. */
extern HcclResult HcclSetConfig(HcclConfig config, union HcclConfigValue configValue);
extern HcclResult HcclGetConfig(HcclConfig config, union HcclConfigValue* configValue);

/* `commName` receives at most COMM_NAME_MAX_LENGTH bytes, the terminator included. */
extern HcclResult HcclGetCommName(HcclComm comm, char* commName);
extern HcclResult HcclCommGetHandleWithName(const char* commName, HcclComm* comm);

/* Groups communicator creation, collectives or sends and receives issued between them
 * (experimental in CANN). */
extern HcclResult HcclGroupStart(void);
extern HcclResult HcclGroupEnd(void);
extern HcclResult HcclGroupStatusGet(bool* inGroup);

/* Fault tolerance. */
extern HcclResult HcclCommSuspend(HcclComm comm);
extern HcclResult HcclCommResume(HcclComm comm);
extern HcclResult HcclCommGetStatus(const char* commId, HcclCommStatus* status);
extern HcclResult HcclCommRegCommStateCallback(const char* regName, HcclCommStateCallback callback,
                                               void* args);
extern HcclResult HcclCommWorkingDevNicSet(HcclComm comm, uint32_t* ranks, bool* useBackup,
                                           uint32_t nRanks);

/* Zero-copy memory ranges. */
extern HcclResult HcclCommSetMemoryRange(HcclComm comm, void* baseVirPtr, size_t size,
                                         size_t alignment, uint64_t flags);
extern HcclResult HcclCommUnsetMemoryRange(HcclComm comm, void* baseVirPtr);
extern HcclResult HcclCommActivateCommMemory(HcclComm comm, void* virPtr, size_t size,
                                             size_t offset, aclrtDrvMemHandle handle,
                                             uint64_t flags);
extern HcclResult HcclCommDeactivateCommMemory(HcclComm comm, void* virPtr);

/* Symmetric-memory windows. */
extern HcclResult HcclCommSymWinRegister(HcclComm comm, void* addr, uint64_t size,
                                         HcclCommSymWindow* winHandle, uint32_t flag);
extern HcclResult HcclCommSymWinDeregister(HcclCommSymWindow winHandle);
extern HcclResult HcclCommSymWinGet(HcclComm comm, void* ptr, size_t size,
                                    HcclCommSymWindow* winHandle, size_t* offset);

typedef enum {
    HCCL_OP_EXPANSION_MODE_INVALID = -1,
    HCCL_OP_EXPANSION_MODE_AI_CPU = 0,
    HCCL_OP_EXPANSION_MODE_AIV = 1,
    HCCL_OP_EXPANSION_MODE_HOST = 2,
    HCCL_OP_EXPANSION_MODE_HOST_TS = 3,
    HCCL_OP_EXPANSION_MODE_CCU_MS = 4,
    HCCL_OP_EXPANSION_MODE_CCU_SCHED = 5,
    HCCL_OP_EXPANSION_AIV_ONLY = 6
} HcclOpExpansionMode;

typedef enum {
    HCCL_CONFIG_TYPE_INVALID = -1,
    HCCL_CONFIG_TYPE_OP_EXPANSION_MODE = 0,
    HCCL_CONFIG_TYPE_HCCL_ALGO = 1,
    HCCL_CONFIG_TYPE_UB_MULTI_CHANNEL_NUM = 2
} HcclConfigType;

typedef HcclOpExpansionMode HcclConfigTypeOpExpansionMode;

/* Copies what the communicator has for `cfgType` into `info` (infoLen bytes). */
extern HcclResult HcclConfigGetInfo(HcclComm comm, HcclConfigType cfgType, uint32_t infoLen,
                                    void* info);

/* Sets every field of `config` to its default and records the layout's size and version in
 * its first 24 bytes: {size_t size; uint32_t magic word; uint32_t version; uint64_t 0}. */
static inline void HcclCommConfigInit(HcclCommConfig* config) {
    typedef struct {
        size_t size;
        uint32_t magicWord;
        uint32_t version;
        uint64_t reserved;
    } HcclCommConfigHeader;
    HcclCommConfigHeader header;
    if (config == NULL) {
        return;
    }
    memset(config, 0, sizeof(*config));
    header.size = sizeof(*config);
    header.magicWord = HCCL_COMM_CONFIG_MAGIC_WORD;
    header.version = HCCL_COMM_CONFIG_VERSION;
    header.reserved = 0;
    memcpy(config->reserved, &header, sizeof(header));
    config->hcclBufferSize = HCCL_COMM_BUFFSIZE_CONFIG_NOT_SET;
    config->hcclDeterministic = HCCL_COMM_DETERMINISTIC_CONFIG_NOT_SET;
    config->hcclOpExpansionMode = HCCL_COMM_DEFAULT_OP_EXPANSION_MODE;
    config->hcclRdmaTrafficClass = HCCL_COMM_TRAFFIC_CLASS_CONFIG_NOT_SET;
    config->hcclRdmaServiceLevel = HCCL_COMM_SERVICE_LEVEL_CONFIG_NOT_SET;
    config->hcclWorldRankID = 0;
    config->hcclJobID = 0;
    config->aclGraphZeroCopyEnable = 0;
    config->hcclExecTimeOut = HCCL_COMM_EXECTIMEOUT_CONFIG_NOT_SET;
    config->hcclQos = HCCL_COMM_QOS_CONFIG_NOT_SET;
    config->hcclSymWinMaxMemSizePerRank = HCCL_DEFAULT_SYMMETRIC_MEMORY_STRIDE;
}

#ifdef __cplusplus
}
#endif

#endif /* HCCL_COMM_H_ */
