// PostgresEventStore::Append and AppendMany: batches of events for games in
// play, several games' batches to a transaction.
//
// Concurrent Append calls meet in a GroupCommit queue (as CreateGame calls
// do): whoever reaches its front writes every batch queued by then in one
// transaction. It locks the group's games in one statement (in game id
// order, so that two groups never wait for each other in a cycle), decides
// each batch's fate from its game's row exactly as a lone append would
// (unknown game, a retry of an answered request, a game that accepts no
// more, a stale expected sequence, a singleton's lease it no longer holds),
// and writes the batches it accepts in one statement that takes their
// store-wide positions at once, in queue order.
// One commit, one WAL flush and one hold of store_head's lock serve the
// whole group. A refused batch is answered without touching the others; a
// statement that fails as a whole (an event id already stored) wrote
// nothing, and each of its batches is written again on its own to find the
// culprit. A group holds at most one batch per game and per request id; a
// second one waits for the group to commit and is then written on its own.
//
// A commit whose outcome is unknown (the connection lost while COMMIT ran,
// or PostgreSQL's warning that it committed locally but might not have been
// replicated: pg/commit.h) is answered neither way until it has been looked
// up again (ResolveUnknownAppends): on a new connection, which after a
// failover reaches the new primary, by the batches' request ids and, for
// those not found, by the status of the transaction that carried them. An
// answer replayed from a recorded request is given only once a commit made
// after it returned plainly, so that it too is on a synchronous standby.
#include <pqxx/pqxx>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "engine/core/status_macros.h"
#include "services/store/event_hash.h"
#include "services/store/internal/back_off.h"
#include "services/store/internal/postgres_rows.h"
#include "services/store/internal/store_rules.h"
#include "services/store/pg/arrays.h"
#include "services/store/pg/commit.h"
#include "services/store/pg/leases.h"
#include "services/store/postgres_event_store.h"

namespace arbiter::store {
namespace {

using pg::IntArray;
using pg::TextArray;

// Locks the games of a group, in game id order, and reads each one's head
// and the answer already recorded for its request id, if any. $1 game ids,
// $2 request ids (one pair a batch). A row per batch whose game exists: its
// index in the arrays (from 1), the game's status, last sequence, last hash,
// then the recorded request's digest, first and last sequence, first and
// last position and last hash (NULL if none). Each look-up is a primary-key
// probe per batch, in a nested loop over the batches in game id order (the
// LATERAL subqueries, kept from being flattened into a join by FOR UPDATE
// and LIMIT), whatever the planner thinks of the tables' sizes: the locks
// are taken in that order, and neither append_requests nor a games table
// full of dead row versions (every append updates its game's row) is ever
// scanned.
constexpr char kLockGames[] = R"sql(
SELECT i.n, g.status, g.last_sequence, g.last_hash, r.digest, r.first_sequence,
       r.last_sequence, r.first_position, r.last_position, r.last_hash
FROM (SELECT * FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS u(game_id, request_id, n)
      ORDER BY u.game_id COLLATE "C") i
CROSS JOIN LATERAL (SELECT status, last_sequence, last_hash FROM games
                    WHERE games.game_id = i.game_id FOR UPDATE) g
LEFT JOIN LATERAL (SELECT * FROM append_requests
                   WHERE append_requests.request_id = i.request_id LIMIT 1) r ON true
)sql";

constexpr char kFindRequest[] =
    "SELECT digest, first_sequence, last_sequence, first_position, last_position, last_hash "
    "FROM append_requests WHERE request_id = $1";

// The same for several request ids ($1), each row led by its request id.
constexpr char kFindRequests[] =
    "SELECT request_id, digest, first_sequence, last_sequence, first_position, last_position, "
    "last_hash FROM append_requests WHERE request_id = ANY($1::text[])";

// What became of a transaction, by the id kAppendGames returned: committed,
// aborted, in progress, or NULL if too old to tell. An error (22023) if the
// id is in this server's future: it never ran here.
constexpr char kTransactionStatus[] = "SELECT pg_xact_status($1::xid8)";

// Writes the accepted batches of a group, whose games' rows the transaction
// holds locked. It inserts every event first, without positions. Only then
// does it lock store_head (the UPDATE's count comes from an uncorrelated
// subquery over `ins`, which PostgreSQL evaluates before it updates, and so
// before it locks, the row) to take all the positions at once, gives each
// batch its share in input order in append_requests, and advances each
// game (found by its primary key: `= ANY`). The lock on store_head lasts
// until commit, which orders commits by position (docs/event-store.md), but
// covers no event insert.
// Batches (one array element each): $1 game id, $2 expected sequence,
// $3 number of events, $4 request id, $5 digest, $6 last hash,
// $7 recorded_by. Events, of all batches in input order: $8 the batch's
// index in the arrays above (from 1), $9 sequence, $10 event ids ('': the
// derived id, stored as NULL), $11 types, $12 their hashes (64 hex digits
// each, concatenated; stored as 32 bytes), $13 payload blob, $14 payload
// offsets, $15 payload lengths, $16 json blob, $17 json offsets, $18 json
// lengths (-1: none).
constexpr char kAppendGames[] = R"sql(
WITH input AS (
  SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::text[],
                       $6::text[], $7::text[])
       WITH ORDINALITY AS i(game_id, expected, count, request_id, digest, last_hash,
                            recorded_by, n)),
