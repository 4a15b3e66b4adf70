// Atlantis Rising: the position for people (AtlantisRisingState::ToString):
// the round and phase, the island tip first with its Atlanteans, the
// Blueprint, the build sites, every player's holdings, the decks and the
// decision the game waits on. DescriptionCut gives only the number of the
// library cards (in a hand, or drawn and waiting to be kept) of a seat the
// viewer may not see.
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/atlantis_rising/state.h"

namespace arbiter::engine::atlantis_rising {
namespace {

std::size_t At(int i) { return static_cast<std::size_t>(i); }

}  // namespace

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

std::string AtlantisRisingState::ToString() const { return DescriptionCut(Viewer::Everyone()); }

std::string AtlantisRisingState::DescriptionCut(const Viewer& viewer) const {
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
                    "); hand [",
                    viewer.SeesHandOf(s) ? absl::StrJoin(hand, ", ") : absl::StrCat(hand.size(), " hidden"),
                    "]; given ", ResourcesText(player.given), "\n");
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
                      viewer.SeesHandOf(pending.seat) ? absl::StrJoin(drawn, ", ")
                                                      : absl::StrCat(drawn.size(), " hidden"),
                      "] (more for energy)\n");
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

}  // namespace arbiter::engine::atlantis_rising
