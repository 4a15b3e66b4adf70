// EventStore: the durable, append-only home of every game's events.
//
// A game is a row of metadata (GameRecord) plus an ordered list of events.
// Events are never edited or deleted: a correction is a new event. Each event
// carries two positions:
//   - `sequence`: 1, 2, 3, ... within its game, without gaps;
//   - `position`: 1, 2, 3, ... across the whole store, in commit order and
//     without gaps, so a reader that remembers the last position it saw and
//     asks for everything after it never skips an event (docs/event-store.md).
// Each event's `hash` chains it to the previous event of its game
// (event_hash.h defines the exact bytes), so an edit made behind the store's
// back is found by VerifyGame.
//
// Appends are idempotent: every AppendRequest carries a request id, and a
// retried request returns the first answer without writing anything again,
// also after a restart of the server or of PostgreSQL.
//
// The results of games (what leagues and tournaments read) are indexed by
// an interface of their own, ResultIndex (result_index.h).
//
// Implementations: PostgresEventStore (postgres_event_store.h) and
// MemoryEventStore (memory_event_store.h, for unit tests; same behaviour).
// Every implementation is thread-safe: one instance may be shared by all
// threads of a process.
#ifndef ARBITER_SERVICES_STORE_EVENT_STORE_H_
#define ARBITER_SERVICES_STORE_EVENT_STORE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "services/store/lease_fence.h"

