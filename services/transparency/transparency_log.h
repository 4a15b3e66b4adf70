// TransparencyLog: the Merkle tree over every event hash of the store, kept
// in PostgreSQL (migrations/0010_transparency_log.sql and
// 0014_transparency_tiles.sql; the SQL is store::pg::TransparencyTables,
// services/store/pg/transparency_tables.h), and its signed checkpoints.
//
// Building. CatchUp reads events that have committed after the builder's
// progress (game events by store position, which commit in order and without
// gaps; then new events of every stream), gives them the next leaf indexes,
// and in one transaction stores the leaves, the perfect subtrees they
// complete (CompactRange), kept in tiles of sixteen hashes (TileBuilder), and
// the new progress. It runs under a PostgreSQL advisory lock, so two servers
// on one database never build at once, and it
// checks that the progress it started from is still the stored one, so a
// step that lost a race writes nothing. The append path is not involved.
//
// Leaf data: the 32 bytes of the event's hash (services/store/event_hash.h),
// so the leaf hash is SHA-256(0x00 || hash bytes). Stored: never change.
//
// Checkpoints. Publish signs (note.h, checkpoint.h) the tree as it is and
// stores the note; Start runs CatchUp on a thread of its own and publishes a
// checkpoint when the tree has grown and `checkpoint_interval` has passed.
//
// Under a lease. In arbiterd the builder runs under the lease
// kTransparencyLease (UseLease; services/store/lease_keeper.h): only the
// server holding it builds and signs, and each step's write is fenced, in
// its transaction, by the tree's expected size and by the lease's token, so
// a holder paused or cut off past its lease writes nothing and cannot fork
// the tree. Publish on another server asks the holder through the database
// (pg::LeaseTable::Request) and waits for its checkpoint. Without a lease
// (tests, tools) any builder builds, under the advisory lock.
//
// Reading. Proofs are computed from the stored subtree hashes for any tree
// size up to the tree's. Thread-safe.
#ifndef ARBITER_SERVICES_TRANSPARENCY_TRANSPARENCY_LOG_H_
#define ARBITER_SERVICES_TRANSPARENCY_TRANSPARENCY_LOG_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "engine/merkle/compact_range.h"
#include "engine/merkle/merkle.h"
#include "engine/merkle/tiles.h"
#include "services/store/lease_keeper.h"
#include "services/store/pg/pool.h"
#include "services/store/pg/transparency_tables.h"
#include "services/transparency/note.h"

namespace arbiter::transparency {

struct StoredCheckpoint {
  uint64_t size = 0;
  engine::merkle::Hash root{};
  absl::Time time;
  std::string note;  // the signed note, as stored
};

// The lease the builder (and the checkpoints it signs) runs under.
inline constexpr char kTransparencyLease[] = "transparency";

// The leaf hash of an event whose hash is `event_hash_hex` (64 hex digits).
// InvalidArgument if it is not one.
absl::StatusOr<engine::merkle::Hash> EventLeafHash(const std::string& event_hash_hex);

class TransparencyLog {
 public:
  // `pool` must outlive this object; `signer` signs the checkpoints (its
  // name is the log's origin).
  TransparencyLog(store::pg::PgPool& pool, NoteSigner signer)
      : tables_(pool), signer_(std::move(signer)) {}
  ~TransparencyLog() { Stop(); }
  TransparencyLog(const TransparencyLog&) = delete;
  TransparencyLog& operator=(const TransparencyLog&) = delete;

  // From now on build and sign only while `keeper` (of kTransparencyLease)
  // holds the lease, every write fenced by its token. Before Start;
  // `keeper` must outlive this object.
  void UseLease(store::LeaseKeeper& keeper) { lease_ = &keeper; }

  // Adds every committed event not yet in the tree. Returns the tree size.
  // Unavailable if PostgreSQL is, or under a lease this process does not
  // hold; Aborted if the write was fenced off (the tree grew meanwhile, or
  // the lease passed to another grant); DataLoss if a stored event hash is
  // not 64 hex digits.
  absl::StatusOr<uint64_t> CatchUp();

  // Catches up and signs a checkpoint of the tree as it then is (returns the
  // stored one if that size is already signed). Under a lease held
  // elsewhere, asks the holder to and returns the latest checkpoint once it
  // has (Unavailable if it has not within `wait`).
  absl::StatusOr<StoredCheckpoint> Publish(absl::Duration wait = absl::Minutes(1));

  // CatchUp every `interval` (while holding the lease, if one is used); a
  // checkpoint when the tree has grown since the last one and
  // `checkpoint_interval` has passed since it was signed, or when another
  // server asked for one.
  void Start(absl::Duration interval = absl::Milliseconds(200),
             absl::Duration checkpoint_interval = absl::Seconds(10));
  void Stop();

  // Runs `hook` inside each build step's transaction, after the new events
  // are read and before anything is written (tests pause a holder there,
  // with the head locked).
  void SetInStepHookForTest(std::function<void()> hook) { in_step_ = std::move(hook); }

