// Atlantis Rising: the position as data (AtlantisRisingState::View,
// position_view.proto): a row per peninsula, the centre and build sites, the
// Blueprint, every player's holdings and the piles. A viewer who may not see
// a seat's library cards gets its "cards" counter with the count and an empty
// detail (docs/atlantis-rising.md, "What is hidden from whom").
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/atlantis_rising/state.h"

namespace arbiter::engine::atlantis_rising {
namespace {

std::size_t At(int i) { return static_cast<std::size_t>(i); }

void AddPile(v1::PositionView& view, const std::string& name, int64_t count) {
  v1::Counter* counter = view.add_piles();
  counter->set_name(name);
  counter->set_count(count);
}

}  // namespace

v1::PositionView AtlantisRisingState::View() const { return ViewCut(Viewer::Everyone()); }

v1::PositionView AtlantisRisingState::ViewCut(const Viewer& viewer) const {
  v1::PositionView view;
  view.set_game("atlantis-rising");
  view.set_headline(absl::StrCat("Round ", pos_.round, ", ", PhaseText(pos_.phase), ", Wrath level ",
                                 pos_.wrath_level,
                                 IsTerminal() ? (pos_.won ? ": the players won" : ": the players lost") : ""));
  AddIslandRows(view);
  AddCentreRow(view);
  AddBlueprintRow(view);
  AddHoldings(viewer, view);
  AddPile(view, "library deck", static_cast<int64_t>(pos_.library_deck.size()));
  AddPile(view, "library discards", static_cast<int64_t>(pos_.library_discard.size()));
  AddPile(view, "misfortune deck", static_cast<int64_t>(pos_.misfortune_deck.size()));
  AddPile(view, "misfortune discards", static_cast<int64_t>(pos_.misfortune_discard.size()));
  AddPile(view, "Wrath level", pos_.wrath_level);
  return view;
}

void AtlantisRisingState::AddPieces(int spot, v1::BoardSpace& space) const {
  const SpotState& here = pos_.spots[At(spot)];
  for (int s = 0; s < num_players(); ++s) {
    if (here.placed[At(s)] == 0) continue;
    v1::Piece* piece = space.add_pieces();
    piece->set_seat(s);
    piece->set_label(absl::StrCat("s", s + 1, here.placed[At(s)] > 1 ? absl::StrCat("x", here.placed[At(s)]) : "",
                                  here.waiting[At(s)] < here.placed[At(s)] ? "*" : ""));
  }
}

void AtlantisRisingState::AddIslandRows(v1::PositionView& view) const {
  for (int p = 0; p < kNumPeninsulas; ++p) {
    v1::BoardRow* row = view.add_rows();
    row->set_name(PeninsulaWord(PeninsulaAt(p)));
    for (int t = 0; t < tables_->tiles(p); ++t) {
      v1::BoardSpace* space = row->add_spaces();
      space->set_label(absl::StrCat(t + 1));
      if (!Dry(p, t)) {
        space->set_content("flooded");
        space->set_kind("flooded");
      } else {
        space->set_content(absl::StrCat(tables_->peninsula(p).tiles(t).value()));
        space->set_kind("tile");
        AddPieces(TileSpot(p, t), *space);
      }
    }
  }
}

void AtlantisRisingState::AddCentreRow(v1::PositionView& view) const {
  v1::BoardRow* centre = view.add_rows();
  centre->set_name("centre and build sites");
  v1::BoardSpace* middle = centre->add_spaces();
  middle->set_label("centre");
  middle->set_content(pos_.centre_flooded ? "flooded" : "dry");
  middle->set_kind(pos_.centre_flooded ? "flooded" : "land");
  AddPieces(kCentre, *middle);
  for (int site = 0; site < build_sites(); ++site) {
    v1::BoardSpace* space = centre->add_spaces();
    space->set_label(absl::StrCat("build site ", site + 1));
    space->set_content(absl::StrCat("pledged ", ResourcesText(SitePool(site))));
    space->set_kind("land");
    AddPieces(SiteSpot(site), *space);
  }
}

void AtlantisRisingState::AddBlueprintRow(v1::PositionView& view) const {
  v1::BoardRow* blueprint = view.add_rows();
  blueprint->set_name("blueprint");
  for (std::size_t b = 0; b < pos_.blueprint.size(); ++b) {
    const int c = pos_.blueprint[b];
    v1::BoardSpace* space = blueprint->add_spaces();
    space->set_label(tables_->component(c).name());
    space->set_content(absl::StrCat(pos_.built[b] ? "built; " : "", "costs ", ResourcesText(tables_->cost(c))));
    space->set_kind(pos_.built[b] ? "built" : "card");
    AddPieces(ComponentSpot(static_cast<int>(b)), *space);
  }
}

void AtlantisRisingState::AddHoldings(const Viewer& viewer, v1::PositionView& view) const {
  for (int s = 0; s < num_players(); ++s) {
    const PlayerState& player = pos_.players[At(s)];
    v1::PlayerHoldings* holdings = view.add_players();
    holdings->set_seat(s);
    holdings->set_player(players().IdOf(s));
    holdings->set_to_act(!IsTerminal() && (pos_.pending.seat == s || pos_.pending.seat < 0));
    auto item = [holdings](const std::string& name, int64_t count, const std::string& detail = "") {
      v1::Counter* counter = holdings->add_items();
      counter->set_name(name);
      counter->set_count(count);
      counter->set_detail(detail);
    };
    std::vector<std::string> hand;
    for (int card : player.hand) hand.push_back(tables_->card(card).id());
    int resources = 0;
    for (int r : player.resources) resources += r;
    item("energy", player.energy);
    item("resources", resources, ResourcesText(player.resources));
    item("cards", static_cast<int64_t>(player.hand.size()), viewer.SeesHandOf(s) ? absl::StrJoin(hand, ", ") : "");
    item("Atlanteans", player.atlanteans, absl::StrCat("pool ", player.pool, ", reserve ", player.reserve));
  }
}

}  // namespace arbiter::engine::atlantis_rising
