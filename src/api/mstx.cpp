// mstx (mstx/ms_tools_ext.h), CANN's annotation API: marks and ranges on the same timeline
// records as msproftx (core/user_annotation.h), under their domain's name when they have one.
// They are recorded while a trace takes user annotations: OPENACL_TRACE, or aclprofStart with
// ACL_PROF_MSPROFTX, the switch CANN documents for collecting mstx data. At other times the
// calls check their arguments and record nothing (a range start returns 0), as in CANN when no
// tool collects them: mstx calls stay in programs that are not being profiled.
//
// mstx has no error codes: a bad argument is recorded as ACL_ERROR_INVALID_PARAM with a message
// (aclGetRecentErrMsg, and the log), and the call does nothing.
#include "mstx/ms_tools_ext.h"

#include <cstdint>
#include <cstring>
#include <string>

#include "core/error.h"
#include "core/mstx_domain.h"
#include "core/stream.h"
#include "core/trace.h"
#include "core/user_annotation.h"

using openacl::Fail;
namespace mstx = openacl::mstx;
namespace trace = openacl::trace;
namespace user_annotation = openacl::user_annotation;

namespace {

// CANN's limit when msprof or aclprof collects the annotations (255 under MSPTI).
constexpr size_t kMaxMessageLength = 156;
constexpr size_t kMaxDomainNameLength = 1023;

// Checks an annotation's message; false with the error recorded.
bool ValidMessage(const char* message) {
    if (message == nullptr) {
        Fail(ACL_ERROR_INVALID_PARAM, "message is null");
        return false;
    }
    if (strnlen(message, kMaxMessageLength + 1) > kMaxMessageLength) {
        Fail(ACL_ERROR_INVALID_PARAM, "message is longer than %zu bytes: \"%.40s...\"",
             kMaxMessageLength, message);
        return false;
    }
    return true;
}

// A stream argument: NULL annotates the calling thread only (not the default stream, unlike
// the aclrt* functions); anything else must be a live stream of the current context. False
// with the error recorded.
bool ResolveOptionalStream(aclrtStream stream, openacl::Stream** resolved) {
    *resolved = nullptr;
    if (stream == nullptr) return true;
    aclError rc = ACL_SUCCESS;
    *resolved = openacl::ResolveStream(stream, &rc);
    return *resolved != nullptr;
}

// The checks every mark and range start makes; false when the call must do nothing.
bool Prepare(const void* domain_handle, const char* message, aclrtStream stream,
             user_annotation::Text* text, openacl::Stream** resolved) {
    if (!mstx::ResolveDomain(domain_handle, &text->domain) || !ValidMessage(message) ||
        !ResolveOptionalStream(stream, resolved)) {
        return false;
    }
    if (!trace::UserNotesOn()) return false;  // nothing collects it
    text->message = trace::Intern(message);
    return true;
}

void MarkIn(const void* domain, const char* message, aclrtStream stream) {
    user_annotation::Text text;
    openacl::Stream* resolved = nullptr;
    if (Prepare(domain, message, stream, &text, &resolved)) user_annotation::Mark(text, resolved);
}

mstxRangeId RangeStartIn(const void* domain, const char* message, aclrtStream stream) {
    user_annotation::Text text;
    openacl::Stream* resolved = nullptr;
    if (!Prepare(domain, message, stream, &text, &resolved)) return MSTX_INVALID_ID;
    return user_annotation::StartRange(text, resolved);
}

std::string DomainText(const char* name) {
    return name == nullptr ? "the default domain" : std::string("domain \"") + name + "\"";
}

void RangeEndIn(const void* domain_handle, mstxRangeId id) {
    const char* domain = nullptr;
    if (!mstx::ResolveDomain(domain_handle, &domain)) return;
    if (id == MSTX_INVALID_ID) return;  // what a range start that recorded nothing returned
    const char* opened_in = nullptr;
    const auto result =
        id > UINT32_MAX ? user_annotation::EndResult::kNotOpen
                        : user_annotation::EndRange(static_cast<uint32_t>(id), domain, &opened_in);
    switch (result) {
        case user_annotation::EndResult::kClosed:
            return;
        case user_annotation::EndResult::kNotOpen:
            Fail(ACL_ERROR_INVALID_PARAM,
                 "range %llu is not open: no range start returned it, or it was ended already",
                 static_cast<unsigned long long>(id));
            return;
        case user_annotation::EndResult::kOtherDomain:
            Fail(ACL_ERROR_INVALID_PARAM,
                 "range %llu was started in %s, not in %s: end it in the domain it was started "
                 "in",
                 static_cast<unsigned long long>(id), DomainText(opened_in).c_str(),
                 DomainText(domain).c_str());
            return;
    }
}

}  // namespace

void mstxMarkA(const char* message, aclrtStream stream) {
    OPENACL_API();
    MarkIn(nullptr, message, stream);
}

mstxRangeId mstxRangeStartA(const char* message, aclrtStream stream) {
    OPENACL_API();
    return RangeStartIn(nullptr, message, stream);
}

void mstxRangeEnd(mstxRangeId id) {
    OPENACL_API();
    RangeEndIn(nullptr, id);
}

mstxDomainHandle_t mstxDomainCreateA(const char* name) {
    OPENACL_API();
    if (name == nullptr) {
        Fail(ACL_ERROR_INVALID_PARAM, "name is null");
        return nullptr;
    }
    const size_t length = strnlen(name, kMaxDomainNameLength + 1);
    if (length == 0 || length > kMaxDomainNameLength) {
        Fail(ACL_ERROR_INVALID_PARAM, "name must have 1 to %zu bytes, not %s", kMaxDomainNameLength,
             length == 0 ? "0" : "more");
        return nullptr;
    }
    for (size_t i = 0; i < length; ++i) {
        const char c = name[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              c == '_')) {
            Fail(ACL_ERROR_INVALID_PARAM,
                 "name \"%s\" has '%c' at byte %zu: a domain name has only digits, letters and "
                 "'_'",
                 name, c, i);
            return nullptr;
        }
    }
    return static_cast<mstxDomainHandle_t>(mstx::CreateDomain(name));
}

void mstxDomainDestroy(mstxDomainHandle_t domain) {
    OPENACL_API();
    if (domain == nullptr) return;  // the default domain is never destroyed
    mstx::DestroyDomain(domain);
}

void mstxDomainMarkA(mstxDomainHandle_t domain, const char* message, aclrtStream stream) {
    OPENACL_API();
    MarkIn(domain, message, stream);
}

mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t domain, const char* message,
                                  aclrtStream stream) {
    OPENACL_API();
    return RangeStartIn(domain, message, stream);
}

void mstxDomainRangeEnd(mstxDomainHandle_t domain, mstxRangeId id) {
    OPENACL_API();
    RangeEndIn(domain, id);
}

void mstxGetToolId(uint64_t* id) {
    OPENACL_API();
    if (id == nullptr) {
        Fail(ACL_ERROR_INVALID_PARAM, "id is null");
        return;
    }
    // openacl's trace stands in for msprof: it is what collects the annotations.
    *id = trace::UserNotesOn() ? MSTX_TOOL_MSPROF_ID : MSTX_TOOL_INVALID_ID;
}
