#include "services/store/postgres_event_store.h"

#include <pqxx/pqxx>

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/core/status_macros.h"
#include "services/store/event_hash.h"
#include "services/store/internal/postgres_rows.h"
#include "services/store/internal/store_rules.h"
#include "services/store/pg/commit.h"
#include "services/store/postgres_store_follower.h"

namespace arbiter::store {
namespace {

using internal::EventFromRow;
using internal::GameFromRow;
using internal::kEventsWithBatch;
using internal::kEventsWithTheirBatch;
using internal::kGameColumns;

// A game's row with its first $2 events and its last stored event, in one
// statement (one snapshot). Each row is an event's kEventColumns followed by
// the game's kGameColumns; a game without events is one row whose event
// columns are NULL. The last event is the highest sequence (a backward
// primary-key probe), listed only if it is not among the first $2.
constexpr char kReadGameHead[] = R"sql(
WITH g AS (SELECT %GAME% FROM games WHERE game_id = $1),
first_events AS (
  SELECT %EVENT_IN_RUN%, e.sequence AS s %BATCH%
  WHERE e.game_id = $1 ORDER BY e.sequence LIMIT $2),
last_event AS (
  SELECT %EVENT%, e.sequence AS s %BATCH%
  WHERE e.game_id = $1 AND e.sequence > (SELECT coalesce(max(s), 0) FROM first_events)
  ORDER BY e.sequence DESC LIMIT 1)
SELECT x.*, g.* FROM g
LEFT JOIN (SELECT * FROM first_events UNION ALL SELECT * FROM last_event) x ON true
ORDER BY x.s
)sql";

// The first event of type $2 of game $1 with $3 < sequence <= $4.
constexpr char kFindGameEvent[] = R"sql(
SELECT %EVENT% %BATCH%
WHERE e.game_id = $1 AND e.sequence > $3 AND e.sequence <= $4 AND e.type = $2
ORDER BY e.sequence LIMIT 1
)sql";

std::string WithColumns(std::string sql) {
  auto replace = [&sql](const std::string& from, const std::string& to) {
    for (std::size_t at = sql.find(from); at != std::string::npos; at = sql.find(from, at)) {
      sql.replace(at, from.size(), to);
      at += to.size();
    }
  };
  replace("%GAME%", kGameColumns);
  // The first events are a run from sequence 1: FillPrevHashes links them.
  replace("%EVENT_IN_RUN%", internal::EventColumns("false"));
  replace("%EVENT%", internal::EventColumns("true"));
  replace("%BATCH%", kEventsWithTheirBatch);
  return sql;
}

// Events per read of VerifyGame.
constexpr int kVerifyBatch = 1000;

// Columns of kEventColumns (a head row's event part, before the sequence
// used for ordering and the game's columns).
constexpr int kEventColumnCount = 11;

}  // namespace

void PostgresEventStore::PrepareReadStatements(pqxx::connection_base& conn) {
  conn.prepare("get_game", absl::StrCat("SELECT ", kGameColumns, " FROM games WHERE game_id = $1"));
  conn.prepare("read_game_events",
               absl::StrCat("SELECT ", internal::EventColumns("e.sequence = $2 + 1"),
                            kEventsWithTheirBatch,
                            "WHERE e.game_id = $1 AND e.sequence > $2 ORDER BY e.sequence "
                            "LIMIT $3"));
  conn.prepare("read_game_head", WithColumns(kReadGameHead));
  conn.prepare("find_game_event", WithColumns(kFindGameEvent));
}

namespace {

// The pool of `options`, running `prepare` on each new connection.
pg::PgPoolOptions PoolOptionsOf(const PostgresOptions& options,
                                std::function<void(pqxx::connection_base&)> prepare) {
  pg::PgPoolOptions pool;
  pool.conninfo = options.conninfo;
  pool.role = options.role;
  pool.max_connections = options.max_connections;
  pool.connection_wait = options.connection_wait;
  pool.on_connect = std::move(prepare);
  return pool;
}

}  // namespace

