/* The table a kernel binary exports so openacl can find and launch its kernels. Generated
 * by tools/gen_kernel_table.py from the kernel sources; applications never touch it. */
#ifndef OPENACL_KERNEL_BINARY_H_
#define OPENACL_KERNEL_BINARY_H_

#include <stddef.h>
#include <stdint.h>

#define OPENACL_KERNEL_BINARY_MAGIC 0x4C43414FU /* "OACL" */
#define OPENACL_KERNEL_BINARY_VERSION 1U
#define OPENACL_KERNEL_TABLE_SYMBOL "openacl_kernel_binary_table"
#define OPENACL_KERNEL_ARG_SLOT 8U /* every parameter occupies one 8-byte slot */

#ifdef __cplusplus
extern "C" {
#endif

/* Runs one block of a kernel: reads the parameters from `args` (argsSize bytes, one slot per
 * parameter), sets the block index, calls the kernel. Returns 0, or non-zero with a message in
 * `error` when the kernel threw or trapped. */
typedef int (*openaclKernelBlockFn)(const void* args, uint32_t blockIdx, uint32_t blockNum,
                                    char* error, size_t errorSize);

typedef struct openaclKernelEntry {
    const char* name;    /* the kernel function's name */
    uint32_t paramCount; /* its parameters, each one argument slot */
    openaclKernelBlockFn run;
} openaclKernelEntry;

typedef struct openaclKernelTable {
    uint32_t magic;      /* OPENACL_KERNEL_BINARY_MAGIC */
    uint32_t version;    /* OPENACL_KERNEL_BINARY_VERSION */
    const char* backend; /* "cpu" */
    uint32_t kernelCount;
    const openaclKernelEntry* kernels;
} openaclKernelTable;

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_KERNEL_BINARY_H_ */
