// FastParseJson: a strict JSON reader that fills a message through
// Reflection, and gives up on whatever protobuf's parser might read
// differently.
//
// The accepted language, a subset of what protobuf 3.21's JsonStringToMessage
// accepts (which also takes single quotes, unquoted keys, trailing commas,
// null, duplicate keys, numbers with fractions or exponents, ...):
//   line    = ws object ws
//   object  = "{" ws [ member *( ws "," ws member ) ws ] "}"
//   member  = key ws ":" ws value        ; key: a field's json_name or proto
//                                         ; name, without escapes, once only
//   ws      = *( SP / HTAB / LF / CR )
// and for a field of kind (services/log/internal/json_plan.h)
//   int32, uint32, int64, uint64   integer / DQUOTE integer DQUOTE, in range
//   bool                           "true" / "false" (the literals)
//   string                         a JSON string: escapes \" \\ \/ \b \f \n
//                                  \r \t \uXXXX (surrogates only in pairs),
//                                  no raw control characters, valid UTF-8
//   enum                           DQUOTE value-name DQUOTE / integer (int32)
//   message                        object
//   map<string, scalar>            "{" string ":" value, ... "}", keys unique
//   repeated                       "[" value, ... "]" (no nested lists)
// where integer = [ "-" ] ( "0" / %x31-39 *DIGIT ), without "-0".
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "services/log/fast_json.h"
#include "services/common/utf8.h"
#include "services/log/internal/json_plan.h"

namespace arbiter::log {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;
using internal::EnumPlan;
using internal::FieldPlan;
using internal::JsonKind;
using internal::MessagePlan;

// Objects nested deeper are left to protobuf (its limit is 100).
constexpr int kMaxDepth = 32;
// Fields and oneofs are tracked in 64-bit masks; larger types are left to protobuf.
constexpr std::size_t kMaxFields = 64;

// What one JSON value fills: a field, or the value of a map entry.
struct Target {
  const FieldDescriptor* field;
  JsonKind kind;
  const EnumPlan* enum_plan;
  const MessagePlan* message_plan;
};

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

class Parser {
 public:
  explicit Parser(std::string_view text)
      : p_(reinterpret_cast<const unsigned char*>(text.data())), end_(p_ + text.size()) {}

  bool ParseLine(Message& message) {
    SkipSpace();
    if (!Object(message, internal::PlanFor(message.GetDescriptor()), 0)) return false;
    SkipSpace();
    return p_ == end_;
  }

 private:
  void SkipSpace() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\n' || *p_ == '\r')) ++p_;
  }

  bool Consume(char c) {
    if (p_ < end_ && *p_ == static_cast<unsigned char>(c)) {
      ++p_;
      return true;
    }
    return false;
  }

  bool ConsumeWord(std::string_view word) {
    if (static_cast<std::size_t>(end_ - p_) < word.size()) return false;
    if (!std::equal(word.begin(), word.end(), p_)) return false;
    p_ += word.size();
    return true;
  }

  // After ws: "," (then ws, true with `more`), or `close` (true, no more).
  bool NextOrClose(char close, bool& more) {
    SkipSpace();
    if (Consume(',')) {
      SkipSpace();
      more = true;
      return true;
    }
    more = false;
    return Consume(close);
  }

  // A string without escapes (keys, enum names), as it is in the text.
  bool RawString(std::string_view& text) {
    if (!Consume('"')) return false;
    const unsigned char* start = p_;
    while (p_ < end_ && *p_ != '"') {
      if (*p_ == '\\' || *p_ < 0x20 || *p_ >= 0x80) return false;
      ++p_;
    }
    if (p_ == end_) return false;
    text = std::string_view(reinterpret_cast<const char*>(start), static_cast<std::size_t>(p_ - start));
    ++p_;
    return true;
  }

  bool Hex4(uint32_t& unit) {
    if (end_ - p_ < 4) return false;
    unit = 0;
    for (int i = 0; i < 4; ++i) {
      const int digit = HexValue(static_cast<char>(p_[i]));
      if (digit < 0) return false;
      unit = (unit << 4) | static_cast<uint32_t>(digit);
    }
    p_ += 4;
    return true;
  }