namespace arbiter::store {

// Stored as text in games.status: 'active', 'finished', 'voided'.
// stored: never rename.
enum class GameStatus { kUnspecified = 0, kActive = 1, kFinished = 2, kVoided = 3 };

// "active", "finished", "voided" ("unspecified" for kUnspecified).
const char* GameStatusName(GameStatus status);
// The inverse of GameStatusName; nullopt for any other text.
std::optional<GameStatus> ParseGameStatus(const std::string& name);

// Limits checked on every request (InvalidArgument when exceeded).
inline constexpr int kMaxEventsPerAppend = 1000;
inline constexpr int64_t kMaxPayloadBytes = 256 * 1024;        // one event
inline constexpr int64_t kMaxAppendBytes = 4 * 1024 * 1024;    // one batch
// A game created together with its events (a whole submitted log) is written
// in one transaction whatever its length, so that no other writer can append
// between its parts; these limits bound that one batch.
inline constexpr int kMaxEventsPerCreate = 1'000'000;
inline constexpr int64_t kMaxCreateBytes = 256 * 1024 * 1024;
inline constexpr int kMaxIdBytes = 200;  // game, request, event ids and types
inline constexpr int kMaxPlayers = 64;

// Event types that end a game. A batch whose last event has one of these
// types moves the game's status in the same transaction: "game_finished"
// makes an active game kFinished, "game_voided" makes an active or finished
// game kVoided. They may only stand last in a batch; a finished game accepts
// nothing but a batch of one "game_voided" event, a voided game nothing.
// The store also lists every such event, by position, in its result index
// (result_index.h).
// stored: never rename.
inline constexpr char kGameFinishedType[] = "game_finished";
inline constexpr char kGameVoidedType[] = "game_voided";

// One game's metadata. Games rows are not append-only: the status changes
// as the game ends; everything else is fixed at creation.
struct GameRecord {
  std::string game_id;       // chosen by the caller; 1..kMaxIdBytes bytes
  std::string game;          // engine game name, e.g. "atlantica"
  std::string ruleset_id;
  std::string ruleset_hash;  // 64 lowercase hex digits (engine::Sha256Hex)
  // Exactly one of the two: the seed itself, or a commitment to it (e.g. the
  // SHA-256 of the seed, revealed later in an event).
  std::optional<uint64_t> seed;
  std::string seed_commitment;
  std::vector<std::string> players;  // in seat order; at least one
  GameStatus status = GameStatus::kActive;  // kActive when created
  std::string created_by;
  absl::Time created_at;     // set by the store
  std::string league_id;     // empty: none
  std::string tournament_id; // empty: none
  // Maintained by the store: the last event's sequence (0 when there are no
  // events) and hash (empty when there are no events).
  int64_t last_sequence = 0;
  std::string last_hash;
  // Not a column and never stored by the store: event 1's
  // GameCreated.spectators, set by games::RecordFromChain for the
  // permission checks (the public may follow the live game as a spectator).
  bool spectators = false;
  // Not a column either: event 1's GameCreated.creator_token_id, set by
  // games::RecordFromChain (an organiser scores the seeded games its own
  // token created, access::ScoresTable).
  std::string creator_token_id;
};

// An event as a writer hands it in.
struct NewEvent {
  std::string event_id;  // unique in the whole store; 1..kMaxIdBytes bytes
  std::string type;      // e.g. "action", "seed_revealed"; 1..kMaxIdBytes
  std::string payload;   // the canonical bytes; stored and hashed exactly
  // A readable JSON copy of the payload for auditors using SQL; empty: none.
  // Never hashed; must be valid JSON when present.
  std::string json;
};

struct CreateGameRequest {
  // Required. A retry with the same id and the same game (and events)
  // returns the stored game; the same id with a different game is
  // InvalidArgument.
  std::string request_id;
  // created_at, last_sequence and last_hash are ignored. status is kActive
  // (kUnspecified means the same) or kFinished, for a whole game recorded at
  // once; kFinished needs events.
  GameRecord game;
  // The game's first events (sequences 1, 2, ...), written in the same
  // transaction as the game and recorded by game.created_by: how a whole log
  // is stored in one step. Empty: a game without events. The limits of one
  // Append apply, and the batch's answer is recorded under request_id.
  std::vector<NewEvent> events;
  // Empty, or 64 lowercase hex digits naming the played game: its header and
  // actions (games/played_game.h). Needs events. No two stored games share a
  // key: a request whose key a stored game holds is AlreadyExists (ErrorInfo
  // reason DUPLICATE_GAME, metadata "game": that game's id), unless it is a
  // retry of the request that stored it.
  std::string played_key;
};

// An event as the store returns it.
struct StoredEvent {
  int64_t position = 0;  // store-wide, commit order, gap-free
  std::string game_id;
  int64_t sequence = 0;  // within the game, from 1, gap-free
  std::string event_id;
  std::string type;
  std::string payload;
  std::string json;      // empty if none was given
  std::string recorded_by;
  absl::Time recorded_at;
  std::string prev_hash;  // 64 hex digits; 64 '0's for sequence 1
  std::string hash;       // 64 hex digits (event_hash.h)
};

struct AppendRequest {
  std::string game_id;
  // The sequence of the last event the writer has seen (0 for a game without
  // events). The new events get expected_sequence + 1, + 2, ...
  int64_t expected_sequence = 0;
  // Required, unique per logical request, 1..kMaxIdBytes bytes.
  std::string request_id;
  std::string recorded_by;
  std::vector<NewEvent> events;  // 1..kMaxEventsPerAppend events
  // A singleton's append (the reveal sweeper's): written only if the lease
  // still names this holder and token, checked in the writing transaction
  // (lease_fence.h); Aborted otherwise, nothing written. Not part of the
  // request's digest. The in-memory store has no leases and ignores it.
  std::optional<LeaseFence> fence;
};

struct AppendResult {
  int64_t first_sequence = 0;
  int64_t last_sequence = 0;
  int64_t first_position = 0;
  int64_t last_position = 0;
  std::string last_hash;
  // True when this answer was recorded by an earlier call with the same
  // request id (nothing was written by this call).
  bool replayed = false;
};

struct ListGamesFilter {
  std::string game;           // empty: any
  GameStatus status = GameStatus::kUnspecified;  // kUnspecified: any
  std::string league_id;      // empty: any
  std::string tournament_id;  // empty: any
  std::string player;         // empty: any; else games this player sits in
};

struct ListGamesPage {
  std::vector<GameRecord> games;  // ordered by game_id
  std::string next_page_token;    // empty on the last page
};

// A game's row with the first and the last of its events (ReadGameHead).
struct GameHead {
  GameRecord row;
  std::vector<StoredEvent> first_events;  // sequences 1, 2, ..., at most the limit asked for
  // The game's last stored event (the highest sequence), when it is not
  // among first_events; nullopt when it is, or when there are no events.
  std::optional<StoredEvent> last_event;
};

struct VerifyReport {
  int64_t events = 0;     // events checked
  std::string last_hash;  // empty for a game without events
};

// Hears from a follower of the store (EventStore::Follow) what was stored,
// by anyone, in the store's global order. Called on the follower's thread.
class StoreListener {
 public:
  virtual ~StoreListener() = default;
  // Every event with position <= through_position has now been reported.
  // `games`: each game that received events among the positions this call
  // reports, with the highest of them. `restart`: the first call, or the
  // first after the follower lost track of the store: nothing is known of
  // the events up to through_position, only that they are committed.
  virtual void OnStored(int64_t through_position,
                        const std::vector<std::pair<std::string, int64_t>>& games,
                        bool restart) = 0;
  // The follower cannot reach the store: until the next OnStored, events
  // are not reported.
  virtual void OnLost() = 0;
};

// A running follower; it stops (and calls its listener no more) when
// destroyed.
class StoreFollower {
 public:
  virtual ~StoreFollower() = default;
};

class EventStore {
 public:
  virtual ~EventStore() = default;

