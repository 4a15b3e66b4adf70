// PostgresEventStore: the EventStore on PostgreSQL (libpqxx).
//
// The schema is in migrations/ (applied by migrations.h). The store opens
// the service's pool of connections (pg/pool.h), prepares its statements on
// each new one, and borrows one per call; pool() lends the same pool to the
// service's other PostgreSQL parts. libpqxx exceptions never leave this
// class: a lost or refused connection is Unavailable (retry; for Append with
// the same request id), anything unexpected is Internal. Thread-safe.
#ifndef ARBITER_SERVICES_STORE_POSTGRES_EVENT_STORE_H_
#define ARBITER_SERVICES_STORE_POSTGRES_EVENT_STORE_H_

#include <pqxx/types.hxx>

#include <atomic>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "services/store/event_store.h"
#include "services/store/internal/group_commit.h"
#include "services/store/pg/pool.h"
#include "services/store/result_index.h"

namespace arbiter::store {

struct PostgresOptions {
  std::string conninfo;  // libpq connection string or URL
  // After connecting, `SET ROLE` to this role (empty: stay as the login
  // role). The migrations create "arbiter_service", which may only INSERT
  // and SELECT events.
  std::string role = "arbiter_service";
  // The pool (pg::PgPoolOptions): at most this many connections at once,
  // for the store and everyone it lends the pool to. A call that finds them
  // all busy waits for one (up to connection_wait, then Unavailable), so
  // that a burst of calls queues here instead of forking more backends than
  // the server has cores to run. (The follower's LISTEN connection is its
  // own, beside these.)
  int max_connections = 16;
  absl::Duration connection_wait = absl::Seconds(30);
  // Group commit: concurrent CreateGame calls share one statement and one
  // commit, up to this many games (1: each game is written on its own).
  // See postgres_create_games.cc.
  int max_games_per_commit = 32;
  // Groups written at the same time: while one group commits, the next can
  // be inserting. Commits themselves are ordered by store_head's lock.
  int create_writers = 2;
  // The same for Append: concurrent appends (to different games) share one
  // transaction and one commit, up to this many batches (1: each batch on
  // its own). See postgres_append.cc.
  int max_appends_per_commit = 64;
  int append_writers = 2;
  // Keep the readable JSON copy of events that come with one (the
  // payload_json column, for auditors in SQL). Off: the payload bytes are
  // the only copy (docs/event-store.md, "What each stored byte is for").
  bool keep_json_copies = false;
  // An append whose commit was cut off (pg/commit.h) is looked up again for
  // at most this long (a failover takes 15-60 s) before it is answered
  // "the outcome is unknown, retry with the same request id".
  absl::Duration resolve_unknown_for = absl::Seconds(60);
};

// The event store and its result index (result_index.h: the table
// game_results, which the appending transaction fills by a trigger).
class PostgresEventStore final : public EventStore, public ResultIndex {
 public:
  // Connects once to check the server is reachable and migrated.
  // Unavailable if it is not reachable; FailedPrecondition if the schema is
  // missing (run ApplyMigrations first).
  static absl::StatusOr<std::unique_ptr<PostgresEventStore>> Open(const PostgresOptions& options);
  ~PostgresEventStore() override;

  // The store's pool, for the other PostgreSQL parts of the service
  // (streams, tokens, projections, the transparency log): they share its
  // connections (and find the store's statements prepared on them).
  pg::PgPool& pool() { return pool_; }

