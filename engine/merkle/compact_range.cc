#include "engine/merkle/compact_range.h"

#include <bit>

#include "absl/strings/str_cat.h"

namespace arbiter::engine::merkle {

absl::StatusOr<CompactRange> CompactRange::FromFrontier(uint64_t size,
                                                        std::vector<Hash> frontier) {
  const auto expected = static_cast<std::size_t>(std::popcount(size));
  if (frontier.size() != expected) {
    return absl::InvalidArgumentError(absl::StrCat("the frontier of a tree of ", size,
                                                   " leaves has ", expected,
                                                   " hashes, not ", frontier.size()));
  }
  CompactRange range;
  range.size_ = size;
  range.frontier_ = std::move(frontier);
  return range;
}

std::vector<std::pair<NodeId, Hash>> CompactRange::Append(const Hash& leaf_hash) {
  std::vector<std::pair<NodeId, Hash>> completed;
  uint64_t index = size_;
  Hash hash = leaf_hash;
  completed.push_back({{0, index}, hash});
  // Each trailing one bit of the old size is a subtree of the same size as
  // the one just completed, standing to its left: merge them.
  int level = 0;
  for (uint64_t bits = size_; (bits & 1) == 1; bits >>= 1) {
    hash = NodeHash(frontier_.back(), hash);
    frontier_.pop_back();
    ++level;
    index >>= 1;
    completed.push_back({{level, index}, hash});
  }
  frontier_.push_back(hash);
  ++size_;
  return completed;
}

}  // namespace arbiter::engine::merkle
