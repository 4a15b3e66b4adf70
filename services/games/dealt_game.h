// Dealt games (CreateGame with `deal`): the server is the dealer. Event 1
// holds the commitment to the server's secret (as seed_commitment, with
// `dealt` set); each seat adds a value ("seat_value") until the deal closes
// ("deal_closed"); the engine's seed is derived from the secret, the game id
// and the values (engine/core/dealer_seed.h); the secret is recorded
// ("dealer_revealed") just before the game's game_finished or game_voided.
// docs/chance.md, "Dealt games", states the scheme and what it proves.
//
// Here: the deal as a game's events state it, checked event by event, and
// the seed it gives, and the drawing of the server's secrets. Pure functions
// but DrawDealerSecret; thread-safe.
#ifndef ARBITER_SERVICES_GAMES_DEALT_GAME_H_
#define ARBITER_SERVICES_GAMES_DEALT_GAME_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "arbiter/v1/arbiter_service.pb.h"

namespace arbiter::games {

// A new secret for the server as dealer (a dealt game's, or a tournament's
// drawn lot's): engine::kDealerSecretBytes from OpenSSL's generator.
// Internal if none can be drawn.
absl::StatusOr<std::string> DrawDealerSecret();

// True if event 1 makes the game dealt.
bool IsDealt(const v1::GameCreated& created);

// A dealt game's deal so far.
struct Deal {
  std::map<std::string, std::string> values;  // player id -> the value it added
  bool closed = false;
  std::optional<std::string> revealed_secret;  // from the dealer_revealed event
};

// Folds a game's events, in order from event 1, into its deal, checking
// the grammar of dealt games (game_events.h). Every refusal is DataLoss
// naming the event and what does not hold: a seat value in a game that is
// not dealt, after the deal closed, twice for one seat, for a player
// without a seat, or not well-formed; a second deal_closed or one whose
// absent seats are not the seats without a value; an action before the
// deal closed; a dealer_revealed that is not the first, or whose secret
// does not open event 1's commitment.
class DealTracker {
 public:
  explicit DealTracker(std::string game_id) : game_id_(std::move(game_id)) {}
  absl::Status Add(const v1::Event& event);
  const Deal& deal() const { return deal_; }
  const v1::GameCreated& created() const { return created_; }

 private:
  absl::Status AddSeatValue(const v1::Event& event);
  absl::Status AddDealClosed(const v1::Event& event);
  absl::Status AddReveal(const v1::Event& event);

  std::string game_id_;
  v1::GameCreated created_;
  Deal deal_;
};

// The players of a dealt game who have added no value, in seat order.
std::vector<std::string> AwaitingSeatValues(const v1::GameCreated& created, const Deal& deal);

// The absent seats a deal_closed event records when the deal closes now.
v1::DealClosed ClosingOf(const v1::GameCreated& created, const Deal& deal);

// The engine's seed of a dealt game: derived once the deal is closed, from
// the revealed secret or else `kept_secret` (the server's, during play);
// nullopt while the deal is open or no secret is known.
std::optional<uint64_t> DealtSeed(const std::string& game_id, const v1::GameCreated& created,
                                  const Deal& deal,
                                  const std::optional<std::string>& kept_secret);

// Sets the deal's state in an answer about a dealt game: deal_closed and,
// while it is open, awaiting_seat_values. Nothing for other games.
void DescribeDeal(const v1::GameCreated& created, const Deal& deal, v1::Game& out);

// The deal of a dealt game from its first events (the seat values and the
// closing come before any action: the first players + 2 events hold them).
// DataLoss as DealTracker.
absl::StatusOr<Deal> DealOfOpening(const std::string& game_id,
                                   const std::vector<v1::Event>& opening);

// FailedPrecondition for a dealt game whose deal is open: who has not added
// a value, and the commands that add one or close the deal.
absl::Status DealStillOpen(const std::string& game_id, const v1::GameCreated& created,
                           const Deal& deal);

}  // namespace arbiter::games

#endif  // ARBITER_SERVICES_GAMES_DEALT_GAME_H_
