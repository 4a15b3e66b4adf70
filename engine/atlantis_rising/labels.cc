// Atlantis Rising: the actions in words (AtlantisRisingState::Label and
// Group; docs/atlantis-rising.md, "Actions in words"). Every action is done
// in the open but one: which of the library cards drawn a player keeps. A
// Keep's label gives only how many cards are kept, never which, since the
// others at the table have not seen the cards drawn.
#include <string>

#include "absl/strings/str_cat.h"
#include "engine/atlantis_rising/state.h"

namespace arbiter::engine::atlantis_rising {
namespace {

using Action = v1::AtlantisRisingAction;

std::string ResourceText(int resource) {
  const std::string name = v1::AtlantisRising::Resource_Name(resource);
  return name.empty() ? "?" : name;
}

}  // namespace

// "hills tile 2", "the centre", "build site 1", "the Crystal Tower".
template <typename Where>
std::string AtlantisRisingState::WhereText(const Where& where) const {
  if (where.centre()) return "the centre";
  if (where.build_site() > 0) return absl::StrCat("build site ", where.build_site());
  if (!where.component().empty()) {
    const int b = BlueprintIndex(where.component());
    return b >= 0 ? absl::StrCat("the ", tables_->component(pos_.blueprint[static_cast<std::size_t>(b)]).name())
                  : where.component();
  }
  const int p = PeninsulaIndex(where.peninsula());
  if (p < 0 || p >= kNumPeninsulas) return "?";
  return absl::StrCat(PeninsulaWord(where.peninsula()), " tile ", where.position());
}

std::string AtlantisRisingState::Label(Seat seat, const v1::Action& action) const {
  const std::string who = players().Who(seat);
  const Action& a = action.atlantis_rising();
  switch (a.kind_case()) {
    case Action::kPlace:
      return absl::StrCat(who, " places an Atlantean on ", WhereText(a.place()));
    case Action::kFinishPlacement:
      return absl::StrCat(who, " places no more Atlanteans this round");
    case Action::kFlood: {
      const int p = PeninsulaIndex(a.flood().peninsula());
      return absl::StrCat(who, " floods the ",
                          p >= 0 && p < kNumPeninsulas ? PeninsulaWord(a.flood().peninsula()) : "?");
    }
    case Action::kAct:
      return absl::StrCat(who, " acts on ", WhereText(a.act()),
                          a.act().resource() != 0 ? absl::StrCat(" for ", ResourceText(a.act().resource())) : "");
    case Action::kBoost:
      return a.boost().energy() == 0
                 ? absl::StrCat(who, " accepts the roll")
                 : absl::StrCat(who, " spends ", a.boost().energy(), " mystic energy on the roll");
    case Action::kKeep:
      return absl::StrCat(who, " keeps ", a.keep().cards_size(), " of the library cards drawn");
    case Action::kPledge:
      return absl::StrCat(who, " pledges ", ResourceText(a.pledge().resource()), " to build site ",
                          a.pledge().build_site());
    case Action::kBuild: {
      const int b = BlueprintIndex(a.build().component());
      const std::string name = b >= 0 ? tables_->component(pos_.blueprint[static_cast<std::size_t>(b)]).name()
                                      : a.build().component();
      return absl::StrCat(who, " builds the ", name, " at build site ", a.build().build_site());
    }
    case Action::kAbandon:
      return absl::StrCat(who, " abandons build site ", a.abandon().build_site());
    case Action::kPlay: {
      const Action::Play& play = a.play();
      const int p = PeninsulaIndex(play.peninsula());
      return absl::StrCat(who, " plays ", play.card(),
                          play.resource() != 0 ? absl::StrCat(" for ", ResourceText(play.resource())) : "",
                          p >= 0 && p < kNumPeninsulas ? absl::StrCat(" on the ", PeninsulaWord(play.peninsula()))
                                                       : "");
    }
    case Action::kDiscard:
      return absl::StrCat(who, " discards ", a.discard().card());
    case Action::KIND_NOT_SET:
      break;
  }
  return absl::StrCat(who, " does nothing Atlantis Rising knows");
}

std::string AtlantisRisingState::Group(Seat /*seat*/, const v1::Action& action) const {
  const Action& a = action.atlantis_rising();
  switch (a.kind_case()) {
    case Action::kPlace:
      return "place";
    case Action::kFinishPlacement:
      return "finish placing";
    case Action::kFlood:
      return "flood";
    case Action::kAct:
      return absl::StrCat("act on ", WhereText(a.act()));
    case Action::kBoost:
      return "boost the roll";
    case Action::kKeep:
      return "keep cards";
    case Action::kPledge:
      return "pledge";
    case Action::kBuild:
      return "build";
    case Action::kAbandon:
      return "abandon";
    case Action::kPlay:
      return "play a card";
    case Action::kDiscard:
      return "discard";
    case Action::KIND_NOT_SET:
      break;
  }
  return "other";
}

}  // namespace arbiter::engine::atlantis_rising
