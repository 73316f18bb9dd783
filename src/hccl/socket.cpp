// Sockets for HCCL's bootstrap (hccl/socket.h).
#include "hccl/socket.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "hccl/environment.h"

namespace openacl::hccl::net {

int64_t NowMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

void Fd::reset(int fd) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
}

uint16_t Address::port() const {
    if (family() == AF_INET) return ntohs(reinterpret_cast<const sockaddr_in&>(storage).sin_port);
    if (family() == AF_INET6)
        return ntohs(reinterpret_cast<const sockaddr_in6&>(storage).sin6_port);
    return 0;
}

void Address::set_port(uint16_t port) {
    if (family() == AF_INET) reinterpret_cast<sockaddr_in&>(storage).sin_port = htons(port);
    if (family() == AF_INET6) reinterpret_cast<sockaddr_in6&>(storage).sin6_port = htons(port);
}

std::string Address::ip() const {
    char text[INET6_ADDRSTRLEN] = {};
    if (family() == AF_INET) {
        inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in&>(storage).sin_addr, text,
                  sizeof text);
    } else if (family() == AF_INET6) {
        inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6&>(storage).sin6_addr, text,
                  sizeof text);
    } else {
        return "?";
    }
    return text;
}

std::string Address::text() const {
    const std::string port_text = std::to_string(port());
    return family() == AF_INET6 ? "[" + ip() + "]:" + port_text : ip() + ":" + port_text;
}

bool Address::loopback() const {
    if (family() == AF_INET) {
        const uint32_t a = ntohl(reinterpret_cast<const sockaddr_in&>(storage).sin_addr.s_addr);
        return (a >> 24) == 127;
    }
    if (family() == AF_INET6) {
        return IN6_IS_ADDR_LOOPBACK(&reinterpret_cast<const sockaddr_in6&>(storage).sin6_addr);
    }
    return false;
}

bool ParseIp(const std::string& text, uint16_t port, Address* out) {
    *out = Address{};
    auto& v4 = reinterpret_cast<sockaddr_in&>(out->storage);
    if (inet_pton(AF_INET, text.c_str(), &v4.sin_addr) == 1) {
        v4.sin_family = AF_INET;
        v4.sin_port = htons(port);
        out->length = sizeof(sockaddr_in);
        return true;
    }
    *out = Address{};
    auto& v6 = reinterpret_cast<sockaddr_in6&>(out->storage);
    if (inet_pton(AF_INET6, text.c_str(), &v6.sin6_addr) == 1) {
        v6.sin6_family = AF_INET6;
        v6.sin6_port = htons(port);
        out->length = sizeof(sockaddr_in6);
        return true;
    }
    *out = Address{};
    return false;
}

