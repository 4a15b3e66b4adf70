// Atlantica: whether a turn is legal for the seat to play, and if not, the
// rule it breaks (rule_ids.h); AtlanticaState::Check.
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/atlantica/actions.h"
#include "engine/atlantica/rule_ids.h"
#include "engine/atlantica/state.h"

namespace arbiter::engine::atlantica {
namespace {

using v1::Atlantica;
using PlaceAction = v1::AtlanticaAction::PlaceAction;

bool ValidColour(int c) { return c != Atlantica::COLOUR_UNSPECIFIED && Atlantica::Colour_IsValid(c); }

std::string SlotText(uint8_t mask) {
  std::vector<std::string> names;
  for (int c = 0; c < kColours; ++c) {
    if (mask & (1u << c)) names.emplace_back(ColourName(c));
  }
  return absl::StrJoin(names, " or ");
}

std::string TierText(const TierRules& tier) {
  std::vector<std::string> slots;
  for (int s = 0; s < tier.num_slots; ++s) slots.push_back(SlotText(tier.accepts[s]));
  return absl::StrJoin(slots, ", and ");
}

template <typename Colours>
std::string ColoursText(const Colours& colours) {
  std::vector<std::string> names;
  for (int c : colours) names.emplace_back(ColourName(ColourIndex(static_cast<Atlantica::Colour>(c))));
  return names.empty() ? "no diver" : absl::StrJoin(names, ", ");
}

// True if `divers` (colour indices) fill the slots in `free` one each.
bool Match(const TierRules& tier, const int* divers, int n, unsigned free) {
  if (n == 0) return free == 0;
  for (int s = 0; s < tier.num_slots; ++s) {
    if ((free & (1u << s)) && (tier.accepts[s] & (1u << divers[0])) &&
        Match(tier, divers + 1, n - 1, free & ~(1u << s))) {
      return true;
    }
  }
  return false;
}

int AreaCount(const Rules& rules, int place) {
  return place == PlaceIndex(Atlantica::DIVING_BOAT) ? rules.treasure_areas : rules.research_areas;
}

const char* AreaNoun(int place) {
  return place == PlaceIndex(Atlantica::DIVING_BOAT) ? "treasure" : "research";
}

// Cards taken so far this turn.
struct Taken {
  unsigned treasure = 0;  // bit a: treasure area a+1
  unsigned research = 0;
  std::array<int, kMaxStacks> stacks{};
};

// Checks one area of the diving boat or research station (0-based place).
std::optional<Violation> TakeArea(const Rules& rules, const Board& board, int place, int area,
                                  int reach, Taken& taken) {
  const int areas = AreaCount(rules, place);
  if (area < 1 || area > areas) {
    return Illegal(kRuleNoSuchArea, absl::StrCat("the ", PlaceName(place), " has areas 1-", areas,
                                                 "; there is no area ", area));
  }
  if (area > reach) {
    return Illegal(kRuleAreaOutOfReach, absl::StrCat("area ", area, " is out of reach; this action at the ",
                                                     PlaceName(place), " offers areas 1-", reach));
  }
  const bool treasure = place == PlaceIndex(Atlantica::DIVING_BOAT);
  unsigned& mask = treasure ? taken.treasure : taken.research;
  if (mask & (1u << (area - 1))) {
    return Illegal(kRuleAreaTakenTwice, absl::StrCat(AreaNoun(place), " area ", area,
                                                     " is taken twice this turn; it holds one card"));
  }
  const auto& row = treasure ? board.treasure_areas : board.research_areas;
  if (row[area - 1] == kEmpty) {
    return Illegal(kRuleAreaEmpty, absl::StrCat(AreaNoun(place), " area ", area, " is empty"));
  }
  mask |= 1u << (area - 1);
  return std::nullopt;
}

// `number` is 1-based (stack A = 1).
std::optional<Violation> TakeShip(const Rules& rules, const Board& board, int number, Taken& taken) {
  if (number < 1 || number > rules.num_stacks) {
    return Illegal(kRuleNoSuchArea, absl::StrCat("the harbour has ship stacks 1-", rules.num_stacks,
                                                 "; there is no stack ", number));
  }
  const int stack = number - 1;
  if (taken.stacks[stack] + 1 > static_cast<int>(board.ship_stacks[stack].size())) {
    return Illegal(kRuleStackEmpty, absl::StrCat("ship stack ", rules.stack_names[stack], " is empty",
                                                 taken.stacks[stack] > 0 ? " after the ship taken earlier this turn" : ""));
  }
  ++taken.stacks[stack];
  return std::nullopt;
}

std::optional<Violation> CheckTake(const Rules& rules, const Board& board, const PlaceAction& a, int place,
                                   const TierRules& tier, Taken& taken) {
  auto what = [&] { return absl::StrCat("tier ", a.tier(), " of the ", PlaceName(place)); };
  switch (PlaceOf(place)) {
    case Atlantica::DIVING_BOAT:
    case Atlantica::RESEARCH_STATION: {
      if (a.picks_size() > 0) {
        return Illegal(kRuleUnexpectedPicks, absl::StrCat(what(), " takes cards by `areas`, not by drink picks"));
      }
      if (a.areas_size() != tier.take) {
        return Illegal(kRuleWrongNumberOfCards,
                       absl::StrCat(what(), " takes ", tier.take, " card", tier.take == 1 ? "" : "s", " from areas 1-",
                                    tier.reach, "; the action names ", a.areas_size()));
      }
      for (int area : a.areas()) {
        if (auto v = TakeArea(rules, board, place, area, tier.reach, taken)) return v;
      }
      return std::nullopt;
    }
    case Atlantica::HARBOUR:
      if (a.areas_size() > 0 || a.picks_size() > 0) {
        return Illegal(kRuleUnexpectedPicks, absl::StrCat(what(), " gives the top ship of stack ",
                                                          rules.stack_names[tier.stack], "; name no areas or picks"));
      }
      return TakeShip(rules, board, tier.stack + 1, taken);
    case Atlantica::PUB: {
      if (a.areas_size() > 0 || (tier.drink_picks == 0 && a.picks_size() > 0)) {
        return Illegal(kRuleUnexpectedPicks,
                       absl::StrCat(what(), tier.drink_picks == 0 ? " draws divers; name no areas or picks"
                                                                : " takes cards by `picks`, not by areas"));
      }
      if (tier.drink_picks == 0) return std::nullopt;
      if (a.picks_size() != tier.drink_picks) {
        return Illegal(kRuleWrongNumberOfCards, absl::StrCat("buying the divers a drink takes ", tier.drink_picks,
                                                             " cards from different places; the action names ",
                                                             a.picks_size()));
      }
      unsigned places = 0;
      for (const auto& pick : a.picks()) {
        if (pick.place() != Atlantica::DIVING_BOAT && pick.place() != Atlantica::HARBOUR &&
            pick.place() != Atlantica::RESEARCH_STATION) {
          return Illegal(kRulePickPlaceInvalid,
                         "a drink buys cards from the diving boat, the harbour or the research station only");
        }
        const int p = PlaceIndex(pick.place());
        if (places & (1u << p)) {
          return Illegal(kRulePicksSamePlace, absl::StrCat("the cards bought with a drink must come from different "
                                                           "places; both come from the ", PlaceName(p)));
        }
        places |= 1u << p;
        if (pick.place() == Atlantica::HARBOUR) {
          if (auto v = TakeShip(rules, board, pick.area(), taken)) return v;
        } else if (auto v = TakeArea(rules, board, p, pick.area(), AreaCount(rules, p), taken)) {
          return v;
        }
      }
      return std::nullopt;
    }
    default:
      return std::nullopt;
  }
}

// What the actions of a turn judged so far lay and take.
struct Laid {
  unsigned places = 0;    // bit p: place p visited
  int joker_action = -1;  // the action laying the joker pair, or -1
  int cards = 0;
  ColourCounts regular{};  // diver cards, the joker pair not counted
  ColourCounts pair{};     // the joker pair's two cards
  // Accepts-masks of the slots the joker pair may stand for.
  std::array<uint8_t, kMaxSlots> joker_options{};
  int joker_option_count = 0;
  Taken taken;
};

std::string ActionName(int i) { return absl::StrCat("action ", i + 1); }

// The place and tier action i names: a place not visited yet this turn and a
// tier it has. Sets `place` (0-based) and `tier`.
std::optional<Violation> CheckPlaceAndTier(const Rules& rules, const PlaceAction& a, int i, Laid& laid,
                                           int& place, const TierRules*& tier) {
  if (a.place() == Atlantica::PLACE_UNSPECIFIED || !Atlantica::Place_IsValid(a.place())) {
    return Illegal(kRuleNoSuchPlace, absl::StrCat(ActionName(i), " names no place; choose the diving boat, the "
                                                                 "harbour, the pub or the research station"));
  }
  place = PlaceIndex(a.place());
  if (laid.places & (1u << place)) {
    return Illegal(kRuleSamePlaceTwice, absl::StrCat("the ", PlaceName(place), " is visited twice this turn; "
                                                     "each place allows one action per turn"));
  }
  laid.places |= 1u << place;
  const PlaceRules& pr = rules.places[place];
  if (a.tier() < 1 || a.tier() > pr.num_tiers) {
    return Illegal(kRuleNoSuchTier, absl::StrCat("the ", PlaceName(place), " has tiers 1-", pr.num_tiers, "; ",
                                                 ActionName(i), " asks for tier ", a.tier()));
  }
  tier = &pr.tiers[a.tier() - 1];
  return std::nullopt;
}

// Every card of action i has a known colour; a joker is a pair of one colour,
// used by one action of the turn.
std::optional<Violation> CheckCards(const PlaceAction& a, int i, Laid& laid) {
  for (int c : a.divers()) {
    if (!ValidColour(c)) {
      return Illegal(kRuleNoSuchColour, absl::StrCat(ActionName(i), " lays a diver of no known colour"));
    }
  }
  for (int c : a.joker()) {
    if (!ValidColour(c)) {
      return Illegal(kRuleNoSuchColour, absl::StrCat(ActionName(i), " lays a joker card of no known colour"));
    }
  }
  if (a.joker_size() == 0) return std::nullopt;
  if (a.joker_size() != 2) {
    return Illegal(kRuleJokerPairSize, absl::StrCat("the joker is exactly two cards of one colour; ", ActionName(i),
                                                    " lays ", a.joker_size()));
  }
  if (laid.joker_action >= 0) {
    return Illegal(kRuleJokerTwice, absl::StrCat("the joker may be used once per turn; actions ", laid.joker_action + 1,
                                                 " and ", i + 1, " both use it"));
  }
  if (a.joker(0) != a.joker(1)) {
    return Illegal(kRuleJokerPairMixed, absl::StrCat("the joker's two cards must be of one colour; ", ActionName(i),
                                                     " lays ", ColoursText(a.joker())));
  }
  laid.joker_action = i;
  return std::nullopt;
}

// The divers of action i fill the tier's slots, the joker pair (if any)
// filling one of them; counts the cards laid.
std::optional<Violation> CheckDivers(const PlaceAction& a, int i, int place, const TierRules& tier, Laid& laid) {
  const bool joker = a.joker_size() > 0;
  const int expected = tier.num_slots - (joker ? 1 : 0);
  if (a.divers_size() != expected) {
    return Illegal(kRuleWrongNumberOfDivers,
                   absl::StrCat("tier ", a.tier(), " of the ", PlaceName(place), " needs ", tier.num_slots,
                                " diver", tier.num_slots == 1 ? "" : "s", " (", TierText(tier), ")",
                                joker ? ", one slot filled by the joker pair" : "", "; ", ActionName(i), " lays ",
                                a.divers_size(), joker ? " besides the pair" : ""));
  }
  std::array<int, kMaxSlots> divers{};
  for (int d = 0; d < expected; ++d) divers[d] = ColourIndex(a.divers(d));
  const unsigned all = (1u << tier.num_slots) - 1;
  bool fits = false;
  if (!joker) {
    fits = Match(tier, divers.data(), expected, all);
  } else {
    for (int s = 0; s < tier.num_slots; ++s) {
      if (Match(tier, divers.data(), expected, all & ~(1u << s))) {
        laid.joker_options[laid.joker_option_count++] = tier.accepts[s];
        fits = true;
      }
    }
  }
  if (!fits) {
    return Illegal(kRuleDiversDoNotMatch,
                   absl::StrCat("tier ", a.tier(), " of the ", PlaceName(place), " needs ", TierText(tier),
                                "; ", ActionName(i), " lays ", ColoursText(a.divers()),
                                joker ? " besides the joker pair" : ""));
  }
  for (int d = 0; d < expected; ++d) ++laid.regular[divers[d]];
  if (joker) laid.pair[ColourIndex(a.joker(0))] += 2;
  laid.cards += expected + (joker ? 2 : 0);
  return std::nullopt;
}

// Action i on its own: the place and tier, the cards laid, the cards taken.
std::optional<Violation> CheckAction(const Rules& rules, const Board& board, const PlaceAction& a, int i,
                                     Laid& laid) {
  int place = 0;
  const TierRules* tier = nullptr;
  if (auto v = CheckPlaceAndTier(rules, a, i, laid, place, tier)) return v;
  if (auto v = CheckCards(a, i, laid)) return v;
  if (auto v = CheckDivers(a, i, place, *tier, laid)) return v;
  return CheckTake(rules, board, a, place, *tier, laid.taken);
}

// The cards of the whole turn: within the limit and in the hand.
std::optional<Violation> CheckCardsHeld(const Rules& rules, const ColourCounts& hand, const Laid& laid) {
  const int limit = laid.joker_action >= 0 ? rules.cards_per_turn_with_joker : rules.cards_per_turn;
  if (laid.cards > limit) {
    return Illegal(kRuleTooManyCards,
                   absl::StrCat("at most ", rules.cards_per_turn, " diver cards may be laid per turn (",
                                rules.cards_per_turn_with_joker, " with the joker); this turn lays ", laid.cards));
  }
  for (int c = 0; c < kColours; ++c) {
    if (laid.regular[c] + laid.pair[c] > hand[c]) {
      return Illegal(kRuleCardsNotHeld, absl::StrCat("you hold ", hand[c], " ", ColourName(c), " diver",
                                                     hand[c] == 1 ? "" : "s", "; this turn lays ",
                                                     laid.regular[c] + laid.pair[c]));
    }
  }
  return std::nullopt;
}

// The joker pair stands for a slot whose colours the player no longer holds
// once every other card of the turn is laid.
std::optional<Violation> CheckJokerAllowed(const ColourCounts& hand, const Laid& laid) {
  if (laid.joker_action < 0) return std::nullopt;
  unsigned left = 0;  // colours still in hand once every other card is laid
  for (int c = 0; c < kColours; ++c) {
    if (hand[c] - laid.regular[c] > 0) left |= 1u << c;
  }
  bool allowed = false;
  for (int o = 0; o < laid.joker_option_count; ++o) allowed = allowed || (laid.joker_options[o] & left) == 0;
  if (allowed) return std::nullopt;
  const uint8_t mask = laid.joker_options[0];
  int held = 0;
  while (!((mask & left) & (1u << held))) ++held;
  return Illegal(kRuleJokerNotAllowed,
                 absl::StrCat("the joker replaces a card of a colour you do not hold, but you still hold a ",
                              ColourName(held), " diver, which the slot of action ", laid.joker_action + 1,
                              " accepts (", SlotText(mask), ")"));
}

}  // namespace

std::optional<Violation> CheckTurn(const Rules& rules, const Board& board, int seat,
                                   const v1::AtlanticaAction::Turn& turn) {
  const int n = turn.actions_size();
  if (n == 0) {
    return Illegal(kRuleTurnWithoutAction, "a turn needs at least one place action; to play no cards, draw breath");
  }
  if (n > rules.actions_per_turn) {
    return Illegal(kRuleTooManyActions, absl::StrCat("a turn allows at most ", rules.actions_per_turn,
                                                     " actions; this turn has ", n));
  }
  Laid laid;
  for (int i = 0; i < n; ++i) {
    if (auto v = CheckAction(rules, board, turn.actions(i), i, laid)) return v;
  }
  const ColourCounts& hand = board.players[seat].hand;
  if (auto v = CheckCardsHeld(rules, hand, laid)) return v;
  return CheckJokerAllowed(hand, laid);
}

std::optional<Violation> AtlanticaState::Check(Seat seat, const v1::Action& action) const {
  if (action.game_case() != v1::Action::kAtlantica) {
    return Illegal(kRuleWrongGame, "this is a game of Atlantica; the action is for another game");
  }
  if (board_.over) return Illegal(kRuleGameOver, "the game is already over; no further action is allowed");
  if (seat != board_.to_move) {
    return Illegal(kRuleNotYourTurn, absl::StrCat("it is ", players().Whose(board_.to_move), " turn, not ", players().Whose(seat)));
  }
  const auto& a = action.atlantica();
  switch (a.kind_case()) {
    case v1::AtlanticaAction::kDrawBreath:
      return std::nullopt;
    case v1::AtlanticaAction::kTurn:
      return CheckTurn(*rules_, board_, seat, a.turn());
    default:
      return Illegal(kRuleEmptyAction, "the action is neither a turn nor draw breath");
  }
}

}  // namespace arbiter::engine::atlantica
