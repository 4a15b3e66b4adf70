// PostgresEventStore's result index (result_index.h): the table
// game_results, one row per "game_finished" or "game_voided" event, filled
// by a trigger in the appending transaction (docs/event-store.md).
//
// ReadResults and ReadTournamentResults cut a page of game_results first and
// then read each result's event by its primary key, so rankings never scan
// actions.
//
// ScanLeagueResults: a rebuild reads every result of a league (a million for
// a large one). As pages of ReadResults that cost 100 statements, each cut
// and joined anew, every row with hashes, ids and its JSON copy, and the
// pages one after the other with the rating waiting. One COPY ... TO STDOUT
// of the six columns rating needs instead streams: PostgreSQL produces rows
// while the caller decodes and rates the ones before, and nothing is held but
// a line. The rows come from game_results alone: each carries its event's
// payload and time (migration 0018), so the read is one range of
// game_results_by_league, with no look-up in events per result. The time is
// the one ReadResults converts from the event (the trigger converts it by
// the same expression), so both reads give the same microseconds.
#include <pqxx/pqxx>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/core/status_macros.h"
#include "services/store/internal/copy_text.h"
#include "services/store/internal/postgres_rows.h"
#include "services/store/internal/store_rules.h"
#include "services/store/pg/arrays.h"
#include "services/store/postgres_event_store.h"

