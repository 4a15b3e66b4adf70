#include "engine/core/ruleset_registry.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/core/sha256.h"
#include "engine/core/status_macros.h"

namespace arbiter::engine {
namespace {

// Keeps the first syntax error with its position.
class FirstErrorCollector : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string& message) override {
    if (error_.empty()) error_ = absl::StrCat("line ", line + 1, ", column ", column + 1, ": ", message);
  }
  const std::string& error() const { return error_; }

 private:
  std::string error_;
};

}  // namespace

absl::StatusOr<RegisteredRuleset> ParseRuleset(std::string_view text) {
  constexpr std::size_t kMaxRulesetBytes = 1 << 20;
  if (text.size() > kMaxRulesetBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("ruleset is ", text.size(), " bytes; the limit is ", kMaxRulesetBytes));
  }
  RegisteredRuleset entry;
  google::protobuf::TextFormat::Parser parser;
  FirstErrorCollector errors;
  parser.RecordErrorsTo(&errors);
  if (!parser.ParseFromString(std::string(text), &entry.ruleset)) {
    return absl::InvalidArgumentError(absl::StrCat("ruleset does not parse: ", errors.error()));
  }
  if (entry.ruleset.id().empty()) return absl::InvalidArgumentError("ruleset has no id");
  entry.game = FindGame(entry.ruleset.game());
  if (entry.game == nullptr) {
    return absl::NotFoundError(absl::StrCat("ruleset '", entry.ruleset.id(), "' is for unknown game '",
                                            entry.ruleset.game(), "'; known games: ", GameNames()));
  }
  if (entry.ruleset.data_case() != entry.game->ruleset_case()) {
    return absl::InvalidArgumentError(absl::StrCat("ruleset '", entry.ruleset.id(), "' is for game '",
                                                   entry.ruleset.game(), "' but its data is for another game"));
  }
  absl::Status valid = entry.game->ValidateRuleset(entry.ruleset);
  if (!valid.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("ruleset '", entry.ruleset.id(), "': ", valid.message()));
  }
  entry.text = std::string(text);
  entry.hash = Sha256Hex(text);
  return entry;
}

absl::StatusOr<RulesetRegistry> RulesetRegistry::WithBuiltins() {
  RulesetRegistry registry;
  for (const Game* game : AllGames()) {
    for (std::string_view text : game->BuiltinRulesets()) {
      auto registered = registry.Register(text);
      if (!registered.ok()) {
        return absl::InternalError(absl::StrCat("built-in ruleset of ", std::string(game->name()),
                                                " is broken: ", registered.status().message()));
      }
    }
  }
  return registry;
}

absl::StatusOr<const RegisteredRuleset*> RulesetRegistry::Register(std::string_view text) {
  ARBITER_ASSIGN_OR_RETURN(RegisteredRuleset parsed, ParseRuleset(text));
  if (const RegisteredRuleset* same = FindByHash(parsed.hash)) return same;
  if (const RegisteredRuleset* clash = FindById(parsed.ruleset.id())) {
    return absl::AlreadyExistsError(absl::StrCat("a different ruleset with id '", parsed.ruleset.id(),
                                                 "' is already registered (hash ", clash->hash,
                                                 "); give the new one its own id"));
  }
  rulesets_.push_back(std::make_unique<RegisteredRuleset>(std::move(parsed)));
  return rulesets_.back().get();
}

const RegisteredRuleset* RulesetRegistry::FindByHash(std::string_view hash) const {
  for (const auto& entry : rulesets_) {
    if (entry->hash == hash) return entry.get();
  }
  return nullptr;
}

const RegisteredRuleset* RulesetRegistry::FindById(std::string_view id) const {
  for (const auto& entry : rulesets_) {
    if (entry->ruleset.id() == id) return entry.get();
  }
  return nullptr;
}

const RegisteredRuleset* RulesetRegistry::DefaultFor(std::string_view game) const {
  for (const auto& entry : rulesets_) {
    if (entry->ruleset.game() == game) return entry.get();
  }
  return nullptr;
}

absl::StatusOr<const RegisteredRuleset*> RulesetRegistry::Resolve(std::string_view game,
                                                                  std::string_view id,
                                                                  std::string_view hash) const {
  if (!IsSha256Hex(hash)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "ruleset_hash '", std::string(hash.substr(0, 80)), "' is not a SHA-256 in lowercase hex (64 digits)"));
  }
  const RegisteredRuleset* entry = FindByHash(hash);
  if (entry == nullptr) {
    std::vector<std::string> known;
    for (const auto& r : rulesets_) {
      if (r->ruleset.game() == game) known.push_back(absl::StrCat(r->ruleset.id(), " (", r->hash, ")"));
    }
    return absl::NotFoundError(absl::StrCat(
        "no ruleset with hash ", std::string(hash), " is registered", known.empty() ? "" : "; known for ", std::string(game),
        known.empty() ? "" : ": ", absl::StrJoin(known, ", "),
        ". Register the ruleset file the game was played with (--ruleset FILE)"));
  }
  if (entry->ruleset.game() != game) {
    return absl::InvalidArgumentError(absl::StrCat("ruleset ", entry->ruleset.id(), " (hash ",
                                                   std::string(hash), ") is for game '",
                                                   entry->ruleset.game(), "', not '", std::string(game), "'"));
  }
  if (entry->ruleset.id() != id) {
    return absl::InvalidArgumentError(absl::StrCat("ruleset_id '", std::string(id), "' does not match hash ", std::string(hash),
                                                   ", which belongs to ruleset '",
                                                   entry->ruleset.id(), "'"));
  }
  return entry;
}

std::vector<const RegisteredRuleset*> RulesetRegistry::List() const {
  std::vector<const RegisteredRuleset*> list;
  for (const auto& entry : rulesets_) list.push_back(entry.get());
  return list;
}

}  // namespace arbiter::engine
