// State::View for each game: a simulated game replayed action by action, its
// view checked at every position against the game's own facts (seats, whose
// turn, pieces on the board) and against the text description.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "engine/core/ruleset_registry.h"
#include "services/replay/referee.h"
#include "services/replay/simulate.h"

namespace arbiter {
namespace {

const engine::RulesetRegistry& Registry() {
  static const engine::RulesetRegistry* const registry =
      new engine::RulesetRegistry(*engine::RulesetRegistry::WithBuiltins());
  return *registry;
}

// Calls `check(referee, view)` at every position of a simulated game.
template <typename Check>
void ForEveryPosition(const std::string& game, int players, uint64_t seed, Check check) {
  replay::SimulationRequest request;
  request.game = game;
  request.players = players;
  request.seed = seed;
  absl::StatusOr<log::GameLog> log = replay::SimulateGame(request, Registry());
  ASSERT_TRUE(log.ok()) << log.status();
  absl::StatusOr<replay::Referee> referee = replay::Referee::Start(log->header, Registry());
  ASSERT_TRUE(referee.ok()) << referee.status();
  int64_t line = 2;
  check(*referee, referee->state().View());
  for (const v1::Action& action : log->actions) {
    auto applied = referee->Apply(action, line++);
    ASSERT_TRUE(applied.ok() && !applied->has_value());
    check(*referee, referee->state().View());
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_TRUE(referee->state().IsTerminal());
}

// Seats in order with the header's ids; exactly the seats to act marked.
void ExpectPlayers(const replay::Referee& referee, const v1::PositionView& view) {
  ASSERT_EQ(view.players_size(), referee.header().players_size());
  std::set<int> to_act;
  for (engine::Seat seat : referee.state().SeatsToAct()) to_act.insert(seat);
  for (int seat = 0; seat < view.players_size(); ++seat) {
    EXPECT_EQ(view.players(seat).seat(), seat);
    EXPECT_EQ(view.players(seat).player(), referee.header().players(seat).id());
    EXPECT_FALSE(view.players(seat).items().empty());
  }
  if (referee.state().IsTerminal()) {
    for (const v1::PlayerHoldings& p : view.players()) EXPECT_FALSE(p.to_act());
  }
}

int Pieces(const v1::PositionView& view) {
  int n = 0;
  for (const v1::BoardRow& row : view.rows()) {
    for (const v1::BoardSpace& space : row.spaces()) n += space.pieces_size();
  }
  return n;
}

TEST(PositionViewTest, AtlantisShowsThePathEveryFigureAndTheHands) {
  ForEveryPosition("atlantis", 3, 42, [](const replay::Referee& referee, const v1::PositionView& view) {
    EXPECT_EQ(view.game(), "atlantis");
    ExpectPlayers(referee, view);
    ASSERT_EQ(view.rows_size(), 1);
    const v1::BoardRow& path = view.rows(0);
    EXPECT_EQ(path.spaces(0).label(), "Atlantis");
    EXPECT_EQ(path.spaces(path.spaces_size() - 1).label(), "Mainland");
    // Every figure stands somewhere: Atlantis, the path or the mainland.
    EXPECT_EQ(Pieces(view) % 3, 0);
    EXPECT_GE(Pieces(view), 3);
    std::set<int> to_act;
    for (engine::Seat seat : referee.state().SeatsToAct()) to_act.insert(seat);
    for (const v1::PlayerHoldings& p : view.players()) {
      EXPECT_EQ(p.to_act(), to_act.count(p.seat()) == 1);
      EXPECT_EQ(p.items(0).name(), "cards");
    }
    // The tiles named in the view are the ones the description names.
    const std::string text = referee.state().ToString();
    for (const v1::BoardSpace& space : path.spaces()) {
      if (space.kind() == "tile") {
        EXPECT_NE(text.find(space.content().substr(0, space.content().find(' '))), std::string::npos);
      }
    }
  });
}

TEST(PositionViewTest, AtlanticaShowsTheBoatHarbourStationAndHoldings) {
  ForEveryPosition("atlantica", 4, 7, [](const replay::Referee& referee, const v1::PositionView& view) {
    EXPECT_EQ(view.game(), "atlantica");
    ExpectPlayers(referee, view);
    ASSERT_EQ(view.rows_size(), 3);
    EXPECT_EQ(view.rows(0).name(), "diving boat");
    EXPECT_EQ(view.rows(1).name(), "harbour");
    EXPECT_EQ(view.rows(2).name(), "research station");
    const std::string text = referee.state().ToString();
    for (int a = 0; a < view.rows(0).spaces_size(); ++a) {
      const std::string shown = std::to_string(a + 1) + "=" + view.rows(0).spaces(a).content();
      EXPECT_NE(text.find(shown), std::string::npos) << shown << "\n" << text;
    }
    int to_act = 0;
    for (const v1::PlayerHoldings& p : view.players()) to_act += p.to_act() ? 1 : 0;
    EXPECT_EQ(to_act, referee.state().IsTerminal() ? 0 : 1);
  });
}

TEST(PositionViewTest, AtlantisRisingShowsPeninsulasSitesBlueprintAndAtlanteans) {
  ForEveryPosition("atlantis-rising", 3, 5,
                   [](const replay::Referee& referee, const v1::PositionView& view) {
    EXPECT_EQ(view.game(), "atlantis-rising");
    ExpectPlayers(referee, view);
    ASSERT_EQ(view.rows_size(), 8);  // six peninsulas, the centre and sites, the blueprint
    EXPECT_EQ(view.rows(7).name(), "blueprint");
    int flooded = 0;
    for (int p = 0; p < 6; ++p) {
      for (const v1::BoardSpace& space : view.rows(p).spaces()) {
        if (space.kind() == "flooded") {
          ++flooded;
          EXPECT_EQ(space.pieces_size(), 0);
        }
      }
    }
    const std::string text = referee.state().ToString();
    int drowned = 0;
    for (std::size_t at = text.find("~~"); at != std::string::npos; at = text.find("~~", at + 2)) ++drowned;
    EXPECT_EQ(flooded, drowned - 1) << text;  // the legend names "~~" once
  });
}

}  // namespace
}  // namespace arbiter
