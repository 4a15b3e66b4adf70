// FastPrintJson: protobuf's JSON mapping written with Reflection.
//
// What it must match, from protobuf 3.21's converter (util/internal:
// ProtoStreamObjectSource reading the message's serialised bytes, then
// JsonObjectWriter and JsonEscaping):
//   - fields in the order of their serialised bytes, which for a message we
//     hold is field number order; a field appears when it is serialised
//     (non-default value, a set oneof member even with a default value, a
//     present message, a non-empty list or map);
//   - strings escaped code point by code point: the short escapes \" \\ \b
//     \f \n \r \t, \u00XX for the other controls, for 0x7f-0x9f and for < >
//     (& ' = are kept), and \uXXXX (lowercase hex) for a list of invisible
//     or formatting code points (see NeedsUnicodeEscape; U+2028 and U+2029
//     are among them), written as a surrogate pair above U+FFFF; every other
//     code point is copied as UTF-8.
// tests/services/log/fast_json_test.cc checks every code point against
// protobuf's own output.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <utility>
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

// Deeper messages are left to protobuf, which has its own limit.
constexpr int kMaxDepth = 32;

constexpr char kHex[] = "0123456789abcdef";

// True for the ASCII bytes copied as they are.
constexpr bool IsPlainAscii(unsigned char c) {
  return c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '<' && c != '>';
}

// Code points from U+00A0 up that protobuf writes as \u escapes.
bool NeedsUnicodeEscape(uint32_t cp) {
  switch (cp) {
    case 0x00ad:  // soft hyphen
    case 0x06dd:  // Arabic end of ayah
    case 0x070f:  // Syriac abbreviation mark
    case 0x17b4:  // Khmer inherent vowels
    case 0x17b5:
    case 0xfeff:  // zero width no-break space
    case 0xfff9:  // interlinear annotation
    case 0xfffa:
    case 0xfffb:
    case 0xe0001:  // language tag
      return true;
    default:
      return (cp >= 0x0600 && cp <= 0x0603) || (cp >= 0x200b && cp <= 0x200f) ||
             (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2060 && cp <= 0x2064) ||
             (cp >= 0x206a && cp <= 0x206f) || (cp >= 0x1d173 && cp <= 0x1d17a) ||
             (cp >= 0xe0020 && cp <= 0xe007f);
  }
}

void AppendUnit(std::string& out, uint32_t unit) {
  const char escape[6] = {'\\', 'u', kHex[(unit >> 12) & 0xf], kHex[(unit >> 8) & 0xf], kHex[(unit >> 4) & 0xf],
                          kHex[unit & 0xf]};
  out.append(escape, sizeof(escape));
}

void AppendAsciiEscape(std::string& out, unsigned char c) {
  switch (c) {
    case '"':
      out.append("\\\"");
      return;
    case '\\':
      out.append("\\\\");
      return;
    case '\b':
      out.append("\\b");
      return;
    case '\f':
      out.append("\\f");
      return;
    case '\n':
      out.append("\\n");
      return;
    case '\r':
      out.append("\\r");
      return;
    case '\t':
      out.append("\\t");
      return;
    default:
      AppendUnit(out, c);
  }
}

// Appends `text` as a JSON string; false if it is not valid UTF-8.
bool AppendString(std::string& out, const std::string& text) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const unsigned char* const end = p + text.size();
  const unsigned char* copied = p;  // bytes before this are in `out`
  out.push_back('"');
  while (p < end) {
    const unsigned char c = *p;
    if (c < 0x80) {
      if (!IsPlainAscii(c)) {
        out.append(reinterpret_cast<const char*>(copied), static_cast<std::size_t>(p - copied));
        AppendAsciiEscape(out, c);
        copied = p + 1;
      }
      ++p;
      continue;
    }
    uint32_t cp = 0;
    const int length = common::DecodeUtf8(p, end, cp);
    if (length == 0) return false;
    if (cp < 0xa0 || NeedsUnicodeEscape(cp)) {
      out.append(reinterpret_cast<const char*>(copied), static_cast<std::size_t>(p - copied));
      if (cp >= 0x10000) {
        AppendUnit(out, 0xd800 + ((cp - 0x10000) >> 10));
        AppendUnit(out, 0xdc00 + ((cp - 0x10000) & 0x3ff));
      } else {
        AppendUnit(out, cp);
      }
      copied = p + length;
    }
    p += length;
  }
  out.append(reinterpret_cast<const char*>(copied), static_cast<std::size_t>(p - copied));
  out.push_back('"');
  return true;
}

template <typename Int>
void AppendInteger(std::string& out, Int value, bool quoted) {
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  if (quoted) out.push_back('"');
  out.append(buffer, result.ptr);
  if (quoted) out.push_back('"');
}

class Printer {
 public:
  explicit Printer(std::string& out) : out_(out) {}

