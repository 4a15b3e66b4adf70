// UTF-8 decoding and encoding, shared by the log's text checks, its JSON
// codec and the checks of text people type (text_length.h). Pure;
// thread-safe.
#ifndef ARBITER_SERVICES_COMMON_UTF8_H_
#define ARBITER_SERVICES_COMMON_UTF8_H_

#include <cstdint>
#include <string>

namespace arbiter::common {

// Length of the well-formed UTF-8 sequence at `p` (shortest form, no
// surrogates, at most U+10FFFF), with its code point in `cp`; 0 if the bytes
// from `p` to `end` do not start one. `p` must be before `end`.
int DecodeUtf8(const unsigned char* p, const unsigned char* end, uint32_t& cp);

// Appends the UTF-8 encoding of code point `cp` (at most U+10FFFF).
void AppendUtf8(std::string& out, uint32_t cp);

}  // namespace arbiter::common

#endif  // ARBITER_SERVICES_COMMON_UTF8_H_
