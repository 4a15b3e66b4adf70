// Streaming reads of a stored game: its events in bounded batches, decoded,
// checked and fed to the referee one at a time, never the whole game in
// memory. Used by AdjudicateGame (on a cache miss), GetGameState and
// VerifyGame; game_loader.h's LoadGame still loads whole games for writers.
//
// What a read covers: OpenGame reads the game's row, its first kStreamBatch
// events and its last stored event in one statement (EventStore::
// ReadGameHead, one snapshot). The read then covers events 1 through that
// last event, and nothing after it: appends are atomic and sequences have no
// gaps, so the later batches (EventStore::ReadGameEvents, kStreamBatch at a
// time, each after the last sequence seen) fill in exactly that prefix, and
// events appended meanwhile come after it. Answers are therefore those of
// one consistent prefix, the one the permission check saw.
//
// What is kept: event 1's creation, the revealed seed (found ahead of the
// stream with EventStore::FindGameEvent when it is not in the first batch),
// the first and last stored events (for the chained record) and the
// referee's position; at most two batches (the first, the current one).
// Pure functions over an EventStore (which is thread-safe).
#ifndef ARBITER_SERVICES_GAMES_GAME_STREAM_H_
#define ARBITER_SERVICES_GAMES_GAME_STREAM_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "arbiter/v1/arbiter_service.pb.h"
#include "engine/core/ruleset_registry.h"
#include "services/replay/referee.h"
#include "services/games/game_loader.h"
#include "services/store/event_store.h"
#include "services/store/result_index.h"

namespace arbiter::games {

// Events per read: the first batch comes with the row, the others one
// prepared query each.
inline constexpr int kStreamBatch = 1000;

// A game as OpenGame found it: what the permission checks need, and where
// its events start and end.
struct OpenedGame {
  store::GameRecord row;     // the games row, as read with the events
  // The row as the chain states it (chained_game.h RecordFromChain); the row
  // itself for a game without events.
  store::GameRecord record;
  // DataLoss if event 1 does not decode or is not the game's creation (the
  // error ChainedRecord gives): `record` is then the row.
  absl::Status creation;
  v1::GameCreated created;
  int batch = kStreamBatch;  // events per read
  std::vector<store::StoredEvent> first_events;  // up to `batch`, from event 1
  std::optional<store::StoredEvent> last;  // the last event the read covers
};

// One statement: the row, the first batch and the last event; `batch`
// (1..10000) events per read from here on (tests use small ones). NotFound
// for an unknown game; Unavailable if the store cannot be reached. A bad
// event 1 is reported in `creation`, not here.
absl::StatusOr<OpenedGame> OpenGame(store::EventStore& store, const std::string& game_id,
                                    int batch = kStreamBatch);

// Called by JudgeStored with each action event and the referee in the
// position before it, just before the referee judges it (the words of
// ListEvents, event_words.h).
using BeforeAction = std::function<void(const v1::Event& event, const replay::Referee& referee)>;

// Streams the game's events through event `until` (0: all) into the
// referee, stopping at the first illegal action or at `until`, as
// game_loader.h's Judge does for a loaded game. Errors: FailedPrecondition if
// the game has no events (its creation was interrupted) or its seed is
// still hidden; DataLoss (`game.creation`, an event that does not decode, a
// reveal that does not open the commitment, an event that cannot be
// replayed); the cancel check's status. Events after the referee stops are
// not read, so a damaged event there goes unnoticed (VerifyGame finds it).
absl::StatusOr<replay::Referee> JudgeStored(store::EventStore& store,
                                            const engine::RulesetRegistry& registry,
                                            const OpenedGame& game, int64_t until,
                                            const CancelCheck& cancel,
                                            const BeforeAction& before_action = nullptr);

// VerifyGame's check of an opened game, streamed: the hash chain, that the
// row's last_sequence and last_hash match it, that every event decodes
// (every seed_revealed opening event 1's commitment), and a replay. The
// first failure is reported (intact = false, first_bad_event, problem) in
// that order of precedence, as VerifyStoredGame always has. Errors only for
// an unreachable store or a cancelled call. The row-against-chain check of
// the other columns (chained_game.h VerifyRowAgainstChain) is the caller's.
// `result_index` is the store's: its rows of the game's results are compared
// with the result events.
absl::StatusOr<v1::VerifyGameResponse> VerifyOpenedGame(store::EventStore& store,
                                                        store::ResultIndex& result_index,
                                                        const engine::RulesetRegistry& registry,
                                                        const OpenedGame& game,
                                                        const CancelCheck& cancel);

}  // namespace arbiter::games

#endif  // ARBITER_SERVICES_GAMES_GAME_STREAM_H_
