#include "services/store/pg/arrays.h"

namespace arbiter::store::pg {
namespace {

// Appends `value` quoted, escaping '"' and '\'.
void AppendQuoted(const std::string& value, std::string& out) {
  out += '"';
  if (value.find_first_of("\"\\") == std::string::npos) {
    out += value;
  } else {
    for (char c : value) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
  }
  out += '"';
}

}  // namespace

std::string TextArray(const std::vector<std::string>& values) {
  std::size_t size = 2;
  for (const std::string& value : values) size += value.size() + 3;
  std::string out;
  out.reserve(size);
  out += '{';
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    AppendQuoted(values[i], out);
  }
  out += '}';
  return out;
}

std::string TextArray(const std::vector<std::optional<std::string>>& values) {
  std::string out = "{";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    if (values[i].has_value()) {
      AppendQuoted(*values[i], out);
    } else {
      out += "NULL";
    }
  }
  out += '}';
  return out;
}

std::string IntArray(const std::vector<std::optional<int64_t>>& values) {
  std::string out = "{";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    if (values[i].has_value()) {
      absl::StrAppend(&out, *values[i]);
    } else {
      out += "NULL";
    }
  }
  out += '}';
  return out;
}

}  // namespace arbiter::store::pg
