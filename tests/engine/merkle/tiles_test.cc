// Tiles against the tree itself: every perfect subtree read back from the
// tiles a builder stored equals the subtree's root computed from its leaves,
// whatever the step boundaries were, and a builder restored from stored
// tiles carries on exactly as one that never stopped.
#include "engine/merkle/tiles.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/merkle/compact_range.h"

namespace arbiter::engine::merkle {
namespace {

std::vector<Hash> Leaves(std::size_t n) {
  std::vector<Hash> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(LeafHash(absl::StrCat("leaf ", i)));
  return out;
}

// A store: every tile at every width stored, refusing the same place twice.
class TileStore {
 public:
  void Put(const TileContent& tile) {
    const auto key = std::make_pair(tile.id, static_cast<int>(tile.hashes.size()));
    ASSERT_EQ(tiles_.count(key), 0u) << "tile (" << tile.id.level << ", " << tile.id.index
                                     << ") stored twice at width " << key.second;
    ASSERT_GE(key.second, 1);
    ASSERT_LE(key.second, kTileWidth);
    tiles_[key] = tile.hashes;
  }
  // The widest stored copy of `id` with at least `width` hashes.
  const std::vector<Hash>* Widest(TileId id, int width) const {
    const std::vector<Hash>* best = nullptr;
    for (int w = width; w <= kTileWidth; ++w) {
      auto it = tiles_.find({id, w});
      if (it != tiles_.end()) best = &it->second;
    }
    return best;
  }
  const std::vector<Hash>* Exactly(TileId id, int width) const {
    auto it = tiles_.find({id, width});
    return it == tiles_.end() ? nullptr : &it->second;
  }
  std::size_t size() const { return tiles_.size(); }

