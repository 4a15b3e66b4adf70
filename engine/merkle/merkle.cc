#include "engine/merkle/merkle.h"

#include <openssl/sha.h>

#include <bit>

#include "absl/strings/str_cat.h"

namespace arbiter::engine::merkle {
namespace {

constexpr char kHexDigits[] = "0123456789abcdef";

// The largest power of two smaller than n (n >= 2).
uint64_t SplitPoint(uint64_t n) { return std::bit_floor(n - 1); }

void Path(uint64_t m, uint64_t offset, uint64_t n, std::vector<Range>& out) {
  if (n <= 1) return;
  const uint64_t k = SplitPoint(n);
  if (m < k) {
    Path(m, offset, k, out);
    out.push_back({offset + k, offset + n});
  } else {
    Path(m - k, offset + k, n - k, out);
    out.push_back({offset, offset + k});
  }
}

void SubProof(uint64_t m, uint64_t offset, uint64_t n, bool whole, std::vector<Range>& out) {
  if (m == n) {
    if (!whole) out.push_back({offset, offset + n});
    return;
  }
  const uint64_t k = SplitPoint(n);
  if (m <= k) {
    SubProof(m, offset, k, whole, out);
    out.push_back({offset + k, offset + n});
  } else {
    SubProof(m - k, offset + k, n - k, false, out);
    out.push_back({offset, offset + k});
  }
}

}  // namespace

Hash LeafHash(std::string_view data) {
  Hash out;
  uint8_t small[65];
  if (data.size() < sizeof(small)) {
    small[0] = 0x00;
    std::copy(data.begin(), data.end(), small + 1);
    SHA256(small, data.size() + 1, out.data());
    return out;
  }
  std::string buffer(1, '\0');
  buffer.append(data);
  SHA256(reinterpret_cast<const uint8_t*>(buffer.data()), buffer.size(), out.data());
  return out;
}

Hash NodeHash(const Hash& left, const Hash& right) {
  uint8_t buffer[65];
  buffer[0] = 0x01;
  std::copy(left.begin(), left.end(), buffer + 1);
  std::copy(right.begin(), right.end(), buffer + 33);
  Hash out;
  SHA256(buffer, sizeof(buffer), out.data());
  return out;
}

Hash EmptyRoot() {
  Hash out;
  SHA256(nullptr, 0, out.data());
  return out;
}

std::string ToHex(const Hash& hash) {
  std::string out(64, '0');
  for (std::size_t i = 0; i < hash.size(); ++i) {
    out[2 * i] = kHexDigits[hash[i] >> 4];
    out[2 * i + 1] = kHexDigits[hash[i] & 15];
  }
  return out;
}

absl::StatusOr<Hash> FromHex(std::string_view hex) {
  if (hex.size() != 64) {
    return absl::InvalidArgumentError(
        absl::StrCat("a hash is 64 hex digits, not ", hex.size(), " characters"));
  }
  Hash out;
  for (std::size_t i = 0; i < 64; ++i) {
    const char c = hex[i];
    int v = 0;
    if (c >= '0' && c <= '9') {
      v = c - '0';
    } else if (c >= 'a' && c <= 'f') {
      v = c - 'a' + 10;
    } else if (c >= 'A' && c <= 'F') {
      v = c - 'A' + 10;
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("a hash is 64 hex digits; character ", i + 1, " is not one"));
    }
    if (i % 2 == 0) {
      out[i / 2] = static_cast<uint8_t>(v << 4);
    } else {
      out[i / 2] = static_cast<uint8_t>(out[i / 2] | v);
    }
  }
  return out;
}

std::string ToBytes(const Hash& hash) {
  return std::string(reinterpret_cast<const char*>(hash.data()), hash.size());
}

absl::StatusOr<Hash> FromBytes(std::string_view bytes) {
  if (bytes.size() != 32) {
    return absl::InvalidArgumentError(
        absl::StrCat("a hash is 32 bytes, not ", bytes.size()));
  }
  Hash out;
  std::copy(bytes.begin(), bytes.end(), out.begin());
  return out;
}

std::vector<NodeId> SubtreeNodes(Range range) {
  std::vector<NodeId> out;
  uint64_t begin = range.begin;
  const uint64_t size = range.end - range.begin;
  for (int level = 63; level >= 0; --level) {
    const uint64_t width = uint64_t{1} << level;
    if ((size & width) == 0) continue;
    out.push_back({level, begin >> level});
    begin += width;
  }
  return out;
}

Hash FoldRight(absl::Span<const Hash> hashes) {
  if (hashes.empty()) return EmptyRoot();
  Hash acc = hashes.back();
  for (std::size_t i = hashes.size() - 1; i-- > 0;) acc = NodeHash(hashes[i], acc);
  return acc;
}

Hash RootOf(absl::Span<const Hash> leaf_hashes) {
  const std::size_t n = leaf_hashes.size();
  if (n == 0) return EmptyRoot();
  if (n == 1) return leaf_hashes[0];
  const std::size_t k = SplitPoint(n);
  return NodeHash(RootOf(leaf_hashes.subspan(0, k)), RootOf(leaf_hashes.subspan(k)));
}

std::vector<Range> InclusionRanges(uint64_t index, uint64_t size) {
  std::vector<Range> out;
  if (index < size) Path(index, 0, size, out);
  return out;
}

std::vector<Range> ConsistencyRanges(uint64_t old_size, uint64_t new_size) {
  std::vector<Range> out;
  if (old_size == 0 || old_size >= new_size) return out;
  SubProof(old_size, 0, new_size, true, out);
  return out;
}

