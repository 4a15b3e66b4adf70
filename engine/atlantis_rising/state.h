// Atlantis Rising (cooperative, 1-7 players): the rules engine's state.
//
// Implements docs/atlantis-rising.md: the island of a centre and six
// peninsulas flooding from the tip inward; rounds of placement, misfortunes,
// actions and the Wrath of the Gods; gathering rolls boosted by mystic
// energy, cities, libraries, forges, the centre and building Blueprint
// components with pooled resources. All players win when the Blueprint is
// built and lose when the centre floods.
//
// Events: one per placed Atlantean, one per acting Atlantean, one per
// decision (named flood, boost, kept cards, pledged resource). Chance (dice,
// reshuffles) comes from the seed at the moment it happens, in the order of
// the events; the decks are shuffled at setup. Any player may act in the
// cooperative phases: SeatsToAct() lists every seat with a legal action.
// LegalActions() lists each distinct outcome once; Canonical() sorts kept
// cards and drops choice fields an effect does not use.
//
// Order of the seeded draws (one engine::Rng seeded with the header's seed;
// docs/atlantis-rising.md repeats it):
//   1. Artifacts: every artifact card (ruleset order, each `count` times) is
//      shuffled; the first `artifacts_in_game` are used.
//   2. Library deck: the parchment cards (ruleset order, each `count` times)
//      followed by the chosen artifacts (in their shuffled order) are
//      shuffled. The front of the list is the top of the deck.
//   3. Misfortune deck: every FLOOD card (ruleset order, each `count` times),
//      then the difficulty's Calm Seas, then its Controlled Floods, shuffled.
//      The front is the top.
//   4. Blueprint: the blueprint's fixed components in the order listed; then
//      for each letter draw, in order, the components of that letter not yet
//      in the Blueprint (ruleset order) are shuffled and the first `count`
//      taken; the Power Core last. A blueprint without draws uses no chance.
// During play, in the order of the events: Roll(die_sides) for every die of
// a gathering roll (one per die) or a city roll (dice in order), when the
// Atlantean acts; Shuffle of the misfortune discards (in discard order) when
// a draw finds the deck empty.
//
// Not thread-safe; Clone() for another thread.
#ifndef ARBITER_ENGINE_ATLANTIS_RISING_STATE_H_
#define ARBITER_ENGINE_ATLANTIS_RISING_STATE_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/atlantis_rising/board.h"
#include "engine/atlantis_rising/rules.h"
#include "engine/core/rng.h"
#include "engine/core/state.h"

namespace arbiter::engine::atlantis_rising {

// Where a Place or Act names a spot (their `where` oneof and `position`).
struct SpotRef {
  enum Kind { kNone, kTile, kCentre, kSite, kComponent } kind = kNone;
  Peninsula peninsula = v1::AtlantisRising::PENINSULA_UNSPECIFIED;
  int position = 0;
  int build_site = 0;
  const std::string* component = nullptr;
};

// Reads the spot of a v1::AtlantisRisingAction::Place or ::Act.
template <typename M>
SpotRef SpotOf(const M& m) {
  SpotRef ref;
  switch (m.where_case()) {
    case M::kPeninsula:
      ref.kind = SpotRef::kTile;
      ref.peninsula = m.peninsula();
      ref.position = m.position();
      break;
    case M::kCentre:
      ref.kind = SpotRef::kCentre;
      break;
    case M::kBuildSite:
      ref.kind = SpotRef::kSite;
      ref.build_site = m.build_site();
      break;
    case M::kComponent:
      ref.kind = SpotRef::kComponent;
      ref.component = &m.component();
      break;
    case M::WHERE_NOT_SET:
      break;
  }
  return ref;
}

class AtlantisRisingState final : public State {
 public:
  // A new game (state.cc; the order of the seeded draws is above).
  // `difficulty` and `blueprint` index the ruleset's lists; they must be valid.
  AtlantisRisingState(std::shared_ptr<const Tables> tables, int num_players, uint64_t seed,
                      int difficulty, int blueprint);

  std::unique_ptr<State> Clone() const override;
  bool IsTerminal() const override { return pos_.phase == Phase::kOver; }
  std::vector<Seat> SeatsToAct() const override;  // legal_actions.cc
  std::optional<Violation> Check(Seat seat, const v1::Action& action) const override;  // check.cc
  std::vector<Move> LegalActions() const override;  // legal_actions.cc
  v1::Action Canonical(Seat seat, const v1::Action& action) const override;  // legal_actions.cc
  std::string Label(Seat seat, const v1::Action& action) const override;  // labels.cc
  std::string Group(Seat seat, const v1::Action& action) const override;  // labels.cc
  std::optional<v1::Standings> Final() const override;  // scoring.cc
  std::string ToString() const override;  // text.cc
  v1::PositionView View() const override;  // view.cc

  const Position& position() const { return pos_; }
  const Tables& tables() const { return *tables_; }
  // For tests that set up a position directly. The caller keeps it coherent.
  Position& MutablePositionForTest() { return pos_; }
  // The next dice (and reshuffles) come from a generator seeded with `seed`.
  void ReseedForTest(uint64_t seed) { rng_ = Rng(seed); }

