// The conformance suite: for every registered game and every player count its
// default ruleset allows, random legal games from fixed seeds, checking that
//   * every game ends, and a non-final position always has a legal action;
//   * the checks of position_checks.h at every position: Check() accepts
//     exactly what LegalActions() lists, for exactly the seats that may act;
//   * the checks of view_checks.h at every kViewCheckEvery-th position
//     (which ones shifts with the seed; they cost several times the rest) and at
//     the final one: no seat's view or description shows another seat's hand,
//     a spectator's shows none, and each shows everything else;
//   * the checks of labelled_move_checks.h at the same positions (with
//     mutations of their own generator): for every seat, LegalActionsFor and
//     Check() agree both ways, and the labels are sentences of the position
//     and the action only;
//   * over the run, the mutations exercised both sides of that check: many
//     were refused, and some were accepted as a different listed action;
//   * the log written for the game survives a write/read round trip byte for
//     byte, and replaying it reproduces the same verdict and standings.
// ARBITER_CONFORMANCE_SEEDS overrides the number of seeds (default 1000).
#include <google/protobuf/util/message_differencer.h>

#include <cstdlib>
#include <iostream>
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "engine/core/game.h"
#include "engine/core/random_playout.h"
#include "engine/core/ruleset_registry.h"
#include "gtest/gtest.h"
#include "services/log/log_file.h"
#include "services/replay/replay.h"
#include "services/replay/simulate.h"
#include "tests/engine/conformance/action_mutator.h"
#include "tests/engine/conformance/labelled_move_checks.h"
#include "tests/engine/conformance/position_checks.h"
#include "tests/engine/conformance/view_checks.h"

namespace arbiter::testing {
namespace {

using google::protobuf::util::MessageDifferencer;

struct GameAndPlayers {
  const engine::Game* game;
  int players;
  std::map<std::string, std::string> options = {};  // header options
};

std::vector<GameAndPlayers> AllGameConfigurations() {
  static const engine::RulesetRegistry* registry = [] {
    auto r = engine::RulesetRegistry::WithBuiltins();
    return r.ok() ? new engine::RulesetRegistry(*std::move(r)) : new engine::RulesetRegistry();
  }();
  std::vector<GameAndPlayers> configurations;
  for (const engine::Game* game : engine::AllGames()) {
    const engine::RegisteredRuleset* ruleset = registry->DefaultFor(std::string(game->name()));
    if (ruleset == nullptr) continue;
    for (int n = game->MinPlayers(ruleset->ruleset); n <= game->MaxPlayers(ruleset->ruleset); ++n) {
      configurations.push_back({game, n});
    }
  }
  // Options that change what is legal (docs/atlantis.md, "Options").
  if (const engine::Game* atlantis = engine::FindGame("atlantis"); atlantis != nullptr) {
    for (int n : {2, 4}) configurations.push_back({atlantis, n, {{"toll_payment", "tiles_or_cards"}}});
  }
  return configurations;
}

// Views are checked at one position in this many (see the top of the file).
constexpr uint64_t kViewCheckEvery = 16;

int SeedCount() {
  const char* env = std::getenv("ARBITER_CONFORMANCE_SEEDS");
  return env != nullptr ? std::max(1, std::atoi(env)) : 1000;
}

class ConformanceTest : public ::testing::TestWithParam<GameAndPlayers> {
 protected:
  void SetUp() override {
    auto registry = engine::RulesetRegistry::WithBuiltins();
    ASSERT_TRUE(registry.ok()) << registry.status();
    registry_ = *std::move(registry);
  }

  v1::LogHeader HeaderFor(uint64_t seed) const {
    const engine::RegisteredRuleset* ruleset = registry_.DefaultFor(std::string(GetParam().game->name()));
    v1::LogHeader header;
    header.set_game(std::string(GetParam().game->name()));
    header.set_ruleset_id(ruleset->ruleset.id());
    header.set_ruleset_hash(ruleset->hash);
    header.set_seed(seed);
    header.mutable_options()->insert(GetParam().options.begin(), GetParam().options.end());
    for (int i = 1; i <= GetParam().players; ++i) {
      v1::Player* p = header.add_players();
      p->set_id(absl::StrCat("p", i));
      p->set_name(absl::StrCat("Player ", i));
    }
    return header;
  }

