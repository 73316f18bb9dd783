#include "core/log.h"

#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mutex>
#include <string>

namespace openacl {
namespace {

// A line written recently, remembered to hold back a flood of the same line: a loop that
// fails the same way thousands of times a second (a report thread polling before any channel
// subscribed it) must not bury the log. Like syslog's "last message repeated N times": the
// first kRepeatBurst copies of a line within a window are written, later ones only counted,
// and the count is written when the window ends (or the entry is evicted). A window that had
// to hold lines back is followed by one twice as long (up to kRepeatMaxWindowNs), so a flood
// that lasts costs a few lines per doubling, not a line per repetition.
constexpr uint32_t kRepeatBurst = 10;
constexpr int64_t kRepeatWindowNs = 1'000'000'000;
constexpr int64_t kRepeatMaxWindowNs = 64 * kRepeatWindowNs;
constexpr size_t kRecentLines = 16;

struct RecentLine {
    uint64_t key = 0;  // hash of level, module, file, line and message; 0: free
    int64_t window_start_ns = 0;
    int64_t window_ns = kRepeatWindowNs;
    uint32_t written = 0;      // in this window
    uint64_t held_back = 0;    // in this window
    int64_t last_seen_ns = 0;  // for eviction
    LogLevel level = LogLevel::kError;
    const char* module = "";  // a literal ("ASCENDCL", "APP")
    int line = 0;
    char file[48] = {};     // base name, for the summary
    char preview[96] = {};  // the message's start, for the summary
};

struct LogState {
    std::mutex mutex;
    std::atomic<int> level{static_cast<int>(LogLevel::kError)};
    bool to_stdout = false;
    std::string file_path;  // chosen at settings time, opened lazily at the first line
    FILE* file = nullptr;
    RecentLine recent[kRecentLines];  // mutex
};

void LoadLocked(LogState& s);

LogState& State() {
    // Never destroyed, so logging works during exit; reads the environment on first use.
    static LogState* state = [] {
        auto* s = new LogState;
        LoadLocked(*s);
        return s;
    }();
    return *state;
}

const char* LevelName(LogLevel level) {
    switch (level) {
        case LogLevel::kDebug:
            return "DEBUG";
        case LogLevel::kInfo:
            return "INFO";
        case LogLevel::kWarning:
            return "WARNING";
        default:
            return "ERROR";
    }
}

void MakeDirs(const std::string& path) {
    for (size_t pos = 1; pos != std::string::npos; pos = path.find('/', pos + 1)) {
        mkdir(path.substr(0, pos).c_str(), 0750);
    }
    mkdir(path.c_str(), 0750);
}

void LoadLocked(LogState& s) {
    for (RecentLine& r : s.recent)
        r = RecentLine{};
    const char* level = std::getenv("ASCEND_GLOBAL_LOG_LEVEL");
    int value = static_cast<int>(LogLevel::kError);
    if (level != nullptr && level[0] >= '0' && level[0] <= '4' && level[1] == '\0') {
        value = level[0] - '0';
    }
    s.level.store(value, std::memory_order_relaxed);
    const char* print = std::getenv("ASCEND_SLOG_PRINT_TO_STDOUT");
    s.to_stdout = print != nullptr && std::strcmp(print, "1") == 0;
    if (s.file != nullptr) {
        std::fclose(s.file);
        s.file = nullptr;
    }
    s.file_path.clear();
    if (!s.to_stdout) {
        std::string dir;
        if (const char* base = std::getenv("ASCEND_PROCESS_LOG_PATH"); base && *base) {
            dir = base;
        } else {
            const char* home = std::getenv("HOME");
            dir = std::string(home && *home ? home : "/tmp") + "/ascend/log";
        }
        char name[96];
        std::time_t now = std::time(nullptr);
        std::tm tm{};
        localtime_r(&now, &tm);
        std::snprintf(name, sizeof name, "/plog-%d_%04d%02d%02d%02d%02d%02d.log",
                      static_cast<int>(getpid()), tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                      tm.tm_hour, tm.tm_min, tm.tm_sec);
        s.file_path = dir + "/debug/plog" + name;
    }
}

const char* ProcessName() {
    static std::string name = [] {
        char buf[256] = {};
        ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
        std::string path = n > 0 ? std::string(buf, static_cast<size_t>(n)) : "unknown";
        return path.substr(path.find_last_of('/') + 1);
    }();
    return name.c_str();
}

const char* BaseName(const char* file) {
    const char* slash = std::strrchr(file, '/');
    return slash ? slash + 1 : file;
}

uint64_t Fnv1a(uint64_t hash, const char* text) {
    for (; *text != '\0'; ++text) {
        hash ^= static_cast<unsigned char>(*text);
        hash *= 1099511628211ull;
    }
    return hash;
}

uint64_t LineKey(LogLevel level, const char* module, const char* base, int line,
                 const char* message) {
    uint64_t hash = 14695981039346656037ull ^ (static_cast<uint64_t>(level) << 32) ^
                    static_cast<uint32_t>(line);
    hash = Fnv1a(Fnv1a(Fnv1a(hash, module), base), message);
    return hash != 0 ? hash : 1;
}

int64_t SteadyNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

void CopyTruncated(char* dst, size_t size, const char* src) {
    const size_t n = strnlen(src, size - 1);
    std::memcpy(dst, src, n);
    dst[n] = '\0';
}

// Where lines go now (mutex held): the plog file, opened at the first line, or stdout/stderr.
FILE* OutputLocked(LogState& s) {
    if (s.to_stdout) return stdout;
    if (s.file == nullptr && !s.file_path.empty()) {
        MakeDirs(s.file_path.substr(0, s.file_path.find_last_of('/')));
        s.file = std::fopen(s.file_path.c_str(), "a");
        if (s.file == nullptr) s.file_path.clear();  // fall back to stderr, once
    }
    return s.file != nullptr ? s.file : stderr;
}

void WriteLine(FILE* out, LogLevel level, const char* module, const char* base, int line,
               const char* message) {
    auto now = std::chrono::system_clock::now();
    auto us = std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch());
    std::time_t secs = static_cast<std::time_t>(us.count() / 1000000);
    long frac = static_cast<long>(us.count() % 1000000);
    std::tm tm{};
    localtime_r(&secs, &tm);
    char stamp[64];
    std::snprintf(stamp, sizeof stamp, "%04d-%02d-%02d-%02d:%02d:%02d.%03ld.%03ld",
                  tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                  frac / 1000, frac % 1000);
    std::fprintf(out, "[%s] %s(%d,%s):%s [%s:%d]%ld %s\n", LevelName(level), module,
                 static_cast<int>(getpid()), ProcessName(), stamp, base, line,
                 static_cast<long>(syscall(SYS_gettid)), message);
    std::fflush(out);
}

// "last message repeated K times" for a line whose copies were held back.
void WriteSummaryLocked(FILE* out, RecentLine& r, int64_t now_ns) {
    if (r.held_back == 0) return;
    char summary[256];
    const double seconds = static_cast<double>(now_ns - r.window_start_ns) / 1e9;
    std::snprintf(summary, sizeof summary,
                  "last message repeated %llu more times in %.1f s (not written): \"%s\"",
                  static_cast<unsigned long long>(r.held_back), seconds, r.preview);
    WriteLine(out, r.level, r.module, r.file, r.line, summary);
    r.held_back = 0;
}

// Ends the windows that are over and writes the counts of what they held back, so that the
// count of a flood that stopped still appears, with the next line logged.
void WriteDueSummariesLocked(LogState& s, FILE* out, int64_t now_ns) {
    for (RecentLine& r : s.recent) {
        if (r.key == 0 || r.held_back == 0 || now_ns - r.window_start_ns < r.window_ns) continue;
        WriteSummaryLocked(out, r, now_ns);
        // The line flooded its window: the next window is longer and writes one copy only,
        // so a lasting flood costs two lines per (doubling) window, while a line that comes
        // back alone after a flood still shows.
        r.window_ns = std::min(r.window_ns * 2, kRepeatMaxWindowNs);
        r.window_start_ns = now_ns;
        r.written = kRepeatBurst - 1;
    }
}

// Whether a line is written now (mutex held); counts it when it is held back.
bool AdmitLocked(LogState& s, FILE* out, uint64_t key, int64_t now_ns, LogLevel level,
                 const char* module, const char* base, int line, const char* message) {
    RecentLine* slot = nullptr;
    RecentLine* oldest = &s.recent[0];
    for (RecentLine& r : s.recent) {
        if (r.key == key) {
            slot = &r;
            break;
        }
        if (r.key == 0 || r.last_seen_ns < oldest->last_seen_ns) oldest = &r;
    }
    if (slot == nullptr) {  // a new line: take a free or the least recent entry
        slot = oldest;
        if (slot->key != 0) WriteSummaryLocked(out, *slot, now_ns);
        *slot = RecentLine{};
        slot->key = key;
        slot->window_start_ns = now_ns;
        slot->level = level;
        slot->module = module;
        slot->line = line;
        CopyTruncated(slot->file, sizeof slot->file, base);
        CopyTruncated(slot->preview, sizeof slot->preview, message);
    } else if (now_ns - slot->window_start_ns >= slot->window_ns) {
        // A quiet window (nothing held back) was over: the line is rare again.
        slot->window_ns = kRepeatWindowNs;
        slot->window_start_ns = now_ns;
        slot->written = 0;
    }
    slot->last_seen_ns = now_ns;
    if (slot->written < kRepeatBurst) {
        ++slot->written;
        return true;
    }
    ++slot->held_back;
    return false;
}

}  // namespace

