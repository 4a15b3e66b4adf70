#include "services/store/postgres_event_store.h"

#include <pqxx/pqxx>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "services/store/event_hash.h"
#include "services/store/internal/pq_status.h"
#include "services/store/internal/store_rules.h"

namespace arbiter::store {
namespace {

constexpr char kGameColumns[] =
    "game_id, game, ruleset_id, ruleset_hash, seed::text, seed_commitment, players, status, "
    "created_by, (extract(epoch FROM created_at) * 1000000)::bigint, league_id, tournament_id, "
    "last_sequence, last_hash";

// An event's columns with its store-wide position, from events `e` joined
// with the append_requests row `r` of the batch that wrote it.
// kGameColumns of the row `g` a statement inserted.
constexpr char kGameColumnsOfG[] =
    "g.game_id, g.game, g.ruleset_id, g.ruleset_hash, g.seed::text, g.seed_commitment, g.players, "
    "g.status, g.created_by, (extract(epoch FROM g.created_at) * 1000000)::bigint, g.league_id, "
    "g.tournament_id, g.last_sequence, g.last_hash";

constexpr char kEventColumns[] =
    "r.first_position + (e.sequence - r.first_sequence), e.game_id, e.sequence, e.event_id, "
    "e.type, e.payload, e.payload_json::text, e.recorded_by, "
    "(extract(epoch FROM e.recorded_at) * 1000000)::bigint, e.prev_hash, e.hash";

constexpr char kEventsWithBatch[] =
    " FROM events e JOIN append_requests r ON r.game_id = e.game_id "
    "AND e.sequence BETWEEN r.first_sequence AND r.last_sequence ";

// Prepared statements, created on every new connection.
constexpr char kLockGame[] =
    "SELECT g.status, g.last_sequence, g.last_hash, r.digest, r.first_sequence, "
    "r.last_sequence, r.first_position, r.last_position, r.last_hash "
    "FROM games g LEFT JOIN append_requests r ON r.request_id = $2 "
    "WHERE g.game_id = $1 FOR UPDATE OF g";

constexpr char kFindRequest[] =
    "SELECT digest, first_sequence, last_sequence, first_position, last_position, last_hash "
    "FROM append_requests WHERE request_id = $1";

// Creates a game and writes its first events in one statement, so that in
// autocommit it is one round trip and one transaction. The game row is
// inserted already advanced ($14, $15); the events, the store_head update
// and the batch's append_requests row follow only if the game was inserted
// (a conflict on its id or request id leaves the statement without rows).
// $1 game_id, $2 game, $3 ruleset_id, $4 ruleset_hash, $5 seed,
// $6 seed_commitment, $7 players, $8 created_by (also the events' recorder),
// $9 league_id, $10 tournament_id, $11 request id, $12 digest, $13 status,
// $14 number of events, $15 last hash (NULL: none); $16 event ids, $17 types,
// $18 the hash before the first event, $19 the events' hashes (64 hex digits
// each, concatenated), $20 payload blob, $21 payload offsets,
// $22 payload lengths, $23 json blob, $24 json offsets, $25 json lengths
// (-1: none).
constexpr char kCreateGameWithEvents[] = R"sql(
WITH g AS (
  INSERT INTO games (game_id, game, ruleset_id, ruleset_hash, seed, seed_commitment, players,
                     created_by, league_id, tournament_id, create_request_id, create_digest,
                     status, last_sequence, last_hash)
  VALUES ($1, $2, $3, $4, $5::numeric, $6, $7::text[], $8, $9, $10, $11, $12, $13, $14, $15)
  ON CONFLICT DO NOTHING
  RETURNING *),
ins AS (
  INSERT INTO events (game_id, sequence, event_id, type, payload, payload_json,
                      recorded_by, prev_hash, hash)
  SELECT g.game_id, e.ord, e.event_id, e.type,
         substring($20::bytea FROM e.poff FOR e.plen),
         CASE WHEN e.jlen < 0 THEN NULL
              ELSE convert_from(substring($23::bytea FROM e.joff FOR e.jlen), 'UTF8')::jsonb END,
         g.created_by,
         CASE WHEN e.ord = 1 THEN $18::text
              ELSE convert_from(substring($19::bytea FROM ((e.ord - 2) * 64 + 1)::int FOR 64),
                                'UTF8') END,
         convert_from(substring($19::bytea FROM ((e.ord - 1) * 64 + 1)::int FOR 64), 'UTF8')
  FROM g, unnest($16::text[], $17::text[], $21::int[], $22::int[], $24::int[], $25::int[])
       WITH ORDINALITY AS e(event_id, type, poff, plen, joff, jlen, ord)
  RETURNING 1),
head AS (
  UPDATE store_head SET last_position = last_position + (SELECT count(*) FROM ins)
  WHERE (SELECT count(*) FROM ins) > 0
  RETURNING last_position - $14::bigint AS base),
req AS (
  INSERT INTO append_requests (request_id, game_id, digest, first_sequence, last_sequence,
                               first_position, last_position, last_hash)
  SELECT $11, $1, $12, 1, $14::bigint, head.base + 1, head.base + $14::bigint, $15
  FROM head
  RETURNING 1)
SELECT )sql";

// One statement writes a batch of events of a game whose row the
// transaction holds locked. It inserts the events first, without positions.
// Only then does it lock store_head (the UPDATE's count comes from an
// uncorrelated subquery over `ins`, which PostgreSQL evaluates before it
// updates, and so before it locks, the row) to take the batch's positions,
// which it records in append_requests; it also advances the game (unless
// the game was inserted already advanced, by CreateGame). The lock
// on store_head lasts until commit, which orders commits by position
// (docs/event-store.md), but covers no event insert.
// $1 game_id, $2 count, $3 expected sequence, $4 event ids, $5 types,
// $6 the hash before the first event, $7 the events' hashes (64 hex digits
// each, concatenated), $8 payload blob, $9 payload offsets,
// $10 payload lengths, $11 json blob, $12 json offsets, $13 json lengths
// (-1: none), $14 recorded_by, $15 request id, $16 digest, $17 last hash.
constexpr char kAppend[] = R"sql(
WITH ins AS (
  INSERT INTO events (game_id, sequence, event_id, type, payload, payload_json,
                      recorded_by, prev_hash, hash)
  SELECT $1, $3::bigint + e.ord, e.event_id, e.type,
         substring($8::bytea FROM e.poff FOR e.plen),
         CASE WHEN e.jlen < 0 THEN NULL
              ELSE convert_from(substring($11::bytea FROM e.joff FOR e.jlen), 'UTF8')::jsonb END,
         $14,
         CASE WHEN e.ord = 1 THEN $6::text
              ELSE convert_from(substring($7::bytea FROM ((e.ord - 2) * 64 + 1)::int FOR 64),
                                'UTF8') END,
         convert_from(substring($7::bytea FROM ((e.ord - 1) * 64 + 1)::int FOR 64), 'UTF8')
  FROM unnest($4::text[], $5::text[], $9::int[], $10::int[], $12::int[], $13::int[])
       WITH ORDINALITY AS e(event_id, type, poff, plen, joff, jlen, ord)
  RETURNING 1),
head AS (
  UPDATE store_head SET last_position = last_position + (SELECT count(*) FROM ins)
  RETURNING last_position - $2::bigint AS base),
req AS (
  INSERT INTO append_requests (request_id, game_id, digest, first_sequence, last_sequence,
                               first_position, last_position, last_hash)
  SELECT $15, $1, $16, $3::bigint + 1, $3::bigint + $2::bigint, head.base + 1,
         head.base + $2::bigint, $17
  FROM head
  RETURNING 1),
game AS (
  UPDATE games SET last_sequence = $3::bigint + $2::bigint, last_hash = $17
  WHERE game_id = $1 AND last_sequence <> $3::bigint + $2::bigint
  RETURNING 1)
SELECT base FROM head
)sql";

