// Lengths of text a person types (reasons, names, descriptions), counted in
// Unicode characters (code points) of valid UTF-8 rather than in bytes, and
// the one check and wording every write uses for such a field. Pure
// functions; thread-safe.
#ifndef ARBITER_SERVICES_COMMON_TEXT_LENGTH_H_
#define ARBITER_SERVICES_COMMON_TEXT_LENGTH_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/status.h"

namespace arbiter::common {

// The longest reason (a void's, a dispute's, a ruling's), in characters.
inline constexpr int64_t kMaxReasonCharacters = 1000;

// The number of code points of `text`; nullopt when `text` is not valid
// UTF-8 (a stray or missing continuation byte, an overlong form, a
// surrogate, or a code point above U+10FFFF).
std::optional<int64_t> Utf8Length(const std::string& text);

// OK if `text` is valid UTF-8 of `min_chars`-`max_chars` characters;
// otherwise InvalidArgument with a field violation on `field`:
//   "reason is required: 1-1000 characters saying why" (empty, when
//   min_chars > 0; `purpose` is "saying why"),
//   "reason is 1234 characters; at most 1000",
//   "reason is not valid UTF-8 (byte 17)".
absl::Status CheckText(const std::string& field, const std::string& text, int64_t min_chars,
                       int64_t max_chars, const std::string& purpose);

// CheckText, and no control character (U+0000-U+001F, U+007F-U+009F): for
// one-line text such as a display name. "display_names[2] holds a control
// character (U+0009); use printable text only".
absl::Status CheckPrintableText(const std::string& field, const std::string& text,
                                int64_t min_chars, int64_t max_chars, const std::string& purpose);

}  // namespace arbiter::common

#endif  // ARBITER_SERVICES_COMMON_TEXT_LENGTH_H_
