// GameWriter::RecordReport: a result reported from a score sheet, ending a
// game that has not ended (docs/tournaments.md, "Score sheets").
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/core/status_macros.h"
#include "services/games/chained_game.h"
#include "services/games/dealer_reveal.h"
#include "services/games/game_events.h"
#include "services/games/game_writer.h"
#include "services/games/write_checks.h"

namespace arbiter::games {
namespace {

// The "action" events among events 1..`through` of `game_id`, and event 1's
// body. DataLoss if event 1 does not decode.
struct GameSoFar {
  v1::GameCreated created;
  int64_t actions = 0;
};

absl::StatusOr<GameSoFar> ReadSoFar(store::EventStore& store, const std::string& game_id,
                                    int64_t through) {
  GameSoFar out;
  int64_t after = 0;
  while (after < through) {
    ARBITER_ASSIGN_OR_RETURN(const std::vector<store::StoredEvent> batch,
                             store.ReadGameEvents(game_id, after, 1000));
    if (batch.empty()) break;
    for (const store::StoredEvent& e : batch) {
      if (e.sequence > through) break;
      if (e.sequence == 1 && !out.created.ParseFromString(e.payload)) {
        return absl::DataLossError(absl::StrCat("game \"", game_id, "\" has no readable event 1"));
      }
      if (e.type == kTypeAction) ++out.actions;
    }
    after = batch.back().sequence;
  }
  return out;
}

}  // namespace

absl::StatusOr<int64_t> GameWriter::RecordReport(const access::Caller& caller,
                                                 const std::string& game_id,
                                                 const v1::Standings& standings,
                                                 const v1::ReportedResult& reported,
                                                 const std::string& request_id) {
  LiveGames::Locked live = live_.Lock(game_id);
  ARBITER_ASSIGN_OR_RETURN(const store::GameRecord record, Writable(caller, game_id));
  // A game that is over takes no report, unless its last event is this
  // report (a retry): then it is asked again after the event before (or,
  // after a dealt game's reveal, the one before that).
  const bool over = record.status != store::GameStatus::kActive;
  absl::Status refused = absl::OkStatus();
  for (int back = over ? 1 : 0; back <= (over ? 2 : 0); ++back) {
    const int64_t after = record.last_sequence - back;
    if (after < 1) break;
    ARBITER_ASSIGN_OR_RETURN(const GameSoFar so_far, ReadSoFar(store_, game_id, after));
    v1::Adjudication judged;
    judged.set_verdict(v1::VERDICT_UNSPECIFIED);
    judged.set_actions(so_far.actions);
    *judged.mutable_standings() = standings;
    v1::GameFinished finished = FinishedBody(so_far.created, judged);
    *finished.mutable_reported() = reported;
    store::AppendRequest append = AppendTo(game_id, after, "report", caller.principal, request_id);
    ARBITER_ASSIGN_OR_RETURN(
        append.events, EndingEvents(store_, game_id, so_far.created, after, [&](int64_t number) {
          return EncodeGameFinished(game_id, number, finished);
        }));
    absl::StatusOr<store::AppendResult> result = store_.Append(append);
    if (result.ok()) {
      live->Forget();
      return result->last_sequence;
    }
    refused = result.status();
  }
  if (over) {
    return absl::FailedPreconditionError(absl::StrCat(
        "game \"", game_id, "\" is already ",
        record.status == store::GameStatus::kVoided ? "voided" : "over",
        ": a score sheet cannot replace its result; open a dispute on the table instead "
        "(arbiter dispute open)"));
  }
  return refused;
}

}  // namespace arbiter::games
