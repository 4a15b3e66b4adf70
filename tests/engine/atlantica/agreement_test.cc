// Check and LegalActions agree: every mutated spelling of a turn that Check
// accepts canonicalises into the LegalActions list, and the list holds no
// duplicates.
#include <gtest/gtest.h>

#include <set>

#include "engine/atlantica/game.h"
#include "tests/engine/atlantica/position_builder.h"

namespace arbiter::engine::atlantica::testing {
namespace {

using v1::Atlantica;

template <typename Repeated>
void ShuffleRepeated(Repeated* field, Rng& rng) {
  for (int i = field->size(); i > 1; --i) field->SwapElements(i - 1, static_cast<int>(rng.Uniform(static_cast<uint64_t>(i))));
}

// A random variation of `action`; often illegal, sometimes a respelling.
v1::Action Mutate(const v1::Action& action, const std::vector<Move>& others, Rng& rng) {
  v1::Action out = action;
  if (!out.atlantica().has_turn()) return out;
  auto* turn = out.mutable_atlantica()->mutable_turn();
  ShuffleRepeated(turn->mutable_actions(), rng);
  for (auto& a : *turn->mutable_actions()) {
    ShuffleRepeated(a.mutable_divers(), rng);
    ShuffleRepeated(a.mutable_areas(), rng);
    ShuffleRepeated(a.mutable_picks(), rng);
  }
  if (turn->actions_size() == 0) return out;
  auto& a = *turn->mutable_actions(static_cast<int>(rng.Uniform(static_cast<uint64_t>(turn->actions_size()))));
  switch (rng.Uniform(7)) {
    case 0:
      if (a.divers_size() > 0) a.set_divers(0, ColourOf(static_cast<int>(rng.Uniform(kColours))));
      break;
    case 1:
      if (a.areas_size() > 0) a.set_areas(0, 1 + static_cast<int>(rng.Uniform(7)));
      break;
    case 2: {
      const v1::Action& other = others[rng.Uniform(others.size())].action;
      if (other.atlantica().has_turn() && other.atlantica().turn().actions_size() > 0) {
        *turn->add_actions() = other.atlantica().turn().actions(0);
      }
      break;
    }
    case 3: {
      const auto c = ColourOf(static_cast<int>(rng.Uniform(kColours)));
      a.add_joker(c);
      a.add_joker(c);
      if (a.divers_size() > 0) a.mutable_divers()->RemoveLast();
      break;
    }
    case 4:
      a.set_tier(1 + static_cast<int>(rng.Uniform(3)));
      break;
    case 5:
      if (a.picks_size() > 0) a.mutable_picks(0)->set_area(1 + static_cast<int>(rng.Uniform(6)));
      break;
    default:
      break;  // a pure respelling
  }
  return out;
}

TEST(AtlanticaAgreement, AcceptedSpellingsCanonicaliseIntoTheLegalList) {
  int accepted = 0, checked = 0;
  for (int players = 2; players <= 5; ++players) {
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      GameSetup setup;
      setup.ruleset = &DefaultRuleset();
      setup.seed = seed;
      setup.num_players = players;
      auto state = *AtlanticaGame().NewInitialState(setup);
      Rng rng(seed + 100 * static_cast<uint64_t>(players));
      while (!state->IsTerminal()) {
        const auto moves = state->LegalActions();
        std::set<std::string> listed;
        for (const Move& m : moves) {
          ASSERT_TRUE(listed.insert(m.action.SerializeAsString()).second) << "duplicate " << m.action.ShortDebugString();
        }
        for (int i = 0; i < 20; ++i) {
          const Move& base = moves[rng.Uniform(moves.size())];
          const v1::Action mutated = Mutate(base.action, moves, rng);
          ++checked;
          if (state->Check(base.seat, mutated).has_value()) continue;
          ++accepted;
          const v1::Action canonical = state->Canonical(base.seat, mutated);
          ASSERT_TRUE(listed.count(canonical.SerializeAsString()))
              << "accepted " << mutated.ShortDebugString() << "\ncanonical " << canonical.ShortDebugString();
        }
        const Move& m = moves[rng.Uniform(moves.size())];
        ASSERT_EQ(state->Apply(m.seat, m.action), std::nullopt);
      }
    }
  }
  EXPECT_GT(accepted, checked / 10);  // the mutations do reach legal respellings
}

}  // namespace
}  // namespace arbiter::engine::atlantica::testing
