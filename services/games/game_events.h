// How a game lives in the event store: resource names, stored events and
// the seed commitment.
//
// Stored event grammar (stored: never renumber, never rename a type):
//   event 1        type "game_created"  payload = GameCreated
//   event 2, 3 ... type "action"        payload = Action
//                  type "seed_revealed" payload = SeedRevealed (at most once,
//                                        only in a game created with a
//                                        commitment)
//   dealt games (GameCreated.dealt), after event 1 and before any action:
//                  type "seat_value"    payload = SeatValueAdded (once per
//                                        seat, before "deal_closed")
//                  type "deal_closed"   payload = DealClosed (once; actions
//                                        only after it)
//   dealt games, just before game_finished or game_voided:
//                  type "dealer_revealed" payload = DealerRevealed (once)
//   last event     type "game_finished" payload = GameFinished (the game
//                                        ended; written in the batch of its
//                                        last action, or of the reveal)
//                  type "game_voided"   payload = GameVoided (after any of
//                                        the above; nothing follows it)
// Every payload is the message's deterministic protobuf serialization
// (arbiter_service.proto, action.proto); the event's JSON copy is the
// protobuf JSON mapping of the same message. Event ids are
//   "<first 32 hex digits of SHA-256(game id)>-<event number>"
// so a retried write produces the same events.
//
// Seed commitment: SHA-256 hex of "arbiter-seed-v1:" + decimal(seed) + ":" +
// nonce, where nonce is 32-128 lowercase hex digits.
// Pure functions; thread-safe.
#ifndef ARBITER_SERVICES_GAMES_GAME_EVENTS_H_
#define ARBITER_SERVICES_GAMES_GAME_EVENTS_H_

#include <cstdint>
#include <string>
#include <variant>

#include "absl/status/statusor.h"
#include "arbiter/v1/action.pb.h"
#include "arbiter/v1/arbiter_service.pb.h"
#include "engine/core/game.h"
#include "engine/core/viewer.h"
#include "services/store/event_store.h"

namespace arbiter::games {

inline constexpr char kTypeGameCreated[] = "game_created";
inline constexpr char kTypeAction[] = "action";
inline constexpr char kTypeSeedRevealed[] = "seed_revealed";
inline constexpr char kTypeSeatValue[] = "seat_value";
inline constexpr char kTypeDealClosed[] = "deal_closed";
inline constexpr char kTypeDealerRevealed[] = "dealer_revealed";
// The recorder of "game_finished" events: the referee itself.
inline constexpr char kRefereePrincipal[] = "arbiter";

// A game id derived from a request id, for writes that name none:
// "g-" + 24 hex digits of SHA-256(principal, request id).
std::string DerivedGameId(const std::string& principal, const std::string& request_id);

// The store's request id for one write of `kind` ("create", "append",
// "reveal", "submit-N") by `principal` with the client's `request_id`.
std::string StoreRequestId(const std::string& kind, const std::string& game_id,
                           const std::string& principal, const std::string& request_id);

// The event id of event `number` of `game_id`.
std::string EventId(const std::string& game_id, int64_t number);

// Stored events for each body. InvalidArgument if the payload is larger than
// the store accepts.
absl::StatusOr<store::NewEvent> EncodeCreated(const std::string& game_id,
                                              const v1::GameCreated& created);
absl::StatusOr<store::NewEvent> EncodeAction(const std::string& game_id, int64_t number,
                                             const v1::Action& action);
absl::StatusOr<store::NewEvent> EncodeSeedRevealed(const std::string& game_id, int64_t number,
                                                   const v1::SeedRevealed& revealed);
absl::StatusOr<store::NewEvent> EncodeSeatValue(const std::string& game_id, int64_t number,
                                                const v1::SeatValueAdded& value);
absl::StatusOr<store::NewEvent> EncodeDealClosed(const std::string& game_id, int64_t number,
                                                 const v1::DealClosed& closed);
absl::StatusOr<store::NewEvent> EncodeDealerRevealed(const std::string& game_id, int64_t number,
                                                     const v1::DealerRevealed& revealed);

absl::StatusOr<store::NewEvent> EncodeGameFinished(const std::string& game_id, int64_t number,
                                                   const v1::GameFinished& finished);
absl::StatusOr<store::NewEvent> EncodeGameVoided(const std::string& game_id, int64_t number,
                                                 const v1::GameVoided& voided);

// The body of a game's "game_finished" event: the judgement, with what
// rankings need copied from the game's creation.
v1::GameFinished FinishedBody(const v1::GameCreated& created, const v1::Adjudication& judged);

// A stored event decoded into the API's Event (body, hashes, name).
// DataLoss naming the event if the type is unknown or the payload does not
// parse.
absl::StatusOr<v1::Event> DecodeEvent(const store::StoredEvent& stored);

// Removes from an event what only callers who see the seed may see
// (access::SeesSeed): the seed in event 1's header and the stored bytes that
// encode it, and the body and bytes of a seed_revealed or dealer_revealed
// event. Hashes and ids
// stay, so the chain can be checked once the game is finished.
void HideSeed(v1::Event& event);

// The players whose hands a reader sees in a live game: every one of them
// (admins, auditors, a game that is over), its own seat's (a player), none
// (spectators and the rest).
struct HandSight {
  bool all = false;
  std::vector<std::string> players;
  bool Sees(const std::string& player) const;
};
HandSight HandSightOf(const std::optional<engine::Viewer>& viewer,
                      const std::vector<std::string>& players);

// Cuts an action event down to what its table saw (engine::Game::OpenPart)
// for a reader who does not see its player's hand, and then drops the
// stored bytes that encode the whole action (hashes and ids stay, so the
// chain can be checked once the game is over). Other events are left as
// they are; `game` may be null (an unknown game: nothing to cut).
void HideHand(v1::Event& event, const engine::Game* game, const HandSight& sight);

// The commitment to (seed, nonce). InvalidArgument if the nonce is not
// 32-128 lowercase hex digits.
absl::StatusOr<std::string> SeedCommitment(uint64_t seed, const std::string& nonce);

}  // namespace arbiter::games

#endif  // ARBITER_SERVICES_GAMES_GAME_EVENTS_H_