// A PostgreSQL array literal of text values: {"a","b\"c"}.
std::string TextArray(const std::vector<std::string>& values) {
  std::size_t size = 2;
  for (const std::string& value : values) size += value.size() + 3;
  std::string out;
  out.reserve(size);
  out += '{';
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    out += '"';
    const std::string& value = values[i];
    if (value.find_first_of("\"\\") == std::string::npos) {
      out += value;
    } else {
      for (char c : value) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
      }
    }
    out += '"';
  }
  out += '}';
  return out;
}

std::string IntArray(const std::vector<int64_t>& values) {
  std::string out = "{";
  for (size_t i = 0; i < values.size(); ++i) absl::StrAppend(&out, i > 0 ? "," : "", values[i]);
  out += '}';
  return out;
}

absl::Time MicrosToTime(const pqxx::field& field) {
  return absl::FromUnixMicros(field.as<int64_t>());
}

std::string OptionalText(const pqxx::field& field) {
  return field.is_null() ? std::string() : field.as<std::string>();
}

std::vector<std::string> ParseTextArray(const pqxx::field& field) {
  std::vector<std::string> out;
  pqxx::array_parser parser = field.as_array();
  for (auto next = parser.get_next(); next.first != pqxx::array_parser::done;
       next = parser.get_next()) {
    if (next.first == pqxx::array_parser::string_value) out.push_back(next.second);
  }
  return out;
}

