// A strict reader of Prometheus' text exposition format 0.0.4, written from
// the format's description (prometheus.io/docs/instrumenting/
// exposition_formats), for the tests of what arbiterd exports: it refuses
// what a Prometheus server would (bad names, bad escapes, a TYPE after its
// samples or twice, a family's samples apart, values that are not floats).
#ifndef ARBITER_TESTS_SERVICES_HEALTH_PROMETHEUS_PARSE_H_
#define ARBITER_TESTS_SERVICES_HEALTH_PROMETHEUS_PARSE_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace arbiter::health::testing {

struct PromSample {
  std::string name;
  std::map<std::string, std::string> labels;
  double value = 0;
};

struct PromText {
  std::map<std::string, std::string> types;  // name -> type
  std::map<std::string, std::string> helps;  // name -> help (unescaped)
  std::vector<PromSample> samples;

  // The value of the one sample of `name` with `labels`; nullopt if none.
  std::optional<double> Value(const std::string& name,
                              const std::map<std::string, std::string>& labels = {}) const;
};

// InvalidArgument naming the line and what is wrong with it.
absl::StatusOr<PromText> ParsePrometheusText(const std::string& text);

}  // namespace arbiter::health::testing

#endif  // ARBITER_TESTS_SERVICES_HEALTH_PROMETHEUS_PARSE_H_
