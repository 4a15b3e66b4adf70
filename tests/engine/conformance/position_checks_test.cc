// The conformance suite's position checks must fail on a state that breaks
// them: otherwise a green suite would prove nothing. Each test wraps a real
// position of every game in a state with one deliberate defect. The view
// checks (view_checks.h) are tested the same way.
#include "tests/engine/conformance/position_checks.h"

#include <memory>
#include <set>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/core/game.h"
#include "engine/core/ruleset_registry.h"
#include "gtest/gtest.h"
#include "tests/engine/conformance/labelled_move_checks.h"
#include "tests/engine/conformance/view_checks.h"

namespace arbiter::testing {
namespace {

using engine::Move;
using engine::Seat;
using engine::State;
using engine::Violation;

enum class Defect {
  kNone,
  kAcceptsEverything,    // Check() accepts any action from any seat
  kRefusesEverything,    // Check() refuses every action
  kListsForWrongSeat,    // LegalActions() lists the moves for the next seat
  kListsNothing,         // LegalActions() is empty
  kViewShowsHands,       // ViewFor() copies every hand's contents (View())
  kViewHidesOwnHand,     // ViewFor() of a seat hides its own hand too
  kTextShowsHands,       // DescribeFor() copies every hand's contents (ToString())
  kEmptyLabels,          // Label() is empty
  kLabelsChange,         // Label() counts its calls
  kListsTwoInThree,      // LegalActions() drops every third move
};

// Forwards to a real state, but for its one defect.
class DefectiveState final : public State {
 public:
  DefectiveState(std::unique_ptr<State> inner, Defect defect)
      : State(inner->num_players()), inner_(std::move(inner)), defect_(defect) {}
  DefectiveState(const DefectiveState& other) : State(other), inner_(other.inner_->Clone()), defect_(other.defect_) {}

  std::unique_ptr<State> Clone() const override { return std::make_unique<DefectiveState>(*this); }
  bool IsTerminal() const override { return inner_->IsTerminal(); }
  std::vector<Seat> SeatsToAct() const override { return inner_->SeatsToAct(); }
  std::optional<Violation> Check(Seat seat, const v1::Action& action) const override {
    if (defect_ == Defect::kAcceptsEverything) return std::nullopt;
    if (defect_ == Defect::kRefusesEverything) return Violation{"refused", "refused by the test"};
    return inner_->Check(seat, action);
  }
  std::vector<Move> LegalActions() const override {
    if (defect_ == Defect::kListsNothing) return {};
    std::vector<Move> moves = inner_->LegalActions();
    if (defect_ == Defect::kListsForWrongSeat) {
      for (Move& move : moves) move.seat = (move.seat + 1) % num_players();
    }
    if (defect_ == Defect::kListsTwoInThree) {
      std::vector<Move> kept;
      for (std::size_t i = 0; i < moves.size(); ++i) {
        if (i % 3 != 1) kept.push_back(moves[i]);
      }
      return kept;
    }
    return moves;
  }
  std::string Label(Seat seat, const v1::Action& action) const override {
    if (defect_ == Defect::kEmptyLabels) return "";
    if (defect_ == Defect::kLabelsChange) return absl::StrCat(inner_->Label(seat, action), " #", ++label_calls_);
    return inner_->Label(seat, action);
  }
  std::string Group(Seat seat, const v1::Action& action) const override { return inner_->Group(seat, action); }
  v1::Action Canonical(Seat seat, const v1::Action& action) const override { return inner_->Canonical(seat, action); }
  std::optional<v1::Standings> Final() const override { return inner_->Final(); }
  std::string ToString() const override { return inner_->ToString(); }
  v1::PositionView View() const override { return inner_->View(); }

 protected:
  void DoApply(Seat seat, const v1::Action& action) override { inner_->Apply(seat, action); }
  v1::PositionView ViewCut(const engine::Viewer& viewer) const override {
    if (defect_ == Defect::kViewShowsHands) return inner_->View();
    if (defect_ == Defect::kViewHidesOwnHand) return inner_->ViewFor(engine::Viewer::Spectator());
    return inner_->ViewFor(viewer);
  }
  std::string DescriptionCut(const engine::Viewer& viewer) const override {
    if (defect_ == Defect::kTextShowsHands) return inner_->ToString();
    return inner_->DescribeFor(viewer);
  }

 private:
  std::unique_ptr<State> inner_;
  Defect defect_;
  mutable int label_calls_ = 0;
};

struct Position {
  const engine::Game* game;
  const engine::RegisteredRuleset* ruleset;
  std::unique_ptr<State> state;
};

class PositionChecksTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto registry = engine::RulesetRegistry::WithBuiltins();
    ASSERT_TRUE(registry.ok()) << registry.status();
    registry_ = *std::move(registry);
  }

