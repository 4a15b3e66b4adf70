// CompactRange: the right frontier of an append-only Merkle tree (merkle.h).
// It holds one hash per perfect subtree that the first `size` leaves split
// into (one per set bit of size, largest first), so that appending a leaf
// costs O(log n) hashes and the root of the tree so far is a fold of at most
// 64 hashes. Each append reports the perfect subtrees it completes, which is
// what a store keeps to answer proofs later.
//
// Not thread-safe; copyable.
#ifndef ARBITER_ENGINE_MERKLE_COMPACT_RANGE_H_
#define ARBITER_ENGINE_MERKLE_COMPACT_RANGE_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/merkle/merkle.h"

namespace arbiter::engine::merkle {

class CompactRange {
 public:
  // An empty tree.
  CompactRange() = default;

  // The frontier of a tree of `size` leaves from the hashes of the perfect
  // subtrees SubtreeNodes({0, size}) lists, in that order. InvalidArgument if
  // their number does not match.
  static absl::StatusOr<CompactRange> FromFrontier(uint64_t size, std::vector<Hash> frontier);

  // Appends a leaf (its leaf hash) and returns the perfect subtrees it
  // completes, the leaf itself (level 0) first.
  std::vector<std::pair<NodeId, Hash>> Append(const Hash& leaf_hash);

  uint64_t size() const { return size_; }
  const std::vector<Hash>& frontier() const { return frontier_; }
  // The root of the tree of size() leaves.
  Hash Root() const { return FoldRight(frontier_); }

 private:
  uint64_t size_ = 0;
  std::vector<Hash> frontier_;  // largest subtree first
};

}  // namespace arbiter::engine::merkle

#endif  // ARBITER_ENGINE_MERKLE_COMPACT_RANGE_H_
