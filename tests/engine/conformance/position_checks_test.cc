// The conformance suite's position checks must fail on a state that breaks
// them: otherwise a green suite would prove nothing. Each test wraps a real
// position of every game in a state with one deliberate defect.
#include "tests/engine/conformance/position_checks.h"

#include <memory>
#include <string>
#include <utility>

#include "engine/core/game.h"
#include "engine/core/ruleset_registry.h"
#include "gtest/gtest.h"

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
    return moves;
  }
  v1::Action Canonical(Seat seat, const v1::Action& action) const override { return inner_->Canonical(seat, action); }
  std::optional<v1::Standings> Final() const override { return inner_->Final(); }
  std::string ToString() const override { return inner_->ToString(); }

 protected:
  void DoApply(Seat seat, const v1::Action& action) override { inner_->Apply(seat, action); }

 private:
  std::unique_ptr<State> inner_;
  Defect defect_;
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

}  // namespace
}  // namespace arbiter::testing
