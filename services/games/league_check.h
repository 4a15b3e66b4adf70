// LeagueCheck: what a game's creation asks of leagues, without the games
// folder knowing how leagues are kept: does the league a new game names
// exist, and does it rate games of this type? Implemented over the leagues'
// streams in services/league/league_check_impl.h; a writer without one
// accepts any league id. Implementations are thread-safe.
#ifndef ARBITER_SERVICES_GAMES_LEAGUE_CHECK_H_
#define ARBITER_SERVICES_GAMES_LEAGUE_CHECK_H_

#include <string>

#include "absl/status/status.h"

namespace arbiter::games {

class LeagueCheck {
 public:
  virtual ~LeagueCheck() = default;
  // OK if league `league_id` exists and rates games of `game_type` (OK for
  // an empty id: no league). NotFound for an unknown league,
  // FailedPrecondition for a league of other game types, each with a field
  // violation on `field`; Unavailable if the leagues cannot be read.
  virtual absl::Status CheckRates(const std::string& league_id, const std::string& game_type,
                                  const char* field) = 0;
};

}  // namespace arbiter::games

#endif  // ARBITER_SERVICES_GAMES_LEAGUE_CHECK_H_