absl::StatusOr<GameRecord> GameFromRow(const pqxx::row& row) {
  GameRecord game;
  game.game_id = row[0].as<std::string>();
  game.game = row[1].as<std::string>();
  game.ruleset_id = row[2].as<std::string>();
  game.ruleset_hash = row[3].as<std::string>();
  if (!row[4].is_null()) {
    uint64_t seed = 0;
    if (!absl::SimpleAtoi(row[4].as<std::string>(), &seed)) {
      return absl::DataLossError(absl::StrCat("game \"", game.game_id, "\" has a bad seed"));
    }
    game.seed = seed;
  }
  game.seed_commitment = OptionalText(row[5]);
  game.players = ParseTextArray(row[6]);
  std::optional<GameStatus> status = ParseGameStatus(row[7].as<std::string>());
  if (!status.has_value()) {
    return absl::DataLossError(absl::StrCat("game \"", game.game_id, "\" has an unknown status"));
  }
  game.status = *status;
  game.created_by = row[8].as<std::string>();
  game.created_at = MicrosToTime(row[9]);
  game.league_id = OptionalText(row[10]);
  game.tournament_id = OptionalText(row[11]);
  game.last_sequence = row[12].as<int64_t>();
  game.last_hash = OptionalText(row[13]);
  return game;
}

StoredEvent EventFromRow(const pqxx::row& row) {
  StoredEvent event;
  event.position = row[0].as<int64_t>();
  event.game_id = row[1].as<std::string>();
  event.sequence = row[2].as<int64_t>();
  event.event_id = row[3].as<std::string>();
  event.type = row[4].as<std::string>();
  event.payload = pqxx::binarystring(row[5]).str();
  event.json = OptionalText(row[6]);
  event.recorded_by = row[7].as<std::string>();
  event.recorded_at = MicrosToTime(row[8]);
  event.prev_hash = row[9].as<std::string>();
  event.hash = row[10].as<std::string>();
  return event;
}

AppendResult AnswerFromRow(const pqxx::row& row, int first) {
  AppendResult result;
  result.first_sequence = row[first].as<int64_t>();
  result.last_sequence = row[first + 1].as<int64_t>();
  result.first_position = row[first + 2].as<int64_t>();
  result.last_position = row[first + 3].as<int64_t>();
  result.last_hash = row[first + 4].as<std::string>();
  result.replayed = true;
  return result;
}

std::optional<std::string> NullIfEmpty(const std::string& text) {
  if (text.empty()) return std::nullopt;
  return text;
}

// A batch of events as the array parameters of kAppend and
// kCreateGameWithEvents: ids and types as array literals, the hashes
// concatenated (each is 64 hex digits) as bytea, payloads and JSON copies as one blob
// each with 1-based offsets and lengths (-1: no JSON). Fewer and simpler
// parameters than one array per column: PostgreSQL parses them faster. (Blobs
// are bytea because substring of bytea is constant-time; of UTF-8 text it
// walks the string from its start.)
struct BatchArrays {
  std::string ids, types, prev_start, hashes, payload_offsets, payload_lengths, json_offsets,
      json_lengths;
  std::string payloads, jsons;
};