  // EventStore.
  absl::StatusOr<GameRecord> CreateGame(const CreateGameRequest& request) override;
  // Creates games as CreateGame does, in statements of up to
  // max_games_per_commit games (one commit each): a game whose id or request
  // id is taken, or a group whose statement fails, is written again on its
  // own to get its own answer. The answers are in the order of `requests`.
  std::vector<absl::StatusOr<GameRecord>> CreateGames(
      const std::vector<CreateGameRequest>& requests) override;
  absl::StatusOr<GameRecord> GetGame(const std::string& game_id) override;
  absl::StatusOr<std::vector<std::string>> KeepDealerSecrets(
      const std::vector<std::pair<std::string, std::string>>& secrets) override;
  absl::StatusOr<std::string> KeepDealerSecret(const std::string& game_id,
                                               const std::string& secret) override;
  absl::StatusOr<std::optional<std::string>> DealerSecret(const std::string& game_id) override;
  absl::StatusOr<std::optional<std::string>> FindPlayedGame(
      const std::string& played_key) override;
  absl::StatusOr<ListGamesPage> ListGames(const ListGamesFilter& filter, int page_size,
                                          const std::string& page_token) override;
  absl::Status SetGameStatus(const std::string& game_id, GameStatus status) override;
  absl::StatusOr<AppendResult> Append(const AppendRequest& request) override;
  // Appends as Append does, in transactions of up to max_appends_per_commit
  // batches (postgres_append.cc): a refused batch is answered on its own
  // and never fails another. The answers are in the order of `requests`.
  std::vector<absl::StatusOr<AppendResult>> AppendMany(
      const std::vector<AppendRequest>& requests) override;
  absl::StatusOr<std::vector<StoredEvent>> ReadGameEvents(const std::string& game_id,
                                                          int64_t after_sequence,
                                                          int limit) override;
  absl::StatusOr<GameHead> ReadGameHead(const std::string& game_id, int limit) override;
  absl::Status ConfirmGameAbsent(const std::string& game_id) override;
  absl::StatusOr<std::optional<StoredEvent>> FindGameEvent(const std::string& game_id,
                                                           const std::string& type,
                                                           int64_t after_sequence,
                                                           int64_t up_to_sequence) override;
  absl::StatusOr<std::vector<StoredEvent>> ReadAll(int64_t after_position, int limit) override;
  // One COPY (postgres_scans.cc): the rows stream in while `each` handles
  // the ones before.
  absl::Status ScanEvents(int64_t after_position, int64_t up_to_position,
                          const std::function<absl::Status(const StoredEvent&)>& each) override;
  absl::StatusOr<int64_t> HeadPosition() override;
  absl::StatusOr<VerifyReport> VerifyGame(const std::string& game_id) override;
  // A follower on a connection of its own (postgres_store_follower.h).
  std::unique_ptr<StoreFollower> Follow(StoreListener& listener) override;
  int64_t WrittenThrough() const override { return written_through_.load(); }

  // ResultIndex (postgres_result_index.cc).
  absl::StatusOr<std::vector<ResultEvent>> ReadResults(int64_t after_position,
                                                       int64_t up_to_position,
                                                       const std::string& league_id,
                                                       int limit) override;
  // One COPY: the rows stream in while `each` handles the ones before.
  absl::Status ScanLeagueResults(
      const std::string& league_id, int64_t after_position, int64_t up_to_position,
      const std::function<absl::Status(const ResultEvent&)>& each) override;
  absl::StatusOr<std::vector<ResultEvent>> ReadResultRows(std::vector<int64_t> positions) override;
  absl::StatusOr<std::vector<ResultEvent>> ReadTournamentResults(const std::string& tournament_id,
                                                                 int64_t after_position,
                                                                 int limit) override;

 private:
  explicit PostgresEventStore(PostgresOptions options);
  using Lease = pg::PgPool::Lease;
  struct PreparedCreate;  // a checked CreateGameRequest and its answer
  // Most bytes of events in one statement that creates games (about).
  static constexpr std::size_t kMaxGroupBytes = 8 << 20;

  PreparedCreate Prepare(const CreateGameRequest& request);
  // Writes a group (WriteTogether), then each game it left unwritten alone.
  void WriteGroup(const std::vector<PreparedCreate*>& group);
  // Writes `group` in one statement; returns the games it did not write.
  // Throws what libpqxx throws.
  std::vector<PreparedCreate*> WriteTogether(Lease& lease,
                                             const std::vector<PreparedCreate*>& group);
  // Writes one game and sets its answer, whatever happens.
  void WriteAlone(Lease& lease, PreparedCreate& one);
  // Answers a creation whose commit's outcome was unknown (pg/commit.h):
  // looked up by its request id on a new connection, backing off while no
  // server can be reached, for at most resolve_unknown_for; found, once a
  // later commit is durable; otherwise Unavailable "the outcome is unknown,
  // retry with the same request id".
  void ResolveUnknownCreation(PreparedCreate& one);

