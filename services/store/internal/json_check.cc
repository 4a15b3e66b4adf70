#include "services/store/internal/json_check.h"

#include <cstring>

#include "absl/strings/str_cat.h"

namespace arbiter::store::internal {
namespace {

constexpr int kMaxDepth = 256;

class Checker {
 public:
  explicit Checker(const std::string& text) : text_(text) {}

  std::string Run() {
    if (std::string utf8 = Utf8Problem(); !utf8.empty()) return utf8;
    SkipSpace();
    if (!Value(0)) return problem_;
    SkipSpace();
    if (pos_ != text_.size()) return Problem("unexpected text after the value");
    return "";
  }

 private:
  std::string Utf8Problem() const {
    size_t i = 0;
    while (i < text_.size()) {
      const unsigned char c = static_cast<unsigned char>(text_[i]);
      int extra = 0;
      unsigned int code = 0;
      if (c < 0x80) {
        ++i;
        continue;
      } else if ((c & 0xe0) == 0xc0) {
        extra = 1;
        code = c & 0x1f;
      } else if ((c & 0xf0) == 0xe0) {
        extra = 2;
        code = c & 0x0f;
      } else if ((c & 0xf8) == 0xf0) {
        extra = 3;
        code = c & 0x07;
      } else {
        return absl::StrCat("invalid UTF-8 at byte ", i);
      }
      if (i + extra >= text_.size()) {
        return absl::StrCat("invalid UTF-8 at byte ", i);
      }
      for (int k = 1; k <= extra; ++k) {
        const unsigned char next = static_cast<unsigned char>(text_[i + k]);
        if ((next & 0xc0) != 0x80) return absl::StrCat("invalid UTF-8 at byte ", i);
        code = (code << 6) | (next & 0x3f);
      }
      static constexpr unsigned int kMin[] = {0, 0x80, 0x800, 0x10000};
      if (code < kMin[extra] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
        return absl::StrCat("invalid UTF-8 at byte ", i);
      }
      i += extra + 1;
    }
    return "";
  }

  bool Fail(const std::string& what) {
    if (problem_.empty()) problem_ = absl::StrCat(what, " at byte ", pos_);
    return false;
  }
  std::string Problem(const char* what) {
    Fail(std::string(what));
    return problem_;
  }

  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return AtEnd() ? '\0' : text_[pos_]; }

  void SkipSpace() {
    while (!AtEnd() && (Peek() == ' ' || Peek() == '\t' || Peek() == '\n' || Peek() == '\r')) {
      ++pos_;
    }
  }

  bool Literal(const char* word) {
    const size_t n = std::strlen(word);
    if (text_.compare(pos_, n, word) != 0) return Fail(std::string("unexpected character"));
    pos_ += n;
    return true;
  }

  bool Value(int depth) {
    if (depth > kMaxDepth) return Fail(std::string("nested too deeply"));
    switch (Peek()) {
      case '{': return Object(depth + 1);
      case '[': return Array(depth + 1);
      case '"': return String();
      case 't': return Literal("true");
      case 'f': return Literal("false");
      case 'n': return Literal("null");
      default: return Number();
    }
  }

  bool Object(int depth) {
    ++pos_;  // '{'
    SkipSpace();
    if (Peek() == '}') {
      ++pos_;
      return true;
    }
    for (;;) {
      SkipSpace();
      if (Peek() != '"') return Fail(std::string("expected a member name"));
      if (!String()) return false;
      SkipSpace();
      if (Peek() != ':') return Fail(std::string("expected ':'"));
      ++pos_;
      SkipSpace();
      if (!Value(depth)) return false;
      SkipSpace();
      if (Peek() == '}') {
        ++pos_;
        return true;
      }
      if (Peek() != ',') return Fail(std::string("expected ',' or '}'"));
      ++pos_;
    }
  }

  bool Array(int depth) {
    ++pos_;  // '['
    SkipSpace();
    if (Peek() == ']') {
      ++pos_;
      return true;
    }
    for (;;) {
      SkipSpace();
      if (!Value(depth)) return false;
      SkipSpace();
      if (Peek() == ']') {
        ++pos_;
        return true;
      }
      if (Peek() != ',') return Fail(std::string("expected ',' or ']'"));
      ++pos_;
    }
  }

  static bool IsHex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }

  bool String() {
    ++pos_;  // '"'
    for (;;) {
      if (AtEnd()) return Fail(std::string("unterminated string"));
      const char c = text_[pos_];
      if (c == '"') {
        ++pos_;
        return true;
      }
      if (static_cast<unsigned char>(c) < 0x20) {
        return Fail(std::string("control character in a string"));
      }
      if (c != '\\') {
        ++pos_;
        continue;
      }
      ++pos_;
      const char e = Peek();
      if (e == 'u') {
        for (int k = 1; k <= 4; ++k) {
          if (pos_ + k >= text_.size() || !IsHex(text_[pos_ + k])) {
            return Fail(std::string("bad \\u escape"));
          }
        }
        if (text_.compare(pos_ + 1, 4, "0000") == 0) {
          return Fail(std::string("\\u0000 is not allowed"));
        }
        pos_ += 5;
      } else if (e != '\0' && std::strchr("\"\\/bfnrt", e) != nullptr) {
        ++pos_;
      } else {
        return Fail(std::string("bad escape"));
      }
    }
  }

  bool Digits() {
    const size_t start = pos_;
    while (Peek() >= '0' && Peek() <= '9') ++pos_;
    return pos_ > start;
  }

  bool Number() {
    if (Peek() == '-') ++pos_;
    if (Peek() == '0') {
      ++pos_;
    } else if (Peek() >= '1' && Peek() <= '9') {
      Digits();
    } else {
      return Fail(std::string("unexpected character"));
    }
    if (Peek() == '.') {
      ++pos_;
      if (!Digits()) return Fail(std::string("expected digits after '.'"));
    }
    if (Peek() == 'e' || Peek() == 'E') {
      ++pos_;
      if (Peek() == '+' || Peek() == '-') ++pos_;
      if (!Digits()) return Fail(std::string("expected exponent digits"));
    }
    return true;
  }

  const std::string& text_;
  size_t pos_ = 0;
  std::string problem_;
};

}  // namespace

std::string JsonProblem(const std::string& text) { return Checker(text).Run(); }

}  // namespace arbiter::store::internal
