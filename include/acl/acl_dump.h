/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * acl/acl_dump.h: data-dump helpers (dump chunk callbacks, operator argument
 * dumps, exception dump path). The model dump switches aclmdlInitDump,
 * aclmdlSetDump and aclmdlFinalizeDump are declared in acl_rt.h.
 */
#ifndef INC_EXTERNAL_ACL_DUMP_H_
#define INC_EXTERNAL_ACL_DUMP_H_

#include <stdint.h>

/* Dump symbols are always exported. Kept for source compatibility; the functions
 * below are declared with ACL_FUNC_VISIBILITY. */
#if (defined(_WIN32) || defined(_WIN64) || defined(_MSC_VER))
#define ACL_DUMP_API __declspec(dllexport)
#else
#define ACL_DUMP_API __attribute__((visibility("default")))
#endif

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Capacity of acldumpChunk::fileName. */
#define ACL_DUMP_MAX_FILE_PATH_LENGTH 4096

/* One piece of dump data handed to a registered callback. */
typedef struct acldumpChunk {
    char fileName[ACL_DUMP_MAX_FILE_PATH_LENGTH]; /* absolute path of the target file */
    uint32_t bufLen;                              /* bytes in dataBuf */
    uint32_t isLastChunk;                         /* 1 for the final chunk of a file, else 0 */
    int64_t offset;                               /* position in the file; -1 appends */
    int32_t flag;
    uint8_t dataBuf[]; /* bufLen bytes follow */
} acldumpChunk;

/* Deliver dump data to messageCallback instead of writing files. */
ACL_FUNC_VISIBILITY aclError
acldumpRegCallback(int32_t (*const messageCallback)(const acldumpChunk*, int32_t), int32_t flag);

ACL_FUNC_VISIBILITY void acldumpUnregCallback(void);

/* dumpType bit for aclopStartDumpArgs / aclopStopDumpArgs: AI Core operator arguments. */
#define ACL_OP_DUMP_OP_AICORE_ARGS 0x00000001U

/* Start dumping the given kinds of operator data below path. */
ACL_FUNC_VISIBILITY aclError aclopStartDumpArgs(uint32_t dumpType, const char* path);

/* Stop dumping the given kinds of operator data. */
ACL_FUNC_VISIBILITY aclError aclopStopDumpArgs(uint32_t dumpType);

/* What acldumpGetPath is asked about (CANN 9). */
typedef enum acldumpType {
    AIC_ERR_BRIEF_DUMP = 1,  /* exception dump, light */
    AIC_ERR_NORM_DUMP = 2,   /* exception dump with shapes, types, formats and attributes */
    AIC_ERR_DETAIL_DUMP = 3, /* exception dump with the core's memories and registers */
    DATA_DUMP = 4,           /* model and single-operator data dumps */
    OVERFLOW_DUMP = 5        /* dumps of operators that overflowed */
} acldumpType;

/* Where dumps of the given type go, so that an application can put its own data beside them;
 * NULL when no dump of that type is configured. */
ACL_FUNC_VISIBILITY const char* acldumpGetPath(acldumpType dumpType);

/* Exception dumps (CANN 9.3): an application's own tensors saved beside the exception dumps.
 * The two functions are declared weak, as in CANN, so that a program can test whether the
 * runtime it runs on has them. */
#if (defined(_WIN32) || defined(_WIN64) || defined(_MSC_VER))
#define ACL_DUMP_WEAK
#else
#define ACL_DUMP_WEAK __attribute__((weak))
#endif

/* Most dims of acldumpTensorInfo's shapes. */
#define ACL_DUMP_MAX_SHAPE_NUM 25

typedef enum acldumpTensorType {
    ACL_DUMP_TENSOR_INPUT = 0,
    ACL_DUMP_TENSOR_OUTPUT = 1,
    ACL_DUMP_TENSOR_WORKSPACE = 2
} acldumpTensorType;

typedef enum acldumpTensorAddressType {
    ACL_DUMP_ADDR_PTR = 0,     /* the address holds the data's address */
    ACL_DUMP_ADDR_PTR_PTR = 1, /* two such steps to the data */
    ACL_DUMP_ADDR_RAW = 2      /* the address is the data's */
} acldumpTensorAddressType;

typedef enum acldumpTensorPlacement {
    ACL_DUMP_PLACEMENT_DEVICE = 0,
    ACL_DUMP_PLACEMENT_HOST = 1,
    ACL_DUMP_PLACEMENT_END = 2 /* bound of the enumeration, not a placement */
} acldumpTensorPlacement;

/* One tensor for acldumpSaveExceptionInfo. */
typedef struct acldumpTensorInfo {
    acldumpTensorType type;
    size_t tensorSize; /* bytes */
    int32_t format;    /* an aclFormat */
    int32_t dataType;  /* an aclDataType */
    int64_t* tensorAddr;
    acldumpTensorAddressType addrType;
    acldumpTensorPlacement placement;
    uint32_t argsOffset; /* where the tensor's address sits in the operator's arguments */
    uint32_t shapeNum;   /* dims used in shape, at most ACL_DUMP_MAX_SHAPE_NUM */
    uint32_t originShapeNum;
    uint64_t shape[ACL_DUMP_MAX_SHAPE_NUM];
    uint64_t originShape[ACL_DUMP_MAX_SHAPE_NUM];
} acldumpTensorInfo;

/* Saves `tensors` (device memory, raw addresses) as <exception dump path>/<fileName>.custom.
 * <millisecond timestamp>; exception dumps must be on (dump_scene). */
ACL_DUMP_WEAK ACL_FUNC_VISIBILITY aclError
acldumpSaveExceptionInfo(const char* fileName, const char* userTag,
                         const acldumpTensorInfo* tensors, size_t tensorCount);

/* The exception dump folder of the current device (<dumpPath>/extra-info/data-dump/<id>/). */
ACL_DUMP_WEAK ACL_FUNC_VISIBILITY aclError acldumpGetExceptionInfoPath(char* path, size_t maxLen);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_DUMP_H_ */
