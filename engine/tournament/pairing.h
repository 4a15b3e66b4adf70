// Table assignment for a round: Swiss-style tables of the allowed sizes with
// repeated table-mates avoided as far as a deterministic local search can.
//
// AssignRound (docs/tournaments.md has the argument and the measure):
//   1. Order the players: round 1 by Rng(seed) shuffling registration order;
//      later rounds by the standings after the rounds so far.
//   2. Plan the tables (table_plan.h). Byes go to the lowest-ranked players
//      with the fewest byes so far.
//   3. Deal the order into the tables, table 1 first: players of similar
//      standing sit together.
//   4. Local search on the repeat measure (RepeatCount): swap one player of a
//      table holding a repeat with a player of a table at most W tables away,
//      taking, for each such player, the swap that lowers the measure most
//      (ties: the closest in standing, then the first table and seat); repeat
//      until no swap helps, then double W, until W covers every table. With
//      W covering every table (and fields up to 2,000 players), a pair of
//      swaps that lowers the measure together is taken when no single swap
//      does, and single swaps resume.
//   5. Seat each table: seat 1 to whoever has had it least, then whoever sat
//      furthest back last round, then standing.
//   6. Each table's game seed: TableSeed(seed, round, table).
// Pure; deterministic: the same settings, players and rounds give the same
// round, bit for bit.
#ifndef ARBITER_ENGINE_TOURNAMENT_PAIRING_H_
#define ARBITER_ENGINE_TOURNAMENT_PAIRING_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/tournament/rounds.h"
#include "engine/tournament/settings.h"

namespace arbiter::engine::tournament {

// The repeat measure of `round` against `earlier`: over every pair of players
// at one table of `round`, the number of earlier rounds in which they already
// shared a table (void and pending tables included: they sat together). Zero
// means no repeated table-mate.
int64_t RepeatCount(const std::vector<Round>& earlier, const Round& round);

// SplitMix64(seed ^ (round << 32) ^ table).Next(): the seed of a table's game.
uint64_t TableSeed(uint64_t seed, int round, int table);

// Round 1's order: registration order shuffled by Rng(seed).
std::vector<std::string> FirstRoundOrder(uint64_t seed, const std::vector<std::string>& players);

// The next round (number earlier.size() + 1) for every registered player
// who has not withdrawn (`changes`; late entrants join with no points and no
// earlier table-mates). FailedPrecondition when every round has been played,
// when an earlier round still has a table without a result, or when the
// players cannot fill a table; InvalidArgument for bad settings, players or
// earlier rounds (as ComputeStandings).
absl::StatusOr<Round> AssignRound(const TournamentSettings& settings,
                                  const std::vector<std::string>& players,
                                  const std::vector<Round>& earlier,
                                  const FieldChanges& changes = {});

}  // namespace arbiter::engine::tournament

#endif  // ARBITER_ENGINE_TOURNAMENT_PAIRING_H_
