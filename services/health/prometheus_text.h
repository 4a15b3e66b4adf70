// PrometheusText: writes Prometheus' text exposition format, version 0.0.4
// (prometheus.io/docs/instrumenting/exposition_formats): for each metric
// family a "# HELP" and a "# TYPE" line, then its samples, one a line:
//   name{label="value",...} value
// Names match [a-zA-Z_:][a-zA-Z0-9_:]*, label names [a-zA-Z_][a-zA-Z0-9_]*
// (our own constants: checked with assert). In label values \, " and
// newline are escaped as \\, \" and \n; in HELP text \ and newline. Whole
// numbers are written in full (a store position of 12345678 stays exact),
// others as the shortest text that reads back as the same double. Not
// thread-safe.
#ifndef ARBITER_SERVICES_HEALTH_PROMETHEUS_TEXT_H_
#define ARBITER_SERVICES_HEALTH_PROMETHEUS_TEXT_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"

namespace arbiter::health {

class PrometheusText {
 public:
  // The Content-Type of the text.
  static constexpr char kContentType[] = "text/plain; version=0.0.4; charset=utf-8";

  using Labels = std::vector<std::pair<std::string, std::string>>;

  // Starts a family of gauges (counters, histograms); its samples follow.
  void Gauge(absl::string_view name, absl::string_view help);
  void Counter(absl::string_view name, absl::string_view help);
  void Histogram(absl::string_view name, absl::string_view help);
  // A sample of the family last started.
  void Sample(int64_t value, const Labels& labels = {});
  void Sample(double value, const Labels& labels = {});
  void Sample(bool value, const Labels& labels = {}) { Sample(int64_t{value ? 1 : 0}, labels); }
  // A histogram's samples: the family's name with `suffix` ("_bucket",
  // "_sum", "_count").
  void SuffixedSample(absl::string_view suffix, int64_t value, const Labels& labels = {});
  void SuffixedSample(absl::string_view suffix, double value, const Labels& labels = {});

  const std::string& text() const { return text_; }

 private:
  void Family(absl::string_view name, absl::string_view help, absl::string_view type);
  void Line(absl::string_view value, const Labels& labels, absl::string_view suffix = "");
  static std::string Number(double value);

  std::string family_;
  std::string text_;
};

}  // namespace arbiter::health

#endif  // ARBITER_SERVICES_HEALTH_PROMETHEUS_TEXT_H_
