#include "engine/tournament/pairing.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <tuple>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "engine/core/rng.h"
#include "engine/core/status_macros.h"
#include "engine/tournament/standings.h"
#include "engine/tournament/table_plan.h"

namespace arbiter::engine::tournament {
namespace {

constexpr int kMaxPassesPerWindow = 1000;
// Pairs of swaps are tried only in fields up to this size (their cost grows
// with the square of the field).
constexpr int kCompoundLimit = 2000;

// Earlier table-mates per player (registration index), sorted, one entry per
// earlier round shared.
class Mates {
 public:
  Mates(size_t players, const std::vector<Round>& earlier,
        const absl::flat_hash_map<std::string, int>& index)
      : mates_(players) {
    for (const Round& round : earlier) {
      for (const Table& table : round.tables) {
        for (const std::string& a : table.players) {
          for (const std::string& b : table.players) {
            if (a != b) mates_[index.at(a)].push_back(index.at(b));
          }
        }
      }
    }
    for (auto& list : mates_) std::sort(list.begin(), list.end());
  }

  int64_t Meetings(int a, int b) const {
    const auto& list = mates_[a];
    auto range = std::equal_range(list.begin(), list.end(), b);
    return range.second - range.first;
  }

  // Meetings of `a` with everyone at `table` except `a` and `skip`.
  int64_t Conflicts(int a, const std::vector<int>& table, int skip) const {
    int64_t total = 0;
    for (int x : table) {
      if (x != a && x != skip) total += Meetings(a, x);
    }
    return total;
  }