PostgresEventStore::PostgresEventStore(PostgresOptions options)
    : options_(std::move(options)),
      pool_(PoolOptionsOf(options_,
                          [](pqxx::connection_base& conn) {
                            // The statements below are planned once per
                            // connection: their best plan does not depend
                            // on the values sent (key look-ups, arrays
                            // unnested), and planning them at each call
                            // (PostgreSQL's choice for statements taking
                            // arrays) cost about 0.2 ms a statement.
                            pqxx::nontransaction(conn).exec(
                                "SET plan_cache_mode = force_generic_plan");
                            PrepareReadStatements(conn);
                            PrepareAppendStatements(conn);
                            PrepareCreateStatements(conn);
                          })),
      create_queue_(internal::GroupCommitLimits{
          .max_writers = std::max(1, options_.create_writers),
          .max_items = std::max(1, options_.max_games_per_commit),
          .max_bytes = kMaxGroupBytes}),
      append_queue_(internal::GroupCommitLimits{
          .max_writers = std::max(1, options_.append_writers),
          .max_items = std::max(1, options_.max_appends_per_commit),
          .max_bytes = kMaxGroupBytes}) {}
PostgresEventStore::~PostgresEventStore() = default;

absl::StatusOr<std::unique_ptr<PostgresEventStore>> PostgresEventStore::Open(
    const PostgresOptions& options) {
  std::unique_ptr<PostgresEventStore> store(new PostgresEventStore(options));
  absl::StatusOr<Lease> lease = store->pool_.Take();
  if (!lease.ok()) {
    if (absl::IsInternal(lease.status())) {
      return absl::FailedPreconditionError(absl::StrCat(
          lease.status().message(), " (has the schema been migrated? run arbiter migrate)"));
    }
    return lease.status();
  }
  return store;
}

absl::StatusOr<GameRecord> PostgresEventStore::GetGame(const std::string& game_id) {
  ARBITER_ASSIGN_OR_RETURN(Lease lease, pool_.Take());
  try {
    // One statement: no transaction around it (two round trips fewer on
    // every write's first read), and prepared once per connection.
    pqxx::nontransaction txn(lease.conn());
    pqxx::result rows = txn.exec_prepared("get_game", game_id);
    if (rows.empty()) return internal::GameNotFound(game_id);
    return GameFromRow(rows[0]);
  } catch (const std::exception& e) {
    return lease.Fail(e, "reading a game");
  }
}

absl::Status PostgresEventStore::ConfirmGameAbsent(const std::string& game_id) {
  ARBITER_ASSIGN_OR_RETURN(Lease lease, pool_.Take());
  try {
    // The look-up and a commit that waits for the synchronous standbys, on
    // one connection: a server that is no longer the primary cannot have
    // that commit confirmed.
    pqxx::work txn(lease.conn());
    const bool exists = !txn.exec_prepared("get_game", game_id).empty();
    std::string notice;
    if (pg::ConfirmDurable(txn, &notice) != pg::CommitOutcome::kCommitted) {
      lease.Drop();
      return absl::UnavailableError(absl::StrCat(
          "could not confirm with the primary whether game \"", game_id,
          "\" exists (", notice.empty() ? "the connection was lost at commit" : notice,
          "; a failover may be under way): retry"));
    }
    return exists ? absl::OkStatus() : internal::GameNotFound(game_id);
  } catch (const std::exception& e) {
    return lease.Fail(e, "confirming whether a game exists");
  }
}

absl::StatusOr<std::optional<std::string>> PostgresEventStore::FindPlayedGame(
    const std::string& played_key) {
  ARBITER_ASSIGN_OR_RETURN(Lease lease, pool_.Take());
  try {
    pqxx::nontransaction txn(lease.conn());
    const pqxx::result rows =
        txn.exec_params("SELECT game_id FROM games WHERE played_key = $1", played_key);
    if (rows.empty()) return std::optional<std::string>();
    return std::optional<std::string>(rows[0][0].as<std::string>());
  } catch (const std::exception& e) {
    return lease.Fail(e, "looking up a played game");
  }
}

