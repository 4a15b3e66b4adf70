// Proofs of the transparency log in the API's terms: a signed checkpoint
// and a game event's inclusion proof as v1 messages. Shared by the
// TransparencyService and AdjudicateGame. No access checks here: callers
// check that the caller may read the game first. Thread-safe.
#ifndef ARBITER_SERVICES_SERVER_TRANSPARENCY_PROOFS_H_
#define ARBITER_SERVICES_SERVER_TRANSPARENCY_PROOFS_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "arbiter/v1/transparency_service.pb.h"
#include "services/store/event_store.h"
#include "services/transparency/transparency_log.h"

namespace arbiter::server {

// ErrorInfo reason of an event that is not in the checkpoint yet.
inline constexpr char kNotYetInCheckpoint[] = "NOT_YET_IN_CHECKPOINT";

v1::Checkpoint ToCheckpoint(const transparency::StoredCheckpoint& checkpoint,
                            const std::string& origin);

// The checkpoint of `tree_size` leaves (0: the latest). NotFound if none.
absl::StatusOr<transparency::StoredCheckpoint> FindCheckpoint(transparency::TransparencyLog& log,
                                                              int64_t tree_size);

// The inclusion proof of event `sequence` of `game_id` against the checkpoint
// of `tree_size` leaves (0: the latest). NotFound for an unknown event or no
// checkpoint; FailedPrecondition with reason kNotYetInCheckpoint if the
// event is not in that checkpoint yet.
absl::StatusOr<v1::InclusionProof> ProveGameEvent(store::EventStore& store,
                                                  transparency::TransparencyLog& log,
                                                  const std::string& game_id, int64_t sequence,
                                                  int64_t tree_size);

}  // namespace arbiter::server

#endif  // ARBITER_SERVICES_SERVER_TRANSPARENCY_PROOFS_H_
