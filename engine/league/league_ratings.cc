#include "engine/league/league_ratings.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/civil_time.h"

namespace arbiter::engine::league {
namespace {

constexpr int64_t kMaxIdlePeriods = 1000;  // RD growth saturates long before

using Changed = std::set<std::pair<std::string, std::string>>;

// The entry of `id` on `table`, made (with the next slot) if it is new.
// Entries are never removed, so the next slot is the table's size.
PlayerRating& Entry(Table& table, const std::string& id) {
  auto [it, added] = table.try_emplace(id);
  if (added) it->second.slot = static_cast<int64_t>(table.size()) - 1;
  return it->second;
}

}  // namespace

absl::StatusOr<LeagueRatings::Entrants> LeagueRatings::EntrantsOf(const GameResult& result) {
  if (result.players.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("game \"", result.game_id, "\" has no players"));
  }
  for (std::size_t i = 0; i < result.players.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (result.players[i] == result.players[j]) {
        return absl::InvalidArgumentError(absl::StrCat("game \"", result.game_id,
                                                       "\" seats player \"", result.players[i],
                                                       "\" twice"));
      }
    }
  }
  Entrants e;
  if (result.cooperative) {
    const int team_rank = result.team_won ? 1 : 2;
    e.ids.push_back(result.players);
    e.ranks.push_back(team_rank);
    e.places.push_back(team_rank);
    e.ids.push_back({LeagueRatings::VirtualOpponent(result.game_type, result.difficulty)});
    e.ranks.push_back(3 - team_rank);
    e.places.push_back(3 - team_rank);
    return e;
  }
  if (result.places.size() != result.players.size()) {
    return absl::InvalidArgumentError(absl::StrCat("game \"", result.game_id, "\" has ",
                                                   result.players.size(), " players but ",
                                                   result.places.size(), " places"));
  }
  if (result.players.size() < 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("game \"", result.game_id, "\" is competitive with one player"));
  }
  for (std::size_t i = 0; i < result.players.size(); ++i) {
    e.ids.push_back({result.players[i]});
    e.ranks.push_back(result.places[i]);
    e.places.push_back(result.places[i]);
  }
  return e;
}

LeagueRatings::LeagueRatings(LeagueConfig config) : config_(std::move(config)) {
  tables_[""];
  for (const Season& season : config_.seasons) tables_[season.id];
}

std::string LeagueRatings::VirtualOpponent(const std::string& game_type,
                                           const std::string& difficulty) {
  return absl::StrCat("game:", game_type, ":", difficulty.empty() ? "default" : difficulty);
}

const Table& LeagueRatings::table(const std::string& season) const {
  static const Table* const kEmpty = new Table();
  auto it = tables_.find(season);
  return it == tables_.end() ? *kEmpty : it->second;
}

int64_t LeagueRatings::PeriodOf(absl::Time time) const {
  const int64_t days = absl::ToUnixSeconds(time) >= 0
                           ? absl::ToUnixSeconds(time) / 86400
                           : -((-absl::ToUnixSeconds(time) + 86399) / 86400);
  switch (config_.period) {
    case RatingPeriod::kGame:
      return 0;
    case RatingPeriod::kDay:
      return days;
    case RatingPeriod::kWeek:
      // 1970-01-01 was a Thursday; weeks start on Monday.
      return days + 3 >= 0 ? (days + 3) / 7 : -((-(days + 3) + 6) / 7);
    case RatingPeriod::kMonth: {
      const absl::CivilMonth month = absl::ToCivilMonth(time, absl::UTCTimeZone());
      return month.year() * 12 + (month.month() - 1);
    }
  }
  return 0;
}

absl::StatusOr<bool> LeagueRatings::Add(const GameResult& result,
                                        std::vector<HistoryPoint>* history, Changed* changed) {
  if (!result.legal) return false;
  if (result.reported && !config_.rate_reported_results) return false;
  if (std::find(config_.game_types.begin(), config_.game_types.end(), result.game_type) ==
      config_.game_types.end()) {
    return false;
  }
  absl::StatusOr<Entrants> entrants = EntrantsOf(result);
  if (!entrants.ok()) return entrants.status();
  ++rated_games_;
  static const std::string* const kAllTime = new std::string();
  const std::string* season = kAllTime;
  for (std::size_t next = 0;; ++next) {
    if (absl::Status status = RateOn(*season, result, *entrants, history, changed); !status.ok()) {
      return status;
    }
    while (next < config_.seasons.size() &&
           !(result.finished_at >= config_.seasons[next].start &&
             result.finished_at < config_.seasons[next].end)) {
      ++next;
    }
    if (next == config_.seasons.size()) break;
    season = &config_.seasons[next].id;
  }
  return true;
}

