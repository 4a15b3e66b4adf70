// LeagueRatings: a league's ratings as a pure function of its settings and
// its results in order. No I/O; the projector (services/league/) feeds it
// the league's "game_finished" events in the store's global order and writes
// what it reports.
//
// Model (docs/leagues.md):
//   - A result counts when the game is legal, of one of the league's game
//     types, and not voided. Results are rated in the order given. A result
//     reported from a score sheet (not refereed) counts only when the
//     league's settings rate reported results, and never when a seat did not
//     play (a no-show or a forfeit).
//   - Every result counts on the all-time table (season "") and on the table
//     of each season whose [start, end) holds the game's finishing time; a
//     season's table starts everyone afresh.
//   - A competitive game is a match of one-player teams ranked by place
//     (shared places are ties). A cooperative game is the team against a
//     virtual opponent named "game:<game type>:<difficulty>", which has a
//     rating of its own: the team ranks first when it won.
//   - Glicko-2 with calendar periods (day, week, month in UTC): the games of a
//     period are rated together, against ratings as they were at its start,
//     when the first game of a later period arrives (so the ratings depend on
//     the logs alone, never on the clock). A player's RD grows for each whole
//     period missed before their next period with games.
// Deterministic: the same settings and results give the same bits.
// Not thread-safe; one instance per league.
#ifndef ARBITER_ENGINE_LEAGUE_LEAGUE_RATINGS_H_
#define ARBITER_ENGINE_LEAGUE_LEAGUE_RATINGS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "engine/rating/rating.h"

namespace arbiter::engine::league {

enum class RatingPeriod { kGame, kDay, kWeek, kMonth };

struct Season {
  std::string id;
  absl::Time start;
  absl::Time end;
};

struct LeagueConfig {
  std::vector<std::string> game_types;
  rating::RatingConfig rating;
  std::vector<Season> seasons;
  RatingPeriod period = RatingPeriod::kGame;
  bool rate_reported_results = false;
};

// One finished game, as its "game_finished" event says.
struct GameResult {
  int64_t position = 0;  // store position of the event
  std::string game_id;
  absl::Time finished_at;
  std::string game_type;
  bool legal = false;
  std::vector<std::string> players;  // seat order
  std::vector<int> places;           // per player, 1 is best (competitive)
  bool cooperative = false;
  bool team_won = false;
  std::string difficulty;  // cooperative: the header option, "" for the default
  // Reported from a score sheet rather than refereed (`legal` is then true
  // when every seat played).
  bool reported = false;
};

struct PlayerRating {
  rating::Rating rating;
  int64_t games = 0;
  int64_t last_position = 0;
  std::string last_game;
  absl::Time last_played;
  bool is_virtual = false;
  int64_t last_period = -1;  // calendar periods: the last one the player played in
  // The player's place on the table in order of first rated game: 0, 1, 2,
  // ... (a dense index for whoever keeps per-player state beside the table).
  int64_t slot = -1;
};

struct HistoryPoint {
  std::string season;
  std::string player;
  int64_t games = 0;  // the player's rated games, this one included
  std::string game_id;
  int64_t position = 0;
  absl::Time time;
  rating::Rating rating;
  int place = 0;
  int64_t slot = -1;  // the player's PlayerRating::slot on the table of `season`
};

// The players of one table (all time, or one season). Unordered: whoever
// needs an order sorts (the stored rows do not depend on it).
using Table = absl::flat_hash_map<std::string, PlayerRating>;

class LeagueRatings {
 public:
  explicit LeagueRatings(LeagueConfig config);

  // Rates `result` if it counts. Appends the new history points to
  // `history` and the (season, player) pairs whose rating changed to
  // `changed` (either may be null). Returns whether the result counted.
  // InvalidArgument if the result is malformed (places and players of
  // different lengths, no players, a player seated twice; nothing changed)
  // or its ratings are too far apart to compute (the tables rated before
  // the failing one keep the game).
  absl::StatusOr<bool> Add(const GameResult& result, std::vector<HistoryPoint>* history,
                           std::set<std::pair<std::string, std::string>>* changed);

  const LeagueConfig& config() const { return config_; }
  // The table of `season` ("" for all time); empty if there is none.
  const Table& table(const std::string& season) const;
  const std::map<std::string, Table>& tables() const { return tables_; }
  int64_t rated_games() const { return rated_games_; }
  // Games rated on the table of `season` ("" for all time).
  int64_t table_games(const std::string& season) const {
    auto it = table_games_.find(season);
    return it == table_games_.end() ? 0 : it->second;
  }

  // "game:<type>:<difficulty or 'default'>".
  static std::string VirtualOpponent(const std::string& game_type, const std::string& difficulty);

 private:
  struct Open {  // a calendar period not yet rated, per table
    int64_t period = -1;
    std::vector<GameResult> games;
  };
  int64_t PeriodOf(absl::Time time) const;
  // Who sits in each team of a game, the teams' ranks and the place each
  // team's players get in their history.
  struct Entrants {
    std::vector<std::vector<std::string>> ids;
    std::vector<int> ranks;
    std::vector<int> places;
  };
  static absl::StatusOr<Entrants> EntrantsOf(const GameResult& result);

  // Rates `result` on the table of `season`, now or with its period.
  absl::Status RateOn(const std::string& season, const GameResult& result,
                      const Entrants& entrants, std::vector<HistoryPoint>* history,
                      std::set<std::pair<std::string, std::string>>* changed);
  absl::Status RateNow(const std::string& season, Table& table, const GameResult& result,
                       const Entrants& entrants, std::vector<HistoryPoint>* history,
                       std::set<std::pair<std::string, std::string>>* changed);
  void ClosePeriod(const std::string& season, Table& table, Open& open,
                   std::vector<HistoryPoint>* history,
                   std::set<std::pair<std::string, std::string>>* changed);

  LeagueConfig config_;
  std::map<std::string, Table> tables_;
  std::map<std::string, Open> open_;
  int64_t rated_games_ = 0;
  std::map<std::string, int64_t> table_games_;
};

}  // namespace arbiter::engine::league

#endif  // ARBITER_ENGINE_LEAGUE_LEAGUE_RATINGS_H_