bool LogEnabled(LogLevel level) {
    return static_cast<int>(level) >= State().level.load(std::memory_order_relaxed) &&
           level != LogLevel::kOff;
}

void ReloadLogSettings() {
    LogState& s = State();
    std::lock_guard lock(s.mutex);
    // The counts of lines held back go where those lines went, before the settings change.
    const int64_t now_ns = SteadyNs();
    bool held_back = false;
    for (const RecentLine& r : s.recent)
        held_back |= r.held_back != 0;
    if (held_back) {
        FILE* out = OutputLocked(s);
        for (RecentLine& r : s.recent)
            WriteSummaryLocked(out, r, now_ns);
    }
    LoadLocked(s);
}

const char* LogFilePath() {
    return State().file_path.c_str();
}

void LogV(LogLevel level, const char* module, const char* file, int line, const char* fmt,
          va_list args) {
    if (!LogEnabled(level)) return;
    char message[1200];
    std::vsnprintf(message, sizeof message, fmt, args);
    const char* base = BaseName(file);
    const uint64_t key = LineKey(level, module, base, line, message);
    const int64_t now_ns = SteadyNs();

    LogState& s = State();
    std::lock_guard lock(s.mutex);
    FILE* out = OutputLocked(s);
    WriteDueSummariesLocked(s, out, now_ns);
    if (!AdmitLocked(s, out, key, now_ns, level, module, base, line, message)) return;
    WriteLine(out, level, module, base, line, message);
}

void Log(LogLevel level, const char* module, const char* file, int line, const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    LogV(level, module, file, line, fmt, args);
    va_end(args);
}

}  // namespace openacl
