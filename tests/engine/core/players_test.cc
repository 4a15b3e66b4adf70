// Players' names in the engines' sentences.
#include "engine/core/players.h"

#include <gtest/gtest.h>

namespace arbiter::engine {
namespace {

TEST(Players, NameAPlayerByDisplayNameAndId) {
  const Players players({{"ann", "Ann"}, {"bob", ""}, {"james", "James"}});
  EXPECT_EQ(players.Who(0), "Ann (ann)");
  EXPECT_EQ(players.Whose(0), "Ann's (ann)");
  EXPECT_EQ(players.Who(1), "bob") << "no display name: the id alone";
  EXPECT_EQ(players.Whose(1), "bob's");
  EXPECT_EQ(players.Whose(2), "James' (james)");
}

TEST(Players, SeatHeadingsAddTheName) {
  const Players players({{"ann", "Ann"}, {"bob", ""}});
  EXPECT_EQ(players.SeatLabel(0), "Seat 1, Ann (ann)");
  EXPECT_EQ(players.SeatLabel(1), "Seat 2, bob");
  EXPECT_EQ(Players().SeatLabel(2), "Seat 3");
}

TEST(Players, FallBackToSeatNumbersWithoutAHeader) {
  const Players none;
  EXPECT_EQ(none.Who(1), "seat 2");
  EXPECT_EQ(none.Whose(0), "seat 1's");
  const Players players(std::vector<PlayerName>{{"ann", "Ann"}});
  EXPECT_EQ(players.Who(3), "seat 4");
}

TEST(Players, ADisplayNameEqualToTheIdIsNotRepeated) {
  EXPECT_EQ(Players(std::vector<PlayerName>{{"ann", "ann"}}).Who(0), "ann");
}

}  // namespace
}  // namespace arbiter::engine
