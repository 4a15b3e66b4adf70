#include "engine/tournament/settings.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace arbiter::engine::tournament {
namespace {

constexpr TieBreak kAllTieBreaks[] = {TieBreak::kGamePoints, TieBreak::kWins,
                                      TieBreak::kStrengthOfSchedule, TieBreak::kHeadToHead};

}  // namespace

std::string FormatPoints(Points points) {
  const bool negative = points < 0;
  const uint64_t magnitude = negative ? 0 - static_cast<uint64_t>(points)
                                      : static_cast<uint64_t>(points);
  const uint64_t whole = magnitude / kPointUnit;
  const uint64_t rest = magnitude % kPointUnit;
  std::string out = absl::StrCat(negative ? "-" : "", whole);
  if (rest == 0) return out;
  if ((rest * 10) % kPointUnit == 0) return absl::StrCat(out, ".", rest * 10 / kPointUnit);
  const uint64_t thousandths = rest * 1000 / kPointUnit;  // truncated
  std::string digits = absl::StrCat(thousandths);
  digits = std::string(3 - digits.size(), '0') + digits;
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  return absl::StrCat(out, ".", digits);
}

std::string_view TieBreakName(TieBreak criterion) {
  switch (criterion) {
    case TieBreak::kGamePoints:
      return "game_points";
    case TieBreak::kWins:
      return "wins";
    case TieBreak::kStrengthOfSchedule:
      return "strength_of_schedule";
    case TieBreak::kHeadToHead:
      return "head_to_head";
  }
  return "unknown";
}

absl::StatusOr<TieBreak> ParseTieBreak(std::string_view name) {
  for (TieBreak criterion : kAllTieBreaks) {
    if (TieBreakName(criterion) == name) return criterion;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "tie_breaks: unknown criterion \"", std::string(name.substr(0, 80)),
      "\"; known: game_points, wins, strength_of_schedule, head_to_head"));
}

absl::Status ValidateSettings(const TournamentSettings& settings) {
  if (settings.game_type.empty()) {
    return absl::InvalidArgumentError("game_type: required");
  }
  if (settings.rounds < 1 || settings.rounds > kMaxRounds) {
    return absl::InvalidArgumentError(
        absl::StrCat("rounds: must be 1-", kMaxRounds, ", not ", settings.rounds));
  }
  if (settings.table_sizes.empty()) {
    return absl::InvalidArgumentError("table_sizes: at least one size is required");
  }
  std::set<int> sizes;
  for (int size : settings.table_sizes) {
    if (size < kMinTableSize || size > kMaxTableSize) {
      return absl::InvalidArgumentError(absl::StrCat("table_sizes: each size must be ",
                                                     kMinTableSize, "-", kMaxTableSize,
                                                     ", not ", size));
    }
    if (!sizes.insert(size).second) {
      return absl::InvalidArgumentError(absl::StrCat("table_sizes: ", size, " is listed twice"));
    }
  }
  if (sizes.count(settings.preferred_size) == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("preferred_size: ", settings.preferred_size,
                     " is not one of the allowed table sizes (", absl::StrJoin(sizes, ", "), ")"));
  }
  if (settings.scoring == Scoring::kPlaces) {
    if (settings.place_points.empty()) {
      return absl::InvalidArgumentError("place_points: required for scoring by place");
    }
    if (settings.place_points.size() > static_cast<size_t>(kMaxTableSize)) {
      return absl::InvalidArgumentError(
          absl::StrCat("place_points: at most ", kMaxTableSize, " places"));
    }
  }
  constexpr int64_t kMaxWhole = int64_t{1} << 30;
  for (int64_t p : settings.place_points) {
    if (p < 0 || p > kMaxWhole) {
      return absl::InvalidArgumentError(
          absl::StrCat("place_points: each must be 0-", kMaxWhole, ", not ", p));
    }
  }
  if (settings.scoring == Scoring::kTableShare &&
      (settings.share_points < 1 || settings.share_points > kMaxWhole)) {
    return absl::InvalidArgumentError(
        absl::StrCat("share_points: must be 1-", kMaxWhole, ", not ", settings.share_points));
  }
  if (settings.bye_points < 0 || settings.bye_points > kMaxWhole) {
    return absl::InvalidArgumentError(
        absl::StrCat("bye_points: must be 0-", kMaxWhole, ", not ", settings.bye_points));
  }
  if (settings.no_show_points < 0 || settings.no_show_points > kMaxWhole) {
    return absl::InvalidArgumentError(absl::StrCat("no_show_points: must be 0-", kMaxWhole,
                                                   ", not ", settings.no_show_points));
  }
  if (settings.forfeit_points < 0 || settings.forfeit_points > kMaxWhole) {
    return absl::InvalidArgumentError(absl::StrCat("forfeit_points: must be 0-", kMaxWhole,
                                                   ", not ", settings.forfeit_points));
  }
  std::set<TieBreak> seen;
  for (TieBreak criterion : settings.tie_breaks) {
    if (!seen.insert(criterion).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("tie_breaks: ", std::string(TieBreakName(criterion)), " is listed twice"));
    }
  }
  return absl::OkStatus();
}

absl::Status ValidatePlayers(const std::vector<std::string>& players) {
  if (players.empty()) return absl::InvalidArgumentError("players: at least one is required");
  std::set<std::string_view> seen;
  for (const std::string& player : players) {
    if (player.empty() || player.size() > 200) {
      return absl::InvalidArgumentError("players: each id must be 1-200 bytes");
    }
    if (!seen.insert(player).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("players: \"", player.substr(0, 80), "\" is registered twice"));
    }
  }
  return absl::OkStatus();
}

}  // namespace arbiter::engine::tournament
