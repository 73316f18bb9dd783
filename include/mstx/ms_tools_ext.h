/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * mstx/ms_tools_ext.h: the MindStudio Tools Extension (mstx), CANN's annotation API. A program
 * marks instants and ranges, optionally tied to a stream, and may group them in named domains.
 * CANN installs this header as ${INSTALL_DIR}/include/mstx/ms_tools_ext.h, with the library
 * libms_tools_ext.so in ${INSTALL_DIR}/lib64. In openacl the functions live in libascendcl.so and
 * libms_tools_ext.so is another name for it, so linking either works.
 *
 * The annotations reach the timeline while a trace records user annotations (OPENACL_TRACE, or
 * aclprofStart with ACL_PROF_MSPROFTX in the configuration); at other times the calls check
 * their arguments and record nothing, as in CANN when no tool collects them.
 *
 * CANN's header may also define the functions inline (they then look for a tool named by
 * MSTX_INJECTION_PATH); this one always declares the library's functions, so MSTX_NO_IMPL and
 * MSTX_DISABLE change nothing.
 */
#ifndef MSTX_TOOLS_EXT
#define MSTX_TOOLS_EXT

#include <stddef.h>
#include <stdint.h>

#ifndef MSTX_DECLSPEC
#define MSTX_DECLSPEC __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Result values of the tool interface. */
#define MSTX_SUCCESS 0
#define MSTX_FAIL 1

/* What mstxGetToolId reports: no tool, or the tool that collects the annotations. */
#define MSTX_TOOL_INVALID_ID 0x0
#define MSTX_TOOL_MSPROF_ID 0x1000
#define MSTX_TOOL_MSOPPROF_ID 0x1001
#define MSTX_TOOL_MSSANITIZER_ID 0x1002
#define MSTX_TOOL_MSLEAKS_ID 0x1003

/* The range id a failed (or uncollected) range start returns; earlier CANN headers name it. */
#define MSTX_INVALID_ID 0

typedef uint64_t mstxRangeId;
typedef void* aclrtStream;

struct mstxDomainRegistration_st;
typedef struct mstxDomainRegistration_st mstxDomainRegistration_t;
typedef mstxDomainRegistration_t* mstxDomainHandle_t;

/* An instant. message: at most 156 bytes, not NULL. stream: NULL marks the calling thread
 * only; a stream also gets a mark task, drawn on its track when the stream reaches it. */
MSTX_DECLSPEC void mstxMarkA(const char* message, aclrtStream stream);

/* Opens a range, which mstxRangeEnd closes from any thread; returns its id, or 0 when nothing
 * is recorded (no collecting trace, or a bad argument). With a stream, the stream's track also
 * shows the range, from where the stream reaches this call to where it reaches the end. */
MSTX_DECLSPEC mstxRangeId mstxRangeStartA(const char* message, aclrtStream stream);
MSTX_DECLSPEC void mstxRangeEnd(mstxRangeId id);

/* Domains group annotations under a name (digits, letters and '_', at most 1023 bytes); one
 * name always gives the same handle until it is destroyed. Annotations without a domain belong
 * to the default one (globalDomain, NULL). A destroyed domain's handle is refused with a
 * warning. */
MSTX_DECLSPEC mstxDomainHandle_t mstxDomainCreateA(const char* name);
MSTX_DECLSPEC void mstxDomainDestroy(mstxDomainHandle_t domain);
MSTX_DECLSPEC void mstxDomainMarkA(mstxDomainHandle_t domain, const char* message,
                                   aclrtStream stream);
MSTX_DECLSPEC mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t domain, const char* message,
                                                aclrtStream stream);
MSTX_DECLSPEC void mstxDomainRangeEnd(mstxDomainHandle_t domain, mstxRangeId id);

/* The tool collecting the annotations: MSTX_TOOL_MSPROF_ID while openacl records them, else
 * MSTX_TOOL_INVALID_ID. */
MSTX_DECLSPEC void mstxGetToolId(uint64_t* id);

#ifdef __cplusplus
}
#endif

#include "ms_tools_ext_mem.h"

#endif /* MSTX_TOOLS_EXT */
