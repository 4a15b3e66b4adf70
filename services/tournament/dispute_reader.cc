#include "services/tournament/dispute_reader.h"

#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/core/status_macros.h"
#include "services/common/proto_time.h"
#include "services/common/resource_names.h"
#include "services/common/status_details.h"
#include "services/league/league_model.h"
#include "services/tournament/rulings.h"
#include "services/tournament/tournament_log.h"

namespace arbiter::tournament {
namespace {

absl::Status Undecodable(const std::string& dispute_id, const store::StreamEvent& event) {
  return absl::DataLossError(
      absl::StrCat("dispute \"", dispute_id, "\" event ", event.sequence, " does not decode"));
}

// Folds one of the dispute's events into `out`.
absl::Status FoldDisputeEvent(const std::string& dispute_id, const store::StreamEvent& event,
                              v1::Dispute& out) {
  if (event.type == kTypeDisputeOpened) {
    v1::DisputeOpened opened;
    if (!opened.ParseFromString(event.payload)) return Undecodable(dispute_id, event);
    out.set_tournament(common::NameOf(common::IdKind::kTournament, opened.tournament()));
    out.set_round(opened.round());
    out.set_table(opened.table());
    out.set_game(opened.game());
    out.set_event(opened.event());
    out.set_reason(opened.reason());
    out.set_opened_by(event.recorded_by);
    *out.mutable_open_time() = common::TimestampOf(event.recorded_at);
    *out.mutable_adjudication() = opened.adjudication();
  } else if (event.type == kTypeDisputeRuled) {
    v1::DisputeRuled ruled;
    if (!ruled.ParseFromString(event.payload)) return Undecodable(dispute_id, event);
    out.set_state(v1::DISPUTE_STATE_RULED);
    *out.mutable_ruling() = ruled.ruling();
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<v1::Dispute> ReadDispute(store::StreamStore& streams,
                                        const std::string& dispute_id) {
  absl::StatusOr<store::StreamRecord> stream =
      streams.GetStream(common::NameOf(common::IdKind::kDispute, dispute_id));
  if (!stream.ok() || stream->kind != kDisputeKind) {
    if (!stream.ok() && !absl::IsNotFound(stream.status())) return stream.status();
    return absl::NotFoundError(absl::StrCat("dispute \"", dispute_id, "\" does not exist"));
  }
  ARBITER_ASSIGN_OR_RETURN(const std::vector<store::StreamEvent> events,
                           streams.ReadStream(stream->stream_id, 0, 100));
  v1::Dispute out;
  out.set_name(common::NameOf(common::IdKind::kDispute, dispute_id));
  out.set_state(v1::DISPUTE_STATE_OPEN);
  for (const store::StreamEvent& event : events) {
    ARBITER_RETURN_IF_ERROR(FoldDisputeEvent(dispute_id, event, out));
  }
  out.set_last_event(stream->last_sequence);
  out.set_last_event_hash(stream->last_hash);
  return out;
}

absl::Status AddRatingChanges(store::EventStore& events, store::ResultIndex& results,
                              store::StreamStore& streams, const std::string& dispute_id,
                              v1::Dispute& dispute) {
  const v1::RulingKind kind = dispute.ruling().kind();
  if (dispute.state() != v1::DISPUTE_STATE_RULED ||
      (kind != v1::RULING_KIND_VOID && kind != v1::RULING_KIND_CORRECTED)) {
    return absl::OkStatus();
  }
  ARBITER_ASSIGN_OR_RETURN(const store::GameRecord record,
                           events.GetGame(common::IdOf(common::IdKind::kGame, dispute.game())));
  if (record.league_id.empty()) return absl::OkStatus();
  // The ruling's event: the game's void or corrected result that names this
  // dispute (none if the game was voided before the ruling).
  ARBITER_ASSIGN_OR_RETURN(const std::optional<store::StoredEvent> ruled,
                           FindRulingEvent(events, record, dispute_id, kind));
  if (!ruled.has_value()) return absl::OkStatus();
  absl::StatusOr<std::vector<v1::RatingChange>> changes =
      league::RatingChangesAt(results, streams, record.league_id, ruled->position);
  if (!changes.ok()) {
    if (absl::IsNotFound(changes.status())) return absl::OkStatus();  // no such league
    return changes.status();
  }
  dispute.set_rating_event(absl::StrCat(dispute.game(), "/events/", ruled->sequence));
  for (v1::RatingChange& change : *changes) *dispute.add_rating_changes() = std::move(change);
  return absl::OkStatus();
}

absl::StatusOr<v1::ListDisputesResponse> ListDisputes(store::StreamStore& streams,
                                                      const v1::ListDisputesRequest& request) {
  if (request.page_size() < 0 || request.page_size() > 1000) {
    return common::FieldError("page_size", "page_size must be 0-1000");
  }
  const int size = request.page_size() == 0 ? 100 : request.page_size();
  std::string after;
  if (!request.page_token().empty()) {
    if (!common::ParseName(common::IdKind::kDispute, request.page_token(), "page_token").ok()) {
      return common::FieldError("page_token", "page_token: not a token from a previous page");
    }
    after = request.page_token();
  }
  v1::ListDisputesResponse response;
  while (true) {
    ARBITER_ASSIGN_OR_RETURN(const std::vector<store::StreamRecord> page,
                             streams.ListStreams(kDisputeKind, after, 1000));
    for (const store::StreamRecord& stream : page) {
      after = stream.stream_id;
      ARBITER_ASSIGN_OR_RETURN(
          v1::Dispute dispute,
          ReadDispute(streams, common::IdOf(common::IdKind::kDispute, stream.stream_id)));
      if (!request.tournament().empty() && dispute.tournament() != request.tournament()) continue;
      if (response.disputes_size() == size) {
        response.set_next_page_token(response.disputes().rbegin()->name());
        return response;
      }
      *response.add_disputes() = std::move(dispute);
    }
    if (page.size() < 1000) return response;
  }
}

v1::DisputeAdjudication Adjudicate(store::EventStore& events, store::ResultIndex& results,
                                   const engine::RulesetRegistry& registry,
                                   const std::string& game_id, const games::CancelCheck& cancel) {
  v1::DisputeAdjudication out;
  absl::StatusOr<v1::VerifyGameResponse> verify =
      games::VerifyStoredGame(events, results, registry, game_id, cancel);
  if (verify.ok()) {
    out.set_chain_intact(verify->intact());
    out.set_chain_detail(verify->intact() ? "every event's hash recomputed and matched"
                                          : verify->problem());
    out.set_events(verify->events());
    out.set_last_event_hash(verify->last_event_hash());
  } else {
    out.set_chain_detail(std::string(verify.status().message()));
  }
  absl::StatusOr<games::LoadedGame> game = games::LoadGame(events, game_id, cancel);
  if (!game.ok()) return out;
  absl::StatusOr<replay::Referee> referee = games::Judge(*game, registry, 0, cancel);
  if (!referee.ok()) return out;
  const v1::Adjudication judged =
      games::ToAdjudication(game_id, *referee, static_cast<int64_t>(game->stored.size()));
  out.set_verdict(judged.verdict());
  *out.mutable_violation() = judged.violation();
  *out.mutable_standings() = judged.standings();
  return out;
}

}  // namespace arbiter::tournament
