#include "services/store/pg/league_projections.h"

#include <pqxx/pqxx>

#include <algorithm>
#include <string_view>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/core/sha256.h"
#include "engine/core/status_macros.h"
#include "services/store/pg/arrays.h"
#include "services/store/pg/leases.h"

namespace arbiter::store::pg {
namespace {

constexpr char kProjector[] = "leagues";

// Doubles travel as text that reads back to the same bits.
std::string Exact(double value) { return absl::StrFormat("%.17g", value); }

std::string Micros(absl::Time time) { return absl::StrCat(absl::ToUnixMicros(time)); }

constexpr char kRatingColumns[] =
    "league_id, season, player, mu, sigma, volatility, display, games, last_position, "
    "last_game_id, last_played, provisional, is_virtual";

LeagueRatingRow RatingFromRow(const pqxx::row& row) {
  LeagueRatingRow out;
  out.league_id = row[0].as<std::string>();
  out.season = row[1].as<std::string>();
  out.player = row[2].as<std::string>();
  out.mu = row[3].as<double>();
  out.sigma = row[4].as<double>();
  out.volatility = row[5].as<double>();
  out.display = row[6].as<double>();
  out.games = row[7].as<int64_t>();
  out.last_position = row[8].as<int64_t>();
  out.last_game_id = row[9].as<std::string>();
  out.last_played = absl::FromUnixMicros(row[10].as<int64_t>());
  out.provisional = row[11].as<bool>();
  out.is_virtual = row[12].as<bool>();
  return out;
}

bool IsReplaced(absl::Span<const std::string> replaced, const std::string& league_id) {
  return std::find(replaced.begin(), replaced.end(), league_id) != replaced.end();
}

void StreamRatings(pqxx::transaction_base& txn, const std::string& table,
                   const std::vector<const LeagueRatingRow*>& rows) {
  pqxx::stream_to copy(txn, table,
                       std::vector<std::string>{"league_id", "season", "player", "mu", "sigma",
                                                "volatility", "display", "games", "last_position",
                                                "last_game_id", "last_played", "provisional",
                                                "is_virtual"});
  for (const LeagueRatingRow* r : rows) {
    copy << std::make_tuple(r->league_id, r->season, r->player, Exact(r->mu), Exact(r->sigma),
                            Exact(r->volatility), Exact(r->display), r->games, r->last_position,
                            r->last_game_id, Micros(r->last_played), r->provisional ? "t" : "f",
                            r->is_virtual ? "t" : "f");
  }
  copy.complete();
}

// Rows of leagues whose old rows were just deleted go straight in; the rest
// replace the players' rows through a temporary table.
void CopyRatings(pqxx::transaction_base& txn, absl::Span<const LeagueRatingRow> rows,
                 absl::Span<const std::string> replaced) {
  std::vector<const LeagueRatingRow*> fresh, updated;
  for (const LeagueRatingRow& r : rows) {
    (IsReplaced(replaced, r.league_id) ? fresh : updated).push_back(&r);
  }
  // In key order, the primary key's index grows at its right edge.
  std::sort(fresh.begin(), fresh.end(), [](const LeagueRatingRow* a, const LeagueRatingRow* b) {
    return std::tie(a->league_id, a->season, a->player) <
           std::tie(b->league_id, b->season, b->player);
  });
  if (!fresh.empty()) StreamRatings(txn, "league_ratings", fresh);
  if (updated.empty()) return;
  txn.exec(
      "CREATE TEMP TABLE IF NOT EXISTS incoming_ratings (LIKE league_ratings) "
      "ON COMMIT DELETE ROWS");
  StreamRatings(txn, "incoming_ratings", updated);
  txn.exec(
      "INSERT INTO league_ratings SELECT * FROM incoming_ratings "
      "ON CONFLICT (league_id, season, player) DO UPDATE SET mu = EXCLUDED.mu, "
      "sigma = EXCLUDED.sigma, volatility = EXCLUDED.volatility, display = EXCLUDED.display, "
      "games = EXCLUDED.games, last_position = EXCLUDED.last_position, "
      "last_game_id = EXCLUDED.last_game_id, last_played = EXCLUDED.last_played, "
      "provisional = EXCLUDED.provisional, is_virtual = EXCLUDED.is_virtual");
}

// Chunks go in one statement per kChunkBatchBytes of data: their bytes as
// one binary parameter (no hex text to produce and parse), the keys as
// arrays. With `append`, a chunk the table holds already (the projector's
// steps) gets the new points appended; otherwise every chunk is new (its
// league's rows were just deleted). A chunk appears at most once per write.
constexpr size_t kChunkBatchBytes = 16 << 20;

void WriteHistory(pqxx::transaction_base& txn, const std::vector<const HistoryChunkRow*>& chunks,
                  bool append) {
  const std::string statement = absl::StrCat(
      "INSERT INTO league_history_chunks (league_id, season, player, chunk, points, data) "
      "SELECT c.league_id, c.season, c.player, c.chunk, c.points, "
      "substring($7::bytea FROM c.off::int FOR c.len::int) "
      "FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::int[], $6::bigint[], "
      "$8::bigint[]) AS c(league_id, season, player, chunk, points, off, len)",
      append ? " ON CONFLICT (league_id, season, player, chunk) DO UPDATE "
               "SET points = league_history_chunks.points + EXCLUDED.points, "
               "data = league_history_chunks.data || EXCLUDED.data"
             : "");
  for (size_t first = 0; first < chunks.size();) {
    std::vector<std::string> leagues, seasons, players;
    std::vector<int64_t> numbers, points, offsets, lengths;
    std::string data;
    size_t next = first;
    for (; next < chunks.size() && (next == first || data.size() < kChunkBatchBytes); ++next) {
      const HistoryChunkRow& c = *chunks[next];
      leagues.push_back(c.league_id);
      seasons.push_back(c.season);
      players.push_back(c.player);
      numbers.push_back(c.chunk);
      points.push_back(c.points);
      offsets.push_back(static_cast<int64_t>(data.size()) + 1);
      lengths.push_back(static_cast<int64_t>(c.data.size()));
      data += c.data;
    }
    txn.exec_params(statement, TextArray(leagues), TextArray(seasons), TextArray(players),
                    IntArray(numbers), IntArray(points), IntArray(offsets),
                    pqxx::binarystring(data), IntArray(lengths));
    first = next;
  }
}

// New chunks of replaced leagues (in key order, so that the primary key's
// index grows at its right edge), then the appended ones.
void WriteHistory(pqxx::transaction_base& txn, absl::Span<const HistoryChunkRow> chunks,
                  absl::Span<const std::string> replaced) {
  std::vector<const HistoryChunkRow*> fresh, appended;
  for (const HistoryChunkRow& c : chunks) {
    (IsReplaced(replaced, c.league_id) ? fresh : appended).push_back(&c);
  }
  std::sort(fresh.begin(), fresh.end(), [](const HistoryChunkRow* a, const HistoryChunkRow* b) {
    return std::tie(a->league_id, a->season, a->player, a->chunk) <
           std::tie(b->league_id, b->season, b->player, b->chunk);
  });
  if (!fresh.empty()) WriteHistory(txn, fresh, false);
  if (!appended.empty()) WriteHistory(txn, appended, true);
}

// Locks the projector's checkpoint (creating it at 0). Aborted if it is not
// `from`: another projector moved it.
absl::Status LockCheckpoint(pqxx::transaction_base& txn, int64_t from) {
  txn.exec_params(
      "INSERT INTO projector_checkpoints (projector, position) VALUES ($1, 0) "
      "ON CONFLICT DO NOTHING",
      kProjector);
  const int64_t at =
      txn.exec_params1("SELECT position FROM projector_checkpoints WHERE projector = $1 FOR UPDATE",
                       kProjector)[0]
          .as<int64_t>();
  if (at != from) {
    return absl::AbortedError(absl::StrCat("the league projector's checkpoint moved from ", from,
                                           " to ", at, " (another projector); reloading"));
  }
  return absl::OkStatus();
}

// Deletes every row of the `replaced` leagues.
void DeleteLeagues(pqxx::transaction_base& txn, absl::Span<const std::string> replaced) {
  if (replaced.empty()) return;
  const std::vector<std::string> leagues(replaced.begin(), replaced.end());
  // When no other league has rows, emptying the tables is one cheap
  // statement instead of a delete per row.
  pqxx::result others = txn.exec_params(
      "SELECT 1 FROM league_tables WHERE NOT (league_id = ANY($1::text[])) LIMIT 1",
      TextArray(leagues));
  if (others.empty()) {
    txn.exec("TRUNCATE league_ratings, league_history_chunks, league_tables");
    return;
  }
  for (const std::string& league : leagues) {
    txn.exec_params("DELETE FROM league_ratings WHERE league_id = $1", league);
    txn.exec_params("DELETE FROM league_history_chunks WHERE league_id = $1", league);
    txn.exec_params("DELETE FROM league_tables WHERE league_id = $1", league);
  }
}

void WriteTablesAndProjections(pqxx::transaction_base& txn, const ProjectionRowsWrite& write) {
  for (const LeagueTableRow& t : write.tables) {
    txn.exec_params(
        "INSERT INTO league_tables (league_id, season, players, rated_games) "
        "VALUES ($1, $2, $3, $4) ON CONFLICT (league_id, season) DO UPDATE "
        "SET players = EXCLUDED.players, rated_games = EXCLUDED.rated_games",
        t.league_id, t.season, t.players, t.rated_games);
  }
  for (const LeagueProjectionRow& p : write.projections) {
    txn.exec_params(
        "INSERT INTO league_projections (league_id, settings_sequence, rated_games) "
        "VALUES ($1, $2, $3) ON CONFLICT (league_id) DO UPDATE "
        "SET settings_sequence = EXCLUDED.settings_sequence, rated_games = EXCLUDED.rated_games",
        p.league_id, p.settings_sequence, p.rated_games);
  }
}

}  // namespace

absl::StatusOr<int64_t> LeagueProjectionTables::Checkpoint() {
  return pool_.Run("reading the projector's checkpoint",
                   [&](pqxx::connection_base& c) -> absl::StatusOr<int64_t> {
                     pqxx::read_transaction txn(c);
                     pqxx::result rows = txn.exec_params(
                         "SELECT position FROM projector_checkpoints WHERE projector = $1",
                         kProjector);
                     return rows.empty() ? 0 : rows[0][0].as<int64_t>();
                   });
}

absl::Status LeagueProjectionTables::Write(const ProjectionRowsWrite& write) {
  return pool_.Run("writing league projections", [&](pqxx::connection_base& c) -> absl::Status {
    pqxx::work txn(c);
    // Projections are derived: losing the last commit to a crash only means
    // counting it again, so do not wait for the WAL flush.
    txn.exec("SET LOCAL synchronous_commit = off");
    if (write.fence.has_value()) LimitIdleInTransaction(txn, write.fence->idle_limit);
    ARBITER_RETURN_IF_ERROR(LockCheckpoint(txn, write.from_position));
    DeleteLeagues(txn, write.replaced_leagues);
    if (!write.ratings.empty()) CopyRatings(txn, write.ratings, write.replaced_leagues);
    if (!write.history.empty()) WriteHistory(txn, write.history, write.replaced_leagues);
    WriteTablesAndProjections(txn, write);
    txn.exec_params("UPDATE projector_checkpoints SET position = $2 WHERE projector = $1",
                    kProjector, write.to_position);
    if (write.fence.has_value()) {
      for (const auto& [league, number] : write.requests_done) {
        MarkDoneIn(txn, write.fence->name, league, number);
      }
      ARBITER_RETURN_IF_ERROR(CheckFence(txn, *write.fence));
    }
    txn.commit();
    return absl::OkStatus();
  });
}

absl::StatusOr<std::optional<LeagueProjectionRow>> LeagueProjectionTables::Projection(
    const std::string& league_id) {
  return pool_.Run(
      "reading a league projection",
      [&](pqxx::connection_base& c) -> absl::StatusOr<std::optional<LeagueProjectionRow>> {
        pqxx::read_transaction txn(c);
        pqxx::result rows = txn.exec_params(
            "SELECT settings_sequence, rated_games FROM league_projections WHERE league_id = $1",
            league_id);
        if (rows.empty()) return std::optional<LeagueProjectionRow>();
        return LeagueProjectionRow{league_id, rows[0][0].as<int64_t>(), rows[0][1].as<int64_t>()};
      });
}

absl::StatusOr<std::vector<LeagueProjectionRow>> LeagueProjectionTables::Projections() {
  return pool_.Run(
      "reading league projections",
      [&](pqxx::connection_base& c) -> absl::StatusOr<std::vector<LeagueProjectionRow>> {
        pqxx::read_transaction txn(c);
        std::vector<LeagueProjectionRow> out;
        for (const pqxx::row& row : txn.exec(
                 "SELECT league_id, settings_sequence, rated_games FROM league_projections "
                 "ORDER BY league_id")) {
          out.push_back(LeagueProjectionRow{row[0].as<std::string>(), row[1].as<int64_t>(),
                                            row[2].as<int64_t>()});
        }
        return out;
      });
}

absl::StatusOr<LeagueRatingsPage> LeagueProjectionTables::RatingsByDisplay(
    const std::string& league_id, const std::string& season,
    const std::optional<std::pair<double, std::string>>& after, int limit) {
  return pool_.Run("reading a leaderboard", [&](pqxx::connection_base& c)
                                                -> absl::StatusOr<LeagueRatingsPage> {
    pqxx::read_transaction txn(c);
    LeagueRatingsPage page;
    pqxx::result total = txn.exec_params(
        "SELECT players FROM league_tables WHERE league_id = $1 AND season = $2", league_id,
        season);
    page.total_players = total.empty() ? 0 : total[0][0].as<int64_t>();
    const std::string d = after ? Exact(after->first) : "0";
    const std::string p = after ? after->second : "";
    pqxx::result rows = txn.exec_params(
        absl::StrCat("SELECT ", kRatingColumns,
                     " FROM league_ratings WHERE league_id = $1 AND season = $2 AND NOT is_virtual "
                     "AND (NOT $3 OR display < $4::float8 "
                     "OR (display = $4::float8 AND player > $5)) "
                     "ORDER BY display DESC, player LIMIT $6"),
        league_id, season, after.has_value(), d, p, limit);
    if (rows.empty()) return page;
    // For the ranks: the players rated above the first row, and those tied
    // with it whose id sorts before it.
    const double first = rows[0][6].as<double>();
    pqxx::row counts = txn.exec_params1(
        "SELECT count(*) FILTER (WHERE display > $3::float8), "
        "count(*) FILTER (WHERE display = $3::float8 AND player < $4) "
        "FROM league_ratings WHERE league_id = $1 AND season = $2 AND NOT is_virtual "
        "AND display >= $3::float8",
        league_id, season, Exact(first), rows[0][2].as<std::string>());
    page.rated_higher = counts[0].as<int64_t>();
    page.tied_before = counts[1].as<int64_t>();
    for (const pqxx::row& row : rows) page.rows.push_back(RatingFromRow(row));
    return page;
  });
}

absl::StatusOr<std::optional<LeagueRatingRow>> LeagueProjectionTables::Rating(
    const std::string& league_id, const std::string& season, const std::string& player) {
  return pool_.Run(
      "reading a rating",
      [&](pqxx::connection_base& c) -> absl::StatusOr<std::optional<LeagueRatingRow>> {
        pqxx::read_transaction txn(c);
        pqxx::result rows = txn.exec_params(
            absl::StrCat("SELECT ", kRatingColumns,
                         " FROM league_ratings WHERE league_id = $1 AND season = $2 "
                         "AND player = $3"),
            league_id, season, player);
        if (rows.empty()) return std::optional<LeagueRatingRow>();
        return RatingFromRow(rows[0]);
      });
}

absl::StatusOr<std::vector<StoredHistoryChunk>> LeagueProjectionTables::HistoryChunks(
    const std::string& league_id, const std::string& season, const std::string& player,
    int64_t from_chunk, int64_t limit) {
  return pool_.Run(
      "reading a rating history",
      [&](pqxx::connection_base& c) -> absl::StatusOr<std::vector<StoredHistoryChunk>> {
        pqxx::read_transaction txn(c);
        pqxx::result rows = txn.exec_params(
            "SELECT chunk, data FROM league_history_chunks "
            "WHERE league_id = $1 AND season = $2 AND player = $3 AND chunk >= $4 "
            "ORDER BY chunk LIMIT $5",
            league_id, season, player, from_chunk, limit);
        std::vector<StoredHistoryChunk> out;
        out.reserve(rows.size());
        for (const pqxx::row& row : rows) {
          const pqxx::binarystring data(row[1]);
          out.push_back(StoredHistoryChunk{row[0].as<int64_t>(), data.str()});
        }
        return out;
      });
}

absl::StatusOr<std::string> LeagueProjectionTables::Digest(const std::string& league_id) {
  return pool_.Run("digesting a league projection",
                   [&](pqxx::connection_base& c) -> absl::StatusOr<std::string> {
    // One snapshot for the three reads.
    pqxx::transaction<pqxx::repeatable_read, pqxx::read_only> txn(c);
    // Fixed text forms: floats in their shortest exact form, bytea as hex.
    txn.exec("SET LOCAL extra_float_digits = 1");
    txn.exec("SET LOCAL bytea_output = 'hex'");
    txn.exec("SET LOCAL jit = off");
    // Each table's rows in primary-key order: an index walk, no sort.
    const std::string league = txn.quote(league_id);
    const std::string parts[][2] = {
        {"ratings\n",
         absl::StrCat("(SELECT season, player, mu, sigma, volatility, display, games, "
                      "last_position, last_game_id, last_played, provisional, is_virtual "
                      "FROM league_ratings WHERE league_id = ", league,
                      " ORDER BY season, player)")},
        {"history\n",
         absl::StrCat("(SELECT season, player, chunk, points, sha256(data) "
                      "FROM league_history_chunks WHERE league_id = ", league,
                      " ORDER BY season, player, chunk)")},
        {"tables\n", absl::StrCat("(SELECT season, players, rated_games FROM league_tables "
                                   "WHERE league_id = ", league, " ORDER BY season)")}};
    engine::Sha256Stream hash;
    std::string line;
    for (const auto& [name, query] : parts) {
      hash.Update(name);
      // libpqxx 6 puts the "table" of a stream_from after COPY as it is
      // (postgres_scans.cc relies on the same).
      pqxx::stream_from stream(txn, query);
      while (stream.get_raw_line(line)) {
        hash.Update(line);
        if (line.empty() || line.back() != '\n') hash.Update("\n");
      }
      stream.complete();
    }
    txn.commit();
    return hash.FinishHex();
  });
}

}  // namespace arbiter::store::pg