  // The escape after a backslash, appended to `out` as UTF-8.
  bool Escape(std::string& out) {
    if (p_ == end_) return false;
    const unsigned char c = *p_++;
    switch (c) {
      case '"':
      case '\\':
      case '/':
        out.push_back(static_cast<char>(c));
        return true;
      case 'b':
        out.push_back('\b');
        return true;
      case 'f':
        out.push_back('\f');
        return true;
      case 'n':
        out.push_back('\n');
        return true;
      case 'r':
        out.push_back('\r');
        return true;
      case 't':
        out.push_back('\t');
        return true;
      case 'u':
        break;
      default:
        return false;
    }
    uint32_t unit = 0;
    if (!Hex4(unit) || (unit >= 0xdc00 && unit <= 0xdfff)) return false;
    if (unit >= 0xd800 && unit <= 0xdbff) {
      uint32_t low = 0;
      if (!Consume('\\') || !Consume('u') || !Hex4(low) || low < 0xdc00 || low > 0xdfff) return false;
      unit = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
    }
    common::AppendUtf8(out, unit);
    return true;
  }

  bool String(std::string& out) {
    if (!Consume('"')) return false;
    out.clear();
    const unsigned char* run = p_;  // bytes from here on are not yet in `out`
    while (p_ < end_) {
      const unsigned char c = *p_;
      if (c == '"') {
        out.append(reinterpret_cast<const char*>(run), static_cast<std::size_t>(p_ - run));
        ++p_;
        return true;
      }
      if (c < 0x20) return false;
      if (c == '\\') {
        out.append(reinterpret_cast<const char*>(run), static_cast<std::size_t>(p_ - run));
        ++p_;
        if (!Escape(out)) return false;
        run = p_;
      } else if (c >= 0x80) {
        uint32_t cp = 0;
        const int length = common::DecodeUtf8(p_, end_, cp);
        if (length == 0) return false;
        p_ += length;
      } else {
        ++p_;
      }
    }
    return false;
  }

  // An integer, bare or in a string: its sign and magnitude.
  bool Integer(bool& negative, uint64_t& magnitude) {
    const bool quoted = Consume('"');
    negative = Consume('-');
    if (p_ == end_ || *p_ < '0' || *p_ > '9') return false;
    magnitude = 0;
    if (*p_ == '0') {
      ++p_;
      if (negative || (p_ < end_ && *p_ >= '0' && *p_ <= '9')) return false;
    } else {
      while (p_ < end_ && *p_ >= '0' && *p_ <= '9') {
        const uint64_t digit = *p_ - '0';
        if (magnitude > (std::numeric_limits<uint64_t>::max() - digit) / 10) return false;
        magnitude = magnitude * 10 + digit;
        ++p_;
      }
    }
    return !quoted || Consume('"');
  }

  bool SignedInteger(int64_t min, int64_t max, int64_t& value) {
    bool negative = false;
    uint64_t magnitude = 0;
    if (!Integer(negative, magnitude)) return false;
    if (negative) {
      if (magnitude - 1 > static_cast<uint64_t>(-(min + 1))) return false;  // magnitude >= 1: no "-0"
      value = static_cast<int64_t>(0 - magnitude);
    } else {
      if (magnitude > static_cast<uint64_t>(max)) return false;
      value = static_cast<int64_t>(magnitude);
    }
    return true;
  }

  bool UnsignedInteger(uint64_t max, uint64_t& value) {
    bool negative = false;
    if (!Integer(negative, value)) return false;
    return !negative && value <= max;
  }