ins AS (
  INSERT INTO events (game_id, sequence, event_id, type, payload, payload_json, hash)
  SELECT i.game_id, e.seq, NULLIF(e.event_id, ''), e.type,
         substring($13::bytea FROM e.poff FOR e.plen),
         CASE WHEN e.jlen < 0 THEN NULL
              ELSE convert_from(substring($16::bytea FROM e.joff FOR e.jlen), 'UTF8')::json END,
         decode(convert_from(substring($12::bytea FROM ((e.k - 1) * 64 + 1)::int FOR 64), 'UTF8'),
                'hex')
  FROM unnest($8::int[], $9::bigint[], $10::text[], $11::text[], $14::int[], $15::int[],
              $17::int[], $18::int[])
       WITH ORDINALITY AS e(gi, seq, event_id, type, poff, plen, joff, jlen, k)
  JOIN input i ON i.n = e.gi
  RETURNING 1),
head AS (
  UPDATE store_head SET last_position = last_position + (SELECT count(*) FROM ins)
  RETURNING last_position - (SELECT count(*) FROM ins) AS base),
req AS (
  INSERT INTO append_requests (request_id, game_id, digest, first_sequence, last_sequence,
                               first_position, last_position, last_hash, recorded_by)
  SELECT o.request_id, o.game_id, o.digest, o.expected + 1, o.expected + o.count,
         head.base + o.before + 1, head.base + o.before + o.count, o.last_hash, o.recorded_by
  FROM head,
       (SELECT i.*, (sum(i.count) OVER (ORDER BY i.n) - i.count)::bigint AS before
        FROM input i) o
  RETURNING 1),
game AS (
  UPDATE games g SET last_sequence = i.expected + i.count, last_hash = i.last_hash
  FROM input i WHERE g.game_id = i.game_id AND g.game_id = ANY($1::text[])
  RETURNING 1)
SELECT base, pg_current_xact_id()::text FROM head
)sql";

// The parameters of kAppendGames.
struct AppendArrays {
  std::vector<std::string> game_ids, request_ids, digests, last_hashes, recorders;
  std::vector<int64_t> expected, counts;
  internal::EventRows events;
};

}  // namespace

