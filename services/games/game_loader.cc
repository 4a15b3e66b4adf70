#include "services/games/game_loader.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/core/status_macros.h"
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
    ARBITER_ASSIGN_OR_RETURN(std::vector<store::StoredEvent> batch,
                             store.ReadGameEvents(game_id, after, kReadBatch));
    const bool last = static_cast<int>(batch.size()) < kReadBatch;
    for (store::StoredEvent& event : batch) all.push_back(std::move(event));
    if (last) break;
    ARBITER_RETURN_IF_ERROR(cancel());
  }
  return all;
}

// The engine's seed of a loaded dealt game: from the revealed secret, or
// during play from the secret the store keeps. DataLoss if the deal is
// closed, unrevealed, and the store keeps no secret for it.
absl::StatusOr<std::optional<uint64_t>> DealtSeedOf(store::EventStore& store,
                                                    const LoadedGame& game) {
  const std::string& game_id = game.record.game_id;
  if (!game.deal.closed) return std::optional<uint64_t>();
  std::optional<std::string> kept;
  if (!game.deal.revealed_secret.has_value()) {
    ARBITER_ASSIGN_OR_RETURN(kept, store.DealerSecret(game_id));
    if (!kept.has_value()) {
      return absl::DataLossError(absl::StrCat("the dealer's secret of game \"", game_id,
                                              "\" is neither revealed nor kept by the store"));
    }
  }
  return DealtSeed(game_id, game.created, game.deal, kept);
}

absl::Status DecodeAll(store::EventStore& store, LoadedGame& game) {
  DealTracker deal(game.row.game_id);
  for (const store::StoredEvent& stored : game.stored) {
    ARBITER_ASSIGN_OR_RETURN(v1::Event event, DecodeEvent(stored));
    const bool first = game.events.empty();
    if (first != (event.type() == kTypeGameCreated)) {
      return absl::DataLossError(absl::StrCat("event ", stored.sequence, " of game \"",
                                              stored.game_id, "\" is a ", event.type(),
                                              first ? ", not the game's creation"
                                                    : " after the game's creation"));
    }
    if (first) game.created = event.game_created();
    if (event.has_seed_revealed()) {
      if (game.revealed.has_value()) {
        return absl::DataLossError(absl::StrCat("event ", stored.sequence, " of game \"",
                                                stored.game_id, "\" reveals a seed unexpectedly"));
      }
      ARBITER_RETURN_IF_ERROR(
          CheckReveal(stored.game_id, game.created, event.seed_revealed(), stored.sequence));
      game.revealed = event.seed_revealed();
    }
    ARBITER_RETURN_IF_ERROR(deal.Add(event));
    game.events.push_back(std::move(event));
  }
  if (!game.stored.empty()) {
    game.record = RecordFromChain(game.row, game.created, game.stored.front(), game.stored.back());
    game.deal = deal.deal();
    if (IsDealt(game.created)) {
      ARBITER_ASSIGN_OR_RETURN(game.seed, DealtSeedOf(store, game));
    } else {
      game.seed = EngineSeed(game.record.game_id, game.created, game.revealed);
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<LoadedGame> LoadGame(store::EventStore& store, const std::string& game_id,
                                    const CancelCheck& cancel) {
  ARBITER_ASSIGN_OR_RETURN(store::GameRecord record, store.GetGame(game_id));
  return LoadGame(store, std::move(record), cancel);
}

absl::StatusOr<LoadedGame> LoadGame(store::EventStore& store, store::GameRecord record,
                                    const CancelCheck& cancel) {
  const std::string game_id = record.game_id;
  LoadedGame game;
  game.row = std::move(record);
  game.record = game.row;
  ARBITER_ASSIGN_OR_RETURN(std::vector<store::StoredEvent> stored,
                           ReadAllEvents(store, game_id, cancel));
  if (!stored.empty() && stored.back().sequence != game.record.last_sequence) {
    // Written to since the row was read: read the row, then the events
    // again, so that the events are never behind the row (a writer checking
    // actions against them then finds the store ahead and is refused).
    ARBITER_ASSIGN_OR_RETURN(game.row, store.GetGame(game_id));
    game.record = game.row;
    ARBITER_ASSIGN_OR_RETURN(stored, ReadAllEvents(store, game_id, cancel));
  }
  if (stored.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the creation of game \"", game_id,
        "\" was interrupted; repeat the creating request with the same request_id"));
  }
  game.stored = std::move(stored);
  ARBITER_RETURN_IF_ERROR(DecodeAll(store, game));
  return game;
}

absl::StatusOr<std::string> CreatorTokenOf(store::EventStore& store, const std::string& game_id) {
  ARBITER_ASSIGN_OR_RETURN(const std::vector<store::StoredEvent> first,
                           store.ReadGameEvents(game_id, 0, 1));
  if (first.empty()) return std::string();
  ARBITER_ASSIGN_OR_RETURN(const v1::Event created, DecodeEvent(first.front()));
  return created.game_created().creator_token_id();
}

v1::LogHeader HeaderOf(const LoadedGame& game) {
  v1::LogHeader header = game.created.header();
  if (game.seed.has_value()) header.set_seed(*game.seed);
  return header;
}

absl::StatusOr<replay::Referee> Judge(const LoadedGame& game,
                                      const engine::RulesetRegistry& registry, int64_t until,
                                      const CancelCheck& cancel, int64_t* bad_event) {
  if (!game.seed.has_value() && IsDealt(game.created)) {
    return DealStillOpen(game.record.game_id, game.created, game.deal);
  }
  if (!game.seed.has_value()) {
    return absl::FailedPreconditionError(
        absl::StrCat("the seed of game \"", game.record.game_id,
                     "\" is still hidden behind its commitment: its creator must reveal it first"));
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
    if (event.event() % kCancelEvery == 0) ARBITER_RETURN_IF_ERROR(cancel());
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

absl::StatusOr<v1::VerifyGameResponse> VerifyStoredGame(store::EventStore& store,
                                                        store::ResultIndex& result_index,
                                                        const engine::RulesetRegistry& registry,
                                                        const std::string& game_id,
                                                        const CancelCheck& cancel) {
  ARBITER_ASSIGN_OR_RETURN(const OpenedGame game, OpenGame(store, game_id));
  return VerifyOpenedGame(store, result_index, registry, game, cancel);
}

}  // namespace arbiter::games