 private:
  std::vector<std::vector<int>> mates_;
};

int64_t TotalRepeats(const Mates& mates, const std::vector<std::vector<int>>& tables) {
  int64_t total = 0;
  for (const auto& table : tables) {
    for (size_t i = 0; i < table.size(); ++i) {
      for (size_t j = i + 1; j < table.size(); ++j) total += mates.Meetings(table[i], table[j]);
    }
  }
  return total;
}

// The change in the measure if `a` (at table t) and `b` (at table u) swapped.
int64_t SwapDelta(const Mates& mates, const std::vector<std::vector<int>>& tables, int t, int a,
                  int u, int b) {
  return mates.Conflicts(b, tables[t], a) + mates.Conflicts(a, tables[u], b) -
         mates.Conflicts(a, tables[t], a) - mates.Conflicts(b, tables[u], b);
}

// One pass of single swaps within `window` tables (step 4 of the header).
// Returns whether any swap was made.
bool SwapPass(const Mates& mates, const std::vector<int>& rank,
              std::vector<std::vector<int>>& tables, int window) {
  const int count = static_cast<int>(tables.size());
  bool improved = false;
  for (int t = 0; t < count; ++t) {
    for (size_t si = 0; si < tables[t].size(); ++si) {
      const int a = tables[t][si];
      if (mates.Conflicts(a, tables[t], a) == 0) continue;
      // (delta, standing distance, table, seat) of the best swap.
      std::tuple<int64_t, int, int, size_t> best{0, 0, -1, 0};
      for (int u = std::max(0, t - window); u <= std::min(count - 1, t + window); ++u) {
        if (u == t) continue;
        for (size_t sj = 0; sj < tables[u].size(); ++sj) {
          const int b = tables[u][sj];
          const int64_t delta = SwapDelta(mates, tables, t, a, u, b);
          if (delta >= 0) continue;
          const std::tuple<int64_t, int, int, size_t> key{delta, std::abs(rank[a] - rank[b]), u,
                                                          sj};
          if (std::get<2>(best) < 0 || key < best) best = key;
        }
      }
      if (std::get<2>(best) < 0) continue;
      std::swap(tables[t][si], tables[std::get<2>(best)][std::get<3>(best)]);
      improved = true;
    }
  }
  return improved;
}

// When no single swap helps: the first pair of swaps (in table and seat
// order) that lowers the measure together, the second touching a table the
// first changed. Returns whether one was made.
bool CompoundMove(const Mates& mates, std::vector<std::vector<int>>& tables) {
  const int count = static_cast<int>(tables.size());
  for (int t = 0; t < count; ++t) {
    for (size_t si = 0; si < tables[t].size(); ++si) {
      const int a = tables[t][si];
      if (mates.Conflicts(a, tables[t], a) == 0) continue;
      for (int u = 0; u < count; ++u) {
        if (u == t) continue;
        for (size_t sj = 0; sj < tables[u].size(); ++sj) {
          const int64_t first = SwapDelta(mates, tables, t, a, u, tables[u][sj]);
          std::swap(tables[t][si], tables[u][sj]);
          for (int changed : {t, u}) {
            for (size_t xi = 0; xi < tables[changed].size(); ++xi) {
              const int x = tables[changed][xi];
              for (int v = 0; v < count; ++v) {
                if (v == changed) continue;
                for (size_t yi = 0; yi < tables[v].size(); ++yi) {
                  if (first + SwapDelta(mates, tables, changed, x, v, tables[v][yi]) < 0) {
                    std::swap(tables[changed][xi], tables[v][yi]);
                    return true;
                  }
                }
              }
            }
          }
          std::swap(tables[t][si], tables[u][sj]);
        }
      }
    }
  }
  return false;
}

// Step 4 of the header: strict improvements only, so it ends.
void AvoidRepeats(const Mates& mates, const std::vector<int>& rank,
                  std::vector<std::vector<int>>& tables) {
  const int count = static_cast<int>(tables.size());
  if (count < 2) return;
  int players = 0;
  for (const auto& table : tables) players += static_cast<int>(table.size());
  for (int window = 1;; window *= 2) {
    const bool last = window >= count - 1;
    while (true) {
      for (int pass = 0; pass < kMaxPassesPerWindow; ++pass) {
        if (!SwapPass(mates, rank, tables, window)) break;
      }
      if (!last || players > kCompoundLimit || TotalRepeats(mates, tables) == 0 ||
          !CompoundMove(mates, tables)) {
        break;
      }
    }
    if (last || TotalRepeats(mates, tables) == 0) return;
  }
}

using PlayerIndex = absl::flat_hash_map<std::string, int>;

// FailedPrecondition when every round is played or an earlier round still
// has a table without a result; the errors of ValidateSettings and
// ValidatePlayers.
absl::Status CheckRoundMayStart(const TournamentSettings& settings, const std::vector<std::string>& players,
                                const std::vector<Round>& earlier) {
  ARBITER_RETURN_IF_ERROR(ValidateSettings(settings));
  ARBITER_RETURN_IF_ERROR(ValidatePlayers(players));
  const int number = static_cast<int>(earlier.size()) + 1;
  if (number > settings.rounds) {
    return absl::FailedPreconditionError(absl::StrCat("all ", settings.rounds, " rounds have been played"));
  }
  for (const Round& round : earlier) {
    for (const Table& table : round.tables) {
      if (table.result.kind == TableResult::Kind::kPending) {
        return absl::FailedPreconditionError(
            absl::StrCat("round ", round.number, " is still open: table ", table.number, " has no result"));
      }
    }
  }
  return absl::OkStatus();
}

// The players from the top of the standings down (the first round: drawn by
// lot from the seed, or the drawn lot's seed).
// Withdrawn players are left out.
absl::StatusOr<std::vector<std::string>> StandingOrder(const TournamentSettings& settings,
                                                       const std::vector<std::string>& players,
                                                       const std::vector<Round>& earlier,
                                                       const FieldChanges& changes) {
  std::vector<std::string> order;
  if (earlier.empty() && settings.draw_lot) {
    const auto drawn = settings.drawn_lots.find(1);
    if (drawn == settings.drawn_lots.end()) {
      return absl::FailedPreconditionError("round 1's lot is not drawn yet");
    }
    order = FirstRoundOrder(drawn->second, players);
  } else if (earlier.empty()) {
    order = FirstRoundOrder(settings.seed, players);
  } else {
    ARBITER_ASSIGN_OR_RETURN(const std::vector<StandingRow> standings,
                             ComputeStandings(settings, players, earlier, changes));
    for (const StandingRow& row : standings) order.push_back(row.player);
  }
  std::erase_if(order, [&](const std::string& p) { return changes.Withdrawn(p); });
  return order;
}

// Per player (registration index): byes so far, games in seat 1, and the seat
// of the last game (0 for none).
struct SeatHistory {
  std::vector<int> byes;
  std::vector<int> seat_ones;
  std::vector<int> last_seat;
};

SeatHistory CountSeats(const std::vector<Round>& earlier, const PlayerIndex& index, size_t players) {
  SeatHistory history{std::vector<int>(players, 0), std::vector<int>(players, 0), std::vector<int>(players, 0)};
  for (const Round& round : earlier) {
    for (const std::string& p : round.byes) ++history.byes[index.at(p)];
    for (const Table& table : round.tables) {
      for (size_t s = 0; s < table.players.size(); ++s) {
        const int i = index.at(table.players[s]);
        if (s == 0) ++history.seat_ones[i];
        history.last_seat[i] = static_cast<int>(s) + 1;
      }
    }
  }
  return history;
}

// Who sits out: the fewest byes so far, then the lowest standing.
std::vector<bool> ChooseByes(const std::vector<std::string>& order, const PlayerIndex& index,
                             const std::vector<int>& rank, const SeatHistory& history, int byes) {
  std::vector<int> by_bye(order.size());
  for (size_t i = 0; i < order.size(); ++i) by_bye[i] = index.at(order[i]);
  std::stable_sort(by_bye.begin(), by_bye.end(), [&](int a, int b) {
    if (history.byes[a] != history.byes[b]) return history.byes[a] < history.byes[b];
    return rank[a] > rank[b];
  });
  std::vector<bool> has_bye(order.size(), false);
  for (int i = 0; i < byes; ++i) has_bye[by_bye[i]] = true;
  return has_bye;
}

// The tables of the plan filled in standing order, skipping the byes.
std::vector<std::vector<int>> FillTables(const std::vector<int>& sizes, const std::vector<std::string>& order,
                                         const PlayerIndex& index, const std::vector<bool>& has_bye) {
  std::vector<std::vector<int>> tables;
  size_t next = 0;
  for (int size : sizes) {
    std::vector<int>& table = tables.emplace_back();
    while (static_cast<int>(table.size()) < size) {
      const int i = index.at(order[next++]);
      if (!has_bye[i]) table.push_back(i);
    }
  }
  return tables;
}

// Round `number` with its byes in standing order and each table's players
// in seat order: fewest games in seat 1 first, then the latest seat last
// time, then the standing; each table with its game seed.
Round SeatRound(const TournamentSettings& settings, int number, const std::vector<std::string>& players,
                const std::vector<std::string>& order, const PlayerIndex& index, const std::vector<int>& rank,
                const SeatHistory& history, const std::vector<bool>& has_bye,
                const std::vector<std::vector<int>>& tables) {
  Round round;
  round.number = number;
  for (const std::string& p : order) {
    if (has_bye[index.at(p)]) round.byes.push_back(p);
  }
  for (size_t t = 0; t < tables.size(); ++t) {
    std::vector<int> seats = tables[t];
    std::sort(seats.begin(), seats.end(), [&](int a, int b) {
      return std::make_tuple(history.seat_ones[a], -history.last_seat[a], rank[a]) <
             std::make_tuple(history.seat_ones[b], -history.last_seat[b], rank[b]);
    });
    Table& table = round.tables.emplace_back();
    table.number = static_cast<int>(t) + 1;
    for (int i : seats) table.players.push_back(players[i]);
    table.game_seed = TableSeed(settings.seed, number, table.number);
  }
  return round;
}

}  // namespace

int64_t RepeatCount(const std::vector<Round>& earlier, const Round& round) {
  absl::flat_hash_map<std::string, int> index;
  auto add = [&](const std::string& player) { index.emplace(player, index.size()); };
  for (const Round& r : earlier) {
    for (const Table& table : r.tables) {
      for (const std::string& p : table.players) add(p);
    }
  }
  for (const Table& table : round.tables) {
    for (const std::string& p : table.players) add(p);
  }
  Mates mates(index.size(), earlier, index);
  std::vector<std::vector<int>> tables;
  for (const Table& table : round.tables) {
    std::vector<int>& seats = tables.emplace_back();
    for (const std::string& p : table.players) seats.push_back(index.at(p));
  }
  return TotalRepeats(mates, tables);
}

uint64_t TableSeed(uint64_t seed, int round, int table) {
  engine::SplitMix64 mix(seed ^ (static_cast<uint64_t>(round) << 32) ^
                         static_cast<uint64_t>(table));
  return mix.Next();
}

std::vector<std::string> FirstRoundOrder(uint64_t seed, const std::vector<std::string>& players) {
  std::vector<std::string> order = players;
  engine::Rng rng(seed);
  rng.Shuffle(order);
  return order;
}

absl::StatusOr<Round> AssignRound(const TournamentSettings& settings,
                                  const std::vector<std::string>& players,
                                  const std::vector<Round>& earlier, const FieldChanges& changes) {
  ARBITER_RETURN_IF_ERROR(CheckRoundMayStart(settings, players, earlier));
  const int number = static_cast<int>(earlier.size()) + 1;
  ARBITER_ASSIGN_OR_RETURN(const std::vector<std::string> order,
                           StandingOrder(settings, players, earlier, changes));
  ARBITER_ASSIGN_OR_RETURN(const TablePlan plan, PlanTables(settings, static_cast<int>(order.size())));

  PlayerIndex index;
  for (size_t i = 0; i < players.size(); ++i) index[players[i]] = static_cast<int>(i);
  std::vector<int> rank(players.size());  // registration index -> position in order
  for (size_t i = 0; i < order.size(); ++i) rank[index.at(order[i])] = static_cast<int>(i);
  const SeatHistory history = CountSeats(earlier, index, players.size());
  const std::vector<bool> has_bye = ChooseByes(order, index, rank, history, plan.byes);
  std::vector<std::vector<int>> tables = FillTables(plan.sizes, order, index, has_bye);
  Mates mates(players.size(), earlier, index);
  AvoidRepeats(mates, rank, tables);
  return SeatRound(settings, number, players, order, index, rank, history, has_bye, tables);
}

}  // namespace arbiter::engine::tournament
