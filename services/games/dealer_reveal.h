// The dealer's reveal of a dealt game (dealt_game.h): the "dealer_revealed"
// event that every write ending or voiding a dealt game puts just before its
// game_finished or game_voided, in the same append, so that a dealt game
// is never over without its secret in the log.
// Thread-safe (reads the store).
#ifndef ARBITER_SERVICES_GAMES_DEALER_REVEAL_H_
#define ARBITER_SERVICES_GAMES_DEALER_REVEAL_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "arbiter/v1/arbiter_service.pb.h"
#include "services/store/event_store.h"

namespace arbiter::games {

// For a dealt game whose events through `after` do not reveal the secret:
// the dealer_revealed event numbered after + 1, holding the secret the store
// keeps (the ending event is then numbered after + 2). nullopt for any
// other game. DataLoss if the store keeps no secret for the game.
absl::StatusOr<std::optional<store::NewEvent>> DealerRevealAfter(store::EventStore& store,
                                                                 const std::string& game_id,
                                                                 const v1::GameCreated& created,
                                                                 int64_t after);

// The events that end game `game_id` after event `after`: its dealer's
// reveal (DealerRevealAfter) if it needs one, then `ending` encoded at the
// number that follows.
template <typename Encode>
absl::StatusOr<std::vector<store::NewEvent>> EndingEvents(store::EventStore& store,
                                                          const std::string& game_id,
                                                          const v1::GameCreated& created,
                                                          int64_t after, Encode ending) {
  std::vector<store::NewEvent> out;
  absl::StatusOr<std::optional<store::NewEvent>> reveal =
      DealerRevealAfter(store, game_id, created, after);
  if (!reveal.ok()) return reveal.status();
  if (reveal->has_value()) out.push_back(**std::move(reveal));
  absl::StatusOr<store::NewEvent> last = ending(after + 1 + static_cast<int64_t>(out.size()));
  if (!last.ok()) return last.status();
  out.push_back(*std::move(last));
  return out;
}

}  // namespace arbiter::games

#endif  // ARBITER_SERVICES_GAMES_DEALER_REVEAL_H_