// A validated append, what writing it needs, and its answer.
struct PostgresEventStore::PreparedAppend {
  const AppendRequest* request = nullptr;
  std::string digest;
  bool answered = false;  // `result` is final
  absl::StatusOr<AppendResult> result = absl::UnknownError("the append was not written");
  // Set once the group accepts it: the game's head and the batch's chain.
  int64_t current = 0;
  std::vector<std::string> hashes;
  // Answered from a recorded request (Replay): given only once durable.
  bool replayed = false;
  // The transaction that carried it, once written (pg_current_xact_id).
  std::string transaction;

  void Answer(absl::StatusOr<AppendResult> answer) {
    result = std::move(answer);
    answered = true;
  }
  // About how many bytes the statement carries for this batch.
  std::size_t Bytes() const {
    std::size_t bytes = 256;
    for (const NewEvent& event : request->events) {
      bytes += event.payload.size() + event.json.size() + event.event_id.size() + 160;
    }
    return bytes;
  }
};

void PostgresEventStore::PrepareAppendStatements(pqxx::connection_base& conn) {
  conn.prepare("lock_games", kLockGames);
  conn.prepare("find_request", kFindRequest);
  conn.prepare("find_requests", kFindRequests);
  conn.prepare("transaction_status", kTransactionStatus);
  conn.prepare("append_games", kAppendGames);
}

absl::StatusOr<AppendResult> PostgresEventStore::Append(const AppendRequest& request) {
  ARBITER_RETURN_IF_ERROR(internal::ValidateAppend(request));
  PreparedAppend prepared;
  prepared.request = &request;
  prepared.digest = internal::AppendDigest(request);
  append_queue_.Write(prepared, prepared.Bytes(),
                      [this](const std::vector<PreparedAppend*>& group) {
                        WriteAppendGroup(group);
                      });
  return std::move(prepared.result);
}

std::vector<absl::StatusOr<AppendResult>> PostgresEventStore::AppendMany(
    const std::vector<AppendRequest>& requests) {
  std::vector<PreparedAppend> prepared(requests.size());
  std::vector<PreparedAppend*> valid;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    PreparedAppend& one = prepared[i];
    one.request = &requests[i];
    if (absl::Status status = internal::ValidateAppend(requests[i]); !status.ok()) {
      one.Answer(status);
      continue;
    }
    one.digest = internal::AppendDigest(requests[i]);
    valid.push_back(&one);
  }
  internal::WriteInGroups(valid, options_.max_appends_per_commit, kMaxGroupBytes,
                          [this](const std::vector<PreparedAppend*>& group) {
                            WriteAppendGroup(group);
                          });
  std::vector<absl::StatusOr<AppendResult>> results;
  results.reserve(prepared.size());
  for (PreparedAppend& one : prepared) results.push_back(std::move(one.result));
  return results;
}

void PostgresEventStore::WriteAppendGroup(const std::vector<PreparedAppend*>& group) {
  // One batch per game and per request id in a transaction: a later one
  // depends on the earlier one's outcome, so it waits for its commit.
  std::vector<PreparedAppend*> together, later;
  std::set<std::string> games, requests;
  for (PreparedAppend* one : group) {
    if (games.insert(one->request->game_id).second &&
        requests.insert(one->request->request_id).second) {
      together.push_back(one);
    } else {
      later.push_back(one);
    }
  }
  WriteAppendsTogether(together);
  for (PreparedAppend* one : later) WriteAppendsTogether({one});
}