namespace {

struct Nic {
    std::string name;
    Address address;
    bool loopback;
};

// The addresses of `family` on NICs that are up (IPv6 link-local ones need a scope and are
// left out), sorted by NIC name.
std::vector<Nic> Nics(int family) {
    std::vector<Nic> nics;
    ifaddrs* list = nullptr;
    if (getifaddrs(&list) != 0) return nics;
    for (ifaddrs* it = list; it != nullptr; it = it->ifa_next) {
        if (it->ifa_addr == nullptr || it->ifa_addr->sa_family != family) continue;
        if ((it->ifa_flags & IFF_UP) == 0) continue;
        Nic nic;
        nic.name = it->ifa_name;
        nic.loopback = (it->ifa_flags & IFF_LOOPBACK) != 0;
        const socklen_t size = family == AF_INET ? sizeof(sockaddr_in) : sizeof(sockaddr_in6);
        std::memcpy(&nic.address.storage, it->ifa_addr, size);
        nic.address.length = size;
        if (family == AF_INET6 &&
            IN6_IS_ADDR_LINKLOCAL(
                &reinterpret_cast<const sockaddr_in6&>(nic.address.storage).sin6_addr)) {
            continue;
        }
        nic.address.set_port(0);
        nics.push_back(nic);
    }
    freeifaddrs(list);
    std::stable_sort(nics.begin(), nics.end(),
                     [](const Nic& a, const Nic& b) { return a.name < b.name; });
    return nics;
}

// HCCL_SOCKET_IFNAME's rules: a comma-separated list of name prefixes ("eth,enp"), or with a
// leading ^ prefixes to leave out ("^docker"); = makes the names exact ("=eth0", "^=eth0").
bool IfnameSelects(const std::string& rules, const std::string& name) {
    std::string list = rules;
    bool exclude = false;
    if (!list.empty() && list[0] == '^') {
        exclude = true;
        list.erase(0, 1);
    }
    bool exact = false;
    if (!list.empty() && list[0] == '=') {
        exact = true;
        list.erase(0, 1);
    }
    bool match = false;
    size_t start = 0;
    while (start <= list.size() && !match) {
        size_t comma = list.find(',', start);
        if (comma == std::string::npos) comma = list.size();
        const std::string item = list.substr(start, comma - start);
        if (!item.empty()) match = exact ? name == item : name.compare(0, item.size(), item) == 0;
        start = comma + 1;
    }
    return exclude ? !match : match;
}

std::string NicNames(const std::vector<Nic>& nics) {
    std::string names;
    for (const Nic& nic : nics)
        names += (names.empty() ? "" : ", ") + nic.name + " " + nic.address.ip();
    return names.empty() ? "none" : names;
}

HcclResult Errno(HcclResult code, const std::string& what, int err, std::string* why) {
    *why = what + ": " + std::strerror(err);
    return code;
}

// Waits for `events` on fd until the deadline: 1 ready, 0 timed out, -1 failed.
int WaitFor(int fd, short events, int64_t deadline_ms) {
    for (;;) {
        const int64_t left = deadline_ms - NowMs();
        if (left <= 0) return 0;
        pollfd p{fd, events, 0};
        const int rc = poll(&p, 1, static_cast<int>(std::min<int64_t>(left, 1 << 30)));
        if (rc > 0) return 1;
        if (rc == 0) return 0;
        if (errno != EINTR) return -1;
    }
}

}  // namespace

HcclResult ChooseHostAddress(Address* out, std::string* how, std::string* why) {
    int family = AF_INET;
    if (HcclResult rc = SocketFamily(&family, why); rc != HCCL_SUCCESS) return rc;
    const std::string if_ip = IfIp();
    if (!if_ip.empty()) {
        if (!ParseIp(if_ip, 0, out)) {
            *why = "HCCL_IF_IP=" + if_ip + " is not an IPv4 or IPv6 address";
            return HCCL_E_PARA;
        }
        *how = "HCCL_IF_IP";
        return HCCL_SUCCESS;
    }
    const std::vector<Nic> nics = Nics(family);
    const char* family_name = family == AF_INET ? "IPv4" : "IPv6";
    const std::string rules = SocketIfname();
    if (!rules.empty()) {
        for (const Nic& nic : nics) {
            if (IfnameSelects(rules, nic.name)) {
                *out = nic.address;
                *how = "HCCL_SOCKET_IFNAME (" + nic.name + ")";
                return HCCL_SUCCESS;
            }
        }
        *why = "HCCL_SOCKET_IFNAME=" + rules + " selects no NIC that is up with an " + family_name +
               " address (NICs: " + NicNames(nics) + ")";
        return HCCL_E_PARA;
    }
    // Other NICs first, then docker*, then lo.
    for (int tier = 0; tier < 3; ++tier) {
        for (const Nic& nic : nics) {
            const bool docker = nic.name.compare(0, 6, "docker") == 0;
            const int its_tier = nic.loopback ? 2 : docker ? 1 : 0;
            if (its_tier != tier) continue;
            *out = nic.address;
            *how = "NIC " + nic.name;
            return HCCL_SUCCESS;
        }
    }
    *why = std::string("this machine has no NIC that is up with an ") + family_name +
           " address: set HCCL_IF_IP";
    return HCCL_E_NOT_FOUND;
}

