#include "tests/services/health/prometheus_parse.h"

#include <cmath>
#include <cstdlib>
#include <set>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace arbiter::health::testing {
namespace {

bool IsName(const std::string& name, bool colons) {
  if (name.empty() || absl::ascii_isdigit(name[0])) return false;
  for (char c : name) {
    if (!absl::ascii_isalnum(c) && c != '_' && !(colons && c == ':')) return false;
  }
  return true;
}

bool ParseValue(const std::string& text, double* value) {
  if (text == "NaN" || text == "+Inf" || text == "-Inf") {
    *value = text == "NaN" ? std::nan("") : text == "+Inf" ? HUGE_VAL : -HUGE_VAL;
    return true;
  }
  if (text.empty()) return false;
  char* end = nullptr;
  *value = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size();
}

// Reads `{name="value",...}` from line[*i]; false if malformed.
bool ParseLabels(const std::string& line, std::size_t* i,
                 std::map<std::string, std::string>* labels) {
  ++*i;  // '{'
  while (*i < line.size() && line[*i] != '}') {
    const std::size_t eq = line.find('=', *i);
    if (eq == std::string::npos) return false;
    const std::string name = line.substr(*i, eq - *i);
    if (!IsName(name, false) || labels->count(name) > 0) return false;
    if (eq + 1 >= line.size() || line[eq + 1] != '"') return false;
    std::string value;
    std::size_t j = eq + 2;
    for (; j < line.size() && line[j] != '"'; ++j) {
      if (line[j] != '\\') {
        value += line[j];
        continue;
      }
      if (++j >= line.size()) return false;
      if (line[j] == 'n') value += '\n';
      else if (line[j] == '\\' || line[j] == '"') value += line[j];
      else return false;
    }
    if (j >= line.size()) return false;
    (*labels)[name] = value;
    *i = j + 1;
    if (*i < line.size() && line[*i] == ',') ++*i;
  }
  if (*i >= line.size()) return false;
  ++*i;  // '}'
  return true;
}

absl::Status Bad(int number, const std::string& line, const std::string& why) {
  return absl::InvalidArgumentError(absl::StrCat("line ", number, " \"", line, "\": ", why));
}

}  // namespace

std::optional<double> PromText::Value(const std::string& name,
                                      const std::map<std::string, std::string>& labels) const {
  for (const PromSample& sample : samples) {
    if (sample.name == name && sample.labels == labels) return sample.value;
  }
  return std::nullopt;
}

absl::StatusOr<PromText> ParsePrometheusText(const std::string& text) {
  PromText out;
  if (!text.empty() && text.back() != '\n') return Bad(0, "", "the text does not end in a newline");
  std::set<std::string> finished;  // families whose samples are over
  std::string current;
  int number = 0;
  const std::vector<std::string> lines = absl::StrSplit(text, '\n', absl::SkipEmpty());
  for (const std::string& line : lines) {
    ++number;
    if (line[0] == '#') {
      std::vector<std::string> parts = absl::StrSplit(line, absl::MaxSplits(' ', 3));
      if (parts.size() < 3 || (parts[1] != "HELP" && parts[1] != "TYPE")) continue;  // a comment
      const std::string& name = parts[2];
      if (!IsName(name, true)) return Bad(number, line, "bad metric name");
      const std::string rest = parts.size() > 3 ? parts[3] : "";
      if (parts[1] == "TYPE") {
        static const std::set<std::string> kTypes = {"counter", "gauge", "histogram", "summary",
                                                     "untyped"};
        if (kTypes.count(rest) == 0) return Bad(number, line, "unknown type");
        if (out.types.count(name) > 0) return Bad(number, line, "a second TYPE");
        for (const PromSample& s : out.samples) {
          if (s.name == name) return Bad(number, line, "TYPE after the family's samples");
        }
        out.types[name] = rest;
      } else {
        if (out.helps.count(name) > 0) return Bad(number, line, "a second HELP");
        std::string help;
        for (std::size_t i = 0; i < rest.size(); ++i) {
          if (rest[i] != '\\') {
            help += rest[i];
          } else if (i + 1 < rest.size() && (rest[i + 1] == 'n' || rest[i + 1] == '\\')) {
            help += rest[++i] == 'n' ? '\n' : '\\';
          } else {
            return Bad(number, line, "bad escape in HELP");
          }
        }
        out.helps[name] = help;
      }
      continue;
    }
    PromSample sample;
    std::size_t i = 0;
    while (i < line.size() && line[i] != '{' && line[i] != ' ') ++i;
    sample.name = line.substr(0, i);
    if (!IsName(sample.name, true)) return Bad(number, line, "bad metric name");
    if (i < line.size() && line[i] == '{' && !ParseLabels(line, &i, &sample.labels)) {
      return Bad(number, line, "bad labels");
    }
    if (i >= line.size() || line[i] != ' ') return Bad(number, line, "no value");
    std::vector<std::string> rest = absl::StrSplit(line.substr(i + 1), ' ');
    if (rest.empty() || rest.size() > 2 || !ParseValue(rest[0], &sample.value)) {
      return Bad(number, line, "bad value");
    }
    if (sample.name != current) {
      if (finished.count(sample.name) > 0) return Bad(number, line, "the family's samples are apart");
      if (!current.empty()) finished.insert(current);
      current = sample.name;
    }
    for (const PromSample& s : out.samples) {
      if (s.name == sample.name && s.labels == sample.labels) return Bad(number, line, "a repeated sample");
    }
    out.samples.push_back(std::move(sample));
  }
  return out;
}

}  // namespace arbiter::health::testing
