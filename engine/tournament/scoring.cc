#include "engine/tournament/scoring.h"

#include <map>

#include "absl/numeric/int128.h"
#include "absl/strings/str_cat.h"
#include "engine/core/status_macros.h"

namespace arbiter::engine::tournament {

namespace {

// How many seats played.
size_t PlayedSeats(const TableResult& result, size_t seats) {
  size_t played = 0;
  for (size_t s = 0; s < seats; ++s) played += result.Played(s) ? 1 : 0;
  return played;
}

absl::Status CheckOutcomes(const TableResult& result, size_t seats) {
  if (result.outcomes.empty()) return absl::OkStatus();
  if (result.outcomes.size() != seats) {
    return absl::InvalidArgumentError(absl::StrCat("the result has outcomes for ",
                                                   result.outcomes.size(),
                                                   " seats; the table has ", seats));
  }
  for (size_t s = 0; s < seats; ++s) {
    if (result.Played(s)) continue;
    if (s < result.game_points.size() && result.game_points[s] != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("seat ", s + 1, " did not play, so its game points must be 0"));
    }
    if (!result.cooperative && s < result.places.size() && result.places[s] != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("seat ", s + 1, " did not play, so it has no place (0)"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckResult(const TableResult& result, size_t seats) {
  if (result.kind != TableResult::Kind::kPlayed) return absl::OkStatus();
  if (result.game_points.size() != seats) {
    return absl::InvalidArgumentError(absl::StrCat("the result has game points for ",
                                                   result.game_points.size(),
                                                   " seats; the table has ", seats));
  }
  if (!result.cooperative && result.places.size() != seats) {
    return absl::InvalidArgumentError(absl::StrCat("the result has places for ",
                                                   result.places.size(), " seats; the table has ",
                                                   seats));
  }
  ARBITER_RETURN_IF_ERROR(CheckOutcomes(result, seats));
  if (result.cooperative) return absl::OkStatus();
  const size_t played = PlayedSeats(result, seats);
  for (size_t s = 0; s < seats; ++s) {
    if (!result.Played(s)) continue;
    const int place = result.places[s];
    if (place < 1 || place > static_cast<int>(played)) {
      return absl::InvalidArgumentError(absl::StrCat("place ", place, " is outside 1-", played,
                                                     " for this table"));
    }
  }
  return absl::OkStatus();
}

bool IsWin(const TableResult& result, size_t seat) {
  if (result.kind != TableResult::Kind::kPlayed) return false;
  if (!result.Played(seat)) return false;
  if (result.cooperative) return result.team_won;
  return seat < result.places.size() && result.places[seat] == 1;
}

Points AbsentPoints(const TournamentSettings& settings, SeatOutcome outcome) {
  switch (outcome) {
    case SeatOutcome::kNoShow:
      return settings.no_show_points * kPointUnit;
    case SeatOutcome::kForfeit:
      return settings.forfeit_points * kPointUnit;
    case SeatOutcome::kPlayed:
      break;
  }
  return 0;
}

absl::StatusOr<std::vector<Points>> ScoreTable(const TournamentSettings& settings,
                                               const Table& table) {
  const size_t seats = table.players.size();
  std::vector<Points> out(seats, 0);
  const TableResult& result = table.result;
  if (result.kind != TableResult::Kind::kPlayed) return out;
  if (absl::Status s = CheckResult(result, seats); !s.ok()) return s;
  for (size_t s = 0; s < seats; ++s) out[s] = AbsentPoints(settings, result.OutcomeOf(s));
  const size_t played = PlayedSeats(result, seats);
  auto place_value = [&](int place) -> Points {  // whole points -> units
    const size_t i = static_cast<size_t>(place - 1);
    return i < settings.place_points.size() ? settings.place_points[i] * kPointUnit : 0;
  };
  if (result.cooperative) {
    if (!result.team_won) return out;
    const Points each = settings.scoring == Scoring::kPlaces ? place_value(1)
                                                             : settings.share_points * kPointUnit;
    for (size_t s = 0; s < seats; ++s) {
      if (result.Played(s)) out[s] = each;
    }
    return out;
  }
  if (settings.scoring == Scoring::kPlaces) {
    std::map<int, int> sharing;  // place -> how many hold it
    for (size_t s = 0; s < seats; ++s) {
      if (result.Played(s)) ++sharing[result.places[s]];
    }
    for (size_t s = 0; s < seats; ++s) {
      if (!result.Played(s)) continue;
      const int place = result.places[s];
      const int k = sharing[place];
      Points total = 0;
      for (int p = place; p < place + k; ++p) total += place_value(p);
      out[s] = total / k;  // exact: k <= 8 divides 840
    }
    return out;
  }
  absl::int128 table_total = 0;
  for (size_t s = 0; s < seats; ++s) {
    if (result.Played(s)) table_total += result.game_points[s] > 0 ? result.game_points[s] : 0;
  }
  const absl::int128 share = absl::int128(settings.share_points) * kPointUnit;
  for (size_t s = 0; s < seats; ++s) {
    if (!result.Played(s)) continue;
    const int64_t g = result.game_points[s] > 0 ? result.game_points[s] : 0;
    out[s] = table_total == 0 ? static_cast<Points>(share / absl::int128(played))
                              : static_cast<Points>(share * g / table_total);
  }
  return out;
}

}  // namespace arbiter::engine::tournament
