// hccl_test's collectives: layouts, calls, inputs and expected results (operations.h).
//
// Inputs are small integers, so every value, and every result a correct collective computes
// from them, is exact in every data type and can be compared bit for bit:
//  - data that is only moved carries a mark of the rank that sent it (and, for the all-to-all
//    family, of the rank it is meant for) and of its position: (131 r + 17 d + 7 i) mod m + 1,
//    with m = 97 for 1-byte types and bfloat16, 997 for other 2-byte types, 9973 otherwise;
//  - sums add (131 r + 7 i) mod k + 1, with k chosen so that the sum over all ranks stays
//    exact (at most the type's exact-integer limit / ranks; below 1 nothing is checkable);
//  - products multiply 1s and 2s, a 2 on every q-th rank, with q chosen so that no product
//    exceeds the type's largest exact power of two;
//  - max and min take the mark, centred on 0 for signed and floating-point types.
// Everywhere a collective must not write (gaps between the V forms' blocks) the receive
// buffer holds a filler byte, which must still be there afterwards.
#include "operations.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>

namespace hccl_test {
namespace {

constexpr uint8_t kFiller = 0xA5;

bool Signed(HcclDataType type) {
    switch (type) {
        case HCCL_DATA_TYPE_INT8:
        case HCCL_DATA_TYPE_INT16:
        case HCCL_DATA_TYPE_INT32:
        case HCCL_DATA_TYPE_INT64:
        case HCCL_DATA_TYPE_FP16:
        case HCCL_DATA_TYPE_BFP16:
        case HCCL_DATA_TYPE_FP32:
        case HCCL_DATA_TYPE_FP64:
            return true;
        default:
            return false;
    }
}

// The modulus of the marks: small enough that every mark is exact in the type.
uint64_t Modulus(HcclDataType type) {
    if (ElementSize(type) == 1 || type == HCCL_DATA_TYPE_BFP16) return 97;
    if (ElementSize(type) == 2) return 997;
    return 9973;
}

// The largest integer up to which every integer is exact in the type (for 64-bit integers:
// in the double the host computes with).
double ExactLimit(HcclDataType type) {
    switch (type) {
        case HCCL_DATA_TYPE_INT8:
            return 127;
        case HCCL_DATA_TYPE_UINT8:
            return 255;
        case HCCL_DATA_TYPE_INT16:
            return 32767;
        case HCCL_DATA_TYPE_UINT16:
            return 65535;
        case HCCL_DATA_TYPE_INT32:
            return 2147483647.0;
        case HCCL_DATA_TYPE_UINT32:
            return 4294967295.0;
        case HCCL_DATA_TYPE_FP16:
            return 2048;
        case HCCL_DATA_TYPE_BFP16:
            return 256;
        case HCCL_DATA_TYPE_FP32:
            return 16777216.0;
        default:  // 64-bit types
            return 9007199254740992.0;
    }
}

// The largest k for which 2^k is exact in the type (capped where the host's double is exact).
uint32_t PowerLimit(HcclDataType type) {
    switch (type) {
        case HCCL_DATA_TYPE_INT8:
            return 6;
        case HCCL_DATA_TYPE_UINT8:
            return 7;
        case HCCL_DATA_TYPE_INT16:
            return 14;
        case HCCL_DATA_TYPE_UINT16:
        case HCCL_DATA_TYPE_FP16:
            return 15;
        case HCCL_DATA_TYPE_INT32:
            return 30;
        case HCCL_DATA_TYPE_UINT32:
            return 31;
        default:
            return 62;
    }
}

// Element value `v` (an exact integer or power of two) in the type's encoding.
void Encode(HcclDataType type, double v, uint8_t* out) {
    auto put = [out](auto x) { std::memcpy(out, &x, sizeof x); };
    switch (type) {
        case HCCL_DATA_TYPE_INT8:
            return put(static_cast<int8_t>(v));
        case HCCL_DATA_TYPE_INT16:
            return put(static_cast<int16_t>(v));
        case HCCL_DATA_TYPE_UINT16:
            return put(static_cast<uint16_t>(v));
        case HCCL_DATA_TYPE_INT32:
            return put(static_cast<int32_t>(v));
        case HCCL_DATA_TYPE_UINT32:
            return put(static_cast<uint32_t>(v));
        case HCCL_DATA_TYPE_INT64:
            return put(static_cast<int64_t>(v));
        case HCCL_DATA_TYPE_UINT64:
            return put(static_cast<uint64_t>(v));
        case HCCL_DATA_TYPE_FP16:
            return put(aclFloatToFloat16(static_cast<float>(v)));
        case HCCL_DATA_TYPE_BFP16: {
            // The values used here fit bfloat16's 8 significant bits: truncation is exact.
            uint32_t bits;
            const float f = static_cast<float>(v);
            std::memcpy(&bits, &f, sizeof bits);
            return put(static_cast<uint16_t>(bits >> 16));
        }
        case HCCL_DATA_TYPE_FP32:
            return put(static_cast<float>(v));
        case HCCL_DATA_TYPE_FP64:
            return put(v);
        default:  // uint8 and the 8-bit float formats, whose bytes are only moved
            return put(static_cast<uint8_t>(v));
    }
}

// For messages: the value of an element.
double Decode(HcclDataType type, const uint8_t* in) {
    auto get = [in](auto x) {
        std::memcpy(&x, in, sizeof x);
        return static_cast<double>(x);
    };
    switch (type) {
        case HCCL_DATA_TYPE_INT8:
            return get(int8_t{});
        case HCCL_DATA_TYPE_INT16:
            return get(int16_t{});
        case HCCL_DATA_TYPE_UINT16:
            return get(uint16_t{});
        case HCCL_DATA_TYPE_INT32:
            return get(int32_t{});
        case HCCL_DATA_TYPE_UINT32:
            return get(uint32_t{});
        case HCCL_DATA_TYPE_INT64:
            return get(int64_t{});
        case HCCL_DATA_TYPE_UINT64:
            return get(uint64_t{});
        case HCCL_DATA_TYPE_FP16: {
            aclFloat16 h;
            std::memcpy(&h, in, sizeof h);
            return aclFloat16ToFloat(h);
        }
        case HCCL_DATA_TYPE_BFP16: {
            uint16_t raw;
            std::memcpy(&raw, in, sizeof raw);
            const uint32_t bits = static_cast<uint32_t>(raw) << 16;
            float f;
            std::memcpy(&f, &bits, sizeof f);
            return f;
        }
        case HCCL_DATA_TYPE_FP32:
            return get(float{});
        case HCCL_DATA_TYPE_FP64:
            return get(double{});
        default:
            return get(uint8_t{});
    }
}

// A function of the element's position g that repeats every `period` elements, encoded once.
struct Periodic {
    uint64_t period = 1;
    std::vector<uint8_t> bytes;  // period elements
};

Periodic Tabulate(HcclDataType type, uint64_t period, const std::function<double(uint64_t)>& f) {
    const size_t es = ElementSize(type);
    Periodic table;
    table.period = period;
    table.bytes.resize(period * es);
    for (uint64_t g = 0; g < period; ++g)
        Encode(type, f(g), table.bytes.data() + g * es);
    return table;
}

// Elements [first, first + count) of `buf` take the table's values at positions g0, g0 + 1, ...
void FillRegion(std::vector<uint8_t>* buf, size_t es, uint64_t first, uint64_t count, uint64_t g0,
                const Periodic& table) {
    if (count == 0) return;
    uint8_t* dst = buf->data() + first * es;
    const uint64_t head = std::min(count, table.period);
    for (uint64_t j = 0; j < head; ++j)
        std::memcpy(dst + j * es, table.bytes.data() + ((g0 + j) % table.period) * es, es);
    // The region repeats every `period` elements: double what is written until it is full.
    uint64_t done = head;
    while (done < count) {
        const uint64_t n = std::min(done, count - done);
        std::memcpy(dst + done * es, dst, n * es);
        done += n;
    }
}

// Data that is only moved: the mark of sender `s` (for the all-to-all family: for rank d).
Periodic Marks(HcclDataType type, uint64_t s, uint64_t d = 0) {
    const uint64_t m = Modulus(type);
    return Tabulate(type, m, [=](uint64_t g) {
        return static_cast<double>((s * 131 + d * 17 + g * 7) % m + 1);
    });
}

// Reductions: what rank r contributes at position g, and how many positions the pattern has.
struct Contribution {
    HcclReduceOp op = HCCL_REDUCE_SUM;
    uint64_t period = 1;
    double offset = 0;

