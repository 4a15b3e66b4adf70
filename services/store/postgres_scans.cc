// PostgresEventStore's scans: reads of everything in a range in one COPY.
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
//
// ScanEvents: re-deriving everything reads every event of the store. Pages
// of ReadAll leave PostgreSQL idle while the caller replays a page and the
// caller idle while PostgreSQL makes the next; one COPY of the five columns
// replay needs keeps both busy.
#include <pqxx/pqxx>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "engine/core/status_macros.h"
#include "services/store/internal/postgres_rows.h"
#include "services/store/pg/arrays.h"
#include "services/store/postgres_event_store.h"

namespace arbiter::store {
namespace {

// The text of one field of a COPY text line (backslash escapes undone),
// into `out` (its storage reused: most fields have no escape at all).
void UnescapeInto(std::string_view field, std::string& out) {
  if (field.find('\\') == std::string_view::npos) {
    out.assign(field.data(), field.size());
    return;
  }
  out.clear();
  for (size_t i = 0; i < field.size(); ++i) {
    if (field[i] != '\\' || i + 1 == field.size()) {
      out.push_back(field[i]);
      continue;
    }
    const char c = field[++i];
    switch (c) {
      case 'b': out.push_back('\b'); break;
      case 'f': out.push_back('\f'); break;
      case 'n': out.push_back('\n'); break;
      case 'r': out.push_back('\r'); break;
      case 't': out.push_back('\t'); break;
      case 'v': out.push_back('\v'); break;
      default:
        if (c >= '0' && c <= '7') {  // up to three octal digits
          int value = c - '0';
          for (int k = 0; k < 2 && i + 1 < field.size() && field[i + 1] >= '0' &&
                          field[i + 1] <= '7';
               ++k) {
            value = value * 8 + (field[++i] - '0');
          }
          out.push_back(static_cast<char>(value));
        } else {
          out.push_back(c);
        }
    }
  }
}

constexpr std::array<int8_t, 256> HexValues() {
  std::array<int8_t, 256> table{};
  for (int c = 0; c < 256; ++c) {
    table[c] = static_cast<int8_t>(c >= '0' && c <= '9'   ? c - '0'
                                   : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                   : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                          : -1);
  }
  return table;
}

// The value of each hex digit, -1 for any other byte.
constexpr std::array<int8_t, 256> kHexValue = HexValues();

// A bytea field in hex output ("\x..." written by COPY as "\\x...").
bool DecodeBytea(std::string_view field, std::string& out) {
  if (field.size() < 3 || field.substr(0, 3) != "\\\\x" || field.size() % 2 == 0) return false;
  field.remove_prefix(3);
  out.resize(field.size() / 2);
  for (size_t i = 0; i < out.size(); ++i) {
    const int high = kHexValue[static_cast<unsigned char>(field[2 * i])];
    const int low = kHexValue[static_cast<unsigned char>(field[2 * i + 1])];
    if ((high | low) < 0) return false;
    out[i] = static_cast<char>(high * 16 + low);
  }
  return true;
}

bool ToInt(std::string_view field, int64_t* out) {
  return absl::SimpleAtoi(absl::string_view(field.data(), field.size()), out);
}

// Splits `line` at tabs into exactly `n` fields.
bool Split(std::string_view line, std::string_view* fields, int n) {
  for (int i = 0; i < n; ++i) {
    const size_t tab = line.find('\t');
    if ((tab == std::string_view::npos) != (i == n - 1)) return false;
    fields[i] = line.substr(0, tab);
    if (tab != std::string_view::npos) line.remove_prefix(tab + 1);
  }
  return true;
}

// Streams the rows of `query` (a parenthesised SELECT: libpqxx 6 puts the
// "table" of a stream_from straight after COPY) as COPY text lines. Each
// line goes to `parse`; a line it refuses is DataLoss naming `what`, and
// `deliver` hands over a parsed one. The first failure ends the handing
// over; the COPY is drained and the failure returned.
template <typename Parse, typename Deliver>
absl::Status StreamRows(pqxx::transaction_base& txn, const std::string& query,
                        const std::string& what, Parse parse, Deliver deliver) {
  pqxx::stream_from stream(txn, query);
  absl::Status failed;
  std::string line;
  while (stream.get_raw_line(line)) {
    if (!failed.ok()) continue;
    if (!line.empty() && line.back() == '\n') line.pop_back();  // get_raw_line keeps it
    if (!parse(std::string_view(line))) {
      failed = absl::DataLossError(
          absl::StrCat(what, " reads back malformed: ", line.substr(0, 200)));
      continue;
    }
    failed = deliver();
  }
  stream.complete();
  return failed;
}

}  // namespace

absl::Status PostgresEventStore::ScanEvents(
    int64_t after_position, int64_t up_to_position,
    const std::function<absl::Status(const StoredEvent&)>& each) {
  ARBITER_ASSIGN_OR_RETURN(Lease lease, pool_.Take());
  try {
    pqxx::read_transaction txn(lease.conn());
    txn.exec("SET LOCAL jit = off");
    // The plan wanted: the batches in position order (append_requests by
    // last_position), each batch's events by their key, already in order.
    // For a whole store the planner would rather hash one table and sort
    // everything, which sends nothing until all is read and sorted and cost
    // more (docs/benchmarks.md, re-deriving).
    txn.exec("SET LOCAL enable_hashjoin = off");
    txn.exec("SET LOCAL enable_mergejoin = off");
    txn.exec("SET LOCAL enable_sort = off");
    // One statement, so the head (when no bound is given) and the rows come
    // from one snapshot: every position up to that head is committed and in
    // it. Batches in position order, each batch's events in sequence order,
    // as ReadAll.
    const std::string up_to = up_to_position > 0 ? absl::StrCat(up_to_position)
                                                 : "(SELECT last_position FROM store_head)";
    const std::string query = absl::StrCat(
        "(SELECT r.first_position + (e.sequence - r.first_sequence), e.game_id, e.sequence, "
        "e.type, e.payload", internal::kEventsWithBatch,
        "WHERE r.last_position > ", after_position,
        " AND r.first_position + (e.sequence - r.first_sequence) > ", after_position,
        " AND r.first_position + (e.sequence - r.first_sequence) <= ", up_to,
        " ORDER BY r.last_position, e.sequence)");
    StoredEvent event;
    std::string_view fields[5];
    absl::Status status = StreamRows(
        txn, query, "an event",
        [&](std::string_view line) {
          if (!Split(line, fields, 5) || !ToInt(fields[0], &event.position) ||
              !ToInt(fields[2], &event.sequence) || !DecodeBytea(fields[4], event.payload)) {
            return false;
          }
          UnescapeInto(fields[1], event.game_id);
          UnescapeInto(fields[3], event.type);
          return true;
        },
        [&] { return each(event); });
    txn.commit();
    return status;
  } catch (const std::exception& e) {
    return lease.Fail(e, "reading the store");
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
