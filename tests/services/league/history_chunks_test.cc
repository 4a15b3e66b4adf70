// The stored format of rating history chunks (services/league/history_chunks.h):
// points round-trip bit for bit, land in the chunk their games number names,
// and bytes that do not parse are DataLoss. The chunker finds players by
// slot or by name alike, and on a thread of its own makes the same chunks
// (chunker_thread.h).
#include "services/league/history_chunks.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "services/league/chunker_thread.h"

namespace arbiter::league {
namespace {

engine::league::HistoryPoint Point(const std::string& player, int64_t games) {
  engine::league::HistoryPoint point;
  point.season = "2031";
  point.player = player;
  point.games = games;
  point.game_id = absl::StrCat("game-", games, "-of-", player);
  point.position = 1000 + games;
  point.time = absl::FromUnixMicros(1'790'000'000'000'000 + games);
  point.rating = engine::rating::Rating{25.0 + 1.0 / 3.0 * static_cast<double>(games), 8.3 / 3.0, 0.06};
  point.place = static_cast<int>(games % 4) + 1;
  return point;
}

uint64_t Bits(double value) {
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

TEST(HistoryChunks, APointReadsBackBitForBit) {
  engine::league::HistoryPoint point = Point("ann", 7);
  point.time = absl::FromUnixMicros(-86'400'000'001);  // before 1970
  point.rating = engine::rating::Rating{-0.0, std::numeric_limits<double>::denorm_min(), 1e308};
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
  engine::league::HistoryPoint point;
  point.games = 1;
  point.position = 300;  // varint ac 02
  point.time = absl::FromUnixMicros(-1);  // zigzag 1
  point.game_id = "g1";
  point.rating = engine::rating::Rating{1.0, 2.0, 0.0};
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

  engine::rating::RatingConfig config = *engine::rating::MakeConfig(engine::rating::System::kPlackettLuce, {});
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
  EXPECT_EQ(rows->back().display, engine::rating::DisplayRating(config, Point("ann", 64).rating));
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

// Points as a league's games give them: `count` points of 40 players on
// three tables, each player's games counting up per table, with the slots
// LeagueRatings gives (per table, in order of first game).
std::vector<engine::league::HistoryPoint> LeaguePoints(int count) {
  std::vector<engine::league::HistoryPoint> points;
  std::map<std::pair<std::string, std::string>, int64_t> games;
  std::map<std::string, std::map<std::string, int64_t>> slots;
  uint64_t state = 12345;
  for (int i = 0; i < count; ++i) {
    state = state * 6364136223846793005u + 1442695040888963407u;
    const std::string season = std::vector<std::string>{"", "2031", "2032"}[(state >> 33) % 3];
    const std::string player = absl::StrCat("player-", (state >> 40) % 40);
    engine::league::HistoryPoint point = Point(player, ++games[{season, player}]);
    point.season = season;
    auto& table = slots[season];
    point.slot = table.try_emplace(player, static_cast<int64_t>(table.size())).first->second;
    points.push_back(point);
  }
  return points;
}

void ExpectSameChunks(const std::vector<HistoryChunk>& got, const std::vector<HistoryChunk>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    SCOPED_TRACE(absl::StrCat(i, ": ", want[i].season, "/", want[i].player, "/", want[i].chunk));
    EXPECT_EQ(got[i].league_id, want[i].league_id);
    EXPECT_EQ(got[i].season, want[i].season);
    EXPECT_EQ(got[i].player, want[i].player);
    EXPECT_EQ(got[i].chunk, want[i].chunk);
    EXPECT_EQ(got[i].points, want[i].points);
    EXPECT_EQ(got[i].data, want[i].data);
  }
}

// Finding players by slot gives the chunks finding them by name gives,
// also when a point comes without a slot or with another player's slot
// half-way (the chunker then goes over to names for that table).
TEST(HistoryChunks, SlotsAndNamesFindTheSameChunks) {
  const engine::rating::RatingConfig config = *engine::rating::MakeConfig(engine::rating::System::kPlackettLuce, {});
  const std::vector<engine::league::HistoryPoint> points = LeaguePoints(3000);
  HistoryChunker by_name("north", config);
  for (engine::league::HistoryPoint point : points) {
    point.slot = -1;
    by_name.Add(point);
  }
  const std::vector<HistoryChunk> want = by_name.Take();
  ASSERT_GT(want.size(), 120u);  // 40 players, 3 tables, several chunks each

  HistoryChunker by_slot("north", config);
  for (const engine::league::HistoryPoint& point : points) by_slot.Add(point);
  ExpectSameChunks(by_slot.Take(), want);

  for (const int64_t odd_slot : {int64_t{-1}, int64_t{0}, int64_t{39}}) {
    SCOPED_TRACE(odd_slot);
    HistoryChunker mixed("north", config);
    for (size_t i = 0; i < points.size(); ++i) {
      engine::league::HistoryPoint point = points[i];
      if (i == points.size() / 2) point.slot = odd_slot == point.slot ? 1 : odd_slot;
      mixed.Add(point);
    }
    ExpectSameChunks(mixed.Take(), want);
  }
}

// The chunker on its own thread makes the chunks of one on the caller's,
// across many batches, and Take in between starts afresh as it does.
TEST(HistoryChunks, AChunkerThreadMakesTheChunksOfAChunker) {
  const engine::rating::RatingConfig config = *engine::rating::MakeConfig(engine::rating::System::kPlackettLuce, {});
  const std::vector<engine::league::HistoryPoint> points = LeaguePoints(30'001);
  const size_t cut = 12'345;  // not a batch boundary
  HistoryChunker here("north", config);
  ChunkerThread there("north", config);
  for (size_t i = 0; i < cut; ++i) {
    here.Add(points[i]);
    engine::league::HistoryPoint copy = points[i];
    there.Add(copy);
  }
  ExpectSameChunks(there.Take(), here.Take());
  for (size_t i = cut; i < points.size(); ++i) {
    here.Add(points[i]);
    engine::league::HistoryPoint copy = points[i];
    there.Add(copy);
  }
  ExpectSameChunks(there.Take(), here.Take());
  EXPECT_TRUE(there.Take().empty());
  // Points left with it when it goes are dropped, and it joins its thread.
  ChunkerThread dropped("north", config);
  for (engine::league::HistoryPoint point : points) dropped.Add(point);
}

}  // namespace
}  // namespace arbiter::league
