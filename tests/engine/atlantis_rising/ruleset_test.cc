// Atlantis Rising ruleset data: validation, registration of a corrected file
// without a rebuild, component effects, and CheckShape.
#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include "engine/atlantis_rising/game.h"
#include "engine/core/game.h"
#include "engine/core/ruleset_registry.h"
#include "tests/engine/atlantis_rising/position_builder.h"

namespace arbiter::engine::atlantis_rising {
namespace {

using namespace testing;  // NOLINT: story verbs
using v1::AtlantisRising;

std::string TextOf(const v1::Ruleset& ruleset) {
  std::string text;
  google::protobuf::TextFormat::PrintToString(ruleset, &text);
  return text;
}

Rules::Component* FindComponent(v1::Ruleset& ruleset, const std::string& id) {
  for (auto& c : *ruleset.mutable_atlantis_rising()->mutable_components()) {
    if (c.id() == id) return &c;
  }
  return nullptr;
}

// The error message of validating the default ruleset after `edit`.
std::string ValidationError(const std::function<void(Rules&)>& edit) {
  v1::Ruleset ruleset = DefaultRuleset();
  edit(*ruleset.mutable_atlantis_rising());
  absl::Status status = AtlantisRisingGame().ValidateRuleset(ruleset);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  return std::string(status.message());
}

TEST(AtlantisRisingRuleset, IsRegisteredWithItsDefaultRuleset) {
  ASSERT_NE(FindGame("atlantis-rising"), nullptr);
  auto registry = RulesetRegistry::WithBuiltins();
  ASSERT_TRUE(registry.ok()) << registry.status();
  const RegisteredRuleset* ruleset = registry->DefaultFor("atlantis-rising");
  ASSERT_NE(ruleset, nullptr);
  EXPECT_EQ(ruleset->ruleset.id(), "atlantis-rising-elf-creek-2019");
  EXPECT_EQ(AtlantisRisingGame().MinPlayers(ruleset->ruleset), 1);
  EXPECT_EQ(AtlantisRisingGame().MaxPlayers(ruleset->ruleset), 7);
}

TEST(AtlantisRisingRuleset, ARegisteredCorrectionChangesTheGameWithoutARebuild) {
  v1::Ruleset corrected = DefaultRuleset();
  corrected.set_id("atlantis-rising-corrected");
  Rules& rules = *corrected.mutable_atlantis_rising();
  rules.clear_wrath_values();
  rules.add_wrath_values(2);  // the Wrath floods two tiles from the first round
  for (auto& tile : *rules.mutable_peninsulas(1)->mutable_tiles()) tile.set_discs(4);  // hills
  auto registry = RulesetRegistry::WithBuiltins();
  ASSERT_TRUE(registry.ok());
  auto registered = registry->Register(TextOf(corrected));
  ASSERT_TRUE(registered.ok()) << registered.status();

  Table table(4, 1, {}, &(*registered)->ruleset);
  for (int seat = 1; seat <= 4; ++seat) table.Must(seat, PlaceOn(Tile(AtlantisRising::HILLS, 1)));
  for (int seat = 1; seat <= 4; ++seat) {
    for (int i = 0; i < 2; ++i) table.Must(seat, PlaceOn(Centre()));
  }
  table.MisfortuneDeck(std::vector<std::pair<AtlantisRising::Misfortune, Peninsula>>(
      4, {AtlantisRising::CALM_SEAS, AtlantisRising::PENINSULA_UNSPECIFIED}));
  table.Must(1, FinishPlacement());
  for (int seat = 1; seat <= 4; ++seat) {
    table.Must(seat, ActOn(Tile(AtlantisRising::HILLS, 1)));
    while (table.pos().pending.kind == Decision::kRoll) table.Must(seat, Boost(0));
    for (int i = 0; i < 2; ++i) table.Must(seat, ActOn(Centre()));
  }
  ASSERT_EQ(table.pos().phase, Phase::kWrath);
  EXPECT_EQ(table.pos().pending.floods, 2);
}

TEST(AtlantisRisingRuleset, ComponentEffectsComeFromTheData) {
  v1::Ruleset ruleset = DefaultRuleset();
  Rules::Component* siphon = FindComponent(ruleset, "mystic-siphon");
  siphon->set_discs(1);
  siphon->mutable_disc_effect()->set_kind(AtlantisRising::GAIN_RESOURCE_CHOICE);
  siphon->mutable_disc_effect()->set_amount(2);
  Rules::Effect* bonus = siphon->add_effects();
  bonus->set_kind(AtlantisRising::ROLL_BONUS);
  bonus->set_amount(6);
  bonus->set_peninsula(AtlantisRising::FORESTS);
  Rules::Effect* energy = siphon->add_effects();
  energy->set_kind(AtlantisRising::ENERGY_EACH_ROUND);
  energy->set_amount(2);
  ASSERT_TRUE(AtlantisRisingGame().ValidateRuleset(ruleset).ok());

  Table table(4, 1, {}, &ruleset);
  table.Built("mystic-siphon");
  table.Must(1, PlaceOn(OnComponent("mystic-siphon")));
  EXPECT_EQ(table.RuleOf(2, PlaceOn(OnComponent("mystic-siphon"))), "spot_full");
  table.ActionsWith({{2, Tile(AtlantisRising::FORESTS, 6)}, {3, Centre()}}).DiceSeed(SeedRollingFirst(1));
  EXPECT_EQ(table.RuleOf(1, ActOn(OnComponent("mystic-siphon"))), "resource_choice_missing");
  table.Must(1, ActOn(OnComponent("mystic-siphon"), AtlantisRising::ATLANTIUM));
  EXPECT_EQ(table.Resource(1, AtlantisRising::ATLANTIUM), 2);
  table.Must(2, ActOn(Tile(AtlantisRising::FORESTS, 6)));  // 1 + 6 reaches the target 6
  EXPECT_EQ(table.Resource(2, AtlantisRising::CRYSTAL), 1);
  const int before = table.player(4).energy;
  table.Must(3, ActOn(Centre()));  // the round ends (Wrath 0)
  EXPECT_EQ(table.pos().round, 2);
  EXPECT_EQ(table.player(4).energy, before + 2);
}

TEST(AtlantisRisingRuleset, BrokenDataIsRefusedNamingTheField) {
  EXPECT_NE(ValidationError([](Rules& r) { r.set_wrath_values(r.wrath_values_size() - 1, 0); })
                .find("wrath_values"),
            std::string::npos);
  EXPECT_NE(ValidationError([](Rules& r) { r.mutable_peninsulas(1)->set_peninsula(AtlantisRising::MOUNTAINS); })
                .find("peninsulas[1].peninsula"),
            std::string::npos);
  EXPECT_NE(ValidationError([](Rules& r) { r.mutable_player_counts()->RemoveLast(); }).find("player_counts"),
            std::string::npos);
  EXPECT_NE(ValidationError([](Rules& r) {
              r.mutable_components(0)->mutable_cost(0)->set_resource(AtlantisRising::ORE);
            }).find("components[0].cost[0].resource"),
            std::string::npos);
  EXPECT_NE(ValidationError([](Rules& r) { r.mutable_blueprints(0)->add_components("no-such-thing"); })
                .find("blueprints[0].components"),
            std::string::npos);
  EXPECT_NE(ValidationError([](Rules& r) { r.mutable_peninsulas(4)->mutable_tiles(0)->set_discs(1); })
                .find("peninsulas[4].tiles[0].discs"),
            std::string::npos);
  EXPECT_NE(ValidationError([](Rules& r) {
              r.mutable_library_cards(0)->mutable_effect()->set_kind(AtlantisRising::ROLL_BONUS);
            }).find("library_cards[0].effect.kind"),
            std::string::npos);
  EXPECT_NE(ValidationError([](Rules& r) { r.mutable_difficulties(0)->set_calm_seas(99); })
                .find("difficulties[0].calm_seas"),
            std::string::npos);
}

TEST(AtlantisRisingRuleset, CheckShapeNamesTheFieldOutOfItsDomain) {
  const v1::Ruleset& rules = DefaultRuleset();
  auto shape = [&](const v1::Action& action) {
    absl::Status status = AtlantisRisingGame().CheckShape(action, rules);
    return status.ok() ? std::string("ok") : std::string(status.message());
  };
  EXPECT_EQ(shape(PlaceOn(Centre())), "ok");
  EXPECT_NE(shape(PlaceOn(Spot())).find("atlantis_rising.place: names no"), std::string::npos);
  EXPECT_NE(shape(PlaceOn(Tile(static_cast<Peninsula>(9), 1))).find("place.peninsula"), std::string::npos);
  EXPECT_NE(shape(PlaceOn(Tile(AtlantisRising::HILLS, 0))).find("place.position"), std::string::npos);
  v1::Action centre_with_position = PlaceOn(Centre());
  centre_with_position.mutable_atlantis_rising()->mutable_place()->set_position(3);
  EXPECT_NE(shape(centre_with_position).find("place.position"), std::string::npos);
  v1::Action centre_false = PlaceOn(Centre());
  centre_false.mutable_atlantis_rising()->mutable_place()->set_centre(false);
  EXPECT_NE(shape(centre_false).find("place.centre"), std::string::npos);
  v1::Action site_zero = ActOn(Site(1));
  site_zero.mutable_atlantis_rising()->mutable_act()->set_build_site(0);
  EXPECT_NE(shape(site_zero).find("act.build_site"), std::string::npos);
  EXPECT_NE(shape(FloodAction(AtlantisRising::PENINSULA_UNSPECIFIED)).find("flood.peninsula"), std::string::npos);
  EXPECT_NE(shape(Boost(-1)).find("boost.energy"), std::string::npos);
  EXPECT_NE(shape(Keep({"no-such-card"})).find("keep.cards"), std::string::npos);
  EXPECT_NE(shape(Pledge(1, AtlantisRising::RESOURCE_UNSPECIFIED)).find("pledge.resource"), std::string::npos);
  EXPECT_NE(shape(Build(0, "a1")).find("build.build_site"), std::string::npos);
  EXPECT_NE(shape(Build(1, "warp-drive")).find("build.component"), std::string::npos);
  EXPECT_NE(shape(Play("sea-wall", static_cast<Resource>(7))).find("play.resource"), std::string::npos);
  EXPECT_NE(shape(Discard("")).find("discard.card"), std::string::npos);
  v1::Action empty;
  empty.mutable_atlantis_rising();
  EXPECT_NE(shape(empty).find("atlantis_rising.kind"), std::string::npos);
  EXPECT_NE(shape(v1::Action()).find("atlantis_rising"), std::string::npos);
}

TEST(AtlantisRisingRuleset, CheckRefusesMalformedActionsEvenWithoutCheckShape) {
  Table table(4);
  EXPECT_EQ(table.RuleOf(1, PlaceOn(Tile(static_cast<Peninsula>(0), 1))), "malformed_action");
  EXPECT_EQ(table.RuleOf(1, Play("no-such-card")), "malformed_action");
  EXPECT_EQ(table.player(1).pool, 3);
}

TEST(AtlantisRisingRuleset, CanonicalSortsKeptCardsAndDropsUnusedChoices) {
  Table table(4);
  const v1::Action kept = table.state().Canonical(0, Keep({"sea-wall", "mystic-insight"}));
  ASSERT_EQ(kept.atlantis_rising().keep().cards_size(), 2);
  EXPECT_EQ(kept.atlantis_rising().keep().cards(0), "mystic-insight");
  const v1::Action act = table.state().Canonical(0, ActOn(Centre(), AtlantisRising::GOLD));
  EXPECT_EQ(act.atlantis_rising().act().resource(), AtlantisRising::RESOURCE_UNSPECIFIED);
  const v1::Action play = table.state().Canonical(0, Play("sea-wall", AtlantisRising::GOLD, AtlantisRising::HILLS));
  EXPECT_EQ(play.atlantis_rising().play().resource(), AtlantisRising::RESOURCE_UNSPECIFIED);
  EXPECT_EQ(play.atlantis_rising().play().peninsula(), AtlantisRising::PENINSULA_UNSPECIFIED);
}

TEST(AtlantisRisingRuleset, ToStringDescribesThePositionForPeople) {
  Table table(2);
  table.Flooded(AtlantisRising::HILLS, 1);
  table.Must(1, PlaceOn(Tile(AtlantisRising::FORESTS, 1)));
  const std::string text = table.state().ToString();
  EXPECT_NE(text.find("round 1"), std::string::npos);
  EXPECT_NE(text.find("hills: ~~"), std::string::npos);
  EXPECT_NE(text.find("[s1]"), std::string::npos);
  EXPECT_NE(text.find("Power Core"), std::string::npos);
}

}  // namespace
}  // namespace arbiter::engine::atlantis_rising
