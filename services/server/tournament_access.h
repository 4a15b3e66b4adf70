// What the TournamentService and DisputeService share: who may manage a
// tournament, request-id checks and timestamps.
#ifndef ARBITER_SERVICES_SERVER_TOURNAMENT_ACCESS_H_
#define ARBITER_SERVICES_SERVER_TOURNAMENT_ACCESS_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "google/protobuf/timestamp.pb.h"
#include "google/protobuf/util/time_util.h"
#include "services/server/auth.h"
#include "services/server/status_mapping.h"

namespace arbiter::server {

// Admins anywhere; organisers for the tournaments their token names.
inline absl::Status RequireOrganise(const Caller& caller, const std::string& tournament_id) {
  if (caller.role == Role::kAdmin) return absl::OkStatus();
  if (caller.role == Role::kOrganiser) {
    for (const std::string& t : caller.tournaments) {
      if (t == tournament_id) return absl::OkStatus();
    }
  }
  return absl::PermissionDeniedError(absl::StrCat(
      "this token may not manage tournament \"", tournament_id,
      "\" (admins, and organisers whose token names the tournament, only)"));
}

inline absl::Status CheckTournamentRequestId(const std::string& request_id) {
  if (request_id.empty() || request_id.size() > 200) {
    return FieldError("request_id", "request_id is required: 1-200 bytes, unique per request");
  }
  return absl::OkStatus();
}

inline google::protobuf::Timestamp TimestampOf(absl::Time time) {
  return google::protobuf::util::TimeUtil::MicrosecondsToTimestamp(absl::ToUnixMicros(time));
}

}  // namespace arbiter::server

#endif  // ARBITER_SERVICES_SERVER_TOURNAMENT_ACCESS_H_