void PostgresEventStore::WriteAppendsTogether(const std::vector<PreparedAppend*>& group) {
  std::vector<PreparedAppend*> alone;    // to write again, each on its own
  std::vector<PreparedAppend*> unknown;  // to look up again
  {
    absl::StatusOr<Lease> lease = pool_.Take();
    if (!lease.ok()) {
      for (PreparedAppend* one : group) one->Answer(lease.status());
      return;
    }
    try {
      unknown = AppendTogether(*lease, group);
    } catch (const pqxx::unique_violation& e) {
      if (group.size() == 1) {
        if (!AnswerUniqueViolation(*lease, *group[0], e)) unknown = group;
      } else {
        // The statement wrote nothing; the batches it carried are written
        // again on their own, so that only the culprit is refused. The
        // connection goes back to the pool first.
        (void)lease->Fail(e, "appending events");
        for (PreparedAppend* one : group) {
          if (!one->answered) alone.push_back(one);
        }
      }
    } catch (const std::exception& e) {
      // The connection was lost before COMMIT (nothing was committed), or
      // a statement failed: answered as such.
      // A replayed answer not yet known to be durable is withdrawn too.
      const absl::Status failed = lease->Fail(e, "appending events");
      for (PreparedAppend* one : group) {
        if (!one->answered || one->replayed) one->Answer(failed);
      }
      return;
    }
    if (!unknown.empty()) lease->Drop();  // in a state nobody knows
  }
  if (!unknown.empty()) {
    ResolveUnknownAppends(unknown);
    return;
  }
  for (PreparedAppend* one : alone) WriteAppendsTogether({one});
}

bool PostgresEventStore::AnswerUniqueViolation(Lease& lease, PreparedAppend& one,
                                               const std::exception& e) {
  // An event id already stored (the batch itself was checked for
  // duplicates), or a concurrent request with the same id: say which.
  try {
    if (std::optional<absl::Status> taken = internal::TakenEventId(lease.conn(),
                                                                   one.request->events)) {
      one.Answer(*taken);
      return true;
    }
    pqxx::work txn(lease.conn());
    pqxx::result previous = txn.exec_prepared("find_request", one.request->request_id);
    if (!previous.empty()) {
      one.Answer(Replay(one, previous[0], 1));
      return pg::ConfirmDurable(txn) == pg::CommitOutcome::kCommitted;
    }
  } catch (const std::exception& inner) {
    one.Answer(lease.Fail(inner, "appending events"));
    return true;
  }
  one.Answer(lease.Fail(e, "appending events"));
  return true;
}

absl::StatusOr<AppendResult> PostgresEventStore::Replay(PreparedAppend& one, const pqxx::row& row,
                                                        int first) {
  if (row[first - 1].as<std::string>() != one.digest) {
    return internal::RequestIdReused(one.request->request_id);
  }
  one.replayed = true;
  AppendResult answer = internal::AnswerFromRow(row, first);
  NoteWritten(answer.last_position);
  return answer;
}

std::vector<PostgresEventStore::PreparedAppend*> PostgresEventStore::AppendTogether(
    Lease& lease, const std::vector<PreparedAppend*>& group) {
  std::vector<std::string> game_ids, request_ids;
  for (const PreparedAppend* one : group) {
    game_ids.push_back(one->request->game_id);
    request_ids.push_back(one->request->request_id);
  }
  pqxx::work txn(lease.conn());
  const pqxx::result locked =
      txn.exec_prepared("lock_games", TextArray(game_ids), TextArray(request_ids));
  std::map<int64_t, pqxx::row> heads;  // by index from 1
  for (const pqxx::row& row : locked) heads.emplace(row[0].as<int64_t>(), row);
  std::vector<PreparedAppend*> accepted, replayed;
  for (std::size_t i = 0; i < group.size(); ++i) {
    auto head = heads.find(static_cast<int64_t>(i) + 1);
    if (Judge(txn, *group[i], head == heads.end() ? nullptr : &head->second)) {
      accepted.push_back(group[i]);
    } else if (group[i]->replayed) {
      replayed.push_back(group[i]);
    }
  }
  if (accepted.empty()) {
    // Nothing to write. A replayed answer waits for a commit after it.
    if (replayed.empty() || pg::ConfirmDurable(txn) == pg::CommitOutcome::kCommitted) return {};
    return replayed;
  }
  const pqxx::row written = WriteAccepted(txn, accepted);
  const std::string transaction = written[1].as<std::string>();
  for (PreparedAppend* one : accepted) one->transaction = transaction;
  if (pg::CommitAndWatch(txn) != pg::CommitOutcome::kCommitted) {
    accepted.insert(accepted.end(), replayed.begin(), replayed.end());
    return accepted;
  }
  int64_t position = written[0].as<int64_t>();
  for (PreparedAppend* one : accepted) {
    const int64_t count = static_cast<int64_t>(one->request->events.size());
    AppendResult result;
    result.first_sequence = one->current + 1;
    result.last_sequence = one->current + count;
    result.first_position = position + 1;
    result.last_position = position + count;
    result.last_hash = one->hashes.back();
    position += count;
    NoteWritten(result.last_position);
    one->Answer(std::move(result));
  }
  return {};
}

