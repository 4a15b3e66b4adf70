// The `hard` Blueprint option (docs/atlantis-rising.md, "Header options"):
// 2 A, 3 B and 4 C components drawn by the seed, then the Power Core.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "tests/engine/atlantis_rising/position_builder.h"

namespace arbiter::engine::atlantis_rising {
namespace {

using testing::Table;

TEST(AtlantisRisingBlueprint, HardIsTwoAThreeBFourCAndThePowerCoreLast) {
  std::set<std::vector<int>> seen;
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    SCOPED_TRACE(seed);
    Table table(3, seed, {{"blueprint", "hard"}});
    const std::vector<int>& blueprint = table.pos().blueprint;
    ASSERT_EQ(blueprint.size(), 10u);
    EXPECT_EQ(table.state().tables().component(blueprint.back()).id(), "power-core");
    std::map<std::string, int> letters;
    for (std::size_t i = 0; i + 1 < blueprint.size(); ++i) {
      ++letters[table.state().tables().component(blueprint[i]).letter()];
    }
    EXPECT_EQ(letters, (std::map<std::string, int>{{"A", 2}, {"B", 3}, {"C", 4}}));
    EXPECT_EQ(std::set<int>(blueprint.begin(), blueprint.end()).size(), blueprint.size());
    seen.insert(blueprint);
  }
  EXPECT_GT(seen.size(), 1u) << "the seed draws the components";
}

}  // namespace
}  // namespace arbiter::engine::atlantis_rising
