#include "services/league/league_check_impl.h"

#include "services/common/resource_names.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/core/status_macros.h"
#include "services/common/status_details.h"
#include "services/league/league_settings.h"

namespace arbiter::league {

absl::Status StreamLeagueCheck::CheckRates(const std::string& league_id,
                                           const std::string& game_type, const char* field) {
  if (league_id.empty()) return absl::OkStatus();
  absl::StatusOr<std::vector<store::StreamEvent>> log =
      streams_.ReadStream(common::NameOf(common::IdKind::kLeague, league_id), 0, 10'000);
  if (absl::IsNotFound(log.status())) {
    return common::WithErrorInfo(
        common::WithFieldViolation(
            absl::NotFoundError(absl::StrCat("league \"", league_id,
                                             "\" does not exist; create the league first")),
            field, "unknown league"),
        "LEAGUE_NOT_FOUND", {{"league", league_id}});
  }
  ARBITER_RETURN_IF_ERROR(log.status());
  ARBITER_ASSIGN_OR_RETURN(const v1::LeagueSettings settings, SettingsOf(*log));
  for (const std::string& type : settings.game_types()) {
    if (type == game_type) return absl::OkStatus();
  }
  return common::WithFieldViolation(
      absl::FailedPreconditionError(absl::StrCat(
          "league \"", league_id, "\" rates ", absl::StrJoin(settings.game_types(), ", "),
          " games; this game is ", game_type.empty() ? "of no game" : game_type)),
      field, "league of another game type");
}

}  // namespace arbiter::league
