// A game's verdict inputs as its hash chain states them. Event 1
// (GameCreated) fixes the seed or commitment, the players, the ruleset, the
// league and the tournament; the "seed_revealed", "game_finished" and
// "game_voided" events move it on. The games row only caches these
// (migration 0012 freezes the copy); replay, reveal, permission checks and
// adjudication read them from here, and VerifyGame compares the row with
// them.
//
// Seeds: a game created with a seed uses it; one created with a v1
// commitment uses the revealed seed; a sealed game (event 1 carries the
// server's random bytes and its commitment is v2, bound to the game id)
// uses the seed derived from the revealed seed, those bytes and the game id
// (engine/core/seed_derivation.h, docs/chance.md).
// Pure functions except ChainedRecord (reads the store); thread-safe.
#ifndef ARBITER_SERVICES_GAMES_CHAINED_GAME_H_
#define ARBITER_SERVICES_GAMES_CHAINED_GAME_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "arbiter/v1/arbiter_service.pb.h"
#include "services/store/event_store.h"

namespace arbiter::games {

// True if event 1 makes the game sealed (server randomness drawn).
bool IsSealed(const v1::GameCreated& created);

// The commitment `created` expects for (seed, nonce): v2 (bound to
// `game_id`) for a sealed game, v1 otherwise. InvalidArgument if the nonce
// is not 32-128 lowercase hex digits.
absl::StatusOr<std::string> ExpectedCommitment(const std::string& game_id,
                                               const v1::GameCreated& created, uint64_t seed,
                                               const std::string& nonce);

// The seed the engine uses once `revealed` is known (or, without a
// commitment, the header's seed). nullopt while the seed is hidden.
std::optional<uint64_t> EngineSeed(const std::string& game_id, const v1::GameCreated& created,
                                   const std::optional<v1::SeedRevealed>& revealed);

// DataLoss naming event `sequence` if `revealed` does not open the
// commitment of event 1 (a forged or misplaced reveal), or if the game has
// no commitment.
absl::Status CheckReveal(const std::string& game_id, const v1::GameCreated& created,
                         const v1::SeedRevealed& revealed, int64_t sequence);

// The game's status as its last event states it.
store::GameStatus StatusOfLastEvent(const std::string& type);

// `row` with every column the chain fixes replaced by the chain's value:
// game, ruleset, seed or commitment and players from event 1's header;
// league, tournament and spectators from event 1; created_by from event 1's recorder;
// status, last_sequence and last_hash from `last`. created_at and the
// request columns stay (the chain does not hold them).
store::GameRecord RecordFromChain(const store::GameRecord& row, const v1::GameCreated& created,
                                  const store::StoredEvent& first, const store::StoredEvent& last);

// The last stored event of the game whose row is `row` (read from the one
// before the row's head on, in case the row lags or was edited); nullopt for
// a game without events.
absl::StatusOr<std::optional<store::StoredEvent>> LastStoredEvent(store::EventStore& store,
                                                                  const store::GameRecord& row);

// The row of `game_id` as the chain states it, reading event 1 and the last
// events only (the permission checks' view). A game without events (its
// creation was interrupted) is answered with its row. NotFound for an
// unknown game; DataLoss if event 1 does not decode.
absl::StatusOr<store::GameRecord> ChainedRecord(store::EventStore& store,
                                                const std::string& game_id);

// ChainedRecord for a write: its "no such game" is said only once the
// primary confirms it (EventStore::ConfirmGameAbsent), because a server that
// a failover has just deposed still answers reads without the games created
// on its successor. A game the confirmation finds is read again; if this
// server still reads nothing, Unavailable (retry), in words that do not say
// whether the game exists (no permission has been checked yet).
absl::StatusOr<store::GameRecord> ConfirmedChainedRecord(store::EventStore& store,
                                                         const std::string& game_id);

// The first column (in the order of the table) where `row` disagrees with
// `chained` (RecordFromChain), and what differs; nullopt if none.
struct RowMismatch {
  std::string column;
  std::string problem;
};
std::optional<RowMismatch> CompareRow(const store::GameRecord& row,
                                      const store::GameRecord& chained);

// VerifyGame's check of the row against the chain: on a mismatch, `out`
// becomes not intact with `bad_column` and a problem naming the column.
// `row` is the games row as read, `chained` the record from the events.
void VerifyRowAgainstChain(const store::GameRecord& row, const store::GameRecord& chained,
                           v1::VerifyGameResponse& out);

}  // namespace arbiter::games

#endif  // ARBITER_SERVICES_GAMES_CHAINED_GAME_H_