  // NotFound before the first checkpoint. Read from the database.
  absl::StatusOr<StoredCheckpoint> LatestCheckpoint();
  // The same, as read at most `max_age` ago (or as this process last
  // published), for answers that are read often (AdjudicateGame).
  absl::StatusOr<StoredCheckpoint> RecentCheckpoint(absl::Duration max_age = absl::Seconds(1));
  // NotFound unless a checkpoint of exactly `size` leaves was signed.
  absl::StatusOr<StoredCheckpoint> CheckpointAt(uint64_t size);

  // Leaves in the tree (as stored).
  absl::StatusOr<uint64_t> TreeSize();
  // The leaf index of the game event at store `position`; nullopt if it is
  // not in the tree yet.
  absl::StatusOr<std::optional<uint64_t>> LeafOfPosition(int64_t position);
  // The leaf index of a stream event; nullopt if not in the tree yet.
  absl::StatusOr<std::optional<uint64_t>> LeafOfStreamEvent(const std::string& stream_id,
                                                            int64_t sequence);

  // The inclusion proof of leaf `index` in the tree of its first `size`
  // leaves. InvalidArgument unless index < size <= TreeSize(); DataLoss if a
  // stored subtree is missing.
  absl::StatusOr<std::vector<engine::merkle::Hash>> InclusionProof(uint64_t index, uint64_t size);
  // The consistency proof between the trees of `old_size` and `new_size`
  // leaves. InvalidArgument unless old_size <= new_size <= TreeSize().
  absl::StatusOr<std::vector<engine::merkle::Hash>> ConsistencyProof(uint64_t old_size,
                                                                     uint64_t new_size);
  // The root of the tree of its first `size` leaves (size <= TreeSize()).
  absl::StatusOr<engine::merkle::Hash> RootAt(uint64_t size);

  const NoteSigner& signer() const { return signer_; }

 private:
  struct Growth;  // the tree as one step grows it (transparency_log.cc)

  // What the thread knows of the checkpoints it signed.
  struct Signing {
    absl::Time last_signed = absl::InfinitePast();
    std::optional<uint64_t> signed_size;  // none yet: the first is signed at once
  };

  // The fence for a step now: nullopt without a lease; Unavailable if the
  // lease is held elsewhere.
  absl::StatusOr<std::optional<store::LeaseFence>> FenceNow() const;
  // CatchUp and Publish, fenced by `fence` when set.
  absl::StatusOr<uint64_t> CatchUpFenced(const std::optional<store::LeaseFence>& fence);
  absl::StatusOr<StoredCheckpoint> PublishFenced(const std::optional<store::LeaseFence>& fence);
  // Publish on a server that does not hold the lease.
  absl::StatusOr<StoredCheckpoint> PublishByHolder(absl::Duration wait);
  // One CatchUp step of at most `limit` events; sets *added.
  absl::StatusOr<uint64_t> Step(int limit, const std::optional<store::LeaseFence>& fence,
                                int64_t* added);
  // The thread's work every interval: build, and sign when due or asked.
  void BuildAndSign(const std::optional<store::LeaseFence>& fence,
                    absl::Duration checkpoint_interval, Signing& signing);
  Signing ReadSigning();
  void NoteTurn(const store::LeaseWatch::Turn& turn);
  // The parts of a step, in its transaction: the tree as stored (from this
  // process's memory when it is current, else from the stored tiles), the
  // new game and stream events added to it, and the rows that store them.
  absl::StatusOr<Growth> RestoreTree(store::pg::TransparencyBuildStep& step,
                                     const store::pg::TransparencyHead& head)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(build_mu_);
  static absl::Status AddGameEvents(store::pg::TransparencyBuildStep& step, int limit,
                                    Growth& growth);
  static absl::Status AddStreamEvents(store::pg::TransparencyBuildStep& step, int limit,
                                      Growth& growth);
  static store::pg::TransparencyStepWrite RowsOf(Growth& growth);

  absl::StatusOr<std::vector<engine::merkle::Hash>> RangeHashes(
      const std::vector<engine::merkle::Range>& ranges);
  void Loop(absl::Duration interval, absl::Duration checkpoint_interval);

  store::pg::TransparencyTables tables_;
  const NoteSigner signer_;
  absl::Mutex build_mu_;  // one builder step at a time in this process
  // The frontier of the tree as last built by this process.
  engine::merkle::CompactRange frontier_ ABSL_GUARDED_BY(build_mu_);
  // Its rightmost tiles (engine/merkle/tiles.h), known with the frontier.
  engine::merkle::TileBuilder tiles_ ABSL_GUARDED_BY(build_mu_);
  bool frontier_known_ ABSL_GUARDED_BY(build_mu_) = false;
  std::thread thread_;
  std::unique_ptr<absl::Notification> stop_;
  absl::Mutex recent_mu_;
  std::optional<StoredCheckpoint> recent_ ABSL_GUARDED_BY(recent_mu_);
  absl::Time recent_read_ ABSL_GUARDED_BY(recent_mu_) = absl::InfinitePast();
  store::LeaseKeeper* lease_ = nullptr;
  std::function<void()> in_step_;
};

}  // namespace arbiter::transparency

#endif  // ARBITER_SERVICES_TRANSPARENCY_TRANSPARENCY_LOG_H_
