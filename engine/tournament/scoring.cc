#include "engine/tournament/scoring.h"

#include <map>

#include "absl/numeric/int128.h"
#include "absl/strings/str_cat.h"

namespace arbiter::engine::tournament {

absl::Status CheckResult(const TableResult& result, size_t seats) {
  if (result.kind != TableResult::Kind::kPlayed) return absl::OkStatus();
  if (result.game_points.size() != seats) {
    return absl::InvalidArgumentError(absl::StrCat("the result has game points for ",
                                                   result.game_points.size(),
                                                   " seats; the table has ", seats));
  }
  if (result.cooperative) return absl::OkStatus();
  if (result.places.size() != seats) {
    return absl::InvalidArgumentError(absl::StrCat("the result has places for ",
                                                   result.places.size(), " seats; the table has ",
                                                   seats));
  }
  for (int place : result.places) {
    if (place < 1 || place > static_cast<int>(seats)) {
      return absl::InvalidArgumentError(
          absl::StrCat("place ", place, " is outside 1-", seats, " for this table"));
    }
  }
  return absl::OkStatus();
}

bool IsWin(const TableResult& result, size_t seat) {
  if (result.kind != TableResult::Kind::kPlayed) return false;
  if (result.cooperative) return result.team_won;
  return seat < result.places.size() && result.places[seat] == 1;
}

absl::StatusOr<std::vector<Points>> ScoreTable(const TournamentSettings& settings,
                                               const Table& table) {
  const size_t seats = table.players.size();
  std::vector<Points> out(seats, 0);
  const TableResult& result = table.result;
  if (result.kind != TableResult::Kind::kPlayed) return out;
  if (absl::Status s = CheckResult(result, seats); !s.ok()) return s;
  auto place_value = [&](int place) -> Points {  // whole points -> units
    const size_t i = static_cast<size_t>(place - 1);
    return i < settings.place_points.size() ? settings.place_points[i] * kPointUnit : 0;
  };
  if (result.cooperative) {
    if (!result.team_won) return out;
    const Points each = settings.scoring == Scoring::kPlaces ? place_value(1)
                                                             : settings.share_points * kPointUnit;
    out.assign(seats, each);
    return out;
  }
  if (settings.scoring == Scoring::kPlaces) {
    std::map<int, int> sharing;  // place -> how many hold it
    for (int place : result.places) ++sharing[place];
    for (size_t i = 0; i < seats; ++i) {
      const int place = result.places[i];
      const int k = sharing[place];
      Points total = 0;
      for (int p = place; p < place + k; ++p) total += place_value(p);
      out[i] = total / k;  // exact: k <= 8 divides 840
    }
    return out;
  }
  absl::int128 table_total = 0;
  for (int64_t g : result.game_points) table_total += g > 0 ? g : 0;
  const absl::int128 share = absl::int128(settings.share_points) * kPointUnit;
  for (size_t i = 0; i < seats; ++i) {
    const int64_t g = result.game_points[i] > 0 ? result.game_points[i] : 0;
    out[i] = table_total == 0 ? static_cast<Points>(share / absl::int128(seats))
                              : static_cast<Points>(share * g / table_total);
  }
  return out;
}

}  // namespace arbiter::engine::tournament