BatchArrays ToArrays(const std::vector<NewEvent>& events, const std::string& prev_start,
                     const std::vector<std::string>& hashes) {
  std::vector<std::string> ids, types;
  std::vector<int64_t> poffs, plens, joffs, jlens;
  ids.reserve(events.size());
  types.reserve(events.size());
  BatchArrays out;
  out.prev_start = prev_start;
  out.hashes.reserve(hashes.size() * 64);
  for (const std::string& hash : hashes) out.hashes += hash;
  for (size_t i = 0; i < events.size(); ++i) {
    const NewEvent& event = events[i];
    ids.push_back(event.event_id);
    types.push_back(event.type);
    poffs.push_back(static_cast<int64_t>(out.payloads.size()) + 1);
    plens.push_back(static_cast<int64_t>(event.payload.size()));
    out.payloads += event.payload;
    joffs.push_back(static_cast<int64_t>(out.jsons.size()) + 1);
    jlens.push_back(event.json.empty() ? -1 : static_cast<int64_t>(event.json.size()));
    out.jsons += event.json;
  }
  out.ids = TextArray(ids);
  out.types = TextArray(types);
  out.payload_offsets = IntArray(poffs);
  out.payload_lengths = IntArray(plens);
  out.json_offsets = IntArray(joffs);
  out.json_lengths = IntArray(jlens);
  return out;
}

// Writes `events` after sequence `current` (whose hash is `prev_start`),
// with their chain `hashes`, by the kAppend statement; returns the answer.
// The game's row must be locked by `txn`.
AppendResult WriteBatch(pqxx::work& txn, const std::string& game_id, int64_t current,
                        const std::string& prev_start, const std::vector<NewEvent>& events,
                        const std::vector<std::string>& hashes, const std::string& recorded_by,
                        const std::string& request_id, const std::string& digest) {
  const BatchArrays a = ToArrays(events, prev_start, hashes);
  const int64_t count = static_cast<int64_t>(events.size());
  pqxx::row written = txn.exec_prepared1(
      "append", game_id, count, current, a.ids, a.types, a.prev_start,
      pqxx::binarystring(a.hashes),
      pqxx::binarystring(a.payloads), a.payload_offsets, a.payload_lengths,
      pqxx::binarystring(a.jsons), a.json_offsets, a.json_lengths, recorded_by, request_id, digest,
      hashes.back());
  AppendResult result;
  const int64_t base = written[0].as<int64_t>();
  result.first_sequence = current + 1;
  result.last_sequence = current + count;
  result.first_position = base + 1;
  result.last_position = base + count;
  result.last_hash = hashes.back();
  return result;
}

// After a unique violation while writing `events` under `request_id`: the
// first of the events whose id is already stored, if any.
std::optional<absl::Status> TakenEventId(pqxx::connection& conn,
                                         const std::vector<NewEvent>& events) {
  pqxx::read_transaction txn(conn);
  std::vector<std::string> ids;
  ids.reserve(events.size());
  for (const NewEvent& event : events) ids.push_back(event.event_id);
  pqxx::result taken = txn.exec_params(
      absl::StrCat("SELECT ", kEventColumns, kEventsWithBatch,
                   "WHERE e.event_id = ANY($1::text[]) ORDER BY 1 LIMIT 1"),
      TextArray(ids));
  if (taken.empty()) return std::nullopt;
  const StoredEvent existing = EventFromRow(taken[0]);
  for (const NewEvent& event : events) {
    if (event.event_id == existing.event_id) {
      return internal::EventIdTaken(event.event_id, existing, event);
    }
  }
  return std::nullopt;
}

}  // namespace

struct PostgresEventStore::Connection {
  explicit Connection(const std::string& conninfo) : conn(conninfo) {}
  pqxx::connection conn;
};

