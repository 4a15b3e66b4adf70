// AtlantisState::View and ViewCut: the position as data (position_view.proto):
// the path from Atlantis to the mainland with its tiles, water and bridges,
// the figures on it, every player's cards, tiles, bridges and figures home.
// A viewer who may not see a seat's hand gets the "cards" counter with its
// count and an empty detail (docs/atlantis.md, "What is hidden from whom").
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/atlantis/state.h"

namespace arbiter::engine::atlantis {
namespace {

std::size_t U(int i) { return static_cast<std::size_t>(i); }

void AddFigures(const Board& b, int pos, v1::BoardSpace& space) {
  for (int seat = 0; seat < b.num_players; ++seat) {
    for (int f = 0; f < b.config->figures; ++f) {
      if (b.figure(seat, f) != pos) continue;
      v1::Piece* piece = space.add_pieces();
      piece->set_seat(seat);
      piece->set_label(absl::StrCat(seat + 1, ".", f + 1));
    }
  }
}

void AddCounter(v1::PlayerHoldings& holdings, const std::string& name, int64_t count,
                const std::string& detail = "") {
  v1::Counter* counter = holdings.add_items();
  counter->set_name(name);
  counter->set_count(count);
  counter->set_detail(detail);
}

}  // namespace

v1::PositionView AtlantisState::View() const { return ViewCut(Viewer::Everyone()); }

v1::PositionView AtlantisState::ViewCut(const Viewer& viewer) const {
  const Board& b = board_;
  const Path& path = b.path;
  v1::PositionView view;
  view.set_game("atlantis");
  view.set_headline(b.over ? (b.finisher >= 0 ? absl::StrCat("Game over: ", players().Who(b.finisher),
                                                              " brought every figure home")
                                              : std::string("Game over: stalemate"))
                           : absl::StrCat("Turn of ", players().Who(b.current)));
  v1::BoardRow* row = view.add_rows();
  row->set_name("path");
  v1::BoardSpace* atlantis = row->add_spaces();
  atlantis->set_label("Atlantis");
  atlantis->set_content("Atlantis");
  atlantis->set_kind("land");
  AddFigures(b, 0, *atlantis);
  for (int p = path.first(); p <= path.last(); ++p) {
    v1::BoardSpace* space = row->add_spaces();
    space->set_label(absl::StrCat(p));
    if (path.height(p) == 0) {
      space->set_content(path.bridged(p) ? "water (bridge)" : "water");
      space->set_kind("water");
    } else {
      space->set_content(absl::StrCat(TileName(path.top(p)),
                                      path.height(p) > 1 ? absl::StrCat(" (", path.height(p), ")") : ""));
      space->set_kind("tile");
    }
    AddFigures(b, p, *space);
  }
  v1::BoardSpace* mainland = row->add_spaces();
  mainland->set_label("Mainland");
  mainland->set_content("Mainland");
  mainland->set_kind("land");
  AddFigures(b, path.mainland(), *mainland);
  for (int seat = 0; seat < b.num_players; ++seat) {
    const Holdings& h = b.players[U(seat)];
    v1::PlayerHoldings* holdings = view.add_players();
    holdings->set_seat(seat);
    holdings->set_player(players().IdOf(seat));
    holdings->set_to_act(!b.over && seat == b.current);
    std::vector<std::string> cards;
    for (int item = 0; item < kItems; ++item) {
      if (h.cards[U(item)] > 0) cards.push_back(absl::StrCat(ItemName(item), " x", h.cards[U(item)]));
    }
    AddCounter(*holdings, "cards", h.card_count, viewer.SeesHandOf(seat) ? absl::StrJoin(cards, ", ") : "");
    std::vector<std::string> tiles;
    for (int v = kMaxValue; v >= 1; --v) {
      for (int item = 0; item < kItems; ++item) {
        for (int k = 0; k < h.tiles[U(item)][U(v)]; ++k) tiles.push_back(TileName(TileCode(item, v)));
      }
    }
    AddCounter(*holdings, "tiles", h.tile_count, absl::StrJoin(tiles, ", "));
    AddCounter(*holdings, "tile points", h.tile_points);
    AddCounter(*holdings, "bridges left", b.bridges_left[U(seat)]);
    AddCounter(*holdings, "figures home", b.figures_home[U(seat)]);
  }
  v1::Counter* deck = view.add_piles();
  deck->set_name("draw pile");
  deck->set_count(deck_size());
  v1::Counter* discard = view.add_piles();
  discard->set_name("discard pile");
  discard->set_count(discard_size());
  return view;
}

}  // namespace arbiter::engine::atlantis