  struct PreparedAppend;  // a checked AppendRequest and its answer
  // Writes a group: the batches of distinct games and request ids together
  // (WriteAppendsTogether), then each of the others on its own.
  void WriteAppendGroup(const std::vector<PreparedAppend*>& group);
  // Writes `group` in one transaction and answers every batch of it,
  // whatever happens; after a statement that failed as a whole, each batch
  // again on its own.
  void WriteAppendsTogether(const std::vector<PreparedAppend*>& group);
  // Locks the group's games, answers the batches they refuse, writes the
  // others and commits. Returns the batches whose commit's outcome is
  // unknown (pg/commit.h), answered by nobody yet. Throws what libpqxx
  // throws.
  std::vector<PreparedAppend*> AppendTogether(Lease& lease,
                                              const std::vector<PreparedAppend*>& group);
  // Answers batches whose commit's outcome was unknown, once looked up again
  // on a new connection (LookUpAppends), backing off while no server can
  // be reached, for at most resolve_unknown_for; then Unavailable "the
  // outcome is unknown, retry with the same request id".
  void ResolveUnknownAppends(const std::vector<PreparedAppend*>& group);
  // Answers each batch of `group` that is found by its request id (once a
  // commit after the look-up is durable), or is known not stored (its
  // transaction aborted, or never ran on this server); leaves the others
  // unanswered. Unavailable if the look-up's own commit was cut off.
  // Throws what libpqxx throws.
  absl::Status LookUpAppends(pqxx::connection_base& conn,
                             const std::vector<PreparedAppend*>& group);
  // Why a transaction (by its pg_current_xact_id) certainly stored nothing
  // on this server, or nullopt if it may have (or still may). Throws what
  // libpqxx throws.
  static std::optional<std::string> TransactionFate(pqxx::connection_base& conn,
                                                    const std::string& transaction);
  // Answers `one` if its game (`head`, the lock_games row; null if the game
  // is unknown) refuses it, or returns true and readies its chain.
  bool Judge(pqxx::transaction_base& txn, PreparedAppend& one, const pqxx::row* head);
  // The append_games statement for `accepted`; its row holds the position
  // before the first event.
  pqxx::row WriteAccepted(pqxx::transaction_base& txn, const std::vector<PreparedAppend*>& accepted);
  // The answer recorded for `one`'s request id (`row` from column `first`,
  // the digest just before it), or InvalidArgument if the id was used for
  // another request.
  // Marks `one` replayed.
  absl::StatusOr<AppendResult> Replay(PreparedAppend& one, const pqxx::row& row, int first);
  // Answers a batch written alone whose statement met a unique violation.
  // False if that answer is a replay whose durability is unknown.
  bool AnswerUniqueViolation(Lease& lease, PreparedAppend& one, const std::exception& e);

  // Raises written_through_ to `position` if it is higher.
  void NoteWritten(int64_t position);

  // The named statements of appends and reads (postgres_event_store.cc) and
  // of game creation (postgres_create_games.cc), prepared on each new
  // connection of the pool. Throw what libpqxx throws.
  static void PrepareReadStatements(pqxx::connection_base& conn);
  static void PrepareAppendStatements(pqxx::connection_base& conn);
  static void PrepareCreateStatements(pqxx::connection_base& conn);

  PostgresOptions options_;
  pg::PgPool pool_;
  std::atomic<int64_t> written_through_{0};
  internal::GroupCommit<PreparedCreate> create_queue_;
  internal::GroupCommit<PreparedAppend> append_queue_;
};

}  // namespace arbiter::store

#endif  // ARBITER_SERVICES_STORE_POSTGRES_EVENT_STORE_H_
