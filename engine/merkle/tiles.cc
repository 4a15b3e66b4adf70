#include "engine/merkle/tiles.h"

#include "absl/strings/str_cat.h"

namespace arbiter::engine::merkle {

TileSlice SliceOfNode(NodeId node) {
  const int rest = node.level % kTileHeight;
  const uint64_t first_in_level = node.index << rest;  // first node of height level - rest
  TileSlice slice;
  slice.tile = {node.level / kTileHeight, first_in_level / kTileWidth};
  slice.first = static_cast<int>(first_in_level % kTileWidth);
  slice.count = 1 << rest;
  return slice;
}

absl::StatusOr<Hash> NodeFromTile(absl::Span<const Hash> tile_hashes, const TileSlice& slice) {
  if (tile_hashes.size() < static_cast<std::size_t>(slice.width_needed())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "tile (", slice.tile.level, ", ", slice.tile.index, ") has ", tile_hashes.size(),
        " hashes; ", slice.width_needed(), " are needed"));
  }
  // A perfect subtree of `count` (a power of two) nodes: RootOf pairs them.
  return RootOf(tile_hashes.subspan(slice.first, slice.count));
}

std::vector<std::pair<TileId, int>> PartialTiles(uint64_t size) {
  std::vector<std::pair<TileId, int>> out;
  for (int level = 0; level * kTileHeight < 64; ++level) {
    const uint64_t nodes = size >> (level * kTileHeight);
    if (nodes == 0) break;
    const int width = static_cast<int>(nodes % kTileWidth);
    if (width > 0) out.push_back({{level, nodes / kTileWidth}, width});
  }
  return out;
}

absl::StatusOr<TileBuilder> TileBuilder::Restore(uint64_t size,
                                                 std::vector<std::vector<Hash>> partial) {
  const std::vector<std::pair<TileId, int>> expected = PartialTiles(size);
  if (partial.size() != expected.size()) {
    return absl::InvalidArgumentError(absl::StrCat("a tree of ", size, " leaves has ",
                                                   expected.size(), " partial tiles, not ",
                                                   partial.size()));
  }
  TileBuilder builder;
  for (int level = 0; level * kTileHeight < 64; ++level) {
    const uint64_t nodes = size >> (level * kTileHeight);
    if (nodes == 0) break;
    builder.levels_.push_back({nodes, {}, false});
  }
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const auto& [id, width] = expected[i];
    if (partial[i].size() != static_cast<std::size_t>(width)) {
      return absl::InvalidArgumentError(absl::StrCat("tile (", id.level, ", ", id.index,
                                                     ") should have ", width, " hashes, not ",
                                                     partial[i].size()));
    }
    builder.levels_[id.level].partial = std::move(partial[i]);
  }
  return builder;
}

void TileBuilder::Add(absl::Span<const std::pair<NodeId, Hash>> completed) {
  for (const auto& [node, hash] : completed) {
    if (node.level % kTileHeight != 0) continue;
    const auto tile_level = static_cast<std::size_t>(node.level / kTileHeight);
    if (levels_.size() <= tile_level) levels_.resize(tile_level + 1);
    Level& level = levels_[tile_level];
    level.partial.push_back(hash);
    level.grew = true;
    ++level.nodes;
    if (level.partial.size() == kTileWidth) {
      full_.push_back({{static_cast<int>(tile_level), node.index / kTileWidth},
                       std::move(level.partial)});
      level.partial.clear();
    }
  }
}

std::vector<TileContent> TileBuilder::TakeTilesToStore() {
  std::vector<TileContent> out = std::move(full_);
  full_.clear();
  for (std::size_t i = 0; i < levels_.size(); ++i) {
    Level& level = levels_[i];
    if (level.grew && !level.partial.empty()) {
      out.push_back({{static_cast<int>(i), level.nodes / kTileWidth}, level.partial});
    }
    level.grew = false;
  }
  return out;
}

}  // namespace arbiter::engine::merkle
