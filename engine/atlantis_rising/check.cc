// Atlantis Rising: whether an action is legal now, and if not, which rule it
// breaks (rule_ids.h).
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/atlantis_rising/rule_ids.h"
#include "engine/atlantis_rising/shape.h"
#include "engine/atlantis_rising/state.h"

namespace arbiter::engine::atlantis_rising {
namespace {

using Action = v1::AtlantisRisingAction;

const char* PhaseName(Phase phase) {
  switch (phase) {
    case Phase::kPlacement:
      return "placement";
    case Phase::kMisfortunes:
      return "misfortunes";
    case Phase::kActions:
      return "actions";
    case Phase::kWrath:
      return "Wrath of the Gods";
    case Phase::kOver:
      return "game over";
  }
  return "?";
}

std::optional<Violation> WrongPhase(Phase now, const char* what, const char* when) {
  return Illegal(kRuleWrongPhase, absl::StrCat(what, " belongs to the ", when, " phase; this is the ",
                                               PhaseName(now), " phase"));
}

}  // namespace

std::optional<Violation> AtlantisRisingState::Check(Seat seat, const v1::Action& action) const {
  if (action.game_case() != v1::Action::kAtlantisRising) {
    return Illegal(kRuleWrongGame, "the action is not an Atlantis Rising action");
  }
  const Action& a = action.atlantis_rising();
  if (a.kind_case() == Action::KIND_NOT_SET) return Illegal(kRuleEmptyAction, "the action names no kind");
  if (IsTerminal()) return Illegal(kRuleGameOver, "the game is already over");
  if (absl::Status shape = CheckActionShape(action, tables_->rules()); !shape.ok()) {
    return Illegal(kRuleMalformedAction, std::string(shape.message()));
  }
  if (seat < 0 || seat >= num_players()) {
    return Illegal(kRuleNotYourTurn, absl::StrCat(players().Who(seat), " is not in this game"));
  }
  if (pos_.pending.kind != Decision::kNone || OverLimitSeat() >= 0) return CheckDecision(seat, a);

  switch (a.kind_case()) {
    case Action::kPlace:
      return CheckPlace(seat, a.place());
    case Action::kFinishPlacement: {
      if (pos_.phase != Phase::kPlacement) return WrongPhase(pos_.phase, "finishing placement", "placement");
      std::vector<std::string> left;
      for (int s = 0; s < num_players(); ++s) {
        const int pool = pos_.players[static_cast<std::size_t>(s)].pool;
        if (pool > 0) left.push_back(absl::StrCat(players().Who(s), " (", pool, ")"));
      }
      if (!left.empty()) {
        return Illegal(kRuleAtlanteansUnplaced,
                       absl::StrCat("every Atlantean must be placed first; still in the pool: ",
                                    absl::StrJoin(left, ", ")));
      }
      return std::nullopt;
    }
    case Action::kFlood:
      return Illegal(kRuleNoFloodDue, "no flood is waiting for a peninsula to be named");
    case Action::kAct:
      return CheckAct(seat, a.act());
    case Action::kBoost:
      return Illegal(kRuleNoRollPending, "there is no roll to boost");
    case Action::kKeep:
      return Illegal(kRuleNoDrawPending, "no library cards are waiting to be kept");
    case Action::kPledge:
      return CheckPledge(seat, a.pledge());
    case Action::kBuild:
      return CheckBuild(seat, a.build());
    case Action::kAbandon:
      return CheckSite(seat, a.abandon().build_site(), "abandoning a build site");
    case Action::kPlay:
      return CheckPlay(seat, a.play());
    case Action::kDiscard:
      return Illegal(kRuleDiscardNotNeeded,
                     absl::StrCat(players().Who(seat), " is within the hand limit of ",
                                  tables_->rules().hand_limit(), " cards; discarding is only to meet it"));
    case Action::KIND_NOT_SET:
      break;
  }
  return Illegal(kRuleEmptyAction, "the action names no kind");
}

std::optional<Violation> AtlantisRisingState::CheckDecision(Seat seat, const Action& a) const {
  const Pending& pending = pos_.pending;
  switch (pending.kind) {
    case Decision::kFloods:
      if (a.kind_case() != Action::kFlood) {
        return Illegal(kRuleDecisionPending,
                       absl::StrCat(pending.seat < 0 ? "the players" : players().Who(pending.seat), " must first name ",
                                    pending.floods, " peninsula(s) to flood"));
      }
      if (pending.seat >= 0 && seat != pending.seat) {
        return Illegal(kRuleNotTheDrawer, absl::StrCat(players().Who(pending.seat),
                                                       " drew the misfortune and names the peninsula, not ",
                                                       players().Who(seat)));
      }
      {
        const int p = PeninsulaIndex(a.flood().peninsula());
        if (pos_.flooded[static_cast<std::size_t>(p)] >= tables_->tiles(p)) {
          return Illegal(kRulePeninsulaUnderWater,
                         absl::StrCat("every tile of the ", PeninsulaWord(a.flood().peninsula()),
                                      " is already under water; name a peninsula with a dry tile"));
        }
      }
      return std::nullopt;
    case Decision::kRoll: {
      if (a.kind_case() != Action::kBoost) {
        return Illegal(kRuleDecisionPending,
                       absl::StrCat("the failed roll on ", SpotName(pending.spot), " (", pending.total, " of ",
                                    pending.target, ") must first be boosted or accepted (boost 0)"));
      }
      if (seat != pending.seat && seat != pending.partner) {
        return Illegal(kRuleNotTheRoller, absl::StrCat("only the players who rolled on ", SpotName(pending.spot),
                                                       " may spend energy on it, not ", players().Who(seat)));
      }
      const int energy = pos_.players[static_cast<std::size_t>(seat)].energy;
      if (a.boost().energy() > energy) {
        return Illegal(kRuleNotEnoughEnergy, absl::StrCat(players().Who(seat), " has ", energy,
                                                          " mystic energy, not ", a.boost().energy()));
      }
      return std::nullopt;
    }
    case Decision::kKeep:
      if (a.kind_case() != Action::kKeep) {
        return Illegal(kRuleDecisionPending, absl::StrCat(players().Who(pending.seat),
                                                          " must first choose which library cards to keep"));
      }
      if (seat != pending.seat) {
        return Illegal(kRuleNotTheReader,
                       absl::StrCat(players().Who(pending.seat), " drew the cards and keeps them, not ", players().Who(seat)));
      }
      return CheckKeep(seat, a.keep());
    case Decision::kNone:
      break;
  }
  // A hand over the limit.
  const int over = OverLimitSeat();
  const int limit = tables_->rules().hand_limit();
  if (seat != over || (a.kind_case() != Action::kPlay && a.kind_case() != Action::kDiscard)) {
    return Illegal(kRuleHandOverLimit,
                   absl::StrCat(players().Who(over), " holds ",
                                pos_.players[static_cast<std::size_t>(over)].hand.size(),
                                " library cards and must first play or discard down to ", limit));
  }
  if (a.kind_case() == Action::kPlay) return CheckPlay(seat, a.play());
  const int card = tables_->CardIndex(a.discard().card());
  const auto& hand = pos_.players[static_cast<std::size_t>(seat)].hand;
  if (card < 0 || std::find(hand.begin(), hand.end(), card) == hand.end()) {
    return Illegal(kRuleCardNotInHand,
                   absl::StrCat(players().Who(seat), " holds no card '", a.discard().card(), "'"));
  }
  return std::nullopt;
}

std::optional<Violation> AtlantisRisingState::CheckPlace(Seat seat, const Action::Place& place) const {
  if (pos_.phase != Phase::kPlacement) return WrongPhase(pos_.phase, "placing an Atlantean", "placement");
  const PlayerState& player = pos_.players[static_cast<std::size_t>(seat)];
  if (player.pool == 0) {
    return Illegal(kRuleAtlanteanAlreadyPlaced,
                   absl::StrCat("all ", player.atlanteans, " of ", players().Who(seat),
                                "'s Atlanteans are already placed; none is left in the pool"));
  }
  int spot = 0;
  if (auto v = Locate(SpotOf(place), &spot)) return v;
  const SpotInfo info = Describe(spot);
  if (info.kind == SpotInfo::kTile && !Dry(info.peninsula, info.position0)) {
    return Illegal(kRuleTileFlooded, absl::StrCat(SpotName(spot), " is under water"));
  }
  const SpotState& here = pos_.spots[static_cast<std::size_t>(spot)];
  if (info.kind == SpotInfo::kSite && here.placed[static_cast<std::size_t>(seat)] > 0) {
    return Illegal(kRuleOnePerPlayerPerSite,
                   absl::StrCat(players().Who(seat), " already has an Atlantean on ", SpotName(spot),
                                "; each player may place one per build site"));
  }
  const int capacity = Capacity(spot);
  if (capacity >= 0 && here.Placed() >= capacity) {
    return Illegal(kRuleSpotFull, absl::StrCat(SpotName(spot), " holds ", capacity,
                                               " Atlantean(s) and every disc is taken"));
  }
  return std::nullopt;
}

std::optional<Violation> AtlantisRisingState::CheckAct(Seat seat, const Action::Act& act) const {
  if (pos_.phase != Phase::kActions) return WrongPhase(pos_.phase, "acting with an Atlantean", "actions");
  int spot = 0;
  if (auto v = Locate(SpotOf(act), &spot)) return v;
  const SpotInfo info = Describe(spot);
  if (info.kind == SpotInfo::kSite) {
    return Illegal(kRuleBuildSiteNeedsBuild, absl::StrCat("Atlanteans on ", SpotName(spot),
                                                          " act together: pledge resources, then build or abandon"));
  }
  if (pos_.spots[static_cast<std::size_t>(spot)].waiting[static_cast<std::size_t>(seat)] == 0) {
    return Illegal(kRuleNoAtlanteanThere,
                   absl::StrCat(players().Who(seat), " has no Atlantean on ", SpotName(spot), " still to act"));
  }
  if (info.kind == SpotInfo::kComponent) {
    const auto& effect =
        tables_->component(pos_.blueprint[static_cast<std::size_t>(info.index)]).disc_effect();
    if (effect.kind() == v1::AtlantisRising::GAIN_RESOURCE_CHOICE &&
        act.resource() == v1::AtlantisRising::RESOURCE_UNSPECIFIED) {
      return Illegal(kRuleResourceChoiceMissing,
                     absl::StrCat(SpotName(spot), " gives a resource of the player's choice; name it"));
    }
  }
  return std::nullopt;
}

std::optional<Violation> AtlantisRisingState::CheckSite(Seat seat, int site, const char* verb) const {
  if (pos_.phase != Phase::kActions) return WrongPhase(pos_.phase, verb, "actions");
  if (site < 1 || site > build_sites()) {
    return Illegal(kRuleUnknownBuildSite,
                   absl::StrCat("there is no build site ", site, "; this game has sites 1-", build_sites()));
  }
  const SpotState& here = pos_.spots[static_cast<std::size_t>(SiteSpot(site - 1))];
  if (here.placed[static_cast<std::size_t>(seat)] == 0) {
    return Illegal(kRuleNotOnSite, absl::StrCat(players().Who(seat), " has no Atlantean on build site ", site));
  }
  if (here.Waiting() == 0) {
    return Illegal(kRuleSiteAlreadyResolved,
                   absl::StrCat("the Atlanteans on build site ", site, " have already built or gone home"));
  }
  return std::nullopt;
}

std::optional<Violation> AtlantisRisingState::CheckPledge(Seat seat, const Action::Pledge& pledge) const {
  if (auto v = CheckSite(seat, pledge.build_site(), "pledging a resource")) return v;
  const int r = ResourceIndex(pledge.resource());
  const PlayerState& player = pos_.players[static_cast<std::size_t>(seat)];
  if (player.resources[static_cast<std::size_t>(r)] < 1) {
    return Illegal(kRuleNotEnoughResources,
                   absl::StrCat(players().Who(seat), " has no ", ResourceWord(pledge.resource()), " to pledge"));
  }
  Resources pool = SitePool(pledge.build_site() - 1);
  ++pool[static_cast<std::size_t>(r)];
  if (!PledgeFits(pool)) {
    return Illegal(kRulePledgeExceedsCost,
                   absl::StrCat("build site ", pledge.build_site(), " would hold ", ResourcesText(pool),
                                ", more than any unbuilt component of the Blueprint costs"));
  }
  return std::nullopt;
}

std::optional<Violation> AtlantisRisingState::CheckBuild(Seat seat, const Action::Build& build) const {
  if (auto v = CheckSite(seat, build.build_site(), "building")) return v;
  const int b = BlueprintIndex(build.component());
  if (b < 0) {
    return Illegal(kRuleUnknownComponent,
                   absl::StrCat("component '", build.component(), "' is not in this game's Blueprint"));
  }
  const int c = pos_.blueprint[static_cast<std::size_t>(b)];
  const auto& component = tables_->component(c);
  if (pos_.built[static_cast<std::size_t>(b)]) {
    return Illegal(kRuleComponentAlreadyBuilt, absl::StrCat("the ", component.name(), " is already built"));
  }
  const Resources pool = SitePool(build.build_site() - 1);
  if (pool != tables_->cost(c)) {
    return Illegal(kRuleBuildNotPaid, absl::StrCat("the ", component.name(), " costs ",
                                                   ResourcesText(tables_->cost(c)), "; build site ",
                                                   build.build_site(), " holds ", ResourcesText(pool)));
  }
  return std::nullopt;
}

std::optional<Violation> AtlantisRisingState::CheckKeep(Seat seat, const Action::Keep& keep) const {
  std::vector<int> left = pos_.pending.drawn;
  for (const std::string& id : keep.cards()) {
    auto it = std::find(left.begin(), left.end(), tables_->CardIndex(id));
    if (it == left.end()) {
      return Illegal(kRuleCardNotDrawn, absl::StrCat("'", id, "' is not among the cards drawn"));
    }
    left.erase(it);
  }
  const int extra = std::max(0, keep.cards_size() - pos_.pending.free_keeps);
  const int cost = extra * tables_->rules().extra_keep_cost();
  const int energy = pos_.players[static_cast<std::size_t>(seat)].energy;
  if (cost > energy) {
    return Illegal(kRuleNotEnoughEnergy,
                   absl::StrCat("keeping ", keep.cards_size(), " cards where the tile allows ",
                                pos_.pending.free_keeps, " costs ", cost, " mystic energy; ", players().Who(seat),
                                " has ", energy));
  }
  return std::nullopt;
}

std::optional<Violation> AtlantisRisingState::CheckPlay(Seat seat, const Action::Play& play) const {
  if (pos_.phase != Phase::kPlacement && pos_.phase != Phase::kActions && OverLimitSeat() != seat) {
    return WrongPhase(pos_.phase, "playing a library card", "placement or actions");
  }
  const int card = tables_->CardIndex(play.card());
  const auto& hand = pos_.players[static_cast<std::size_t>(seat)].hand;
  if (card < 0 || std::find(hand.begin(), hand.end(), card) == hand.end()) {
    return Illegal(kRuleCardNotInHand, absl::StrCat(players().Who(seat), " holds no card '", play.card(), "'"));
  }
  const auto& effect = tables_->card(card).effect();
  if (effect.kind() == v1::AtlantisRising::GAIN_RESOURCE_CHOICE &&
      play.resource() == v1::AtlantisRising::RESOURCE_UNSPECIFIED) {
    return Illegal(kRuleCardChoiceMissing, absl::StrCat("'", play.card(), "' needs a resource named"));
  }
  if (effect.kind() == v1::AtlantisRising::DRY_TILE) {
    if (play.peninsula() == v1::AtlantisRising::PENINSULA_UNSPECIFIED) {
      return Illegal(kRuleCardChoiceMissing, absl::StrCat("'", play.card(), "' needs a peninsula named"));
    }
    if (pos_.flooded[static_cast<std::size_t>(PeninsulaIndex(play.peninsula()))] == 0) {
      return Illegal(kRuleNothingToDry,
                     absl::StrCat("no tile of the ", PeninsulaWord(play.peninsula()), " is under water"));
    }
  }
  return std::nullopt;
}

}  // namespace arbiter::engine::atlantis_rising
