#include "services/tournament/tournament_league_impl.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/core/status_macros.h"
#include "services/common/resource_names.h"
#include "services/tournament/tournament_log.h"

namespace arbiter::tournament {

absl::StatusOr<std::string> ReadTournamentLeague(store::StreamStore& streams,
                                                 const std::string& tournament_id) {
  const std::string stream_id = common::NameOf(common::IdKind::kTournament, tournament_id);
  absl::StatusOr<store::StreamRecord> stream = streams.GetStream(stream_id);
  if (absl::IsNotFound(stream.status()) || (stream.ok() && stream->kind != kTournamentKind)) {
    return absl::NotFoundError(absl::StrCat("tournament \"", tournament_id, "\" does not exist"));
  }
  ARBITER_RETURN_IF_ERROR(stream.status());
  ARBITER_ASSIGN_OR_RETURN(const std::vector<store::StreamEvent> first,
                           streams.ReadStream(stream_id, 0, 1));
  v1::TournamentCreated created;
  if (first.empty() || first.front().type != kTypeTournamentCreated ||
      !created.ParseFromString(first.front().payload)) {
    return absl::DataLossError(
        absl::StrCat("tournament \"", tournament_id, "\" has no readable creation event"));
  }
  return created.settings().league();
}

}  // namespace arbiter::tournament
