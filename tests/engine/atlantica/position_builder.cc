#include "tests/engine/atlantica/position_builder.h"

#include <google/protobuf/text_format.h>

#include <cassert>

#include "engine/atlantica/game.h"

namespace arbiter::engine::atlantica::testing {
namespace {

std::vector<int8_t> Kinds(std::initializer_list<std::string> names) {
  std::vector<int8_t> out;
  for (const std::string& n : names) out.push_back(n == "hurricane" ? kHurricane : static_cast<int8_t>(KindOf(n)));
  return out;
}

}  // namespace

const v1::Ruleset& DefaultRuleset() {
  static const v1::Ruleset* const ruleset = [] {
    auto* r = new v1::Ruleset();
    const bool ok = google::protobuf::TextFormat::ParseFromString(std::string(DefaultRulesetText()), r);
    assert(ok);
    (void)ok;
    return r;
  }();
  return *ruleset;
}

std::shared_ptr<const Rules> DefaultRules() {
  static const std::shared_ptr<const Rules> rules = [] {
    auto compiled = CompileRules(DefaultRuleset().atlantica());
    assert(compiled.ok());
    return std::make_shared<const Rules>(*compiled);
  }();
  return rules;
}

int KindOf(const std::string& name) {
  const Rules& r = *DefaultRules();
  for (int k = 0; k < r.num_kinds; ++k) {
    if (r.kind_names[k] == name) return k;
  }
  assert(false && "unknown treasure kind");
  return -1;
}

int ResearchOf(const std::string& name) {
  const Rules& r = *DefaultRules();
  for (int t = 0; t < r.num_research; ++t) {
    if (r.research_names[t] == name) return t;
  }
  assert(false && "unknown research type");
  return -1;
}

Position::Position(int players) { board_.players.resize(players); }

Position& Position::Hand(int seat, std::initializer_list<Colour> cards) {
  board_.players[seat].hand = {};
  for (Colour c : cards) ++board_.players[seat].hand[ColourIndex(c)];
  return *this;
}

Position& Position::Treasures(std::initializer_list<std::string> kinds) {
  int a = 0;
  for (const std::string& n : kinds) board_.treasure_areas[a++] = n.empty() ? kEmpty : static_cast<int8_t>(KindOf(n));
  return *this;
}

Position& Position::TreasureStack(std::initializer_list<std::string> kinds) {
  board_.treasure_stack = Kinds(kinds);
  return *this;
}

Position& Position::HurricaneStack(std::initializer_list<std::string> kinds) {
  board_.hurricane_stack = Kinds(kinds);
  return *this;
}

Position& Position::Ships(int stack, std::initializer_list<int> crates) {
  board_.ship_stacks[stack].clear();
  for (int c : crates) board_.ship_stacks[stack].push_back(static_cast<int8_t>(c));
  return *this;
}

Position& Position::Research(std::initializer_list<std::string> types) {
  int a = 0;
  for (const std::string& n : types) board_.research_areas[a++] = n.empty() ? kEmpty : static_cast<int8_t>(ResearchOf(n));
  return *this;
}

Position& Position::ResearchDeck(std::initializer_list<std::string> types) {
  board_.research_deck.clear();
  for (const std::string& n : types) board_.research_deck.push_back(static_cast<int8_t>(ResearchOf(n)));
  return *this;
}

Position& Position::DrawPile(std::initializer_list<Colour> cards) {
  board_.draw_pile.clear();
  for (Colour c : cards) board_.draw_pile.push_back(static_cast<int8_t>(ColourIndex(c)));
  return *this;
}

Position& Position::Discard(std::initializer_list<Colour> cards) {
  board_.discard = {};
  for (Colour c : cards) ++board_.discard[ColourIndex(c)];
  return *this;
}

Position& Position::ToMove(int seat) {
  board_.to_move = seat;
  return *this;
}

Position& Position::FinalTurnsLeft(int turns) {
  board_.final_turns_left = turns;
  return *this;
}

Position& Position::HoldsTreasures(int seat, std::initializer_list<std::pair<std::string, int>> counts) {
  for (const auto& [name, n] : counts) board_.players[seat].treasures[KindOf(name)] += n;
  return *this;
}

Position& Position::HoldsResearch(int seat, std::initializer_list<std::pair<std::string, int>> counts) {
  for (const auto& [name, n] : counts) board_.players[seat].research[ResearchOf(name)] += n;
  return *this;
}

Position& Position::HoldsShips(int seat, std::initializer_list<int> crates) {
  for (int c : crates) board_.players[seat].ships.push_back(static_cast<int8_t>(c));
  return *this;
}

Position& Position::HoldsHurricane(int seat) {
  board_.players[seat].hurricane = true;
  return *this;
}

std::unique_ptr<AtlanticaState> Position::Build(uint64_t seed) const {
  return std::make_unique<AtlanticaState>(DefaultRules(), board_, Rng(seed));
}

namespace {

PlaceAction Make(v1::Atlantica::Place place, int tier, const std::vector<Colour>& divers,
                 const std::vector<int>& areas) {
  PlaceAction a;
  a.set_place(place);
  a.set_tier(tier);
  for (Colour c : divers) a.add_divers(c);
  for (int area : areas) a.add_areas(area);
  return a;
}

}  // namespace

PlaceAction Dive(int tier, std::vector<Colour> divers, std::vector<int> areas) {
  return Make(v1::Atlantica::DIVING_BOAT, tier, divers, areas);
}
PlaceAction Charter(int tier, std::vector<Colour> divers) { return Make(v1::Atlantica::HARBOUR, tier, divers, {}); }
PlaceAction Hire(int tier, std::vector<Colour> divers) { return Make(v1::Atlantica::PUB, tier, divers, {}); }
PlaceAction Drink(std::vector<Colour> divers, std::vector<std::pair<v1::Atlantica::Place, int>> picks) {
  PlaceAction a = Make(v1::Atlantica::PUB, 3, divers, {});
  for (const auto& [place, area] : picks) {
    auto* pick = a.add_picks();
    pick->set_place(place);
    pick->set_area(area);
  }
  return a;
}
PlaceAction Study(int tier, std::vector<Colour> divers, std::vector<int> areas) {
  return Make(v1::Atlantica::RESEARCH_STATION, tier, divers, areas);
}
PlaceAction WithJoker(PlaceAction action, Colour colour) {
  action.add_joker(colour);
  action.add_joker(colour);
  return action;
}

v1::Action TurnOf(std::initializer_list<PlaceAction> actions) {
  v1::Action a;
  auto* turn = a.mutable_atlantica()->mutable_turn();
  for (const PlaceAction& pa : actions) *turn->add_actions() = pa;
  return a;
}

v1::Action DrawBreath() {
  v1::Action a;
  a.mutable_atlantica()->mutable_draw_breath();
  return a;
}

std::string RuleOf(const State& state, int seat, const v1::Action& action) {
  auto v = state.Check(seat, action);
  return v ? v->rule : "legal";
}

int Held(const AtlanticaState& state, int seat, Colour colour) {
  return state.board().players[seat].hand[ColourIndex(colour)];
}

}  // namespace arbiter::engine::atlantica::testing
