#include "services/tournament/round_parts.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace arbiter::tournament {
namespace {

// Whether the tables an interrupted StartRound recorded (`begun`) are the
// first tables of `now`, with the same players and seeds, and `now` has as
// many tables as `begun` announced.
bool SameDeal(const RoundState& begun, const v1::RoundStarted& now) {
  if (begun.number != now.round() || begun.table_count != now.tables_size()) return false;
  for (size_t t = 0; t < begun.tables.size(); ++t) {
    const v1::TournamentTable& had = begun.tables[t].table;
    const v1::TournamentTable& table = now.tables(static_cast<int>(t));
    if (had.seed() != table.seed() ||
        !std::equal(had.players().begin(), had.players().end(), table.players().begin(),
                    table.players().end())) {
      return false;
    }
  }
  return true;
}

}  // namespace

v1::RoundStarted RoundStartedOf(int number, const engine::tournament::Round& round) {
  v1::RoundStarted started;
  started.set_round(number);
  for (const engine::tournament::Table& table : round.tables) {
    v1::TournamentTable* t = started.add_tables();
    t->set_number(table.number);
    for (const std::string& p : table.players) t->add_players(p);
    t->set_seed(table.game_seed);
  }
  for (const std::string& bye : round.byes) started.add_byes(bye);
  return started;
}

std::vector<RoundPart> RoundParts(const v1::RoundStarted& round, int from,
                                  const std::string& request_id) {
  std::vector<RoundPart> parts;
  size_t bytes = 0;
  auto begin = [&](int first_table) {
    RoundPart& part = parts.emplace_back();
    part.body.set_round(round.round());
    if (first_table == 1) {
      part.append.type = kTypeRoundStarted;
      part.append.request_id = request_id;
      *part.body.mutable_byes() = round.byes();
      part.body.set_table_count(round.tables_size());
      part.body.set_lot_secret(round.lot_secret());
      part.body.set_next_lot_commitment(round.next_lot_commitment());
    } else {
      part.append.type = kTypeRoundTables;
      part.append.request_id = absl::StrCat(request_id, "-t", first_table);
    }
    bytes = part.body.ByteSizeLong();
  };
  if (from == 1) begin(1);
  for (int t = from - 1; t < round.tables_size(); ++t) {
    const v1::TournamentTable& table = round.tables(t);
    const size_t size = table.ByteSizeLong() + 4;
    if (parts.empty() || (parts.back().body.tables_size() > 0 && bytes + size > kRoundPartBytes)) {
      begin(t + 1);
    }
    *parts.back().body.add_tables() = table;
    bytes += size;
  }
  for (RoundPart& part : parts) part.body.SerializeToString(&part.append.payload);
  return parts;
}

absl::StatusOr<RoundResume> ResumeRound(const TournamentLog& log, const v1::RoundStarted& round,
                                        const std::string& request_id) {
  if (!log.starting.has_value()) return RoundResume{1, request_id};
  const RoundState& begun = *log.starting;
  if (!SameDeal(begun, round)) {
    return absl::AbortedError(absl::StrCat("round ", round.round(),
                                           " was recorded in part with other tables than it now "
                                           "has; the earlier results changed since"));
  }
  return RoundResume{static_cast<int>(begun.tables.size()) + 1, begun.request_id};
}

}  // namespace arbiter::tournament
