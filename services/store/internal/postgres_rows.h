// Rows and parameters of the PostgreSQL event store: the column lists its
// statements select, the conversions between rows and store records, and the
// array parameters a batch of events is sent as. Shared by the files of
// PostgresEventStore; not part of the store's interface.
#ifndef ARBITER_SERVICES_STORE_INTERNAL_POSTGRES_ROWS_H_
#define ARBITER_SERVICES_STORE_INTERNAL_POSTGRES_ROWS_H_

#include <pqxx/pqxx>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "services/store/event_store.h"

namespace arbiter::store::internal {

inline constexpr char kGameColumns[] =
    "game_id, game, ruleset_id, ruleset_hash, seed::text, seed_commitment, players, status, "
    "created_by, (extract(epoch FROM created_at) * 1000000)::bigint, league_id, tournament_id, "
    "last_sequence, last_hash";

// kGameColumns of the row `g` a statement inserted.
inline constexpr char kGameColumnsOfG[] =
    "g.game_id, g.game, g.ruleset_id, g.ruleset_hash, g.seed::text, g.seed_commitment, g.players, "
    "g.status, g.created_by, (extract(epoch FROM g.created_at) * 1000000)::bigint, g.league_id, "
    "g.tournament_id, g.last_sequence, g.last_hash";

// The hash (hex) of the event before events `e` where the SQL condition
// `lookup` holds (a primary-key probe), NULL elsewhere and for a game's
// first event. It is not stored (migration 0022): the previous event holds
// it, and a read of consecutive events takes it from the one before
// (FillPrevHashes), so that only the first of a run needs the probe.
std::string PrevHashWhere(const std::string& lookup);

// An event's columns with its store-wide position, from events `e` joined
// with the append_requests row `r` of the batch that wrote it (which holds
// who recorded it and when), the previous hash as PrevHashWhere(lookup).
// EventFromRow reads them.
std::string EventColumns(const std::string& lookup);

// Events `e` with their batch `r`, for reads led by positions (the batches
// first, each joined with its events).
inline constexpr char kEventsWithBatch[] =
    " FROM events e JOIN append_requests r ON r.game_id = e.game_id "
    "AND e.sequence BETWEEN r.first_sequence AND r.last_sequence ";

// The same for reads led by a game's events: each event finds its batch by
// one backward probe of append_requests_by_game (the batch that starts at
// or before it). kEventsWithBatch's join would fetch every batch of the
// game for each read, one heap page each: a game played one action per
// append has as many batches as events, and its head read took 0.5 ms
// instead of 0.03 (docs/benchmarks.md, "A write path built for live play").
inline constexpr char kEventsWithTheirBatch[] =
    " FROM events e JOIN LATERAL (SELECT * FROM append_requests b "
    "WHERE b.game_id = e.game_id AND b.first_sequence <= e.sequence "
    "ORDER BY b.first_sequence DESC LIMIT 1) r ON e.sequence <= r.last_sequence ";

// A row of kGameColumns as a record; DataLoss if it holds what the store
// never writes.
absl::StatusOr<GameRecord> GameFromRow(const pqxx::row& row);
// A row of EventColumns as an event: a NULL event id is the derived one
// (event_hash.h), a NULL previous hash at sequence 1 the genesis hash (and
// left empty elsewhere, for FillPrevHashes).
StoredEvent EventFromRow(const pqxx::row& row);
// The answer to an append from five columns of `row` starting at `first`
// (first and last sequence, first and last position, last hash).
AppendResult AnswerFromRow(const pqxx::row& row, int first);

// Gives each event without a previous hash the hash of the event just
// before it in `events`, when that is its game's previous event. One whose
// previous event was not read (or is missing from the store) keeps an empty
// one, which VerifyGame reports as a broken link.
void FillPrevHashes(std::vector<StoredEvent>& events);

// NULL for an empty text.
std::optional<std::string> NullIfEmpty(const std::string& text);

// The events of several batches as the array parameters of the statements
// that write them (create_games, append_games): each event's batch (its
// index in the statement, from 1) and sequence, its id ('' for the derived
// id, stored as NULL), its type, its hash (64 hex digits each,
// concatenated), and payloads and kept JSON copies as one blob each with
// 1-based offsets and lengths (-1: no copy). Fewer and simpler parameters
// than one array per column: PostgreSQL parses them faster. (Blobs are
// bytea because substring of bytea is constant-time; of UTF-8 text it walks
// the string from its start.)
struct EventRows {
  std::vector<int64_t> batches, sequences, payload_offsets, payload_lengths, json_offsets,
      json_lengths;
  std::vector<std::string> ids, types;
  std::string hashes, payloads, jsons;

  // Adds `event` with its `hash`, event `sequence` of `game_id`, in the
  // statement's batch `batch`; its JSON copy only if `keep_json`.
  void Add(int64_t batch, const std::string& game_id, int64_t sequence, const NewEvent& event,
           const std::string& hash, bool keep_json);
};

// After a unique violation while writing `events`: the error naming the
// first of them whose id is already stored, if any.
std::optional<absl::Status> TakenEventId(pqxx::connection_base& conn,
                                         const std::vector<NewEvent>& events);

}  // namespace arbiter::store::internal

#endif  // ARBITER_SERVICES_STORE_INTERNAL_POSTGRES_ROWS_H_
