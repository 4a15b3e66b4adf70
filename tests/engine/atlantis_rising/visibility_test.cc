// Atlantis Rising: what each viewer is told of library cards (docs/atlantis-rising.md,
// "What is hidden from whom"). The conformance suite checks hands in every game;
// the cards drawn at a library and waiting to be kept are this game's own.
#include <gtest/gtest.h>

#include <memory>
#include <set>
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

// Whether `action` shows library card `id` to the table (a Play or a
// Discard of it): only then may its words name the card.
bool ShowsCard(const v1::Action& action, const std::string& id) {
  const v1::AtlantisRisingAction& a = action.atlantis_rising();
  return (a.has_play() && a.play().card() == id) || (a.has_discard() && a.discard().card() == id);
}

// The labels of the legal actions of `seat`, as a set.
std::set<std::string> LabelsOf(const State& state, Seat seat) {
  std::set<std::string> labels;
  for (const LabelledMove& move : state.LegalActionsFor(seat)) labels.insert(move.label);
  return labels;
}

// Labels go to every seat and to spectators (ListEvents, WatchGame, the
// verdict), so along random games no label of a legal action names a
// library card unless the action shows it; and at a choice of cards to
// keep, the labels are the same in a position that differs only in which
// cards were drawn (what the drawing seat alone has seen).
TEST(AtlantisRisingVisibility, NoLabelTellsACardThatOnlyItsHolderHasSeen) {
  Table probe(2);
  std::vector<std::string> ids;
  for (const Rules::LibraryCard& card : probe.state().tables().rules().library_cards()) ids.push_back(card.id());
  ASSERT_GE(ids.size(), 2u);
  int decisions = 0;
  int64_t labels = 0;
  for (uint64_t seed = 1; seed <= 40 && decisions < 5; ++seed) {
    Table table(3, seed);
    Rng chooser(seed);
    for (int step = 0; step < 20000 && !table.state().IsTerminal(); ++step) {
      const AtlantisRisingState& state = table.state();
      for (const Seat seat : state.SeatsToAct()) {
        for (const LabelledMove& move : state.LegalActionsFor(seat)) {
          ++labels;
          for (const std::string& id : ids) {
            ASSERT_TRUE(move.label.find(id) == std::string::npos || ShowsCard(move.action, id))
                << "seed " << seed << ", step " << step << ": \"" << move.label << "\" names " << id
                << ", which " << move.action.ShortDebugString() << " does not show";
          }
        }
      }
      if (state.position().pending.kind == Decision::kKeep && state.position().pending.drawn.size() >= 2) {
        ++decisions;
        const Seat drew = state.position().pending.seat;
        std::unique_ptr<State> other_draw = state.Clone();
        for (int& card : static_cast<AtlantisRisingState&>(*other_draw).MutablePositionForTest().pending.drawn) {
          card = (card + 1) % static_cast<int>(ids.size());
        }
        EXPECT_EQ(LabelsOf(state, drew), LabelsOf(*other_draw, drew)) << "seed " << seed << ", step " << step;
      }
      const std::vector<Move> moves = state.LegalActions();
      if (moves.empty()) break;
      const Move& move = moves[chooser.Uniform(moves.size())];
      table.Must(move.seat + 1, move.action);
    }
  }
  EXPECT_GE(decisions, 3) << "too few library decisions reached to test";
  EXPECT_GT(labels, 1000);
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