HcclResult Listen(const Address& ip, const std::vector<std::pair<uint16_t, uint16_t>>& ports,
                  Fd* fd, Address* bound, std::string* why) {
    std::string tried;
    for (const auto& [lo, hi] : ports) {
        for (uint32_t port = lo; port <= hi; ++port) {
            Fd s(::socket(ip.family(), SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
            if (!s.valid()) return Errno(HCCL_E_NETWORK, "socket", errno, why);
            const int on = 1;
            setsockopt(s.get(), SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
            Address at = ip;
            at.set_port(static_cast<uint16_t>(port));
            if (::bind(s.get(), reinterpret_cast<const sockaddr*>(&at.storage), at.length) != 0) {
                const int err = errno;
                if (err == EADDRINUSE) continue;
                if (err == EADDRNOTAVAIL) {
                    *why = ip.ip() + " is not an address of this machine (check HCCL_IF_IP)";
                    return HCCL_E_PARA;
                }
                return Errno(HCCL_E_NETWORK, "binding " + at.text(), err, why);
            }
            if (::listen(s.get(), 128) != 0) {
                if (errno == EADDRINUSE) continue;
                return Errno(HCCL_E_NETWORK, "listening on " + at.text(), errno, why);
            }
            socklen_t length = sizeof bound->storage;
            if (getsockname(s.get(), reinterpret_cast<sockaddr*>(&bound->storage), &length) != 0)
                return Errno(HCCL_E_NETWORK, "getsockname", errno, why);
            bound->length = length;
            *fd = std::move(s);
            return HCCL_SUCCESS;
        }
        tried += (tried.empty() ? "" : ", ") +
                 (lo == hi ? std::to_string(lo) : std::to_string(lo) + "-" + std::to_string(hi));
    }
    *why = "every port of " + tried + " on " + ip.ip() +
           " is in use (HCCL_HOST_SOCKET_PORT_RANGE, HCCL_IF_BASE_PORT; \"auto\" lets the "
           "system pick one)";
    return HCCL_E_UNAVAIL;
}

HcclResult Connect(const Address& to, int64_t deadline_ms, bool retry_refused, Fd* fd,
                   bool* refused, std::string* why) {
    *refused = false;
    int64_t pause_ms = 20;
    int last_error = 0;
    for (;;) {
        Fd s(::socket(to.family(), SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
        if (!s.valid()) return Errno(HCCL_E_NETWORK, "socket", errno, why);
        int err = 0;
        if (::connect(s.get(), reinterpret_cast<const sockaddr*>(&to.storage), to.length) != 0) {
            err = errno;
            if (err == EINPROGRESS || err == EINTR) {
                const int ready = WaitFor(s.get(), POLLOUT, deadline_ms);
                if (ready == 1) {
                    socklen_t size = sizeof err;
                    if (getsockopt(s.get(), SOL_SOCKET, SO_ERROR, &err, &size) != 0) err = errno;
                } else {
                    err = ready == 0 ? ETIMEDOUT : errno;
                }
            }
        }
        if (err == 0) {
            const int on = 1;
            setsockopt(s.get(), IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
            *fd = std::move(s);
            return HCCL_SUCCESS;
        }
        last_error = err;
        if (err == ECONNREFUSED && !retry_refused) {
            *refused = true;
            *why = "nothing listens at " + to.text() + " (connection refused)";
            return HCCL_E_TCP_CONNECT;
        }
        if (NowMs() + pause_ms >= deadline_ms) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(pause_ms));
        pause_ms = std::min<int64_t>(pause_ms * 2, 500);
    }
    *why = "could not connect to " + to.text() + " in time (" + std::strerror(last_error) + ")";
    return last_error == ECONNREFUSED || last_error == ETIMEDOUT ? HCCL_E_TIMEOUT
                                                                 : HCCL_E_TCP_CONNECT;
}

bool LocalAddress(int fd, Address* out) {
    socklen_t length = sizeof out->storage;
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&out->storage), &length) != 0) return false;
    out->length = length;
    return true;
}

namespace {

HcclResult SendAll(int fd, const char* data, size_t n, int64_t deadline_ms, std::string* why) {
    while (n > 0) {
        const ssize_t sent = ::send(fd, data, n, MSG_NOSIGNAL);
        if (sent > 0) {
            data += sent;
            n -= static_cast<size_t>(sent);
            continue;
        }
        if (sent < 0 && errno == EINTR) continue;
        if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            const int ready = WaitFor(fd, POLLOUT, deadline_ms);
            if (ready == 1) continue;
            if (ready == 0) {
                *why = "the peer did not take the data in time";
                return HCCL_E_TIMEOUT;
            }
        }
        return Errno(HCCL_E_TCP_TRANSFER, "sending", errno, why);
    }
    return HCCL_SUCCESS;
}

HcclResult RecvAll(int fd, char* data, size_t n, int64_t deadline_ms, std::string* why) {
    while (n > 0) {
        const ssize_t got = ::recv(fd, data, n, 0);
        if (got > 0) {
            data += got;
            n -= static_cast<size_t>(got);
            continue;
        }
        if (got == 0) {
            *why = "the peer closed the connection";
            return HCCL_E_TCP_TRANSFER;
        }
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            const int ready = WaitFor(fd, POLLIN, deadline_ms);
            if (ready == 1) continue;
            if (ready == 0) {
                *why = "no answer in time";
                return HCCL_E_TIMEOUT;
            }
        }
        return Errno(HCCL_E_TCP_TRANSFER, "receiving", errno, why);
    }
    return HCCL_SUCCESS;
}

}  // namespace

