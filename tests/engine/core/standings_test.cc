#include "engine/core/standings.h"

#include "gtest/gtest.h"

namespace arbiter::engine {
namespace {

v1::Standings WithScores(std::initializer_list<std::pair<int64_t, std::vector<int64_t>>> rows) {
  v1::Standings standings;
  for (const auto& [score, tie_break] : rows) {
    v1::PlayerStanding* p = standings.add_players();
    p->set_score(score);
    for (int64_t t : tie_break) p->add_tie_break(t);
  }
  return standings;
}

TEST(AssignPlaces, HigherScoreRanksFirst) {
  v1::Standings s = WithScores({{10, {}}, {30, {}}, {20, {}}});
  AssignPlaces(s);
  EXPECT_EQ(s.players(0).place(), 3);
  EXPECT_EQ(s.players(1).place(), 1);
  EXPECT_EQ(s.players(2).place(), 2);
}

TEST(AssignPlaces, TiesShareAPlaceAndTheNextPlaceSkips) {
  v1::Standings s = WithScores({{30, {}}, {30, {}}, {20, {}}});
  AssignPlaces(s);
  EXPECT_EQ(s.players(0).place(), 1);
  EXPECT_EQ(s.players(1).place(), 1);
  EXPECT_EQ(s.players(2).place(), 3);
}

TEST(AssignPlaces, TieBreakValuesDecideInOrder) {
  v1::Standings s = WithScores({{30, {5, 1}}, {30, {5, 2}}, {30, {6, 0}}, {30, {5, 2}}});
  AssignPlaces(s);
  EXPECT_EQ(s.players(2).place(), 1);
  EXPECT_EQ(s.players(1).place(), 2);
  EXPECT_EQ(s.players(3).place(), 2);
  EXPECT_EQ(s.players(0).place(), 4);
}

}  // namespace
}  // namespace arbiter::engine