// A connection borrowed from the pool; returned on destruction unless it
// was lost.
class PostgresEventStore::Lease {
 public:
  static absl::StatusOr<Lease> Take(PostgresEventStore& store) {
    {
      absl::MutexLock lock(&store.mu_);
      auto available = [&store]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(store.mu_) {
        return store.leased_ < store.options_.max_connections;
      };
      if (!store.mu_.AwaitWithTimeout(absl::Condition(&available),
                                      store.options_.connection_wait)) {
        return absl::UnavailableError(absl::StrCat(
            "all ", store.options_.max_connections,
            " connections to PostgreSQL stayed busy for ",
            absl::FormatDuration(store.options_.connection_wait), "; retry later"));
      }
      ++store.leased_;
      if (!store.idle_.empty()) {
        Lease lease(store, std::move(store.idle_.back()));
        store.idle_.pop_back();
        return lease;
      }
    }
    // Opened outside the lock; the slot is taken (leased_) already.
    try {
      auto owned = std::make_unique<Connection>(store.options_.conninfo);
      pqxx::connection* conn = &owned->conn;
      {
        pqxx::nontransaction setup(*conn);
        if (!store.options_.role.empty()) setup.exec("SET ROLE " + setup.quote_name(store.options_.role));
      }
      conn->prepare("lock_game", kLockGame);
      conn->prepare("find_request", kFindRequest);
      conn->prepare("append", kAppend);
      conn->prepare("create_game", absl::StrCat(kCreateGameWithEvents, kGameColumnsOfG, " FROM g"));
      return Lease(store, std::move(owned));
    } catch (const std::exception& e) {
      absl::MutexLock lock(&store.mu_);
      --store.leased_;
      return internal::StatusFromException(e, "connecting to PostgreSQL");
    }
  }
  Lease(Lease&& other) noexcept
      : store_(other.store_), conn_(std::move(other.conn_)), lost_(other.lost_) {}
  Lease& operator=(Lease&&) = delete;
  ~Lease() {
    if (conn_ == nullptr) return;  // moved from
    absl::MutexLock lock(&store_->mu_);
    --store_->leased_;
    if (!lost_ && conn_->conn.is_open()) store_->idle_.push_back(std::move(conn_));
  }

  pqxx::connection& conn() { return conn_->conn; }

  // Converts an exception, dropping the connection if it was lost.
  absl::Status Fail(const std::exception& error, const std::string& doing) {
    if (internal::IsConnectionLoss(error)) lost_ = true;
    return internal::StatusFromException(error, doing);
  }

 private:
  Lease(PostgresEventStore& store, std::unique_ptr<Connection> conn)
      : store_(&store), conn_(std::move(conn)) {}
  PostgresEventStore* store_;
  std::unique_ptr<Connection> conn_;
  bool lost_ = false;
};

PostgresEventStore::PostgresEventStore(PostgresOptions options) : options_(std::move(options)) {}
PostgresEventStore::~PostgresEventStore() = default;

absl::StatusOr<std::unique_ptr<PostgresEventStore>> PostgresEventStore::Open(
    const PostgresOptions& options) {
  std::unique_ptr<PostgresEventStore> store(new PostgresEventStore(options));
  absl::StatusOr<Lease> lease = Lease::Take(*store);
  if (!lease.ok()) {
    if (absl::IsInternal(lease.status())) {
      return absl::FailedPreconditionError(absl::StrCat(
          lease.status().message(), " (has the schema been migrated? run arbiter migrate)"));
    }
    return lease.status();
  }
  return store;
}