absl::StatusOr<std::string> PostgresEventStore::KeepDealerSecret(const std::string& game_id,
                                                                 const std::string& secret) {
  ARBITER_ASSIGN_OR_RETURN(const std::vector<std::string> kept,
                           KeepDealerSecrets({{game_id, secret}}));
  return kept.front();
}

absl::StatusOr<std::vector<std::string>> PostgresEventStore::KeepDealerSecrets(
    const std::vector<std::pair<std::string, std::string>>& secrets) {
  ARBITER_ASSIGN_OR_RETURN(Lease lease, pool_.Take());
  try {
    // One transaction, one commit: a concurrent retry keeps the first
    // secrets either way (the primary key), and reads them back.
    pqxx::work txn(lease.conn());
    std::vector<std::string> kept;
    kept.reserve(secrets.size());
    for (const auto& [game_id, secret] : secrets) {
      txn.exec_params(
          "INSERT INTO dealer_secrets (game_id, secret) VALUES ($1, $2) "
          "ON CONFLICT (game_id) DO NOTHING",
          game_id, pqxx::binarystring(secret));
      const pqxx::result rows =
          txn.exec_params("SELECT secret FROM dealer_secrets WHERE game_id = $1", game_id);
      if (rows.empty()) return absl::InternalError("a dealer's secret was kept and not found");
      kept.push_back(pqxx::binarystring(rows[0][0]).str());
    }
    txn.commit();
    return kept;
  } catch (const std::exception& e) {
    return lease.Fail(e, "keeping the dealers' secrets");
  }
}

absl::StatusOr<std::optional<std::string>> PostgresEventStore::DealerSecret(
    const std::string& game_id) {
  ARBITER_ASSIGN_OR_RETURN(Lease lease, pool_.Take());
  try {
    pqxx::nontransaction txn(lease.conn());
    const pqxx::result rows =
        txn.exec_params("SELECT secret FROM dealer_secrets WHERE game_id = $1", game_id);
    if (rows.empty()) return std::optional<std::string>();
    return std::optional<std::string>(pqxx::binarystring(rows[0][0]).str());
  } catch (const std::exception& e) {
    return lease.Fail(e, "reading a dealer's secret");
  }
}

absl::StatusOr<ListGamesPage> PostgresEventStore::ListGames(const ListGamesFilter& filter,
                                                            int page_size,
                                                            const std::string& page_token) {
  ARBITER_ASSIGN_OR_RETURN(const int size, internal::NormalisePageSize(page_size));
  ARBITER_ASSIGN_OR_RETURN(const std::string after, internal::DecodePageToken(page_token));
  ARBITER_ASSIGN_OR_RETURN(Lease lease, pool_.Take());
  try {
    pqxx::read_transaction txn(lease.conn());
    const std::string status =
        filter.status == GameStatus::kUnspecified ? "" : GameStatusName(filter.status);
    pqxx::result rows = txn.exec_params(
        absl::StrCat("SELECT ", kGameColumns,
                     " FROM games WHERE ($1 = '' OR game_id > $1) AND ($2 = '' OR game = $2) "
                     "AND ($3 = '' OR status = $3) AND ($4 = '' OR league_id = $4) "
                     "AND ($5 = '' OR tournament_id = $5) "
                     "AND ($7 = '' OR players @> ARRAY[$7]) ORDER BY game_id LIMIT $6"),
        after, filter.game, status, filter.league_id, filter.tournament_id, size + 1,
        filter.player);
    ListGamesPage page;
    for (const pqxx::row& row : rows) {
      if (static_cast<int>(page.games.size()) == size) {
        page.next_page_token = internal::EncodePageToken(page.games.back().game_id);
        break;
      }
      ARBITER_ASSIGN_OR_RETURN(GameRecord game, GameFromRow(row));
      page.games.push_back(std::move(game));
    }
    return page;
  } catch (const std::exception& e) {
    return lease.Fail(e, "listing games");
  }
}

