// MemoryEventStore: an EventStore and its ResultIndex kept in memory, for
// unit tests.
//
// Behaves like PostgresEventStore (same validation, errors, hashing, order,
// idempotency), except that nothing survives the object. Thread-safe (one
// mutex).
#ifndef ARBITER_SERVICES_STORE_MEMORY_EVENT_STORE_H_
#define ARBITER_SERVICES_STORE_MEMORY_EVENT_STORE_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "services/store/event_store.h"
#include "services/store/result_index.h"

namespace arbiter::store {

class MemoryEventStore final : public EventStore, public ResultIndex {
 public:
  MemoryEventStore() = default;

  absl::StatusOr<GameRecord> CreateGame(const CreateGameRequest& request) override;
  absl::StatusOr<GameRecord> GetGame(const std::string& game_id) override;
  absl::StatusOr<std::string> KeepDealerSecret(const std::string& game_id,
                                               const std::string& secret) override;
  absl::StatusOr<std::optional<std::string>> DealerSecret(const std::string& game_id) override;
  absl::StatusOr<std::optional<std::string>> FindPlayedGame(
      const std::string& played_key) override;
  absl::StatusOr<ListGamesPage> ListGames(const ListGamesFilter& filter, int page_size,
                                          const std::string& page_token) override;
  absl::Status SetGameStatus(const std::string& game_id, GameStatus status) override;
  absl::StatusOr<AppendResult> Append(const AppendRequest& request) override;
  absl::StatusOr<std::vector<StoredEvent>> ReadGameEvents(const std::string& game_id,
                                                          int64_t after_sequence,
                                                          int limit) override;
  absl::StatusOr<GameHead> ReadGameHead(const std::string& game_id, int limit) override;
  absl::StatusOr<std::optional<StoredEvent>> FindGameEvent(const std::string& game_id,
                                                           const std::string& type,
                                                           int64_t after_sequence,
                                                           int64_t up_to_sequence) override;
  absl::StatusOr<std::vector<StoredEvent>> ReadAll(int64_t after_position, int limit) override;
  absl::StatusOr<int64_t> HeadPosition() override;
  absl::StatusOr<VerifyReport> VerifyGame(const std::string& game_id) override;

  // ResultIndex (ScanLeagueResults and ReadResultRows: its defaults, as the
  // events are the rows).
  absl::StatusOr<std::vector<ResultEvent>> ReadResults(int64_t after_position,
                                                       int64_t up_to_position,
                                                       const std::string& league_id,
                                                       int limit) override;
  absl::StatusOr<std::vector<ResultEvent>> ReadTournamentResults(const std::string& tournament_id,
                                                                 int64_t after_position,
                                                                 int limit) override;

  // For tests of verification: replaces the stored payload of one event
  // without updating its hash, as an attacker with disk access would.
  // NotFound if there is no such event.
  absl::Status TamperForTesting(const std::string& game_id, int64_t sequence,
                                const std::string& payload);

 private:
  struct Game {
    GameRecord record;
    std::string create_digest;
    std::vector<int64_t> positions;  // index sequence - 1 -> position
  };
  struct Answer {
    std::string digest;
    AppendResult result;
  };

  // Writes a validated batch whose event ids are free.
  AppendResult AppendLocked(const AppendRequest& request, const std::string& digest, Game& game)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  absl::Mutex mu_;
  std::map<std::string, Game> games_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, std::string> create_requests_ ABSL_GUARDED_BY(mu_);  // -> game id
  std::map<std::string, std::string> played_keys_ ABSL_GUARDED_BY(mu_);      // -> game id
  std::map<std::string, std::string> dealer_secrets_ ABSL_GUARDED_BY(mu_);   // game id ->
  std::map<std::string, Answer> append_requests_ ABSL_GUARDED_BY(mu_);
  // Every status event, in position order.
  struct Result {
    int64_t position = 0;
    GameStatus kind = GameStatus::kUnspecified;
    std::string league_id;
    std::string tournament_id;
  };
  std::vector<Result> results_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, int64_t> event_ids_ ABSL_GUARDED_BY(mu_);  // -> position
  std::vector<StoredEvent> events_ ABSL_GUARDED_BY(mu_);  // index position - 1
};

}  // namespace arbiter::store

#endif  // ARBITER_SERVICES_STORE_MEMORY_EVENT_STORE_H_
