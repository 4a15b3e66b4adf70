// UTF-8 decoding and encoding (the log's text checks and its JSON codec use
// them), and the check of text that people type and read: names and reasons,
// measured in characters (Unicode code points), never bytes. Pure; thread-safe.
#ifndef ARBITER_SERVICES_COMMON_UTF8_H_
#define ARBITER_SERVICES_COMMON_UTF8_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/status.h"

namespace arbiter::common {

// Length of the well-formed UTF-8 sequence at `p` (shortest form, no
// surrogates, at most U+10FFFF), with its code point in `cp`; 0 if the bytes
// from `p` to `end` do not start one. `p` must be before `end`.
int DecodeUtf8(const unsigned char* p, const unsigned char* end, uint32_t& cp);

// Appends the UTF-8 encoding of code point `cp` (at most U+10FFFF).
void AppendUtf8(std::string& out, uint32_t cp);

// The number of code points in `text`, or nullopt if it is not well-formed
// UTF-8.
std::optional<int64_t> CountCodePoints(const std::string& text);

// OK if `text` is well-formed UTF-8 of at most `max_characters` characters
// (and at least one if `required`) with no control character (U+0000-U+001F,
// U+007F-U+009F). Otherwise InvalidArgument with a field violation on
// `field`, the message saying which rule and, for a long text, its length
// in characters ("display_names[2] is 140 characters; at most 100").
absl::Status CheckPersonText(const std::string& field, const std::string& text,
                             int max_characters, bool required);

}  // namespace arbiter::common

#endif  // ARBITER_SERVICES_COMMON_UTF8_H_
