// The games' TournamentLeagues (services/games/tournament_league.h) over the
// tournaments' streams: a tournament's league is the one its creation event
// (event 1 of "tournaments/{id}", hash-chained with the rest of its log)
// names, never a copy kept beside it. Thread-safe (the StreamStore is).
#ifndef ARBITER_SERVICES_TOURNAMENT_TOURNAMENT_LEAGUE_IMPL_H_
#define ARBITER_SERVICES_TOURNAMENT_TOURNAMENT_LEAGUE_IMPL_H_

#include <string>

#include "absl/status/statusor.h"
#include "services/games/tournament_league.h"
#include "services/store/stream_store.h"

namespace arbiter::tournament {

// The league tournament `tournament_id`'s creation event names (empty:
// none). NotFound ("tournament \"x\" does not exist"), DataLoss if its first
// event is not a readable creation, and the store's errors.
absl::StatusOr<std::string> ReadTournamentLeague(store::StreamStore& streams,
                                                 const std::string& tournament_id);

class StreamTournamentLeagues final : public games::TournamentLeagues {
 public:
  explicit StreamTournamentLeagues(store::StreamStore& streams) : streams_(streams) {}
  absl::StatusOr<std::string> LeagueOf(const std::string& tournament_id) override {
    return ReadTournamentLeague(streams_, tournament_id);
  }

 private:
  store::StreamStore& streams_;
};

}  // namespace arbiter::tournament

#endif  // ARBITER_SERVICES_TOURNAMENT_TOURNAMENT_LEAGUE_IMPL_H_
