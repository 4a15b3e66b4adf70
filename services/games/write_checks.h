// What GameWriter's write flows share (create_game.cc, append_actions.cc,
// submit_log.cc, reveal_seed.cc, void_and_correct.cc): the checks of
// request fields, the engine's answers turned into API errors, the limit
// and staleness refusals, and the store rows and requests every flow builds
// the same way. Each error's text is part of the API: clients and tests
// read it. Only the write flows include this header.
// Pure functions; thread-safe.
#ifndef ARBITER_SERVICES_GAMES_WRITE_CHECKS_H_
#define ARBITER_SERVICES_GAMES_WRITE_CHECKS_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "arbiter/v1/arbiter_service.pb.h"
#include "engine/core/violation.h"
#include "services/replay/referee.h"
#include "services/store/event_store.h"

namespace arbiter::games {

// OK if `request_id` is 1..store::kMaxIdBytes bytes; InvalidArgument with
// a field violation on "request_id" if not.
absl::Status CheckRequestId(const std::string& request_id);

// OK if `id` (a league or tournament a write names) is empty or a valid
// principal-shaped id; InvalidArgument with a field violation on `field` if
// not.
absl::Status CheckScopeId(const std::string& id, const char* field);

// The id of a game a write creates: `given`, or when it is empty the id
// derived from (principal, request id) (game_events.h DerivedGameId).
// InvalidArgument with a field violation on "game_id" if it is not a valid
// game id.
absl::StatusOr<std::string> GameIdToCreate(const std::string& given, const std::string& principal,
                                           const std::string& request_id);

// The game id in the resource name `name` of request field `field`
// ("games/<id>"). InvalidArgument with a field violation on `field` ("not
// a game name") if it is not one.
absl::StatusOr<std::string> GameIdOfName(const std::string& name, const std::string& field);

// A referee's header error ("line 1: ..."; without that prefix unless
// `keep_line`) as an error of request field `field`, same code.
absl::Status HeaderError(const absl::Status& status, const std::string& field, bool keep_line);

// The checks Referee::Apply makes before judging, for games whose seed is
// hidden (and for the evidence kept after a violation): the player is in
// the game, the action is of this game, and its fields lie in their
// domains. InvalidArgument naming event `event` if not.
absl::Status CheckShape(const replay::Referee& referee, const v1::Action& action, int64_t event);

// The refusal of action `index` of a request (event `event`, by `player`)
// that breaks a rule: InvalidArgument with ErrorInfo ILLEGAL_ACTION (rule,
// event, player, detail) and a field violation on "actions[<index>]".
absl::Status IllegalAction(const engine::Violation& violation, int64_t event,
                           const std::string& player, int index);

// ResourceExhausted with ErrorInfo EVENT_LIMIT: the game would have
// `would_have` events where the server allows `limit`.
absl::Status TooManyEvents(int64_t would_have, int64_t limit);

// Aborted with ErrorInfo STALE_EXPECTED_EVENT: the request expected the
// game at event `expected`, the game is at event `current`.
absl::Status StaleExpectedEvent(int64_t expected, int64_t current);

// FailedPrecondition: game `game_id` is `status` (finished or voided) and
// accepts no more actions.
absl::Status AcceptsNoMoreActions(const std::string& game_id, store::GameStatus status);

// The games row a creating write (CreateGame, SubmitGame) stores for the
// game whose event 1 is `created`: game, ruleset and players from its
// header; its seed, or its commitment when it has one; league and
// tournament from `created`; recorded as created by `created_by`; active.
store::GameRecord NewGameRecord(const std::string& game_id, const v1::GameCreated& created,
                                const std::string& created_by);

// A store append to `game_id` after event `expected_sequence`, recorded by
// `principal` under the store request id of (`kind`, game, principal,
// `client_request_id`) (game_events.h StoreRequestId); no events yet.
store::AppendRequest AppendTo(const std::string& game_id, int64_t expected_sequence,
                              const std::string& kind, const std::string& principal,
                              const std::string& client_request_id);

}  // namespace arbiter::games

#endif  // ARBITER_SERVICES_GAMES_WRITE_CHECKS_H_