  // Plays one game, checking every position. Returns the log.
  log::GameLog PlayCheckedGame(uint64_t seed) {
    log::GameLog log;
    log.header = HeaderFor(seed);
    auto referee = replay::Referee::Start(log.header, registry_);
    EXPECT_TRUE(referee.ok()) << referee.status();
    if (!referee.ok()) return log;
    engine::Rng bot(seed ^ engine::kBotSeedSalt);
    engine::Rng mutation_rng(seed * 7919 + 17);
    engine::Rng labelled_rng(seed * 104729 + 3);
    constexpr int kMaxActions = 200'000;
    while (!referee->state().IsTerminal()) {
      const engine::State& state = referee->state();
      if (static_cast<int>(log.actions.size()) >= kMaxActions) {
        ADD_FAILURE() << "seed " << seed << ": the game did not end within " << kMaxActions << " actions";
        return log;
      }
      if (auto problem = CheckPosition(*GetParam().game, referee->ruleset().ruleset, state, mutation_rng,
                                       mutations_)) {
        ADD_FAILURE() << "seed " << seed << " step " << log.actions.size() << ": " << *problem;
        return log;
      }
      if ((log.actions.size() + seed) % kViewCheckEvery != 0) {
        // Not this position.
      } else if (auto problem = CheckViews(std::string(GetParam().game->name()), state)) {
        ADD_FAILURE() << "seed " << seed << " step " << log.actions.size() << ": " << *problem;
        return log;
      } else if (auto labelled = CheckLabelledMoves(*GetParam().game, referee->ruleset().ruleset, state,
                                                    labelled_rng)) {
        ADD_FAILURE() << "seed " << seed << " step " << log.actions.size() << ": " << *labelled;
        return log;
      }
      const std::vector<engine::Move> legal = state.LegalActions();
      engine::Move chosen = legal[bot.Uniform(legal.size())];
      chosen.action.set_player(referee->PlayerAt(chosen.seat));
      auto applied = referee->Apply(chosen.action, log::LineOfAction(log.actions.size()));
      if (!applied.ok() || applied->has_value()) {
        ADD_FAILURE() << "seed " << seed << ": the referee refuses a listed action";
        return log;
      }
      log.actions.push_back(std::move(chosen.action));
    }
    EXPECT_EQ(referee->verdict(), replay::Verdict::kLegal);
    if (auto problem = CheckViews(std::string(GetParam().game->name()), referee->state())) {
      ADD_FAILURE() << "seed " << seed << " at the end: " << *problem;
    }
    std::optional<v1::Standings> standings = referee->Standings();
    EXPECT_TRUE(standings.has_value()) << "seed " << seed << ": a finished game has no standings";
    if (standings.has_value()) {
      EXPECT_EQ(standings->players_size(), GetParam().players);
      for (const v1::PlayerStanding& p : standings->players()) {
        EXPECT_GE(p.place(), 1);
        EXPECT_LE(p.place(), GetParam().players);
      }
      standings_ = *standings;
    }
    return log;
  }

