// GameWriter: every write of the API (create, append, submit, reveal), with
// the engine's checks before anything is stored.
//
// Retries: each write is turned into store requests whose ids are derived
// from (caller, game, client request id) and whose events are derived from
// the request alone (event_codec.h), so a repeated request reaches the store
// as the same request and gets the first answer back.
// Thread-safe: writes to one game are serialised by LiveGames.
#ifndef ARBITER_SERVICES_GAMES_GAME_WRITER_H_
#define ARBITER_SERVICES_GAMES_GAME_WRITER_H_

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/arbiter_service.pb.h"
#include "engine/core/ruleset_registry.h"
#include "services/access/permissions.h"
#include "services/games/game_loader.h"
#include "services/games/league_check.h"
#include "services/games/live_games.h"
#include "services/store/event_store.h"

namespace arbiter::games {

struct WriteLimits {
  // Events per game, the creation included (RESOURCE_EXHAUSTED beyond).
  int64_t max_events_per_game = 100'000;
  // Bytes of a submitted log.
  int64_t max_log_bytes = 64 << 20;
  // Whether the appends to a tournament's games (its tables) store the
  // readable JSON copy of each event (store::NewEvent::json). The payload
  // and its hash are the record either way; without the copy PostgreSQL
  // stores and checks less per action (docs/benchmarks.md, Tournaments).
  bool json_copy_for_tournament_games = true;
};

class GameWriter {
 public:
  // With `leagues`, a game that names a league must name one that exists
  // and rates its game type.
  GameWriter(store::EventStore& store, const engine::RulesetRegistry& registry,
             WriteLimits limits, LeagueCheck* leagues = nullptr)
      : store_(store), registry_(registry), limits_(limits), leagues_(leagues) {}

  // The RPCs of the same names (arbiter_service.proto says what each
  // answers). Errors carry ErrorInfo/BadRequest details (status_mapping.h).
  absl::StatusOr<v1::Game> Create(const access::Caller& caller, const v1::CreateGameRequest& request);
  absl::StatusOr<v1::AppendActionsResponse> Append(const access::Caller& caller,
                                                   const v1::AppendActionsRequest& request,
                                                   const CancelCheck& cancel);
  absl::StatusOr<v1::SubmitGameResponse> Submit(const access::Caller& caller,
                                                const v1::SubmitGameRequest& request,
                                                const CancelCheck& cancel);
  absl::StatusOr<v1::RevealSeedResponse> Reveal(const access::Caller& caller,
                                                const v1::RevealSeedRequest& request,
                                                const CancelCheck& cancel);
  absl::StatusOr<v1::Game> Void(const access::Caller& caller, const v1::VoidGameRequest& request);
  // Many CreateGame requests of one caller at once (a tournament round's
  // tables): each checked as Create checks it, the valid ones written
  // together (EventStore::CreateGames: a few commits instead of one per
  // game). One answer per request, in their order.
  std::vector<absl::StatusOr<v1::Game>> CreateMany(const access::Caller& caller,
                                                   const std::vector<v1::CreateGameRequest>& requests);
  // Records a corrected result ruled by an arbiter: one more "game_finished"
  // event (verdict legal, `standings` in place of the game's own, and
  // `correction` saying which ruling), after the game's result or ending an
  // unfinished game. Rankings then count this result in place of the
  // earlier one. A repeat with the same `request_id` is answered again.
  // FailedPrecondition for a voided game. Returns the event's sequence.
  absl::StatusOr<int64_t> RecordCorrection(const access::Caller& caller, const std::string& game_id,
                                           const v1::Standings& standings,
                                           const std::string& correction,
                                           const std::string& request_id);

 private:
  struct PreparedGame {
    store::CreateGameRequest create;  // what the store writes
    v1::GameCreated created;          // event 1's body
  };
  // Create's checks and the store request; `leagues_checked` (may be null)
  // remembers the (league, game type) pairs already found valid.
  absl::StatusOr<PreparedGame> PrepareCreate(
      const access::Caller& caller, const v1::CreateGameRequest& request,
      std::set<std::pair<std::string, std::string>>* leagues_checked);
  // The game `game_id` if the caller may write to it; PERMISSION_DENIED if
  // not, and for a game that does not exist unless the caller is an admin
  // (NOT_FOUND then).
  absl::StatusOr<store::GameRecord> Writable(const access::Caller& caller, const std::string& game_id);
  // Brings the cached referee of a locked game up to the store's last event.
  absl::Status Refresh(LiveGame& live, const store::GameRecord& record, const CancelCheck& cancel);
  // Stores the "game_finished" event of a game whose last event is
  // `last_sequence`, recorded by the referee ("arbiter") under a request id
  // derived from the game alone, so that whoever notices first writes it
  // and a repeat is answered. OK if the game is already finished.
  absl::Status RecordFinished(const std::string& game_id, const v1::GameCreated& created,
                              const v1::Adjudication& judged, int64_t last_sequence);

  // The "game_finished" event an append ending at `last_action` stored after
  // its actions, if the game's stored actions end the game there (nullopt
  // if they do not, or the seed is hidden): how a retry of that append asks
  // again exactly as it was first asked.
  absl::StatusOr<std::optional<store::NewEvent>> EndingEvent(const std::string& game_id,
                                                             const LoadedGame& game,
                                                             int64_t last_action,
                                                             const CancelCheck& cancel);

  // LeagueCheck::CheckRates, or OK without `leagues_`.
  absl::Status CheckLeague(const std::string& league_id, const std::string& game_type,
                           const char* field) {
    return leagues_ == nullptr ? absl::OkStatus() : leagues_->CheckRates(league_id, game_type, field);
  }

  store::EventStore& store_;
  const engine::RulesetRegistry& registry_;
  const WriteLimits limits_;
  LeagueCheck* const leagues_;
  LiveGames live_;
};

}  // namespace arbiter::games

#endif  // ARBITER_SERVICES_GAMES_GAME_WRITER_H_
