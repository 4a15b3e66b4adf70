// The stored format of rating history chunks (services/league/history_chunks.h):
// points round-trip bit for bit, land in the chunk their games number names,
// and bytes that do not parse are DataLoss.
#include "services/league/history_chunks.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"

namespace arbiter::league_service {
namespace {

league::HistoryPoint Point(const std::string& player, int64_t games) {
  league::HistoryPoint point;
  point.season = "2031";
  point.player = player;
  point.games = games;
  point.game_id = absl::StrCat("game-", games, "-of-", player);
  point.position = 1000 + games;
  point.time = absl::FromUnixMicros(1'790'000'000'000'000 + games);
  point.rating = rating::Rating{25.0 + 1.0 / 3.0 * static_cast<double>(games), 8.3 / 3.0, 0.06};
  point.place = static_cast<int>(games % 4) + 1;
  return point;
}

uint64_t Bits(double value) {
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

TEST(HistoryChunks, APointReadsBackBitForBit) {
  league::HistoryPoint point = Point("ann", 7);
  point.time = absl::FromUnixMicros(-86'400'000'001);  // before 1970
  point.rating = rating::Rating{-0.0, std::numeric_limits<double>::denorm_min(), 1e308};
  point.game_id = std::string(300, 'g') + "\t\\\n";
  point.position = (int64_t{1} << 62) + 5;
  std::string data;
  EncodePoint(point, -3.75, data);
  EncodePoint(Point("ann", 8), 12.5, data);
  absl::StatusOr<std::vector<HistoryRow>> rows = DecodeChunk(data, "north", "2031", "ann");
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), 2u);
  const HistoryRow& row = (*rows)[0];
  EXPECT_EQ(row.league_id, "north");
  EXPECT_EQ(row.point.season, "2031");
  EXPECT_EQ(row.point.player, "ann");
  EXPECT_EQ(row.point.games, 7);
  EXPECT_EQ(row.point.game_id, point.game_id);
  EXPECT_EQ(row.point.position, point.position);
  EXPECT_EQ(row.point.time, point.time);
  EXPECT_EQ(Bits(row.point.rating.mu), Bits(-0.0));
  EXPECT_EQ(Bits(row.point.rating.sigma), Bits(point.rating.sigma));
  EXPECT_EQ(Bits(row.point.rating.volatility), Bits(1e308));
  EXPECT_EQ(row.display, -3.75);
  EXPECT_EQ(row.point.place, point.place);
  EXPECT_EQ((*rows)[1].point.games, 8);
  EXPECT_EQ((*rows)[1].display, 12.5);
}

// Pinned bytes: the format is stored, so a change to the encoder must show.
TEST(HistoryChunks, TheEncodingIsTheDocumentedOne) {
  league::HistoryPoint point;
  point.games = 1;
  point.position = 300;  // varint ac 02
  point.time = absl::FromUnixMicros(-1);  // zigzag 1
  point.game_id = "g1";
  point.rating = rating::Rating{1.0, 2.0, 0.0};
  point.place = 2;  // zigzag 4
  std::string data;
  EncodePoint(point, -1.0, data);
  EXPECT_EQ(absl::BytesToHexString(data),
            "01ac0201026731"
            "000000000000f03f"
            "0000000000000040"
            "0000000000000000"
            "000000000000f0bf"
            "04");
}

TEST(HistoryChunks, PointsGoToTheChunkTheirGamesNumberNames) {
  EXPECT_EQ(ChunkOf(1), 0);
  EXPECT_EQ(ChunkOf(kHistoryChunkPoints), 0);
  EXPECT_EQ(ChunkOf(kHistoryChunkPoints + 1), 1);

  rating::RatingConfig config = *rating::MakeConfig(rating::System::kPlackettLuce, {});
  HistoryChunker chunker("north", config);
  // Two players' points interleaved, as a league's games give them.
  for (int64_t games = 1; games <= 70; ++games) {
    chunker.Add(Point("ann", games));
    if (games <= 3) chunker.Add(Point("bob", games));
  }
  EXPECT_EQ(chunker.points(), 73);
  std::vector<HistoryChunk> chunks = chunker.Take();
  ASSERT_EQ(chunks.size(), 4u);
  EXPECT_EQ(chunks[0].player, "ann");
  EXPECT_EQ(chunks[0].chunk, 0);
  EXPECT_EQ(chunks[0].points, 32);
  EXPECT_EQ(chunks[1].player, "bob");
  EXPECT_EQ(chunks[1].points, 3);
  EXPECT_EQ(chunks[2].chunk, 1);
  EXPECT_EQ(chunks[2].points, 32);
  EXPECT_EQ(chunks[3].chunk, 2);
  EXPECT_EQ(chunks[3].points, 6);
  auto rows = DecodeChunk(chunks[2].data, "north", "2031", "ann");
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 32u);
  EXPECT_EQ(rows->front().point.games, 33);
  EXPECT_EQ(rows->back().point.games, 64);
  EXPECT_EQ(rows->back().display, rating::DisplayRating(config, Point("ann", 64).rating));
  EXPECT_TRUE(chunker.Take().empty());

  // A later step's points for the same chunk are a part to append: the two
  // parts concatenated are the chunk a single pass makes.
  HistoryChunker whole("north", config), first("north", config), second("north", config);
  for (int64_t games = 1; games <= 20; ++games) {
    whole.Add(Point("cy", games));
    (games <= 9 ? first : second).Add(Point("cy", games));
  }
  EXPECT_EQ(first.Take()[0].data + second.Take()[0].data, whole.Take()[0].data);
}

TEST(HistoryChunks, BytesThatDoNotParseAreDataLoss) {
  std::string data;
  EncodePoint(Point("ann", 1), 1.0, data);
  for (size_t cut = 1; cut < data.size(); ++cut) {
    EXPECT_EQ(DecodeChunk(data.substr(0, cut), "north", "", "ann").status().code(),
              absl::StatusCode::kDataLoss)
        << cut;
  }
  EXPECT_EQ(DecodeChunk(std::string(11, '\xff'), "north", "", "ann").status().code(),
            absl::StatusCode::kDataLoss);
  EXPECT_TRUE(DecodeChunk("", "north", "", "ann")->empty());
}

}  // namespace
}  // namespace arbiter::league_service
