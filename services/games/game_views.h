// The API's views of a game: its row and creation as a v1::Game, its
// status, and what a referee judged as an Adjudication, a Verdict or the
// GameState after an event. Every reading and writing flow answers with
// these, so a game looks the same whichever RPC returns it.
// Pure functions; thread-safe.
#ifndef ARBITER_SERVICES_GAMES_GAME_VIEWS_H_
#define ARBITER_SERVICES_GAMES_GAME_VIEWS_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "arbiter/v1/arbiter_service.pb.h"
#include "engine/core/viewer.h"
#include "services/replay/referee.h"
#include "services/store/event_store.h"

namespace arbiter::games {

// The API's adjudication of a judged game, through `last_event`.
v1::Adjudication ToAdjudication(const std::string& game_id, const replay::Referee& referee,
                                int64_t last_event);
// The API's verdict (VERDICT_UNSPECIFIED for a value it does not know).
v1::Verdict ToVerdict(replay::Verdict verdict);

// The API's view of a game row; `created` (may be null) adds the players,
// options, reveal deadline and server random of event 1. `show_seed`
// decides whether the seed is included (access/permissions.h SeesSeed).
v1::Game ToGame(const store::GameRecord& record, const v1::GameCreated* created, bool show_seed);
// The API's status (GAME_STATUS_UNSPECIFIED for kUnspecified).
v1::GameStatus ToStatus(store::GameStatus status);

// The position after `event` of a judged game, as `viewer` may see it
// (engine/core/viewer.h): for anyone but everyone, the other hands only by
// size, and a violation's detail (which may describe hidden cards) withheld.
v1::GameState ToGameState(const std::string& game_id, const replay::Referee& referee,
                          int64_t event, const engine::Viewer& viewer);

// The legal actions of the seat of `player` in the position `referee`
// holds after `last_event`, each with its player set, group and label
// (engine State::LegalActionsFor). None once the game is over or illegal.
// InvalidArgument (field "player") if the game seats no such player.
absl::StatusOr<v1::ListLegalActionsResponse> ToLegalActions(const std::string& game_id,
                                                           const replay::Referee& referee,
                                                           int64_t last_event,
                                                           const std::string& player);

}  // namespace arbiter::games

#endif  // ARBITER_SERVICES_GAMES_GAME_VIEWS_H_
