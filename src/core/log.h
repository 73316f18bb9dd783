// CANN-style logging: "[LEVEL] MODULE(pid,process):date [file:line]tid message".
// ASCEND_GLOBAL_LOG_LEVEL (0 debug .. 3 error, 4 off; default 3) filters; lines go to stdout
// when ASCEND_SLOG_PRINT_TO_STDOUT=1, otherwise to a plog file as CANN does.
#pragma once

#include <cstdarg>

namespace openacl {

enum class LogLevel { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3, kOff = 4 };

// True when a message of this level would be written (cheap: one relaxed load).
bool LogEnabled(LogLevel level);

// Writes one log line. `module` is "ASCENDCL" for the runtime, "APP" for aclAppLog.
void LogV(LogLevel level, const char* module, const char* file, int line, const char* fmt,
          va_list args);
void Log(LogLevel level, const char* module, const char* file, int line, const char* fmt, ...)
    __attribute__((format(printf, 5, 6)));

// Re-reads the environment (after aclFinalize, or when a test changes it).
void ReloadLogSettings();

// Where file logging goes (empty when printing to stdout); for tests and diagnostics.
const char* LogFilePath();

}  // namespace openacl

#define OPENACL_LOG(level, ...)                                                 \
    do {                                                                        \
        if (::openacl::LogEnabled(level))                                       \
            ::openacl::Log(level, "ASCENDCL", __FILE__, __LINE__, __VA_ARGS__); \
    } while (0)
#define OPENACL_LOG_DEBUG(...) OPENACL_LOG(::openacl::LogLevel::kDebug, __VA_ARGS__)
#define OPENACL_LOG_INFO(...) OPENACL_LOG(::openacl::LogLevel::kInfo, __VA_ARGS__)
#define OPENACL_LOG_WARNING(...) OPENACL_LOG(::openacl::LogLevel::kWarning, __VA_ARGS__)
#define OPENACL_LOG_ERROR(...) OPENACL_LOG(::openacl::LogLevel::kError, __VA_ARGS__)
