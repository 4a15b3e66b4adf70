// engine/core/state.h: what the base class decides for every game — who sees
// the whole position (ViewFor, DescribeFor) and the order of LegalActionsFor.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/core/state.h"

namespace arbiter::engine {
namespace {

// A game of one counter: seat 0 may act while it is below `end`; its moves are
// listed in a fixed order with interleaved groups. Its hand is the counter.
class CountingState final : public State {
 public:
  explicit CountingState(int end) : State(2), end_(end) {}

  std::unique_ptr<State> Clone() const override { return std::make_unique<CountingState>(*this); }
  bool IsTerminal() const override { return count_ >= end_; }
  std::vector<Seat> SeatsToAct() const override { return IsTerminal() ? std::vector<Seat>{} : std::vector<Seat>{0}; }
  std::optional<Violation> Check(Seat seat, const v1::Action& /*action*/) const override {
    if (seat != 0) return Violation{"not_your_turn", "seat 1 only"};
    return std::nullopt;
  }
  std::vector<Move> LegalActions() const override {
    std::vector<Move> moves;
    if (IsTerminal()) return moves;
    for (const char* id : {"b1", "a1", "b2", "c1", "a2"}) {
      Move& move = moves.emplace_back();
      move.action.set_player(id);
    }
    return moves;
  }
  std::string Label(Seat seat, const v1::Action& action) const override {
    return players().Who(seat) + " plays " + action.player();
  }
  std::string Group(Seat /*seat*/, const v1::Action& action) const override { return action.player().substr(0, 1); }
  std::optional<v1::Standings> Final() const override { return std::nullopt; }
  std::string ToString() const override { return "count " + std::to_string(count_) + ", hand secret\n"; }
  v1::PositionView View() const override { return ViewCut(Viewer::Everyone()); }

 protected:
  void DoApply(Seat /*seat*/, const v1::Action& /*action*/) override { ++count_; }
  v1::PositionView ViewCut(const Viewer& viewer) const override {
    v1::PositionView view;
    view.set_headline(viewer.SeesHandOf(0) ? "hand secret" : "hand hidden");
    return view;
  }
  std::string DescriptionCut(const Viewer& viewer) const override {
    return viewer.SeesHandOf(0) ? ToString() : "count " + std::to_string(count_) + ", hand hidden\n";
  }

 private:
  int end_;
  int count_ = 0;
};

std::vector<std::string> Listed(const State& state, Seat seat) {
  std::vector<std::string> lines;
  for (const LabelledMove& move : state.LegalActionsFor(seat)) {
    lines.push_back(move.group + ": " + move.label + " (" + move.action.player() + ")");
  }
  return lines;
}

TEST(StateLegalActionsFor, GroupsComeInTheOrderOfTheirFirstActionEachInTheOrderListed) {
  CountingState state(3);
  EXPECT_EQ(Listed(state, 0), (std::vector<std::string>{"b: seat 1 plays b1 (b1)", "b: seat 1 plays b2 (b2)",
                                                        "a: seat 1 plays a1 (a1)", "a: seat 1 plays a2 (a2)",
                                                        "c: seat 1 plays c1 (c1)"}));
}

TEST(StateLegalActionsFor, ASeatNotToActOrNotInTheGameGetsNothing) {
  CountingState state(3);
  EXPECT_TRUE(state.LegalActionsFor(1).empty());
  EXPECT_TRUE(state.LegalActionsFor(2).empty());
  EXPECT_TRUE(state.LegalActionsFor(-1).empty());
}

TEST(StateViewFor, EveryoneSeesTheWholePositionAndTheOthersTheirCut) {
  CountingState state(1);
  EXPECT_EQ(state.ViewFor(Viewer::Everyone()).headline(), "hand secret");
  EXPECT_EQ(state.ViewFor(Viewer::ForSeat(0)).headline(), "hand secret");
  EXPECT_EQ(state.ViewFor(Viewer::ForSeat(1)).headline(), "hand hidden");
  EXPECT_EQ(state.ViewFor(Viewer::Spectator()).headline(), "hand hidden");
  EXPECT_EQ(state.DescribeFor(Viewer::Spectator()), "count 0, hand hidden\n");
  EXPECT_EQ(state.DescribeFor(Viewer::Everyone()), state.ToString());
}

TEST(StateViewFor, OnceTheGameIsOverEveryViewerSeesEverything) {
  CountingState state(1);
  ASSERT_EQ(state.Apply(0, v1::Action()), std::nullopt);
  ASSERT_TRUE(state.IsTerminal());
  EXPECT_EQ(state.ViewFor(Viewer::Spectator()).headline(), "hand secret");
  EXPECT_EQ(state.ViewFor(Viewer::ForSeat(1)).headline(), "hand secret");
  EXPECT_EQ(state.DescribeFor(Viewer::Spectator()), state.ToString());
}

TEST(Viewer, SaysWhoseHandsItSees) {
  EXPECT_TRUE(Viewer::Everyone().SeesHandOf(3));
  EXPECT_TRUE(Viewer::ForSeat(1).SeesHandOf(1));
  EXPECT_FALSE(Viewer::ForSeat(1).SeesHandOf(0));
  EXPECT_FALSE(Viewer::Spectator().SeesHandOf(0));
  EXPECT_EQ(Viewer::ForSeat(1).ToString(), "seat 2");
  EXPECT_EQ(Viewer::ForSeat(1), Viewer::ForSeat(1));
  EXPECT_FALSE(Viewer::ForSeat(1) == Viewer::ForSeat(2));
}

}  // namespace
}  // namespace arbiter::engine
