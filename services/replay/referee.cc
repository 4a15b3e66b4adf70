#include "services/replay/referee.h"

#include "services/common/resource_names.h"

#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace arbiter::replay {
namespace {

constexpr std::size_t kMaxPlayerNameBytes = 200;

absl::Status HeaderError(absl::StatusCode code, const std::string& message) {
  return absl::Status(code, absl::StrCat("line 1: ", message));
}

const char* GameCaseName(v1::Action::GameCase game_case) {
  switch (game_case) {
    case v1::Action::kAtlantis:
      return "atlantis";
    case v1::Action::kAtlantica:
      return "atlantica";
    case v1::Action::kAtlantisRising:
      return "atlantis-rising";
    case v1::Action::GAME_NOT_SET:
      break;
  }
  return "no game";
}

}  // namespace

const char* VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kLegal:
      return "legal";
    case Verdict::kIllegal:
      return "illegal";
    case Verdict::kUnfinished:
      return "unfinished";
  }
  return "unknown";
}

Referee Referee::Copy() const {
  Referee out;
  out.header_ = header_;
  out.game_ = game_;
  out.ruleset_ = ruleset_;
  out.state_ = state_->Clone();
  out.violation_ = violation_;
  out.actions_applied_ = actions_applied_;
  return out;
}

absl::StatusOr<Referee> Referee::Start(const v1::LogHeader& header,
                                       const engine::RulesetRegistry& registry) {
  Referee referee;
  referee.header_ = header;
  referee.game_ = engine::FindGame(header.game());
  if (referee.game_ == nullptr) {
    return HeaderError(absl::StatusCode::kNotFound,
                       absl::StrCat("unknown game '", header.game().substr(0, 64),
                                    "'; known games: ", engine::GameNames()));
  }
  if (header.ruleset_id().empty() || header.ruleset_hash().empty()) {
    const engine::RegisteredRuleset* fallback = registry.DefaultFor(header.game());
    return HeaderError(absl::StatusCode::kInvalidArgument,
                       absl::StrCat("the header must name ruleset_id and ruleset_hash",
                                    fallback == nullptr ? "" : "; the default ruleset is ",
                                    fallback == nullptr ? "" : fallback->ruleset.id(),
                                    fallback == nullptr ? "" : " with hash ",
                                    fallback == nullptr ? "" : fallback->hash));
  }
  auto ruleset = registry.Resolve(header.game(), header.ruleset_id(), header.ruleset_hash());
  if (!ruleset.ok()) {
    return HeaderError(ruleset.status().code(), std::string(ruleset.status().message()));
  }
  referee.ruleset_ = *ruleset;

  const v1::Ruleset& rules = referee.ruleset_->ruleset;
  const int count = header.players_size();
  const int min = referee.game_->MinPlayers(rules);
  const int max = referee.game_->MaxPlayers(rules);
  if (count < min || count > max) {
    return HeaderError(absl::StatusCode::kInvalidArgument,
                       absl::StrCat(header.game(), " is for ", min, "-", max, " players; the header lists ",
                                    count));
  }
  std::set<std::string> seen;
  for (int i = 0; i < count; ++i) {
    const v1::Player& player = header.players(i);
    if (!common::IsValidId(common::IdKind::kPlayer, player.id())) {
      return HeaderError(absl::StatusCode::kInvalidArgument,
                         absl::StrCat("players[", i, "].id '", player.id().substr(0, 80),
                                      "' must be 1-64 characters of A-Z a-z 0-9 _ . -"));
    }
    if (player.name().size() > kMaxPlayerNameBytes) {
      return HeaderError(absl::StatusCode::kInvalidArgument,
                         absl::StrCat("players[", i, "].name is longer than ", kMaxPlayerNameBytes, " bytes"));
    }
    if (!seen.insert(player.id()).second) {
      return HeaderError(absl::StatusCode::kInvalidArgument,
                         absl::StrCat("player id '", player.id(), "' appears twice"));
    }
  }

  engine::GameSetup setup;
  setup.ruleset = &rules;
  setup.seed = header.seed();
  setup.num_players = count;
  setup.options.insert(header.options().begin(), header.options().end());
  for (const v1::Player& player : header.players()) setup.players.push_back({player.id(), player.name()});
  auto state = referee.game_->NewInitialState(setup);
  if (!state.ok()) return HeaderError(state.status().code(), std::string(state.status().message()));
  referee.state_ = *std::move(state);
  return referee;
}

engine::Seat Referee::SeatOf(const std::string& player_id) const {
  for (int i = 0; i < header_.players_size(); ++i) {
    if (header_.players(i).id() == player_id) return i;
  }
  return -1;
}

std::string Referee::Label(const v1::Action& action) const {
  const engine::Seat seat = SeatOf(action.player());
  if (seat < 0 || action.game_case() != game_->action_case()) return "";
  return state_->Label(seat, action);
}

const std::string& Referee::PlayerAt(engine::Seat seat) const { return header_.players(seat).id(); }

absl::StatusOr<std::optional<engine::Violation>> Referee::Apply(const v1::Action& action, int64_t line) {
  if (violation_.has_value()) {
    return absl::FailedPreconditionError(absl::StrCat("line ", line, ": the game already broke a rule on line ",
                                                      violation_->event, "; no further action is judged"));
  }
  const engine::Seat seat = SeatOf(action.player());
  if (seat < 0) {
    std::vector<std::string> ids;
    for (const v1::Player& p : header_.players()) ids.push_back(p.id());
    return absl::InvalidArgumentError(absl::StrCat("line ", line, ": unknown player '",
                                                   action.player().substr(0, 80), "'; the players are ",
                                                   absl::StrJoin(ids, ", ")));
  }
  if (action.game_case() != game_->action_case()) {
    return absl::InvalidArgumentError(absl::StrCat("line ", line, ": the action is for ",
                                                   GameCaseName(action.game_case()), ", but this game is ",
                                                   std::string(game_->name())));
  }
  if (absl::Status shape = game_->CheckShape(action, ruleset_->ruleset); !shape.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("line ", line, ": ", shape.message()));
  }
  std::optional<engine::Violation> violation = state_->Apply(seat, action);
  if (violation.has_value()) {
    violation_ = EventViolation{line, action.player(), *violation, state_->Label(seat, action)};
    return violation;
  }
  ++actions_applied_;
  return std::nullopt;
}

Verdict Referee::verdict() const {
  if (violation_.has_value()) return Verdict::kIllegal;
  return state_->IsTerminal() ? Verdict::kLegal : Verdict::kUnfinished;
}

std::optional<v1::Standings> Referee::Standings() const {
  if (violation_.has_value()) return std::nullopt;
  std::optional<v1::Standings> standings = state_->Final();
  if (!standings.has_value()) return std::nullopt;
  for (v1::PlayerStanding& player : *standings->mutable_players()) {
    const int seat = player.seat() - 1;
    if (seat >= 0 && seat < header_.players_size()) player.set_player(header_.players(seat).id());
  }
  return standings;
}

}  // namespace arbiter::replay
