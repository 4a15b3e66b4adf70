// GameWriter's flows of a dealt game's deal (dealt_game.h): a seat adds its
// value (AddSeatValue), an organiser closes the deal (CloseDeal). Each
// stores its events after the game's last one; a repeat of a write that is
// stored already is answered with the game.
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/core/dealer_seed.h"
#include "engine/core/status_macros.h"
#include "services/common/status_details.h"
#include "services/games/chained_game.h"
#include "services/games/dealt_game.h"
#include "services/games/game_events.h"
#include "services/games/game_views.h"
#include "services/games/game_writer.h"
#include "services/games/write_checks.h"

namespace arbiter::games {
namespace {

// FailedPrecondition unless `game` is a dealt game in play whose deal is
// open; `what` says what was asked ("add a seat value", "close the deal").
absl::Status RequireOpenDeal(const LoadedGame& game, const std::string& what) {
  const std::string& game_id = game.record.game_id;
  if (!IsDealt(game.created)) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot ", what, ": game \"", game_id,
                     "\" is not dealt by the server (it was created with ",
                     game.created.seed_commitment().empty() ? "its seed" : "a seed commitment",
                     "; create one with `arbiter deal create` for the server to deal)"));
  }
  if (game.record.status != store::GameStatus::kActive) {
    return absl::FailedPreconditionError(absl::StrCat("cannot ", what, ": game \"", game_id,
                                                      "\" is ",
                                                      store::GameStatusName(game.record.status)));
  }
  if (game.deal.closed) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot ", what, ": the deal of game \"", game_id,
                     "\" is closed and takes no more values"));
  }
  return absl::OkStatus();
}

// The stored event of `type` whose body names `player` (for seat values)
// or, for a closing, the closing; nullptr if none.
const store::StoredEvent* StoredOf(const LoadedGame& game, const std::string& type,
                                   const std::string& player) {
  for (size_t i = 0; i < game.stored.size(); ++i) {
    if (game.stored[i].type != type) continue;
    if (type == kTypeSeatValue && game.events[i].seat_value().player() != player) continue;
    return &game.stored[i];
  }
  return nullptr;
}

v1::Game Answer(const LoadedGame& game) {
  v1::Game out = ToGame(game.record, &game.created, false);
  DescribeDeal(game.created, game.deal, out);
  return out;
}

}  // namespace

absl::StatusOr<v1::Game> GameWriter::AddSeatValue(const access::Caller& caller,
                                                  const v1::AddSeatValueRequest& request,
                                                  const CancelCheck& cancel) {
  ARBITER_ASSIGN_OR_RETURN(const std::string game_id, GameIdOfName(request.game(), "game"));
  ARBITER_RETURN_IF_ERROR(CheckRequestId(request.request_id()));
  if (absl::Status s = engine::CheckSeatValue(request.value()); !s.ok()) {
    return common::WithFieldViolation(s, "value", std::string(s.message()));
  }
  LiveGames::Locked live = live_.Lock(game_id);
  if (caller.role != store::Role::kPlayer) {
    return absl::PermissionDeniedError(absl::StrCat(
        "only a player adds a value to a deal, for its own seat: use the token of a player of "
        "game \"", game_id, "\" (arbiter token create --role player --principal PLAYER --game ",
        game_id, ")"));
  }
  if (!access::MayPlayIn(caller, game_id)) {
    return access::RequirePlayerWrite(caller, game_id, nullptr);
  }
  absl::StatusOr<store::GameRecord> record = ConfirmedChainedRecord(store_, game_id);
  if (!record.ok() && !absl::IsNotFound(record.status())) return record.status();
  ARBITER_RETURN_IF_ERROR(
      access::RequirePlayerWrite(caller, game_id, record.ok() ? &*record : nullptr));
  ARBITER_ASSIGN_OR_RETURN(LoadedGame game, LoadGame(store_, *record, cancel));
  if (const store::StoredEvent* added = StoredOf(game, kTypeSeatValue, caller.principal)) {
    v1::SeatValueAdded earlier;
    if (earlier.ParseFromString(added->payload) && earlier.value() == request.value() &&
        added->recorded_by == caller.principal) {
      return Answer(game);  // a repeat
    }
    return absl::FailedPreconditionError(
        absl::StrCat("seat \"", caller.principal, "\" added its value to the deal of game \"",
                     game_id, "\" at event ", added->sequence, "; a seat adds one value"));
  }
  ARBITER_RETURN_IF_ERROR(RequireOpenDeal(game, "add a seat value"));

  v1::SeatValueAdded added;
  added.set_player(caller.principal);
  added.set_value(request.value());
  const int64_t last = game.record.last_sequence;
  store::AppendRequest append =
      AppendTo(game_id, last, "seat-value", caller.principal, request.request_id());
  ARBITER_ASSIGN_OR_RETURN(store::NewEvent event, EncodeSeatValue(game_id, last + 1, added));
  append.events.push_back(std::move(event));
  Deal after = game.deal;
  after.values[caller.principal] = request.value();
  if (AwaitingSeatValues(game.created, after).empty()) {
    ARBITER_ASSIGN_OR_RETURN(store::NewEvent closed,
                             EncodeDealClosed(game_id, last + 2, ClosingOf(game.created, after)));
    append.events.push_back(std::move(closed));
  }
  live->Forget();
  ARBITER_RETURN_IF_ERROR(store_.Append(append).status());
  ARBITER_ASSIGN_OR_RETURN(const LoadedGame now, LoadGame(store_, game_id, cancel));
  return Answer(now);
}

absl::StatusOr<v1::Game> GameWriter::CloseDeal(const access::Caller& caller,
                                               const v1::CloseDealRequest& request,
                                               const CancelCheck& cancel) {
  ARBITER_ASSIGN_OR_RETURN(const std::string game_id, GameIdOfName(request.game(), "game"));
  ARBITER_RETURN_IF_ERROR(CheckRequestId(request.request_id()));
  LiveGames::Locked live = live_.Lock(game_id);
  ARBITER_ASSIGN_OR_RETURN(const store::GameRecord record, Writable(caller, game_id));
  ARBITER_ASSIGN_OR_RETURN(LoadedGame game, LoadGame(store_, record, cancel));
  if (const store::StoredEvent* closed = StoredOf(game, kTypeDealClosed, "");
      closed != nullptr && closed->recorded_by == caller.principal) {
    return Answer(game);  // a repeat, or closed by the same organiser
  }
  ARBITER_RETURN_IF_ERROR(RequireOpenDeal(game, "close the deal"));
  const int64_t last = game.record.last_sequence;
  store::AppendRequest append =
      AppendTo(game_id, last, "close-deal", caller.principal, request.request_id());
  ARBITER_ASSIGN_OR_RETURN(store::NewEvent event,
                           EncodeDealClosed(game_id, last + 1, ClosingOf(game.created, game.deal)));
  append.events.push_back(std::move(event));
  live->Forget();
  ARBITER_RETURN_IF_ERROR(store_.Append(append).status());
  ARBITER_ASSIGN_OR_RETURN(const LoadedGame now, LoadGame(store_, game_id, cancel));
  return Answer(now);
}

}  // namespace arbiter::games
