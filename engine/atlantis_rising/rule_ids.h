// Atlantis Rising: the rule ids of illegal actions. Part of the API (CLI JSON,
// replay reports): never rename one that has shipped. docs/atlantis-rising.md
// lists them with examples.
#ifndef ARBITER_ENGINE_ATLANTIS_RISING_RULE_IDS_H_
#define ARBITER_ENGINE_ATLANTIS_RISING_RULE_IDS_H_

namespace arbiter::engine::atlantis_rising {

// A field outside its domain (what Game::CheckShape refuses).
inline constexpr char kRuleMalformedAction[] = "malformed_action";
// Phases and pending decisions.
inline constexpr char kRuleWrongPhase[] = "wrong_phase";
inline constexpr char kRuleDecisionPending[] = "decision_pending";
inline constexpr char kRuleHandOverLimit[] = "hand_over_limit";
// Spots.
inline constexpr char kRuleNoSpot[] = "no_spot";
inline constexpr char kRuleUnknownTile[] = "unknown_tile";
inline constexpr char kRuleUnknownBuildSite[] = "unknown_build_site";
inline constexpr char kRuleUnknownComponent[] = "unknown_component";
inline constexpr char kRuleComponentNotBuilt[] = "component_not_built";
inline constexpr char kRuleComponentHasNoDiscs[] = "component_has_no_discs";
// Placement.
inline constexpr char kRuleAtlanteanAlreadyPlaced[] = "atlantean_already_placed";
inline constexpr char kRuleTileFlooded[] = "tile_flooded";
inline constexpr char kRuleSpotFull[] = "spot_full";
inline constexpr char kRuleOnePerPlayerPerSite[] = "one_atlantean_per_player_per_site";
inline constexpr char kRuleAtlanteansUnplaced[] = "atlanteans_unplaced";
// Floods.
inline constexpr char kRuleNoFloodDue[] = "no_flood_due";
inline constexpr char kRuleNotTheDrawer[] = "not_the_drawer";
inline constexpr char kRulePeninsulaUnderWater[] = "peninsula_under_water";
// Actions.
inline constexpr char kRuleNoAtlanteanThere[] = "no_atlantean_there";
inline constexpr char kRuleBuildSiteNeedsBuild[] = "build_site_needs_build";
inline constexpr char kRuleResourceChoiceMissing[] = "resource_choice_missing";
inline constexpr char kRuleNoRollPending[] = "no_roll_pending";
inline constexpr char kRuleNotTheRoller[] = "not_the_roller";
inline constexpr char kRuleNotEnoughEnergy[] = "not_enough_energy";
inline constexpr char kRuleNoDrawPending[] = "no_draw_pending";
inline constexpr char kRuleNotTheReader[] = "not_the_reader";
inline constexpr char kRuleCardNotDrawn[] = "card_not_drawn";
// Building.
inline constexpr char kRuleNotOnSite[] = "not_on_build_site";
inline constexpr char kRuleSiteAlreadyResolved[] = "build_site_resolved";
inline constexpr char kRuleNotEnoughResources[] = "not_enough_resources";
inline constexpr char kRulePledgeExceedsCost[] = "pledge_exceeds_cost";
inline constexpr char kRuleComponentAlreadyBuilt[] = "component_already_built";
inline constexpr char kRuleBuildNotPaid[] = "build_not_paid";
// Library cards.
inline constexpr char kRuleCardNotInHand[] = "card_not_in_hand";
inline constexpr char kRuleCardChoiceMissing[] = "card_choice_missing";
inline constexpr char kRuleNothingToDry[] = "nothing_to_dry";
inline constexpr char kRuleDiscardNotNeeded[] = "discard_not_needed";

}  // namespace arbiter::engine::atlantis_rising

#endif  // ARBITER_ENGINE_ATLANTIS_RISING_RULE_IDS_H_
