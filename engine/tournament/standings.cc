#include "engine/tournament/standings.h"

#include <algorithm>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/numeric/int128.h"
#include "absl/strings/str_cat.h"
#include "engine/core/rng.h"
#include "engine/core/status_macros.h"
#include "engine/tournament/scoring.h"

namespace arbiter::engine::tournament {
namespace {

using Index = absl::flat_hash_map<std::string, int>;

// One counted game, for head-to-head.
// A forfeit's place in head_to_head: below every seat that played.
constexpr int kBelowEveryPlace = kMaxTableSize + 1;

struct Meeting {
  std::vector<int> players;  // indices into rows
  std::vector<int> places;   // empty: cooperative (no order between them)
};

class Ranker {
 public:
  Ranker(const TournamentSettings& settings, std::vector<StandingRow>& rows,
         const std::vector<Meeting>& meetings)
      : settings_(settings), rows_(rows), meetings_(meetings) {}

  // Orders `group` (indices into rows) by criterion `c` and those after it.
  void Order(std::vector<int>& group, size_t c) {
    if (group.size() < 2) return;
    if (c == settings_.tie_breaks.size()) {
      std::sort(group.begin(), group.end(),
                [&](int a, int b) { return rows_[a].lot < rows_[b].lot; });
      for (size_t i = 0; i + 1 < group.size(); ++i) rows_[group[i]].decided_by = "lot";
      return;
    }
    const TieBreak criterion = settings_.tie_breaks[c];
    if (criterion == TieBreak::kHeadToHead) HeadToHead(group);
    auto compare = [&](int a, int b) { return Compare(criterion, rows_[a], rows_[b]); };
    std::stable_sort(group.begin(), group.end(), [&](int a, int b) { return compare(a, b) > 0; });
    SplitAndRecurse(group, c + 1, std::string(TieBreakName(criterion)),
                    [&](int a, int b) { return compare(a, b) == 0; });
  }

  template <typename Equal>
  void SplitAndRecurse(std::vector<int>& group, size_t next, const std::string& name,
                       Equal equal) {
    size_t begin = 0;
    while (begin < group.size()) {
      size_t end = begin + 1;
      while (end < group.size() && equal(group[begin], group[end])) ++end;
      std::vector<int> run(group.begin() + begin, group.begin() + end);
      Order(run, next);
      std::copy(run.begin(), run.end(), group.begin() + begin);
      if (end < group.size()) rows_[group[end - 1]].decided_by = name;
      begin = end;
    }
  }

 private:
  // > 0 when `a` ranks above `b`.
  static int Compare(TieBreak criterion, const StandingRow& a, const StandingRow& b) {
    auto sign = [](auto x, auto y) { return x > y ? 1 : (x < y ? -1 : 0); };
    switch (criterion) {
      case TieBreak::kGamePoints:
        return sign(a.game_points, b.game_points);
      case TieBreak::kWins:
        return sign(a.wins, b.wins);
      case TieBreak::kStrengthOfSchedule: {
        // a.sum / a.met vs b.sum / b.met, exactly; no opponents counts as 0.
        const absl::int128 left =
            absl::int128(a.opponents_points) * (b.opponents_met == 0 ? 1 : b.opponents_met);
        const absl::int128 right =
            absl::int128(b.opponents_points) * (a.opponents_met == 0 ? 1 : a.opponents_met);
        return sign(a.opponents_met == 0 ? absl::int128(0) : left,
                    b.opponents_met == 0 ? absl::int128(0) : right);
      }
      case TieBreak::kHeadToHead:
        return sign(a.head_to_head.value_or(0), b.head_to_head.value_or(0));
    }
    return 0;
  }

  void HeadToHead(const std::vector<int>& group) {
    absl::flat_hash_map<int, int64_t> score;
    for (int member : group) score[member] = 0;
    for (const Meeting& m : meetings_) {
      if (m.places.empty()) continue;
      for (size_t i = 0; i < m.players.size(); ++i) {
        if (!score.contains(m.players[i])) continue;
        for (size_t j = i + 1; j < m.players.size(); ++j) {
          if (!score.contains(m.players[j])) continue;
          if (m.places[i] < m.places[j]) {
            ++score[m.players[i]];
            --score[m.players[j]];
          } else if (m.places[j] < m.places[i]) {
            ++score[m.players[j]];
            --score[m.players[i]];
          }
        }
      }
    }
    for (int member : group) rows_[member].head_to_head = score[member];
  }

