#include "services/games/dealer_reveal.h"

#include "absl/strings/str_cat.h"
#include "engine/core/status_macros.h"
#include "services/games/dealt_game.h"
#include "services/games/game_events.h"

namespace arbiter::games {

absl::StatusOr<std::optional<store::NewEvent>> DealerRevealAfter(store::EventStore& store,
                                                                 const std::string& game_id,
                                                                 const v1::GameCreated& created,
                                                                 int64_t after) {
  if (!IsDealt(created)) return std::optional<store::NewEvent>();
  ARBITER_ASSIGN_OR_RETURN(const std::optional<store::StoredEvent> earlier,
                           store.FindGameEvent(game_id, kTypeDealerRevealed, 0, after));
  if (earlier.has_value()) return std::optional<store::NewEvent>();
  ARBITER_ASSIGN_OR_RETURN(const std::optional<std::string> secret, store.DealerSecret(game_id));
  if (!secret.has_value()) {
    return absl::DataLossError(absl::StrCat("the dealer's secret of game \"", game_id,
                                            "\" is not kept by the store: the game cannot end "
                                            "with its deal revealed"));
  }
  v1::DealerRevealed revealed;
  revealed.set_secret(*secret);
  ARBITER_ASSIGN_OR_RETURN(store::NewEvent event,
                           EncodeDealerRevealed(game_id, after + 1, revealed));
  return std::optional<store::NewEvent>(std::move(event));
}

}  // namespace arbiter::games