absl::Status PostgresEventStore::SetGameStatus(const std::string& game_id, GameStatus status) {
  if (status != GameStatus::kFinished && status != GameStatus::kVoided) {
    return absl::InvalidArgumentError(absl::StrCat("a game can only become finished or voided, not ",
                                                   GameStatusName(status)));
  }
  ARBITER_ASSIGN_OR_RETURN(Lease lease, pool_.Take());
  try {
    pqxx::work txn(lease.conn());
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
    return lease.Fail(e, "changing a game's status");
  }
}

void PostgresEventStore::NoteWritten(int64_t position) {
  int64_t seen = written_through_.load();
  while (seen < position && !written_through_.compare_exchange_weak(seen, position)) {
  }
}

std::unique_ptr<StoreFollower> PostgresEventStore::Follow(StoreListener& listener) {
  return std::make_unique<PostgresStoreFollower>(options_, listener);
}

absl::StatusOr<std::vector<StoredEvent>> PostgresEventStore::ReadGameEvents(
    const std::string& game_id, int64_t after_sequence, int limit) {
  ARBITER_RETURN_IF_ERROR(internal::ValidateLimit(limit));
  ARBITER_ASSIGN_OR_RETURN(Lease lease, pool_.Take());
  try {
    // One statement (the second only finds whether an empty game exists,
    // and games are never deleted): no transaction around it.
    pqxx::nontransaction txn(lease.conn());
    pqxx::result rows = txn.exec_prepared("read_game_events", game_id, after_sequence, limit);
    if (rows.empty() &&
        txn.exec_params("SELECT 1 FROM games WHERE game_id = $1", game_id).empty()) {
      return internal::GameNotFound(game_id);
    }
    std::vector<StoredEvent> events;
    events.reserve(rows.size());
    for (const pqxx::row& row : rows) events.push_back(EventFromRow(row));
    internal::FillPrevHashes(events);
    return events;
  } catch (const std::exception& e) {
    return lease.Fail(e, "reading a game's events");
  }
}

absl::StatusOr<GameHead> PostgresEventStore::ReadGameHead(const std::string& game_id,
                                                          int limit) {
  ARBITER_RETURN_IF_ERROR(internal::ValidateLimit(limit));
  ARBITER_ASSIGN_OR_RETURN(Lease lease, pool_.Take());
  try {
    // One statement: one snapshot, no transaction around it.
    pqxx::nontransaction txn(lease.conn());
    pqxx::result rows = txn.exec_prepared("read_game_head", game_id, limit);
    if (rows.empty()) return internal::GameNotFound(game_id);
    const pqxx::row::size_type game_from = kEventColumnCount + 1;
    GameHead head;
    ARBITER_ASSIGN_OR_RETURN(head.row, GameFromRow(rows[0].slice(game_from, rows.columns())));
    head.first_events.reserve(std::min<std::size_t>(rows.size(), static_cast<std::size_t>(limit)));
    for (const pqxx::row& event_row : rows) {
      if (event_row[0].is_null()) break;  // a game without events
      StoredEvent event = EventFromRow(event_row.slice(0, kEventColumnCount));
      if (static_cast<int>(head.first_events.size()) < limit) {
        head.first_events.push_back(std::move(event));
      } else {
        head.last_event = std::move(event);
      }
    }
    internal::FillPrevHashes(head.first_events);
    return head;
  } catch (const std::exception& e) {
    return lease.Fail(e, "reading a game's head");
  }
}