  // Creates a game, with its first events if the request has any, in one
  // transaction. Errors: InvalidArgument (missing or oversized field, no
  // players, both or neither of seed/seed_commitment, a bad status, any of
  // Append's batch errors, request id reused for a different game),
  // AlreadyExists (game id taken by another request, or an event id already
  // stored), Unavailable. Nothing is written unless all of it is.
  virtual absl::StatusOr<GameRecord> CreateGame(const CreateGameRequest& request) = 0;

  // Creates many games at once, each as CreateGame would, with one answer
  // per request in their order. The PostgreSQL store writes them a group to
  // a statement (one commit per group); this default writes one at a time.
  virtual std::vector<absl::StatusOr<GameRecord>> CreateGames(
      const std::vector<CreateGameRequest>& requests) {
    std::vector<absl::StatusOr<GameRecord>> out;
    out.reserve(requests.size());
    for (const CreateGameRequest& request : requests) out.push_back(CreateGame(request));
    return out;
  }

  // NotFound for an unknown game.
  virtual absl::StatusOr<GameRecord> GetGame(const std::string& game_id) = 0;

  // The id of the game stored with `played_key` (CreateGameRequest), nullopt
  // when none is.
  virtual absl::StatusOr<std::optional<std::string>> FindPlayedGame(
      const std::string& played_key) = 0;

  // Dealt games: keeps `secret` as the dealer's secret of `game_id` unless
  // one is kept already, and answers the one kept (so a retried creation
  // commits to the same secret). The secret is never in an event until the
  // game ends (docs/chance.md, "Dealt games").
  virtual absl::StatusOr<std::string> KeepDealerSecret(const std::string& game_id,
                                                       const std::string& secret) = 0;
  // KeepDealerSecret for many games (game id, secret) at once, the kept
  // secrets in the same order: one transaction on PostgreSQL (a tournament
  // round's dealt tables), each in turn here otherwise.
  virtual absl::StatusOr<std::vector<std::string>> KeepDealerSecrets(
      const std::vector<std::pair<std::string, std::string>>& secrets) {
    std::vector<std::string> kept;
    kept.reserve(secrets.size());
    for (const auto& [game_id, secret] : secrets) {
      absl::StatusOr<std::string> one = KeepDealerSecret(game_id, secret);
      if (!one.ok()) return one.status();
      kept.push_back(*std::move(one));
    }
    return kept;
  }
  // The dealer's secret kept for `game_id`; nullopt if none is.
  virtual absl::StatusOr<std::optional<std::string>> DealerSecret(const std::string& game_id) = 0;

  // Games matching `filter`, at most `page_size` (1..1000; 0 means 100) per
  // page, continuing after `page_token` (from a previous page; empty for the
  // first). InvalidArgument for a bad page size or token.
  virtual absl::StatusOr<ListGamesPage> ListGames(const ListGamesFilter& filter,
                                                  int page_size,
                                                  const std::string& page_token) = 0;

  // Moves an active game to kFinished or kVoided without an event. NotFound,
  // InvalidArgument (target not finished/voided), FailedPrecondition (game
  // not active). Kept for games stored before status events existed; the
  // service ends games with kGameFinishedType / kGameVoidedType events.
  virtual absl::Status SetGameStatus(const std::string& game_id, GameStatus status) = 0;

  // Appends a batch of events to one game, atomically. Errors:
  //   InvalidArgument  empty/oversized batch or payload, bad ids or JSON,
  //                    duplicate event ids within the batch, request id
  //                    reused for a different request;
  //   NotFound         unknown game;
  //   FailedPrecondition  game finished (unless the batch is one
  //                    kGameVoidedType event, or one kGameFinishedType
  //                    event: a corrected result) or voided;
  //   Aborted          expected_sequence is not the game's last sequence
  //                    (message: "expected sequence E, game is at C");
  //   AlreadyExists    an event id is already stored (message names where);
  //   Unavailable      PostgreSQL unreachable: retry with the same request id.
  // Nothing is written unless the whole batch is.
  virtual absl::StatusOr<AppendResult> Append(const AppendRequest& request) = 0;

  // Appends many batches at once, each as Append would, with one answer per
  // request in their order; one batch's error never fails another's. The
  // PostgreSQL store writes batches of different games a group to a
  // transaction (one commit per group); this default writes one at a time.
  virtual std::vector<absl::StatusOr<AppendResult>> AppendMany(
      const std::vector<AppendRequest>& requests) {
    std::vector<absl::StatusOr<AppendResult>> out;
    out.reserve(requests.size());
    for (const AppendRequest& request : requests) out.push_back(Append(request));
    return out;
  }

