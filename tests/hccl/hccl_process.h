// Ranks in processes of their own: hccl_rank_main started with posix_spawn (safe in a process
// with threads), its stdin and stdout on pipes, waited for with a deadline and killed if it
// overstays, so a test never hangs on a child.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

extern char** environ;

namespace hccl_test {

inline const char* RankMain() {
    return OPENACL_HCCL_RANK_MAIN;
}

class Child {
 public:
    Child() = default;
    Child(const Child&) = delete;
    Child& operator=(const Child&) = delete;
    ~Child() {
        Kill();
        CloseIn();
        if (out_ >= 0) ::close(out_);
    }

    // Starts args[0] with args; false (with errno's text in error()) when it cannot.
    bool Start(const std::vector<std::string>& args) {
        int in[2];
        int out[2];
        if (::pipe2(in, O_CLOEXEC) != 0) return false;
        if (::pipe2(out, O_CLOEXEC) != 0) {
            ::close(in[0]);
            ::close(in[1]);
            return false;
        }
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
        posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
        std::vector<char*> argv;
        for (const std::string& a : args)
            argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        const int rc = posix_spawnp(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
        posix_spawn_file_actions_destroy(&actions);
        ::close(in[0]);
        ::close(out[1]);
        in_ = in[1];
        out_ = out[0];
        if (rc != 0) {
            pid_ = -1;
            error_ = std::strerror(rc);
            return false;
        }
        return true;
    }

    // Writes to the child's stdin.
    bool Write(const void* data, size_t n) {
        const auto* p = static_cast<const char*>(data);
        while (n > 0) {
            const ssize_t put = ::write(in_, p, n);
            if (put <= 0) return false;
            p += put;
            n -= static_cast<size_t>(put);
        }
        return true;
    }
    void CloseIn() {
        if (in_ >= 0) ::close(in_);
        in_ = -1;
    }

    // Reads exactly n bytes of the child's stdout within timeout_ms.
    bool Read(void* data, size_t n, int timeout_ms) {
        auto* p = static_cast<char*>(data);
        const auto deadline =
            std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
        while (n > 0) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                                  deadline - std::chrono::steady_clock::now())
                                  .count();
            if (left <= 0) return false;
            pollfd fd{out_, POLLIN, 0};
            if (::poll(&fd, 1, static_cast<int>(left)) <= 0) continue;
            const ssize_t got = ::read(out_, p, n);
            if (got <= 0) return false;
            p += got;
            n -= static_cast<size_t>(got);
        }
        return true;
    }
    // A line of the child's stdout (without the newline), or "" when none came in time.
    std::string ReadLine(int timeout_ms) {
        std::string line;
        char c = 0;
        while (Read(&c, 1, timeout_ms)) {
            if (c == '\n') return line;
            line += c;
        }
        return {};
    }

    // The child's exit status (128 + signal when killed by one), or -1 when it did not end
    // within timeout_ms (it is killed then).
    int Wait(int timeout_ms) {
        if (pid_ < 0) return -1;
        const auto deadline =
            std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
        for (;;) {
            int status = 0;
            const pid_t done = ::waitpid(pid_, &status, WNOHANG);
            if (done == pid_) {
                pid_ = -1;
                return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            }
            if (done < 0 || std::chrono::steady_clock::now() > deadline) {
                Kill();
                return -1;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    }

    void Kill() {
        if (pid_ < 0) return;
        ::kill(pid_, SIGKILL);
        int status = 0;
        ::waitpid(pid_, &status, 0);
        pid_ = -1;
    }

    const std::string& error() const { return error_; }

 private:
    pid_t pid_ = -1;
    int in_ = -1;
    int out_ = -1;
    std::string error_;
};

// Runs a command to its end (at most timeout_ms); its exit status, or -1.
inline int Run(const std::vector<std::string>& args, int timeout_ms = 10000) {
    Child child;
    if (!child.Start(args)) return -1;
    child.CloseIn();
    return child.Wait(timeout_ms);
}

}  // namespace hccl_test
