#include "services/league/league_settings.h"

#include <algorithm>

#include "services/common/resource_names.h"
#include "services/common/proto_time.h"
#include "services/common/text_length.h"

#include <set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "arbiter/v1/arbiter_service.pb.h"
#include "engine/core/game.h"
#include "google/protobuf/util/time_util.h"

namespace arbiter::league {
namespace {

absl::Status Field(const std::string& field, const std::string& problem) {
  return absl::InvalidArgumentError(absl::StrCat(field, ": ", problem));
}

}  // namespace

absl::StatusOr<engine::league::LeagueConfig> ConfigFromSettings(const v1::LeagueSettings& settings) {
  engine::league::LeagueConfig config;
  const std::optional<int64_t> name_length = common::Utf8Length(settings.display_name());
  if (!name_length.has_value()) return Field("settings.display_name", "not valid UTF-8");
  if (*name_length > 200) {
    return Field("settings.display_name", absl::StrCat(*name_length, " characters; at most 200"));
  }
  if (settings.game_types().empty()) {
    return Field("settings.game_types", absl::StrCat("name at least one game (", engine::GameNames(), ")"));
  }
  std::set<std::string> types;
  for (int i = 0; i < settings.game_types_size(); ++i) {
    const std::string& type = settings.game_types(i);
    const std::string field = absl::StrCat("settings.game_types[", i, "]");
    if (engine::FindGame(type) == nullptr) {
      return Field(field, absl::StrCat("unknown game \"", type.substr(0, 80), "\"; the games are ",
                                       engine::GameNames()));
    }
    if (!types.insert(type).second) return Field(field, absl::StrCat("\"", type, "\" is listed twice"));
    config.game_types.push_back(type);
  }
  const std::string system_name =
      settings.rating_system().empty() ? "plackett-luce" : settings.rating_system();
  absl::StatusOr<engine::rating::System> system = engine::rating::ParseSystem(system_name);
  if (!system.ok()) return Field("settings.rating_system", std::string(system.status().message()));
  // Map order is not fixed: sort the pairs, so the same settings always
  // give the same config and the same error.
  std::vector<std::pair<std::string, std::string>> params(settings.parameters().begin(),
                                                          settings.parameters().end());
  std::sort(params.begin(), params.end());
  absl::StatusOr<engine::rating::RatingConfig> rating = engine::rating::MakeConfig(*system, params);
  if (!rating.ok()) return Field("settings.parameters", std::string(rating.status().message()));
  config.rating = *std::move(rating);
  if (settings.provisional_games() < 0 || settings.provisional_games() > 1000) {
    return Field("settings.provisional_games",
                 absl::StrCat("must be 0-1000 (0: 5), not ", settings.provisional_games()));
  }
  config.rating.provisional_games = settings.provisional_games() == 0 ? 5 : settings.provisional_games();
  const std::string& period = settings.rating_period();
  if (period.empty() || period == "game") {
    config.period = engine::league::RatingPeriod::kGame;
  } else if (period == "day" || period == "week" || period == "month") {
    if (*system != engine::rating::System::kGlicko2) {
      return Field("settings.rating_period",
                   absl::StrCat("calendar periods are for glicko2; ", system_name,
                                " rates every game as it comes (use \"game\")"));
    }
    config.period = period == "day"    ? engine::league::RatingPeriod::kDay
                    : period == "week" ? engine::league::RatingPeriod::kWeek
                                       : engine::league::RatingPeriod::kMonth;
  } else {
    return Field("settings.rating_period",
                 absl::StrCat("\"", period.substr(0, 80), "\" is not game, day, week or month"));
  }
  config.rate_reported_results = settings.rate_reported_results();
  std::set<std::string> season_ids;
  for (int i = 0; i < settings.seasons_size(); ++i) {
    const v1::Season& in = settings.seasons(i);
    const std::string field = absl::StrCat("settings.seasons[", i, "]");
    if (!common::IsValidId(common::IdKind::kLeague, in.id())) {
      return Field(field + ".id", "must be 1-63 characters of A-Z a-z 0-9 _ . -");
    }
    if (!season_ids.insert(in.id()).second) {
      return Field(field + ".id", absl::StrCat("\"", in.id(), "\" is used twice"));
    }
    if (!in.has_start_time() || !in.has_end_time()) {
      return Field(field, "give start_time and end_time");
    }
    engine::league::Season season{in.id(), common::TimeOf(in.start_time()), common::TimeOf(in.end_time())};
    if (season.end <= season.start) return Field(field + ".end_time", "must be after start_time");
    config.seasons.push_back(std::move(season));
  }
  return config;
}

absl::StatusOr<v1::LeagueSettings> SettingsOf(const std::vector<store::StreamEvent>& events) {
  v1::LeagueSettings settings;
  bool found = false;
  for (const store::StreamEvent& event : events) {
    bool parsed = true;
    if (event.type == kTypeLeagueCreated) {
      v1::LeagueCreated created;
      parsed = created.ParseFromString(event.payload);
      settings = created.settings();
      found = true;
    } else if (event.type == kTypeLeagueSettingsChanged) {
      v1::LeagueSettingsChanged changed;
      parsed = changed.ParseFromString(event.payload);
      settings = changed.settings();
      found = true;
    }
    if (!parsed) {
      return absl::DataLossError(absl::StrCat(event.stream_id, " event ", event.sequence, " (",
                                              event.type, ") does not decode"));
    }
  }
  if (!found) return absl::DataLossError("the league's log holds no settings");
  return settings;
}

bool ChainNamesLeague(const store::ResultEvent& result) {
  if (result.kind == store::GameStatus::kVoided) {
    v1::GameVoided voided;
    return voided.ParseFromString(result.event.payload) && voided.league() == result.league_id;
  }
  v1::GameFinished finished;
  return finished.ParseFromString(result.event.payload) && finished.league() == result.league_id;
}

absl::StatusOr<engine::league::GameResult> ResultOf(const store::ResultEvent& result) {
  v1::GameFinished finished;
  if (!finished.ParseFromString(result.event.payload)) {
    return absl::DataLossError(absl::StrCat("the result of game \"", result.event.game_id,
                                            "\" (event ", result.event.sequence,
                                            ") does not decode"));
  }
  return ResultOf(result, finished);
}

absl::StatusOr<engine::league::GameResult> ResultOf(const store::ResultEvent& result,
                                            const v1::GameFinished& finished) {
  engine::league::GameResult out;
  out.position = result.event.position;
  out.game_id = result.event.game_id;
  out.finished_at = result.event.recorded_at;
  out.game_type = finished.game_type();
  out.reported = finished.has_reported();
  const bool every_seat_played = std::all_of(
      finished.reported().outcomes().begin(), finished.reported().outcomes().end(),
      [](int outcome) {
        return outcome == v1::SEAT_OUTCOME_UNSPECIFIED || outcome == v1::SEAT_OUTCOME_PLAYED;
      });
  out.legal = (out.reported ? every_seat_played : finished.verdict() == v1::VERDICT_LEGAL) &&
              finished.has_standings();
  out.players.assign(finished.players().begin(), finished.players().end());
  const v1::Standings& standings = finished.standings();
  out.cooperative = standings.cooperative();
  out.team_won = standings.team_outcome() == v1::TEAM_OUTCOME_WON;
  if (auto it = finished.options().find("difficulty"); it != finished.options().end()) {
    out.difficulty = it->second;
  }
  if (out.legal && !out.cooperative) {
    out.places.assign(out.players.size(), 0);
    for (const v1::PlayerStanding& standing : standings.players()) {
      for (std::size_t i = 0; i < out.players.size(); ++i) {
        if (out.players[i] == standing.player()) out.places[i] = standing.place();
      }
    }
    for (std::size_t i = 0; i < out.players.size(); ++i) {
      if (out.places[i] < 1) {
        return absl::DataLossError(absl::StrCat("the result of game \"", out.game_id,
                                                "\" gives no place to player \"", out.players[i],
                                                "\""));
      }
    }
  }
  return out;
}

}  // namespace arbiter::league
