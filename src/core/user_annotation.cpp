#include "core/user_annotation.h"

#include <mutex>
#include <unordered_map>

#include "backend/cpu/sync.h"
#include "core/stream.h"
#include "core/trace.h"

namespace openacl::user_annotation {
namespace {

struct Open {
    Text text;
    int64_t start;
    uint32_t thread;
    Stream* stream;  // marked at the start (null: none); checked to be alive at the end
};

std::mutex g_mutex;  // ranges, next id
std::unordered_map<uint32_t, Open>& Ranges() {
    static auto* open = new std::unordered_map<uint32_t, Open>;  // never destroyed, as streams
    return *open;
}
uint32_t g_next_range = 1;

// The stream task's label; mstx domains travel in `source` (trace.h, Kind::kMark).
trace::Label StreamLabel(trace::Kind kind, uint32_t id, const Text& text) {
    return {kind, id, 0, text.domain, text.message};
}

}  // namespace

void Mark(const Text& text, Stream* stream) {
    if (!trace::UserNotesOn()) return;
    const int64_t now = cpu::Ticks();
    trace::NoteUser({text.message, text.args_json, now, now, 0, 0, true, text.domain});
    if (stream != nullptr) stream->SubmitMark(StreamLabel(trace::Kind::kMark, 0, text));
}

uint32_t StartRange(const Text& text, Stream* stream) {
    const bool noted = trace::UserNotesOn();
    Open open{text, cpu::Ticks(), trace::ThreadId(), noted ? stream : nullptr};
    uint32_t id = 0;
    {
        std::lock_guard lock(g_mutex);
        do {  // 0 is never an id, nor is one still open after the counter wraps
            id = g_next_range++;
        } while (id == 0 || Ranges().count(id) != 0);
        Ranges().emplace(id, open);
    }
    if (open.stream != nullptr) {
        open.stream->SubmitMark(StreamLabel(trace::Kind::kRangeStart, id, text));
    }
    return id;
}

EndResult EndRange(uint32_t id, const char* domain, const char** opened_in) {
    Open open{};
    {
        std::lock_guard lock(g_mutex);
        auto it = Ranges().find(id);
        if (it == Ranges().end()) return EndResult::kNotOpen;
        if (it->second.text.domain != domain) {  // interned: one pointer per name
            if (opened_in != nullptr) *opened_in = it->second.text.domain;
            return EndResult::kOtherDomain;
        }
        open = it->second;
        Ranges().erase(it);
    }
    if (trace::UserNotesOn()) {
        trace::NoteUser({open.text.message, open.text.args_json, open.start, cpu::Ticks(),
                         open.thread, id, false, open.text.domain});
    }
    // The stream may have been destroyed meanwhile: its range then has no end on its track.
    if (open.stream != nullptr && StreamAlive(open.stream)) {
        open.stream->SubmitMark(StreamLabel(trace::Kind::kRangeEnd, id, open.text));
    }
    return EndResult::kClosed;
}

void DropRanges(const char* domain) {
    std::lock_guard lock(g_mutex);
    std::erase_if(Ranges(),
                  [domain](const auto& entry) { return entry.second.text.domain == domain; });
}

}  // namespace openacl::user_annotation
