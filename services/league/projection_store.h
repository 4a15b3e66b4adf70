// ProjectionStore: the league projections as the league service reads and
// the projector writes them (ratings, history chunks, tables, projections
// and the projector's checkpoint). The rows are stored by
// store::pg::LeagueProjectionTables (services/store/pg/league_projections.h,
// which holds the SQL); here they become the league's types: ratings as
// engine ratings, leaderboard pages ranked and with page tokens, history
// chunks decoded into points. Every write carries the checkpoint it started
// from and moves it in the same transaction, so each result is counted
// exactly once whatever crashes. Thread-safe.
#ifndef ARBITER_SERVICES_LEAGUE_PROJECTION_STORE_H_
#define ARBITER_SERVICES_LEAGUE_PROJECTION_STORE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/league/league_ratings.h"
#include "services/league/history_chunks.h"
#include "services/store/pg/league_projections.h"
#include "services/store/pg/pool.h"

namespace arbiter::league {

// One player's row, as stored and served.
struct RatingRow {
  std::string league_id;
  std::string season;
  std::string player;
  engine::league::PlayerRating rating;
  double display = 0;
  bool provisional = false;
};

// A table's player count (virtual opponents excluded) and rated games.
using TableRow = store::pg::LeagueTableRow;
// A league's settings sequence and rated games, as last projected.
using LeagueProjection = store::pg::LeagueProjectionRow;

// What one projector step writes.
struct ProjectionWrite {
  int64_t from_position = 0;  // the checkpoint the step started from
  int64_t to_position = 0;    // the new checkpoint
  std::vector<std::string> replaced_leagues;  // every row of these is deleted first
  std::vector<RatingRow> ratings;             // inserted or updated
  // New history points, grouped by chunk (HistoryChunker): a chunk's points
  // are appended to what it holds (a chunk of a replaced league is new).
  std::vector<HistoryChunk> history;
  std::vector<TableRow> tables;               // inserted or updated
  std::vector<LeagueProjection> projections;  // inserted or updated
  // Under the projector's lease: the grant the write is fenced by, and the
  // rebuild requests of other servers it served (league id -> number).
  std::optional<store::LeaseFence> fence;
  std::map<std::string, int64_t> requests_done;
};

struct LeaderboardPage {
  std::vector<std::pair<int64_t, RatingRow>> rows;  // rank, row
  std::string next_page_token;
  int64_t total_players = 0;
};

class ProjectionStore {
 public:
  // `pool` must outlive this object.
  explicit ProjectionStore(store::pg::PgPool& pool) : tables_(pool) {}

  // The projector's checkpoint (0 if none is stored).
  absl::StatusOr<int64_t> Checkpoint();
  // Aborted (nothing written) if the checkpoint is no longer
  // write.from_position (another projector moved it), or if write.fence is
  // set and the lease has passed to another grant.
  absl::Status Write(const ProjectionWrite& write);

  // nullopt if the league has never been projected.
  absl::StatusOr<std::optional<LeagueProjection>> Projection(const std::string& league_id);
  absl::StatusOr<std::vector<LeagueProjection>> Projections();
  // Players by display rating (best first, then by id), virtual opponents
  // left out, ranked by standard competition ranking; page_token from the
  // previous page (InvalidArgument if bad).
  absl::StatusOr<LeaderboardPage> Leaderboard(const std::string& league_id,
                                              const std::string& season, int page_size,
                                              const std::string& page_token);
  // nullopt if the player has no rating there.
  absl::StatusOr<std::optional<RatingRow>> Player(const std::string& league_id,
                                                  const std::string& season,
                                                  const std::string& player);
  // Points with games > after_games, oldest first, at most `limit`; it
  // reads only the chunks that hold them. DataLoss if a chunk does not
  // decode.
  absl::StatusOr<std::vector<HistoryRow>> History(const std::string& league_id,
                                                  const std::string& season,
                                                  const std::string& player, int64_t after_games,
                                                  int limit);
  // The digest of every stored row of the league
  // (store::pg::LeagueProjectionTables::Digest). The same points give the
  // same chunks whether written by steps or by a rebuild
  // (history_chunks.h), so both give the same digest.
  absl::StatusOr<std::string> Digest(const std::string& league_id);

 private:
  store::pg::LeagueProjectionTables tables_;
};

}  // namespace arbiter::league

#endif  // ARBITER_SERVICES_LEAGUE_PROJECTION_STORE_H_