  // The opening position of every game at its smallest table of two or more.
  std::vector<Position> Openings() const {
    std::vector<Position> positions;
    for (const engine::Game* game : engine::AllGames()) {
      const engine::RegisteredRuleset* ruleset = registry_.DefaultFor(std::string(game->name()));
      if (ruleset == nullptr) continue;
      engine::GameSetup setup;
      setup.ruleset = &ruleset->ruleset;
      setup.seed = 77;
      setup.num_players = std::max(2, game->MinPlayers(ruleset->ruleset));
      auto state = game->NewInitialState(setup);
      EXPECT_TRUE(state.ok()) << state.status();
      if (state.ok()) positions.push_back({game, ruleset, *std::move(state)});
    }
    return positions;
  }

  // What CheckPosition says about every game's opening with `defect`.
  std::vector<std::string> ProblemsWith(Defect defect) const {
    std::vector<std::string> problems;
    for (Position& position : Openings()) {
      DefectiveState state(std::move(position.state), defect);
      engine::Rng rng(5);
      MutationCounts counts;
      std::optional<std::string> problem = CheckPosition(*position.game, position.ruleset->ruleset, state, rng, counts);
      problems.push_back(problem.value_or("(none)"));
    }
    return problems;
  }

  // Every game's first position of a random game (fixed seed), at least
  // `min_steps` actions in, in which every hand holds something, so that a
  // view has a hand to leak.
  std::vector<Position> PositionsWithFullHands(int min_steps = 0) const {
    std::vector<Position> positions = Openings();
    for (Position& position : positions) {
      const std::set<std::string> hands = *HandCountersOf(std::string(position.game->name()));
      engine::Rng bot(11);
      auto every_hand_holds_something = [&hands](const v1::PositionView& view) {
        for (const v1::PlayerHoldings& holdings : view.players()) {
          for (const v1::Counter& counter : holdings.items()) {
            if (hands.count(counter.name()) > 0 && counter.count() == 0) return false;
          }
        }
        return true;
      };
      for (int step = 0; step < 10'000 && (step < min_steps || !every_hand_holds_something(position.state->View()));
           ++step) {
        const std::vector<Move> legal = position.state->LegalActions();
        EXPECT_FALSE(legal.empty()) << position.game->name() << ": no position with every hand holding a card";
        if (legal.empty()) break;
        const Move& move = legal[bot.Uniform(legal.size())];
        position.state->Apply(move.seat, move.action);
      }
    }
    return positions;
  }

  // What CheckViews says, with `defect`, about every game's position in
  // which every hand holds something.
  std::vector<std::string> ViewProblemsWith(Defect defect) const {
    std::vector<std::string> problems;
    for (Position& position : PositionsWithFullHands()) {
      DefectiveState state(std::move(position.state), defect);
      problems.push_back(CheckViews(std::string(position.game->name()), state).value_or("(none)"));
    }
    return problems;
  }

  // What CheckLabelledMoves says with `defect` about every game's position
  // with full hands at least `min_steps` actions in (PositionsWithFullHands),
  // trying up to `tries` mutation seeds until one finds a problem.
  std::vector<std::string> LabelProblemsWith(Defect defect, int tries = 1, int min_steps = 0) const {
    std::vector<std::string> problems;
    for (Position& position : PositionsWithFullHands(min_steps)) {
      DefectiveState state(std::move(position.state), defect);
      std::optional<std::string> problem;
      for (int seed = 1; seed <= tries && !problem.has_value(); ++seed) {
        engine::Rng rng(static_cast<uint64_t>(seed));
        problem = CheckLabelledMoves(*position.game, position.ruleset->ruleset, state, rng);
      }
      problems.push_back(problem.value_or("(none)"));
    }
    return problems;
  }

  engine::RulesetRegistry registry_;
};

TEST_F(PositionChecksTest, SoundStatesPassAndCountEveryMutation) {
  std::vector<Position> openings = Openings();
  ASSERT_EQ(openings.size(), engine::AllGames().size());
  for (Position& position : openings) {
    engine::Rng rng(5);
    MutationCounts counts;
    EXPECT_EQ(CheckPosition(*position.game, position.ruleset->ruleset, *position.state, rng, counts), std::nullopt)
        << position.game->name();
    EXPECT_EQ(counts.tried, kMutationsPerPosition);
    EXPECT_EQ(counts.tried, counts.unchanged + counts.refused_by_check + counts.refused_by_shape + counts.accepted);
  }
}

TEST_F(PositionChecksTest, ACheckThatAcceptsEverythingIsCaught) {
  for (const std::string& problem : ProblemsWith(Defect::kAcceptsEverything)) {
    // Either an out-of-turn seat is accepted, or (for games where every seat
    // may act) a mutated action that is not listed.
    const bool caught = problem.find("may act out of turn") != std::string::npos ||
                        problem.find("Check accepts an action that LegalActions does not list") != std::string::npos;
    EXPECT_TRUE(caught) << problem;
  }
}

TEST_F(PositionChecksTest, ACheckThatRefusesListedActionsIsCaught) {
  for (const std::string& problem : ProblemsWith(Defect::kRefusesEverything)) {
    EXPECT_EQ(problem.rfind("Check refuses a listed action (refused: refused by the test)", 0), 0u) << problem;
  }
}

