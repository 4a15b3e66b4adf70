#include "services/league/league_model.h"

#include <map>
#include <set>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "services/league/league_settings.h"
#include "spdlog/spdlog.h"

namespace arbiter::league_service {
namespace {

constexpr int kResultBatch = 10'000;

void SetSide(const league::PlayerRating* rating, const rating::RatingConfig& config,
             bool before, v1::RatingChange& change) {
  const double display = rating == nullptr ? 0 : rating::DisplayRating(config, rating->rating);
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
                                          std::vector<league::HistoryPoint>* history) {
  const std::string stream_id = LeagueName(league_id);
  absl::StatusOr<std::vector<store::StreamEvent>> log = streams.ReadStream(stream_id, 0, 10'000);
  if (!log.ok()) return log.status();
  absl::StatusOr<v1::LeagueSettings> settings = SettingsOf(*log);
  if (!settings.ok()) return settings.status();
  absl::StatusOr<league::LeagueConfig> config = ConfigFromSettings(*settings);
  if (!config.ok()) {
    return absl::DataLossError(absl::StrCat(stream_id, " holds settings that no longer check: ",
                                            config.status().message()));
  }
  LeagueModel league;
  league.settings_sequence = log->empty() ? 0 : log->back().sequence;
  league.ratings = std::make_unique<league::LeagueRatings>(*std::move(config));
  // Voided games are known only once every result is read: collect first.
  // A game's later result (a ruling's correction) replaces its first one in
  // place: same position and time, the correction's standings.
  std::vector<league::GameResult> finished;
  absl::flat_hash_map<std::string, size_t> first_result;  // game id -> index in finished
  absl::flat_hash_set<std::string> voided;
  int64_t after = 0;
  while (position > 0) {
    absl::StatusOr<std::vector<store::ResultEvent>> batch =
        events.ReadResults(after, position, league_id, kResultBatch);
    if (!batch.ok()) return batch.status();
    for (const store::ResultEvent& result : *batch) {
      if (!ChainNamesLeague(result)) {
        spdlog::warn("league {}: game {} not counted: its chained events name another league",
                     league_id, result.event.game_id);
        continue;
      }
      if (result.kind == store::GameStatus::kVoided) {
        voided.insert(result.event.game_id);
        continue;
      }
      absl::StatusOr<league::GameResult> game = ResultOf(result);
      if (!game.ok()) return game.status();
      auto [it, first] = first_result.try_emplace(game->game_id, finished.size());
      if (first) {
        finished.push_back(*std::move(game));
      } else {
        league::GameResult& earlier = finished[it->second];
        game->position = earlier.position;
        game->finished_at = earlier.finished_at;
        earlier = *std::move(game);
      }
    }
    if (static_cast<int>(batch->size()) < kResultBatch) break;
    after = batch->back().event.position;
  }
  league.seen.reserve(first_result.size());
  for (const league::GameResult& game : finished) {
    league.seen.insert(game.game_id);
    if (voided.contains(game.game_id)) continue;
    absl::StatusOr<bool> counted = league.ratings->Add(game, history, nullptr);
    if (!counted.ok()) return counted.status();
  }
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
  const rating::RatingConfig& config = after->ratings->config().rating;
  // Every table either side has, all time ("") first.
  std::set<std::string> seasons;
  for (const auto& [season, table] : before->ratings->tables()) seasons.insert(season);
  for (const auto& [season, table] : after->ratings->tables()) seasons.insert(season);
  std::vector<v1::RatingChange> out;
  for (const std::string& season : seasons) {
    std::map<std::string, std::pair<const league::PlayerRating*, const league::PlayerRating*>>
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
      change.set_league(LeagueName(league_id));
      change.set_season(season);
      change.set_player(player);
      SetSide(old_rating, config, true, change);
      SetSide(new_rating, config, false, change);
    }
  }
  return out;
}

}  // namespace arbiter::league_service
