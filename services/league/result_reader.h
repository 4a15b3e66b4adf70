// ReadLeagueResults: a league's result events, decoded on a thread of their
// own while the caller handles the ones before.
//
// A rebuild's reading, decoding (protobuf, standings) and rating are each a
// good part of its time, and only the rating must be done one result after
// the other in the caller's order. Here the store's scan (COPY lines) and
// the decoding run on a second thread and hand the results over in batches,
// in store order; the caller's function sees exactly what a decode in line
// would give it.
#ifndef ARBITER_SERVICES_LEAGUE_RESULT_READER_H_
#define ARBITER_SERVICES_LEAGUE_RESULT_READER_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/status.h"
#include "engine/league/league_ratings.h"
#include "services/store/result_index.h"

namespace arbiter::league {

struct DecodedResult {
  enum class Kind {
    kUncounted,  // its chained events name another league: it counts for nothing
    kVoid,       // a game_voided event
    kResult,     // a game_finished event: `game` holds it
  };
  Kind kind = Kind::kUncounted;
  std::string game_id;
  engine::league::GameResult game;
};

// Every result of league `league_id` at positions up to `position` (> 0),
// decoded (ChainNamesLeague, ResultOf) and handed to `each` in store order,
// on the calling thread. With `warn`, uncounted results are logged. Returns
// the store's error or the first result that does not decode (DataLoss),
// after handing over the results before it.
absl::Status ReadLeagueResults(store::ResultIndex& results, const std::string& league_id,
                               int64_t position, bool warn,
                               const std::function<void(DecodedResult&)>& each);

}  // namespace arbiter::league

#endif  // ARBITER_SERVICES_LEAGUE_RESULT_READER_H_
