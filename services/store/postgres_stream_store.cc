#include "services/store/postgres_stream_store.h"

#include <pqxx/pqxx>

#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/core/status_macros.h"
#include "services/store/event_hash.h"
#include "services/store/internal/store_rules.h"

namespace arbiter::store {
namespace {

constexpr char kEventColumns[] =
    "stream_id, sequence, request_id, type, payload, recorded_by, "
    "(extract(epoch FROM recorded_at) * 1000000)::bigint, prev_hash, hash, digest";
constexpr char kStreamColumns[] =
    "stream_id, kind, created_by, (extract(epoch FROM created_at) * 1000000)::bigint, "
    "last_sequence, last_hash";

StreamEvent EventFromRow(const pqxx::row& row) {
  StreamEvent event;
  event.stream_id = row[0].as<std::string>();
  event.sequence = row[1].as<int64_t>();
  event.request_id = row[2].as<std::string>();
  event.type = row[3].as<std::string>();
  const pqxx::binarystring payload(row[4]);
  event.payload = payload.str();
  event.recorded_by = row[5].as<std::string>();
  event.recorded_at = absl::FromUnixMicros(row[6].as<int64_t>());
  event.prev_hash = row[7].as<std::string>();
  event.hash = row[8].as<std::string>();
  return event;
}

StreamRecord StreamFromRow(const pqxx::row& row) {
  StreamRecord stream;
  stream.stream_id = row[0].as<std::string>();
  stream.kind = row[1].as<std::string>();
  stream.created_by = row[2].as<std::string>();
  stream.created_at = absl::FromUnixMicros(row[3].as<int64_t>());
  stream.last_sequence = row[4].as<int64_t>();
  stream.last_hash = row[5].as<std::string>();
  return stream;
}

absl::Status NoStream(const std::string& stream_id) {
  return absl::NotFoundError(absl::StrCat(stream_id, " does not exist"));
}

// The answer to a request id already stored: its event, or an error if the
// id was used for other content.
std::optional<absl::StatusOr<StreamEvent>> Previous(pqxx::transaction_base& txn,
                                                    const StreamAppendRequest& request,
                                                    const std::string& digest) {
  pqxx::result rows = txn.exec_params(
      absl::StrCat("SELECT ", kEventColumns, " FROM stream_events WHERE request_id = $1"),
      request.request_id);
  if (rows.empty()) return std::nullopt;
  if (rows[0][9].as<std::string>() != digest) {
    return absl::StatusOr<StreamEvent>(absl::InvalidArgumentError(absl::StrCat(
        "request_id \"", request.request_id, "\" was already used for a different request")));
  }
  return absl::StatusOr<StreamEvent>(EventFromRow(rows[0]));
}

// A stream's last sequence and hash.
struct Head {
  int64_t sequence = 0;
  std::string hash;
};

// The head the request writes after: a new stream's (created here) or the
// stream's, locked. AlreadyExists, NotFound or Aborted if it cannot write.
absl::StatusOr<Head> LockHead(pqxx::transaction_base& txn, const StreamAppendRequest& request) {
  if (request.expected_sequence == 0) {
    pqxx::result created = txn.exec_params(
        "INSERT INTO streams (stream_id, kind, created_by, last_sequence, last_hash) "
        "VALUES ($1, $2, $3, 1, repeat('0', 64)) ON CONFLICT DO NOTHING RETURNING 1",
        request.stream_id, request.kind, request.recorded_by);
    if (created.empty()) {
      return absl::AlreadyExistsError(absl::StrCat(request.stream_id, " already exists"));
    }
    return Head{0, GenesisHash()};
  }
  pqxx::result locked = txn.exec_params(
      "SELECT last_sequence, last_hash FROM streams WHERE stream_id = $1 FOR UPDATE",
      request.stream_id);
  if (locked.empty()) return NoStream(request.stream_id);
  Head head{locked[0][0].as<int64_t>(), locked[0][1].as<std::string>()};
  if (head.sequence != request.expected_sequence) {
    return absl::AbortedError(absl::StrCat("expected event ", request.expected_sequence, ", ",
                                           request.stream_id, " is at event ", head.sequence));
  }
  return head;
}

// One attempt at an append, in a transaction of its own: the answer to the
// request id if it was already used, else the new event. Throws what libpqxx
// throws (a unique violation if a concurrent request won a race).
absl::StatusOr<StreamEvent> AppendOnce(pqxx::connection_base& conn,
                                       const StreamAppendRequest& request,
                                       const std::string& digest) {
  pqxx::work txn(conn);
  if (auto previous = Previous(txn, request, digest)) return *std::move(previous);
  ARBITER_ASSIGN_OR_RETURN(const Head head, LockHead(txn, request));
  const int64_t sequence = head.sequence + 1;
  const std::string hash = StreamEventHash(head.hash, sequence, request.stream_id,
                                           request.request_id, request.type, request.payload);
  pqxx::result written = txn.exec_params(
      absl::StrCat("INSERT INTO stream_events (stream_id, sequence, request_id, digest, "
                   "type, payload, recorded_by, prev_hash, hash) "
                   "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ",
                   kEventColumns),
      request.stream_id, sequence, request.request_id, digest, request.type,
      pqxx::binarystring(request.payload), request.recorded_by, head.hash, hash);
  txn.exec_params("UPDATE streams SET last_sequence = $2, last_hash = $3 WHERE stream_id = $1",
                  request.stream_id, sequence, hash);
  txn.commit();
  return EventFromRow(written[0]);
}

}  // namespace

absl::StatusOr<StreamEvent> PostgresStreamStore::Append(const StreamAppendRequest& request) {
  ARBITER_RETURN_IF_ERROR(ValidateStreamAppend(request));
  const std::string digest = StreamAppendDigest(request);
  return pool_.Run("appending to a stream",
                   [&](pqxx::connection_base& conn) -> absl::StatusOr<StreamEvent> {
                     try {
                       return AppendOnce(conn, request, digest);
                     } catch (const pqxx::unique_violation&) {
                       // A concurrent request with the same id (or creating
                       // the same stream) won: answer as it did.
                       return AppendOnce(conn, request, digest);
                     }
                   });
}

absl::StatusOr<StreamRecord> PostgresStreamStore::GetStream(const std::string& stream_id) {
  return pool_.Run(
      "reading a stream", [&](pqxx::connection_base& conn) -> absl::StatusOr<StreamRecord> {
        pqxx::read_transaction txn(conn);
        pqxx::result rows = txn.exec_params(
            absl::StrCat("SELECT ", kStreamColumns, " FROM streams WHERE stream_id = $1"),
            stream_id);
        if (rows.empty()) return NoStream(stream_id);
        return StreamFromRow(rows[0]);
      });
}

absl::StatusOr<std::vector<StreamRecord>> PostgresStreamStore::ListStreams(
    const std::string& kind, const std::string& after_id, int limit) {
  if (limit < 1 || limit > 1000) {
    return absl::InvalidArgumentError(absl::StrCat("limit is ", limit, "; it must be 1-1000"));
  }
  return pool_.Run("listing streams",
                   [&](pqxx::connection_base& conn) -> absl::StatusOr<std::vector<StreamRecord>> {
                     pqxx::read_transaction txn(conn);
                     pqxx::result rows = txn.exec_params(
                         absl::StrCat("SELECT ", kStreamColumns,
                                      " FROM streams WHERE kind = $1 AND stream_id > $2 "
                                      "ORDER BY stream_id LIMIT $3"),
                         kind, after_id, limit);
                     std::vector<StreamRecord> out;
                     for (const pqxx::row& row : rows) out.push_back(StreamFromRow(row));
                     return out;
                   });
}

absl::StatusOr<std::vector<StreamEvent>> PostgresStreamStore::ReadStream(
    const std::string& stream_id, int64_t after_sequence, int limit) {
  ARBITER_RETURN_IF_ERROR(internal::ValidateLimit(limit));
  return pool_.Run(
      "reading a stream",
      [&](pqxx::connection_base& conn) -> absl::StatusOr<std::vector<StreamEvent>> {
        pqxx::read_transaction txn(conn);
        if (txn.exec_params("SELECT 1 FROM streams WHERE stream_id = $1", stream_id).empty()) {
          return NoStream(stream_id);
        }
        pqxx::result rows = txn.exec_params(
            absl::StrCat("SELECT ", kEventColumns,
                         " FROM stream_events WHERE stream_id = $1 AND sequence > $2 "
                         "ORDER BY sequence LIMIT $3"),
            stream_id, after_sequence, limit);
        std::vector<StreamEvent> events;
        for (const pqxx::row& row : rows) events.push_back(EventFromRow(row));
        return events;
      });
}

}  // namespace arbiter::store
