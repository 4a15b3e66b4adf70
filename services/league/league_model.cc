#include "services/league/league_model.h"

#include "services/common/resource_names.h"

#include <map>
#include <optional>
#include <set>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "services/league/chunker_thread.h"
#include "services/league/league_settings.h"
#include "services/league/result_reader.h"
#include "spdlog/spdlog.h"

namespace arbiter::league {
namespace {

void SetSide(const engine::league::PlayerRating* rating, const engine::rating::RatingConfig& config,
             bool before, v1::RatingChange& change) {
  const double display = rating == nullptr ? 0 : engine::rating::DisplayRating(config, rating->rating);
  const double mu = rating == nullptr ? 0 : rating->rating.mu;
  const double sigma = rating == nullptr ? 0 : rating->rating.sigma;
  const double volatility = rating == nullptr ? 0 : rating->rating.volatility;
  const int64_t games = rating == nullptr ? 0 : rating->games;
  if (before) {
    change.set_display_rating_before(display);
    change.set_mu_before(mu);
    change.set_sigma_before(sigma);
    change.set_volatility_before(volatility);
    change.set_games_before(games);
  } else {
    change.set_display_rating_after(display);
    change.set_mu_after(mu);
    change.set_sigma_after(sigma);
    change.set_volatility_after(volatility);
    change.set_games_after(games);
  }
}

}  // namespace

absl::StatusOr<LeagueModel> ComputeLeague(store::EventStore& events, store::StreamStore& streams,
                                          const std::string& league_id, int64_t position,
                                          std::vector<HistoryChunk>* history) {
  const std::string stream_id = common::NameOf(common::IdKind::kLeague, league_id);
  absl::StatusOr<std::vector<store::StreamEvent>> log = streams.ReadStream(stream_id, 0, 10'000);
  if (!log.ok()) return log.status();
  absl::StatusOr<v1::LeagueSettings> settings = SettingsOf(*log);
  if (!settings.ok()) return settings.status();
  absl::StatusOr<engine::league::LeagueConfig> config = ConfigFromSettings(*settings);
  if (!config.ok()) {
    return absl::DataLossError(absl::StrCat(stream_id, " holds settings that no longer check: ",
                                            config.status().message()));
  }
  LeagueModel league;
  league.settings_sequence = log->empty() ? 0 : log->back().sequence;
  league.ratings = std::make_unique<engine::league::LeagueRatings>(*config);
  // The points are encoded on another core while the next games are rated.
  std::optional<ChunkerThread> chunker;
  if (history != nullptr) chunker.emplace(league_id, config->rating);
  std::vector<engine::league::HistoryPoint> points;  // of one game
  auto rate = [&](const engine::league::GameResult& game) -> absl::Status {
    absl::StatusOr<bool> counted =
        league.ratings->Add(game, history == nullptr ? nullptr : &points, nullptr);
    if (!counted.ok()) return counted.status();
    for (engine::league::HistoryPoint& point : points) chunker->Add(point);
    points.clear();
    return absl::OkStatus();
  };
  // Voided games are known only once every result is read, and a game's
  // later result (a ruling's correction) replaces its first one in place:
  // same position and time, the correction's standings. Results are rated
  // as they arrive (while the next ones are read and decoded on another
  // thread). Should a void, a correction or a failure turn up, the results
  // are read a second time and rated from the start: voided games left out,
  // each corrected game rated once, at its first result's place, with its
  // last result's standings. Either way the same results are rated in the
  // same order, and no more is held than the game ids and the few voids and
  // corrections.
  using Kind = DecodedResult::Kind;
  bool rated_as_read = true;
  absl::flat_hash_set<std::string> voided;
  absl::flat_hash_map<std::string, engine::league::GameResult> corrected;  // game id -> its last result
  auto read = [&](DecodedResult& result) {
    if (result.kind == Kind::kVoid) {
      voided.insert(result.game_id);
      rated_as_read = false;
    }
    if (result.kind != Kind::kResult) return;
    if (league.seen.insert(result.game_id).second) {
      if (rated_as_read && !rate(result.game).ok()) rated_as_read = false;  // reported below
    } else {
      rated_as_read = false;
      corrected[result.game_id] = std::move(result.game);
    }
  };
  absl::flat_hash_set<std::string> corrected_rated;
  absl::Status failed;  // the first failure of the second pass
  auto read_again = [&](DecodedResult& result) {
    if (!failed.ok() || result.kind != Kind::kResult || voided.contains(result.game_id)) return;
    auto it = corrected.find(result.game_id);
    if (it == corrected.end()) {
      failed = rate(result.game);
      return;
    }
    if (!corrected_rated.insert(result.game_id).second) return;  // a later result
    engine::league::GameResult& last = it->second;
    last.position = result.game.position;
    last.finished_at = result.game.finished_at;
    failed = rate(last);
  };
  if (position > 0) {
    if (absl::Status status = ReadLeagueResults(events, league_id, position, /*warn=*/true, read);
        !status.ok()) {
      return status;
    }
  }
  if (!rated_as_read) {
    league.ratings = std::make_unique<engine::league::LeagueRatings>(*config);
    if (chunker.has_value()) chunker->Take();
    if (absl::Status status =
            ReadLeagueResults(events, league_id, position, /*warn=*/false, read_again);
        !status.ok()) {
      return status;
    }
    if (!failed.ok()) return failed;
  }
  if (history != nullptr) *history = chunker->Take();
  return league;
}

absl::StatusOr<std::vector<v1::RatingChange>> RatingChangesAt(store::EventStore& events,
                                                              store::StreamStore& streams,
                                                              const std::string& league_id,
                                                              int64_t position) {
  absl::StatusOr<LeagueModel> before = ComputeLeague(events, streams, league_id, position - 1,
                                                     nullptr);
  if (!before.ok()) return before.status();
  absl::StatusOr<LeagueModel> after = ComputeLeague(events, streams, league_id, position, nullptr);
  if (!after.ok()) return after.status();
  const engine::rating::RatingConfig& config = after->ratings->config().rating;
  // Every table either side has, all time ("") first.
  std::set<std::string> seasons;
  for (const auto& [season, table] : before->ratings->tables()) seasons.insert(season);
  for (const auto& [season, table] : after->ratings->tables()) seasons.insert(season);
  std::vector<v1::RatingChange> out;
  for (const std::string& season : seasons) {
    std::map<std::string, std::pair<const engine::league::PlayerRating*, const engine::league::PlayerRating*>>
        players;
    if (before->ratings->tables().contains(season)) {
      for (const auto& [player, rating] : before->ratings->table(season)) {
        if (!rating.is_virtual) players[player].first = &rating;
      }
    }
    if (after->ratings->tables().contains(season)) {
      for (const auto& [player, rating] : after->ratings->table(season)) {
        if (!rating.is_virtual) players[player].second = &rating;
      }
    }
    for (const auto& [player, sides] : players) {
      const auto& [old_rating, new_rating] = sides;
      if (old_rating != nullptr && new_rating != nullptr &&
          old_rating->rating == new_rating->rating && old_rating->games == new_rating->games) {
        continue;
      }
      v1::RatingChange& change = out.emplace_back();
      change.set_league(common::NameOf(common::IdKind::kLeague, league_id));
      change.set_season(season);
      change.set_player(player);
      SetSide(old_rating, config, true, change);
      SetSide(new_rating, config, false, change);
    }
  }
  return out;
}

}  // namespace arbiter::league
