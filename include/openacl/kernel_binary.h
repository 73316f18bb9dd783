/* The table a kernel binary exports so openacl can find and launch its kernels. Generated
 * by tools/gen_kernel_table.py from the kernel sources (a kernel binary, dlopened by
 * aclrtBinaryLoadFromFile) or by tools/ascendc_gen.py (an Ascend C library of ascendc.cmake,
 * whose launch stubs register their table in-process with openaclRegisterKernelTable);
 * applications never touch it. */
#ifndef OPENACL_KERNEL_BINARY_H_
#define OPENACL_KERNEL_BINARY_H_

#include <stddef.h>
#include <stdint.h>

#define OPENACL_KERNEL_BINARY_MAGIC 0x4C43414FU /* "OACL" */
/* 2: entries carry argsSize (packed argument blocks). openacl still loads version-1 tables,
 * whose entries have no argsSize and always take 8-byte slots. */
#define OPENACL_KERNEL_BINARY_VERSION 2U
#define OPENACL_KERNEL_BINARY_MIN_VERSION 1U
#define OPENACL_KERNEL_TABLE_SYMBOL "openacl_kernel_binary_table"
#define OPENACL_KERNEL_ARG_SLOT 8U /* a slot-style kernel's parameter occupies one 8-byte slot */

#ifdef __cplusplus
extern "C" {
#endif

/* Runs one block of a kernel: reads the parameters from `args` (the launch's argument block),
 * sets the block index, calls the kernel. Returns 0, or non-zero with a message in `error` when
 * the kernel threw or trapped. */
typedef int (*openaclKernelBlockFn)(const void* args, uint32_t blockIdx, uint32_t blockNum,
                                    char* error, size_t errorSize);

typedef struct openaclKernelEntry {
    const char* name;    /* the kernel function's name */
    uint32_t paramCount; /* its parameters */
    /* Version 2. 0: the arguments are paramCount 8-byte slots (openacl_add_kernel_binary).
     * Otherwise the kernel reads one packed block of argsSize bytes, laid out as CANN's launch
     * stubs pack it (each parameter aligned to max(4, its alignment), structs by value); a
     * launch must give at least that many bytes. It sits where version 1 had padding, so the
     * entry's size and the other fields' offsets did not change. */
    uint32_t argsSize;
    openaclKernelBlockFn run;
} openaclKernelEntry;

typedef struct openaclKernelTable {
    uint32_t magic;      /* OPENACL_KERNEL_BINARY_MAGIC */
    uint32_t version;    /* OPENACL_KERNEL_BINARY_VERSION */
    const char* backend; /* "cpu" */
    uint32_t kernelCount;
    const openaclKernelEntry* kernels;
} openaclKernelTable;

/* What the launch stubs of an Ascend C library leave in the program for each kernel source, so
 * that aclrtGetFuncBySymbol finds the source's kernels by their functions' addresses before
 * any of them was launched: the source's table and the origin its launches register it with.
 * It is a variable local to the source whose symbol name starts with
 * OPENACL_KERNEL_TABLE_REF_PREFIX, found through the symbol table of the image holding it. */
typedef struct openaclKernelTableRef {
    const openaclKernelTable* table;
    const char* origin;
} openaclKernelTableRef;
#define OPENACL_KERNEL_TABLE_REF_PREFIX "openacl_kernel_table_ref_"

/* Registers a kernel table that lives in the calling program's own image (the launch stubs an
 * Ascend C library links in) as a loaded kernel binary, and gives its handle: the table's
 * kernels are then found with aclrtBinaryGetFunction / aclrtBinaryGetFunctionByEntry (entry =
 * index in the table) and launched with any aclrtLaunchKernel* call. `origin` names the table
 * in messages (copied). Idempotent: while the table is registered, a further call gives the same
 * handle; after that handle was unloaded (aclrtBinaryUnLoad) a call registers the table again.
 * The table must stay valid for as long as it is registered. Needs no aclInit. Returns
 * ACL_SUCCESS (0), or ACL_ERROR_INVALID_PARAM (100000) with a message (aclGetRecentErrMsg) for a
 * null argument or a table that is damaged, of another version or backend. Thread-safe. */
__attribute__((visibility("default"))) int openaclRegisterKernelTable(
    const openaclKernelTable* table, const char* origin, void** handle);

/* What the launch stubs of an Ascend C library (aclrtlaunch_<kernel>, and so <<<>>>) call:
 * registers `table` as openaclRegisterKernelTable does, then launches its kernel `index` over
 * numBlocks blocks on `stream` (NULL: the default stream), asynchronously, with the argsSize
 * bytes of packed arguments at `args` (host memory, copied before the call returns), as
 * aclrtLaunchKernelWithHostArgs does: same checks, errors, traces and strict checks. `apiName`
 * (a string that lives as long as the program, e.g. "aclrtlaunch_add_custom") names the call in
 * messages and traces. nullParam: NULL, or the name of a struct parameter the caller was given
 * a null pointer for, which fails the call with ACL_ERROR_INVALID_PARAM and nothing launched.
 * Returns ACL_SUCCESS (0) or the ACL error code (message: aclGetRecentErrMsg). */
__attribute__((visibility("default"))) int openaclLaunchKernelTable(
    const char* apiName, const openaclKernelTable* table, const char* origin, uint32_t index,
    uint32_t numBlocks, void* stream, const void* args, size_t argsSize, const char* nullParam);

/* What a block of an Ascend C kernel calls for SyncAll: waits until `participants` blocks of
 * its launch (0: all) have called it. 0: passed. 1: the block does not run co-resident with the
 * others (the launch has more blocks than the chip has cores, or it was not launched by
 * openacl's runtime); 2: blocks of the launch returned without calling it; 3: another block
 * failed or the launch's timeout passed; 4: more participants than the launch has blocks. */
__attribute__((visibility("default"))) int openaclKernelSyncAll(uint32_t participants);

/* What a block of an Ascend C kernel calls for IBSet and IBWait: stores `value` in the int32 at
 * `flag` (GM), waking the blocks waiting for it; waits until the int32 at `flag` holds `value`.
 * 0: done. 1: the block does not run co-resident with the others (as for SyncAll); 2 (wait
 * only): no block is left to set it (every block still running waits for a flag or at a
 * SyncAll); 3 (wait only): another block failed or the launch's timeout passed. */
__attribute__((visibility("default"))) int openaclKernelSetFlag(int32_t* flag, int32_t value);
__attribute__((visibility("default"))) int openaclKernelWaitFlag(const int32_t* flag,
                                                                 int32_t value);

/* CrossCoreSetFlag mode 0 / CrossCoreWaitFlag in a kernel whose blocks are one core each: a set
 * of flag id `id` (0..15), and a wait for a round the block has not taken (`taken`: the rounds
 * it took so far); a round completes when every block of the launch has set the flag once more.
 * Results as for the flags above. */
__attribute__((visibility("default"))) int openaclKernelAllCoresSet(uint32_t id);
__attribute__((visibility("default"))) int openaclKernelAllCoresWait(uint32_t id, uint64_t taken);

/* What a block of an Ascend C kernel hands over when it ends: the global memory it wrote
 * outside atomics, as `count` byte ranges [ranges[2i], ranges[2i+1]) with the API that wrote
 * each (apis[i], a string the kernel keeps). Once every block has run, the runtime fails the
 * launch if two blocks wrote the same bytes with no inter-block synchronisation (SyncAll,
 * IBSet/IBWait, CrossCoreSetFlag mode 0) in the launch. 0: taken, or not collected (the block
 * was not launched by openacl's runtime). */
__attribute__((visibility("default"))) int openaclKernelBlockWrites(const uint64_t* ranges,
                                                                    const char* const* apis,
                                                                    uint32_t count);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_KERNEL_BINARY_H_ */
