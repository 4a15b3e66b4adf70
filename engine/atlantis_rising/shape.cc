// Atlantis Rising: whether each field of an action lies in its domain.
#include "engine/atlantis_rising/shape.h"

#include "absl/strings/str_cat.h"
#include "engine/core/status_macros.h"

namespace arbiter::engine::atlantis_rising {
namespace {

using Action = v1::AtlantisRisingAction;

constexpr int kMaxIndex = 64;
constexpr int kMaxEnergy = 1000;
constexpr int kMaxKeep = 16;

// Field names are built only on failure: "<field><part>".
absl::Status Bad(const char* field, const char* part, const std::string& why) {
  return absl::InvalidArgumentError(absl::StrCat("atlantis_rising.", field, part, ": ", why));
}

absl::Status CheckRange(const char* field, const char* part, int64_t value, int64_t low, int64_t high) {
  if (value < low || value > high) return Bad(field, part, absl::StrCat("is ", value, "; allowed ", low, "..", high));
  return absl::OkStatus();
}

absl::Status CheckCard(const char* field, const std::string& id, const Rules& rules) {
  for (const auto& card : rules.library_cards()) {
    if (card.id() == id) return absl::OkStatus();
  }
  return Bad(field, "", absl::StrCat("'", id.substr(0, 64), "' is not a library card of this ruleset"));
}

absl::Status CheckComponent(const char* field, const char* part, const std::string& id, const Rules& rules) {
  for (const auto& component : rules.components()) {
    if (component.id() == id) return absl::OkStatus();
  }
  return Bad(field, part, absl::StrCat("'", id.substr(0, 64), "' is not a component of this ruleset"));
}

// The `where` of a Place or Act ("place" / "act").
template <typename M>
absl::Status CheckWhere(const char* field, const M& m, const Rules& rules) {
  if (m.where_case() != M::kPeninsula && m.position() != 0) {
    return Bad(field, ".position", "is set, but only a peninsula tile has a position");
  }
  switch (m.where_case()) {
    case M::kPeninsula:
      ARBITER_RETURN_IF_ERROR(CheckRange(field, ".peninsula", m.peninsula(), 1, kNumPeninsulas));
      return CheckRange(field, ".position", m.position(), 1, kMaxIndex);
    case M::kCentre:
      if (!m.centre()) return Bad(field, ".centre", "is false; set it to true or name another spot");
      return absl::OkStatus();
    case M::kBuildSite:
      return CheckRange(field, ".build_site", m.build_site(), 1, kMaxIndex);
    case M::kComponent:
      return CheckComponent(field, ".component", m.component(), rules);
    case M::WHERE_NOT_SET:
      break;
  }
  return Bad(field, "", "names no tile, centre, build site or component");
}

}  // namespace

absl::Status CheckActionShape(const v1::Action& action, const Rules& rules) {
  if (action.game_case() != v1::Action::kAtlantisRising) {
    return absl::InvalidArgumentError("atlantis_rising: the action holds no Atlantis Rising action");
  }
  const Action& a = action.atlantis_rising();
  switch (a.kind_case()) {
    case Action::kPlace:
      return CheckWhere("place", a.place(), rules);
    case Action::kFinishPlacement:
      return absl::OkStatus();
    case Action::kFlood:
      return CheckRange("flood.peninsula", "", a.flood().peninsula(), 1, kNumPeninsulas);
    case Action::kAct:
      ARBITER_RETURN_IF_ERROR(CheckWhere("act", a.act(), rules));
      return CheckRange("act.resource", "", a.act().resource(), 0, kNumResources);
    case Action::kBoost:
      return CheckRange("boost.energy", "", a.boost().energy(), 0, kMaxEnergy);
    case Action::kKeep:
      ARBITER_RETURN_IF_ERROR(CheckRange("keep.cards size", "", a.keep().cards_size(), 0, kMaxKeep));
      for (const std::string& id : a.keep().cards()) ARBITER_RETURN_IF_ERROR(CheckCard("keep.cards", id, rules));
      return absl::OkStatus();
    case Action::kPledge:
      ARBITER_RETURN_IF_ERROR(CheckRange("pledge.build_site", "", a.pledge().build_site(), 1, kMaxIndex));
      return CheckRange("pledge.resource", "", a.pledge().resource(), 1, kNumResources);
    case Action::kBuild:
      ARBITER_RETURN_IF_ERROR(CheckRange("build.build_site", "", a.build().build_site(), 1, kMaxIndex));
      return CheckComponent("build.component", "", a.build().component(), rules);
    case Action::kAbandon:
      return CheckRange("abandon.build_site", "", a.abandon().build_site(), 1, kMaxIndex);
    case Action::kPlay:
      ARBITER_RETURN_IF_ERROR(CheckCard("play.card", a.play().card(), rules));
      ARBITER_RETURN_IF_ERROR(CheckRange("play.resource", "", a.play().resource(), 0, kNumResources));
      return CheckRange("play.peninsula", "", a.play().peninsula(), 0, kNumPeninsulas);
    case Action::kDiscard:
      return CheckCard("discard.card", a.discard().card(), rules);
    case Action::KIND_NOT_SET:
      break;
  }
  return Bad("kind", "", "no action kind is set");
}

}  // namespace arbiter::engine::atlantis_rising
