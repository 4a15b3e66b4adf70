#include "services/common/text_length.h"

#include "absl/strings/str_cat.h"
#include "engine/core/status_macros.h"
#include "services/common/status_details.h"
#include "services/common/utf8.h"

namespace arbiter::common {
namespace {

// The length of the UTF-8 sequence at `text[i]`, or 0 if none is valid there.
size_t SequenceAt(const std::string& text, size_t i) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data()) + i;
  if (*p < 0x80) return 1;
  uint32_t code = 0;
  return static_cast<size_t>(
      DecodeUtf8(p, reinterpret_cast<const unsigned char*>(text.data()) + text.size(), code));
}

// The offset of the first byte that is not part of valid UTF-8, if any.
std::optional<size_t> FirstInvalidByte(const std::string& text, int64_t* count) {
  *count = 0;
  for (size_t i = 0; i < text.size(); ++(*count)) {
    const size_t length = SequenceAt(text, i);
    if (length == 0) return i;
    i += length;
  }
  return std::nullopt;
}

}  // namespace

std::optional<int64_t> Utf8Length(const std::string& text) {
  int64_t count = 0;
  if (FirstInvalidByte(text, &count).has_value()) return std::nullopt;
  return count;
}

absl::Status CheckText(const std::string& field, const std::string& text, int64_t min_chars,
                       int64_t max_chars, const std::string& purpose) {
  int64_t count = 0;
  if (const std::optional<size_t> bad = FirstInvalidByte(text, &count); bad.has_value()) {
    return FieldError(field, absl::StrCat(field, " is not valid UTF-8 (byte ", *bad + 1, ")"));
  }
  if (text.empty() && min_chars > 0) {
    return FieldError(field, absl::StrCat(field, " is required: ", min_chars, "-", max_chars,
                                          " characters ", purpose));
  }
  if (count < min_chars) {
    return FieldError(field, absl::StrCat(field, " is ", count, " characters; at least ", min_chars));
  }
  if (count > max_chars) {
    return FieldError(field, absl::StrCat(field, " is ", count, " characters; at most ", max_chars));
  }
  return absl::OkStatus();
}

absl::Status CheckPrintableText(const std::string& field, const std::string& text,
                                int64_t min_chars, int64_t max_chars, const std::string& purpose) {
  ARBITER_RETURN_IF_ERROR(CheckText(field, text, min_chars, max_chars, purpose));
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const auto* const end = p + text.size();
  while (p < end) {
    uint32_t cp = *p;
    const int length = *p < 0x80 ? 1 : DecodeUtf8(p, end, cp);
    if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) {
      return FieldError(field, absl::StrCat(field, " holds a control character (U+",
                                            absl::Hex(cp, absl::kZeroPad4),
                                            "); use printable text only"));
    }
    p += length;
  }
  return absl::OkStatus();
}

}  // namespace arbiter::common
