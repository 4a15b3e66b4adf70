// A league's settings and results as the API and the store hold them, turned
// into the pure league model (engine/league/league_ratings.h).
// Pure functions; thread-safe.
#ifndef ARBITER_SERVICES_LEAGUE_LEAGUE_SETTINGS_H_
#define ARBITER_SERVICES_LEAGUE_LEAGUE_SETTINGS_H_

#include <string>

#include "absl/status/statusor.h"
#include "arbiter/v1/arbiter_service.pb.h"
#include "arbiter/v1/league_service.pb.h"
#include "engine/league/league_ratings.h"
#include "services/store/result_index.h"
#include "services/store/stream_store.h"

namespace arbiter::league {

inline constexpr char kLeagueKind[] = "league";
inline constexpr char kTypeLeagueCreated[] = "league_created";
inline constexpr char kTypeLeagueSettingsChanged[] = "league_settings_changed";

// Checks `settings` and builds the model's config. InvalidArgument naming the
// field ("settings.game_types[1]", "settings.parameters[sigma]", ...).
// Empty rating_system means "plackett-luce"; provisional_games 0 means 5.
absl::StatusOr<engine::league::LeagueConfig> ConfigFromSettings(const v1::LeagueSettings& settings);

// The settings in force after a league's log (its last league_created or
// league_settings_changed event). DataLoss if an event does not decode.
absl::StatusOr<v1::LeagueSettings> SettingsOf(const std::vector<store::StreamEvent>& events);

// The model's view of a "game_finished" event. DataLoss if it does not
// decode.
absl::StatusOr<engine::league::GameResult> ResultOf(const store::ResultEvent& result);
// The same from the event's payload already decoded as `finished`.
absl::StatusOr<engine::league::GameResult> ResultOf(const store::ResultEvent& result,
                                            const v1::GameFinished& finished);

// True if the result event's own body (copied from the game's hash-chained
// event 1) names the league the store filed it under. The store files it
// under the games row's league, a cache that a database superuser could
// edit; a result is counted only for the league its chain names.
bool ChainNamesLeague(const store::ResultEvent& result);

}  // namespace arbiter::league

#endif  // ARBITER_SERVICES_LEAGUE_LEAGUE_SETTINGS_H_
