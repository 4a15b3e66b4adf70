// Tiles: how a store keeps the hashes of an append-only Merkle tree
// (merkle.h) in few rows, in the manner of the tiles of the Go checksum
// database (golang.org/x/mod/sumdb/tlog).
//
// Tile level t holds the hashes of the perfect subtrees of height 4t (tile
// level 0: the leaf hashes), sixteen to a tile: tile (t, k) holds nodes
// (4t, 16k) to (4t, 16k + 15). Every other perfect subtree, of height
// 4t + r with r in 1..3, is the root of 2^r consecutive hashes of one tile
// and is recomputed when it is read. So a tree of n leaves is kept in about
// n / 15 tiles instead of 2n node hashes.
//
// The rightmost tile of a level is not full yet. A store keeps it at every
// width it had when a builder step ended; each such partial tile is a prefix
// of the tiles stored later at the same place, so any stored width that
// covers the hashes a reader needs gives the same answer.
//
// Pure functions and a value type, no I/O.
#ifndef ARBITER_ENGINE_MERKLE_TILES_H_
#define ARBITER_ENGINE_MERKLE_TILES_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "engine/merkle/merkle.h"

namespace arbiter::engine::merkle {

inline constexpr int kTileHeight = 4;
inline constexpr int kTileWidth = 1 << kTileHeight;

struct TileId {
  int level = 0;       // tile level: nodes of height level * kTileHeight
  uint64_t index = 0;  // which tile of that level
  friend bool operator==(const TileId&, const TileId&) = default;
  friend auto operator<=>(const TileId&, const TileId&) = default;
};

// Where the hash of a perfect subtree comes from: the root of `count`
// consecutive hashes of `tile`, from offset `first`.
struct TileSlice {
  TileId tile;
  int first = 0;
  int count = 1;
  // How many hashes of the tile a reader needs.
  int width_needed() const { return first + count; }
};

TileSlice SliceOfNode(NodeId node);

// The node's hash, from the tile's hashes (at least slice.width_needed()).
// InvalidArgument if there are fewer.
absl::StatusOr<Hash> NodeFromTile(absl::Span<const Hash> tile_hashes, const TileSlice& slice);

// The rightmost, not full, tile of each tile level of a tree of `size`
// leaves, with its width (1..15), lowest level first.
std::vector<std::pair<TileId, int>> PartialTiles(uint64_t size);

// A tile to store: its place and its hashes (the width is their number).
struct TileContent {
  TileId id;
  std::vector<Hash> hashes;
};

// Follows the rightmost tile of every tile level while leaves are appended
// and says which tiles to store. Copyable: a builder step works on a copy and
// keeps it only when its writes commit.
class TileBuilder {
 public:
  // For an empty tree.
  TileBuilder() = default;
  // For a tree of `size` leaves whose rightmost tiles (PartialTiles(size),
  // in that order) hold `partial` hashes. InvalidArgument if the widths do
  // not match.
  static absl::StatusOr<TileBuilder> Restore(uint64_t size,
                                             std::vector<std::vector<Hash>> partial);

  // Takes the perfect subtrees one append completed (CompactRange::Append);
  // those of a height that is a multiple of kTileHeight enter their tile.
  // They must come in the order the tree completes them.
  void Add(absl::Span<const std::pair<NodeId, Hash>> completed);

  // The tiles to store since the last call: every tile that filled, then the
  // rightmost tile of each level that grew and is not full.
  std::vector<TileContent> TakeTilesToStore();

 private:
  struct Level {
    uint64_t nodes = 0;         // nodes of this height so far
    std::vector<Hash> partial;  // the rightmost tile's hashes (< kTileWidth)
    bool grew = false;
  };
  std::vector<Level> levels_;
  std::vector<TileContent> full_;
};

}  // namespace arbiter::engine::merkle

#endif  // ARBITER_ENGINE_MERKLE_TILES_H_
