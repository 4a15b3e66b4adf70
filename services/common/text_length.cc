#include "services/common/text_length.h"

#include "absl/strings/str_cat.h"
#include "services/common/status_details.h"

namespace arbiter::common {
namespace {

// The length of the UTF-8 sequence at `text[i]`, or 0 if none is valid there.
size_t SequenceAt(const std::string& text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  size_t length = 0;
  uint32_t code = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    code = lead & 0x1Fu;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    code = lead & 0x0Fu;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    code = lead & 0x07u;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0u) != 0x80u) return 0;
    code = (code << 6) | (byte(i + k) & 0x3Fu);
  }
  const bool overlong = (length == 3 && code < 0x800) || (length == 4 && code < 0x10000);
  const bool surrogate = code >= 0xD800 && code <= 0xDFFF;
  if (overlong || surrogate || code > 0x10FFFF) return 0;
  return length;
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

}  // namespace arbiter::common
