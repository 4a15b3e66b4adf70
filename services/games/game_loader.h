// Reading a stored game back whole: its events decoded, replayed by the
// referee and judged. Writers and disputes use it; the reading RPCs stream
// instead (game_stream.h). The API's views of what is judged are in
// game_views.h.
// Pure functions over an EventStore (which is thread-safe).
#ifndef ARBITER_SERVICES_GAMES_GAME_LOADER_H_
#define ARBITER_SERVICES_GAMES_GAME_LOADER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/arbiter_service.pb.h"
#include "engine/core/ruleset_registry.h"
#include "services/games/cancel_check.h"
#include "services/games/dealt_game.h"
// For callers that view what they judge (ToAdjudication after Judge) and
// had the views from this header before they moved; new code includes
// game_views.h itself.
#include "services/games/game_views.h"
#include "services/replay/referee.h"
#include "services/store/event_store.h"
#include "services/store/result_index.h"

namespace arbiter::games {

// A game's row and decoded events.
struct LoadedGame {
  // The row as the chain states it (chained_game.h RecordFromChain): every
  // verdict input and the status come from the events.
  store::GameRecord record;
  // The games row as read (a cache; VerifyGame compares it with `record`).
  store::GameRecord row;
  std::vector<store::StoredEvent> stored;  // in order, from event 1
  std::vector<v1::Event> events;          // decoded, same order
  v1::GameCreated created;
  // The engine's seed, if known: given at creation, revealed, or (sealed
  // games) derived from the revealed seed.
  std::optional<uint64_t> seed;
  std::optional<v1::SeedRevealed> revealed;
  // Dealt games: the deal as the events state it (dealt_game.h).
  Deal deal;
};

// Reads and decodes the whole game. NotFound for an unknown game;
// FailedPrecondition if its creation was interrupted (no events yet: retry
// the creating request); DataLoss if an event does not decode or event 1 is
// not the creation.
absl::StatusOr<LoadedGame> LoadGame(store::EventStore& store, const std::string& game_id,
                                    const CancelCheck& cancel);
// The same for a game whose row the caller has just read: only its events
// are read (the row again only if the events went past it meanwhile).
absl::StatusOr<LoadedGame> LoadGame(store::EventStore& store, store::GameRecord record,
                                    const CancelCheck& cancel);

// The id of the token that created `game_id`, from its creation event
// (empty for games created before it was recorded, or whose creation was
// interrupted). DataLoss if event 1 does not decode.
absl::StatusOr<std::string> CreatorTokenOf(store::EventStore& store, const std::string& game_id);

// The game's header with the known seed filled in.
v1::LogHeader HeaderOf(const LoadedGame& game);

// Replays the game's actions through event `until` (0: all), stopping at the
// first illegal action. FailedPrecondition if the seed is still hidden;
// DataLoss if a stored event cannot be replayed (`bad_event`, when given,
// receives its number).
absl::StatusOr<replay::Referee> Judge(const LoadedGame& game,
                                      const engine::RulesetRegistry& registry, int64_t until,
                                      const CancelCheck& cancel, int64_t* bad_event = nullptr);

// Checks the hash chain, that the row's head matches it, that every event
// decodes (every seed_revealed opening event 1's commitment), and replays
// the game, streaming its events (game_stream.h VerifyOpenedGame). NotFound
// for an unknown game. `result_index` is the store's.
absl::StatusOr<v1::VerifyGameResponse> VerifyStoredGame(store::EventStore& store,
                                                        store::ResultIndex& result_index,
                                                        const engine::RulesetRegistry& registry,
                                                        const std::string& game_id,
                                                        const CancelCheck& cancel);

}  // namespace arbiter::games

#endif  // ARBITER_SERVICES_GAMES_GAME_LOADER_H_