TEST_F(PositionChecksTest, MovesListedForASeatThatIsNotToActAreCaught) {
  std::vector<Position> openings = Openings();
  std::vector<std::string> problems = ProblemsWith(Defect::kListsForWrongSeat);
  ASSERT_EQ(problems.size(), openings.size());
  int turn_based = 0;
  for (std::size_t i = 0; i < openings.size(); ++i) {
    // Where every seat may act at once (Atlantis Rising's placement), moving
    // a move to the next seat is no defect: skip those openings.
    if (static_cast<int>(openings[i].state->SeatsToAct().size()) == openings[i].state->num_players()) continue;
    ++turn_based;
    EXPECT_EQ(problems[i].rfind("a legal action is listed for seat ", 0), 0u)
        << openings[i].game->name() << ": " << problems[i];
  }
  EXPECT_GE(turn_based, 2);
}

TEST_F(PositionChecksTest, AnEmptyListInAnOpenPositionIsCaught) {
  for (const std::string& problem : ProblemsWith(Defect::kListsNothing)) {
    EXPECT_EQ(problem.rfind("no legal action in a non-final position", 0), 0u) << problem;
  }
}

TEST_F(PositionChecksTest, SoundViewsPassForEveryGame) {
  std::vector<Position> positions = PositionsWithFullHands();
  ASSERT_EQ(positions.size(), engine::AllGames().size());
  for (Position& position : positions) {
    EXPECT_EQ(CheckViews(std::string(position.game->name()), *position.state), std::nullopt) << position.game->name();
  }
}

TEST_F(PositionChecksTest, AViewThatShowsAnotherSeatsHandIsCaught) {
  for (const std::string& problem : ViewProblemsWith(Defect::kViewShowsHands)) {
    EXPECT_EQ(problem.rfind("the view for spectator, seat 1: shows hidden ", 0), 0u) << problem;
  }
}

TEST_F(PositionChecksTest, AViewThatHidesTheViewersOwnHandIsCaught) {
  for (const std::string& problem : ViewProblemsWith(Defect::kViewHidesOwnHand)) {
    EXPECT_EQ(problem.rfind("the view for seat 1, seat 1: counter ", 0), 0u) << problem;
  }
}

TEST_F(PositionChecksTest, ADescriptionThatTellsAnotherSeatsHandIsCaught) {
  for (const std::string& problem : ViewProblemsWith(Defect::kTextShowsHands)) {
    EXPECT_EQ(problem.rfind("the description for spectator tells ", 0), 0u) << problem;
  }
}

TEST_F(PositionChecksTest, SoundLabelledMovesPassForEveryGame) {
  for (Position& position : PositionsWithFullHands()) {
    engine::Rng rng(3);
    EXPECT_EQ(CheckLabelledMoves(*position.game, position.ruleset->ruleset, *position.state, rng), std::nullopt)
        << position.game->name();
  }
  for (const std::string& problem : LabelProblemsWith(Defect::kNone, 10)) EXPECT_EQ(problem, "(none)");
}

TEST_F(PositionChecksTest, AnEmptyLabelIsCaught) {
  for (const std::string& problem : LabelProblemsWith(Defect::kEmptyLabels)) {
    EXPECT_EQ(problem.rfind("an empty label or group: ", 0), 0u) << problem;
  }
}

TEST_F(PositionChecksTest, ALabelThatChangesFromCallToCallIsCaught) {
  for (const std::string& problem : LabelProblemsWith(Defect::kLabelsChange)) {
    EXPECT_NE(problem.find("is not Label() of the action, or differs in a clone"), std::string::npos) << problem;
  }
}

TEST_F(PositionChecksTest, AnAcceptedActionMissingFromTheLabelledListIsCaught) {
  std::vector<std::string> problems = LabelProblemsWith(Defect::kListsTwoInThree, 100, 0);
  for (std::size_t i = 0; i < problems.size(); ++i) {
    EXPECT_EQ(problems[i].rfind("Check accepts for seat ", 0), 0u)
        << engine::AllGames()[i]->name() << ": " << problems[i];
  }
}

TEST_F(PositionChecksTest, ALabelledMoveForASeatNotToActIsCaught) {
  std::vector<Position> positions = PositionsWithFullHands();
  std::vector<std::string> problems = LabelProblemsWith(Defect::kListsForWrongSeat);
  for (std::size_t i = 0; i < positions.size(); ++i) {
    if (static_cast<int>(positions[i].state->SeatsToAct().size()) == positions[i].state->num_players()) continue;
    // Either the seat not to act is listed moves, or the seat to act misses
    // them while Check accepts them (whichever seat is looked at first).
    const bool caught = problems[i].find("for a seat not to act") != std::string::npos ||
                        problems[i].rfind("Check accepts for seat ", 0) == 0;
    EXPECT_TRUE(caught) << problems[i];
  }
}

TEST(ViewChecks, EveryGameListsItsHandCounters) {
  for (const engine::Game* game : engine::AllGames()) {
    EXPECT_TRUE(HandCountersOf(std::string(game->name())).has_value()) << game->name();
  }
}

}  // namespace
}  // namespace arbiter::testing