absl::StatusOr<GameRecord> PostgresEventStore::CreateGame(const CreateGameRequest& request) {
  if (absl::Status status = internal::ValidateCreateGame(request); !status.ok()) return status;
  const GameRecord& game = request.game;
  const std::string digest = internal::CreateDigest(request);
  const GameStatus status =
      game.status == GameStatus::kFinished ? GameStatus::kFinished : GameStatus::kActive;
  absl::StatusOr<Lease> lease = Lease::Take(*this);
  if (!lease.ok()) return lease.status();
  try {
    const std::optional<std::string> seed =
        game.seed.has_value() ? std::optional<std::string>(absl::StrCat(*game.seed)) : std::nullopt;
    const std::vector<std::string> hashes =
        internal::ChainHashes(game.game_id, GenesisHash(), 1, request.events);
    const BatchArrays a = ToArrays(request.events, GenesisHash(), hashes);
    {
      // One statement in autocommit: one round trip, one transaction.
      pqxx::nontransaction txn(lease->conn());
      pqxx::result inserted = txn.exec_prepared(
          "create_game", game.game_id, game.game, game.ruleset_id, game.ruleset_hash, seed,
          NullIfEmpty(game.seed_commitment), TextArray(game.players), game.created_by,
          NullIfEmpty(game.league_id), NullIfEmpty(game.tournament_id), request.request_id, digest,
          std::string(GameStatusName(status)), static_cast<int64_t>(request.events.size()),
          hashes.empty() ? std::nullopt : std::optional<std::string>(hashes.back()), a.ids,
          a.types, a.prev_start, pqxx::binarystring(a.hashes), pqxx::binarystring(a.payloads),
          a.payload_offsets,
          a.payload_lengths, pqxx::binarystring(a.jsons), a.json_offsets, a.json_lengths);
      if (!inserted.empty()) return GameFromRow(inserted[0]);
    }
    // The game id or the request id was taken: a retry, or another game.
    pqxx::read_transaction txn(lease->conn());
    pqxx::result previous = txn.exec_params(
        absl::StrCat("SELECT create_digest, ", kGameColumns,
                     " FROM games WHERE create_request_id = $1"),
        request.request_id);
    if (previous.empty()) {
      return absl::AlreadyExistsError(absl::StrCat("game id \"", game.game_id, "\" is taken"));
    }
    if (previous[0][0].as<std::string>() != digest) return internal::RequestIdReused(request.request_id);
    pqxx::result record = txn.exec_params(
        absl::StrCat("SELECT ", kGameColumns, " FROM games WHERE create_request_id = $1"),
        request.request_id);
    return GameFromRow(record[0]);
  } catch (const pqxx::unique_violation& e) {
    // An event id already stored, or the request id taken by an append.
    try {
      if (std::optional<absl::Status> taken = TakenEventId(lease->conn(), request.events)) {
        return *taken;
      }
    } catch (const std::exception& inner) {
      return lease->Fail(inner, "creating a game");
    }
    return internal::RequestIdReused(request.request_id);
  } catch (const std::exception& e) {
    return lease->Fail(e, "creating a game");
  }
}

absl::StatusOr<GameRecord> PostgresEventStore::GetGame(const std::string& game_id) {
  absl::StatusOr<Lease> lease = Lease::Take(*this);
  if (!lease.ok()) return lease.status();
  try {
    pqxx::read_transaction txn(lease->conn());
    pqxx::result rows = txn.exec_params(
        absl::StrCat("SELECT ", kGameColumns, " FROM games WHERE game_id = $1"), game_id);
    if (rows.empty()) return internal::GameNotFound(game_id);
    return GameFromRow(rows[0]);
  } catch (const std::exception& e) {
    return lease->Fail(e, "reading a game");
  }
}

absl::StatusOr<ListGamesPage> PostgresEventStore::ListGames(const ListGamesFilter& filter,
                                                            int page_size,
                                                            const std::string& page_token) {
  absl::StatusOr<int> size = internal::NormalisePageSize(page_size);
  if (!size.ok()) return size.status();
  absl::StatusOr<std::string> after = internal::DecodePageToken(page_token);
  if (!after.ok()) return after.status();
  absl::StatusOr<Lease> lease = Lease::Take(*this);
  if (!lease.ok()) return lease.status();
  try {
    pqxx::read_transaction txn(lease->conn());
    const std::string status =
        filter.status == GameStatus::kUnspecified ? "" : GameStatusName(filter.status);
    pqxx::result rows = txn.exec_params(
        absl::StrCat("SELECT ", kGameColumns,
                     " FROM games WHERE ($1 = '' OR game_id > $1) AND ($2 = '' OR game = $2) "
                     "AND ($3 = '' OR status = $3) AND ($4 = '' OR league_id = $4) "
                     "AND ($5 = '' OR tournament_id = $5) "
                     "AND ($7 = '' OR players @> ARRAY[$7]) ORDER BY game_id LIMIT $6"),
        *after, filter.game, status, filter.league_id, filter.tournament_id, *size + 1,
        filter.player);
    ListGamesPage page;
    for (const pqxx::row& row : rows) {
      if (static_cast<int>(page.games.size()) == *size) {
        page.next_page_token = internal::EncodePageToken(page.games.back().game_id);
        break;
      }
      absl::StatusOr<GameRecord> game = GameFromRow(row);
      if (!game.ok()) return game.status();
      page.games.push_back(*std::move(game));
    }
    return page;
  } catch (const std::exception& e) {
    return lease->Fail(e, "listing games");
  }
}

