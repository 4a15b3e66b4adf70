// The API's views of a game: its row and creation as a v1::Game, its
// status, and what a referee judged as an Adjudication, a Verdict or the
// GameState after an event. Every reading and writing flow answers with
// these, so a game looks the same whichever RPC returns it.
// Pure functions; thread-safe.
#ifndef ARBITER_SERVICES_GAMES_GAME_VIEWS_H_
#define ARBITER_SERVICES_GAMES_GAME_VIEWS_H_

#include <cstdint>
#include <string>

#include "arbiter/v1/arbiter_service.pb.h"
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

// The position after `event` of a judged game.
v1::GameState ToGameState(const std::string& game_id, const replay::Referee& referee,
                          int64_t event);

}  // namespace arbiter::games

#endif  // ARBITER_SERVICES_GAMES_GAME_VIEWS_H_
