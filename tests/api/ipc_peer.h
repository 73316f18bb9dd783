// The other process of an inter-process test: tests/support/ipc_peer.cpp, started with
// posix_spawn (never a fork of this process running the runtime) and driven one command per line
// over pipes. See ipc_peer.cpp for the commands.
#pragma once

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>

extern char** environ;

class IpcPeer {
 public:
    IpcPeer() {
        int to_child[2], from_child[2];
        if (pipe2(to_child, O_CLOEXEC) != 0 || pipe2(from_child, O_CLOEXEC) != 0) return;
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, to_child[0], STDIN_FILENO);
        posix_spawn_file_actions_adddup2(&actions, from_child[1], STDOUT_FILENO);
        char program[] = OPENACL_IPC_PEER;
        char* argv[] = {program, nullptr};
        if (posix_spawn(&pid_, program, &actions, nullptr, argv, environ) != 0) pid_ = -1;
        posix_spawn_file_actions_destroy(&actions);
        close(to_child[0]);
        close(from_child[1]);
        in_ = to_child[1];
        out_ = from_child[0];
        if (pid_ > 0) peer_pid_ = std::atoi(Ask("pid").c_str());
    }
    ~IpcPeer() {
        if (pid_ > 0) {
            Send("quit");
            Wait();
        }
        if (in_ >= 0) close(in_);
        if (out_ >= 0) close(out_);
    }
    IpcPeer(const IpcPeer&) = delete;
    IpcPeer& operator=(const IpcPeer&) = delete;

    bool running() const { return peer_pid_ > 0; }
    int pid() const { return peer_pid_; }

    // Sends one command and returns its answer line ("" when the peer is gone or silent 10 s).
    std::string Ask(const std::string& command) {
        Send(command);
        std::string line;
        char c = 0;
        while (true) {
            pollfd fd{out_, POLLIN, 0};
            if (poll(&fd, 1, 10000) <= 0 || read(out_, &c, 1) != 1) return "";
            if (c == '\n') return line;
            line += c;
        }
    }
    // The first number of an answer: the aclError of the peer's call.
    int AskCode(const std::string& command) {
        const std::string answer = Ask(command);
        return answer.empty() ? -1 : std::atoi(answer.c_str());
    }
    // The second word of an answer ("0 openacl.mem..." -> the key), "" when the call failed.
    std::string AskSecond(const std::string& command, int* code) {
        std::istringstream answer(Ask(command));
        std::string second;
        *code = -1;
        answer >> *code >> second;
        return *code == 0 ? second : "";
    }

    // Ends the peer at once, as a crash would.
    void Kill() {
        if (pid_ <= 0) return;
        kill(pid_, SIGKILL);
        Wait();
    }

 private:
    void Send(const std::string& command) {
        const std::string line = command + "\n";
        if (write(in_, line.data(), line.size()) != static_cast<ssize_t>(line.size())) return;
    }
    void Wait() {
        int status = 0;
        for (int i = 0; i < 1000; ++i) {  // 10 s, then it is killed
            if (waitpid(pid_, &status, WNOHANG) == pid_) {
                pid_ = -1;
                return;
            }
            usleep(10000);
        }
        kill(pid_, SIGKILL);
        waitpid(pid_, &status, 0);
        pid_ = -1;
    }

    pid_t pid_ = -1;
    int peer_pid_ = -1;
    int in_ = -1;
    int out_ = -1;
};

// Whether /dev/shm holds a file whose name contains `text`.
inline bool DevShmHas(const std::string& text) {
    DIR* dir = opendir("/dev/shm");
    if (dir == nullptr) return false;
    bool found = false;
    while (dirent* entry = readdir(dir)) {
        if (std::strstr(entry->d_name, text.c_str()) != nullptr) found = true;
    }
    closedir(dir);
    return found;
}