  const TournamentSettings& settings_;
  std::vector<StandingRow>& rows_;
  const std::vector<Meeting>& meetings_;
};

// Reads the rounds into one row per player (the round entries, points, game
// points, wins and opponents) and the meetings of counted games.
class RoundReader {
 public:
  RoundReader(const TournamentSettings& settings, const std::vector<std::string>& players,
              const FieldChanges& changes, const std::map<std::string, int>& lots)
      : settings_(settings), changes_(changes), rows_(players.size()), opponents_(players.size()) {
    for (size_t i = 0; i < players.size(); ++i) {
      index_[players[i]] = static_cast<int>(i);
      rows_[i].player = players[i];
      rows_[i].lot = lots.at(players[i]);
    }
  }

  // InvalidArgument naming the round (and table) for an unregistered player,
  // a player seated twice or a result that does not score.
  absl::Status Add(const Round& round) {
    for (StandingRow& row : rows_) row.rounds.push_back(RoundEntry{round.number});
    std::vector<bool> seated(rows_.size(), false);
    for (const std::string& player : round.byes) {
      ARBITER_ASSIGN_OR_RETURN(const int i, Seat(round, player, seated));
      RoundEntry& entry = rows_[i].rounds.back();
      entry.kind = RoundEntry::Kind::kBye;
      entry.points = settings_.bye_points * kPointUnit;
      rows_[i].points += entry.points;
    }
    for (const Table& table : round.tables) ARBITER_RETURN_IF_ERROR(AddTable(round, table, seated));
    for (size_t i = 0; i < rows_.size(); ++i) {
      if (!seated[i]) rows_[i].rounds.back().kind = AbsentKind(rows_[i].player, round.number);
    }
    return absl::OkStatus();
  }

  // The rows with their opponents' points, once every round is added.
  std::vector<StandingRow>& Finish() {
    for (size_t i = 0; i < rows_.size(); ++i) {
      for (int opponent : opponents_[i]) rows_[i].opponents_points += rows_[opponent].points;
      rows_[i].opponents_met = static_cast<int64_t>(opponents_[i].size());
    }
    return rows_;
  }

  const std::vector<Meeting>& meetings() const { return meetings_; }

 private:
  absl::StatusOr<int> Seat(const Round& round, const std::string& player, std::vector<bool>& seated) const {
    auto it = index_.find(player);
    if (it == index_.end()) {
      return absl::InvalidArgumentError(absl::StrCat("round ", round.number, ": \"", player.substr(0, 80),
                                                     "\" is not registered"));
    }
    if (seated[it->second]) {
      return absl::InvalidArgumentError(
          absl::StrCat("round ", round.number, ": \"", player.substr(0, 80), "\" is seated twice"));
    }
    seated[it->second] = true;
    return it->second;
  }

  // Why a player who is neither seated nor given a bye in round `number` is
  // not there.
  RoundEntry::Kind AbsentKind(const std::string& player, int number) const {
    if (number < changes_.FirstRound(player)) return RoundEntry::Kind::kNotEntered;
    auto it = changes_.withdrawn_after.find(player);
    if (it != changes_.withdrawn_after.end() && number > it->second) {
      return RoundEntry::Kind::kWithdrawn;
    }
    return RoundEntry::Kind::kAbsent;
  }

  absl::Status AddTable(const Round& round, const Table& table, std::vector<bool>& seated) {
    absl::StatusOr<std::vector<Points>> points = ScoreTable(settings_, table);
    if (!points.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("round ", round.number, " table ", table.number, ": ", points.status().message()));
    }
    const TableResult& result = table.result;
    Meeting meeting;
    for (size_t s = 0; s < table.players.size(); ++s) {
      ARBITER_ASSIGN_OR_RETURN(const int i, Seat(round, table.players[s], seated));
      meeting.players.push_back(i);
      RoundEntry& entry = rows_[i].rounds.back();
      entry.table = table.number;
      entry.seat = static_cast<int>(s) + 1;
      switch (result.kind) {
        case TableResult::Kind::kPending:
          entry.kind = RoundEntry::Kind::kPending;
          continue;
        case TableResult::Kind::kVoid:
          entry.kind = RoundEntry::Kind::kVoid;
          continue;
        case TableResult::Kind::kPlayed:
          break;
      }
      StandingRow& row = rows_[i];
      entry.reported = result.reported;
      entry.points = (*points)[s];
      row.points += entry.points;
      switch (result.OutcomeOf(s)) {
        case SeatOutcome::kNoShow:
          entry.kind = RoundEntry::Kind::kNoShow;
          meeting.players.pop_back();  // met nobody
          continue;
        case SeatOutcome::kForfeit:
          entry.kind = RoundEntry::Kind::kForfeit;
          meeting.places.push_back(kBelowEveryPlace);
          continue;
        case SeatOutcome::kPlayed:
          break;
      }
      entry.kind = RoundEntry::Kind::kPlayed;
      entry.game_points = result.game_points[s];
      if (!result.cooperative) {
        entry.place = result.places[s];
        meeting.places.push_back(entry.place);
      }
      row.game_points += entry.game_points;
      if (IsWin(result, s)) ++row.wins;
    }
    if (result.kind != TableResult::Kind::kPlayed) return absl::OkStatus();
    for (int a : meeting.players) {
      for (int b : meeting.players) {
        if (a != b) opponents_[a].push_back(b);
      }
    }
    if (result.cooperative) meeting.places.clear();
    meetings_.push_back(std::move(meeting));
    return absl::OkStatus();
  }

