#include "services/games/game_views.h"

#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "services/common/proto_time.h"
#include "services/common/resource_names.h"
#include "services/common/status_details.h"

namespace arbiter::games {

v1::Verdict ToVerdict(replay::Verdict verdict) {
  switch (verdict) {
    case replay::Verdict::kLegal:
      return v1::VERDICT_LEGAL;
    case replay::Verdict::kIllegal:
      return v1::VERDICT_ILLEGAL;
    case replay::Verdict::kUnfinished:
      return v1::VERDICT_UNFINISHED;
  }
  return v1::VERDICT_UNSPECIFIED;
}

v1::Adjudication ToAdjudication(const std::string& game_id, const replay::Referee& referee,
                                int64_t last_event) {
  v1::Adjudication out;
  out.set_game(common::NameOf(common::IdKind::kGame, game_id));
  out.set_verdict(ToVerdict(referee.verdict()));
  out.set_actions(referee.actions_applied() + (referee.violation().has_value() ? 1 : 0));
  if (const auto& violation = referee.violation()) {
    v1::RuleViolation* v = out.mutable_violation();
    v->set_event(violation->event);
    v->set_rule(violation->violation.rule);
    v->set_detail(violation->violation.detail);
    v->set_player(violation->player);
    v->set_action_text(violation->action_text);
  }
  if (std::optional<v1::Standings> standings = referee.Standings()) {
    *out.mutable_standings() = *std::move(standings);
  }
  out.set_last_event(last_event);
  return out;
}

v1::GameStatus ToStatus(store::GameStatus status) {
  switch (status) {
    case store::GameStatus::kActive:
      return v1::GAME_STATUS_ACTIVE;
    case store::GameStatus::kFinished:
      return v1::GAME_STATUS_FINISHED;
    case store::GameStatus::kVoided:
      return v1::GAME_STATUS_VOIDED;
    case store::GameStatus::kUnspecified:
      break;
  }
  return v1::GAME_STATUS_UNSPECIFIED;
}

v1::Game ToGame(const store::GameRecord& record, const v1::GameCreated* created, bool show_seed) {
  v1::Game game;
  game.set_name(common::NameOf(common::IdKind::kGame, record.game_id));
  game.set_game_type(record.game);
  game.set_ruleset_id(record.ruleset_id);
  game.set_ruleset_hash(record.ruleset_hash);
  if (created != nullptr) {
    *game.mutable_players() = created->header().players();
    game.mutable_options()->insert(created->header().options().begin(),
                                   created->header().options().end());
    if (created->has_reveal_deadline()) {
      *game.mutable_reveal_deadline() = created->reveal_deadline();
    }
    game.set_server_random(created->server_random());
    game.set_duplicate_of(created->duplicate_of());
    game.set_deal(created->dealt());
    game.set_spectators(created->spectators());
  } else {
    for (const std::string& id : record.players) game.add_players()->set_id(id);
  }
  if (record.seed.has_value()) {
    if (show_seed) game.set_seed(*record.seed);
  } else {
    game.set_seed_commitment(record.seed_commitment);
  }
  game.set_status(ToStatus(record.status));
  game.set_league(record.league_id);
  game.set_tournament(record.tournament_id);
  game.set_creator(record.created_by);
  *game.mutable_create_time() = common::PreciseTimestampOf(record.created_at);
  game.set_last_event(record.last_sequence);
  game.set_last_event_hash(record.last_hash);
  return game;
}

v1::GameState ToGameState(const std::string& game_id, const replay::Referee& referee,
                          int64_t event, const engine::Viewer& viewer) {
  v1::GameState out;
  out.set_game(common::NameOf(common::IdKind::kGame, game_id));
  out.set_event(event);
  out.set_description(referee.state().DescribeFor(viewer));
  *out.mutable_view() = referee.state().ViewFor(viewer);
  if (!referee.violation().has_value()) {
    for (engine::Seat seat : referee.state().SeatsToAct()) {
      out.add_players_to_act(referee.PlayerAt(seat));
    }
  }
  out.set_terminal(referee.state().IsTerminal());
  const v1::Adjudication adjudication = ToAdjudication(game_id, referee, event);
  out.set_verdict(adjudication.verdict());
  if (adjudication.has_violation()) {
    *out.mutable_violation() = adjudication.violation();
    if (!viewer.is_everyone()) {
      out.mutable_violation()->set_detail(
          "withheld while the game is live: the detail may describe hidden cards (admins and "
          "auditors see it)");
    }
  }
  if (adjudication.has_standings()) *out.mutable_standings() = adjudication.standings();
  return out;
}

absl::StatusOr<v1::ListLegalActionsResponse> ToLegalActions(const std::string& game_id,
                                                           const replay::Referee& referee,
                                                           int64_t last_event,
                                                           const std::string& player) {
  const engine::Seat seat = referee.SeatOf(player);
  if (seat < 0) {
    return common::FieldError(
        "player", absl::StrCat("game \"", game_id, "\" seats no player \"", player, "\""));
  }
  v1::ListLegalActionsResponse out;
  out.set_game(common::NameOf(common::IdKind::kGame, game_id));
  out.set_player(player);
  out.set_last_event(last_event);
  out.set_terminal(referee.state().IsTerminal() || referee.violation().has_value());
  if (out.terminal()) return out;
  for (engine::Seat s : referee.state().SeatsToAct()) out.add_players_to_act(referee.PlayerAt(s));
  for (engine::LabelledMove& move : referee.state().LegalActionsFor(seat)) {
    v1::LegalAction* legal = out.add_actions();
    *legal->mutable_action() = std::move(move.action);
    legal->mutable_action()->set_player(player);
    legal->set_group(std::move(move.group));
    legal->set_label(std::move(move.label));
  }
  return out;
}

}  // namespace arbiter::games

