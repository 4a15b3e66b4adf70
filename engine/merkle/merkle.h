// Merkle tree hashing of an append-only log in the manner of RFC 6962 /
// RFC 9162 (Certificate Transparency): leaf and node hashes, the root of a
// list of leaves, inclusion and consistency proofs, and their verification.
//
//   leaf hash  = SHA-256(0x00 || leaf data)
//   node hash  = SHA-256(0x01 || left || right)
//   root of 0 leaves = SHA-256("")
//   root of n > 1 leaves = node(root of the first k, root of the rest), where
//     k is the largest power of two smaller than n.
//
// A proof lists the hashes of whole subtrees. Every subtree a proof needs is
// a range [begin, end) of leaves that starts at a multiple of a power of two
// at least its size; it is either perfect (its size a power of two) or the
// right edge of a tree, and then its hash is that of the perfect subtrees it
// splits into (SubtreeNodes), folded from the right (FoldRight). So a store
// that keeps the hash of every perfect subtree can answer any proof:
// InclusionRanges and ConsistencyRanges say which ranges, in proof order.
//
// Pure functions, no I/O; thread-safe.
#ifndef ARBITER_ENGINE_MERKLE_MERKLE_H_
#define ARBITER_ENGINE_MERKLE_MERKLE_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace arbiter::engine::merkle {

// A SHA-256 digest (32 raw bytes).
using Hash = std::array<uint8_t, 32>;

Hash LeafHash(std::string_view data);
Hash NodeHash(const Hash& left, const Hash& right);
// SHA-256 of the empty string: the root of an empty tree.
Hash EmptyRoot();

// 64 lowercase hex digits.
std::string ToHex(const Hash& hash);
// InvalidArgument unless `hex` is 64 hex digits (either case).
absl::StatusOr<Hash> FromHex(std::string_view hex);
// The 32 bytes as a string, and back (InvalidArgument unless 32 bytes).
std::string ToBytes(const Hash& hash);
absl::StatusOr<Hash> FromBytes(std::string_view bytes);

// A perfect subtree: the 2^level leaves starting at index << level.
struct NodeId {
  int level = 0;
  uint64_t index = 0;
  friend bool operator==(const NodeId&, const NodeId&) = default;
};

// Leaves [begin, end).
struct Range {
  uint64_t begin = 0;
  uint64_t end = 0;
  friend bool operator==(const Range&, const Range&) = default;
};

// The perfect subtrees that make up `range`, left to right (largest first).
// `range` must start at a multiple of a power of two >= its size, as every
// range a proof needs does.
std::vector<NodeId> SubtreeNodes(Range range);

// The hash of subtrees listed left to right: the last one, then
// NodeHash(h[i], acc) for i from the second to last down to the first.
// The empty list is EmptyRoot().
Hash FoldRight(absl::Span<const Hash> hashes);

// The root of `leaf_hashes` (already leaf-hashed), recursively. O(n).
Hash RootOf(absl::Span<const Hash> leaf_hashes);

// The ranges whose hashes form the inclusion proof of leaf `index` in a tree
// of `size` leaves (RFC 6962 PATH), from the leaf's sibling up. Requires
// index < size.
std::vector<Range> InclusionRanges(uint64_t index, uint64_t size);

// The ranges whose hashes form the consistency proof between trees of
// `old_size` and `new_size` leaves (RFC 6962 PROOF), bottom up. Empty when
// old_size is 0 or equals new_size. Requires old_size <= new_size.
std::vector<Range> ConsistencyRanges(uint64_t old_size, uint64_t new_size);

// Proofs computed from all leaf hashes (for tests and small trees).
// InvalidArgument for an index or sizes out of range.
absl::StatusOr<std::vector<Hash>> InclusionProof(uint64_t index, absl::Span<const Hash> leaf_hashes);
absl::StatusOr<std::vector<Hash>> ConsistencyProof(uint64_t old_size,
                                                   absl::Span<const Hash> leaf_hashes);

// RFC 9162 section 2.1.3.2. OK if `proof` shows that `leaf_hash` is leaf
// `index` of the tree of `size` leaves with root `root`; otherwise
// InvalidArgument (index out of range, wrong proof length) or
// FailedPrecondition (the proof leads to another root), with a sentence.
absl::Status VerifyInclusion(uint64_t index, uint64_t size, const Hash& leaf_hash,
                             absl::Span<const Hash> proof, const Hash& root);

// The root that `proof` leads to from `leaf_hash` at `index` in a tree of
// `size`; InvalidArgument as above.
absl::StatusOr<Hash> RootFromInclusion(uint64_t index, uint64_t size, const Hash& leaf_hash,
                                       absl::Span<const Hash> proof);

// RFC 9162 section 2.1.4.2. OK if `proof` shows that the tree of `old_size`
// leaves with root `old_root` is a prefix of the tree of `new_size` leaves
// with root `new_root`; otherwise InvalidArgument (sizes out of order, wrong
// proof length) or FailedPrecondition (the trees are not consistent).
absl::Status VerifyConsistency(uint64_t old_size, uint64_t new_size, const Hash& old_root,
                               const Hash& new_root, absl::Span<const Hash> proof);

}  // namespace arbiter::engine::merkle

#endif  // ARBITER_ENGINE_MERKLE_MERKLE_H_
