// The few socket operations HCCL's bootstrap needs: choosing the host address as CANN does
// (HCCL_IF_IP, HCCL_SOCKET_IFNAME, then the machine's NICs), listening on the first free port
// of a range, connecting and exchanging length-prefixed frames, each bounded by a deadline.
// Every descriptor is close-on-exec and owned by an Fd, so no path leaks one.
#pragma once

#include <sys/socket.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "hccl/hccl_types.h"

namespace openacl::hccl::net {

// Milliseconds on the steady clock.
int64_t NowMs();

// An owned file descriptor.
class Fd {
 public:
    Fd() = default;
    explicit Fd(int fd) : fd_(fd) {}
    Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
    Fd& operator=(Fd&& other) noexcept {
        if (this != &other) reset(std::exchange(other.fd_, -1));
        return *this;
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    ~Fd() { reset(); }

    int get() const { return fd_; }
    bool valid() const { return fd_ >= 0; }
    void reset(int fd = -1);

 private:
    int fd_ = -1;
};

// An IPv4 or IPv6 socket address.
struct Address {
    sockaddr_storage storage{};
    socklen_t length = 0;

    int family() const { return storage.ss_family; }
    uint16_t port() const;
    void set_port(uint16_t port);
    // The address alone ("127.0.0.1", "fd00::2").
    std::string ip() const;
    // With the port ("127.0.0.1:60000", "[fd00::2]:60000").
    std::string text() const;
    bool loopback() const;
};

// Parses a numeric IPv4 or IPv6 address (no name lookup). False when `text` is not one.
bool ParseIp(const std::string& text, uint16_t port, Address* out);

// The host address HcclGetRootInfo and the ranks use, in CANN's order: HCCL_IF_IP, else the
// first NIC HCCL_SOCKET_IFNAME selects, else the NICs other than docker* and lo in name order,
// then docker*, then lo; of the family HCCL_SOCKET_FAMILY names (AF_INET by default). `how`
// says where it came from, for messages.
HcclResult ChooseHostAddress(Address* out, std::string* how, std::string* why);

// Binds and listens on `ip`, trying each port of `ports` in order ({0, 0}: one the system
// picks) and skipping ports in use. SO_REUSEADDR, close-on-exec.
HcclResult Listen(const Address& ip, const std::vector<std::pair<uint16_t, uint16_t>>& ports,
                  Fd* fd, Address* bound, std::string* why);

// Connects to `to` before `deadline_ms`. A refused connection is retried (the peer may not
// listen yet) when retry_refused, and reported at once otherwise (*refused is set).
HcclResult Connect(const Address& to, int64_t deadline_ms, bool retry_refused, Fd* fd,
                   bool* refused, std::string* why);

// The local address of a connected socket.
bool LocalAddress(int fd, Address* out);

// Frames: a 32-bit little-endian length and that many bytes (at most kMaxFrame).
inline constexpr uint32_t kMaxFrame = 64u << 20;
HcclResult SendFrame(int fd, const std::string& payload, int64_t deadline_ms, std::string* why);
HcclResult RecvFrame(int fd, std::string* payload, int64_t deadline_ms, std::string* why);

// Building and reading frames' contents; a Reader never reads past its end (ok() turns false).
class Writer {
 public:
    Writer& U8(uint8_t v) { return Raw(&v, 1); }
    Writer& U32(uint32_t v);
    Writer& U64(uint64_t v);
    Writer& Str(const std::string& s);
    Writer& Bytes(const void* data, size_t n);
    std::string take() { return std::move(out_); }

 private:
    Writer& Raw(const void* data, size_t n);
    std::string out_;
};

class Reader {
 public:
    explicit Reader(const std::string& in) : in_(in) {}
    uint8_t U8();
    uint32_t U32();
    uint64_t U64();
    std::string Str();
    bool ok() const { return ok_; }
    bool done() const { return ok_ && pos_ == in_.size(); }

 private:
    bool Take(void* out, size_t n);
    const std::string& in_;
    size_t pos_ = 0;
    bool ok_ = true;
};

}  // namespace openacl::hccl::net
