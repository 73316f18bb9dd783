// The inter-process soak: N processes in a ring, each round every process writes fresh bytes into
// device memory it exported, and reads its predecessor's through an import, ordered across the
// processes by an exported notify (data ready) and an IPC event (read done); every worker queues
// its write before any queues its read, so that each wait for a "read done" is for the round
// before. Every byte read is
// checked against what the writer wrote. With --kill, one process is killed mid-round with work
// queued: its neighbours' waits must fail with the documented codes instead of hanging, its keys
// must be refused afterwards, and nothing of any process may stay in /dev/shm.
//
//   ipc_soak [--processes N] [--rounds R] [--bytes B] [--kill]
//
// The program is its own worker: the coordinator starts N copies with --worker and drives them
// one command per line over pipes.
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cinttypes>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "acl/acl.h"

extern char** environ;

namespace {

struct Options {
    int processes = 4;
    int rounds = 20;
    size_t bytes = size_t{1} << 20;
    bool kill = false;
    int worker = -1;  // >= 0: this process is that worker
};

// The bytes worker w writes in round r.
void Pattern(int w, int r, unsigned char* out, size_t n) {
    uint64_t x = 0x9E3779B97F4A7C15ULL * static_cast<uint64_t>(w + 1) ^
                 static_cast<uint64_t>(r + 1) * 0xBF58476D1CE4E5B9ULL;
    for (size_t i = 0; i < n; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        out[i] = static_cast<unsigned char>(x);
    }
}

// ---------------------------------------------------------------------------------------------
// The worker.

void Reply(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
void Reply(const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    std::vprintf(fmt, args);
    va_end(args);
    std::putchar('\n');
    std::fflush(stdout);
}

std::atomic<bool> g_held{false};

int RunWorker(const Options& o) {
    const int w = o.worker;
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 2;
    aclrtStream stream = nullptr;
    void* mine = nullptr;     // exported: what this worker writes
    void* scratch = nullptr;  // what it reads into
    unsigned char* host = nullptr;
    aclrtNotify data_ready = nullptr;  // exported: set when `mine` holds the round's bytes
    aclrtEvent read_done = nullptr;    // IPC: recorded when this worker has read its predecessor
    aclError rc = aclrtCreateStream(&stream);
    if (rc == ACL_SUCCESS) rc = aclrtMalloc(&mine, o.bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    if (rc == ACL_SUCCESS) rc = aclrtMalloc(&scratch, o.bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    if (rc == ACL_SUCCESS) rc = aclrtMallocHost(reinterpret_cast<void**>(&host), o.bytes);
    if (rc == ACL_SUCCESS) rc = aclrtCreateNotify(&data_ready, ACL_NOTIFY_DEFAULT);
    if (rc == ACL_SUCCESS) rc = aclrtCreateEventExWithFlag(&read_done, ACL_EVENT_IPC);
    char mem_key[ACL_IPC_HANDLE_SIZE] = {};
    char notify_key[65] = {};
    aclrtIpcEventHandle event_handle{};
    if (rc == ACL_SUCCESS)
        rc = aclrtIpcMemGetExportKey(mine, o.bytes, mem_key, sizeof mem_key, 0);  // allow-list
    if (rc == ACL_SUCCESS) {
        rc = aclrtNotifyGetExportKey(data_ready, notify_key, sizeof notify_key,
                                     ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION);
    }
    if (rc == ACL_SUCCESS) rc = aclrtIpcGetEventHandle(read_done, &event_handle);
    int32_t pid = 0;
    aclrtDeviceGetBareTgid(&pid);
    Reply("%d %d %s %s %s", rc, pid, mem_key, notify_key, event_handle.reserved);
    if (rc != ACL_SUCCESS) return 3;

    std::string prev_mem;                 // the predecessor's key
    void* theirs = nullptr;               // the predecessor's `mine`, imported
    aclrtNotify their_ready = nullptr;    // the predecessor's data_ready
    aclrtEvent successor_done = nullptr;  // the successor's read_done
    std::vector<unsigned char> expected(o.bytes);
    char line[512];
    while (std::fgets(line, sizeof line, stdin) != nullptr) {
        std::istringstream in(line);
        std::string cmd;
        in >> cmd;
        if (cmd == "allow") {
            int32_t next = 0;
            in >> next;
            Reply("%d", aclrtIpcMemSetImportPid(mem_key, &next, 1));
        } else if (cmd == "link") {
            std::string prev_notify, next_event;
            in >> prev_mem >> prev_notify >> next_event;
            aclrtIpcEventHandle handle{};
            std::snprintf(handle.reserved, sizeof handle.reserved, "%s", next_event.c_str());
            aclError link = aclrtIpcMemImportByKey(&theirs, prev_mem.c_str(), 0);
            if (link == ACL_SUCCESS)
                link = aclrtNotifyImportByKey(&their_ready, prev_notify.c_str(), 0);
            if (link == ACL_SUCCESS) link = aclrtIpcOpenEventHandle(handle, &successor_done);
            Reply("%d", link);
        } else if (cmd == "write") {
            // Every worker writes before any reads, so a wait for the successor's "read done"
            // is for its previous round's record, never this round's.
            int r = 0;
            std::string mode;
            in >> r >> mode;
            if (mode == "hold") {  // the stream stops here: what follows stays queued
                g_held = true;
                aclrtLaunchHostFunc(
                    stream,
                    [](void*) {
                        while (g_held)
                            usleep(1000);
                    },
                    nullptr);
            }
            // The successor has read what this worker wrote last round; this round's bytes; then
            // "ready".
            aclError step = aclrtStreamWaitEvent(stream, successor_done);
            Pattern(w, r, host, o.bytes);
            if (step == ACL_SUCCESS) {
                step = aclrtMemcpyAsync(mine, o.bytes, host, o.bytes, ACL_MEMCPY_HOST_TO_DEVICE,
                                        stream);
            }
            if (step == ACL_SUCCESS) step = aclrtRecordNotify(data_ready, stream);
            Reply("%s %d", step == ACL_SUCCESS ? "written" : "enqueue", step);
        } else if (cmd == "read") {
            int r = 0;
            std::string mode;
            in >> r >> mode;
            // The predecessor's bytes of this round, then "read done".
            aclError step = aclrtWaitAndResetNotify(their_ready, stream, 1);
            if (step == ACL_SUCCESS) {
                step = aclrtMemcpyAsync(scratch, o.bytes, theirs, o.bytes,
                                        ACL_MEMCPY_DEVICE_TO_DEVICE, stream);
            }
            if (step == ACL_SUCCESS) step = aclrtRecordEvent(read_done, stream);
            if (step != ACL_SUCCESS) {
                Reply("enqueue %d", step);
                continue;
            }
            if (mode == "queued") {
                Reply("queued");
                continue;  // the coordinator kills this worker now
            }
            // Every byte checked (the stream's first failure, if any, is the answer).
            aclError done = aclrtSynchronizeStream(stream);
            if (done != ACL_SUCCESS) {
                Reply("failed %d", done);
                continue;
            }
            const int prev = (w + o.processes - 1) % o.processes;
            Pattern(prev, r, expected.data(), o.bytes);
            if (aclrtMemcpy(host, o.bytes, scratch, o.bytes, ACL_MEMCPY_DEVICE_TO_HOST) !=
                ACL_SUCCESS) {
                Reply("failed copy");
                continue;
            }
            size_t wrong = 0;
            for (size_t i = 0; i < o.bytes; ++i)
                wrong += host[i] != expected[i];
            if (wrong == 0) {
                Reply("ok");
            } else {
                Reply("wrong %zu", wrong);
            }
        } else if (cmd == "refused") {  // keys of a dead process must be refused
            std::string key, notify, event;
            in >> key >> notify >> event;
            void* p = nullptr;
            aclrtNotify n = nullptr;
            aclrtEvent e = nullptr;
            aclrtIpcEventHandle handle{};
            std::snprintf(handle.reserved, sizeof handle.reserved, "%s", event.c_str());
            Reply("%d %d %d", aclrtIpcMemImportByKey(&p, key.c_str(), 0),
                  aclrtNotifyImportByKey(&n, notify.c_str(), 0),
                  aclrtIpcOpenEventHandle(handle, &e));
        } else if (cmd == "quit") {
            break;
        } else {
            Reply("? %s", line);
        }
    }
    // What this worker holds is released in order (aclFinalize would do it too).
    aclrtSynchronizeStream(stream);
    if (theirs != nullptr) aclrtIpcMemClose(prev_mem.c_str());
    aclrtIpcMemClose(mem_key);
    aclrtDestroyEvent(successor_done);
    aclrtDestroyEvent(read_done);
    aclrtDestroyNotify(their_ready);
    aclrtDestroyNotify(data_ready);
    aclrtDestroyStream(stream);
    aclrtFreeHost(host);
    aclrtFree(scratch);
    aclrtFree(mine);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}

// ---------------------------------------------------------------------------------------------
// The coordinator.

class Worker {
 public:
    Worker(const char* self, const Options& o, int index) {
        int to_child[2], from_child[2];
        if (pipe2(to_child, O_CLOEXEC) != 0 || pipe2(from_child, O_CLOEXEC) != 0) return;
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, to_child[0], STDIN_FILENO);
        posix_spawn_file_actions_adddup2(&actions, from_child[1], STDOUT_FILENO);
        std::vector<std::string> args = {self,
                                         "--worker",
                                         std::to_string(index),
                                         "--processes",
                                         std::to_string(o.processes),
                                         "--bytes",
                                         std::to_string(o.bytes)};
        std::vector<char*> argv;
        for (std::string& a : args)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        if (posix_spawn(&pid_, self, &actions, nullptr, argv.data(), environ) != 0) pid_ = -1;
        posix_spawn_file_actions_destroy(&actions);
        close(to_child[0]);
        close(from_child[1]);
        in_ = to_child[1];
        out_ = from_child[0];
    }
    ~Worker() {
        if (pid_ > 0) {
            Send("quit");
            int status = 0;
            waitpid(pid_, &status, 0);
        }
        close(in_);
        close(out_);
    }
    void Send(const std::string& line) {
        const std::string text = line + "\n";
        if (write(in_, text.data(), text.size()) != static_cast<ssize_t>(text.size())) return;
    }
    // The next answer line ("" after 30 s of silence or when the worker is gone).
    std::string Read() {
        std::string line;
        char c = 0;
        for (;;) {
            pollfd fd{out_, POLLIN, 0};
            if (poll(&fd, 1, 30000) <= 0 || read(out_, &c, 1) != 1) return "";
            if (c == '\n') return line;
            line += c;
        }
    }
    std::string Ask(const std::string& line) {
        Send(line);
        return Read();
    }
    void Kill() {
        kill(pid_, SIGKILL);
        int status = 0;
        waitpid(pid_, &status, 0);
        pid_ = -1;
    }

 private:
    pid_t pid_ = -1;
    int in_ = -1, out_ = -1;
};

struct Exports {
    int pid = 0;
    std::string mem, notify, event;
};

int g_failures = 0;

#define EXPECT_ANSWER(answer, wanted, ...)                                         \
    do {                                                                           \
        const std::string got_ = (answer);                                         \
        if (got_ != (wanted)) {                                                    \
            std::fprintf(stderr, "ipc_soak: FAILED: " __VA_ARGS__);                \
            std::fprintf(stderr, ": answered '%s', expected '%s'\n", got_.c_str(), \
                         std::string(wanted).c_str());                             \
            ++g_failures;                                                          \
        }                                                                          \
    } while (0)

// openacl records in /dev/shm that name one of `pids`.
int LeftInDevShm(const std::vector<Exports>& exports) {
    int left = 0;
    DIR* dir = opendir("/dev/shm");
    if (dir == nullptr) return 0;
    while (dirent* entry = readdir(dir)) {
        const std::string name = entry->d_name;
        for (const Exports& e : exports) {
            if (name.rfind("openacl.", 0) == 0 &&
                name.find("." + std::to_string(e.pid) + ".") != std::string::npos) {
                std::fprintf(stderr, "ipc_soak: /dev/shm/%s is left behind\n", name.c_str());
                ++left;
            }
        }
    }
    closedir(dir);
    return left;
}

int RunCoordinator(const char* self, const Options& o) {
    const int n = o.processes;
    std::vector<Worker*> workers;
    std::vector<Exports> exports(n);
    for (int w = 0; w < n; ++w)
        workers.push_back(new Worker(self, o, w));
    for (int w = 0; w < n; ++w) {
        std::istringstream answer(workers[w]->Read());
        int rc = -1;
        answer >> rc >> exports[w].pid >> exports[w].mem >> exports[w].notify >> exports[w].event;
        if (rc != 0) {
            std::fprintf(stderr, "ipc_soak: worker %d could not start (%d)\n", w, rc);
            return 1;
        }
    }
    // Worker w reads its predecessor's memory: the successor is on w's allow-list.
    for (int w = 0; w < n; ++w) {
        EXPECT_ANSWER(workers[w]->Ask("allow " + std::to_string(exports[(w + 1) % n].pid)), "0",
                      "worker %d allowing its successor", w);
    }
    for (int w = 0; w < n; ++w) {
        const Exports& prev = exports[(w + n - 1) % n];
        const Exports& next = exports[(w + 1) % n];
        EXPECT_ANSWER(workers[w]->Ask("link " + prev.mem + " " + prev.notify + " " + next.event),
                      "0", "worker %d importing its neighbours' exports", w);
    }
    if (g_failures != 0) return 1;

    const int victim = o.kill ? n / 2 : -1;
    const int kill_round = o.rounds / 2;
    // After a kill, one more round: its neighbours' waits fail again (a notify wait only after
    // its timeout, so the run stops there).
    const int rounds = victim >= 0 ? kill_round + 2 : o.rounds;
    uint64_t checked = 0;
    for (int r = 0; r < rounds && g_failures == 0; ++r) {
        const std::string round = std::to_string(r);
        const bool dead = victim >= 0 && r > kill_round;
        if (r == kill_round && victim >= 0) {
            // The victim queues its whole round behind a held task, and is killed with it queued.
            EXPECT_ANSWER(workers[victim]->Ask("write " + round + " hold"), "written 0",
                          "worker %d queueing its write of round %d", victim, r);
        }
        for (int w = 0; w < n; ++w) {
            if (w == victim && r >= kill_round) continue;
            EXPECT_ANSWER(workers[w]->Ask("write " + round), "written 0", "worker %d, round %d", w,
                          r);
        }
        if (r == kill_round && victim >= 0) {
            EXPECT_ANSWER(workers[victim]->Ask("read " + round + " queued"), "queued",
                          "worker %d queueing its read of round %d", victim, r);
            workers[victim]->Kill();
        }
        for (int w = 0; w < n; ++w) {
            if (w == victim && r >= kill_round) continue;
            workers[w]->Send("read " + round);
        }
        for (int w = 0; w < n; ++w) {
            if (w == victim && r >= kill_round) continue;
            std::string wanted = "ok";
            if (victim >= 0 && r >= kill_round && w == (victim + 1) % n) {
                // The victim's "ready" was queued behind the held task: the wait times out.
                wanted = "failed " + std::to_string(ACL_ERROR_RT_TASK_TIMEOUT);
            } else if (dead && w == (victim + n - 1) % n) {
                // Its wait for the victim's "read done" of the kill round cannot end: that
                // record was queued and its process is gone.
                wanted = "failed " + std::to_string(ACL_ERROR_RT_DRV_INTERNAL_ERROR);
            }
            const std::string answer = workers[w]->Read();
            EXPECT_ANSWER(answer, wanted, "worker %d, round %d", w, r);
            if (answer == "ok") checked += o.bytes;
        }
    }
    if (victim >= 0) {
        // The victim's exports are refused now to a process that had not imported them, which
        // removes their records.
        const Exports& dead = exports[victim];
        const std::string code = std::to_string(ACL_ERROR_RT_DRV_INTERNAL_ERROR);
        EXPECT_ANSWER(workers[(victim + 2) % n]->Ask("refused " + dead.mem + " " + dead.notify +
                                                     " " + dead.event),
                      code + " " + code + " " + code, "importing the killed worker's exports");
    }
    for (Worker* worker : workers)
        delete worker;  // quit, then wait for each
    const int left = LeftInDevShm(exports);
    if (left != 0) ++g_failures;
    if (g_failures != 0) return 1;
    std::printf("ipc_soak: %d processes, %d rounds, %" PRIu64
                " bytes checked%s: nothing lost or "
                "wrong, nothing left in /dev/shm\n",
                n, rounds, checked, victim >= 0 ? ", one process killed mid-round" : "");
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const char* value = i + 1 < argc ? argv[i + 1] : "0";
        if (arg == "--processes") {
            o.processes = std::atoi(value);
            ++i;
        } else if (arg == "--rounds") {
            o.rounds = std::atoi(value);
            ++i;
        } else if (arg == "--bytes") {
            o.bytes = std::strtoull(value, nullptr, 10);
            ++i;
        } else if (arg == "--worker") {
            o.worker = std::atoi(value);
            ++i;
        } else if (arg == "--kill") {
            o.kill = true;
        } else {
            std::fprintf(stderr,
                         "usage: ipc_soak [--processes N] [--rounds R] [--bytes B] [--kill]\n");
            return 2;
        }
    }
    if (o.processes < 3 || o.rounds < 2 || o.bytes == 0) {
        std::fprintf(stderr, "ipc_soak: needs at least 3 processes, 2 rounds and 1 byte\n");
        return 2;
    }
    if (o.worker >= 0) return RunWorker(o);
    return RunCoordinator(argv[0], o);
}
