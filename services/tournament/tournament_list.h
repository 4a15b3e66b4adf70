// The tournament index: ListTournaments' pages, in id order (the order of
// the tournaments' streams), optionally of one league, each entry as
// GetTournament answers it but with its seed always left out, whoever asks
// (docs/tournaments.md, "The index"). Reads only; thread-safe as the stores
// are.
#ifndef ARBITER_SERVICES_TOURNAMENT_TOURNAMENT_LIST_H_
#define ARBITER_SERVICES_TOURNAMENT_TOURNAMENT_LIST_H_

#include "absl/status/statusor.h"
#include "arbiter/v1/tournament_service.pb.h"
#include "services/store/result_index.h"
#include "services/store/stream_store.h"

namespace arbiter::tournament {

// A page of ListTournaments. InvalidArgument with a field violation on
// "page_size" (0-1000), "page_token" (not a tournament name) or "league"
// (not a league id); DataLoss for a tournament whose log does not fold;
// errors of the reads.
absl::StatusOr<v1::ListTournamentsResponse> ListTournaments(
    store::StreamStore& streams, store::ResultIndex& results,
    const v1::ListTournamentsRequest& request);

}  // namespace arbiter::tournament

#endif  // ARBITER_SERVICES_TOURNAMENT_TOURNAMENT_LIST_H_
