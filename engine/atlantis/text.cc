// AtlantisState::ToString: a picture of a position for people (`arbiter show`):
// the path from Atlantis to the Mainland with top tiles, stack heights, water,
// bridges and figures (seat.figure), then every player's hand, tiles and
// bridges, the card piles and whose turn it is. DescriptionCut says "hidden"
// for the cards of a hand the viewer may not see, and keeps their number.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/atlantis/state.h"

namespace arbiter::engine::atlantis {
namespace {

std::size_t U(int i) { return static_cast<std::size_t>(i); }

std::string FiguresAt(const Board& b, int pos) {
  std::vector<std::string> names;
  for (int seat = 0; seat < b.num_players; ++seat) {
    for (int f = 0; f < b.config->figures; ++f) {
      if (b.figure(seat, f) == pos) names.push_back(absl::StrCat(seat + 1, ".", f + 1));
    }
  }
  return absl::StrJoin(names, " ");
}

std::string Hand(const Holdings& h) {
  std::vector<std::string> parts;
  for (int item = 0; item < kItems; ++item) {
    if (h.cards[U(item)] > 0) parts.push_back(absl::StrCat(ItemName(item), " x", h.cards[U(item)]));
  }
  return parts.empty() ? "none" : absl::StrJoin(parts, ", ");
}

std::string Tiles(const Holdings& h) {
  std::vector<std::string> parts;
  for (int v = kMaxValue; v >= 1; --v) {
    for (int item = 0; item < kItems; ++item) {
      for (int k = 0; k < h.tiles[U(item)][U(v)]; ++k) parts.push_back(TileName(TileCode(item, v)));
    }
  }
  return parts.empty() ? "none" : absl::StrJoin(parts, ", ");
}

}  // namespace

std::string AtlantisState::ToString() const { return DescriptionCut(Viewer::Everyone()); }

std::string AtlantisState::DescriptionCut(const Viewer& viewer) const {
  const Board& b = board_;
  const Players& who = players();
  const Path& path = b.path;
  std::string out = absl::StrCat("Atlantis: ", FiguresAt(b, 0), "\n");
  for (int p = path.first(); p <= path.last(); ++p) {
    absl::StrAppend(&out, p < 10 ? "  " : " ", p, "  ");
    if (path.height(p) == 0) {
      absl::StrAppend(&out, "~~ water ~~", path.bridged(p) ? " (bridge)" : "");
    } else {
      absl::StrAppend(&out, TileName(path.top(p)), path.height(p) > 1 ? absl::StrCat(" (stack of ", path.height(p), ")") : "");
    }
    const std::string figures = FiguresAt(b, p);
    if (!figures.empty()) absl::StrAppend(&out, "  [", figures, "]");
    out += "\n";
  }
  absl::StrAppend(&out, "Mainland: ", FiguresAt(b, path.mainland()), "\n");
  for (int seat = 0; seat < b.num_players; ++seat) {
    const Holdings& h = b.players[U(seat)];
    absl::StrAppend(&out, who.SeatLabel(seat), !b.over && seat == b.current ? " (to act)" : "", ": cards ",
                    viewer.SeesHandOf(seat) ? Hand(h) : "hidden", " (", h.card_count, "); tiles ", Tiles(h),
                    " (", h.tile_points, " points); bridges ", b.bridges_left[U(seat)], "\n");
  }
  absl::StrAppend(&out, "Draw pile ", deck_size(), ", discard pile ", discard_size(), "\n");
  if (b.over) {
    absl::StrAppend(&out, b.finisher >= 0 ? absl::StrCat("Game over: ", who.Who(b.finisher), " brought every figure home")
                                          : std::string("Game over: stalemate, no card left to draw and no move"),
                    "\n");
  } else {
    absl::StrAppend(&out, "Turn of ", who.Who(b.current), b.bought ? " (has bought)" : "",
                    b.turn_started ? " (turn started)" : "", "\n");
  }
  return out;
}

}  // namespace arbiter::engine::atlantis