absl::StatusOr<std::vector<Hash>> InclusionProof(uint64_t index,
                                                 absl::Span<const Hash> leaf_hashes) {
  if (index >= leaf_hashes.size()) {
    return absl::InvalidArgumentError(absl::StrCat("leaf ", index, " is not in a tree of ",
                                                   leaf_hashes.size(), " leaves"));
  }
  std::vector<Hash> out;
  for (const Range& r : InclusionRanges(index, leaf_hashes.size())) {
    out.push_back(RootOf(leaf_hashes.subspan(r.begin, r.end - r.begin)));
  }
  return out;
}

absl::StatusOr<std::vector<Hash>> ConsistencyProof(uint64_t old_size,
                                                   absl::Span<const Hash> leaf_hashes) {
  if (old_size > leaf_hashes.size()) {
    return absl::InvalidArgumentError(absl::StrCat("a tree of ", old_size,
                                                   " leaves is not a prefix of one of ",
                                                   leaf_hashes.size()));
  }
  std::vector<Hash> out;
  for (const Range& r : ConsistencyRanges(old_size, leaf_hashes.size())) {
    out.push_back(RootOf(leaf_hashes.subspan(r.begin, r.end - r.begin)));
  }
  return out;
}

absl::StatusOr<Hash> RootFromInclusion(uint64_t index, uint64_t size, const Hash& leaf_hash,
                                       absl::Span<const Hash> proof) {
  if (index >= size) {
    return absl::InvalidArgumentError(
        absl::StrCat("leaf ", index, " is not in a tree of ", size, " leaves"));
  }
  uint64_t fn = index;
  uint64_t sn = size - 1;
  Hash r = leaf_hash;
  for (const Hash& p : proof) {
    if (sn == 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the inclusion proof of leaf ", index, " in a tree of ", size, " leaves has ",
          proof.size(), " hashes, more than such a proof has"));
    }
    if ((fn & 1) == 1 || fn == sn) {
      r = NodeHash(p, r);
      while ((fn & 1) == 0 && fn != 0) {
        fn >>= 1;
        sn >>= 1;
      }
    } else {
      r = NodeHash(r, p);
    }
    fn >>= 1;
    sn >>= 1;
  }
  if (sn != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the inclusion proof of leaf ", index, " in a tree of ", size, " leaves has ",
        proof.size(), " hashes, fewer than such a proof has"));
  }
  return r;
}

absl::Status VerifyInclusion(uint64_t index, uint64_t size, const Hash& leaf_hash,
                             absl::Span<const Hash> proof, const Hash& root) {
  absl::StatusOr<Hash> computed = RootFromInclusion(index, size, leaf_hash, proof);
  if (!computed.ok()) return computed.status();
  if (*computed != root) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the inclusion proof of leaf ", index, " leads to root ", ToHex(*computed),
        ", not to the tree's root ", ToHex(root), " (size ", size, ")"));
  }
  return absl::OkStatus();
}

absl::Status VerifyConsistency(uint64_t old_size, uint64_t new_size, const Hash& old_root,
                               const Hash& new_root, absl::Span<const Hash> proof) {
  if (old_size > new_size) {
    return absl::InvalidArgumentError(absl::StrCat("a tree of ", old_size,
                                                   " leaves cannot be a prefix of one of ",
                                                   new_size, " leaves"));
  }
  if (old_size == new_size || old_size == 0) {
    if (!proof.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the consistency proof from size ", old_size, " to ", new_size,
          " must be empty, it has ", proof.size(), " hashes"));
    }
    if (old_size == new_size && old_root != new_root) {
      return absl::FailedPreconditionError(
          absl::StrCat("two trees of ", old_size, " leaves have different roots: ",
                       ToHex(old_root), " and ", ToHex(new_root)));
    }
    return absl::OkStatus();
  }
  if (proof.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("the consistency proof from size ", old_size,
                                                   " to ", new_size, " is empty"));
  }
  std::vector<Hash> path;
  path.reserve(proof.size() + 1);
  if (std::has_single_bit(old_size)) path.push_back(old_root);
  path.insert(path.end(), proof.begin(), proof.end());
  uint64_t fn = old_size - 1;
  uint64_t sn = new_size - 1;
  while ((fn & 1) == 1) {
    fn >>= 1;
    sn >>= 1;
  }
  Hash fr = path[0];
  Hash sr = path[0];
  for (std::size_t i = 1; i < path.size(); ++i) {
    const Hash& c = path[i];
    if (sn == 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the consistency proof from size ", old_size, " to ", new_size, " has ",
          proof.size(), " hashes, more than such a proof has"));
    }
    if ((fn & 1) == 1 || fn == sn) {
      fr = NodeHash(c, fr);
      sr = NodeHash(c, sr);
      while ((fn & 1) == 0 && fn != 0) {
        fn >>= 1;
        sn >>= 1;
      }
    } else {
      sr = NodeHash(sr, c);
    }
    fn >>= 1;
    sn >>= 1;
  }
  if (sn != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the consistency proof from size ", old_size, " to ", new_size, " has ", proof.size(),
        " hashes, fewer than such a proof has"));
  }
  if (fr != old_root) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the consistency proof from size ", old_size, " to ", new_size,
        " does not lead to the old root ", ToHex(old_root), " (it leads to ", ToHex(fr), ")"));
  }
  if (sr != new_root) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the consistency proof from size ", old_size, " to ", new_size,
        " does not lead to the new root ", ToHex(new_root), " (it leads to ", ToHex(sr), ")"));
  }
  return absl::OkStatus();
}

}  // namespace arbiter::engine::merkle