namespace arbiter::store {
namespace {

using internal::DecodeBytea;
using internal::EventFromRow;
using internal::Split;
using internal::StreamRows;
using internal::ToInt;
using internal::UnescapeInto;

// A result's event (the columns of kEventColumns), then its kind, league and
// tournament, as ReadResults and ReadTournamentResults select them.
const std::string& ResultColumns() {
  static const std::string* const kColumns = new std::string(absl::StrCat(
      "x.position, e.game_id, e.sequence, e.event_id, e.type, e.payload, "
      "e.payload_json::text, r.recorded_by, "
      "(extract(epoch FROM r.recorded_at) * 1000000)::bigint, ",
      internal::PrevHashWhere("true"), ", encode(e.hash, 'hex'), x.kind, x.league_id, "
      "x.tournament_id "));
  return *kColumns;
}

// The events of the game_results rows `x` selected, and the batches that
// wrote them (a result event is its batch's last): one primary-key look-up
// each. The LATERAL ... LIMIT 1 keeps the planner from hashing the whole
// events table for every page.
constexpr char kTheirEvents[] =
    "CROSS JOIN LATERAL (SELECT * FROM events WHERE events.game_id = x.game_id "
    "AND events.sequence = x.sequence LIMIT 1) e "
    "CROSS JOIN LATERAL (SELECT recorded_by, recorded_at FROM append_requests "
    "WHERE append_requests.last_position = x.position LIMIT 1) r "
    "ORDER BY x.position";

std::vector<ResultEvent> ResultsFromRows(const pqxx::result& rows) {
  std::vector<ResultEvent> results;
  results.reserve(rows.size());
  const int extra = static_cast<int>(rows.columns()) - 3;
  for (const pqxx::row& row : rows) {
    ResultEvent result;
    result.event = EventFromRow(row);
    result.kind = ParseGameStatus(row[extra].as<std::string>()).value_or(GameStatus::kUnspecified);
    result.league_id = row[extra + 1].is_null() ? "" : row[extra + 1].as<std::string>();
    result.tournament_id = row[extra + 2].is_null() ? "" : row[extra + 2].as<std::string>();
    results.push_back(std::move(result));
  }
  return results;
}

}  // namespace

absl::StatusOr<std::vector<ResultEvent>> PostgresEventStore::ReadResults(
    int64_t after_position, int64_t up_to_position, const std::string& league_id, int limit) {
  ARBITER_RETURN_IF_ERROR(internal::ValidateLimit(limit));
  ARBITER_ASSIGN_OR_RETURN(Lease lease, pool_.Take());
  try {
    pqxx::read_transaction txn(lease.conn());
    // Results are few next to actions: game_results lists them by position
    // (a result is the last event of its batch, so its position is the
    // batch's). The page is cut first, then each result is one primary-key
    // look-up in events. A league's results come through
    // game_results_by_league.
    const std::string query = absl::StrCat(
        "SELECT ", ResultColumns(),
        "FROM (SELECT * FROM game_results "
        "WHERE position > $1::bigint AND ($2::bigint = 0 OR position <= $2::bigint) ",
        league_id.empty() ? "" : "AND league_id = $4::text ",
        "ORDER BY position LIMIT $3) x ", kTheirEvents);
    return ResultsFromRows(
        league_id.empty()
            ? txn.exec_params(query, after_position, up_to_position, limit)
            : txn.exec_params(query, after_position, up_to_position, limit, league_id));
  } catch (const std::exception& e) {
    return lease.Fail(e, "reading results");
  }
}

absl::StatusOr<std::vector<ResultEvent>> PostgresEventStore::ReadTournamentResults(
    const std::string& tournament_id, int64_t after_position, int limit) {
  ARBITER_RETURN_IF_ERROR(internal::ValidateLimit(limit));
  ARBITER_ASSIGN_OR_RETURN(Lease lease, pool_.Take());
  try {
    pqxx::read_transaction txn(lease.conn());
    // As ReadResults, through game_results_by_tournament (migration 0011).
    return ResultsFromRows(txn.exec_params(
        absl::StrCat("SELECT ", ResultColumns(),
                     "FROM (SELECT * FROM game_results WHERE tournament_id = $1::text "
                     "AND position > $2::bigint ORDER BY position LIMIT $3) x ",
                     kTheirEvents),
        tournament_id, after_position, limit));
  } catch (const std::exception& e) {
    return lease.Fail(e, "reading a tournament's results");
  }
}

absl::Status PostgresEventStore::ScanLeagueResults(
    const std::string& league_id, int64_t after_position, int64_t up_to_position,
    const std::function<absl::Status(const ResultEvent&)>& each) {
  ARBITER_ASSIGN_OR_RETURN(Lease lease, pool_.Take());
  try {
    pqxx::read_transaction txn(lease.conn());
    // The plan is a plain index walk; compiling it (JIT, chosen for a large
    // league by its row estimate) cost more than it saved: 170 ms at
    // 100,000 results. Rows are stored in position order, so walking the
    // index reads the table in order; a parallel scan and sort of a wide
    // payload column (what the planner picks when a league is most of the
    // table) spills to disk.
    txn.exec("SET LOCAL jit = off");
    txn.exec("SET LOCAL max_parallel_workers_per_gather = 0");
    // COPY takes no parameters: the values go in as literals (quoted).
    const std::string query = absl::StrCat(
        "(SELECT position, game_id, sequence, kind, recorded_micros, payload "
        "FROM game_results WHERE league_id = ", txn.quote(league_id),
        " AND position > ", after_position,
        up_to_position > 0 ? absl::StrCat(" AND position <= ", up_to_position) : "",
        " ORDER BY position)");
    ResultEvent result;
    result.league_id = league_id;
    std::string_view fields[6];
    absl::Status status = StreamRows(
        txn, query, absl::StrCat("a result of league \"", league_id, "\""),
        [&](std::string_view line) {
          int64_t micros = 0;
          if (!Split(line, fields, 6) || !ToInt(fields[0], &result.event.position) ||
              !ToInt(fields[2], &result.event.sequence) || !ToInt(fields[4], &micros) ||
              !DecodeBytea(fields[5], result.event.payload)) {
            return false;
          }
          UnescapeInto(fields[1], result.event.game_id);
          result.kind =
              ParseGameStatus(std::string(fields[3])).value_or(GameStatus::kUnspecified);
          result.event.recorded_at = absl::FromUnixMicros(micros);
          return true;
        },
        [&] { return each(result); });
    txn.commit();
    return status;
  } catch (const std::exception& e) {
    return lease.Fail(e, "reading a league's results");
  }
}

absl::StatusOr<std::vector<ResultEvent>> PostgresEventStore::ReadResultRows(
    std::vector<int64_t> positions) {
  std::vector<ResultEvent> out;
  if (positions.empty()) return out;
  ARBITER_ASSIGN_OR_RETURN(Lease lease, pool_.Take());
  try {
    pqxx::read_transaction txn(lease.conn());
    // The columns ScanLeagueResults reads, by primary key.
    const pqxx::result rows = txn.exec_params(
        "SELECT position, game_id, sequence, kind, league_id, recorded_micros, payload "
        "FROM game_results WHERE position = ANY($1::bigint[]) ORDER BY position",
        pg::IntArray(positions));
    for (const pqxx::row& row : rows) {
      ResultEvent& result = out.emplace_back();
      result.event.position = row[0].as<int64_t>();
      result.event.game_id = row[1].as<std::string>();
      result.event.sequence = row[2].as<int64_t>();
      result.kind = ParseGameStatus(row[3].as<std::string>()).value_or(GameStatus::kUnspecified);
      result.league_id = row[4].is_null() ? "" : row[4].as<std::string>();
      result.event.recorded_at = absl::FromUnixMicros(row[5].as<int64_t>());
      const pqxx::binarystring payload(row[6]);
      result.event.payload.assign(payload.get(), payload.size());
    }
    return out;
  } catch (const std::exception& e) {
    return lease.Fail(e, "reading result rows");
  }
}

}  // namespace arbiter::store
