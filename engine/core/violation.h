// Violation: why an action is illegal, as data.
//
// `rule` is a stable snake_case id that is part of the API and the CLI's JSON
// output ("not_your_turn", "toll_not_covered"); never rename one that has
// shipped. `detail` is a sentence for a person that names the cards, tiles or
// places involved.
#ifndef ARBITER_ENGINE_CORE_VIOLATION_H_
#define ARBITER_ENGINE_CORE_VIOLATION_H_

#include <optional>
#include <string>

namespace arbiter::engine {

struct Violation {
  std::string rule;
  std::string detail;

  friend bool operator==(const Violation&, const Violation&) = default;
};

// Rule ids shared by every game.
inline constexpr char kRuleGameOver[] = "game_over";
inline constexpr char kRuleNotYourTurn[] = "not_your_turn";
inline constexpr char kRuleWrongGame[] = "wrong_game";
inline constexpr char kRuleEmptyAction[] = "empty_action";

inline std::optional<Violation> Illegal(std::string rule, std::string detail) {
  return Violation{std::move(rule), std::move(detail)};
}

}  // namespace arbiter::engine

#endif  // ARBITER_ENGINE_CORE_VIOLATION_H_
