#include "services/games/official_result.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace arbiter::games {
namespace {

absl::Status Undecodable(const store::StoredEvent& event) {
  return absl::DataLossError(absl::StrCat("game \"", event.game_id, "\" event ", event.sequence,
                                          ": ", event.type, " does not decode"));
}

}  // namespace

std::string ReportedReason(const v1::ReportedResult& reported) {
  std::string reason =
      absl::StrCat("score sheet signed by ", absl::StrJoin(reported.signed_by(), ", "));
  if (!reported.proposed_by().empty()) {
    absl::StrAppend(&reason, " (proposed by ", reported.proposed_by(), ")");
  }
  if (!reported.note().empty()) absl::StrAppend(&reason, ": ", reported.note());
  return reason;
}

absl::StatusOr<v1::OfficialResult> OfficialResultOf(const store::StoredEvent& last) {
  v1::OfficialResult official;
  official.set_source(v1::RESULT_SOURCE_REFEREE);
  if (last.type == store::kGameVoidedType) {
    v1::GameVoided voided;
    if (!voided.ParseFromString(last.payload)) return Undecodable(last);
    official.set_source(v1::RESULT_SOURCE_VOIDED);
    official.set_reason(voided.reason());
  } else if (last.type == store::kGameFinishedType) {
    v1::GameFinished finished;
    if (!finished.ParseFromString(last.payload)) return Undecodable(last);
    if (!finished.correction().empty()) {
      official.set_source(v1::RESULT_SOURCE_CORRECTED);
      official.set_reason(finished.correction());
    } else if (finished.has_reported()) {
      official.set_source(v1::RESULT_SOURCE_REPORTED);
      official.set_reason(ReportedReason(finished.reported()));
      *official.mutable_reported() = finished.reported();
    } else {
      return official;
    }
    *official.mutable_standings() = finished.standings();
  } else {
    return official;
  }
  official.set_event(last.sequence);
  official.set_recorded_by(last.recorded_by);
  return official;
}

}  // namespace arbiter::games
