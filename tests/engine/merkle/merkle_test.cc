// The Merkle tree code against the published RFC 6962 test vectors of
// Certificate Transparency (eight leaves "", 00, 10, 2021, 3031, 40414243,
// 5051525354555657, 606162636465666768696a6b6c6d6e6f), and against a naive
// recursive implementation of RFC 6962's MTH, PATH and PROOF on random trees.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "engine/merkle/compact_range.h"
#include "engine/merkle/merkle.h"

namespace arbiter::engine::merkle {
namespace {

const char* const kLeafData[] = {"",         "00",       "10",
                                 "2021",     "3031",     "40414243",
                                 "5051525354555657", "606162636465666768696a6b6c6d6e6f"};

const char* const kRoots[] = {
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328"};

Hash H(const char* hex) {
  absl::StatusOr<Hash> h = FromHex(hex);
  EXPECT_TRUE(h.ok()) << hex;
  return h.ok() ? *h : Hash{};
}

std::vector<Hash> Hs(std::initializer_list<const char*> hexes) {
  std::vector<Hash> out;
  for (const char* hex : hexes) out.push_back(H(hex));
  return out;
}

std::vector<Hash> VectorLeaves(std::size_t n) {
  std::vector<Hash> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(LeafHash(absl::HexStringToBytes(kLeafData[i])));
  return out;
}

std::vector<std::string> Hex(const std::vector<Hash>& hashes) {
  std::vector<std::string> out;
  for (const Hash& h : hashes) out.push_back(ToHex(h));
  return out;
}

// RFC 6962 section 2.1, written as literally as possible.
uint64_t K(uint64_t n) {
  uint64_t k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}
Hash NaiveMth(const std::vector<Hash>& d) {
  if (d.empty()) return EmptyRoot();
  if (d.size() == 1) return d[0];
  const uint64_t k = K(d.size());
  return NodeHash(NaiveMth({d.begin(), d.begin() + k}), NaiveMth({d.begin() + k, d.end()}));
}
std::vector<Hash> NaivePath(uint64_t m, const std::vector<Hash>& d) {
  if (d.size() <= 1) return {};
  const uint64_t k = K(d.size());
  const std::vector<Hash> left(d.begin(), d.begin() + k), right(d.begin() + k, d.end());
  std::vector<Hash> out = m < k ? NaivePath(m, left) : NaivePath(m - k, right);
  out.push_back(m < k ? NaiveMth(right) : NaiveMth(left));
  return out;
}
std::vector<Hash> NaiveSubproof(uint64_t m, const std::vector<Hash>& d, bool b) {
  const uint64_t n = d.size();
  if (m == n) return b ? std::vector<Hash>{} : std::vector<Hash>{NaiveMth(d)};
  const uint64_t k = K(n);
  const std::vector<Hash> left(d.begin(), d.begin() + k), right(d.begin() + k, d.end());
  std::vector<Hash> out = m <= k ? NaiveSubproof(m, left, b) : NaiveSubproof(m - k, right, false);
  out.push_back(m <= k ? NaiveMth(right) : NaiveMth(left));
  return out;
}

TEST(MerkleVectors, RootsOfZeroToEightLeavesAreThePublishedOnes) {
  const std::vector<Hash> leaves = VectorLeaves(8);
  for (std::size_t n = 0; n <= 8; ++n) {
    EXPECT_EQ(ToHex(RootOf(absl::MakeConstSpan(leaves).subspan(0, n))), kRoots[n]) << n;
  }
}

TEST(MerkleVectors, CompactRangeGivesThePublishedRootAfterEachAppend) {
  CompactRange range;
  EXPECT_EQ(ToHex(range.Root()), kRoots[0]);
  for (const Hash& leaf : VectorLeaves(8)) {
    range.Append(leaf);
    EXPECT_EQ(ToHex(range.Root()), kRoots[range.size()]) << range.size();
  }
}

TEST(MerkleVectors, InclusionProofsAreThePublishedOnes) {
  struct Case {
    uint64_t index, size;
    std::vector<Hash> proof;
  };
  const std::vector<Case> cases = {
      {0, 1, {}},
      {0, 8,
       Hs({"96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
           "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
           "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"})},
      {5, 8,
       Hs({"bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
           "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
           "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"})},
      {2, 3, Hs({"fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"})},
      {1, 5,
       Hs({"6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
           "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
           "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"})},
  };
  const std::vector<Hash> leaves = VectorLeaves(8);
  for (const Case& c : cases) {
    auto span = absl::MakeConstSpan(leaves).subspan(0, c.size);
    absl::StatusOr<std::vector<Hash>> proof = InclusionProof(c.index, span);
    ASSERT_TRUE(proof.ok()) << proof.status();
    EXPECT_EQ(Hex(*proof), Hex(c.proof)) << c.index << " of " << c.size;
    EXPECT_TRUE(VerifyInclusion(c.index, c.size, leaves[c.index], c.proof, H(kRoots[c.size])).ok());
  }
}

TEST(MerkleVectors, ConsistencyProofsAreThePublishedOnes) {
  struct Case {
    uint64_t old_size, new_size;
    std::vector<Hash> proof;
  };
  const std::vector<Case> cases = {
      {1, 1, {}},
      {1, 8,
       Hs({"96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
           "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
           "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"})},
      {6, 8,
       Hs({"0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
           "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
           "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"})},
      {2, 5,
       Hs({"5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
           "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"})},
  };
  const std::vector<Hash> leaves = VectorLeaves(8);
  for (const Case& c : cases) {
    auto span = absl::MakeConstSpan(leaves).subspan(0, c.new_size);
    absl::StatusOr<std::vector<Hash>> proof = ConsistencyProof(c.old_size, span);
    ASSERT_TRUE(proof.ok()) << proof.status();
    EXPECT_EQ(Hex(*proof), Hex(c.proof)) << c.old_size << " to " << c.new_size;
    EXPECT_TRUE(VerifyConsistency(c.old_size, c.new_size, H(kRoots[c.old_size]),
                                  H(kRoots[c.new_size]), c.proof)
                    .ok());
  }
}

TEST(MerkleVerify, AWrongLeafOrRootIsFailedPreconditionNamingTheRoots) {
  const std::vector<Hash> leaves = VectorLeaves(8);
  const std::vector<Hash> proof = *InclusionProof(5, leaves);
  absl::Status wrong_leaf = VerifyInclusion(5, 8, leaves[4], proof, H(kRoots[8]));
  EXPECT_EQ(wrong_leaf.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(wrong_leaf.message().find("not to the tree's root " + std::string(kRoots[8])),
            std::string::npos)
      << wrong_leaf;
  EXPECT_EQ(VerifyInclusion(5, 8, leaves[5], proof, H(kRoots[7])).code(),
            absl::StatusCode::kFailedPrecondition);
  // Same hashes, claimed at another index.
  EXPECT_EQ(VerifyInclusion(4, 8, leaves[5], proof, H(kRoots[8])).code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(MerkleVerify, AProofOfTheWrongLengthIsInvalidArgument) {
  const std::vector<Hash> leaves = VectorLeaves(8);
  std::vector<Hash> proof = *InclusionProof(5, leaves);
  std::vector<Hash> shorter(proof.begin(), proof.end() - 1);
  absl::Status s = VerifyInclusion(5, 8, leaves[5], shorter, H(kRoots[8]));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "the inclusion proof of leaf 5 in a tree of 8 leaves has 2 hashes, fewer than such a "
            "proof has");
  proof.push_back(leaves[0]);
  EXPECT_EQ(VerifyInclusion(5, 8, leaves[5], proof, H(kRoots[8])).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(VerifyInclusion(8, 8, leaves[5], {}, H(kRoots[8])).message(),
            "leaf 8 is not in a tree of 8 leaves");
}

TEST(MerkleVerify, AnInconsistentHistoryIsFailedPrecondition) {
  std::vector<Hash> leaves = VectorLeaves(8);
  const std::vector<Hash> proof = *ConsistencyProof(6, leaves);
  // The new tree rewrote leaf 3: its root differs, and no proof links it to
  // the old root.
  std::vector<Hash> rewritten = leaves;
  rewritten[3] = LeafHash("rewritten");
  const std::vector<Hash> forged = *ConsistencyProof(6, rewritten);
  absl::Status s = VerifyConsistency(6, 8, H(kRoots[6]), RootOf(rewritten), forged);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("does not lead to the old root " + std::string(kRoots[6])),
            std::string::npos)
      << s;
  EXPECT_EQ(VerifyConsistency(6, 8, H(kRoots[6]), RootOf(rewritten), proof).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(VerifyConsistency(8, 6, H(kRoots[8]), H(kRoots[6]), {}).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(VerifyConsistency(8, 8, H(kRoots[8]), H(kRoots[7]), {}).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(VerifyConsistency(6, 8, H(kRoots[6]), H(kRoots[8]), {}).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(VerifyConsistency(0, 8, H(kRoots[0]), H(kRoots[8]), {}).ok());
}

TEST(MerkleHex, BadHexIsInvalidArgumentNamingTheCharacter) {
  EXPECT_EQ(FromHex("00").status().message(), "a hash is 64 hex digits, not 2 characters");
  std::string bad(64, 'a');
  bad[10] = 'g';
  EXPECT_EQ(FromHex(bad).status().message(), "a hash is 64 hex digits; character 11 is not one");
  EXPECT_EQ(FromBytes("abc").status().code(), absl::StatusCode::kInvalidArgument);
}

// Random trees: proofs from all leaves, proofs from the perfect subtrees a
// CompactRange reports (as the store keeps them), and the naive recursion
// all agree, and every proof verifies while a flipped hash does not.
TEST(MerkleRandom, ProofsAgreeWithTheNaiveRecursionAndVerify) {
  std::mt19937_64 rng(6962);
  for (int round = 0; round < 60; ++round) {
    const uint64_t n = 1 + rng() % 70;
    std::vector<Hash> leaves;
    CompactRange range;
    std::map<std::pair<int, uint64_t>, Hash> nodes;
    std::vector<Hash> roots = {EmptyRoot()};
    for (uint64_t i = 0; i < n; ++i) {
      leaves.push_back(LeafHash(std::to_string(rng())));
      for (const auto& [id, hash] : range.Append(leaves.back())) nodes[{id.level, id.index}] = hash;
      roots.push_back(range.Root());
      ASSERT_EQ(ToHex(roots.back()), ToHex(NaiveMth(leaves)));
    }
    auto from_nodes = [&](const std::vector<Range>& ranges) {
      std::vector<Hash> out;
      for (const Range& r : ranges) {
        std::vector<Hash> parts;
        for (const NodeId& id : SubtreeNodes(r)) parts.push_back(nodes.at({id.level, id.index}));
        out.push_back(FoldRight(parts));
      }
      return out;
    };
    for (uint64_t m = 0; m < n; ++m) {
      const std::vector<Hash> naive = NaivePath(m, leaves);
      ASSERT_EQ(Hex(*InclusionProof(m, leaves)), Hex(naive)) << m << "/" << n;
      ASSERT_EQ(Hex(from_nodes(InclusionRanges(m, n))), Hex(naive)) << m << "/" << n;
      ASSERT_TRUE(VerifyInclusion(m, n, leaves[m], naive, roots[n]).ok()) << m << "/" << n;
      if (!naive.empty()) {
        std::vector<Hash> bad = naive;
        bad[rng() % bad.size()][0] ^= 1;
        ASSERT_FALSE(VerifyInclusion(m, n, leaves[m], bad, roots[n]).ok());
      }
    }
    for (uint64_t old_size = 1; old_size <= n; ++old_size) {
      std::vector<Hash> prefix(leaves.begin(), leaves.begin() + n);
      const std::vector<Hash> naive =
          old_size == n ? std::vector<Hash>{} : NaiveSubproof(old_size, leaves, true);
      ASSERT_EQ(Hex(*ConsistencyProof(old_size, leaves)), Hex(naive)) << old_size << "->" << n;
      ASSERT_EQ(Hex(from_nodes(ConsistencyRanges(old_size, n))), Hex(naive));
      ASSERT_TRUE(VerifyConsistency(old_size, n, roots[old_size], roots[n], naive).ok())
          << old_size << "->" << n;
      if (!naive.empty()) {
        std::vector<Hash> bad = naive;
        bad[rng() % bad.size()][31] ^= 0x80;
        ASSERT_FALSE(VerifyConsistency(old_size, n, roots[old_size], roots[n], bad).ok());
      }
    }
  }
}

TEST(MerkleCompactRange, RestoredFromItsFrontierItContinuesTheSameTree) {
  CompactRange a;
  for (int i = 0; i < 13; ++i) a.Append(LeafHash(std::to_string(i)));
  absl::StatusOr<CompactRange> b = CompactRange::FromFrontier(13, a.frontier());
  ASSERT_TRUE(b.ok());
  for (int i = 13; i < 40; ++i) {
    a.Append(LeafHash(std::to_string(i)));
    b->Append(LeafHash(std::to_string(i)));
  }
  EXPECT_EQ(ToHex(a.Root()), ToHex(b->Root()));
  EXPECT_EQ(CompactRange::FromFrontier(13, {}).status().message(),
            "the frontier of a tree of 13 leaves has 3 hashes, not 0");
}

TEST(MerkleCompactRange, AppendReportsTheSubtreesItCompletes) {
  CompactRange range;
  for (int i = 0; i < 7; ++i) range.Append(LeafHash(std::to_string(i)));
  // Leaf 7 completes the pair (1, 3), the four (2, 1) and the eight (3, 0).
  const auto completed = range.Append(LeafHash("7"));
  ASSERT_EQ(completed.size(), 4u);
  EXPECT_EQ(completed[0].first, (NodeId{0, 7}));
  EXPECT_EQ(completed[1].first, (NodeId{1, 3}));
  EXPECT_EQ(completed[2].first, (NodeId{2, 1}));
  EXPECT_EQ(completed[3].first, (NodeId{3, 0}));
  EXPECT_EQ(ToHex(completed[3].second), ToHex(range.Root()));
  EXPECT_EQ(SubtreeNodes({0, 13}), (std::vector<NodeId>{{3, 0}, {2, 2}, {0, 12}}));
}

}  // namespace
}  // namespace arbiter::engine::merkle
