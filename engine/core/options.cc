// Game options (GameSetup::options) checked against a game's OptionSpecs, and
// the players' names a new state uses in its sentences.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/core/game.h"

namespace arbiter::engine {

absl::StatusOr<std::map<std::string, std::string>> ResolveOptions(std::string_view game,
                                                                  const std::vector<OptionSpec>& specs,
                                                                  const std::map<std::string, std::string>& given) {
  std::map<std::string, std::string> resolved;
  for (const OptionSpec& spec : specs) resolved[spec.key] = spec.values.front().value;
  for (const auto& [key, value] : given) {
    const OptionSpec* spec = nullptr;
    for (const OptionSpec& s : specs) {
      if (s.key == key) spec = &s;
    }
    if (spec == nullptr) {
      std::vector<std::string> keys;
      for (const OptionSpec& s : specs) keys.push_back(s.key);
      return absl::InvalidArgumentError(absl::StrCat(
          "unknown ", std::string(game), " option '", key, "'; ",
          keys.empty() ? std::string("the game has no options") : absl::StrCat("the options are ", absl::StrJoin(keys, ", "))));
    }
    std::vector<std::string> values;
    for (const OptionValue& v : spec->values) values.push_back(v.value);
    if (std::find(values.begin(), values.end(), value) == values.end()) {
      return absl::InvalidArgumentError(absl::StrCat("option ", key, ": '", value, "' is not one of ",
                                                     absl::StrJoin(values, ", ")));
    }
    resolved[key] = value;
  }
  return resolved;
}

std::shared_ptr<const Players> PlayersOf(const GameSetup& setup) {
  return std::make_shared<const Players>(setup.players);
}

}  // namespace arbiter::engine
