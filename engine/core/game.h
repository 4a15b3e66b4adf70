// Game: the factory and metadata of one implemented game, and the registry of
// all of them.
//
// Games are listed explicitly in engine/games.cc (no static registration, so
// nothing is lost by the linker). A Game is immutable and thread-safe.
#ifndef ARBITER_ENGINE_CORE_GAME_H_
#define ARBITER_ENGINE_CORE_GAME_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "arbiter/v1/action.pb.h"
#include "arbiter/v1/ruleset.pb.h"
#include "engine/core/players.h"
#include "engine/core/state.h"

namespace arbiter::engine {

// Everything a new game depends on besides the actions.
struct GameSetup {
  // Validated ruleset of this game; must outlive the states made from it.
  const v1::Ruleset* ruleset = nullptr;
  uint64_t seed = 0;
  int num_players = 0;
  // Variant switches from the log header; a game refuses unknown keys.
  std::map<std::string, std::string> options;
  // The header's players in seat order, for the names in violation details;
  // may be empty (sentences then say "seat 2").
  std::vector<PlayerName> players;
};

// A variant switch a game accepts in the log header's `options`.
struct OptionValue {
  std::string value;    // "tiles_or_cards"
  std::string meaning;  // for people, citing the rulebook reading it follows
};
struct OptionSpec {
  std::string key;  // "toll_payment"
  std::string meaning;
  std::vector<OptionValue> values;  // the first is the default
};

class Game {
 public:
  virtual ~Game() = default;

  // Registered name used in logs and on the command line: "atlantis".
  virtual std::string_view name() const = 0;
  // Name for people: "Atlantis (Colovini, Amigo 2009)".
  virtual std::string_view title() const = 0;
  // Whether the players win or lose together (the standings then carry a
  // team outcome and no places).
  virtual bool cooperative() const { return false; }
  // Which member of v1::Action's oneof this game's actions use.
  virtual v1::Action::GameCase action_case() const = 0;
  // Which member of v1::Ruleset's oneof this game's data uses.
  virtual v1::Ruleset::DataCase ruleset_case() const = 0;
  // Texts (protobuf text format) of the rulesets compiled into the binary;
  // the first is the default.
  virtual std::vector<std::string_view> BuiltinRulesets() const = 0;

  // OK, or InvalidArgument naming the field that is out of range.
  virtual absl::Status ValidateRuleset(const v1::Ruleset& ruleset) const = 0;
  // Smallest and largest player count the ruleset allows.
  virtual int MinPlayers(const v1::Ruleset& ruleset) const = 0;
  virtual int MaxPlayers(const v1::Ruleset& ruleset) const = 0;

  // OK if every field of `action` lies in its domain for this game and
  // ruleset (enums set, numbers in range, lists not absurdly long);
  // otherwise InvalidArgument naming the field. This is the difference
  // between a malformed log line and an illegal move: an action that passes
  // here is then judged by State::Check.
  virtual absl::Status CheckShape(const v1::Action& action,
                                  const v1::Ruleset& ruleset) const = 0;

  // The action as the other seats see it while the game is live: what it
  // lays open on the table. Most actions are wholly open (the default: the
  // action itself); an Atlantis Rising Keep names cards only its player
  // sees. Readers who may not see the player's hand get this part only
  // (services/games/game_events.h, HideHand).
  virtual v1::Action OpenPart(const v1::Action& action) const { return action; }

  // Every option NewInitialState accepts with `ruleset` (some games take the
  // values from it), with its values; the first value of each is the default.
  // Empty for a game without options.
  virtual std::vector<OptionSpec> Options(const v1::Ruleset& /*ruleset*/) const { return {}; }

  // The position before the first action. InvalidArgument for a player count
  // outside the ruleset's range or an unknown or malformed option.
  virtual absl::StatusOr<std::unique_ptr<State>> NewInitialState(
      const GameSetup& setup) const = 0;
};

// Every implemented game, in a stable order.
const std::vector<const Game*>& AllGames();

// The game registered under `name`, or nullptr.
const Game* FindGame(std::string_view name);

// "atlantis, atlantica, atlantis-rising", for error messages.
std::string GameNames();

// `given` checked against `specs` and completed with the defaults: every key
// of `specs` maps to a value. InvalidArgument naming the key or value for an
// unknown key or a value the option does not have.
absl::StatusOr<std::map<std::string, std::string>> ResolveOptions(std::string_view game,
                                                                  const std::vector<OptionSpec>& specs,
                                                                  const std::map<std::string, std::string>& given);

// Names and possessives for the sentences of a state made from `setup`.
std::shared_ptr<const Players> PlayersOf(const GameSetup& setup);

}  // namespace arbiter::engine

#endif  // ARBITER_ENGINE_CORE_GAME_H_
