// A place or act whose spot names nothing (no peninsula tile, centre, build
// site or component) is malformed: the shape check refuses it, so the rule
// id reported is malformed_action. The id no_spot stays reserved in
// rule_ids.h but is never reported (docs/atlantis-rising.md).
#include <gtest/gtest.h>

#include "tests/engine/atlantis_rising/position_builder.h"

namespace arbiter::engine::atlantis_rising {
namespace {

using testing::Table;

TEST(AtlantisRisingSpots, ASpotNamingNothingIsMalformedNotNoSpot) {
  Table table(2);
  v1::Action place = testing::PlaceOn(testing::Centre());
  place.mutable_atlantis_rising()->mutable_place()->clear_where();
  EXPECT_EQ(table.RuleOf(1, place), "malformed_action");
  v1::Action act;
  act.set_player(place.player());
  act.mutable_atlantis_rising()->mutable_act();
  EXPECT_EQ(table.RuleOf(1, act), "malformed_action");
}

}  // namespace
}  // namespace arbiter::engine::atlantis_rising