HcclResult SendFrame(int fd, const std::string& payload, int64_t deadline_ms, std::string* why) {
    const std::string frame = Writer().U32(static_cast<uint32_t>(payload.size())).take() + payload;
    return SendAll(fd, frame.data(), frame.size(), deadline_ms, why);
}

HcclResult RecvFrame(int fd, std::string* payload, int64_t deadline_ms, std::string* why) {
    std::string size_bytes(4, '\0');
    if (HcclResult rc = RecvAll(fd, size_bytes.data(), 4, deadline_ms, why); rc != HCCL_SUCCESS)
        return rc;
    Reader size_reader(size_bytes);
    const uint32_t size = size_reader.U32();
    if (size > kMaxFrame) {
        *why = "the peer sent a frame of " + std::to_string(size) +
               " bytes: it does not speak openacl's HCCL bootstrap";
        return HCCL_E_TCP_TRANSFER;
    }
    payload->assign(size, '\0');
    return RecvAll(fd, payload->data(), size, deadline_ms, why);
}

Writer& Writer::Raw(const void* data, size_t n) {
    out_.append(static_cast<const char*>(data), n);
    return *this;
}

Writer& Writer::U32(uint32_t v) {
    unsigned char b[4];
    for (int i = 0; i < 4; ++i)
        b[i] = static_cast<unsigned char>(v >> (8 * i));
    return Raw(b, 4);
}

Writer& Writer::U64(uint64_t v) {
    unsigned char b[8];
    for (int i = 0; i < 8; ++i)
        b[i] = static_cast<unsigned char>(v >> (8 * i));
    return Raw(b, 8);
}

Writer& Writer::Str(const std::string& s) {
    U32(static_cast<uint32_t>(s.size()));
    return Raw(s.data(), s.size());
}

Writer& Writer::Bytes(const void* data, size_t n) {
    U32(static_cast<uint32_t>(n));
    return Raw(data, n);
}

bool Reader::Take(void* out, size_t n) {
    if (!ok_ || in_.size() - pos_ < n) {
        ok_ = false;
        std::memset(out, 0, n);
        return false;
    }
    std::memcpy(out, in_.data() + pos_, n);
    pos_ += n;
    return true;
}

uint8_t Reader::U8() {
    uint8_t v = 0;
    Take(&v, 1);
    return v;
}

uint32_t Reader::U32() {
    unsigned char b[4];
    Take(b, 4);
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i)
        v |= static_cast<uint32_t>(b[i]) << (8 * i);
    return v;
}

uint64_t Reader::U64() {
    unsigned char b[8];
    Take(b, 8);
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
        v |= static_cast<uint64_t>(b[i]) << (8 * i);
    return v;
}

std::string Reader::Str() {
    const uint32_t n = U32();
    if (!ok_ || in_.size() - pos_ < n) {
        ok_ = false;
        return {};
    }
    std::string s = in_.substr(pos_, n);
    pos_ += n;
    return s;
}

}  // namespace openacl::hccl::net