void PostgresEventStore::ResolveUnknownAppends(const std::vector<PreparedAppend*>& group) {
  std::vector<PreparedAppend*> open = group;
  for (PreparedAppend* one : open) one->answered = false;  // replays too
  absl::Status looked;
  const bool settled = internal::AttemptUntil(absl::Now() + options_.resolve_unknown_for, [&] {
    looked = pool_.Run("looking up appends whose commit was cut off",
                       [&](pqxx::connection_base& conn) { return LookUpAppends(conn, open); });
    std::erase_if(open, [](const PreparedAppend* one) { return one->answered; });
    if (open.empty()) return true;
    if (looked.ok()) looked = absl::UnavailableError("its transaction is still in progress");
    return false;
  });
  if (settled) return;
  for (PreparedAppend* one : open) {
    one->Answer(internal::AppendOutcomeUnknown(one->request->request_id, looked.message()));
  }
}

absl::Status PostgresEventStore::LookUpAppends(pqxx::connection_base& conn,
                                               const std::vector<PreparedAppend*>& group) {
  std::vector<std::string> request_ids;
  for (const PreparedAppend* one : group) request_ids.push_back(one->request->request_id);
  std::map<std::string, pqxx::row> found;
  {
    pqxx::work txn(conn);
    const pqxx::result rows = txn.exec_prepared("find_requests", TextArray(request_ids));
    std::string notice;
    // Found answers count once a commit after the look-up is durable.
    if (pg::ConfirmDurable(txn, &notice) != pg::CommitOutcome::kCommitted) {
      return absl::UnavailableError(absl::StrCat("the look-up's own commit: ", notice));
    }
    for (const pqxx::row& row : rows) found.emplace(row[0].as<std::string>(), row);
  }
  for (PreparedAppend* one : group) {
    auto row = found.find(one->request->request_id);
    if (row != found.end()) {
      absl::StatusOr<AppendResult> answer = Replay(*one, row->second, 2);
      // This call's own write, found: not a retry's answer.
      if (answer.ok() && !one->transaction.empty()) answer->replayed = false;
      one->Answer(std::move(answer));
    } else if (one->transaction.empty()) {
      // A replayed answer that was visible before: it is gone with the
      // server that held it.
      one->Answer(internal::AppendNotStored(one->request->request_id, "no such request"));
    } else if (std::optional<std::string> fate = TransactionFate(conn, one->transaction)) {
      // Aborted, or never ran on this server: a failover's new primary.
      one->Answer(internal::AppendNotStored(one->request->request_id, *fate));
    }
    // Otherwise still in progress (a commit waiting for a standby), or
    // committed since the look-up: looked up again.
  }
  return absl::OkStatus();
}

std::optional<std::string> PostgresEventStore::TransactionFate(pqxx::connection_base& conn,
                                                               const std::string& transaction) {
  pqxx::work txn(conn);
  try {
    const pqxx::row status = txn.exec_prepared1("transaction_status", transaction);
    if (!status[0].is_null() && status[0].as<std::string>() == "aborted") {
      return absl::StrCat("its transaction ", transaction, " aborted");
    }
    return std::nullopt;
  } catch (const pqxx::sql_error& error) {
    if (error.sqlstate() != "22023") throw;
    return absl::StrCat("that its transaction ", transaction,
                        " never ran on the server reached now (a failover's new primary)");
  }
}

