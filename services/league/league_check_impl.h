// The games' LeagueCheck (services/games/league_check.h) over the leagues'
// streams: a league exists when its stream does, and rates the game types
// its settings name. Thread-safe (the StreamStore is).
#ifndef ARBITER_SERVICES_LEAGUE_LEAGUE_CHECK_IMPL_H_
#define ARBITER_SERVICES_LEAGUE_LEAGUE_CHECK_IMPL_H_

#include <string>

#include "services/games/league_check.h"
#include "services/store/stream_store.h"

namespace arbiter::league {

class StreamLeagueCheck final : public games::LeagueCheck {
 public:
  explicit StreamLeagueCheck(store::StreamStore& streams) : streams_(streams) {}
  absl::Status CheckRates(const std::string& league_id, const std::string& game_type,
                          const char* field) override;

 private:
  store::StreamStore& streams_;
};

}  // namespace arbiter::league

#endif  // ARBITER_SERVICES_LEAGUE_LEAGUE_CHECK_IMPL_H_
