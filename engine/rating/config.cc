// System names, configs from NAME=VALUE pairs, their canonical text, and the
// per-player functions (initial rating, display rating, provisional rule).
#include <charconv>
#include <cmath>
#include <string>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/rating/internal/parameters.h"
#include "engine/rating/rating.h"

namespace arbiter::engine::rating {
namespace {

using internal::ParamSpec;

constexpr std::pair<System, std::string_view> kSystemNames[] = {
    {System::kPlackettLuce, "plackett-luce"},
    {System::kThurstoneMostellerFull, "thurstone-mosteller-full"},
    {System::kBradleyTerryFull, "bradley-terry-full"},
    {System::kGlicko2, "glicko2"},
    {System::kElo, "elo"},
};

// The shortest text that reads back as the same double.
std::string ShortestText(double value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, result.ptr);
}

absl::Status OutOfRange(System system, const ParamSpec& spec, std::string_view value) {
  return absl::InvalidArgumentError(absl::StrCat("rating parameter ", std::string(spec.name), "=", std::string(value), " of ",
                                                 std::string(SystemName(system)), " is out of range: it must be ",
                                                 internal::RangeText(spec)));
}

absl::StatusOr<double> ParseValue(System system, const ParamSpec& spec, std::string_view text) {
  if (spec.kind == ParamSpec::Kind::kFlag) {
    if (text == "1" || text == "true") return 1.0;
    if (text == "0" || text == "false") return 0.0;
    return OutOfRange(system, spec, text);
  }
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error == std::errc::invalid_argument || ptr != end) {
    return absl::InvalidArgumentError(absl::StrCat("rating parameter ", std::string(spec.name), "=", std::string(text), " of ",
                                                   std::string(SystemName(system)), " is not a number (it must be ",
                                                   internal::RangeText(spec), ")"));
  }
  if (error == std::errc::result_out_of_range || !std::isfinite(value)) {
    return OutOfRange(system, spec, text);
  }
  const bool above_low = spec.low_open ? value > spec.low : value >= spec.low;
  if (!above_low || value > spec.high) return OutOfRange(system, spec, text);
  if (spec.kind == ParamSpec::Kind::kCount && (value != std::floor(value) || value > 1e15)) {
    return OutOfRange(system, spec, text);
  }
  return value;
}

}  // namespace

std::string_view SystemName(System system) {
  for (const auto& [s, name] : kSystemNames) {
    if (s == system) return name;
  }
  return "unknown";
}

absl::StatusOr<System> ParseSystem(std::string_view name) {
  for (const auto& [system, system_name] : kSystemNames) {
    if (system_name == name) return system;
  }
  std::vector<std::string> names;
  for (const auto& entry : kSystemNames) names.emplace_back(entry.second);
  return absl::InvalidArgumentError(absl::StrCat("unknown rating system \"", std::string(name),
                                                 "\"; the systems are ", absl::StrJoin(names, ", ")));
}

bool IsOpenSkill(System system) {
  return system == System::kPlackettLuce || system == System::kThurstoneMostellerFull ||
         system == System::kBradleyTerryFull;
}

absl::StatusOr<RatingConfig> MakeConfig(System system,
                                        const std::vector<std::pair<std::string, std::string>>& params) {
  RatingConfig config;
  config.system = system;
  const auto specs = internal::ParamSpecs(system);
  std::vector<bool> seen(specs.size(), false);
  for (const auto& [name, text] : params) {
    std::size_t i = 0;
    while (i < specs.size() && specs[i].name != name) ++i;
    if (i == specs.size()) {
      std::vector<std::string> names;
      for (const ParamSpec& spec : specs) names.emplace_back(spec.name);
      return absl::InvalidArgumentError(absl::StrCat("unknown rating parameter \"", name, "\" for ",
                                                     std::string(SystemName(system)), "; its parameters are ",
                                                     absl::StrJoin(names, ", ")));
    }
    if (seen[i]) {
      return absl::InvalidArgumentError(
          absl::StrCat("rating parameter ", name, " is given twice (second value ", text, ")"));
    }
    seen[i] = true;
    const absl::StatusOr<double> value = ParseValue(system, specs[i], text);
    if (!value.ok()) return value.status();
    specs[i].set(config, *value);
  }
  return config;
}

std::vector<ParameterInfo> Parameters(System system) {
  RatingConfig defaults;
  defaults.system = system;
  std::vector<ParameterInfo> out;
  for (const ParamSpec& spec : internal::ParamSpecs(system)) {
    out.push_back({std::string(spec.name), spec.get(defaults),
                   absl::StrCat(std::string(spec.meaning), " (", internal::RangeText(spec), ")")});
  }
  return out;
}

std::string CanonicalText(const RatingConfig& config) {
  std::string text = absl::StrCat("system=", std::string(SystemName(config.system)));
  for (const ParamSpec& spec : internal::ParamSpecs(config.system)) {
    absl::StrAppend(&text, ",", std::string(spec.name), "=", ShortestText(spec.get(config)));
  }
  return text;
}

Rating InitialRating(const RatingConfig& config) {
  switch (config.system) {
    case System::kPlackettLuce:
    case System::kThurstoneMostellerFull:
    case System::kBradleyTerryFull:
      return {.mu = config.openskill.mu, .sigma = config.openskill.sigma};
    case System::kGlicko2:
      return {.mu = config.glicko2.rating, .sigma = config.glicko2.rd,
              .volatility = config.glicko2.volatility};
    case System::kElo:
      return {.mu = config.elo.rating};
  }
  return {};
}

double DisplayRating(const RatingConfig& config, const Rating& rating) {
  if (IsOpenSkill(config.system)) return rating.mu - config.openskill.z * rating.sigma;
  return rating.mu;
}

bool IsProvisional(const RatingConfig& config, const Rating& rating, int64_t games_played) {
  if (games_played < config.provisional_games) return true;
  if (IsOpenSkill(config.system)) return rating.sigma > config.openskill.provisional_sigma;
  if (config.system == System::kGlicko2) return rating.sigma > config.glicko2.provisional_sigma;
  return false;
}

}  // namespace arbiter::engine::rating
