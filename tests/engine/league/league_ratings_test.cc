// The league model: which results count, seasons, cooperative games against
// a virtual opponent, Glicko-2 calendar periods, and determinism.
#include "engine/league/league_ratings.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace arbiter::engine::league {
namespace {

absl::Time Day(int day, int hour = 12) {
  return absl::FromCivil(absl::CivilHour(2026, 3, day, hour), absl::UTCTimeZone());
}

LeagueConfig Config(engine::rating::System system = engine::rating::System::kPlackettLuce,
                    RatingPeriod period = RatingPeriod::kGame) {
  LeagueConfig config;
  config.game_types = {"atlantis", "atlantis-rising"};
  config.rating = *engine::rating::MakeConfig(system, {});
  config.period = period;
  return config;
}

GameResult Game(int64_t position, std::vector<std::string> players, std::vector<int> places,
                absl::Time when = Day(1)) {
  GameResult result;
  result.position = position;
  result.game_id = "g" + std::to_string(position);
  result.finished_at = when;
  result.game_type = "atlantis";
  result.legal = true;
  result.players = std::move(players);
  result.places = std::move(places);
  return result;
}

TEST(LeagueRatingsTest, AGameMovesTheWinnerUpAndTheLoserDownAsRateMatchSays) {
  LeagueRatings league(Config());
  std::vector<HistoryPoint> history;
  std::set<std::pair<std::string, std::string>> changed;
  ASSERT_TRUE(*league.Add(Game(5, {"ann", "bob"}, {1, 2}), &history, &changed));
  const engine::rating::RatingConfig& config = league.config().rating;
  const auto expected = *engine::rating::RateMatch(
      config, {{{engine::rating::InitialRating(config)}, 1}, {{engine::rating::InitialRating(config)}, 2}});
  EXPECT_EQ(league.table("").at("ann").rating, expected[0][0]);
  EXPECT_EQ(league.table("").at("bob").rating, expected[1][0]);
  EXPECT_GT(league.table("").at("ann").rating.mu, league.table("").at("bob").rating.mu);
  ASSERT_EQ(history.size(), 2u);
  EXPECT_EQ(history[0].player, "ann");
  EXPECT_EQ(history[0].place, 1);
  EXPECT_EQ(history[0].position, 5);
  EXPECT_EQ(changed.size(), 2u);
  EXPECT_EQ(league.table("").at("bob").last_game, "g5");
}

TEST(LeagueRatingsTest, SharedPlacesAreTies) {
  LeagueRatings league(Config());
  ASSERT_TRUE(*league.Add(Game(1, {"ann", "bob", "cy"}, {1, 1, 3}), nullptr, nullptr));
  EXPECT_EQ(league.table("").at("ann").rating.mu, league.table("").at("bob").rating.mu);
  EXPECT_GT(league.table("").at("bob").rating.mu, league.table("").at("cy").rating.mu);
}

TEST(LeagueRatingsTest, IllegalGamesAndOtherGameTypesDoNotCount) {
  LeagueRatings league(Config());
  GameResult illegal = Game(1, {"ann", "bob"}, {1, 2});
  illegal.legal = false;
  EXPECT_FALSE(*league.Add(illegal, nullptr, nullptr));
  GameResult other = Game(2, {"ann", "bob"}, {1, 2});
  other.game_type = "atlantica";
  EXPECT_FALSE(*league.Add(other, nullptr, nullptr));
  EXPECT_EQ(league.rated_games(), 0);
  EXPECT_TRUE(league.table("").empty());
}

TEST(LeagueRatingsTest, ReportedResultsCountOnlyWhereTheLeagueRatesThem) {
  GameResult reported = Game(1, {"ann", "bob"}, {1, 2});
  reported.reported = true;
  LeagueRatings refereed_only(Config());
  EXPECT_FALSE(*refereed_only.Add(reported, nullptr, nullptr));
  EXPECT_EQ(refereed_only.rated_games(), 0);

  LeagueConfig config = Config();
  config.rate_reported_results = true;
  LeagueRatings with_sheets(config);
  EXPECT_TRUE(*with_sheets.Add(reported, nullptr, nullptr));
  EXPECT_EQ(with_sheets.rated_games(), 1);
}

TEST(LeagueRatingsTest, MalformedResultsAreRefusedAndChangeNothing) {
  LeagueRatings league(Config());
  EXPECT_EQ(league.Add(Game(1, {"ann", "bob"}, {1}), nullptr, nullptr).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(league.Add(Game(2, {"ann", "ann"}, {1, 2}), nullptr, nullptr).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(league.Add(Game(3, {}, {}), nullptr, nullptr).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(league.rated_games(), 0);
  EXPECT_TRUE(league.table("").empty());
}

TEST(LeagueRatingsTest, ACooperativeTeamPlaysAVirtualOpponentPerDifficulty) {
  LeagueRatings league(Config());
  GameResult won = Game(1, {"ann", "bob", "cy"}, {});
  won.game_type = "atlantis-rising";
  won.cooperative = true;
  won.team_won = true;
  won.difficulty = "hard";
  ASSERT_TRUE(*league.Add(won, nullptr, nullptr));
  const Table& table = league.table("");
  const std::string hard = LeagueRatings::VirtualOpponent("atlantis-rising", "hard");
  EXPECT_EQ(hard, "game:atlantis-rising:hard");
  ASSERT_TRUE(table.contains(hard));
  EXPECT_TRUE(table.at(hard).is_virtual);
  EXPECT_FALSE(table.at("ann").is_virtual);
  EXPECT_GT(table.at("ann").rating.mu, table.at(hard).rating.mu);
  EXPECT_EQ(table.at("ann").rating, table.at("bob").rating);  // one team, one fate

  GameResult lost = won;
  lost.position = 2;
  lost.game_id = "g2";
  lost.team_won = false;
  lost.difficulty = "";
  ASSERT_TRUE(*league.Add(lost, nullptr, nullptr));
  const std::string normal = LeagueRatings::VirtualOpponent("atlantis-rising", "");
  EXPECT_EQ(normal, "game:atlantis-rising:default");
  EXPECT_GT(league.table("").at(normal).rating.mu, engine::rating::InitialRating(league.config().rating).mu);
  EXPECT_EQ(league.table("").at(hard).games, 1);
}

TEST(LeagueRatingsTest, SeasonsStartAfreshAndAllTimeKeepsEverything) {
  LeagueConfig config = Config();
  config.seasons = {{"march", Day(1, 0), Day(15, 0)}, {"late", Day(15, 0), Day(31, 0)}};
  LeagueRatings league(config);
  ASSERT_TRUE(*league.Add(Game(1, {"ann", "bob"}, {1, 2}, Day(2)), nullptr, nullptr));
  ASSERT_TRUE(*league.Add(Game(2, {"ann", "bob"}, {2, 1}, Day(20)), nullptr, nullptr));
  EXPECT_EQ(league.table("").at("ann").games, 2);
  EXPECT_EQ(league.table("march").at("ann").games, 1);
  EXPECT_EQ(league.table("late").at("ann").games, 1);
  // In the late season bob won the only game, from fresh ratings.
  EXPECT_GT(league.table("late").at("bob").rating.mu, league.table("late").at("ann").rating.mu);
  EXPECT_EQ(league.table("late").at("bob").rating, league.table("march").at("ann").rating);
  EXPECT_EQ(league.table_games("march"), 1);
  EXPECT_EQ(league.table_games(""), 2);
}

TEST(LeagueRatingsTest, GlickoCalendarPeriodsRateADayTogetherWhenTheNextDayBegins) {
  LeagueRatings league(Config(engine::rating::System::kGlicko2, RatingPeriod::kDay));
  std::vector<HistoryPoint> history;
  ASSERT_TRUE(*league.Add(Game(1, {"ann", "bob"}, {1, 2}, Day(1, 9)), &history, nullptr));
  ASSERT_TRUE(*league.Add(Game(2, {"ann", "cy"}, {1, 2}, Day(1, 18)), &history, nullptr));
  EXPECT_TRUE(league.table("").empty());  // the day is still open
  EXPECT_TRUE(history.empty());
  ASSERT_TRUE(*league.Add(Game(3, {"bob", "cy"}, {1, 2}, Day(2)), &history, nullptr));
  // Day 1 is rated as one period: ann against bob and cy, both from 1500.
  const engine::rating::RatingConfig& config = league.config().rating;
  const engine::rating::Rating start = engine::rating::InitialRating(config);
  const engine::rating::Rating ann = engine::rating::Glicko2Period(config, start, {{start, 1}, {start, 1}});
  EXPECT_EQ(league.table("").at("ann").rating, ann);
  EXPECT_EQ(league.table("").at("ann").games, 2);
  EXPECT_EQ(history.size(), 4u);
  // A player idle for days has a larger RD at the start of the next period.
  ASSERT_TRUE(*league.Add(Game(4, {"ann", "bob"}, {1, 2}, Day(9)), nullptr, nullptr));
  ASSERT_TRUE(*league.Add(Game(5, {"ann", "bob"}, {1, 2}, Day(10)), nullptr, nullptr));
  EXPECT_EQ(league.table("").at("ann").games, 3);
}

TEST(LeagueRatingsTest, TheSameResultsGiveTheSameBits) {
  auto run = [] {
    LeagueRatings league(Config(engine::rating::System::kThurstoneMostellerFull));
    for (int i = 0; i < 200; ++i) {
      const int a = i % 7;
      const std::vector<std::string> players = {"p" + std::to_string(a),
                                                "p" + std::to_string((a + 1 + i % 5) % 7),
                                                "p" + std::to_string(7 + i % 11)};
      EXPECT_TRUE(league.Add(Game(i + 1, players, {1 + i % 3, 1 + (i + 1) % 3, 1 + (i + 2) % 3}),
                             nullptr, nullptr)
                      .ok());
    }
    return league.table("");
  };
  const Table a = run();
  const Table b = run();
  ASSERT_EQ(a.size(), b.size());
  for (const auto& [id, r] : a) {
    EXPECT_EQ(r.rating, b.at(id).rating) << id;
    EXPECT_EQ(r.games, b.at(id).games);
  }
}

// Each table numbers its players 0, 1, 2, ... in the order of their first
// rated game there, and every history point carries its player's slot; a
// season's table numbers afresh. Glicko-2 periods number players as the
// period's games are closed.
TEST(LeagueRatingsTest, EachTableNumbersItsPlayersInOrderOfFirstGame) {
  LeagueConfig config = Config();
  config.seasons = {{"late", Day(15, 0), Day(31, 0)}};
  LeagueRatings league(config);
  std::vector<HistoryPoint> history;
  ASSERT_TRUE(*league.Add(Game(1, {"cy", "ann"}, {1, 2}, Day(2)), &history, nullptr));
  ASSERT_TRUE(*league.Add(Game(2, {"bob", "ann", "dee"}, {1, 2, 3}, Day(3)), &history, nullptr));
  ASSERT_TRUE(*league.Add(Game(3, {"dee", "eve"}, {1, 2}, Day(20)), &history, nullptr));
  const Table& all = league.table("");
  EXPECT_EQ(all.at("cy").slot, 0);
  EXPECT_EQ(all.at("ann").slot, 1);
  EXPECT_EQ(all.at("bob").slot, 2);
  EXPECT_EQ(all.at("dee").slot, 3);
  EXPECT_EQ(all.at("eve").slot, 4);
  EXPECT_EQ(league.table("late").at("dee").slot, 0);
  EXPECT_EQ(league.table("late").at("eve").slot, 1);
  ASSERT_EQ(history.size(), 9u);  // 2 + 3 + 2 on all time, 2 on "late"
  for (const HistoryPoint& point : history) {
    EXPECT_EQ(point.slot, league.table(point.season).at(point.player).slot)
        << point.season << "/" << point.player;
  }

  LeagueRatings glicko(Config(engine::rating::System::kGlicko2, RatingPeriod::kDay));
  history.clear();
  ASSERT_TRUE(*glicko.Add(Game(1, {"bob", "ann"}, {1, 2}, Day(1)), &history, nullptr));
  ASSERT_TRUE(*glicko.Add(Game(2, {"cy", "bob"}, {1, 2}, Day(2)), &history, nullptr));
  ASSERT_EQ(history.size(), 2u);  // day 1 closed by day 2's first game
  std::set<int64_t> slots;
  for (const auto& [player, rating] : glicko.table("")) slots.insert(rating.slot);
  EXPECT_EQ(slots, (std::set<int64_t>{0, 1}));
  for (const HistoryPoint& point : history) {
    EXPECT_EQ(point.slot, glicko.table("").at(point.player).slot);
  }
}

}  // namespace
}  // namespace arbiter::engine::league
