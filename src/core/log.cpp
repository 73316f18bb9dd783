#include "core/log.h"

#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

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

struct LogState {
    std::mutex mutex;
    std::atomic<int> level{static_cast<int>(LogLevel::kError)};
    bool to_stdout = false;
    std::string file_path;  // chosen at settings time, opened lazily at the first line
    FILE* file = nullptr;
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

}  // namespace

bool LogEnabled(LogLevel level) {
    return static_cast<int>(level) >= State().level.load(std::memory_order_relaxed) &&
           level != LogLevel::kOff;
}

void ReloadLogSettings() {
    LogState& s = State();
    std::lock_guard lock(s.mutex);
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
    char text[1500];
    std::snprintf(text, sizeof text, "[%s] %s(%d,%s):%s [%s:%d]%ld %s\n", LevelName(level), module,
                  static_cast<int>(getpid()), ProcessName(), stamp, BaseName(file), line,
                  static_cast<long>(syscall(SYS_gettid)), message);

    LogState& s = State();
    std::lock_guard lock(s.mutex);
    FILE* out = stdout;
    if (!s.to_stdout) {
        if (s.file == nullptr && !s.file_path.empty()) {
            MakeDirs(s.file_path.substr(0, s.file_path.find_last_of('/')));
            s.file = std::fopen(s.file_path.c_str(), "a");
            if (s.file == nullptr) s.file_path.clear();  // fall back to stderr, once
        }
        out = s.file != nullptr ? s.file : stderr;
    }
    std::fputs(text, out);
    std::fflush(out);
}

void Log(LogLevel level, const char* module, const char* file, int line, const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    LogV(level, module, file, line, fmt, args);
    va_end(args);
}

}  // namespace openacl
