// GameWriter's flows that end or amend a game by ruling: VoidGame (Void)
// and a corrected result (RecordCorrection, for disputes); and the
// permission check of every write to an existing game (Writable).
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/core/status_macros.h"
#include "services/common/status_details.h"
#include "services/common/text_length.h"
#include "services/games/chained_game.h"
#include "services/games/dealer_reveal.h"
#include "services/games/game_events.h"
#include "services/games/game_views.h"
#include "services/games/game_writer.h"
#include "services/games/write_checks.h"

namespace arbiter::games {
namespace {

// Stores `voided` as the game's last event (after a dealt game's reveal,
// dealer_reveal.h), or, for a game already voided, asks again as a retry of
// the void that is its last event (written after the event before it, or,
// with a reveal, the one before that). FailedPrecondition if the game was
// voided by another request.
absl::StatusOr<store::AppendResult> StoreVoid(store::EventStore& store,
                                              const store::GameRecord& record,
                                              const v1::GameCreated& created,
                                              const v1::GameVoided& voided,
                                              store::AppendRequest append) {
  const std::string& game_id = record.game_id;
  auto encode = [&](int64_t number) { return EncodeGameVoided(game_id, number, voided); };
  ARBITER_ASSIGN_OR_RETURN(append.events,
                           EndingEvents(store, game_id, created, record.last_sequence, encode));
  absl::StatusOr<store::AppendResult> result = store.Append(append);
  if (result.ok() || record.status != store::GameStatus::kVoided) return result;
  // Perhaps a retry: the void is the game's last event.
  for (int64_t back = 1; back <= 2 && !result.ok() && record.last_sequence - back >= 1; ++back) {
    append.expected_sequence = record.last_sequence - back;
    ARBITER_ASSIGN_OR_RETURN(append.events,
                             EndingEvents(store, game_id, created, append.expected_sequence, encode));
    result = store.Append(append);
  }
  if (!result.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat("game \"", game_id, "\" is already voided"));
  }
  return result;
}

// Event 1 of `game_id`, read alone. DataLoss if there is none or it does
// not decode.
absl::StatusOr<v1::GameCreated> CreationOfGame(store::EventStore& store,
                                               const std::string& game_id) {
  ARBITER_ASSIGN_OR_RETURN(const std::vector<store::StoredEvent> first,
                           store.ReadGameEvents(game_id, 0, 1));
  v1::GameCreated created;
  if (first.empty() || !created.ParseFromString(first.front().payload)) {
    return absl::DataLossError(absl::StrCat("game \"", game_id, "\" has no readable event 1"));
  }
  return created;
}

}  // namespace

absl::StatusOr<store::GameRecord> GameWriter::Writable(const access::Caller& caller,
                                                        const std::string& game_id) {
  // Permission before existence (AIP-211): a caller who could not write to
  // the game gets the same answer whether or not it exists.
  ARBITER_RETURN_IF_ERROR(access::RequireWriteRole(caller));
  absl::StatusOr<store::GameRecord> record = ConfirmedChainedRecord(store_, game_id);
  if (!record.ok()) {
    if (absl::IsNotFound(record.status()) && caller.role != store::Role::kAdmin) {
      return access::WriteDenied(caller, game_id);
    }
    return record.status();
  }
  if (caller.role == store::Role::kAdmin || access::InScope(caller, *record)) return record;
  ARBITER_ASSIGN_OR_RETURN(const std::string creator, CreatorTokenOf(store_, game_id));
  ARBITER_RETURN_IF_ERROR(access::RequireWrite(caller, *record, creator));
  return record;
}

absl::StatusOr<v1::Game> GameWriter::Void(const access::Caller& caller,
                                          const v1::VoidGameRequest& request) {
  ARBITER_ASSIGN_OR_RETURN(const std::string game_id, GameIdOfName(request.name(), "name"));
  ARBITER_RETURN_IF_ERROR(CheckRequestId(request.request_id()));
  ARBITER_RETURN_IF_ERROR(common::CheckText("reason", request.reason(), 1, common::kMaxReasonCharacters,
                                            "saying why the game is voided"));
  LiveGames::Locked live = live_.Lock(game_id);
  ARBITER_ASSIGN_OR_RETURN(const store::GameRecord record, Writable(caller, game_id));
  v1::GameVoided voided;
  voided.set_reason(request.reason());
  voided.set_league(record.league_id);
  voided.set_tournament(record.tournament_id);
  ARBITER_ASSIGN_OR_RETURN(const v1::GameCreated created, CreationOfGame(store_, game_id));
  store::AppendRequest append =
      AppendTo(game_id, record.last_sequence, "void", caller.principal, request.request_id());
  live->Forget();
  ARBITER_RETURN_IF_ERROR(StoreVoid(store_, record, created, voided, std::move(append)).status());
  ARBITER_ASSIGN_OR_RETURN(const LoadedGame game,
                           LoadGame(store_, game_id, [] { return absl::OkStatus(); }));
  return ToGame(game.record, &game.created, access::SeesSeed(caller, game.record));
}

absl::StatusOr<int64_t> GameWriter::RecordCorrection(const access::Caller& caller,
                                                     const std::string& game_id,
                                                     const v1::Standings& standings,
                                                     const std::string& correction,
                                                     const std::string& request_id) {
  LiveGames::Locked live = live_.Lock(game_id);
  ARBITER_ASSIGN_OR_RETURN(const store::GameRecord record, Writable(caller, game_id));
  ARBITER_ASSIGN_OR_RETURN(const v1::GameCreated created, CreationOfGame(store_, game_id));
  v1::Adjudication judged;
  judged.set_verdict(v1::VERDICT_LEGAL);
  *judged.mutable_standings() = standings;
  v1::GameFinished finished = FinishedBody(created, judged);
  finished.set_correction(correction);
  // A retry finds its event stored: the store answers it again whatever the
  // game's last sequence now is, so ask for the one it was written after
  // (the event before it, or, after a dealt game's reveal, the one before).
  store::AppendRequest append =
      AppendTo(game_id, record.last_sequence, "correct", caller.principal, request_id);
  for (int back = 0; back <= 2 && record.last_sequence - back >= 1; ++back) {
    append.expected_sequence = record.last_sequence - back;
    ARBITER_ASSIGN_OR_RETURN(
        append.events,
        EndingEvents(store_, game_id, created, append.expected_sequence, [&](int64_t number) {
          return EncodeGameFinished(game_id, number, finished);
        }));
    absl::StatusOr<store::AppendResult> result = store_.Append(append);
    if (result.ok()) {
      live->Forget();
      return result->last_sequence;
    }
    // The same request id with other content: perhaps written before,
    // after what was then the game's last event.
    if (!absl::IsInvalidArgument(result.status())) return result.status();
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "request id \"", request_id, "\" was already used for a different correction"));
}

}  // namespace arbiter::games
