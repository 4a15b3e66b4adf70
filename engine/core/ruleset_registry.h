// RulesetRegistry: the rulesets Arbiter knows, by id and by content hash.
//
// A ruleset is a protobuf text-format file (arbiter.v1.Ruleset). Its content
// hash is the SHA-256 of the file's exact bytes. Every game's built-in
// rulesets are registered by WithBuiltins(); a user may register more (a
// corrected print run) without rebuilding. Not thread-safe for Register();
// lookups on a registry that is no longer modified are safe from any thread.
#ifndef ARBITER_ENGINE_CORE_RULESET_REGISTRY_H_
#define ARBITER_ENGINE_CORE_RULESET_REGISTRY_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/ruleset.pb.h"
#include "engine/core/game.h"

namespace arbiter::engine {

struct RegisteredRuleset {
  v1::Ruleset ruleset;
  std::string hash;  // SHA-256 of `text`, lowercase hex
  std::string text;  // the file's exact bytes
  const Game* game = nullptr;
};

// Parses and validates a ruleset text. InvalidArgument with the line and
// column of a syntax error, or the field that is out of range; NotFound for
// an unknown game.
absl::StatusOr<RegisteredRuleset> ParseRuleset(std::string_view text);

class RulesetRegistry {
 public:
  RulesetRegistry() = default;
  RulesetRegistry(RulesetRegistry&&) = default;
  RulesetRegistry& operator=(RulesetRegistry&&) = default;

  // A registry holding every game's built-in rulesets. Fails only if a
  // built-in ruleset is broken (a bug caught by the tests).
  static absl::StatusOr<RulesetRegistry> WithBuiltins();

  // Parses, validates and adds a ruleset. Registering the same bytes twice
  // returns the first entry. AlreadyExists if another ruleset with the same id
  // but different bytes is registered; errors of ParseRuleset otherwise.
  absl::StatusOr<const RegisteredRuleset*> Register(std::string_view text);

  const RegisteredRuleset* FindByHash(std::string_view hash) const;
  const RegisteredRuleset* FindById(std::string_view id) const;
  // The first built-in ruleset of `game`, or nullptr.
  const RegisteredRuleset* DefaultFor(std::string_view game) const;

  // The ruleset a log header names. Errors say what is known instead:
  // InvalidArgument for a malformed hash, NotFound for an unknown hash, and
  // InvalidArgument if the id or game does not match the ruleset found.
  absl::StatusOr<const RegisteredRuleset*> Resolve(std::string_view game, std::string_view id,
                                                   std::string_view hash) const;

  std::vector<const RegisteredRuleset*> List() const;

 private:
  std::vector<std::unique_ptr<RegisteredRuleset>> rulesets_;
};

}  // namespace arbiter::engine

#endif  // ARBITER_ENGINE_CORE_RULESET_REGISTRY_H_
