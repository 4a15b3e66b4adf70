#include "services/league/league_model.h"

#include "services/common/resource_names.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "engine/core/status_macros.h"
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

// The settings of the league's stream `log` as a rating configuration.
// DataLoss if they no longer check.
absl::StatusOr<engine::league::LeagueConfig> ConfigOf(const std::string& stream_id,
                                                      const std::vector<store::StreamEvent>& log) {
  ARBITER_ASSIGN_OR_RETURN(const v1::LeagueSettings settings, SettingsOf(log));
  absl::StatusOr<engine::league::LeagueConfig> config = ConfigFromSettings(settings);
  if (!config.ok()) {
    return absl::DataLossError(absl::StrCat(stream_id, " holds settings that no longer check: ",
                                            config.status().message()));
  }
  return config;
}

// A league's ratings as results are rated into them, with their history
// points encoded on another core (ChunkerThread) when they are wanted.
class Rater {
 public:
  Rater(const std::string& league_id, const engine::league::LeagueConfig& config, bool history)
      : config_(config), ratings_(std::make_unique<engine::league::LeagueRatings>(config)) {
    if (history) chunker_.emplace(league_id, config.rating);
  }

  // The errors of LeagueRatings::Add.
  absl::Status Rate(const engine::league::GameResult& game) {
    ARBITER_RETURN_IF_ERROR(
        ratings_->Add(game, chunker_.has_value() ? &points_ : nullptr, nullptr).status());
    for (engine::league::HistoryPoint& point : points_) chunker_->Add(point);
    points_.clear();
    return absl::OkStatus();
  }
  // Forgets every rating and history point, to rate from the start.
  void Reset() {
    ratings_ = std::make_unique<engine::league::LeagueRatings>(config_);
    if (chunker_.has_value()) chunker_->Take();
  }
  std::vector<HistoryChunk> TakeHistory() { return chunker_->Take(); }
  std::unique_ptr<engine::league::LeagueRatings> TakeRatings() { return std::move(ratings_); }

 private:
  const engine::league::LeagueConfig config_;
  std::unique_ptr<engine::league::LeagueRatings> ratings_;
  std::optional<ChunkerThread> chunker_;
  std::vector<engine::league::HistoryPoint> points_;  // of one game
};

// What the first read of a league's results found that rating them as
// read cannot take.
struct FirstRead {
  bool rated_as_read = true;  // no void, correction or failure
  absl::flat_hash_set<std::string> voided;
  absl::flat_hash_map<std::string, engine::league::GameResult> corrected;  // -> its last result
};

// Reads the league's results up to `position` and rates each game's first
// result as it comes, until a void, a correction or a failure (noted in
// `first`); every game with a result goes to `seen`. The errors of
// ReadLeagueResults.
absl::Status RateAsRead(store::ResultIndex& results, const std::string& league_id,
                        int64_t position, Rater& rater, absl::flat_hash_set<std::string>& seen,
                        FirstRead& first) {
  using Kind = DecodedResult::Kind;
  return ReadLeagueResults(results, league_id, position, /*warn=*/true,
                           [&](DecodedResult& result) {
                             if (result.kind == Kind::kVoid) {
                               first.voided.insert(result.game_id);
                               first.rated_as_read = false;
                             }
                             if (result.kind != Kind::kResult) return;
                             if (seen.insert(result.game_id).second) {
                               // A failure is reported by the second read.
                               if (first.rated_as_read && !rater.Rate(result.game).ok()) {
                                 first.rated_as_read = false;
                               }
                             } else {
                               first.rated_as_read = false;
                               first.corrected[result.game_id] = std::move(result.game);
                             }
                           });
}

// Reads the league's results again and rates them from the start: voided
// games left out, a corrected game once, at its first result's place
// (position and time) with its last result's standings. The errors of
// ReadLeagueResults, then the first failure to rate.
absl::Status RateAgain(store::ResultIndex& results, const std::string& league_id,
                       int64_t position, const FirstRead& first, Rater& rater) {
  absl::flat_hash_set<std::string> corrected_rated;
  absl::Status failed;
  ARBITER_RETURN_IF_ERROR(ReadLeagueResults(
      results, league_id, position, /*warn=*/false, [&](DecodedResult& result) {
        if (!failed.ok() || result.kind != DecodedResult::Kind::kResult ||
            first.voided.contains(result.game_id)) {
          return;
        }
        auto it = first.corrected.find(result.game_id);
        if (it == first.corrected.end()) {
          failed = rater.Rate(result.game);
          return;
        }
        if (!corrected_rated.insert(result.game_id).second) return;  // a later result
        engine::league::GameResult last = it->second;
        last.position = result.game.position;
        last.finished_at = result.game.finished_at;
        failed = rater.Rate(last);
      }));
  return failed;
}

}  // namespace

absl::StatusOr<LeagueModel> ComputeLeague(store::ResultIndex& results, store::StreamStore& streams,
                                          const std::string& league_id, int64_t position,
                                          std::vector<HistoryChunk>* history) {
  const std::string stream_id = common::NameOf(common::IdKind::kLeague, league_id);
  ARBITER_ASSIGN_OR_RETURN(const std::vector<store::StreamEvent> log,
                           streams.ReadStream(stream_id, 0, 10'000));
  ARBITER_ASSIGN_OR_RETURN(const engine::league::LeagueConfig config, ConfigOf(stream_id, log));
  LeagueModel league;
  league.settings_sequence = log.empty() ? 0 : log.back().sequence;
  Rater rater(league_id, config, history != nullptr);
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
  FirstRead first;
  if (position > 0) {
    ARBITER_RETURN_IF_ERROR(RateAsRead(results, league_id, position, rater, league.seen, first));
  }
  if (!first.rated_as_read) {
    rater.Reset();
    ARBITER_RETURN_IF_ERROR(RateAgain(results, league_id, position, first, rater));
  }
  if (history != nullptr) *history = rater.TakeHistory();
  league.ratings = rater.TakeRatings();
  return league;
}

absl::StatusOr<std::vector<v1::RatingChange>> RatingChangesAt(store::ResultIndex& results,
                                                              store::StreamStore& streams,
                                                              const std::string& league_id,
                                                              int64_t position) {
  ARBITER_ASSIGN_OR_RETURN(const LeagueModel before,
                           ComputeLeague(results, streams, league_id, position - 1, nullptr));
  ARBITER_ASSIGN_OR_RETURN(const LeagueModel after,
                           ComputeLeague(results, streams, league_id, position, nullptr));
  const engine::rating::RatingConfig& config = after.ratings->config().rating;
  // Every table either side has, all time ("") first.
  std::set<std::string> seasons;
  for (const auto& [season, table] : before.ratings->tables()) seasons.insert(season);
  for (const auto& [season, table] : after.ratings->tables()) seasons.insert(season);
  std::vector<v1::RatingChange> out;
  for (const std::string& season : seasons) {
    std::map<std::string, std::pair<const engine::league::PlayerRating*, const engine::league::PlayerRating*>>
        players;
    if (before.ratings->tables().contains(season)) {
      for (const auto& [player, rating] : before.ratings->table(season)) {
        if (!rating.is_virtual) players[player].first = &rating;
      }
    }
    if (after.ratings->tables().contains(season)) {
      for (const auto& [player, rating] : after.ratings->table(season)) {
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
