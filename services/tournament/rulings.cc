#include "services/tournament/rulings.h"

#include <algorithm>
#include <map>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/core/status_macros.h"
#include "engine/tournament/scoring.h"
#include "services/common/status_details.h"
#include "services/common/text_length.h"

namespace arbiter::tournament {

absl::Status DisputeClosed(const std::string& dispute_id, const v1::Ruling& ruling) {
  return absl::FailedPreconditionError(absl::StrCat(
      "dispute \"", dispute_id, "\" is closed: ruled ", RulingName(ruling.kind()),
      ruling.kind() == v1::RULING_KIND_CORRECTED ? " result" : "", " by ", ruling.ruled_by()));
}

absl::Status CheckRulingRequest(const v1::RuleDisputeRequest& request) {
  if (request.kind() != v1::RULING_KIND_UPHOLD && request.kind() != v1::RULING_KIND_VOID &&
      request.kind() != v1::RULING_KIND_CORRECTED) {
    return common::FieldError("kind", "kind is required: RULING_KIND_UPHOLD, _VOID or _CORRECTED");
  }
  ARBITER_RETURN_IF_ERROR(
      common::CheckText("reason", request.reason(), 1, common::kMaxReasonCharacters, "saying why"));
  return absl::OkStatus();
}

absl::Status CheckCorrected(const v1::RuleDisputeRequest& request, int seats) {
  if (request.kind() != v1::RULING_KIND_CORRECTED) {
    if (request.corrected().places_size() > 0 || request.corrected().game_points_size() > 0) {
      return common::FieldError("corrected", "corrected: only for RULING_KIND_CORRECTED");
    }
    return absl::OkStatus();
  }
  engine::tournament::TableResult corrected;
  corrected.kind = engine::tournament::TableResult::Kind::kPlayed;
  corrected.places.assign(request.corrected().places().begin(),
                          request.corrected().places().end());
  corrected.game_points.assign(request.corrected().game_points().begin(),
                               request.corrected().game_points().end());
  if (absl::Status s = engine::tournament::CheckResult(corrected, static_cast<size_t>(seats));
      !s.ok()) {
    return common::WithFieldViolation(s, "corrected", std::string(s.message()));
  }
  return absl::OkStatus();
}

bool AsksFor(const v1::RuleDisputeRequest& request, const std::string& principal,
             const v1::Ruling& ruling) {
  return request.kind() == ruling.kind() && request.reason() == ruling.reason() &&
         principal == ruling.ruled_by() &&
         std::equal(request.corrected().places().begin(), request.corrected().places().end(),
                    ruling.corrected().places().begin(), ruling.corrected().places().end()) &&
         std::equal(request.corrected().game_points().begin(),
                    request.corrected().game_points().end(),
                    ruling.corrected().game_points().begin(),
                    ruling.corrected().game_points().end());
}

std::vector<v1::StandingChange> StandingChanges(
    const std::vector<engine::tournament::StandingRow>& before,
    const std::vector<engine::tournament::StandingRow>& after) {
  std::map<std::string, const engine::tournament::StandingRow*> old_rows;
  for (const auto& row : before) old_rows[row.player] = &row;
  std::vector<v1::StandingChange> out;
  for (const auto& row : after) {
    const engine::tournament::StandingRow* old = old_rows[row.player];
    if (old != nullptr && old->rank == row.rank && old->points == row.points &&
        old->game_points == row.game_points) {
      continue;
    }
    v1::StandingChange& change = out.emplace_back();
    change.set_player(row.player);
    change.set_rank_before(old == nullptr ? 0 : old->rank);
    change.set_rank_after(row.rank);
    change.set_points_before(engine::tournament::FormatPoints(old == nullptr ? 0 : old->points));
    change.set_points_after(engine::tournament::FormatPoints(row.points));
    change.set_game_points_before(old == nullptr ? 0 : old->game_points);
    change.set_game_points_after(row.game_points);
  }
  return out;
}

std::string RulingGameReason(const std::string& dispute_id, const std::string& reason) {
  return absl::StrCat("dispute ", dispute_id, ": ", reason);
}

std::string RulingGameRequestId(const std::string& dispute_id) {
  return absl::StrCat("dispute-", dispute_id);
}

absl::Status CheckGameWrite(const std::string& dispute_id, const v1::RuleDisputeRequest& request) {
  if (request.kind() != v1::RULING_KIND_VOID) return absl::OkStatus();
  // The game's void reason is "dispute {id}: {reason}", within the same limit.
  const int64_t prefix = common::Utf8Length(RulingGameReason(dispute_id, "")).value_or(0);
  return common::CheckText("reason", request.reason(), 1, common::kMaxReasonCharacters - prefix,
                           "saying why the game is voided");
}

v1::Standings CorrectedStandings(const v1::TournamentTable& table,
                                 const v1::CorrectedResult& corrected) {
  v1::Standings standings;
  for (int i = 0; i < table.players_size(); ++i) {
    v1::PlayerStanding* seat = standings.add_players();
    seat->set_player(table.players(i));
    seat->set_seat(i + 1);
    seat->set_place(corrected.places(i));
    seat->set_score(corrected.game_points(i));
  }
  return standings;
}

absl::StatusOr<std::optional<store::StoredEvent>> FindRulingEvent(store::EventStore& events,
                                                                  const store::GameRecord& game,
                                                                  const std::string& dispute_id,
                                                                  v1::RulingKind kind) {
  constexpr int kTail = 1000;
  ARBITER_ASSIGN_OR_RETURN(
      std::vector<store::StoredEvent> tail,
      events.ReadGameEvents(game.game_id, std::max<int64_t>(0, game.last_sequence - kTail), kTail));
  const std::string mark = RulingGameReason(dispute_id, "");
  std::optional<store::StoredEvent> ruled;
  for (store::StoredEvent& event : tail) {
    if (kind == v1::RULING_KIND_VOID && event.type == store::kGameVoidedType) {
      v1::GameVoided voided;
      if (voided.ParseFromString(event.payload) && absl::StartsWith(voided.reason(), mark)) {
        ruled = std::move(event);
      }
    } else if (kind == v1::RULING_KIND_CORRECTED && event.type == store::kGameFinishedType) {
      v1::GameFinished finished;
      if (finished.ParseFromString(event.payload) &&
          absl::StartsWith(finished.correction(), mark)) {
        ruled = std::move(event);
      }
    }
  }
  return ruled;
}

}  // namespace arbiter::tournament
