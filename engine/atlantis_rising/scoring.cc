// Atlantis Rising: cooperative standings and the description for people.
//
// Standings: cooperative; the team wins when the Blueprint is built and loses
// when the centre floods. The team breakdown gives the round reached, the
// components built and the peninsula tiles still dry. Each player's score is
// their contribution: the resources they paid into built components, with
// one breakdown line per resource. All players share place 1.
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/atlantis_rising/state.h"
#include "engine/core/standings.h"

namespace arbiter::engine::atlantis_rising {
namespace {

std::size_t At(int i) { return static_cast<std::size_t>(i); }

void AddTeamItem(v1::Standings& standings, std::string label, int64_t points, std::string detail) {
  v1::ScoreItem* item = standings.add_team_breakdown();
  item->set_label(std::move(label));
  item->set_points(points);
  if (!detail.empty()) item->set_detail(std::move(detail));
}

const char* PhaseText(Phase phase) {
  switch (phase) {
    case Phase::kPlacement:
      return "place Atlanteans";
    case Phase::kMisfortunes:
      return "misfortunes";
    case Phase::kActions:
      return "actions";
    case Phase::kWrath:
      return "Wrath of the Gods";
    case Phase::kOver:
      return "game over";
  }
  return "?";
}

}  // namespace

std::optional<v1::Standings> AtlantisRisingState::Final() const {
  if (!IsTerminal()) return std::nullopt;
  v1::Standings standings;
  standings.set_cooperative(true);
  standings.set_team_outcome(pos_.won ? v1::TEAM_OUTCOME_WON : v1::TEAM_OUTCOME_LOST);
  AddTeamItem(standings, "round reached", pos_.round,
              pos_.won ? "the Cosmic Gate is built" : "the centre of the island flooded");
  int built = 0;
  std::vector<std::string> names;
  for (std::size_t b = 0; b < pos_.blueprint.size(); ++b) {
    if (!pos_.built[b]) continue;
    ++built;
    names.push_back(tables_->component(pos_.blueprint[b]).name());
  }
  AddTeamItem(standings, "components built", built,
              absl::StrCat(built, " of ", pos_.blueprint.size(), names.empty() ? "" : ": ",
                           absl::StrJoin(names, ", ")));
  int dry = 0;
  int tiles = 0;
  for (int p = 0; p < kNumPeninsulas; ++p) {
    tiles += tables_->tiles(p);
    dry += tables_->tiles(p) - pos_.flooded[At(p)];
  }
  AddTeamItem(standings, "dry tiles left", dry, absl::StrCat(dry, " of ", tiles, " peninsula tiles"));
  for (int s = 0; s < num_players(); ++s) {
    const PlayerState& player = pos_.players[At(s)];
    v1::PlayerStanding* line = standings.add_players();
    line->set_seat(s + 1);
    line->set_place(1);
    int64_t total = 0;
    for (int r = ResourceIndex(v1::AtlantisRising::GOLD); r < kNumResources; ++r) {
      total += player.given[At(r)];
      AddScoreItem(*line, absl::StrCat(ResourceWord(ResourceAt(r)), " given"), player.given[At(r)],
                   "paid into built components");
    }
    line->set_score(total);
  }
  return standings;
}

std::string AtlantisRisingState::ToString() const {
  std::string out = absl::StrCat("Atlantis Rising: round ", pos_.round, ", ", PhaseText(pos_.phase),
                                 ", start player ", players().Who(pos_.start_seat), ", Wrath level ",
                                 pos_.wrath_level, " (floods ", tables_->WrathValue(pos_.wrath_level), ")");
  if (IsTerminal()) absl::StrAppend(&out, pos_.won ? " - the players WON" : " - the players LOST");
  absl::StrAppend(&out, "\n");
  auto occupants = [&](int spot) {
    std::vector<std::string> who;
    const SpotState& here = pos_.spots[At(spot)];
    for (int s = 0; s < num_players(); ++s) {
      if (here.placed[At(s)] > 0) {
        who.push_back(absl::StrCat("s", s + 1, here.placed[At(s)] > 1 ? absl::StrCat("x", here.placed[At(s)]) : "",
                                   here.waiting[At(s)] < here.placed[At(s)] ? "*" : ""));
      }
    }
    return who.empty() ? std::string() : absl::StrCat("[", absl::StrJoin(who, " "), "]");
  };
  absl::StrAppend(&out, "Island (tip first; ~~ flooded, numbers are tile values, [s2] Atlanteans, * acted):\n");
  for (int p = 0; p < kNumPeninsulas; ++p) {
    absl::StrAppend(&out, "  ", PeninsulaWord(PeninsulaAt(p)), ":");
    for (int t = 0; t < tables_->tiles(p); ++t) {
      if (!Dry(p, t)) {
        absl::StrAppend(&out, " ~~");
      } else {
        absl::StrAppend(&out, " ", tables_->peninsula(p).tiles(t).value(), occupants(TileSpot(p, t)));
      }
    }
    absl::StrAppend(&out, "\n");
  }
  absl::StrAppend(&out, "  centre: ", pos_.centre_flooded ? "flooded" : "dry", occupants(kCentre), "\n");
  absl::StrAppend(&out, "Blueprint:\n");
  for (std::size_t b = 0; b < pos_.blueprint.size(); ++b) {
    const int c = pos_.blueprint[b];
    absl::StrAppend(&out, "  ", pos_.built[b] ? "[built] " : "", tables_->component(c).name(), " (",
                    tables_->component(c).id(), "): ", ResourcesText(tables_->cost(c)),
                    occupants(ComponentSpot(static_cast<int>(b))), "\n");
  }
  for (int site = 0; site < build_sites(); ++site) {
    absl::StrAppend(&out, "Build site ", site + 1, occupants(SiteSpot(site)), ": pledged ",
                    ResourcesText(SitePool(site)), "\n");
  }
  for (int s = 0; s < num_players(); ++s) {
    const PlayerState& player = pos_.players[At(s)];
    std::vector<std::string> hand;
    for (int card : player.hand) hand.push_back(tables_->card(card).id());
    absl::StrAppend(&out, players().SeatLabel(s), ": energy ", player.energy, "; ", ResourcesText(player.resources),
                    "; Atlanteans ", player.atlanteans, " (pool ", player.pool, ", reserve ", player.reserve,
                    "); hand [", absl::StrJoin(hand, ", "), "]; given ", ResourcesText(player.given), "\n");
  }
  absl::StrAppend(&out, "Library deck ", pos_.library_deck.size(), " (discards ", pos_.library_discard.size(),
                  "); misfortune deck ", pos_.misfortune_deck.size(), " (discards ",
                  pos_.misfortune_discard.size(), "); floods cancelled this round: ", pos_.flood_shield, "\n");
  const Pending& pending = pos_.pending;
  const std::string who = pending.seat < 0 ? "the players" : players().Who(pending.seat);
  switch (pending.kind) {
    case Decision::kFloods:
      absl::StrAppend(&out, "Waiting: ", who, " to name ", pending.floods, " peninsula(s) to flood\n");
      break;
    case Decision::kRoll:
      absl::StrAppend(&out, "Waiting: ", who, " rolled ", pending.total, " on ", SpotName(pending.spot),
                      " (target ", pending.target, "): boost or accept\n");
      break;
    case Decision::kKeep: {
      std::vector<std::string> drawn;
      for (int card : pending.drawn) drawn.push_back(tables_->card(card).id());
      absl::StrAppend(&out, "Waiting: ", who, " to keep up to ", pending.free_keeps, " of [",
                      absl::StrJoin(drawn, ", "), "] (more for energy)\n");
      break;
    }
    case Decision::kNone:
      if (const int over = OverLimitSeat(); over >= 0) {
        absl::StrAppend(&out, "Waiting: ", players().Who(over), " to play or discard down to the hand limit\n");
      }
      break;
  }
  return out;
}

v1::PositionView AtlantisRisingState::View() const {
  v1::PositionView view;
  view.set_game("atlantis-rising");
  view.set_headline(absl::StrCat("Round ", pos_.round, ", ", PhaseText(pos_.phase), ", Wrath level ",
                                 pos_.wrath_level,
                                 IsTerminal() ? (pos_.won ? ": the players won" : ": the players lost") : ""));
  auto occupy = [&](int spot, v1::BoardSpace& space) {
    const SpotState& here = pos_.spots[At(spot)];
    for (int s = 0; s < num_players(); ++s) {
      if (here.placed[At(s)] == 0) continue;
      v1::Piece* piece = space.add_pieces();
      piece->set_seat(s);
      piece->set_label(absl::StrCat("s", s + 1, here.placed[At(s)] > 1 ? absl::StrCat("x", here.placed[At(s)]) : "",
                                    here.waiting[At(s)] < here.placed[At(s)] ? "*" : ""));
    }
  };
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
        occupy(TileSpot(p, t), *space);
      }
    }
  }
  v1::BoardRow* centre = view.add_rows();
  centre->set_name("centre and build sites");
  v1::BoardSpace* middle = centre->add_spaces();
  middle->set_label("centre");
  middle->set_content(pos_.centre_flooded ? "flooded" : "dry");
  middle->set_kind(pos_.centre_flooded ? "flooded" : "land");
  occupy(kCentre, *middle);
  for (int site = 0; site < build_sites(); ++site) {
    v1::BoardSpace* space = centre->add_spaces();
    space->set_label(absl::StrCat("build site ", site + 1));
    space->set_content(absl::StrCat("pledged ", ResourcesText(SitePool(site))));
    space->set_kind("land");
    occupy(SiteSpot(site), *space);
  }
  v1::BoardRow* blueprint = view.add_rows();
  blueprint->set_name("blueprint");
  for (std::size_t b = 0; b < pos_.blueprint.size(); ++b) {
    const int c = pos_.blueprint[b];
    v1::BoardSpace* space = blueprint->add_spaces();
    space->set_label(tables_->component(c).name());
    space->set_content(absl::StrCat(pos_.built[b] ? "built; " : "", "costs ", ResourcesText(tables_->cost(c))));
    space->set_kind(pos_.built[b] ? "built" : "card");
    occupy(ComponentSpot(static_cast<int>(b)), *space);
  }
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
    item("cards", static_cast<int64_t>(player.hand.size()), absl::StrJoin(hand, ", "));
    item("Atlanteans", player.atlanteans, absl::StrCat("pool ", player.pool, ", reserve ", player.reserve));
  }
  auto pile = [&view](const std::string& name, int64_t count) {
    v1::Counter* counter = view.add_piles();
    counter->set_name(name);
    counter->set_count(count);
  };
  pile("library deck", static_cast<int64_t>(pos_.library_deck.size()));
  pile("library discards", static_cast<int64_t>(pos_.library_discard.size()));
  pile("misfortune deck", static_cast<int64_t>(pos_.misfortune_deck.size()));
  pile("misfortune discards", static_cast<int64_t>(pos_.misfortune_discard.size()));
  pile("Wrath level", pos_.wrath_level);
  return view;
}

}  // namespace arbiter::engine::atlantis_rising
