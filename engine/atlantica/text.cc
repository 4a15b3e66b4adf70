// AtlanticaState::ToString: the position for people. DescriptionCut gives
// only the number of divers in a hand the viewer may not see.
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/atlantica/state.h"

namespace arbiter::engine::atlantica {
namespace {

std::string Hand(const ColourCounts& hand) {
  std::vector<std::string> parts;
  for (int c = 0; c < kColours; ++c) {
    if (hand[c] > 0) parts.push_back(absl::StrCat(hand[c], " ", ColourName(c)));
  }
  return parts.empty() ? "none" : absl::StrJoin(parts, ", ");
}

// A hand the viewer may not see: its size only.
std::string HiddenHand(const ColourCounts& hand) {
  int n = 0;
  for (int c : hand) n += c;
  return absl::StrCat(n, " divers (hidden)");
}

}  // namespace

std::string AtlanticaState::ToString() const { return DescriptionCut(Viewer::Everyone()); }

std::string AtlanticaState::DescriptionCut(const Viewer& viewer) const {
  const Rules& r = *rules_;
  const Board& b = board_;
  std::string out;
  if (b.over) {
    absl::StrAppend(&out, "Game over.\n");
  } else {
    absl::StrAppend(&out, players().SeatLabel(b.to_move), " to play",
                    b.final_turns_left > 0 ? absl::StrCat(" (final round: ", b.final_turns_left, " turns left)") : "",
                    ".\n");
  }
  absl::StrAppend(&out, "Diving boat:");
  for (int a = 0; a < r.treasure_areas; ++a) {
    const int k = b.treasure_areas[a];
    absl::StrAppend(&out, " ", a + 1, "=", k == kEmpty ? "empty" : r.kind_names[k]);
  }
  absl::StrAppend(&out, "; stack ", b.treasure_stack.size(), ", hurricane stack ", b.hurricane_stack.size(), "\n");
  absl::StrAppend(&out, "Harbour:");
  for (int s = 0; s < r.num_stacks; ++s) {
    const auto& stack = b.ship_stacks[s];
    absl::StrAppend(&out, " ", r.stack_names[s], " ",
                    stack.empty() ? "empty" : absl::StrCat(stack.size(), " ships, top ", stack.back(), " crates"), ";");
  }
  absl::StrAppend(&out, "\nResearch station:");
  for (int a = 0; a < r.research_areas; ++a) {
    const int t = b.research_areas[a];
    absl::StrAppend(&out, " ", a + 1, "=", t == kEmpty ? "empty" : r.research_names[t]);
  }
  absl::StrAppend(&out, "; deck ", b.research_deck.size(), "\n");
  absl::StrAppend(&out, "Pub: draw pile ", b.draw_pile.size(), ", discard pile ", Hand(b.discard), "\n");
  for (int seat = 0; seat < num_players(); ++seat) {
    const PlayerBoard& p = b.players[seat];
    std::vector<std::string> treasures, research, ships;
    for (int k = 0; k < r.num_kinds; ++k) {
      if (p.treasures[k] > 0) treasures.push_back(absl::StrCat(p.treasures[k], " ", r.kind_names[k]));
    }
    for (int t = 0; t < r.num_research; ++t) {
      if (p.research[t] > 0) research.push_back(absl::StrCat(p.research[t], "x", r.research_names[t]));
    }
    int crates = 0;
    for (int8_t c : p.ships) crates += c;
    absl::StrAppend(&out, players().SeatLabel(seat), p.hurricane ? " (holds the hurricane)" : "", ": hand ",
                    viewer.SeesHandOf(seat) ? Hand(p.hand) : HiddenHand(p.hand),
                    "; treasures ", treasures.empty() ? "none" : absl::StrJoin(treasures, ", "), "; ships ",
                    p.ships.size(), " (", crates, " crates); research ",
                    research.empty() ? "none" : absl::StrJoin(research, ", "), "\n");
  }
  return out;
}

}  // namespace arbiter::engine::atlantica