absl::Status PostgresEventStore::SetGameStatus(const std::string& game_id, GameStatus status) {
  if (status != GameStatus::kFinished && status != GameStatus::kVoided) {
    return absl::InvalidArgumentError(absl::StrCat("a game can only become finished or voided, not ",
                                                   GameStatusName(status)));
  }
  absl::StatusOr<Lease> lease = Lease::Take(*this);
  if (!lease.ok()) return lease.status();
  try {
    pqxx::work txn(lease->conn());
    pqxx::result rows =
        txn.exec_params("SELECT status FROM games WHERE game_id = $1 FOR UPDATE", game_id);
    if (rows.empty()) return internal::GameNotFound(game_id);
    const std::string current = rows[0][0].as<std::string>();
    if (current != "active") {
      return absl::FailedPreconditionError(
          absl::StrCat("game \"", game_id, "\" is already ", current));
    }
    txn.exec_params("UPDATE games SET status = $2 WHERE game_id = $1", game_id,
                    std::string(GameStatusName(status)));
    txn.commit();
    return absl::OkStatus();
  } catch (const std::exception& e) {
    return lease->Fail(e, "changing a game's status");
  }
}

absl::StatusOr<AppendResult> PostgresEventStore::Append(const AppendRequest& request) {
  if (absl::Status status = internal::ValidateAppend(request); !status.ok()) return status;
  const std::string digest = internal::AppendDigest(request);
  absl::StatusOr<Lease> lease = Lease::Take(*this);
  if (!lease.ok()) return lease.status();
  // The answer to an earlier request with this id, or an error if the id
  // was used for something else.
  auto replay = [&](const pqxx::row& row, int first) -> absl::StatusOr<AppendResult> {
    if (row[first - 1].as<std::string>() != digest) {
      return internal::RequestIdReused(request.request_id);
    }
    return AnswerFromRow(row, first);
  };
  try {
    pqxx::work txn(lease->conn());
    pqxx::result locked = txn.exec_prepared("lock_game", request.game_id, request.request_id);
    if (locked.empty()) {
      // The request may still have been answered for another game.
      pqxx::result previous = txn.exec_prepared("find_request", request.request_id);
      if (!previous.empty()) return replay(previous[0], 1);
      return internal::GameNotFound(request.game_id);
    }
    const pqxx::row game = locked[0];
    if (!game[3].is_null()) return replay(game, 4);
    const int64_t current = game[1].as<int64_t>();
    if (const std::string status = game[0].as<std::string>(); status != "active") {
      GameRecord record;
      record.game_id = request.game_id;
      record.status = ParseGameStatus(status).value_or(GameStatus::kUnspecified);
      return internal::GameNotActive(record);
    }
    if (current != request.expected_sequence) {
      // A concurrent retry of this very request may have committed while we
      // waited for the lock: this statement sees it (read committed).
      pqxx::result previous = txn.exec_prepared("find_request", request.request_id);
      if (!previous.empty()) return replay(previous[0], 1);
      return internal::SequenceMismatch(request.game_id, request.expected_sequence, current);
    }
    const std::string prev_start = current == 0 ? GenesisHash() : game[2].as<std::string>();
    AppendResult result = WriteBatch(
        txn, request.game_id, current, prev_start, request.events,
        internal::ChainHashes(request.game_id, prev_start, current + 1, request.events),
        request.recorded_by, request.request_id, digest);
    txn.commit();
    return result;
  } catch (const pqxx::unique_violation& e) {
    // An event id already stored (the batch itself was checked for
    // duplicates), or a concurrent request with the same id: say which.
    try {
      if (std::optional<absl::Status> taken = TakenEventId(lease->conn(), request.events)) {
        return *taken;
      }
      pqxx::read_transaction txn(lease->conn());
      pqxx::result previous = txn.exec_prepared("find_request", request.request_id);
      if (!previous.empty()) return replay(previous[0], 1);
    } catch (const std::exception& inner) {
      return lease->Fail(inner, "appending events");
    }
    return lease->Fail(e, "appending events");
  } catch (const std::exception& e) {
    return lease->Fail(e, "appending events");
  }
}

