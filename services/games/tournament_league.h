// TournamentLeagues: what a game's creation asks of tournaments, without the
// games folder knowing how tournaments are kept: which league does the
// tournament a new game names belong to, as the tournament's own log (its
// creation event) states it? A league's organiser creates the games of its
// league's tournaments (access::RequireCreate). Implemented over the
// tournaments' streams in services/tournament/tournament_league_impl.h; a
// writer without one knows no tournament's league, so only tokens naming the
// tournament create its games. Implementations are thread-safe.
#ifndef ARBITER_SERVICES_GAMES_TOURNAMENT_LEAGUE_H_
#define ARBITER_SERVICES_GAMES_TOURNAMENT_LEAGUE_H_

#include <string>

#include "absl/status/statusor.h"

namespace arbiter::games {

class TournamentLeagues {
 public:
  virtual ~TournamentLeagues() = default;
  // The league tournament `tournament_id` was created in (empty: none).
  // NotFound for an unknown tournament; DataLoss if its creation event does
  // not decode; Unavailable if the tournaments cannot be read.
  virtual absl::StatusOr<std::string> LeagueOf(const std::string& tournament_id) = 0;
};

}  // namespace arbiter::games

#endif  // ARBITER_SERVICES_GAMES_TOURNAMENT_LEAGUE_H_
