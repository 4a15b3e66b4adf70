#include "services/health/prometheus_text.h"

#include <cassert>
#include <cmath>
#include <charconv>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace arbiter::health {
namespace {

[[maybe_unused]] bool IsName(absl::string_view name, bool colons) {
  if (name.empty() || absl::ascii_isdigit(name[0])) return false;
  for (char c : name) {
    if (!absl::ascii_isalnum(c) && c != '_' && !(colons && c == ':')) return false;
  }
  return true;
}

// `text` with \ and newline escaped, and " too if `quote`.
std::string Escaped(absl::string_view text, bool quote) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '"' && quote) {
      out += "\\\"";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

void PrometheusText::Gauge(absl::string_view name, absl::string_view help) {
  assert(IsName(name, true));
  family_ = std::string(name);
  absl::StrAppend(&text_, "# HELP ", name, " ", Escaped(help, false), "\n", "# TYPE ", name,
                  " gauge\n");
}

void PrometheusText::Sample(int64_t value, const Labels& labels) {
  Line(absl::StrCat(value), labels);
}

void PrometheusText::Sample(double value, const Labels& labels) {
  if (std::isnan(value)) return Line("NaN", labels);
  if (std::isinf(value)) return Line(value > 0 ? "+Inf" : "-Inf", labels);
  char buffer[32];  // the shortest text that reads back as `value`
  const std::to_chars_result end = std::to_chars(buffer, buffer + sizeof buffer, value);
  Line(absl::string_view(buffer, static_cast<std::size_t>(end.ptr - buffer)), labels);
}

void PrometheusText::Line(absl::string_view value, const Labels& labels) {
  assert(!family_.empty());
  absl::StrAppend(&text_, family_);
  for (std::size_t i = 0; i < labels.size(); ++i) {
    assert(IsName(labels[i].first, false));
    absl::StrAppend(&text_, i == 0 ? "{" : ",", labels[i].first, "=\"",
                    Escaped(labels[i].second, true), "\"");
  }
  absl::StrAppend(&text_, labels.empty() ? "" : "}", " ", value, "\n");
}

}  // namespace arbiter::health
