// A league's ratings as the logs make them at a store position, and what one
// result event (a void or a corrected result) changed in them.
//
// Both are pure functions of the logs: the league's stream (its settings)
// and the store's results up to the position. The projector's model and the
// rating trace of a dispute's ruling come from here, so that the trace names
// the same numbers as the leaderboard and reads the same after any rebuild.
// Thread-safe as the stores are.
#ifndef ARBITER_SERVICES_LEAGUE_LEAGUE_MODEL_H_
#define ARBITER_SERVICES_LEAGUE_LEAGUE_MODEL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "arbiter/v1/tournament_service.pb.h"
#include "engine/league/league_ratings.h"
#include "services/league/history_chunks.h"
#include "services/store/result_index.h"
#include "services/store/stream_store.h"

namespace arbiter::league {

struct LeagueModel {
  int64_t settings_sequence = 0;  // the league stream's last event
  std::unique_ptr<engine::league::LeagueRatings> ratings;
  // Game ids with a result in the league (rated or not).
  absl::flat_hash_set<std::string> seen;
};

// The league `league_id` with its current settings and every result of its
// games at a position up to `position` (0: none): a game's later result (a
// ruling's correction) takes the place (position and time) of its first, a
// voided game counts not at all. Every history point goes to `history`
// unless it is null, grouped into whole chunks (HistoryChunker). NotFound
// for an unknown league.
absl::StatusOr<LeagueModel> ComputeLeague(store::ResultIndex& results, store::StreamStore& streams,
                                          const std::string& league_id, int64_t position,
                                          std::vector<HistoryChunk>* history);

// What the result event at `position` changed in league `league_id`: the
// league computed through position - 1 against the league through
// `position`, one entry per table (all time, then each season) and player
// whose rating or games differ, in table then player order; virtual
// opponents left out. A player without a rated game on one side has 0
// games and zero ratings there.
absl::StatusOr<std::vector<v1::RatingChange>> RatingChangesAt(store::ResultIndex& results,
                                                              store::StreamStore& streams,
                                                              const std::string& league_id,
                                                              int64_t position);

}  // namespace arbiter::league

#endif  // ARBITER_SERVICES_LEAGUE_LEAGUE_MODEL_H_