  bool PrintMessage(const Message& message, const MessagePlan& plan, int depth) {
    if (!plan.supported || depth > kMaxDepth) return false;
    const Reflection* reflection = message.GetReflection();
    if (!reflection->GetUnknownFields(message).empty()) return false;
    out_.push_back('{');
    bool first = true;
    for (const FieldPlan& field : plan.fields) {
      int size = 0;
      if (field.field->is_repeated()) {
        size = reflection->FieldSize(message, field.field);
        if (size == 0) continue;
      } else if (!reflection->HasField(message, field.field)) {
        continue;
      }
      if (field.kind == JsonKind::kUnsupported) return false;
      if (!first) out_.push_back(',');
      first = false;
      out_.append(field.print_key);
      if (field.kind == JsonKind::kMap) {
        if (!PrintMap(message, field, size)) return false;
      } else if (field.repeated) {
        out_.push_back('[');
        for (int i = 0; i < size; ++i) {
          if (i > 0) out_.push_back(',');
          if (!PrintValue(message, reflection, field.field, field.kind, field.enum_plan, field.message, i, depth)) {
            return false;
          }
        }
        out_.push_back(']');
      } else if (!PrintValue(message, reflection, field.field, field.kind, field.enum_plan, field.message, -1,
                             depth)) {
        return false;
      }
    }
    out_.push_back('}');
    return true;
  }

 private:
  // One value of `field`: element `index` of a list, or the singular value
  // when `index` is -1.
  bool PrintValue(const Message& message, const Reflection* r, const FieldDescriptor* field, JsonKind kind,
                  const EnumPlan* enum_plan, const MessagePlan* message_plan, int index, int depth) {
    const bool one = index < 0;
    switch (kind) {
      case JsonKind::kInt32:
        AppendInteger(out_, one ? r->GetInt32(message, field) : r->GetRepeatedInt32(message, field, index), false);
        return true;
      case JsonKind::kInt64:
        AppendInteger(out_, one ? r->GetInt64(message, field) : r->GetRepeatedInt64(message, field, index), true);
        return true;
      case JsonKind::kUInt32:
        AppendInteger(out_, one ? r->GetUInt32(message, field) : r->GetRepeatedUInt32(message, field, index),
                      false);
        return true;
      case JsonKind::kUInt64:
        AppendInteger(out_, one ? r->GetUInt64(message, field) : r->GetRepeatedUInt64(message, field, index),
                      true);
        return true;
      case JsonKind::kBool:
        out_.append((one ? r->GetBool(message, field) : r->GetRepeatedBool(message, field, index)) ? "true"
                                                                                                   : "false");
        return true;
      case JsonKind::kString: {
        std::string scratch;
        const std::string& text = one ? r->GetStringReference(message, field, &scratch)
                                      : r->GetRepeatedStringReference(message, field, index, &scratch);
        return AppendString(out_, text);
      }
      case JsonKind::kEnum: {
        const int number = one ? r->GetEnumValue(message, field) : r->GetRepeatedEnumValue(message, field, index);
        const std::string* name = enum_plan->NameOf(number);
        if (name == nullptr) return false;  // protobuf writes the number
        out_.push_back('"');
        out_.append(*name);
        out_.push_back('"');
        return true;
      }
      case JsonKind::kMessage:
        return PrintMessage(one ? r->GetMessage(message, field) : r->GetRepeatedMessage(message, field, index),
                            *message_plan, depth + 1);
      case JsonKind::kMap:
      case JsonKind::kUnsupported:
        return false;
    }
    return false;
  }

  bool PrintMap(const Message& message, const FieldPlan& field, int size) {
    const Reflection* reflection = message.GetReflection();
    std::vector<std::pair<const std::string*, const Message*>> entries;
    entries.reserve(static_cast<std::size_t>(size));
    std::vector<std::string> scratch(static_cast<std::size_t>(size));
    for (int i = 0; i < size; ++i) {
      const Message& entry = reflection->GetRepeatedMessage(message, field.field, i);
      entries.emplace_back(
          &entry.GetReflection()->GetStringReference(entry, field.map_key, &scratch[static_cast<std::size_t>(i)]),
          &entry);
    }
    std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return *a.first < *b.first; });
    out_.push_back('{');
    for (std::size_t i = 0; i < entries.size(); ++i) {
      if (i > 0) {
        if (*entries[i].first == *entries[i - 1].first) return false;
        out_.push_back(',');
      }
      if (!AppendString(out_, *entries[i].first)) return false;
      out_.push_back(':');
      const Message& entry = *entries[i].second;
      if (!PrintValue(entry, entry.GetReflection(), field.map_value, field.map_value_kind, field.map_value_enum,
                      nullptr, -1, 0)) {
        return false;
      }
    }
    out_.push_back('}');
    return true;
  }

  std::string& out_;
};

}  // namespace

bool FastPrintJson(const Message& message, std::string& out) {
  const std::size_t start = out.size();
  Printer printer(out);
  if (printer.PrintMessage(message, internal::PlanFor(message.GetDescriptor()), 0)) return true;
  out.resize(start);
  return false;
}

}  // namespace arbiter::log
