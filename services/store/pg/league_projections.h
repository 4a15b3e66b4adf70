// LeagueProjectionTables: the SQL of the league projections (tables
// league_ratings, league_history_chunks, league_tables, league_projections
// and projector_checkpoints; migrations/0007 and 0015), as plain rows and
// operations. What the rows mean, how they are computed and how pages are
// ranked is services/league's (projection_store.h); this file only stores
// and reads them, on the service's pool (pool.h). Every write carries the
// checkpoint it started from and moves it in the same transaction, so each
// result is counted exactly once whatever crashes; under a lease it is also
// fenced by the lease's token (leases.h). The projections are
// derived and UNLOGGED (docs/leagues.md). Thread-safe.
#ifndef ARBITER_SERVICES_STORE_PG_LEAGUE_PROJECTIONS_H_
#define ARBITER_SERVICES_STORE_PG_LEAGUE_PROJECTIONS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "services/store/lease_fence.h"
#include "services/store/pg/pool.h"

namespace arbiter::store::pg {

// A row of league_ratings: one player on one table (league, season).
struct LeagueRatingRow {
  std::string league_id;
  std::string season;
  std::string player;
  double mu = 0;
  double sigma = 0;
  double volatility = 0;
  double display = 0;
  int64_t games = 0;
  int64_t last_position = 0;
  std::string last_game_id;
  absl::Time last_played;
  bool provisional = false;
  bool is_virtual = false;
};

// A row of league_tables.
struct LeagueTableRow {
  std::string league_id;
  std::string season;
  int64_t players = 0;  // virtual opponents excluded
  int64_t rated_games = 0;
};

// A row of league_projections.
struct LeagueProjectionRow {
  std::string league_id;
  int64_t settings_sequence = 0;
  int64_t rated_games = 0;
};

// A row of league_history_chunks, or the part of one that a step appends.
// The bytes are services/league/history_chunks.h's.
struct HistoryChunkRow {
  std::string league_id;
  std::string season;
  std::string player;
  int64_t chunk = 0;
  int64_t points = 0;  // points in `data`
  std::string data;    // the points' encodings, oldest first
};

// What one projector step writes (views of the caller's rows).
struct ProjectionRowsWrite {
  int64_t from_position = 0;  // the checkpoint the step started from
  int64_t to_position = 0;    // the new checkpoint
  absl::Span<const std::string> replaced_leagues;  // every row of these is deleted first
  absl::Span<const LeagueRatingRow> ratings;       // inserted or updated
  // Grouped by chunk: a chunk's points are appended to what it holds (a
  // chunk of a replaced league is new). A chunk appears at most once.
  absl::Span<const HistoryChunkRow> history;
  absl::Span<const LeagueTableRow> tables;            // inserted or updated
  absl::Span<const LeagueProjectionRow> projections;  // inserted or updated
  // Set when the projector runs under its lease (leases.h): the write is
  // refused, nothing written, unless the lease is still this grant; and the
  // rebuild requests it served (league id -> request number) are marked
  // done in the same transaction.
  std::optional<LeaseFence> fence;
  std::map<std::string, int64_t> requests_done;
};

// A page of a table's players by display rating.
struct LeagueRatingsPage {
  int64_t total_players = 0;  // the table's league_tables.players (0: no row)
  std::vector<LeagueRatingRow> rows;
  // Of the first row: the players rated strictly higher, and those rated the
  // same whose id sorts before its player (0 when there are no rows).
  int64_t rated_higher = 0;
  int64_t tied_before = 0;
};

// A stored chunk's number and bytes.
struct StoredHistoryChunk {
  int64_t chunk = 0;
  std::string data;
};

class LeagueProjectionTables {
 public:
  // `pool` must outlive this object.
  explicit LeagueProjectionTables(PgPool& pool) : pool_(pool) {}

  // The projector's checkpoint (0 if there is none: a crash of PostgreSQL
  // emptied the unlogged projections).
  absl::StatusOr<int64_t> Checkpoint();
  // Writes `write` in one transaction. Aborted (nothing written) if the
  // checkpoint is no longer write.from_position (another projector moved
  // it), or if write.fence is set and the lease is no longer that grant.
  absl::Status Write(const ProjectionRowsWrite& write);

  // nullopt if the league has no row.
  absl::StatusOr<std::optional<LeagueProjectionRow>> Projection(const std::string& league_id);
  // Every row, by league id.
  absl::StatusOr<std::vector<LeagueProjectionRow>> Projections();
  // Up to `limit` non-virtual players of the table, best display rating
  // first, then by player id; only those after `after` (display, player)
  // when it is given.
  absl::StatusOr<LeagueRatingsPage> RatingsByDisplay(
      const std::string& league_id, const std::string& season,
      const std::optional<std::pair<double, std::string>>& after, int limit);
  // nullopt if the player has no row there.
  absl::StatusOr<std::optional<LeagueRatingRow>> Rating(const std::string& league_id,
                                                        const std::string& season,
                                                        const std::string& player);
  // Up to `limit` chunks of a player's history with chunk >= from_chunk, in
  // chunk order.
  absl::StatusOr<std::vector<StoredHistoryChunk>> HistoryChunks(const std::string& league_id,
                                                                const std::string& season,
                                                                const std::string& player,
                                                                int64_t from_chunk, int64_t limit);
  // SHA-256 (hex) over every stored row of the league, read in one snapshot:
  // the line "ratings", then the rating rows; "history", then the history
  // chunks, each by its key, point count and the SHA-256 of its bytes;
  // "tables", then the table rows. Rows in primary-key order, each a line of
  // PostgreSQL's COPY text (doubles in their shortest exact form).
  absl::StatusOr<std::string> Digest(const std::string& league_id);

 private:
  PgPool& pool_;
};

}  // namespace arbiter::store::pg

#endif  // ARBITER_SERVICES_STORE_PG_LEAGUE_PROJECTIONS_H_
