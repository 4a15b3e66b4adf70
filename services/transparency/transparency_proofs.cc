#include "services/transparency/transparency_proofs.h"

#include "services/common/resource_names.h"

#include "absl/strings/str_cat.h"
#include "engine/core/status_macros.h"
#include "engine/merkle/merkle.h"
#include "services/games/game_events.h"
#include "services/common/status_details.h"

namespace arbiter::transparency {

v1::Checkpoint ToCheckpoint(const transparency::StoredCheckpoint& checkpoint,
                            const std::string& origin) {
  v1::Checkpoint out;
  out.set_origin(origin);
  out.set_tree_size(static_cast<int64_t>(checkpoint.size));
  out.set_root_hash(engine::merkle::ToBytes(checkpoint.root));
  out.mutable_time()->set_seconds(absl::ToUnixSeconds(checkpoint.time));
  out.set_note(checkpoint.note);
  return out;
}

absl::StatusOr<transparency::StoredCheckpoint> FindCheckpoint(transparency::TransparencyLog& log,
                                                              int64_t tree_size, bool recent) {
  if (tree_size < 0) return common::FieldError("tree_size", "tree_size must not be negative");
  if (tree_size == 0) return recent ? log.RecentCheckpoint() : log.LatestCheckpoint();
  return log.CheckpointAt(static_cast<uint64_t>(tree_size));
}

namespace {

// The inclusion proof of the event `event_name` with hash `event_hash` at
// leaf `leaf` (nullopt: not in the tree yet) against the checkpoint of
// `tree_size` leaves.
absl::StatusOr<v1::InclusionProof> ProveLeaf(transparency::TransparencyLog& log,
                                             const std::string& event_name,
                                             const std::string& event_hash,
                                             const std::optional<uint64_t>& leaf,
                                             int64_t tree_size, bool recent) {
  ARBITER_ASSIGN_OR_RETURN(const transparency::StoredCheckpoint checkpoint,
                           FindCheckpoint(log, tree_size, recent));
  if (!leaf.has_value() || *leaf >= checkpoint.size) {
    return common::WithErrorInfo(
        absl::FailedPreconditionError(absl::StrCat(
            event_name, " is not in the checkpoint of tree size ", checkpoint.size,
            " yet; a later checkpoint will hold it")),
        kNotYetInCheckpoint,
        {{"event", event_name}, {"tree_size", absl::StrCat(checkpoint.size)}});
  }
  ARBITER_ASSIGN_OR_RETURN(const std::vector<engine::merkle::Hash> hashes,
                           log.InclusionProof(*leaf, checkpoint.size));
  v1::InclusionProof out;
  out.set_event(event_name);
  out.set_event_hash(event_hash);
  out.set_leaf_index(static_cast<int64_t>(*leaf));
  out.set_tree_size(static_cast<int64_t>(checkpoint.size));
  for (const engine::merkle::Hash& h : hashes) out.add_hashes(engine::merkle::ToBytes(h));
  *out.mutable_checkpoint() = ToCheckpoint(checkpoint, log.signer().name());
  return out;
}

}  // namespace

absl::StatusOr<v1::InclusionProof> ProveGameEvent(store::EventStore& store,
                                                  transparency::TransparencyLog& log,
                                                  const std::string& game_id, int64_t sequence,
                                                  int64_t tree_size, bool recent) {
  const std::string event_name = absl::StrCat(common::NameOf(common::IdKind::kGame, game_id), "/events/", sequence);
  ARBITER_ASSIGN_OR_RETURN(const std::vector<store::StoredEvent> events,
                           store.ReadGameEvents(game_id, sequence - 1, 1));
  if (events.empty() || events.front().sequence != sequence) {
    return absl::NotFoundError(absl::StrCat(event_name, " does not exist"));
  }
  const store::StoredEvent& event = events.front();
  ARBITER_ASSIGN_OR_RETURN(const std::optional<uint64_t> leaf,
                           log.LeafOfPosition(event.position));
  return ProveLeaf(log, event_name, event.hash, leaf, tree_size, recent);
}

absl::StatusOr<v1::AuditStream> ProveStream(store::StreamStore& streams,
                                            transparency::TransparencyLog& log,
                                            const std::string& stream_id, int64_t tree_size) {
  constexpr int kMaxEvents = 10'000;
  ARBITER_ASSIGN_OR_RETURN(const std::vector<store::StreamEvent> events,
                           streams.ReadStream(stream_id, 0, kMaxEvents));
  if (events.empty()) return absl::NotFoundError(absl::StrCat(stream_id, " has no events"));
  v1::AuditStream out;
  out.set_stream(stream_id);
  for (const store::StreamEvent& e : events) {
    v1::AuditEvent* event = out.add_events();
    event->set_sequence(e.sequence);
    event->set_event_id(e.request_id);
    event->set_type(e.type);
    event->set_payload(e.payload);
    event->set_prev_hash(e.prev_hash);
    event->set_hash(e.hash);
  }
  const store::StreamEvent& last = events.back();
  ARBITER_ASSIGN_OR_RETURN(const std::optional<uint64_t> leaf,
                           log.LeafOfStreamEvent(stream_id, last.sequence));
  ARBITER_ASSIGN_OR_RETURN(
      *out.mutable_proof(),
      ProveLeaf(log, absl::StrCat(stream_id, "/events/", last.sequence), last.hash, leaf,
                tree_size, false));
  return out;
}

absl::StatusOr<v1::InclusionProof> InclusionCache::Prove(store::EventStore& store,
                                                         transparency::TransparencyLog& log,
                                                         const std::string& game_id,
                                                         int64_t last_event,
                                                         const std::string& last_hash) {
  absl::StatusOr<transparency::StoredCheckpoint> checkpoint = log.RecentCheckpoint();
  if (!checkpoint.ok()) return checkpoint.status();
  {
    absl::MutexLock lock(&mu_);
    auto it = proofs_.find(game_id);
    if (it != proofs_.end() && it->second.first == last_hash &&
        it->second.second.tree_size() == static_cast<int64_t>(checkpoint->size)) {
      return it->second.second;
    }
  }
  absl::StatusOr<v1::InclusionProof> proof = ProveGameEvent(
      store, log, game_id, last_event, static_cast<int64_t>(checkpoint->size));
  if (!proof.ok()) return proof.status();
  if (proof->event_hash() != last_hash) return proof;  // the game moved on meanwhile
  absl::MutexLock lock(&mu_);
  if (proofs_.size() >= kMaxGames) proofs_.clear();
  proofs_[game_id] = {last_hash, *proof};
  return proof;
}

}  // namespace arbiter::transparency
