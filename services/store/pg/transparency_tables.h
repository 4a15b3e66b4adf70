// TransparencyTables: the SQL of the transparency log (tables
// transparency_segments, transparency_tiles, transparency_head,
// transparency_stream_heads and transparency_checkpoints, and the reads of
// new event hashes; migrations/0010 and 0014), as plain rows and operations.
// The Merkle tree itself (which leaves, which tiles, proofs, signatures) is
// services/transparency's (transparency_log.h); this file stores and reads
// its rows, on the service's pool (pool.h). Hashes travel as hex (64 digits
// each), as the events store them. A builder step is fenced by the tree's
// expected size and, under the builder's lease, by the lease's token.
// Thread-safe.
#ifndef ARBITER_SERVICES_STORE_PG_TRANSPARENCY_TABLES_H_
#define ARBITER_SERVICES_STORE_PG_TRANSPARENCY_TABLES_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "services/store/lease_fence.h"
#include "services/store/pg/pool.h"

namespace arbiter::store::pg {

// The tree's size and the store position of the last game event in it.
struct TransparencyHead {
  uint64_t tree_size = 0;
  int64_t events_position = 0;
};

// A run of consecutive leaves of consecutive events (a row of
// transparency_segments): game events from a store position, or events of
// one stream from a sequence.
struct TransparencySegment {
  uint64_t first_leaf = 0;
  uint64_t leaves = 0;
  std::optional<int64_t> position;   // game events
  std::optional<std::string> stream_id;  // stream events, with
  std::optional<int64_t> sequence;       // the first one's sequence
};

// A tile: its place (engine/merkle/tiles.h) and its hashes, concatenated.
struct TileRow {
  int level = 0;
  uint64_t index = 0;
  std::string hashes_hex;  // 64 hex digits a hash
};

// A tile a reader needs: the widest stored copy with at least `width`
// hashes is read.
struct TileWanted {
  int level = 0;
  uint64_t index = 0;
  int width = 0;
};

// A new event: where it is and its hash (the leaf data, 64 hex digits).
struct GameEventLeaf {
  int64_t position = 0;
  std::string hash;
};
struct StreamEventLeaf {
  std::string stream_id;
  int64_t sequence = 0;
  std::string hash;
};

// What a builder step stores.
struct TransparencyStepWrite {
  // The size of the tree the step extended: the head must still say so
  // (the tree's natural fence), or nothing is written.
  uint64_t expected_size = 0;
  std::vector<TransparencySegment> segments;
  std::vector<TileRow> tiles;
  std::map<std::string, int64_t> stream_heads;  // stream id -> last sequence in the tree
  TransparencyHead head;
};

// A row of transparency_checkpoints.
struct CheckpointRow {
  uint64_t tree_size = 0;
  std::string root_hex;
  int64_t signed_at_seconds = 0;  // since 1970
  std::string note;               // the signed note
};

// One builder step's transaction (TransparencyTables::Build). Its calls
// throw what libpqxx throws; Build turns that into a status. Not
// thread-safe.
class TransparencyBuildStep {
 public:
  // Takes the builder's advisory lock for the transaction; false if another
  // builder holds it.
  bool TryLock();
  // The tree's head; locked for update if `lock`.
  TransparencyHead ReadHead(bool lock);
  // The widest stored copy of each tile wanted; a tile with none is left
  // out.
  std::vector<TileRow> ReadTiles(const std::vector<TileWanted>& wanted);
  // Up to `limit` game events after store position `after`, in position
  // order, with their hashes.
  std::vector<GameEventLeaf> GameEventsAfter(int64_t after, int limit);
  // Up to `limit` stream events not yet in the tree (after each stream's
  // head), in stream and sequence order.
  std::vector<StreamEventLeaf> NewStreamEvents(int limit);
  // Stores `write` and commits (without waiting for the flush: the tree is
  // derived). Without it the step writes nothing. Aborted, nothing written,
  // if the head's size is not write.expected_size, or if the step is fenced
  // and the lease has passed to another grant (IsLeaseLost).
  absl::Status WriteAndCommit(const TransparencyStepWrite& write);

 private:
  friend class TransparencyTables;
  TransparencyBuildStep(pqxx::transaction_base& txn, const std::optional<LeaseFence>& fence)
      : txn_(txn), fence_(fence) {}
  pqxx::transaction_base& txn_;
  const std::optional<LeaseFence>& fence_;
};

class TransparencyTables {
 public:
  // `pool` must outlive this object.
  explicit TransparencyTables(PgPool& pool) : pool_(pool) {}

  // Runs `step` in one transaction; returns what it returns, or the status
  // of what libpqxx threw ("building the transparency log: ..."). With a
  // fence (the builder's lease, leases.h), the step's write is refused
  // unless the lease is still that grant.
  absl::Status Build(const std::optional<LeaseFence>& fence,
                     const std::function<absl::Status(TransparencyBuildStep&)>& step);

  // Stores a checkpoint unless one of its size is stored. With a fence, only
  // while the lease is that grant (IsLeaseLost otherwise, nothing stored).
  absl::Status StoreCheckpoint(const CheckpointRow& checkpoint,
                               const std::optional<LeaseFence>& fence = std::nullopt);
  // The largest checkpoint; nullopt before the first.
  absl::StatusOr<std::optional<CheckpointRow>> LatestCheckpoint();
  // The checkpoint of exactly `tree_size` leaves, if one was signed.
  absl::StatusOr<std::optional<CheckpointRow>> CheckpointAt(uint64_t tree_size);

  // Leaves in the tree.
  absl::StatusOr<uint64_t> TreeSize();
  // The leaf of the game event at store `position`; nullopt if not in the
  // tree yet.
  absl::StatusOr<std::optional<uint64_t>> LeafOfPosition(int64_t position);
  // The leaf of a stream event; nullopt if not in the tree yet.
  absl::StatusOr<std::optional<uint64_t>> LeafOfStreamEvent(const std::string& stream_id,
                                                            int64_t sequence);
  // As TransparencyBuildStep::ReadTiles, in a read of its own.
  absl::StatusOr<std::vector<TileRow>> ReadTiles(const std::vector<TileWanted>& wanted);

 private:
  PgPool& pool_;
};

}  // namespace arbiter::store::pg

#endif  // ARBITER_SERVICES_STORE_PG_TRANSPARENCY_TABLES_H_
