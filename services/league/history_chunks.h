// Rating history stored in chunks: the points of one player on one table
// (league, season) packed into rows of up to kHistoryChunkPoints points, so
// that a rebuild of a league of a million games writes about 100,000 rows,
// not four million (table league_history_chunks, migrations/0015).
//
// A player's points have games 1, 2, 3, ... on each table (one point per
// rated game, docs/leagues.md), and the point with games g lives in chunk
// (g - 1) / kHistoryChunkPoints. Which chunk holds a point therefore depends
// only on the point, never on when it was written: the projector's
// incremental steps append a point's bytes to its chunk, a rebuild writes
// each chunk whole, and both store the same bytes.
//
// A chunk's bytes are its points, oldest first, each encoded on its own
// (no state carried from one point to the next, so appending is
// concatenating). One point (stored: never renumber or reorder):
//   point    = games position time game_id mu sigma volatility display place
//   games    = varint                  the player's rated games, this one included
//   position = varint                  store position of the game's result
//   time     = zigzag varint           microseconds since 1970 (UTC) of the result
//   game_id  = varint length, bytes    the game
//   mu, sigma, volatility, display = 8 bytes each, the IEEE-754 bits, little-endian
//   place    = zigzag varint           the place the player's team took
// varint: unsigned LEB128 (7 bits a byte, low first, high bit = more).
// zigzag: 0, -1, 1, -2, ... as 0, 1, 2, 3, ...
//
// Pure functions and a value type; not thread-safe (one chunker per thread).
#ifndef ARBITER_SERVICES_LEAGUE_HISTORY_CHUNKS_H_
#define ARBITER_SERVICES_LEAGUE_HISTORY_CHUNKS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "engine/league/league_ratings.h"
#include "engine/rating/rating.h"
#include "services/store/pg/league_projections.h"

namespace arbiter::league {

// Points per chunk. Stored: changing it needs a migration that empties the
// projections (the projector then rebuilds every league).
inline constexpr int64_t kHistoryChunkPoints = 32;

// The chunk of the point with `games` (1, 2, ...): 0 for games 1..32, ...
inline int64_t ChunkOf(int64_t games) { return (games - 1) / kHistoryChunkPoints; }

// One point as served (HistoryPoint plus its display rating).
struct HistoryRow {
  std::string league_id;
  engine::league::HistoryPoint point;
  double display = 0;
};

// A chunk, or the part of one that a step appends: league_id, season,
// player, chunk, points (in `data`) and data (the points' encodings, oldest
// first), as the projections store it.
using HistoryChunk = store::pg::HistoryChunkRow;

// Appends the encoding of `point` (with `display`) to `out`.
void EncodePoint(const engine::league::HistoryPoint& point, double display, std::string& out);

// The points of `data` (a chunk's bytes), oldest first, as rows of league
// `league_id`, `season` and `player`. DataLoss if the bytes do not parse.
absl::StatusOr<std::vector<HistoryRow>> DecodeChunk(std::string_view data,
                                                    const std::string& league_id,
                                                    const std::string& season,
                                                    const std::string& player);

// Groups history points, given in order, into chunks: one HistoryChunk per
// (season, player, chunk) met, in the order first met, each holding its
// points in the order given. Display ratings come from `config`.
//
// A point's slot (LeagueRatings numbers each table's players 0, 1, 2, ...)
// finds its player's open chunk without hashing the name. The first point
// of a table without a slot, or whose slot names another player, turns that
// table over to finding players by name. Both give the same chunks, as long
// as slots number each table's players one slot a player, as LeagueRatings
// does.
class HistoryChunker {
 public:
  HistoryChunker(std::string league_id, engine::rating::RatingConfig config)
      : league_id_(std::move(league_id)), config_(std::move(config)) {}

  void Add(const engine::league::HistoryPoint& point);
  int64_t points() const { return points_; }
  // The chunks so far; the chunker is empty afterwards.
  std::vector<HistoryChunk> Take();

 private:
  // A player's last chunk on a table: points only ever go to it or to a
  // later one (games grow by one a point). Its bytes stay here, beside the
  // player's slot, until it closes (the next chunk starts, or Take): a
  // point then touches this entry and the end of its bytes, not the list.
  struct Open {
    int64_t chunk = -1;
    size_t index = 0;  // in chunks_
    int64_t points = 0;
    std::string player;
    std::string data;
  };
  struct Table {
    std::string season;
    bool named = false;  // by_name in use, by_slot not
    std::vector<Open> by_slot;
    absl::flat_hash_map<std::string, Open> by_name;
  };

  Table& TableOf(const std::string& season);
  Open& OpenOf(Table& table, const engine::league::HistoryPoint& point);
  // Moves the bytes of `open` to its place in chunks_.
  void Close(Open& open);

  std::string league_id_;
  engine::rating::RatingConfig config_;
  std::vector<HistoryChunk> chunks_;
  std::vector<Table> tables_;  // a league has few seasons
  size_t last_table_ = 0;
  int64_t points_ = 0;
};

}  // namespace arbiter::league

#endif  // ARBITER_SERVICES_LEAGUE_HISTORY_CHUNKS_H_
