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

void PrometheusText::Family(absl::string_view name, absl::string_view help,
                            absl::string_view type) {
  assert(IsName(name, true));
  family_ = std::string(name);
  absl::StrAppend(&text_, "# HELP ", name, " ", Escaped(help, false), "\n", "# TYPE ", name,
                  " ", type, "\n");
}

void PrometheusText::Gauge(absl::string_view name, absl::string_view help) {
  Family(name, help, "gauge");
}

void PrometheusText::Counter(absl::string_view name, absl::string_view help) {
  Family(name, help, "counter");
}

void PrometheusText::Histogram(absl::string_view name, absl::string_view help) {
  Family(name, help, "histogram");
}

void PrometheusText::Sample(int64_t value, const Labels& labels) {
  Line(absl::StrCat(value), labels);
}

void PrometheusText::Sample(double value, const Labels& labels) { Line(Number(value), labels); }

void PrometheusText::SuffixedSample(absl::string_view suffix, int64_t value,
                                    const Labels& labels) {
  Line(absl::StrCat(value), labels, suffix);
}

void PrometheusText::SuffixedSample(absl::string_view suffix, double value,
                                    const Labels& labels) {
  Line(Number(value), labels, suffix);
}

std::string PrometheusText::Number(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  char buffer[32];  // the shortest text that reads back as `value`
  const std::to_chars_result end = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, static_cast<std::size_t>(end.ptr - buffer));
}

void PrometheusText::Line(absl::string_view value, const Labels& labels,
                          absl::string_view suffix) {
  assert(!family_.empty());
  assert(suffix.empty() || IsName(suffix, false));
  absl::StrAppend(&text_, family_, suffix);
  for (std::size_t i = 0; i < labels.size(); ++i) {
    assert(IsName(labels[i].first, false));
    absl::StrAppend(&text_, i == 0 ? "{" : ",", labels[i].first, "=\"",
                    Escaped(labels[i].second, true), "\"");
  }
  absl::StrAppend(&text_, labels.empty() ? "" : "}", " ", value, "\n");
}

}  // namespace arbiter::health