  // Up to `limit` (1..10000) events of a game with sequence > after_sequence,
  // in sequence order. NotFound for an unknown game.
  virtual absl::StatusOr<std::vector<StoredEvent>> ReadGameEvents(const std::string& game_id,
                                                                  int64_t after_sequence,
                                                                  int limit) = 0;

  // The row of a game, its first `limit` (1..10000) events and its last
  // stored event, read together: in PostgreSQL one statement, one snapshot,
  // so that an append (atomic) is either wholly in all three or in none.
  // How a reader starts streaming a game: the row and the last event bound
  // what it reads next. NotFound for an unknown game; InvalidArgument for a
  // bad limit.
  virtual absl::StatusOr<GameHead> ReadGameHead(const std::string& game_id, int limit) = 0;

  // Whether `game_id` exists, as a write may say it: OK if it does; NotFound
  // only once a commit made after the look-up was confirmed (in PostgreSQL,
  // by the synchronous standbys), so that a server deposed by a failover,
  // whose reads may miss games created since, never answers NotFound for
  // them; Unavailable when that commit could not be confirmed (retry).
  // A write flow asks this before it answers that a game does not exist.
  virtual absl::Status ConfirmGameAbsent(const std::string& game_id) {
    absl::StatusOr<GameRecord> game = GetGame(game_id);
    return game.ok() ? absl::OkStatus() : game.status();
  }

  // The first event of `type` of a game with
  // after_sequence < sequence <= up_to_sequence, if any (how a streaming
  // reader finds a seed revealed near the end of a long game before it
  // replays the start). NotFound for an unknown game.
  virtual absl::StatusOr<std::optional<StoredEvent>> FindGameEvent(const std::string& game_id,
                                                                   const std::string& type,
                                                                   int64_t after_sequence,
                                                                   int64_t up_to_sequence) = 0;

  // Up to `limit` (1..10000) events of the whole store with position >
  // after_position, in position order. A reader that passes the last position
  // it saw never skips an event, whatever order writers commit in.
  virtual absl::StatusOr<std::vector<StoredEvent>> ReadAll(int64_t after_position,
                                                           int limit) = 0;

  // Every event with after_position < position <= up_to_position (0: up to
  // the store's head when the read starts), in position order, each handed
  // to `each`, in one read: for re-deriving everything from the logs. The
  // events carry position, game id, sequence, type and payload, no more
  // (event id, JSON copy, recorded_by, recorded_at and hashes are left
  // empty). `each` must not call this store. The first error `each` returns
  // ends the scan and is returned; otherwise the errors of ReadAll.
  virtual absl::Status ScanEvents(int64_t after_position, int64_t up_to_position,
                                  const std::function<absl::Status(const StoredEvent&)>& each) {
    constexpr int kPage = 10'000;
    if (up_to_position == 0) {
      absl::StatusOr<int64_t> head = HeadPosition();
      if (!head.ok()) return head.status();
      up_to_position = *head;
    }
    while (after_position < up_to_position) {
      absl::StatusOr<std::vector<StoredEvent>> page = ReadAll(after_position, kPage);
      if (!page.ok()) return page.status();
      for (const StoredEvent& event : *page) {
        if (event.position > up_to_position) return absl::OkStatus();
        if (absl::Status status = each(event); !status.ok()) return status;
      }
      if (static_cast<int>(page->size()) < kPage) return absl::OkStatus();
      after_position = page->back().position;
    }
    return absl::OkStatus();
  }

  // The position of the last committed event (0 for an empty store).
  virtual absl::StatusOr<int64_t> HeadPosition() = 0;

  // Reads a game back and recomputes its hash chain. DataLoss naming the
  // first event (sequence and event id) whose prev_hash, hash or sequence is
  // wrong, or if the game's last_hash disagrees; NotFound for an unknown game.
  virtual absl::StatusOr<VerifyReport> VerifyGame(const std::string& game_id) = 0;

  // Starts following the store: `listener` hears of every event stored
  // from now on, by any writer in any process, soon after its commit.
  // nullptr if this store cannot be followed. `listener` must outlive the
  // follower.
  virtual std::unique_ptr<StoreFollower> Follow(StoreListener& listener) {
    (void)listener;
    return nullptr;
  }

  // The highest position of an event this object has stored (or found
  // stored, answering a retried request); 0 if none. A reader that has
  // heard of every event through this position from a follower has seen
  // this process's own writes.
  virtual int64_t WrittenThrough() const { return 0; }
};

}  // namespace arbiter::store

#endif  // ARBITER_SERVICES_STORE_EVENT_STORE_H_
