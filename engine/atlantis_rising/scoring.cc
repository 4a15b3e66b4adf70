// Atlantis Rising: the cooperative standings (AtlantisRisingState::Final).
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

}  // namespace arbiter::engine::atlantis_rising
