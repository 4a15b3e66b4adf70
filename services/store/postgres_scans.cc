// PostgresEventStore::ScanEvents: re-deriving everything reads every event
// of the store. Pages of ReadAll leave PostgreSQL idle while the caller
// replays a page and the caller idle while PostgreSQL makes the next; one
// COPY ... TO STDOUT of the five columns replay needs keeps both busy: the
// rows stream in while `each` handles the ones before. (A league's results
// are scanned the same way: postgres_result_index.cc.)
#include <pqxx/pqxx>

#include <string>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "engine/core/status_macros.h"
#include "services/store/internal/copy_text.h"
#include "services/store/internal/postgres_rows.h"
#include "services/store/postgres_event_store.h"

namespace arbiter::store {

using internal::DecodeBytea;
using internal::Split;
using internal::StreamRows;
using internal::ToInt;
using internal::UnescapeInto;

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

}  // namespace arbiter::store
