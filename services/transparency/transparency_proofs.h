// Proofs of the transparency log in the API's terms: a signed checkpoint
// and a game or stream event's inclusion proof as v1 messages. Shared by the
// TransparencyService and AdjudicateGame. No access checks here: callers
// check that the caller may read the game first. Thread-safe.
#ifndef ARBITER_SERVICES_TRANSPARENCY_TRANSPARENCY_PROOFS_H_
#define ARBITER_SERVICES_TRANSPARENCY_TRANSPARENCY_PROOFS_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "absl/synchronization/mutex.h"

#include "absl/status/statusor.h"
#include "arbiter/v1/transparency_service.pb.h"
#include "services/store/event_store.h"
#include "services/store/stream_store.h"
#include "services/transparency/transparency_log.h"

namespace arbiter::transparency {

// ErrorInfo reason of an event that is not in the checkpoint yet.
inline constexpr char kNotYetInCheckpoint[] = "NOT_YET_IN_CHECKPOINT";

v1::Checkpoint ToCheckpoint(const transparency::StoredCheckpoint& checkpoint,
                            const std::string& origin);

// The checkpoint of `tree_size` leaves (0: the latest; with `recent`, as read
// at most a second ago). NotFound if none.
absl::StatusOr<transparency::StoredCheckpoint> FindCheckpoint(transparency::TransparencyLog& log,
                                                              int64_t tree_size,
                                                              bool recent = false);

// The inclusion proof of event `sequence` of `game_id` against the checkpoint
// of `tree_size` leaves (0: the latest). NotFound for an unknown event or no
// checkpoint; FailedPrecondition with reason kNotYetInCheckpoint if the
// event is not in that checkpoint yet.
absl::StatusOr<v1::InclusionProof> ProveGameEvent(store::EventStore& store,
                                                  transparency::TransparencyLog& log,
                                                  const std::string& game_id, int64_t sequence,
                                                  int64_t tree_size, bool recent = false);

// The whole log of the stream `stream_id` ("disputes/d1") and the
// inclusion proof of its last event against the checkpoint of `tree_size`
// leaves (0: the latest). NotFound for an unknown stream or no checkpoint;
// FailedPrecondition with reason kNotYetInCheckpoint if the last event is
// not in that checkpoint yet.
absl::StatusOr<v1::AuditStream> ProveStream(store::StreamStore& streams,
                                            transparency::TransparencyLog& log,
                                            const std::string& stream_id, int64_t tree_size);

// Inclusion proofs of games' last events against the recent checkpoint,
// remembered per game while the game's last hash and the checkpoint stay the
// same (AdjudicateGame is read far more often than either changes). Bounded;
// thread-safe.
class InclusionCache {
 public:
  absl::StatusOr<v1::InclusionProof> Prove(store::EventStore& store,
                                           transparency::TransparencyLog& log,
                                           const std::string& game_id, int64_t last_event,
                                           const std::string& last_hash);

 private:
  static constexpr std::size_t kMaxGames = 10'000;
  absl::Mutex mu_;
  // game id -> (last hash, proof)
  std::map<std::string, std::pair<std::string, v1::InclusionProof>> proofs_ ABSL_GUARDED_BY(mu_);
};

}  // namespace arbiter::transparency

#endif  // ARBITER_SERVICES_TRANSPARENCY_TRANSPARENCY_PROOFS_H_