  // Spot numbers (see Position in board.h).
  static constexpr int kCentre = 0;
  int TileSpot(int peninsula_index, int position0) const {
    return tile_base_[static_cast<std::size_t>(peninsula_index)] + position0;
  }
  int SiteSpot(int site0) const { return site_base_ + site0; }
  int ComponentSpot(int blueprint_index) const { return component_base_ + blueprint_index; }
  int build_sites() const { return component_base_ - site_base_; }
  // The Blueprint entry of a component id, or -1.
  int BlueprintIndex(const std::string& component_id) const;
  // A readable name of a spot: "hills tile 2", "build site 1", "the centre".
  std::string SpotName(int spot) const;
  // Seat that must play or discard down to the hand limit, or -1.
  int OverLimitSeat() const;

 protected:
  void DoApply(Seat seat, const v1::Action& action) override;  // apply.cc
  v1::PositionView ViewCut(const Viewer& viewer) const override;  // view.cc
  std::string DescriptionCut(const Viewer& viewer) const override;  // text.cc

 private:
  struct SpotInfo {
    enum Kind { kCentre, kTile, kSite, kComponent } kind = kCentre;
    int peninsula = -1;  // kTile
    int position0 = -1;  // kTile
    int index = -1;      // kSite: site0; kComponent: Blueprint index
  };
  // spots.cc
  SpotInfo Describe(int spot) const;
  // The spot an action names, or the violation if there is no such spot.
  std::optional<Violation> Locate(const SpotRef& spot, int* index) const;
  int Capacity(int spot) const;  // -1 for unlimited
  bool Dry(int peninsula_index, int position0) const {
    return position0 >= pos_.flooded[static_cast<std::size_t>(peninsula_index)];
  }
  bool AnyDryTile() const;
  int RollBonus(int peninsula_index) const;
  bool CanRecruit(int seat) const;
  // Pledges on a site add up to at most some unbuilt component's cost.
  bool PledgeFits(const Resources& pool) const;
  Resources SitePool(int site0) const;

  // check.cc
  std::optional<Violation> CheckPlace(Seat seat, const v1::AtlantisRisingAction::Place& place) const;
  std::optional<Violation> CheckAct(Seat seat, const v1::AtlantisRisingAction::Act& act) const;
  std::optional<Violation> CheckSite(Seat seat, int site, const char* verb) const;
  std::optional<Violation> CheckPledge(Seat seat, const v1::AtlantisRisingAction::Pledge& pledge) const;
  std::optional<Violation> CheckBuild(Seat seat, const v1::AtlantisRisingAction::Build& build) const;
  std::optional<Violation> CheckKeep(Seat seat, const v1::AtlantisRisingAction::Keep& keep) const;
  std::optional<Violation> CheckPlay(Seat seat, const v1::AtlantisRisingAction::Play& play) const;
  std::optional<Violation> CheckDecision(Seat seat, const v1::AtlantisRisingAction& action) const;

  // What is left in the supplies: the supply less what the players hold
  // (pledges included). spots.cc
  int ResourceLeft(int resource_index) const;
  int EnergyLeft() const;

  // apply.cc
  // Gains as much of `n` as the supply covers; the rest is lost.
  void GainResource(Seat seat, int resource_index, int n);
  void GainEnergy(Seat seat, int n);
  void Advance();
  void DrawMisfortune();
  void RequestFloods(int floods, int seat);
  void Flood(int peninsula_index);
  void EndActions();
  void EndRound();
  void DoAct(Seat seat, const v1::AtlantisRisingAction::Act& act);
  void ResolveRoll(bool success);
  void Recruit(int seat, int partner);
  void ApplyEffect(Seat seat, const Rules::Effect& effect, Resource resource, Peninsula peninsula);
  void DoPlay(Seat seat, const v1::AtlantisRisingAction::Play& play);
  void DoKeep(Seat seat, const v1::AtlantisRisingAction::Keep& keep);
  void DoBuild(const v1::AtlantisRisingAction::Build& build);
  void ClearSite(int site0, bool return_pledges);
  void RemoveFromHand(Seat seat, int card);

  // legal_actions.cc: LegalActions in parts, each appending to `moves`.
  void AddDecisionMoves(std::vector<Move>& moves) const;  // the pending decision
  void AddKeepMoves(std::vector<Move>& moves) const;
  void AddPlacementMoves(std::vector<Move>& moves) const;
  void AddActMoves(Seat seat, int spot, std::vector<Move>& moves) const;  // an Atlantean waiting on `spot`
  void AddSiteMoves(Seat seat, int site0, std::vector<Move>& moves) const;
  void AddCardMoves(Seat seat, std::vector<Move>& moves) const;
  bool HasPlayableCard(Seat seat) const;

  // labels.cc: where a Place or Act goes, in words.
  template <typename Where>
  std::string WhereText(const Where& where) const;

  // view.cc: View in parts.
  void AddPieces(int spot, v1::BoardSpace& space) const;  // the Atlanteans on `spot`
  void AddIslandRows(v1::PositionView& view) const;
  void AddCentreRow(v1::PositionView& view) const;
  void AddBlueprintRow(v1::PositionView& view) const;
  void AddHoldings(const Viewer& viewer, v1::PositionView& view) const;

  std::shared_ptr<const Tables> tables_;
  std::array<int, kNumPeninsulas> tile_base_{};
  int site_base_ = 0;
  int component_base_ = 0;
  Position pos_;
  Rng rng_;
};

}  // namespace arbiter::engine::atlantis_rising

#endif  // ARBITER_ENGINE_ATLANTIS_RISING_STATE_H_