bool PostgresEventStore::Judge(pqxx::transaction_base& txn, PreparedAppend& one, const pqxx::row* head) {
  const AppendRequest& request = *one.request;
  if (head == nullptr) {
    // The request may still have been answered for another game.
    pqxx::result previous = txn.exec_prepared("find_request", request.request_id);
    one.Answer(previous.empty() ? absl::StatusOr<AppendResult>(
                                      internal::GameNotFound(request.game_id))
                                : Replay(one, previous[0], 1));
    return false;
  }
  const pqxx::row& game = *head;
  if (!game[4].is_null()) {
    one.Answer(Replay(one, game, 5));
    return false;
  }
  GameRecord record;
  record.game_id = request.game_id;
  record.status = ParseGameStatus(game[1].as<std::string>()).value_or(GameStatus::kUnspecified);
  if (absl::Status allowed = internal::CheckAppendAllowed(record, request.events); !allowed.ok()) {
    one.Answer(allowed);
    return false;
  }
  const int64_t current = game[2].as<int64_t>();
  if (current != request.expected_sequence) {
    // A concurrent retry of this very request may have committed while we
    // waited for the lock: this statement sees it (read committed).
    pqxx::result previous = txn.exec_prepared("find_request", request.request_id);
    one.Answer(previous.empty()
                   ? absl::StatusOr<AppendResult>(internal::SequenceMismatch(
                         request.game_id, request.expected_sequence, current))
                   : Replay(one, previous[0], 1));
    return false;
  }
  if (request.fence.has_value()) {
    // A singleton's append (the reveal sweeper's): only while it holds its
    // lease. The lease row stays locked FOR SHARE until the commit.
    if (absl::Status fenced = pg::CheckFence(txn, *request.fence); !fenced.ok()) {
      one.Answer(fenced);
      return false;
    }
  }
  one.current = current;
  const std::string prev = current == 0 ? GenesisHash() : game[3].as<std::string>();
  one.hashes = internal::ChainHashes(request.game_id, prev, current + 1, request.events);
  return true;
}

pqxx::row PostgresEventStore::WriteAccepted(pqxx::transaction_base& txn,
                                            const std::vector<PreparedAppend*>& accepted) {
  AppendArrays a;
  for (std::size_t n = 0; n < accepted.size(); ++n) {
    const PreparedAppend& one = *accepted[n];
    const AppendRequest& request = *one.request;
    a.game_ids.push_back(request.game_id);
    a.expected.push_back(one.current);
    a.counts.push_back(static_cast<int64_t>(request.events.size()));
    a.request_ids.push_back(request.request_id);
    a.digests.push_back(one.digest);
    a.last_hashes.push_back(one.hashes.back());
    a.recorders.push_back(request.recorded_by);
    for (std::size_t i = 0; i < request.events.size(); ++i) {
      a.events.Add(static_cast<int64_t>(n) + 1, request.game_id,
                   one.current + static_cast<int64_t>(i) + 1, request.events[i], one.hashes[i],
                   options_.keep_json_copies);
    }
  }
  const internal::EventRows& e = a.events;
  return txn.exec_prepared1(
      "append_games", TextArray(a.game_ids), IntArray(a.expected), IntArray(a.counts),
      TextArray(a.request_ids), TextArray(a.digests), TextArray(a.last_hashes),
      TextArray(a.recorders), IntArray(e.batches), IntArray(e.sequences), TextArray(e.ids),
      TextArray(e.types), pqxx::binarystring(e.hashes), pqxx::binarystring(e.payloads),
      IntArray(e.payload_offsets), IntArray(e.payload_lengths), pqxx::binarystring(e.jsons),
      IntArray(e.json_offsets), IntArray(e.json_lengths));
}

}  // namespace arbiter::store
