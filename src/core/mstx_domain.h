// mstx domains (mstxDomainCreateA, mstxDomainDestroy): names under which a program groups its
// annotations and memory pools. One name gives one handle while the domain lives; a destroyed
// domain's handle stays known, so using it is told apart from passing garbage (the first is
// documented as a warning, the second is an error). A handle is a number, never an address the
// runtime would read.
#pragma once

namespace openacl::mstx {

// The live domain named `name` (a valid name: the caller checks it), created on first use.
void* CreateDomain(const char* name);

// Resolves a domain argument: NULL is the default domain (*name = nullptr); a live domain gives
// its interned name. False when the call must do nothing: a destroyed domain (warned) or a
// handle that was never a domain (recorded as ACL_ERROR_INVALID_PARAM).
bool ResolveDomain(const void* handle, const char** name);

// Destroys a live domain with the ranges still open in it and its memory pools; false, with
// the warning or error ResolveDomain gives, when `handle` is not a live domain.
bool DestroyDomain(const void* handle);

}  // namespace openacl::mstx