absl::StatusOr<std::vector<StoredEvent>> PostgresEventStore::ReadGameEvents(
    const std::string& game_id, int64_t after_sequence, int limit) {
  if (absl::Status status = internal::ValidateLimit(limit); !status.ok()) return status;
  absl::StatusOr<Lease> lease = Lease::Take(*this);
  if (!lease.ok()) return lease.status();
  try {
    pqxx::read_transaction txn(lease->conn());
    pqxx::result rows = txn.exec_params(
        absl::StrCat("SELECT ", kEventColumns, kEventsWithBatch,
                     "WHERE e.game_id = $1 AND e.sequence > $2 ORDER BY e.sequence LIMIT $3"),
        game_id, after_sequence, limit);
    if (rows.empty() &&
        txn.exec_params("SELECT 1 FROM games WHERE game_id = $1", game_id).empty()) {
      return internal::GameNotFound(game_id);
    }
    std::vector<StoredEvent> events;
    events.reserve(rows.size());
    for (const pqxx::row& row : rows) events.push_back(EventFromRow(row));
    return events;
  } catch (const std::exception& e) {
    return lease->Fail(e, "reading a game's events");
  }
}

absl::StatusOr<std::vector<StoredEvent>> PostgresEventStore::ReadAll(int64_t after_position,
                                                                     int limit) {
  if (absl::Status status = internal::ValidateLimit(limit); !status.ok()) return status;
  absl::StatusOr<Lease> lease = Lease::Take(*this);
  if (!lease.ok()) return lease.status();
  try {
    pqxx::read_transaction txn(lease->conn());
    pqxx::result rows = txn.exec_params(
        // Batches in position order, each batch's events in sequence order.
        absl::StrCat("SELECT ", kEventColumns, kEventsWithBatch,
                     "WHERE r.last_position > $1 "
                     "AND r.first_position + (e.sequence - r.first_sequence) > $1 "
                     "ORDER BY r.last_position, e.sequence LIMIT $2"),
        after_position, limit);
    std::vector<StoredEvent> events;
    events.reserve(rows.size());
    for (const pqxx::row& row : rows) events.push_back(EventFromRow(row));
    return events;
  } catch (const std::exception& e) {
    return lease->Fail(e, "reading the store");
  }
}

absl::StatusOr<int64_t> PostgresEventStore::HeadPosition() {
  absl::StatusOr<Lease> lease = Lease::Take(*this);
  if (!lease.ok()) return lease.status();
  try {
    pqxx::read_transaction txn(lease->conn());
    return txn.exec1("SELECT last_position FROM store_head")[0].as<int64_t>();
  } catch (const std::exception& e) {
    return lease->Fail(e, "reading the store head");
  }
}

absl::StatusOr<VerifyReport> PostgresEventStore::VerifyGame(const std::string& game_id) {
  absl::StatusOr<Lease> lease = Lease::Take(*this);
  if (!lease.ok()) return lease.status();
  try {
    // One snapshot for the game row and its events.
    pqxx::transaction<pqxx::repeatable_read, pqxx::read_only> txn(lease->conn());
    pqxx::result game_rows = txn.exec_params(
        absl::StrCat("SELECT ", kGameColumns, " FROM games WHERE game_id = $1"), game_id);
    if (game_rows.empty()) return internal::GameNotFound(game_id);
    absl::StatusOr<GameRecord> game = GameFromRow(game_rows[0]);
    if (!game.ok()) return game.status();
    pqxx::result rows = txn.exec_params(
        absl::StrCat("SELECT ", kEventColumns, kEventsWithBatch,
                     "WHERE e.game_id = $1 ORDER BY e.sequence"),
        game_id);
    std::vector<StoredEvent> events;
    events.reserve(rows.size());
    for (const pqxx::row& row : rows) events.push_back(EventFromRow(row));
    return internal::VerifyChain(*game, events);
  } catch (const std::exception& e) {
    return lease->Fail(e, "verifying a game");
  }
}

}  // namespace arbiter::store
