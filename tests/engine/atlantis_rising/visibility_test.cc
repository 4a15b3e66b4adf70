// Atlantis Rising: what each viewer is told of library cards (docs/atlantis-rising.md,
// "What is hidden from whom"). The conformance suite checks hands in every game;
// the cards drawn at a library and waiting to be kept are this game's own.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/core/rng.h"
#include "tests/engine/atlantis_rising/position_builder.h"

namespace arbiter::engine::atlantis_rising {
namespace {

using testing::Table;

std::string WaitingLine(const std::string& description) {
  const std::vector<std::string> lines = absl::StrSplit(description, '\n');
  for (const std::string& line : lines) {
    if (line.rfind("Waiting: ", 0) == 0) return line;
  }
  return "";
}

// Plays random legal actions until a seat has drawn library cards and must
// choose which to keep. Returns false if no game of a few hundred gets there.
bool PlayToAKeepDecision(Table& table, Rng& chooser) {
  for (int step = 0; step < 20000 && !table.state().IsTerminal(); ++step) {
    if (table.pos().pending.kind == Decision::kKeep && table.pos().pending.drawn.size() >= 2) return true;
    const std::vector<Move> moves = table.state().LegalActions();
    if (moves.empty()) return false;
    const Move& move = moves[chooser.Uniform(moves.size())];
    table.Must(move.seat + 1, move.action);
  }
  return false;
}

TEST(AtlantisRisingVisibility, CardsDrawnAtALibraryAreShownOnlyToTheSeatThatDrewThem) {
  int decisions = 0;
  for (uint64_t seed = 1; seed <= 40 && decisions < 5; ++seed) {
    Table table(3, seed);
    Rng chooser(seed);
    if (!PlayToAKeepDecision(table, chooser)) continue;
    ++decisions;
    const Seat drew = table.pos().pending.seat;
    std::vector<std::string> drawn;
    for (int card : table.pos().pending.drawn) drawn.push_back(table.state().tables().card(card).id());
    const std::string own = WaitingLine(table.state().DescribeFor(Viewer::ForSeat(drew)));
    for (const std::string& id : drawn) EXPECT_NE(own.find(id), std::string::npos) << own;
    std::vector<Viewer> others = {Viewer::Spectator()};
    for (Seat seat = 0; seat < 3; ++seat) {
      if (seat != drew) others.push_back(Viewer::ForSeat(seat));
    }
    for (const Viewer& viewer : others) {
      const std::string line = WaitingLine(table.state().DescribeFor(viewer));
      EXPECT_NE(line.find(absl::StrCat(drawn.size(), " hidden")), std::string::npos) << line;
      for (const std::string& id : drawn) {
        EXPECT_EQ(line.find(id), std::string::npos) << viewer.ToString() << ": " << line;
      }
    }
  }
  EXPECT_GE(decisions, 3) << "too few library decisions reached to test";
}

TEST(AtlantisRisingVisibility, ASeatSeesItsOwnLibraryCardsAndOnlyTheNumberOfAnothers) {
  Table table(2);
  table.Hand(1, {"sea-wall"}).Hand(2, {"mystic-insight", "sea-wall"});
  const v1::PositionView view = table.state().ViewFor(Viewer::ForSeat(0));
  ASSERT_EQ(view.players_size(), 2);
  auto cards = [](const v1::PlayerHoldings& holdings) {
    for (const v1::Counter& counter : holdings.items()) {
      if (counter.name() == "cards") return counter;
    }
    return v1::Counter();
  };
  EXPECT_EQ(cards(view.players(0)).detail(), "sea-wall");
  EXPECT_EQ(cards(view.players(1)).count(), 2);
  EXPECT_EQ(cards(view.players(1)).detail(), "");
  EXPECT_EQ(table.state().DescribeFor(Viewer::ForSeat(0)).find("mystic-insight"), std::string::npos);
  EXPECT_NE(table.state().DescribeFor(Viewer::ForSeat(1)).find("mystic-insight"), std::string::npos);
}

}  // namespace
}  // namespace arbiter::engine::atlantis_rising
