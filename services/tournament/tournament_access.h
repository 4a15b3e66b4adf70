// What tournament and dispute writes share: who may manage a tournament,
// and the request-id check. Pure functions; thread-safe.
#ifndef ARBITER_SERVICES_TOURNAMENT_TOURNAMENT_ACCESS_H_
#define ARBITER_SERVICES_TOURNAMENT_TOURNAMENT_ACCESS_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "services/access/permissions.h"
#include "services/common/status_details.h"

namespace arbiter::tournament {

// Admins anywhere; organisers for the tournaments their token names.
inline absl::Status RequireOrganise(const access::Caller& caller, const std::string& tournament_id) {
  if (caller.role == store::Role::kAdmin) return absl::OkStatus();
  if (caller.role == store::Role::kOrganiser) {
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
    return common::FieldError("request_id", "request_id is required: 1-200 bytes, unique per request");
  }
  return absl::OkStatus();
}

}  // namespace arbiter::tournament

#endif  // ARBITER_SERVICES_TOURNAMENT_TOURNAMENT_ACCESS_H_