absl::StatusOr<std::optional<StoredEvent>> PostgresEventStore::FindGameEvent(
    const std::string& game_id, const std::string& type, int64_t after_sequence,
    int64_t up_to_sequence) {
  ARBITER_ASSIGN_OR_RETURN(Lease lease, pool_.Take());
  try {
    pqxx::nontransaction txn(lease.conn());
    pqxx::result rows =
        txn.exec_prepared("find_game_event", game_id, type, after_sequence, up_to_sequence);
    if (!rows.empty()) return std::optional<StoredEvent>(EventFromRow(rows[0]));
    if (txn.exec_params("SELECT 1 FROM games WHERE game_id = $1", game_id).empty()) {
      return internal::GameNotFound(game_id);
    }
    return std::optional<StoredEvent>();
  } catch (const std::exception& e) {
    return lease.Fail(e, "finding a game's event");
  }
}

absl::StatusOr<std::vector<StoredEvent>> PostgresEventStore::ReadAll(int64_t after_position,
                                                                     int limit) {
  ARBITER_RETURN_IF_ERROR(internal::ValidateLimit(limit));
  ARBITER_ASSIGN_OR_RETURN(Lease lease, pool_.Take());
  try {
    pqxx::read_transaction txn(lease.conn());
    pqxx::result rows = txn.exec_params(
        // Batches in position order, each batch's events in sequence order.
        // Each batch's first event, and the first read, look up their
        // previous hash; FillPrevHashes links the rest.
        absl::StrCat("SELECT ",
                     internal::EventColumns("e.sequence = r.first_sequence OR "
                                            "r.first_position + (e.sequence - r.first_sequence) "
                                            "= $1 + 1"),
                     kEventsWithBatch, "WHERE r.last_position > $1 "
                     "AND r.first_position + (e.sequence - r.first_sequence) > $1 "
                     "ORDER BY r.last_position, e.sequence LIMIT $2"),
        after_position, limit);
    std::vector<StoredEvent> events;
    events.reserve(rows.size());
    for (const pqxx::row& row : rows) events.push_back(EventFromRow(row));
    internal::FillPrevHashes(events);
    return events;
  } catch (const std::exception& e) {
    return lease.Fail(e, "reading the store");
  }
}

absl::StatusOr<int64_t> PostgresEventStore::HeadPosition() {
  ARBITER_ASSIGN_OR_RETURN(Lease lease, pool_.Take());
  try {
    pqxx::read_transaction txn(lease.conn());
    return txn.exec1("SELECT last_position FROM store_head")[0].as<int64_t>();
  } catch (const std::exception& e) {
    return lease.Fail(e, "reading the store head");
  }
}

absl::StatusOr<VerifyReport> PostgresEventStore::VerifyGame(const std::string& game_id) {
  ARBITER_ASSIGN_OR_RETURN(Lease lease, pool_.Take());
  try {
    // One snapshot for the game row and its events.
    pqxx::transaction<pqxx::repeatable_read, pqxx::read_only> txn(lease.conn());
    pqxx::result game_rows = txn.exec_params(
        absl::StrCat("SELECT ", kGameColumns, " FROM games WHERE game_id = $1"), game_id);
    if (game_rows.empty()) return internal::GameNotFound(game_id);
    ARBITER_ASSIGN_OR_RETURN(const GameRecord game, GameFromRow(game_rows[0]));
    // The events a batch at a time (never the whole game in memory), in
    // the same snapshot.
    internal::ChainCheck check(game);
    std::vector<StoredEvent> events;
    int64_t after = 0;
    while (true) {
      pqxx::result rows = txn.exec_prepared("read_game_events", game_id, after, kVerifyBatch);
      events.clear();
      for (const pqxx::row& row : rows) events.push_back(EventFromRow(row));
      internal::FillPrevHashes(events);
      ARBITER_RETURN_IF_ERROR(check.Add(events));
      if (static_cast<int>(rows.size()) < kVerifyBatch) break;
      after = events.back().sequence;
    }
    return check.Finish();
  } catch (const std::exception& e) {
    return lease.Fail(e, "verifying a game");
  }
}

}  // namespace arbiter::store
