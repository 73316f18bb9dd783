/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * acl/acl_op_compiler.h: compiling single operators online, compiling and
 * running them in one call, the process-wide compile options and flag, and
 * dumping the graph built for an operator.
 */
#ifndef INC_EXTERNAL_ACL_ACL_OP_COMPILER_H_
#define INC_EXTERNAL_ACL_ACL_OP_COMPILER_H_

/* The include order is part of the documented header layout. */
/* clang-format off */
#include "acl_base.h"
#include "acl_op.h"
/* clang-format on */

#ifdef __cplusplus
extern "C" {
#endif

/* Where the operator comes from: the built-in library, or opPath. */
typedef enum aclCompileType { ACL_COMPILE_SYS, ACL_COMPILE_UNREGISTERED } aclopCompileType;

/* Process-wide options read when an operator is compiled (aclSetCompileopt). */
typedef enum {
    ACL_PRECISION_MODE,          /* precision mode of the operators */
    ACL_AICORE_NUM,              /* AI Cores to compile for */
    ACL_AUTO_TUNE_MODE,          /* discarded: cannot be set */
    ACL_OP_SELECT_IMPL_MODE,     /* high-precision or high-performance implementations */
    ACL_OPTYPELIST_FOR_IMPLMODE, /* operator types ACL_OP_SELECT_IMPL_MODE applies to */
    ACL_OP_DEBUG_LEVEL,          /* operator debug level, "0".."4" */
    ACL_DEBUG_DIR,               /* where debug files of compilation go */
    ACL_OP_COMPILER_CACHE_MODE,  /* disk cache of compiled operators */
    ACL_OP_COMPILER_CACHE_DIR,   /* directory of that cache */
    ACL_OP_PERFORMANCE_MODE,     /* deprecated */
    ACL_OP_JIT_COMPILE,          /* compile online, or prefer prebuilt binaries */
    ACL_OP_DETERMINISTIC,        /* deterministic computation, "0" or "1" */
    ACL_CUSTOMIZE_DTYPES,        /* file naming operators' computation types */
    ACL_OP_PRECISION_MODE,       /* file of per-operator precision modes */
    ACL_ALLOW_HF32,              /* reserved */
    ACL_PRECISION_MODE_V2,       /* precision mode, newer names */
    ACL_OP_DEBUG_OPTION          /* "oom": check global memory accesses */
} aclCompileOpt;

/* Exact or fuzzy (shape-generalising) compilation; deprecated. */
typedef enum aclCompileFlag { ACL_OP_COMPILE_DEFAULT, ACL_OP_COMPILE_FUZZ } aclOpCompileFlag;

/* Options of aclGenGraphAndDumpForOp. */
typedef struct aclGraphDumpOption aclGraphDumpOption;

/* Compile the operator for these descriptions and attributes (attr may be NULL) and keep it
 * for later executions. opPath names the operator's implementation for ACL_COMPILE_UNREGISTERED. */
ACL_FUNC_VISIBILITY aclError aclopCompile(const char* opType, int numInputs,
                                          const aclTensorDesc* const inputDesc[], int numOutputs,
                                          const aclTensorDesc* const outputDesc[],
                                          const aclopAttr* attr, aclopEngineType engineType,
                                          aclopCompileType compileFlag, const char* opPath);

/* Compile the operator when needed, then enqueue it on stream (static shapes). */
ACL_FUNC_VISIBILITY aclError aclopCompileAndExecute(
    const char* opType, int numInputs, const aclTensorDesc* const inputDesc[],
    const aclDataBuffer* const inputs[], int numOutputs, const aclTensorDesc* const outputDesc[],
    aclDataBuffer* const outputs[], const aclopAttr* attr, aclopEngineType engineType,
    aclopCompileType compileFlag, const char* opPath, aclrtStream stream);

/* Like aclopCompileAndExecute, for dynamic shapes too: outputDesc receives the output shapes. */
ACL_FUNC_VISIBILITY aclError
aclopCompileAndExecuteV2(const char* opType, int numInputs, aclTensorDesc* inputDesc[],
                         aclDataBuffer* inputs[], int numOutputs, aclTensorDesc* outputDesc[],
                         aclDataBuffer* outputs[], aclopAttr* attr, aclopEngineType engineType,
                         aclopCompileType compileFlag, const char* opPath, aclrtStream stream);

/* Set a compile option for the whole process; value is a NUL-terminated string. */
ACL_FUNC_VISIBILITY aclError aclSetCompileopt(aclCompileOpt opt, const char* value);

/* Bytes aclGetCompileopt needs for the option's value, terminator included; 0: no value. */
ACL_FUNC_VISIBILITY size_t aclGetCompileoptSize(aclCompileOpt opt);

/* Copy the option's value in force (set, or the default) into value[0..length). */
ACL_FUNC_VISIBILITY aclError aclGetCompileopt(aclCompileOpt opt, char* value, size_t length);

/* Exact (the default) or fuzzy compilation for the whole process. */
ACL_FUNC_VISIBILITY aclError aclopSetCompileFlag(aclOpCompileFlag flag);

/* Build the operator's graph and write it to graphDumpPath (a ".txt" file, else a directory);
 * graphDumpOpt may be NULL. */
ACL_FUNC_VISIBILITY aclError aclGenGraphAndDumpForOp(
    const char* opType, int numInputs, const aclTensorDesc* const inputDesc[],
    const aclDataBuffer* const inputs[], int numOutputs, const aclTensorDesc* const outputDesc[],
    aclDataBuffer* const outputs[], const aclopAttr* attr, aclopEngineType engineType,
    const char* graphDumpPath, const aclGraphDumpOption* graphDumpOpt);

/* NULL when out of memory. */
ACL_FUNC_VISIBILITY aclGraphDumpOption* aclCreateGraphDumpOpt(void);

ACL_FUNC_VISIBILITY aclError aclDestroyGraphDumpOpt(const aclGraphDumpOption* graphDumpOpt);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_ACL_OP_COMPILER_H_ */
