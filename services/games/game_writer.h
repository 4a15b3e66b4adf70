// GameWriter: every write to a game, with the engine's checks before
// anything is stored. One file per write flow:
//   Create, CreateMany  create_game.cc      a game from its header, or many
//                                           (a tournament round's tables)
//   Append              append_actions.cc   actions to a live game, and the
//                                           game's result when they end it
//   Submit              submit_log.cc       a whole game from its log
//   Reveal              reveal_seed.cc      the seed behind a commitment
//   AddSeatValue, CloseDeal
//                       deal_writes.cc      a dealt game's deal
//   Void, RecordCorrection
//                       void_and_correct.cc a game voided; a result corrected
// with the checks they share in write_checks.h and the sealed seed's part
// in sealed_seed.h.
//
// Retries: each write is turned into store requests whose ids are derived
// from (caller, game, client request id) and whose events are derived from
// the request alone (game_events.h), so a repeated request reaches the
// store as the same request and gets the first answer back. Where a write
// stores more than its request says (an append that ends the game adds the
// result; a sealed creation draws the server's bytes), the retry is
// recognised and answered as the first time.
// Thread-safe: writes to one game are serialised by LiveGames.
#ifndef ARBITER_SERVICES_GAMES_GAME_WRITER_H_
#define ARBITER_SERVICES_GAMES_GAME_WRITER_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/arbiter_service.pb.h"
#include "engine/core/ruleset_registry.h"
#include "services/access/permissions.h"
#include "services/games/cancel_check.h"
#include "services/games/game_loader.h"
#include "services/games/judgement_cache.h"
#include "services/games/league_check.h"
#include "services/games/live_games.h"
#include "services/games/tournament_league.h"
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
  // and rates its game type. With `tournaments`, a league's organiser may
  // create the games of its league's tournaments (access::RequireCreate).
  GameWriter(store::EventStore& store, const engine::RulesetRegistry& registry,
             WriteLimits limits, LeagueCheck* leagues = nullptr,
             TournamentLeagues* tournaments = nullptr)
      : store_(store),
        registry_(registry),
        limits_(limits),
        leagues_(leagues),
        tournaments_(tournaments) {}

  // After each append that leaves the game live, the writer remembers the
  // game's new judgement and position in `judgements` (null: nowhere), so
  // that the players' next ListLegalActions and GetGameState need no read
  // and no replay (judgement_cache.h). Set before the server starts.
  void RememberJudgementsIn(JudgementCache* judgements) { judgements_ = judgements; }

  // LeagueCheck::CheckRates (league `league_id` exists and rates
  // `game_type`; OK for an empty id), or OK without `leagues`. For writers
  // that create games later, such as a tournament's rounds.
  absl::Status CheckLeague(const std::string& league_id, const std::string& game_type,
                           const char* field) {
    return leagues_ == nullptr ? absl::OkStatus() : leagues_->CheckRates(league_id, game_type, field);
  }

  // The RPCs CreateGame, AppendActions, SubmitGame, RevealSeed and VoidGame
  // (arbiter_service.proto says what each answers and refuses). Errors carry
  // ErrorInfo/BadRequest details (common/status_details.h); the store's
  // errors (Unavailable, ...) and the cancel check's pass through.
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
  // The deal of a dealt game (deal_writes.cc): a player's value for its own
  // seat, and an organiser's closing of the deal without the seats missing.
  absl::StatusOr<v1::Game> AddSeatValue(const access::Caller& caller,
                                        const v1::AddSeatValueRequest& request,
                                        const CancelCheck& cancel);
  absl::StatusOr<v1::Game> CloseDeal(const access::Caller& caller,
                                     const v1::CloseDealRequest& request,
                                     const CancelCheck& cancel);
  // Many CreateGame requests of one caller at once (a tournament round's
  // tables): each checked as Create checks it, the valid ones written
  // together (EventStore::CreateGames: a few commits instead of one per
  // game). One answer per request, in their order: the game, or the error
  // Create would give.
  std::vector<absl::StatusOr<v1::Game>> CreateMany(const access::Caller& caller,
                                                   const std::vector<v1::CreateGameRequest>& requests);
  // Records a corrected result ruled by an arbiter: one more "game_finished"
  // event (verdict legal, `standings` in place of the game's own, and
  // `correction` saying which ruling), after the game's result or ending an
  // unfinished game. Rankings then count this result in place of the
  // earlier one. A repeat with the same `request_id` is answered again.
  // Returns the event's sequence. PERMISSION_DENIED as for any write;
  // FailedPrecondition for a voided game; InvalidArgument if `request_id`
  // was used for another correction; DataLoss if event 1 does not decode.
  absl::StatusOr<int64_t> RecordCorrection(const access::Caller& caller, const std::string& game_id,
                                           const v1::Standings& standings,
                                           const std::string& correction,
                                           const std::string& request_id);
  // Records a result reported from a score sheet (report_result.cc): one
  // "game_finished" event with `reported` set, verdict unspecified, the
  // actions recorded so far counted, and `standings` the sheet's places and
  // game points. Only a game that has not ended takes one. A repeat with the
  // same `request_id` is answered again. Returns the event's sequence.
  // PERMISSION_DENIED as for any write; FailedPrecondition for a game that is
  // over (its message says to open a dispute instead); DataLoss if event 1
  // does not decode.
  absl::StatusOr<int64_t> RecordReport(const access::Caller& caller, const std::string& game_id,
                                       const v1::Standings& standings,
                                       const v1::ReportedResult& reported,
                                       const std::string& request_id);

 private:
  struct PreparedGame {
    store::CreateGameRequest create;  // what the store writes
    v1::GameCreated created;          // event 1's body
  };
  // What the creations of one CreateMany have looked up already.
  struct CreateMemo {
    std::set<std::pair<std::string, std::string>> leagues_checked;  // (league, game type)
    std::map<std::string, std::string> tournament_leagues;          // tournament -> league
    std::map<std::string, std::string> dealer_commitments;          // game id -> kept in advance
  };
  // Keeps the dealers' secrets of the dealt games among `requests` that the
  // caller may create, in one store call, and remembers their commitments
  // in `memo` (create_game.cc). On any failure it keeps nothing: each
  // creation then keeps its own and reports its own error.
  void KeepDealtSecrets(const access::Caller& caller,
                        const std::vector<v1::CreateGameRequest>& requests, CreateMemo& memo);
  // Create's checks and the store request (create_game.cc); `memo` (may be
  // null) remembers what earlier creations looked up.
  absl::StatusOr<PreparedGame> PrepareCreate(const access::Caller& caller,
                                             const v1::CreateGameRequest& request,
                                             CreateMemo* memo);
  // Dealt games: draws the dealer's secret of `game_id`, has the store keep
  // it (a retried creation finds the first one) and answers its commitment
  // (create_game.cc).
  absl::StatusOr<std::string> DealerCommitmentFor(const std::string& game_id);
  // access::RequireCreate, with the tournament's league as its log states
  // it when only that could allow the caller (create_game.cc).
  absl::Status RequireCreate(const access::Caller& caller, const std::string& league,
                             const std::string& tournament, CreateMemo* memo);
  // The game `game_id` as its chain states it, if the caller may write to
  // it (void_and_correct.cc); PERMISSION_DENIED if not, and for a game that
  // does not exist unless the caller is an admin (NOT_FOUND then). Either
  // answer for a game read as absent is given only once the primary
  // confirms the absence (ConfirmedChainedRecord).
  absl::StatusOr<store::GameRecord> Writable(const access::Caller& caller, const std::string& game_id);
  // Writable, for AppendActions: a player token may also append to a game
  // it plays in, every action for its own seat (append_actions.cc).
  // PERMISSION_DENIED naming the seat otherwise.
  absl::StatusOr<store::GameRecord> Appendable(const access::Caller& caller,
                                               const std::string& game_id,
                                               const v1::AppendActionsRequest& request);
  // Appendable's checks on a game already read (`record`, the head a live
  // game kept): the same answers, without a read.
  absl::Status AppendAllowed(const access::Caller& caller, const store::GameRecord& record,
                             const v1::AppendActionsRequest& request);
  // AppendActions once `live` is locked and the caller may write to the game
  // at `record`: a retry answered again or a stale view refused, else the
  // actions judged, stored and answered (append_actions.cc). nullopt if
  // `at_known_head` (record is the live game's kept head) and the store
  // found the game elsewhere than that head: nothing was stored by this
  // call, and the caller reads the game and calls again.
  absl::StatusOr<std::optional<v1::AppendActionsResponse>> AppendAtHead(
      const access::Caller& caller, const v1::AppendActionsRequest& request,
      const CancelCheck& cancel, LiveGame& live, store::GameRecord record, bool at_known_head);
  // Stores the "game_finished" event of a game whose last event is
  // `last_sequence`, recorded by the referee ("arbiter") under a request id
  // derived from the game alone, so that whoever notices first writes it
  // and a repeat is answered (append_actions.cc; Reveal uses it too). OK if
  // the game is already finished; the store's error otherwise.
  absl::Status RecordFinished(const std::string& game_id, const v1::GameCreated& created,
                              const v1::Adjudication& judged, int64_t last_sequence);
  // Remembers in judgements_ the game whose chain stated `before` as the
  // append `stored` began, as `live` judges it after `stored`
  // (append_actions.cc): only a game still live with its seed known, and
  // only if nothing of the game was heard of since `ticket` (taken before
  // the write) beyond `stored`.
  void RememberJudgement(const store::GameRecord& before, const LiveGame& live,
                         const store::AppendResult& stored,
                         const JudgementCache::ReadTicket& ticket);

  store::EventStore& store_;
  const engine::RulesetRegistry& registry_;
  const WriteLimits limits_;
  LeagueCheck* const leagues_;
  TournamentLeagues* const tournaments_;
  JudgementCache* judgements_ = nullptr;
  LiveGames live_;
};

}  // namespace arbiter::games

#endif  // ARBITER_SERVICES_GAMES_GAME_WRITER_H_
