// The parameter table of every rating system: names, meanings, ranges and
// where each value lives in RatingConfig. config.cc builds MakeConfig,
// Parameters and CanonicalText on it, so the three always agree.
#ifndef ARBITER_ENGINE_RATING_INTERNAL_PARAMETERS_H_
#define ARBITER_ENGINE_RATING_INTERNAL_PARAMETERS_H_

#include <span>
#include <string>
#include <string_view>

#include "engine/rating/rating.h"

namespace arbiter::engine::rating::internal {

struct ParamSpec {
  enum class Kind {
    kReal,   // a finite double in range
    kFlag,   // 0 or 1 (also "true" / "false")
    kCount,  // a whole number >= 0
  };
  std::string_view name;   // stored in league settings: never rename
  std::string_view meaning;
  Kind kind;
  double low;              // smallest allowed value (-infinity: none)
  bool low_open;           // true: value must be > low; false: >= low
  double high;             // largest allowed value, inclusive (+infinity: none)
  double (*get)(const RatingConfig&);
  void (*set)(RatingConfig&, double);
};

// The parameters of `system` in canonical order.
std::span<const ParamSpec> ParamSpecs(System system);

// "> 0", ">= 0", "in (0, 1]", "0 or 1", "a whole number >= 0", "any finite number".
std::string RangeText(const ParamSpec& spec);

}  // namespace arbiter::engine::rating::internal

#endif  // ARBITER_ENGINE_RATING_INTERNAL_PARAMETERS_H_