    explicit Contribution(const Setup& s) : op(s.op) {
        switch (s.op) {
            case HCCL_REDUCE_SUM: {
                const double room = std::floor(ExactLimit(s.type) / s.ranks);
                period = static_cast<uint64_t>(std::min<double>(Modulus(s.type), room));
                break;
            }
            case HCCL_REDUCE_PROD: {
                const uint32_t limit = PowerLimit(s.type);
                period = (s.ranks + limit - 1) / limit + 1;
                break;
            }
            default:
                period = Modulus(s.type);
                offset = Signed(s.type) ? static_cast<double>((period + 1) / 2) : 0;
                break;
        }
    }

    double Of(uint64_t r, uint64_t g) const {
        if (op == HCCL_REDUCE_PROD) return (r + g) % period == 0 ? 2 : 1;
        return static_cast<double>((r * 131 + g * 7) % period + 1) - offset;
    }
};

Periodic ContributionOf(const Setup& s, uint32_t rank) {
    const Contribution c(s);
    return Tabulate(s.type, c.period, [&](uint64_t g) { return c.Of(rank, g); });
}

Periodic Reduced(const Setup& s) {
    const Contribution c(s);
    return Tabulate(s.type, c.period, [&](uint64_t g) {
        double acc = c.Of(0, g);
        for (uint32_t r = 1; r < s.ranks; ++r) {
            const double v = c.Of(r, g);
            switch (s.op) {
                case HCCL_REDUCE_SUM:
                    acc += v;
                    break;
                case HCCL_REDUCE_PROD:
                    acc *= v;
                    break;
                case HCCL_REDUCE_MAX:
                    acc = std::max(acc, v);
                    break;
                default:
                    acc = std::min(acc, v);
                    break;
            }
        }
        return acc;
    });
}

uint64_t CeilDiv(uint64_t a, uint64_t b) {
    return (a + b - 1) / b;
}

// The V forms' blocks: every other one is a quarter shorter than the full `per`, so counts
// differ between ranks and gaps appear between blocks.
uint64_t Shortened(uint64_t per, uint64_t k) {
    return per - (k % 2) * (per / 4);
}

}  // namespace

const char* ProgramName(Collective c) {
    switch (c) {
        case Collective::kAllReduce:
            return "all_reduce_test";
        case Collective::kAllGather:
            return "all_gather_test";
        case Collective::kAllGatherV:
            return "all_gatherv_test";
        case Collective::kAlltoAll:
            return "alltoall_test";
        case Collective::kAlltoAllV:
            return "alltoallv_test";
        case Collective::kAlltoAllVC:
            return "alltoallvc_test";
        case Collective::kBroadcast:
            return "broadcast_test";
        case Collective::kReduceScatter:
            return "reduce_scatter_test";
        case Collective::kReduceScatterV:
            return "reduce_scatterv_test";
        case Collective::kReduce:
            return "reduce_test";
        case Collective::kScatter:
            return "scatter_test";
    }
    return "hccl_test";
}

const char* FunctionName(Collective c) {
    switch (c) {
        case Collective::kAllReduce:
            return "HcclAllReduce";
        case Collective::kAllGather:
            return "HcclAllGather";
        case Collective::kAllGatherV:
            return "HcclAllGatherV";
        case Collective::kAlltoAll:
            return "HcclAlltoAll";
        case Collective::kAlltoAllV:
            return "HcclAlltoAllV";
        case Collective::kAlltoAllVC:
            return "HcclAlltoAllVC";
        case Collective::kBroadcast:
            return "HcclBroadcast";
        case Collective::kReduceScatter:
            return "HcclReduceScatter";
        case Collective::kReduceScatterV:
            return "HcclReduceScatterV";
        case Collective::kReduce:
            return "HcclReduce";
        case Collective::kScatter:
            return "HcclScatter";
    }
    return "?";
}

bool Reduces(Collective c) {
    return c == Collective::kAllReduce || c == Collective::kReduce ||
           c == Collective::kReduceScatter || c == Collective::kReduceScatterV;
}

bool Rooted(Collective c) {
    return c == Collective::kBroadcast || c == Collective::kReduce || c == Collective::kScatter;
}

bool SplitsData(Collective c) {
    return c != Collective::kAllReduce && c != Collective::kReduce && c != Collective::kBroadcast;
}

double BusFactor(Collective c, uint32_t ranks) {
    const double n = ranks;
    switch (c) {
        case Collective::kAllReduce:
            return 2 * (n - 1) / n;
        case Collective::kBroadcast:
        case Collective::kReduce:
            return 1;
        default:  // gathers, scatters, reduce-scatters, all-to-alls
            return (n - 1) / n;
    }
}

size_t ElementSize(HcclDataType type) {
    switch (type) {
        case HCCL_DATA_TYPE_INT8:
        case HCCL_DATA_TYPE_UINT8:
        case HCCL_DATA_TYPE_HIF8:
        case HCCL_DATA_TYPE_FP8E4M3:
        case HCCL_DATA_TYPE_FP8E5M2:
        case HCCL_DATA_TYPE_FP8E8M0:
            return 1;
        case HCCL_DATA_TYPE_INT16:
        case HCCL_DATA_TYPE_UINT16:
        case HCCL_DATA_TYPE_FP16:
        case HCCL_DATA_TYPE_BFP16:
            return 2;
        case HCCL_DATA_TYPE_INT32:
        case HCCL_DATA_TYPE_UINT32:
        case HCCL_DATA_TYPE_FP32:
            return 4;
        case HCCL_DATA_TYPE_INT64:
        case HCCL_DATA_TYPE_UINT64:
        case HCCL_DATA_TYPE_FP64:
            return 8;
        default:
            return 0;
    }
}

Layout Plan(const Setup& s, uint32_t rank, uint64_t data_size) {
    const size_t es = ElementSize(s.type);
    const uint32_t n = s.ranks;
    const uint64_t whole = CeilDiv(data_size, es);  // CANN rounds the count up
    const uint64_t per = CeilDiv(whole, n);
    Layout l;
    switch (s.collective) {
        case Collective::kAllReduce:
        case Collective::kReduce:
            l.count = l.send_elems = l.recv_elems = whole;
            l.moved_bytes = whole * es;
            break;
        case Collective::kBroadcast:
            l.count = l.recv_elems = whole;
            l.moved_bytes = whole * es;
            break;
        case Collective::kAllGather:
            l.count = l.send_elems = per;
            l.recv_elems = per * n;
            l.moved_bytes = per * n * es;
            break;
        case Collective::kAllGatherV:
            l.count = Shortened(per, rank);
            l.send_elems = per;
            l.recv_elems = per * n;
            for (uint32_t r = 0; r < n; ++r) {
                l.recv_counts.push_back(Shortened(per, r));
                l.recv_displs.push_back(r * per);
                l.moved_bytes += l.recv_counts.back() * es;
            }
            break;
        case Collective::kReduceScatter:
        case Collective::kScatter:
            l.count = l.recv_elems = per;
            l.send_elems = per * n;
            l.moved_bytes = per * n * es;
            break;
        case Collective::kReduceScatterV:
            l.count = Shortened(per, rank);
            l.recv_elems = per;
            l.send_elems = per * n;
            for (uint32_t r = 0; r < n; ++r) {
                l.send_counts.push_back(Shortened(per, r));
                l.send_displs.push_back(r * per);
                l.moved_bytes += l.send_counts.back() * es;
            }
            break;
        case Collective::kAlltoAll:
            l.count = per;
            l.send_elems = l.recv_elems = per * n;
            l.moved_bytes = per * n * es;
            break;
        case Collective::kAlltoAllV:
            l.send_elems = l.recv_elems = per * n;
            for (uint32_t peer = 0; peer < n; ++peer) {
                l.send_counts.push_back(Shortened(per, rank + peer));
                l.send_displs.push_back(peer * per);
                l.recv_counts.push_back(Shortened(per, peer + rank));
                l.recv_displs.push_back(peer * per);
                l.moved_bytes += l.send_counts.back() * es;
            }
            break;
        case Collective::kAlltoAllVC:
            l.send_elems = l.recv_elems = per * n;
            for (uint32_t from = 0; from < n; ++from) {
                for (uint32_t to = 0; to < n; ++to)
                    l.matrix.push_back(Shortened(per, from + to));
            }
            for (uint32_t to = 0; to < n; ++to)
                l.moved_bytes += l.matrix[rank * n + to] * es;
            break;
    }
    return l;
}

HcclResult Issue(const Setup& s, const Layout& l, void* send, void* recv, HcclComm comm,
                 aclrtStream stream) {
    switch (s.collective) {
        case Collective::kAllReduce:
            return HcclAllReduce(send, recv, l.count, s.type, s.op, comm, stream);
        case Collective::kReduce:
            return HcclReduce(send, recv, l.count, s.type, s.op, s.root, comm, stream);
        case Collective::kBroadcast:
            return HcclBroadcast(recv, l.count, s.type, s.root, comm, stream);
        case Collective::kAllGather:
            return HcclAllGather(send, recv, l.count, s.type, comm, stream);
        case Collective::kAllGatherV:
            return HcclAllGatherV(send, l.count, recv, l.recv_counts.data(), l.recv_displs.data(),
                                  s.type, comm, stream);
        case Collective::kReduceScatter:
            return HcclReduceScatter(send, recv, l.count, s.type, s.op, comm, stream);
        case Collective::kReduceScatterV:
            return HcclReduceScatterV(send, l.send_counts.data(), l.send_displs.data(), recv,
                                      l.count, s.type, s.op, comm, stream);
        case Collective::kScatter:
            return HcclScatter(send, recv, l.count, s.type, s.root, comm, stream);
        case Collective::kAlltoAll:
            return HcclAlltoAll(send, l.count, s.type, recv, l.count, s.type, comm, stream);
        case Collective::kAlltoAllV:
            return HcclAlltoAllV(send, l.send_counts.data(), l.send_displs.data(), s.type, recv,
                                 l.recv_counts.data(), l.recv_displs.data(), s.type, comm, stream);
        case Collective::kAlltoAllVC:
            return HcclAlltoAllVC(send, l.matrix.data(), s.type, recv, s.type, comm, stream);
    }
    return HCCL_E_NOT_SUPPORT;
}

bool Checkable(const Setup& s) {
    if (!Reduces(s.collective) || s.op != HCCL_REDUCE_SUM) return true;
    return std::floor(ExactLimit(s.type) / s.ranks) >= 1;
}

void FillSend(const Setup& s, const Layout& l, uint32_t rank, std::vector<uint8_t>* send) {
    const size_t es = ElementSize(s.type);
    send->assign(l.send_elems * es, kFiller);
    switch (s.collective) {
        case Collective::kAllReduce:
        case Collective::kReduce:
        case Collective::kReduceScatter:
        case Collective::kReduceScatterV:
            FillRegion(send, es, 0, l.send_elems, 0, ContributionOf(s, rank));
            break;
        case Collective::kBroadcast:
            break;
        case Collective::kAllGather:
        case Collective::kAllGatherV:
        case Collective::kScatter:
            FillRegion(send, es, 0, l.send_elems, 0, Marks(s.type, rank));
            break;
        case Collective::kAlltoAll:
        case Collective::kAlltoAllV: {
            const uint64_t per = l.send_elems / s.ranks;
            for (uint32_t to = 0; to < s.ranks; ++to)
                FillRegion(send, es, to * per, per, 0, Marks(s.type, rank, to));
            break;
        }
        case Collective::kAlltoAllVC: {
            uint64_t at = 0;
            for (uint32_t to = 0; to < s.ranks; ++to) {
                const uint64_t count = l.matrix[rank * s.ranks + to];
                FillRegion(send, es, at, count, 0, Marks(s.type, rank, to));
                at += count;
            }
            break;
        }
    }
}

void FillRecv(const Setup& s, const Layout& l, uint32_t rank, std::vector<uint8_t>* recv) {
    const size_t es = ElementSize(s.type);
    recv->assign(l.recv_elems * es, kFiller);
    // Broadcast's one buffer holds each rank's own data until the root's replaces it.
    if (s.collective == Collective::kBroadcast)
        FillRegion(recv, es, 0, l.recv_elems, 0, Marks(s.type, rank));
}

bool Expect(const Setup& s, const Layout& l, uint32_t rank, std::vector<uint8_t>* recv) {
    const size_t es = ElementSize(s.type);
    const uint32_t n = s.ranks;
    recv->assign(l.recv_elems * es, kFiller);
    switch (s.collective) {
        case Collective::kReduce:
            if (rank != s.root) return false;
            [[fallthrough]];
        case Collective::kAllReduce:
            FillRegion(recv, es, 0, l.count, 0, Reduced(s));
            break;
        case Collective::kReduceScatter:
        case Collective::kReduceScatterV:
            // Block `rank` of every send buffer starts at element rank * recv_elems.
            FillRegion(recv, es, 0, l.count, rank * l.recv_elems, Reduced(s));
            break;
        case Collective::kBroadcast:
            FillRegion(recv, es, 0, l.count, 0, Marks(s.type, s.root));
            break;
        case Collective::kScatter:
            FillRegion(recv, es, 0, l.count, rank * l.count, Marks(s.type, s.root));
            break;
        case Collective::kAllGather:
            for (uint32_t from = 0; from < n; ++from)
                FillRegion(recv, es, from * l.count, l.count, 0, Marks(s.type, from));
            break;
        case Collective::kAllGatherV:
            for (uint32_t from = 0; from < n; ++from) {
                FillRegion(recv, es, l.recv_displs[from], l.recv_counts[from], 0,
                           Marks(s.type, from));
            }
            break;
        case Collective::kAlltoAll:
            for (uint32_t from = 0; from < n; ++from)
                FillRegion(recv, es, from * l.count, l.count, 0, Marks(s.type, from, rank));
            break;
        case Collective::kAlltoAllV:
            for (uint32_t from = 0; from < n; ++from) {
                FillRegion(recv, es, l.recv_displs[from], l.recv_counts[from], 0,
                           Marks(s.type, from, rank));
            }
            break;
        case Collective::kAlltoAllVC: {
            uint64_t at = 0;
            for (uint32_t from = 0; from < n; ++from) {
                const uint64_t count = l.matrix[from * n + rank];
                FillRegion(recv, es, at, count, 0, Marks(s.type, from, rank));
                at += count;
            }
            break;
        }
    }
    return true;
}

std::string FirstDifference(const Setup& s, const std::vector<uint8_t>& got,
                            const std::vector<uint8_t>& want) {
    const size_t es = ElementSize(s.type);
    if (got.size() != want.size()) return "the buffers differ in size";
    if (std::memcmp(got.data(), want.data(), got.size()) == 0) return {};
    size_t bad = 0;
    while (std::memcmp(got.data() + bad * es, want.data() + bad * es, es) == 0)
        ++bad;
    size_t count = 0;
    for (size_t i = bad; i < got.size() / es; ++i)
        count += std::memcmp(got.data() + i * es, want.data() + i * es, es) != 0;
    auto filler = [es](const uint8_t* p) {
        return std::all_of(p, p + es, [](uint8_t b) { return b == kFiller; });
    };
    const uint8_t* g = got.data() + bad * es;
    const uint8_t* w = want.data() + bad * es;
    char text[256];
    if (filler(w)) {
        std::snprintf(text, sizeof text,
                      "element %zu of the receive buffer is %.10g, but the collective should not "
                      "have written it (%zu elements differ)",
                      bad, Decode(s.type, g), count);
    } else if (filler(g)) {
        std::snprintf(text, sizeof text,
                      "element %zu of the receive buffer was not written (expected %.10g; %zu "
                      "elements differ)",
                      bad, Decode(s.type, w), count);
    } else {
        std::snprintf(
            text, sizeof text,
            "element %zu of the receive buffer is %.10g, expected %.10g (%zu elements differ)", bad,
            Decode(s.type, g), Decode(s.type, w), count);
    }
    return text;
}

}  // namespace hccl_test
