#include "services/games/game_loader.h"

#include "services/common/resource_names.h"
#include "services/common/proto_time.h"

#include <google/protobuf/util/time_util.h>

#include "absl/strings/str_cat.h"
#include "services/games/chained_game.h"
#include "services/games/game_events.h"
#include "services/games/game_stream.h"

namespace arbiter::games {
namespace {

constexpr int kReadBatch = 10'000;
constexpr int64_t kCancelEvery = 512;

absl::StatusOr<std::vector<store::StoredEvent>> ReadAllEvents(store::EventStore& store,
                                                              const std::string& game_id,
                                                              const CancelCheck& cancel) {
  std::vector<store::StoredEvent> all;
  while (true) {
    const int64_t after = all.empty() ? 0 : all.back().sequence;
    absl::StatusOr<std::vector<store::StoredEvent>> batch =
        store.ReadGameEvents(game_id, after, kReadBatch);
    if (!batch.ok()) return batch.status();
    const bool last = static_cast<int>(batch->size()) < kReadBatch;
    for (store::StoredEvent& event : *batch) all.push_back(std::move(event));
    if (last) break;
    if (absl::Status status = cancel(); !status.ok()) return status;
  }
  return all;
}

absl::Status DecodeAll(LoadedGame& game) {
  for (const store::StoredEvent& stored : game.stored) {
    absl::StatusOr<v1::Event> event = DecodeEvent(stored);
    if (!event.ok()) return event.status();
    const bool first = game.events.empty();
    if (first != (event->type() == kTypeGameCreated)) {
      return absl::DataLossError(absl::StrCat("event ", stored.sequence, " of game \"",
                                              stored.game_id, "\" is a ", event->type(),
                                              first ? ", not the game's creation"
                                                    : " after the game's creation"));
    }
    if (first) game.created = event->game_created();
    if (event->has_seed_revealed()) {
      if (game.revealed.has_value()) {
        return absl::DataLossError(absl::StrCat("event ", stored.sequence, " of game \"",
                                                stored.game_id, "\" reveals a seed unexpectedly"));
      }
      if (absl::Status s = CheckReveal(stored.game_id, game.created, event->seed_revealed(),
                                       stored.sequence);
          !s.ok()) {
        return s;
      }
      game.revealed = event->seed_revealed();
    }
    game.events.push_back(*std::move(event));
  }
  if (!game.stored.empty()) {
    game.record = RecordFromChain(game.row, game.created, game.stored.front(), game.stored.back());
    game.seed = EngineSeed(game.record.game_id, game.created, game.revealed);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<LoadedGame> LoadGame(store::EventStore& store, const std::string& game_id,
                                    const CancelCheck& cancel) {
  absl::StatusOr<store::GameRecord> record = store.GetGame(game_id);
  if (!record.ok()) return record.status();
  return LoadGame(store, *std::move(record), cancel);
}

absl::StatusOr<LoadedGame> LoadGame(store::EventStore& store, store::GameRecord record,
                                    const CancelCheck& cancel) {
  const std::string game_id = record.game_id;
  LoadedGame game;
  game.row = std::move(record);
  game.record = game.row;
  absl::StatusOr<std::vector<store::StoredEvent>> stored = ReadAllEvents(store, game_id, cancel);
  if (!stored.ok()) return stored.status();
  if (!stored->empty() && stored->back().sequence != game.record.last_sequence) {
    // Written to since the row was read: read the row, then the events
    // again, so that the events are never behind the row (a writer checking
    // actions against them then finds the store ahead and is refused).
    absl::StatusOr<store::GameRecord> now = store.GetGame(game_id);
    if (!now.ok()) return now.status();
    game.row = *std::move(now);
    game.record = game.row;
    stored = ReadAllEvents(store, game_id, cancel);
    if (!stored.ok()) return stored.status();
  }
  if (stored->empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the creation of game \"", game_id,
        "\" was interrupted; repeat the creating request with the same request_id"));
  }
  game.stored = *std::move(stored);
  if (absl::Status status = DecodeAll(game); !status.ok()) return status;
  return game;
}

absl::StatusOr<std::string> CreatorTokenOf(store::EventStore& store, const std::string& game_id) {
  absl::StatusOr<std::vector<store::StoredEvent>> first = store.ReadGameEvents(game_id, 0, 1);
  if (!first.ok()) return first.status();
  if (first->empty()) return std::string();
  absl::StatusOr<v1::Event> created = DecodeEvent(first->front());
  if (!created.ok()) return created.status();
  return created->game_created().creator_token_id();
}

v1::LogHeader HeaderOf(const LoadedGame& game) {
  v1::LogHeader header = game.created.header();
  if (game.seed.has_value()) header.set_seed(*game.seed);
  return header;
}

absl::StatusOr<replay::Referee> Judge(const LoadedGame& game,
                                      const engine::RulesetRegistry& registry, int64_t until,
                                      const CancelCheck& cancel, int64_t* bad_event) {
  if (!game.seed.has_value()) {
    return absl::FailedPreconditionError(
        absl::StrCat("the seed of game \"", game.record.game_id,
                     "\" is still hidden behind its commitment; reveal it with RevealSeed first"));
  }
  absl::StatusOr<replay::Referee> referee = replay::Referee::Start(HeaderOf(game), registry);
  if (!referee.ok()) {
    if (bad_event != nullptr) *bad_event = 1;
    return absl::DataLossError(absl::StrCat("the stored header of game \"", game.record.game_id,
                                            "\" does not start a game: ",
                                            referee.status().message()));
  }
  for (const v1::Event& event : game.events) {
    if (until > 0 && event.event() > until) break;
    if (!event.has_action()) continue;
    if (event.event() % kCancelEvery == 0) {
      if (absl::Status status = cancel(); !status.ok()) return status;
    }
    auto judged = referee->Apply(event.action(), event.event());
    if (!judged.ok()) {
      if (bad_event != nullptr) *bad_event = event.event();
      return absl::DataLossError(absl::StrCat("stored event ", event.event(), " of game \"",
                                              game.record.game_id, "\" cannot be replayed: ",
                                              judged.status().message()));
    }
    if (judged->has_value()) break;
  }
  return referee;
}

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
                          int64_t event) {
  v1::GameState out;
  out.set_game(common::NameOf(common::IdKind::kGame, game_id));
  out.set_event(event);
  out.set_description(referee.state().ToString());
  *out.mutable_view() = referee.state().View();
  if (!referee.violation().has_value()) {
    for (engine::Seat seat : referee.state().SeatsToAct()) {
      out.add_players_to_act(referee.PlayerAt(seat));
    }
  }
  out.set_terminal(referee.state().IsTerminal());
  const v1::Adjudication adjudication = ToAdjudication(game_id, referee, event);
  out.set_verdict(adjudication.verdict());
  if (adjudication.has_violation()) *out.mutable_violation() = adjudication.violation();
  if (adjudication.has_standings()) *out.mutable_standings() = adjudication.standings();
  return out;
}

absl::StatusOr<v1::VerifyGameResponse> VerifyStoredGame(store::EventStore& store,
                                                        const engine::RulesetRegistry& registry,
                                                        const std::string& game_id,
                                                        const CancelCheck& cancel) {
  absl::StatusOr<OpenedGame> game = OpenGame(store, game_id);
  if (!game.ok()) return game.status();
  return VerifyOpenedGame(store, registry, *game, cancel);
}

}  // namespace arbiter::games