  // One value into `target` of `message`: added to a list when `add`.
  bool Value(Message& message, const Target& target, bool add, int depth) {
    const Reflection* r = message.GetReflection();
    const FieldDescriptor* field = target.field;
    switch (target.kind) {
      case JsonKind::kInt32: {
        int64_t value = 0;
        if (!SignedInteger(std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max(), value)) {
          return false;
        }
        add ? r->AddInt32(&message, field, static_cast<int32_t>(value))
            : r->SetInt32(&message, field, static_cast<int32_t>(value));
        return true;
      }
      case JsonKind::kInt64: {
        int64_t value = 0;
        if (!SignedInteger(std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(), value)) {
          return false;
        }
        add ? r->AddInt64(&message, field, value) : r->SetInt64(&message, field, value);
        return true;
      }
      case JsonKind::kUInt32: {
        uint64_t value = 0;
        if (!UnsignedInteger(std::numeric_limits<uint32_t>::max(), value)) return false;
        add ? r->AddUInt32(&message, field, static_cast<uint32_t>(value))
            : r->SetUInt32(&message, field, static_cast<uint32_t>(value));
        return true;
      }
      case JsonKind::kUInt64: {
        uint64_t value = 0;
        if (!UnsignedInteger(std::numeric_limits<uint64_t>::max(), value)) return false;
        add ? r->AddUInt64(&message, field, value) : r->SetUInt64(&message, field, value);
        return true;
      }
      case JsonKind::kBool: {
        bool value = false;
        if (ConsumeWord("true")) {
          value = true;
        } else if (!ConsumeWord("false")) {
          return false;
        }
        add ? r->AddBool(&message, field, value) : r->SetBool(&message, field, value);
        return true;
      }
      case JsonKind::kString: {
        std::string value;
        if (!String(value)) return false;
        add ? r->AddString(&message, field, std::move(value)) : r->SetString(&message, field, std::move(value));
        return true;
      }
      case JsonKind::kEnum: {
        int32_t number = 0;
        if (p_ < end_ && *p_ == '"') {
          std::string_view name;
          if (!RawString(name) || !target.enum_plan->NumberOf(name, number)) return false;
        } else {
          int64_t value = 0;
          if (!SignedInteger(std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max(), value)) {
            return false;
          }
          number = static_cast<int32_t>(value);
        }
        add ? r->AddEnumValue(&message, field, number) : r->SetEnumValue(&message, field, number);
        return true;
      }
      case JsonKind::kMessage: {
        Message* child = add ? r->AddMessage(&message, field) : r->MutableMessage(&message, field);
        return Object(*child, *target.message_plan, depth + 1);
      }
      case JsonKind::kMap:
      case JsonKind::kUnsupported:
        return false;
    }
    return false;
  }

  bool List(Message& message, const Target& target, int depth) {
    if (!Consume('[')) return false;
    SkipSpace();
    if (Consume(']')) return true;
    for (bool more = true; more;) {
      if (!Value(message, target, /*add=*/true, depth)) return false;
      if (!NextOrClose(']', more)) return false;
    }
    return true;
  }

  bool Map(Message& message, const FieldPlan& field, int depth) {
    if (!Consume('{')) return false;
    SkipSpace();
    if (Consume('}')) return true;
    const Reflection* r = message.GetReflection();
    const Target value{field.map_value, field.map_value_kind, field.map_value_enum, nullptr};
    std::vector<std::string> keys;
    for (bool more = true; more;) {
      std::string key;
      if (!String(key)) return false;
      SkipSpace();
      if (!Consume(':')) return false;
      SkipSpace();
      Message* entry = r->AddMessage(&message, field.field);
      entry->GetReflection()->SetString(entry, field.map_key, key);
      keys.push_back(std::move(key));
      if (!Value(*entry, value, /*add=*/false, depth)) return false;
      if (!NextOrClose('}', more)) return false;
    }
    std::sort(keys.begin(), keys.end());
    return std::adjacent_find(keys.begin(), keys.end()) == keys.end();  // protobuf refuses repeated keys
  }

  bool Object(Message& message, const MessagePlan& plan, int depth) {
    if (!plan.supported || !plan.keys_unambiguous || plan.fields.size() > kMaxFields || depth > kMaxDepth) {
      return false;
    }
    if (!Consume('{')) return false;
    SkipSpace();
    if (Consume('}')) return true;
    uint64_t seen_fields = 0;
    uint64_t seen_oneofs = 0;
    for (bool more = true; more;) {
      std::string_view key;
      if (!RawString(key)) return false;
      const int index = plan.FindKey(key);
      if (index < 0 || (seen_fields >> index & 1) != 0) return false;
      seen_fields |= uint64_t{1} << index;
      const FieldPlan& field = plan.fields[static_cast<std::size_t>(index)];
      if (field.kind == JsonKind::kUnsupported) return false;
      if (field.oneof >= 0) {
        if (field.oneof >= 64 || (seen_oneofs >> field.oneof & 1) != 0) return false;
        seen_oneofs |= uint64_t{1} << field.oneof;
      }
      SkipSpace();
      if (!Consume(':')) return false;
      SkipSpace();
      const Target target{field.field, field.kind, field.enum_plan, field.message};
      bool ok = false;
      if (field.kind == JsonKind::kMap) {
        ok = Map(message, field, depth);
      } else if (field.repeated) {
        ok = List(message, target, depth);
      } else {
        ok = Value(message, target, /*add=*/false, depth);
      }
      if (!ok || !NextOrClose('}', more)) return false;
    }
    return true;
  }

  const unsigned char* p_;
  const unsigned char* end_;
};

}  // namespace

bool FastParseJson(std::string_view text, Message& message) {
  message.Clear();
  return Parser(text).ParseLine(message);
}

}  // namespace arbiter::log
