// The timeline recorder behind OPENACL_TRACE and aclprofStart/aclprofStop: what each stream
// ran and when, which host call enqueued it, and the host API calls themselves, written as a
// Chrome trace (Perfetto, chrome://tracing) plus a short text summary.
//
// Off by default. While off, an enqueue pays one relaxed load (trace::On()) and tasks carry
// tag 0, which the executor does not report. While on, submissions get a non-zero tag (their
// kind) and an enqueue record keyed by (queue, sequence number); the executor reports each
// tagged run to the recorder, and the two are joined when the trace is written. Records go to
// per-thread chunks of a pool allocated when the session starts (or kept from the last one), so
// neither side allocates or shares a cache line per record; when the pool is used up, records
// are dropped and counted.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "backend/cpu/executor.h"

namespace openacl {

class Stream;

namespace trace {

// What a task is; its tag in the executor (never 0, which means "not traced").
enum class Kind : uint8_t {
    kNone = 0,
    kTask,  // submitted without a label: named after the API that submitted it ("kernel" for
            // the launch APIs)
    kMemcpyH2D,
    kMemcpyD2H,
    kMemcpyD2D,
    kMemcpyH2H,
    kMemcpy2d,
    kMemset,
    kKernel,
    kModel,
    kHostFunc,
    kCallback,
    kEventRecord,
    kEventWait,
    kMark,        // aclprofMarkEx, mstxMarkA: a user's mark on the stream (name: the message,
                  // source: the mstx domain's name or null)
    kStep,        // aclprofGetStepTimestamp: a = the step, b = 0 for its start, 1 for its end
    kRangeStart,  // an mstx range tied to the stream: where the stream reached its start and
    kRangeEnd,    // its end (a = the range id; name and source as for kMark)
    kProfTrace,   // aclrtProfTrace: a, b = the user data's first and second 8 bytes, name =
                  // all 18 bytes in hex
};

// Describes a task at enqueue time (the API that enqueues it is recorded too). The meaning of
// a and b depends on the kind: bytes for copies and fills (a), the model id (a), the event id
// (a) and, for an event wait, the point it waits for (queue `source`, sequence number b); the
// host function's address (a); 1 for a blocking callback (a); a kernel's blocks (a) and
// `name`, which must then live for the whole process.
// Label::b of a copy that was done before its asynchronous call returned (pageable memory).
inline constexpr uint64_t kCopyDoneInCall = 1;

struct Label {
    Kind kind = Kind::kTask;
    uint64_t a = 0;
    uint64_t b = 0;
    const void* source = nullptr;
    const char* name = nullptr;
};

// A copy of `text` that lives as long as the process (names of things that may be unloaded
// before the trace is written, such as kernels). Call only when On().
const char* Intern(const char* text);

namespace detail {
extern std::atomic<bool> g_on;
}

// True while a session collects. One relaxed load: the only cost of tracing when it is off.
inline bool On() {
    return detail::g_on.load(std::memory_order_relaxed);
}

// Times given to the recorder are cpu::Ticks() stamps, converted to nanoseconds when the trace
// is written. A time taken from NowNs() (a device's clock mapped onto it) is converted with
// TicksFromNs while the session runs.
int64_t TicksFromNs(int64_t ns);

// Records that the calling thread submitted `seq` to `stream`. Call only when On(). The time
// is the start of the API call that submits it (reading the clock costs as much as the rest
// of an enqueue); outside an API call, now.
void NoteEnqueue(const Stream& stream, uint64_t seq, const Label& label);

// API slices on host-thread tracks. ApiBegin starts the calling thread's API call `name`
// (which must live for the whole process) and returns the thread's recorder state, nullptr
// when tracing is off; ApiEnd ends that call and ignores nullptr. Only outermost API calls are
// traced (see ApiScope), which hands the state from one to the other: a thread-local lookup
// costs a call in a shared library.
struct ThreadState;
ThreadState* ApiBegin(const char* name);
void ApiEnd(ThreadState* call);

// A slice inside the task the calling thread is running (a model's layers): drawn on the
// track of that task's stream, nested in the task, or on the calling thread's own track when
// it runs no task (a synchronous aclmdlExecute). `name` must live for the whole process
// (Intern it); times are cpu::Ticks(). Call only when On().
void NoteSlice(const char* name, int64_t start, int64_t end);

// The executor's hook; installed on every device's executor (tasks with tag 0 never reach it).
cpu::Tracer* ExecutorTracer();

// Who started a session: a program may use only one of the two ways at a time.
enum class Owner : uint8_t { kNone, kEnvironment, kProfApi };

struct SessionOptions {
    std::string path;                     // the JSON file; the summary goes next to it (.txt)
    Owner owner = Owner::kEnvironment;    //
    uint64_t device_mask = ~uint64_t{0};  // devices whose streams are written (bit = id)
    bool user_annotations = true;         // msproftx marks and ranges (ACL_PROF_MSPROFTX)
    uint64_t buffer_mib = 0;              // record buffer; 0: OPENACL_TRACE_BUFFER_MB or 256
};

// Starts collecting. False (with *why) when a session is already running.
bool Start(const SessionOptions& options, std::string* why);
// The owner of the running session (kNone when there is none).
Owner Running();
// Stops collecting and writes the trace and its summary; logs the summary at INFO. Returns
// false (with *why) when nothing was running or the files could not be written.
bool Stop(std::string* why);

// Starts the OPENACL_TRACE / "trace" session if `path` is set and nothing runs yet; it is
// written at aclFinalize, or at process exit if the program never finalizes. With `again`
// false, only if no such session has run in this process. The first session writes `path`;
// later ones (aclInit after aclFinalize) write path.2.json, path.3.json, ...
void StartConfigured(const std::string& path, bool again);

// User annotations (msproftx: aclprofMark, aclprofPush/Pop, aclprofRangeStart/Stop,
// aclprofRangePushEx/RangePop; mstx: marks and ranges) on host-thread tracks. `message`,
// `args_json` (a JSON object, or null) and `domain` must live for the whole process (Intern
// them); times are cpu::Ticks(). An mstx domain becomes the category "user,<domain>" and an
// argument (the default domain's annotations are "user").
struct UserNote {
    const char* message = nullptr;
    const char* args_json = nullptr;
    int64_t start = 0;
    int64_t end = 0;
    uint32_t start_thread = 0;     // the thread that opened it (ranges may end on another one)
    uint32_t range_id = 0;         // non-zero: a range that may span threads
    bool instant = false;          // a mark: start == end
    const char* domain = nullptr;  // an mstx domain's name; null: the default domain
};
// True while a session runs that wants user annotations.
bool UserNotesOn();
void NoteUser(const UserNote& note);
// The calling thread's id as traces show it.
uint32_t ThreadId();

// Runs fn at every Stop before the trace is written, while records are still taken (streams
// whose device work is timed on the device hand their slices over then).
void AddFlushHook(void (*fn)());

// A stopped session's buffer stays mapped for the next session, whose records then land on
// pages written before (see g_kept in trace.cpp). This releases it (aclprofFinalize).
void ReleaseKeptBuffers();

// Test and diagnostic helpers: records dropped in the last session for lack of room.
uint64_t LastDropped();

}  // namespace trace
}  // namespace openacl