 private:
  std::map<std::pair<TileId, int>, std::vector<Hash>> tiles_;
};

TEST(TilesTest, SliceOfNodeNamesTheTileAndTheHashesUnderTheNode) {
  TileSlice leaf = SliceOfNode({0, 5});
  EXPECT_EQ(leaf.tile, (TileId{0, 0}));
  EXPECT_EQ(leaf.first, 5);
  EXPECT_EQ(leaf.count, 1);

  TileSlice eight = SliceOfNode({3, 5});  // leaves 40..47
  EXPECT_EQ(eight.tile, (TileId{0, 2}));
  EXPECT_EQ(eight.first, 8);
  EXPECT_EQ(eight.count, 8);
  EXPECT_EQ(eight.width_needed(), 16);

  TileSlice sixteen = SliceOfNode({4, 3});
  EXPECT_EQ(sixteen.tile, (TileId{1, 0}));
  EXPECT_EQ(sixteen.first, 3);
  EXPECT_EQ(sixteen.count, 1);

  TileSlice sixty_four = SliceOfNode({6, 5});  // level-4 nodes 20..23
  EXPECT_EQ(sixty_four.tile, (TileId{1, 1}));
  EXPECT_EQ(sixty_four.first, 4);
  EXPECT_EQ(sixty_four.count, 4);
}

TEST(TilesTest, PartialTilesAreTheRightmostTileOfEachLevelThatIsNotFull) {
  EXPECT_TRUE(PartialTiles(0).empty());
  using P = std::vector<std::pair<TileId, int>>;
  EXPECT_EQ(PartialTiles(5), (P{{{0, 0}, 5}}));
  EXPECT_EQ(PartialTiles(16), (P{{{1, 0}, 1}}));
  EXPECT_EQ(PartialTiles(17), (P{{{0, 1}, 1}, {{1, 0}, 1}}));
  EXPECT_EQ(PartialTiles(256), (P{{{2, 0}, 1}}));
  EXPECT_EQ(PartialTiles(16 * 16 * 3 + 16 * 2 + 7),
            (P{{{0, 50}, 7}, {{1, 3}, 2}, {{2, 0}, 3}}));
}

TEST(TilesTest, NodeFromTileRefusesATileThatIsTooNarrow) {
  const std::vector<Hash> hashes = Leaves(7);
  absl::StatusOr<Hash> node = NodeFromTile(hashes, SliceOfNode({3, 0}));
  ASSERT_FALSE(node.ok());
  EXPECT_EQ(node.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(node.status().message().find("has 7 hashes; 8 are needed"), std::string::npos)
      << node.status();
}

// Builds a tree of `n` leaves in steps of random lengths, storing what the
// builder asks for after each step; checks every perfect subtree of every
// step's tree against RootOf.
TEST(TilesTest, EveryPerfectSubtreeReadsBackFromTheStoredTiles) {
  std::mt19937_64 random(20261123);
  for (std::size_t n : {1u, 15u, 16u, 17u, 255u, 256u, 257u, 1000u, 4500u}) {
    const std::vector<Hash> leaves = Leaves(n);
    CompactRange range;
    TileBuilder builder;
    TileStore store;
    std::vector<uint64_t> step_ends;
    std::size_t next = 0;
    while (next < n) {
      const std::size_t step = std::uniform_int_distribution<std::size_t>(1, 40)(random);
      for (std::size_t i = 0; i < step && next < n; ++i, ++next) {
        builder.Add(range.Append(leaves[next]));
      }
      for (const TileContent& tile : builder.TakeTilesToStore()) store.Put(tile);
      step_ends.push_back(next);
    }
    // About n/15 tiles plus one partial tile per level per step.
    EXPECT_LE(store.size(), n / 15 + 1 + step_ends.size() * 3) << n;
    for (uint64_t size : step_ends) {
      for (int level = 0; (uint64_t{1} << level) <= size; ++level) {
        for (uint64_t index = 0; ((index + 1) << level) <= size; ++index) {
          const TileSlice slice = SliceOfNode({level, index});
          const std::vector<Hash>* tile = store.Widest(slice.tile, slice.width_needed());
          ASSERT_NE(tile, nullptr) << "n " << n << " node (" << level << ", " << index << ")";
          absl::StatusOr<Hash> got = NodeFromTile(*tile, slice);
          ASSERT_TRUE(got.ok()) << got.status();
          const absl::Span<const Hash> under =
              absl::MakeConstSpan(leaves).subspan(index << level, std::size_t{1} << level);
          EXPECT_EQ(ToHex(*got), ToHex(RootOf(under)))
              << "n " << n << " node (" << level << ", " << index << ")";
        }
      }
    }
  }
}

TEST(TilesTest, ARestoredBuilderStoresWhatOneThatNeverStoppedStores) {
  const std::vector<Hash> leaves = Leaves(3000);
  for (uint64_t stop_at : {0u, 1u, 16u, 17u, 255u, 256u, 300u, 2049u}) {
    CompactRange range;
    TileBuilder builder;
    TileStore store;
    for (uint64_t i = 0; i < stop_at; ++i) builder.Add(range.Append(leaves[i]));
    for (const TileContent& tile : builder.TakeTilesToStore()) store.Put(tile);

    std::vector<std::vector<Hash>> partial;
    for (const auto& [id, width] : PartialTiles(stop_at)) {
      const std::vector<Hash>* tile = store.Exactly(id, width);
      ASSERT_NE(tile, nullptr) << "partial tile (" << id.level << ", " << id.index << ") at "
                               << stop_at;
      partial.push_back(*tile);
    }
    absl::StatusOr<TileBuilder> restored = TileBuilder::Restore(stop_at, partial);
    ASSERT_TRUE(restored.ok()) << restored.status();

    CompactRange range_copy = range;
    for (uint64_t i = stop_at; i < leaves.size(); ++i) {
      const auto completed = range.Append(leaves[i]);
      builder.Add(completed);
      restored->Add(range_copy.Append(leaves[i]));
    }
    const std::vector<TileContent> expected = builder.TakeTilesToStore();
    const std::vector<TileContent> got = restored->TakeTilesToStore();
    ASSERT_EQ(got.size(), expected.size()) << stop_at;
    for (std::size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i].id, expected[i].id) << stop_at;
      EXPECT_EQ(got[i].hashes, expected[i].hashes) << stop_at;
    }
  }
}

TEST(TilesTest, RestoreRefusesPartialTilesOfTheWrongWidth) {
  absl::StatusOr<TileBuilder> missing = TileBuilder::Restore(17, {Leaves(1)});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("has 2 partial tiles, not 1"), std::string::npos)
      << missing.status();
  absl::StatusOr<TileBuilder> narrow = TileBuilder::Restore(5, {Leaves(4)});
  ASSERT_FALSE(narrow.ok());
  EXPECT_NE(narrow.status().message().find("should have 5 hashes, not 4"), std::string::npos)
      << narrow.status();
}

}  // namespace
}  // namespace arbiter::engine::merkle
