// GameWriter's RevealSeed flow (Reveal): the seed behind a game's
// commitment, checked against event 1, stored, and the game's result
// recorded when the revealed seed shows the game is over.
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "engine/core/status_macros.h"
#include "services/common/status_details.h"
#include "services/games/chained_game.h"
#include "services/games/dealt_game.h"
#include "services/games/game_events.h"
#include "services/games/game_views.h"
#include "services/games/game_writer.h"
#include "services/games/sealed_seed.h"
#include "services/games/write_checks.h"

namespace arbiter::games {
namespace {

// OK if (seed, nonce) opens the commitment of game `game_id` (event 1
// `created`). FailedPrecondition for a game created with its seed;
// InvalidArgument with ErrorInfo SEED_MISMATCH and a field violation on
// "seed" if they do not open it.
absl::Status CheckOpensCommitment(const std::string& game_id, const v1::GameCreated& created,
                                  uint64_t seed, const std::string& nonce) {
  if (created.seed_commitment().empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat("game \"", game_id, "\" was created with its seed; there is nothing to reveal"));
  }
  if (IsDealt(created)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "game \"", game_id, "\" is dealt by the server: there is no seed to reveal; the server "
        "records its secret when the game ends or is voided"));
  }
  ARBITER_ASSIGN_OR_RETURN(const std::string commitment,
                           ExpectedCommitment(game_id, created, seed, nonce));
  if (commitment == created.seed_commitment()) return absl::OkStatus();
  absl::Status status = absl::InvalidArgumentError(absl::StrCat(
      "the seed and nonce do not match the commitment of game \"", game_id, "\": SHA-256(\"",
      IsSealed(created) ? absl::StrCat("arbiter-seed-v2:", game_id, ":") : "arbiter-seed-v1:",
      "<seed>:<nonce>\") is ", commitment, ", the commitment is ", created.seed_commitment()));
  status = common::WithErrorInfo(std::move(status), "SEED_MISMATCH",
                                 {{"commitment", created.seed_commitment()}, {"computed", commitment}});
  return common::WithFieldViolation(std::move(status), "seed", "does not match the commitment");
}

// The answer to a reveal of a seed already revealed (the same seed: the
// commitment matched), as the first time.
absl::StatusOr<v1::RevealSeedResponse> AnswerAgain(const engine::RulesetRegistry& registry,
                                                   const LoadedGame& game,
                                                   const CancelCheck& cancel) {
  ARBITER_ASSIGN_OR_RETURN(const replay::Referee referee, Judge(game, registry, 0, cancel));
  v1::RevealSeedResponse out;
  *out.mutable_game() = ToGame(game.record, &game.created, true);
  *out.mutable_adjudication() =
      ToAdjudication(game.record.game_id, referee, game.record.last_sequence);
  return out;
}

}  // namespace

absl::StatusOr<v1::RevealSeedResponse> GameWriter::Reveal(const access::Caller& caller,
                                                          const v1::RevealSeedRequest& request,
                                                          const CancelCheck& cancel) {
  ARBITER_ASSIGN_OR_RETURN(const std::string game_id, GameIdOfName(request.game(), "game"));
  ARBITER_RETURN_IF_ERROR(CheckRequestId(request.request_id()));
  if (absl::StatusOr<std::string> commitment = SeedCommitment(request.seed(), request.nonce());
      !commitment.ok()) {
    return common::WithFieldViolation(commitment.status(), "nonce",
                                      std::string(commitment.status().message()));
  }

  LiveGames::Locked live = live_.Lock(game_id);
  ARBITER_RETURN_IF_ERROR(Writable(caller, game_id).status());
  // The commitment, its format and the deadline come from event 1.
  ARBITER_ASSIGN_OR_RETURN(LoadedGame game, LoadGame(store_, game_id, cancel));
  ARBITER_RETURN_IF_ERROR(
      CheckOpensCommitment(game_id, game.created, request.seed(), request.nonce()));
  if (game.revealed.has_value()) return AnswerAgain(registry_, game, cancel);
  if (game.record.status != store::GameStatus::kActive) {
    return absl::FailedPreconditionError(absl::StrCat("game \"", game_id, "\" is ",
                                                      store::GameStatusName(game.record.status)));
  }
  ARBITER_RETURN_IF_ERROR(CheckRevealDeadline(game_id, game.created, absl::Now()));

  v1::SeedRevealed revealed;
  revealed.set_seed(request.seed());
  revealed.set_nonce(request.nonce());
  game.revealed = revealed;
  game.seed = EngineSeed(game_id, game.created, game.revealed);
  ARBITER_ASSIGN_OR_RETURN(const replay::Referee referee, Judge(game, registry_, 0, cancel));
  ARBITER_ASSIGN_OR_RETURN(
      store::NewEvent event,
      EncodeSeedRevealed(game_id, game.record.last_sequence + 1, revealed));
  store::AppendRequest append = AppendTo(game_id, game.record.last_sequence, "reveal",
                                         caller.principal, request.request_id());
  append.events.push_back(std::move(event));
  live->Forget();
  ARBITER_ASSIGN_OR_RETURN(const store::AppendResult result, store_.Append(append));
  const v1::Adjudication judged = ToAdjudication(game_id, referee, result.last_sequence);
  if (referee.verdict() != replay::Verdict::kUnfinished) {
    ARBITER_RETURN_IF_ERROR(RecordFinished(game_id, game.created, judged, result.last_sequence));
  }
  ARBITER_ASSIGN_OR_RETURN(const store::GameRecord now, ChainedRecord(store_, game_id));
  v1::RevealSeedResponse out;
  *out.mutable_game() = ToGame(now, &game.created, true);
  *out.mutable_adjudication() = judged;
  return out;
}

}  // namespace arbiter::games
