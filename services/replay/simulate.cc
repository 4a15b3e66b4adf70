#include "services/replay/simulate.h"

#include "absl/strings/str_cat.h"
#include "engine/core/random_playout.h"
#include "services/replay/referee.h"

namespace arbiter::replay {

absl::StatusOr<log::GameLog> SimulateGame(const SimulationRequest& request,
                                          const engine::RulesetRegistry& registry) {
  const engine::RegisteredRuleset* ruleset =
      request.ruleset_id.empty() ? registry.DefaultFor(request.game) : registry.FindById(request.ruleset_id);
  if (ruleset == nullptr) {
    if (engine::FindGame(request.game) == nullptr) {
      return absl::NotFoundError(
          absl::StrCat("unknown game '", request.game, "'; known games: ", engine::GameNames()));
    }
    return absl::NotFoundError(absl::StrCat("no ruleset '", request.ruleset_id, "' is registered"));
  }
  log::GameLog log;
  v1::LogHeader& header = log.header;
  header.set_game(request.game);
  header.set_ruleset_id(ruleset->ruleset.id());
  header.set_ruleset_hash(ruleset->hash);
  header.set_seed(request.seed);
  for (int i = 1; i <= request.players; ++i) {
    v1::Player* player = header.add_players();
    player->set_id(absl::StrCat("p", i));
    player->set_name(absl::StrCat("Player ", i));
  }
  header.mutable_options()->insert(request.options.begin(), request.options.end());

  auto referee = Referee::Start(header, registry);
  if (!referee.ok()) return referee.status();
  std::unique_ptr<engine::State> state = referee->state().Clone();
  engine::Rng bot(request.seed ^ engine::kBotSeedSalt);
  auto moves = engine::RandomPlayout(*state, bot);
  if (!moves.ok()) return moves.status();
  log.actions.reserve(moves->size());
  for (engine::Move& move : *moves) {
    move.action.set_player(header.players(move.seat).id());
    log.actions.push_back(std::move(move.action));
  }
  return log;
}

}  // namespace arbiter::replay