  const TournamentSettings& settings_;
  const FieldChanges& changes_;
  Index index_;
  std::vector<StandingRow> rows_;
  std::vector<Meeting> meetings_;
  // Per player: the opponents met in counted games (with repetition).
  std::vector<std::vector<int>> opponents_;
};

}  // namespace

Points StrengthOfSchedule(const StandingRow& row) {
  if (row.opponents_met == 0) return 0;
  Points q = row.opponents_points / row.opponents_met;
  if (row.opponents_points % row.opponents_met != 0 && row.opponents_points < 0) --q;
  return q;
}

std::map<std::string, int> LotNumbers(uint64_t seed, const std::vector<std::string>& players,
                                      const FieldChanges& changes) {
  // Entry groups by first round: 1 (before round 1), then each late round.
  std::map<int, std::vector<std::string>> groups;
  for (const std::string& p : players) groups[changes.FirstRound(p)].push_back(p);
  std::map<std::string, int> out;
  for (auto& [first_round, group] : groups) {
    const uint64_t salt = first_round == 1 ? 0 : static_cast<uint64_t>(first_round) << 40;
    engine::Rng rng(seed ^ 0x6c6f74ULL ^ salt);  // "lot"
    rng.Shuffle(group);
    for (const std::string& p : group) out[p] = static_cast<int>(out.size()) + 1;
  }
  return out;
}

std::map<std::string, int> LotNumbers(const TournamentSettings& settings,
                                      const std::vector<std::string>& players,
                                      const FieldChanges& changes) {
  if (!settings.draw_lot) return LotNumbers(settings.seed, players, changes);
  std::map<int, std::vector<std::string>> groups;
  for (const std::string& p : players) groups[changes.FirstRound(p)].push_back(p);
  std::map<std::string, int> out;
  for (auto& [first_round, group] : groups) {
    const auto drawn = settings.drawn_lots.find(first_round);
    if (drawn != settings.drawn_lots.end()) {
      engine::Rng rng(drawn->second ^ 0x6c6f74ULL);  // "lot"
      rng.Shuffle(group);
    }
    for (const std::string& p : group) out[p] = static_cast<int>(out.size()) + 1;
  }
  return out;
}

absl::StatusOr<std::vector<StandingRow>> ComputeStandings(
    const TournamentSettings& settings, const std::vector<std::string>& players,
    const std::vector<Round>& rounds, const FieldChanges& changes) {
  const int next_round = static_cast<int>(rounds.size()) + 1;
  std::vector<std::string> field;
  for (const std::string& p : players) {
    if (changes.FirstRound(p) <= next_round) field.push_back(p);
  }
  RoundReader reader(settings, field, changes, LotNumbers(settings, players, changes));
  for (const Round& round : rounds) ARBITER_RETURN_IF_ERROR(reader.Add(round));
  std::vector<StandingRow>& rows = reader.Finish();
  const std::vector<Meeting>& meetings = reader.meetings();

  std::vector<int> order(rows.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return rows[a].points > rows[b].points; });
  Ranker ranker(settings, rows, meetings);
  ranker.SplitAndRecurse(order, 0, "points",
                         [&](int a, int b) { return rows[a].points == rows[b].points; });
  std::vector<StandingRow> out;
  out.reserve(rows.size());
  for (int i : order) out.push_back(std::move(rows[i]));
  for (size_t i = 0; i < out.size(); ++i) out[i].rank = static_cast<int>(i) + 1;
  if (!out.empty()) out.back().decided_by.clear();
  return out;
}

}  // namespace arbiter::engine::tournament
