// The application's own marks and ranges on the timeline: msproftx (api/prof_tx.cpp) and mstx
// (api/mstx.cpp) both come here. They are recorded while a trace session takes user
// annotations (trace::UserNotesOn); the callers decide what happens outside one.
#pragma once

#include <cstdint>

namespace openacl {

class Stream;

namespace user_annotation {

// What an annotation says. Every string must live for the whole process (trace::Intern).
struct Text {
    const char* message = "";
    const char* args_json = nullptr;  // a JSON object shown as the annotation's arguments
    const char* domain = nullptr;     // an mstx domain's name; null: the default domain
};

// An instant on the calling thread's track and, with a stream, an empty task that marks the
// stream when its turn comes (the trace joins the two with the enqueue arrow).
void Mark(const Text& text, Stream* stream);

// Opens a range that any thread may close; returns its id (never 0). With a stream, the
// stream is marked where it reaches the start and, at EndRange, where it reaches the end, and
// the trace draws the range on the stream's track too.
uint32_t StartRange(const Text& text, Stream* stream);

enum class EndResult : uint8_t { kClosed, kNotOpen, kOtherDomain };
// Closes range `id`, which must have been opened in `domain` (null: the default domain); on
// kOtherDomain, *opened_in (when given) is the domain it was opened in.
EndResult EndRange(uint32_t id, const char* domain, const char** opened_in = nullptr);

// Forgets the ranges still open in `domain` (destroyed: they can never be closed).
void DropRanges(const char* domain);

}  // namespace user_annotation
}  // namespace openacl