absl::Status LeagueRatings::RateOn(const std::string& season, const GameResult& result,
                                   const Entrants& entrants, std::vector<HistoryPoint>* history,
                                   Changed* changed) {
  ++table_games_[season];
  Table& table = tables_[season];
  if (config_.period == RatingPeriod::kGame || config_.rating.system != rating::System::kGlicko2) {
    return RateNow(season, table, result, entrants, history, changed);
  }
  Open& open = open_[season];
  const int64_t period = PeriodOf(result.finished_at);
  if (open.period >= 0 && period > open.period) ClosePeriod(season, table, open, history, changed);
  if (open.games.empty()) open.period = std::max(open.period, period);
  open.games.push_back(result);
  return absl::OkStatus();
}

absl::Status LeagueRatings::RateNow(const std::string& season, Table& table,
                                    const GameResult& result, const Entrants& entrants,
                                    std::vector<HistoryPoint>* history, Changed* changed) {
  std::vector<rating::Team> teams;
  for (std::size_t t = 0; t < entrants.ids.size(); ++t) {
    rating::Team team;
    team.rank = entrants.ranks[t];
    for (const std::string& id : entrants.ids[t]) {
      auto it = table.find(id);
      team.players.push_back(it == table.end() ? rating::InitialRating(config_.rating)
                                               : it->second.rating);
    }
    teams.push_back(std::move(team));
  }
  absl::StatusOr<std::vector<std::vector<rating::Rating>>> rated =
      rating::RateMatch(config_.rating, teams);
  // Only ratings too far apart for the arithmetic fail here; nothing of this
  // table has changed then.
  if (!rated.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("game \"", result.game_id,
                                                   "\" cannot be rated: ", rated.status().message()));
  }
  for (std::size_t t = 0; t < entrants.ids.size(); ++t) {
    for (std::size_t p = 0; p < entrants.ids[t].size(); ++p) {
      const std::string& id = entrants.ids[t][p];
      PlayerRating& player = Entry(table, id);
      player.rating = (*rated)[t][p];
      ++player.games;
      player.last_position = result.position;
      player.last_game = result.game_id;
      player.last_played = result.finished_at;
      player.is_virtual = result.cooperative && t == 1;
      if (history != nullptr) {
        history->push_back(HistoryPoint{season, id, player.games, result.game_id, result.position,
                                        result.finished_at, player.rating, entrants.places[t],
                                        player.slot});
      }
      if (changed != nullptr) changed->insert({season, id});
    }
  }
  return absl::OkStatus();
}

void LeagueRatings::ClosePeriod(const std::string& season, Table& table, Open& open,
                                std::vector<HistoryPoint>* history, Changed* changed) {
  // Ratings at the start of the period, with the RD grown for the periods
  // each player missed.
  std::map<std::string, rating::Rating> start;
  auto start_of = [&](const std::string& id) -> const rating::Rating& {
    auto found = start.find(id);
    if (found != start.end()) return found->second;
    rating::Rating r = rating::InitialRating(config_.rating);
    if (auto it = table.find(id); it != table.end()) {
      r = it->second.rating;
      if (it->second.last_period >= 0) {
        const int64_t missed =
            std::min(kMaxIdlePeriods, open.period - it->second.last_period - 1);
        for (int64_t i = 0; i < missed; ++i) r = rating::Glicko2Period(config_.rating, r, {});
      }
    }
    return start.emplace(id, r).first->second;
  };
  std::map<std::string, std::vector<rating::GlickoResult>> results;
  for (const GameResult& game : open.games) {
    const Entrants entrants = *EntrantsOf(game);
    std::vector<rating::Team> teams;
    for (std::size_t t = 0; t < entrants.ids.size(); ++t) {
      rating::Team team;
      team.rank = entrants.ranks[t];
      for (const std::string& id : entrants.ids[t]) team.players.push_back(start_of(id));
      teams.push_back(std::move(team));
    }
    const auto per_team = rating::GlickoResults(teams);
    for (std::size_t t = 0; t < entrants.ids.size(); ++t) {
      for (std::size_t p = 0; p < entrants.ids[t].size(); ++p) {
        auto& list = results[entrants.ids[t][p]];
        list.insert(list.end(), per_team[t][p].begin(), per_team[t][p].end());
      }
    }
  }
  for (const auto& [id, list] : results) {
    PlayerRating& player = Entry(table, id);
    player.rating = rating::Glicko2Period(config_.rating, start_of(id), list);
    player.last_period = open.period;
  }
  // Games and history in game order, each point showing the rating the
  // period ended with.
  for (const GameResult& game : open.games) {
    const Entrants entrants = *EntrantsOf(game);
    for (std::size_t t = 0; t < entrants.ids.size(); ++t) {
      for (const std::string& id : entrants.ids[t]) {
        PlayerRating& player = Entry(table, id);
        ++player.games;
        player.last_position = game.position;
        player.last_game = game.game_id;
        player.last_played = game.finished_at;
        player.is_virtual = game.cooperative && t == 1;
        if (history != nullptr) {
          history->push_back(HistoryPoint{season, id, player.games, game.game_id, game.position,
                                          game.finished_at, player.rating, entrants.places[t],
                                          player.slot});
        }
        if (changed != nullptr) changed->insert({season, id});
      }
    }
  }
  open.games.clear();
}

}  // namespace arbiter::engine::league
