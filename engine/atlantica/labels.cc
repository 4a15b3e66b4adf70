// AtlanticaState::Label and Group: a turn in words (docs/atlantica.md,
// "Actions in words"). The diver cards of a turn are laid face up and the
// cards taken are face up in the areas, so a label tells the whole turn; the
// divers a pub action or a breath draws are not part of the action and are
// not named.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/atlantica/state.h"

namespace arbiter::engine::atlantica {
namespace {

using v1::Atlantica;
using PlaceAction = v1::AtlanticaAction::PlaceAction;

std::string Colours(const google::protobuf::RepeatedField<int>& colours) {
  std::vector<std::string> names;
  for (int c : colours) {
    const int index = ColourIndex(static_cast<Atlantica::Colour>(c));
    names.push_back(index >= 0 && index < kColours ? ColourName(index) : "?");
  }
  return absl::StrJoin(names, ", ");
}

// What lies in a diving boat, harbour or research station area (1-based)
// now, the area named after it: "AMPHORA (area 2)".
std::string AreaText(const Rules& r, const Board& b, int place, int area) {
  const int a = area - 1;
  std::string card = "?";
  if (place == Atlantica::DIVING_BOAT && a >= 0 && a < r.treasure_areas && b.treasure_areas[a] != kEmpty) {
    card = r.kind_names[b.treasure_areas[a]];
  } else if (place == Atlantica::RESEARCH_STATION && a >= 0 && a < r.research_areas &&
             b.research_areas[a] != kEmpty) {
    card = r.research_names[b.research_areas[a]];
  } else if (place == Atlantica::HARBOUR && a >= 0 && a < r.num_stacks) {
    const auto& stack = b.ship_stacks[a];
    return absl::StrCat("the top ship of ", r.stack_names[a],
                        stack.empty() ? "" : absl::StrCat(" (", stack.back(), " crates)"));
  }
  return absl::StrCat(card, " (area ", area, ")");
}

std::string PlaceActionText(const Rules& r, const Board& b, const PlaceAction& a) {
  const int place = PlaceIndex(a.place());
  const bool known = place >= 0 && place < kPlaces && a.tier() >= 1 && a.tier() <= r.places[place].num_tiers;
  std::string text = absl::StrCat(known ? PlaceName(place) : "?", " tier ", a.tier(), " with ", Colours(a.divers()));
  if (!a.joker().empty()) {
    absl::StrAppend(&text, a.divers().empty() ? "" : " and ", Colours(a.joker()), " as a joker");
  }
  std::vector<std::string> taken;
  for (int area : a.areas()) taken.push_back(AreaText(r, b, a.place(), area));
  if (known && a.place() == Atlantica::HARBOUR) {
    taken.push_back(AreaText(r, b, a.place(), r.places[place].tiers[a.tier() - 1].stack + 1));
  }
  for (const auto& pick : a.picks()) taken.push_back(AreaText(r, b, pick.place(), pick.area()));
  if (!taken.empty()) absl::StrAppend(&text, ", takes ", absl::StrJoin(taken, ", "));
  if (known && a.place() == Atlantica::PUB && r.places[place].tiers[a.tier() - 1].draw > 0) {
    absl::StrAppend(&text, ", draws ", r.places[place].tiers[a.tier() - 1].draw, " divers");
  }
  return text;
}

}  // namespace

std::string AtlanticaState::Label(Seat seat, const v1::Action& action) const {
  const std::string who = players().Who(seat);
  const v1::AtlanticaAction& a = action.atlantica();
  if (a.has_draw_breath()) {
    return absl::StrCat(who, " draws breath: ", rules_->draw_breath_cards, " divers straight into the hand");
  }
  if (!a.has_turn()) return absl::StrCat(who, " does nothing Atlantica knows");
  std::vector<std::string> parts;
  for (const PlaceAction& place_action : a.turn().actions()) {
    parts.push_back(PlaceActionText(*rules_, board_, place_action));
  }
  return absl::StrCat(who, ": ", parts.empty() ? "no action" : absl::StrJoin(parts, "; "));
}

std::string AtlanticaState::Group(Seat /*seat*/, const v1::Action& action) const {
  const v1::AtlanticaAction& a = action.atlantica();
  if (a.has_draw_breath()) return "draw breath";
  std::vector<std::string> places;
  for (const PlaceAction& place_action : a.turn().actions()) {
    const int place = PlaceIndex(place_action.place());
    places.push_back(place >= 0 && place < kPlaces ? PlaceName(place) : "?");
  }
  return places.empty() ? "other" : absl::StrJoin(places, " + ");
}

}  // namespace arbiter::engine::atlantica
