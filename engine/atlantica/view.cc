// AtlanticaState::View: the position as data (position_view.proto): the
// diving boat's treasure areas, the harbour's ship stacks, the research
// station, and every player's hand, treasures, ships and research. A viewer
// who may not see a seat's hand gets its "divers in hand" counter with the
// count and an empty detail (docs/atlantica.md, "What is hidden from whom").
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/atlantica/state.h"

namespace arbiter::engine::atlantica {
namespace {

std::string HandText(const ColourCounts& hand) {
  std::vector<std::string> parts;
  for (int c = 0; c < kColours; ++c) {
    if (hand[c] > 0) parts.push_back(absl::StrCat(hand[c], " ", ColourName(c)));
  }
  return absl::StrJoin(parts, ", ");
}

int Total(const ColourCounts& hand) {
  int n = 0;
  for (int c : hand) n += c;
  return n;
}

void AddCounter(v1::PlayerHoldings& holdings, const std::string& name, int64_t count,
                const std::string& detail = "") {
  v1::Counter* counter = holdings.add_items();
  counter->set_name(name);
  counter->set_count(count);
  counter->set_detail(detail);
}

}  // namespace

v1::PositionView AtlanticaState::View() const { return ViewCut(Viewer::Everyone()); }

v1::PositionView AtlanticaState::ViewCut(const Viewer& viewer) const {
  const Rules& r = *rules_;
  const Board& b = board_;
  v1::PositionView view;
  view.set_game("atlantica");
  view.set_headline(b.over ? std::string("Game over")
                           : absl::StrCat(players().Who(b.to_move), " to play",
                                          b.final_turns_left > 0
                                              ? absl::StrCat(" (final round: ", b.final_turns_left, " turns left)")
                                              : ""));
  v1::BoardRow* boat = view.add_rows();
  boat->set_name("diving boat");
  for (int a = 0; a < r.treasure_areas; ++a) {
    v1::BoardSpace* space = boat->add_spaces();
    space->set_label(absl::StrCat("area ", a + 1));
    const int k = b.treasure_areas[a];
    space->set_content(k == kEmpty ? "empty" : r.kind_names[k]);
    space->set_kind(k == kEmpty ? "empty" : "tile");
  }
  v1::BoardRow* harbour = view.add_rows();
  harbour->set_name("harbour");
  for (int s = 0; s < r.num_stacks; ++s) {
    const auto& stack = b.ship_stacks[s];
    v1::BoardSpace* space = harbour->add_spaces();
    space->set_label(r.stack_names[s]);
    space->set_content(stack.empty() ? "empty"
                                     : absl::StrCat(stack.size(), " ships, top ", stack.back(), " crates"));
    space->set_kind(stack.empty() ? "empty" : "card");
  }
  v1::BoardRow* station = view.add_rows();
  station->set_name("research station");
  for (int a = 0; a < r.research_areas; ++a) {
    const int t = b.research_areas[a];
    v1::BoardSpace* space = station->add_spaces();
    space->set_label(absl::StrCat("area ", a + 1));
    space->set_content(t == kEmpty ? "empty" : r.research_names[t]);
    space->set_kind(t == kEmpty ? "empty" : "card");
  }
  for (int seat = 0; seat < num_players(); ++seat) {
    const PlayerBoard& p = b.players[seat];
    v1::PlayerHoldings* holdings = view.add_players();
    holdings->set_seat(seat);
    holdings->set_player(players().IdOf(seat));
    holdings->set_to_act(!b.over && seat == b.to_move);
    AddCounter(*holdings, "divers in hand", Total(p.hand), viewer.SeesHandOf(seat) ? HandText(p.hand) : "");
    std::vector<std::string> treasures, research;
    int treasure_count = 0, research_count = 0, crates = 0;
    for (int k = 0; k < r.num_kinds; ++k) {
      if (p.treasures[k] == 0) continue;
      treasures.push_back(absl::StrCat(p.treasures[k], " ", r.kind_names[k]));
      treasure_count += p.treasures[k];
    }
    for (int t = 0; t < r.num_research; ++t) {
      if (p.research[t] == 0) continue;
      research.push_back(absl::StrCat(p.research[t], "x", r.research_names[t]));
      research_count += p.research[t];
    }
    for (int8_t c : p.ships) crates += c;
    AddCounter(*holdings, "treasures", treasure_count, absl::StrJoin(treasures, ", "));
    AddCounter(*holdings, "ships", static_cast<int64_t>(p.ships.size()), absl::StrCat(crates, " crates"));
    AddCounter(*holdings, "research", research_count, absl::StrJoin(research, ", "));
    if (p.hurricane) AddCounter(*holdings, "hurricane", 1);
  }
  auto pile = [&view](const std::string& name, int64_t count, const std::string& detail = "") {
    v1::Counter* counter = view.add_piles();
    counter->set_name(name);
    counter->set_count(count);
    counter->set_detail(detail);
  };
  pile("treasure stack", static_cast<int64_t>(b.treasure_stack.size()));
  pile("hurricane stack", static_cast<int64_t>(b.hurricane_stack.size()));
  pile("research deck", static_cast<int64_t>(b.research_deck.size()));
  pile("diver draw pile", static_cast<int64_t>(b.draw_pile.size()));
  pile("diver discard", Total(b.discard), HandText(b.discard));
  return view;
}

}  // namespace arbiter::engine::atlantica