  engine::RulesetRegistry registry_;
  v1::Standings standings_;
  MutationCounts mutations_;
};

TEST_P(ConformanceTest, RandomGamesEndLegallyAndReplayIdentically) {
  const int seeds = SeedCount();
  for (int i = 0; i < seeds; ++i) {
    const uint64_t seed = 1000 + static_cast<uint64_t>(i);
    const log::GameLog played = PlayCheckedGame(seed);
    if (HasFailure()) return;

    const std::string text = log::FormatLog(played);
    auto read = log::ParseLog(text);
    ASSERT_TRUE(read.ok()) << "seed " << seed << ": " << read.status();
    ASSERT_EQ(log::FormatLog(*read), text) << "seed " << seed << ": the log changed in a round trip";

    auto replayed = replay::Replay(*read, registry_);
    ASSERT_TRUE(replayed.ok()) << "seed " << seed << ": " << replayed.status();
    ASSERT_EQ(replayed->verdict(), replay::Verdict::kLegal) << "seed " << seed;
    std::optional<v1::Standings> again = replayed->Standings();
    ASSERT_TRUE(again.has_value());
    ASSERT_TRUE(MessageDifferencer::Equals(*again, standings_))
        << "seed " << seed << ": replay gives other standings:\n"
        << again->DebugString() << "\nversus\n"
        << standings_.DebugString();
  }
  // Mutations that never reach Check, or that Check never accepts, would
  // leave the position checks above proving nothing.
  const MutationCounts& m = mutations_;
  std::cout << "mutations: tried " << m.tried << ", unchanged " << m.unchanged << ", refused by Check "
            << m.refused_by_check << ", refused by CheckShape only " << m.refused_by_shape << ", accepted "
            << m.accepted << " (as another listed action " << m.accepted_other << ")\n";
  EXPECT_EQ(m.tried, m.unchanged + m.refused_by_check + m.refused_by_shape + m.accepted);
  EXPECT_GT(m.refused_by_check, m.tried / 4) << "most mutations should be refused by Check";
  EXPECT_GT(m.accepted_other, 0) << "no mutation ever turned into another legal action";
}

// Hostile logs: a simulated game with one action changed at random must give
// either a verdict or an InvalidArgument error that names the changed line,
// and never crash (run under the sanitizers).
TEST_P(ConformanceTest, MutatedLogsGiveAVerdictOrAnErrorNamingTheLine) {
  const int seeds = std::max(1, SeedCount() / 10);
  engine::Rng rng(4242);
  for (int i = 0; i < seeds; ++i) {
    const uint64_t seed = 5000 + static_cast<uint64_t>(i);
    auto played = replay::SimulateGame(
        {.game = std::string(GetParam().game->name()),
         .players = GetParam().players,
         .seed = seed,
         .options = GetParam().options}, registry_);
    ASSERT_TRUE(played.ok()) << played.status();
    for (int m = 0; m < 5 && !played->actions.empty(); ++m) {
      log::GameLog mutated = *played;
      const std::size_t index = rng.Uniform(mutated.actions.size());
      mutated.actions[index] = MutateAction(mutated.actions[index], rng);
      auto referee = replay::Replay(mutated, registry_);
      const int64_t line = log::LineOfAction(index);
      if (!referee.ok()) {
        EXPECT_EQ(referee.status().code(), absl::StatusCode::kInvalidArgument) << referee.status();
        EXPECT_EQ(std::string(referee.status().message()).rfind(absl::StrCat("line ", line, ": "), 0), 0u)
            << "seed " << seed << ": " << referee.status();
        continue;
      }
      if (referee->verdict() == replay::Verdict::kIllegal) {
        EXPECT_GE(referee->violation()->event, line) << "seed " << seed;
        EXPECT_FALSE(referee->violation()->violation.rule.empty());
        EXPECT_FALSE(referee->violation()->violation.detail.empty());
      }
    }
  }
}

std::string ConfigurationName(const ::testing::TestParamInfo<GameAndPlayers>& info) {
  std::string name = absl::StrCat(absl::StrReplaceAll(std::string(info.param.game->name()), {{"-", "_"}}),
                                  "_", info.param.players, "p");
  for (const auto& [key, value] : info.param.options) absl::StrAppend(&name, "_", key, "_", value);
  return name;
}

INSTANTIATE_TEST_SUITE_P(AllGames, ConformanceTest, ::testing::ValuesIn(AllGameConfigurations()),
                         ConfigurationName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ConformanceTest);

}  // namespace
}  // namespace arbiter::testing
