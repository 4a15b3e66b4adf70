#include "services/league/projection_store.h"

#include <pqxx/pqxx>

#include <algorithm>
#include <cstring>
#include <string_view>
#include <tuple>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "engine/core/sha256.h"
#include "services/store/pg/arrays.h"

namespace arbiter::league {
namespace {

constexpr char kProjector[] = "leagues";

// Doubles travel as text that reads back to the same bits.
std::string Exact(double value) { return absl::StrFormat("%.17g", value); }

std::string Micros(absl::Time time) { return absl::StrCat(absl::ToUnixMicros(time)); }

constexpr char kRatingColumns[] =
    "league_id, season, player, mu, sigma, volatility, display, games, last_position, "
    "last_game_id, last_played, provisional, is_virtual";

RatingRow RatingFromRow(const pqxx::row& row) {
  RatingRow out;
  out.league_id = row[0].as<std::string>();
  out.season = row[1].as<std::string>();
  out.player = row[2].as<std::string>();
  out.rating.rating.mu = row[3].as<double>();
  out.rating.rating.sigma = row[4].as<double>();
  out.rating.rating.volatility = row[5].as<double>();
  out.display = row[6].as<double>();
  out.rating.games = row[7].as<int64_t>();
  out.rating.last_position = row[8].as<int64_t>();
  out.rating.last_game = row[9].as<std::string>();
  out.rating.last_played = absl::FromUnixMicros(row[10].as<int64_t>());
  out.provisional = row[11].as<bool>();
  out.rating.is_virtual = row[12].as<bool>();
  return out;
}

std::string EncodeToken(double display, const std::string& player) {
  uint64_t bits = 0;
  std::memcpy(&bits, &display, sizeof bits);
  return absl::BytesToHexString(absl::StrCat(absl::Hex(bits, absl::kZeroPad16), "|", player));
}

absl::Status BadToken() {
  return absl::InvalidArgumentError("page_token: not a token from a previous page of this list");
}

absl::StatusOr<std::pair<double, std::string>> DecodeToken(const std::string& token) {
  for (char c : token) {
    if (!absl::ascii_isxdigit(static_cast<unsigned char>(c))) return BadToken();
  }
  if (token.size() % 2 != 0) return BadToken();
  const std::string raw = absl::HexStringToBytes(token);
  if (raw.size() < 17 || raw[16] != '|') return BadToken();
  uint64_t bits = 0;
  if (!absl::SimpleHexAtoi(raw.substr(0, 16), &bits)) return BadToken();
  double display = 0;
  std::memcpy(&display, &bits, sizeof display);
  return std::make_pair(display, raw.substr(17));
}

void StreamRatings(pqxx::work& txn, const std::string& table,
                   const std::vector<RatingRow>& rows) {
  pqxx::stream_to copy(txn, table,
                       std::vector<std::string>{"league_id", "season", "player", "mu", "sigma",
                                                "volatility", "display", "games", "last_position",
                                                "last_game_id", "last_played", "provisional",
                                                "is_virtual"});
  for (const RatingRow& r : rows) {
    copy << std::make_tuple(r.league_id, r.season, r.player, Exact(r.rating.rating.mu),
                            Exact(r.rating.rating.sigma), Exact(r.rating.rating.volatility),
                            Exact(r.display), r.rating.games, r.rating.last_position,
                            r.rating.last_game, Micros(r.rating.last_played),
                            r.provisional ? "t" : "f", r.rating.is_virtual ? "t" : "f");
  }
  copy.complete();
}

// Rows of leagues whose old rows were just deleted go straight in; the rest
// replace the players' rows through a temporary table.
void CopyRatings(pqxx::work& txn, const std::vector<RatingRow>& rows,
                 const std::vector<std::string>& replaced) {
  std::vector<RatingRow> fresh, updated;
  for (const RatingRow& r : rows) {
    (std::find(replaced.begin(), replaced.end(), r.league_id) != replaced.end() ? fresh : updated)
        .push_back(r);
  }
  // In key order, the primary key's index grows at its right edge.
  std::sort(fresh.begin(), fresh.end(), [](const RatingRow& a, const RatingRow& b) {
    return std::tie(a.league_id, a.season, a.player) < std::tie(b.league_id, b.season, b.player);
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

void WriteHistory(pqxx::work& txn, const std::vector<const HistoryChunk*>& chunks, bool append) {
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
      const HistoryChunk& c = *chunks[next];
      leagues.push_back(c.league_id);
      seasons.push_back(c.season);
      players.push_back(c.player);
      numbers.push_back(c.chunk);
      points.push_back(c.points);
      offsets.push_back(static_cast<int64_t>(data.size()) + 1);
      lengths.push_back(static_cast<int64_t>(c.data.size()));
      data += c.data;
    }
    txn.exec_params(statement, store::pg::TextArray(leagues),
                    store::pg::TextArray(seasons), store::pg::TextArray(players),
                    store::pg::IntArray(numbers), store::pg::IntArray(points),
                    store::pg::IntArray(offsets), pqxx::binarystring(data),
                    store::pg::IntArray(lengths));
    first = next;
  }
}

// New chunks of replaced leagues (in key order, so that the primary key's
// index grows at its right edge), then the appended ones.
void WriteHistory(pqxx::work& txn, const std::vector<HistoryChunk>& chunks,
                  const std::vector<std::string>& replaced) {
  std::vector<const HistoryChunk*> fresh, appended;
  for (const HistoryChunk& c : chunks) {
    (std::find(replaced.begin(), replaced.end(), c.league_id) != replaced.end() ? fresh : appended)
        .push_back(&c);
  }
  std::sort(fresh.begin(), fresh.end(), [](const HistoryChunk* a, const HistoryChunk* b) {
    return std::tie(a->league_id, a->season, a->player, a->chunk) <
           std::tie(b->league_id, b->season, b->player, b->chunk);
  });
  if (!fresh.empty()) WriteHistory(txn, fresh, false);
  if (!appended.empty()) WriteHistory(txn, appended, true);
}

}  // namespace

absl::StatusOr<int64_t> ProjectionStore::Checkpoint() {
  int64_t position = 0;
  absl::Status status = pool_.Run("reading the projector's checkpoint", [&](pqxx::connection_base& c) {
    pqxx::read_transaction txn(c);
    // No row: a crash of PostgreSQL emptied the (unlogged) projections.
    pqxx::result rows = txn.exec_params(
        "SELECT position FROM projector_checkpoints WHERE projector = $1", kProjector);
    position = rows.empty() ? 0 : rows[0][0].as<int64_t>();
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return position;
}

absl::Status ProjectionStore::Write(const ProjectionWrite& write) {
  return pool_.Run("writing league projections", [&](pqxx::connection_base& c) {
    pqxx::work txn(c);
    // Projections are derived: losing the last commit to a crash only means
    // counting it again, so do not wait for the WAL flush.
    txn.exec("SET LOCAL synchronous_commit = off");
    txn.exec_params(
        "INSERT INTO projector_checkpoints (projector, position) VALUES ($1, 0) "
        "ON CONFLICT DO NOTHING",
        kProjector);
    const int64_t at = txn.exec_params1(
                              "SELECT position FROM projector_checkpoints WHERE projector = $1 "
                              "FOR UPDATE",
                              kProjector)[0]
                           .as<int64_t>();
    if (at != write.from_position) {
      return absl::AbortedError(absl::StrCat("the league projector's checkpoint moved from ",
                                             write.from_position, " to ", at,
                                             " (another projector); reloading"));
    }
    if (!write.replaced_leagues.empty()) {
      // When no other league has rows, emptying the tables is one cheap
      // statement instead of a delete per row.
      pqxx::result others = txn.exec_params(
          "SELECT 1 FROM league_tables WHERE NOT (league_id = ANY($1::text[])) LIMIT 1",
          store::pg::TextArray(write.replaced_leagues));
      if (others.empty()) {
        txn.exec("TRUNCATE league_ratings, league_history_chunks, league_tables");
      } else {
        for (const std::string& league : write.replaced_leagues) {
          txn.exec_params("DELETE FROM league_ratings WHERE league_id = $1", league);
          txn.exec_params("DELETE FROM league_history_chunks WHERE league_id = $1", league);
          txn.exec_params("DELETE FROM league_tables WHERE league_id = $1", league);
        }
      }
    }
    if (!write.ratings.empty()) CopyRatings(txn, write.ratings, write.replaced_leagues);
    if (!write.history.empty()) WriteHistory(txn, write.history, write.replaced_leagues);

    for (const TableRow& t : write.tables) {
      txn.exec_params(
          "INSERT INTO league_tables (league_id, season, players, rated_games) "
          "VALUES ($1, $2, $3, $4) ON CONFLICT (league_id, season) DO UPDATE "
          "SET players = EXCLUDED.players, rated_games = EXCLUDED.rated_games",
          t.league_id, t.season, t.players, t.rated_games);
    }
    for (const LeagueProjection& p : write.projections) {
      txn.exec_params(
          "INSERT INTO league_projections (league_id, settings_sequence, rated_games) "
          "VALUES ($1, $2, $3) ON CONFLICT (league_id) DO UPDATE "
          "SET settings_sequence = EXCLUDED.settings_sequence, rated_games = EXCLUDED.rated_games",
          p.league_id, p.settings_sequence, p.rated_games);
    }
    txn.exec_params("UPDATE projector_checkpoints SET position = $2 WHERE projector = $1",
                    kProjector, write.to_position);
    txn.commit();
    return absl::OkStatus();
  });
}

absl::StatusOr<std::optional<LeagueProjection>> ProjectionStore::Projection(
    const std::string& league_id) {
  std::optional<LeagueProjection> out;
  absl::Status status = pool_.Run("reading a league projection", [&](pqxx::connection_base& c) {
    pqxx::read_transaction txn(c);
    pqxx::result rows = txn.exec_params(
        "SELECT settings_sequence, rated_games FROM league_projections WHERE league_id = $1",
        league_id);
    if (!rows.empty()) {
      out = LeagueProjection{league_id, rows[0][0].as<int64_t>(), rows[0][1].as<int64_t>()};
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return out;
}

absl::StatusOr<std::vector<LeagueProjection>> ProjectionStore::Projections() {
  std::vector<LeagueProjection> out;
  absl::Status status = pool_.Run("reading league projections", [&](pqxx::connection_base& c) {
    pqxx::read_transaction txn(c);
    for (const pqxx::row& row : txn.exec(
             "SELECT league_id, settings_sequence, rated_games FROM league_projections "
             "ORDER BY league_id")) {
      out.push_back(LeagueProjection{row[0].as<std::string>(), row[1].as<int64_t>(),
                                     row[2].as<int64_t>()});
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return out;
}

absl::StatusOr<LeaderboardPage> ProjectionStore::Leaderboard(const std::string& league_id,
                                                             const std::string& season,
                                                             int page_size,
                                                             const std::string& page_token) {
  std::optional<std::pair<double, std::string>> after;
  if (!page_token.empty()) {
    absl::StatusOr<std::pair<double, std::string>> decoded = DecodeToken(page_token);
    if (!decoded.ok()) return decoded.status();
    after = *decoded;
  }
  LeaderboardPage page;
  absl::Status status = pool_.Run("reading a leaderboard", [&](pqxx::connection_base& c) {
    pqxx::read_transaction txn(c);
    pqxx::result total = txn.exec_params(
        "SELECT players FROM league_tables WHERE league_id = $1 AND season = $2", league_id,
        season);
    page.total_players = total.empty() ? 0 : total[0][0].as<int64_t>();
    const std::string d = after ? Exact(after->first) : "0";
    const std::string p = after ? after->second : "";
    pqxx::result rows = txn.exec_params(
        absl::StrCat("SELECT ", kRatingColumns,
                     " FROM league_ratings WHERE league_id = $1 AND season = $2 AND NOT is_virtual "
                     "AND (NOT $3 OR display < $4::float8 OR (display = $4::float8 AND player > $5)) "
                     "ORDER BY display DESC, player LIMIT $6"),
        league_id, season, after.has_value(), d, p, page_size + 1);
    if (rows.empty()) return absl::OkStatus();
    // Standard competition ranking: 1 + the players rated strictly higher.
    const double first = rows[0][6].as<double>();
    pqxx::row counts = txn.exec_params1(
        "SELECT count(*) FILTER (WHERE display > $3::float8), "
        "count(*) FILTER (WHERE display = $3::float8 AND player < $4) "
        "FROM league_ratings WHERE league_id = $1 AND season = $2 AND NOT is_virtual "
        "AND display >= $3::float8",
        league_id, season, Exact(first), rows[0][2].as<std::string>());
    const int64_t higher = counts[0].as<int64_t>();
    const int64_t offset = higher + counts[1].as<int64_t>();
    int64_t rank = higher + 1;
    for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
      if (i == page_size) {
        const RatingRow& last = page.rows.back().second;
        page.next_page_token = EncodeToken(last.display, last.player);
        break;
      }
      RatingRow row = RatingFromRow(rows[i]);
      if (i > 0 && row.display != page.rows.back().second.display) rank = offset + i + 1;
      page.rows.emplace_back(rank, std::move(row));
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return page;
}

absl::StatusOr<std::optional<RatingRow>> ProjectionStore::Player(const std::string& league_id,
                                                                 const std::string& season,
                                                                 const std::string& player) {
  std::optional<RatingRow> out;
  absl::Status status = pool_.Run("reading a rating", [&](pqxx::connection_base& c) {
    pqxx::read_transaction txn(c);
    pqxx::result rows = txn.exec_params(
        absl::StrCat("SELECT ", kRatingColumns,
                     " FROM league_ratings WHERE league_id = $1 AND season = $2 AND player = $3"),
        league_id, season, player);
    if (!rows.empty()) out = RatingFromRow(rows[0]);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return out;
}

absl::StatusOr<std::vector<HistoryRow>> ProjectionStore::History(const std::string& league_id,
                                                                 const std::string& season,
                                                                 const std::string& player,
                                                                 int64_t after_games, int limit) {
  std::vector<HistoryRow> out;
  absl::Status status = pool_.Run("reading a rating history", [&](pqxx::connection_base& c) {
    pqxx::read_transaction txn(c);
    // The first point wanted has games after_games + 1; every chunk but a
    // player's last is full, so limit / kHistoryChunkPoints + 2 chunks hold
    // the page. Should one not be full, the next chunks are read.
    const int64_t wanted_chunks = limit / kHistoryChunkPoints + 2;
    int64_t from_chunk = ChunkOf(std::max<int64_t>(after_games, 0) + 1);
    while (static_cast<int64_t>(out.size()) < limit) {
      pqxx::result rows = txn.exec_params(
          "SELECT chunk, data FROM league_history_chunks "
          "WHERE league_id = $1 AND season = $2 AND player = $3 AND chunk >= $4 "
          "ORDER BY chunk LIMIT $5",
          league_id, season, player, from_chunk, wanted_chunks);
      for (const pqxx::row& row : rows) {
        const pqxx::binarystring data(row[1]);
        absl::StatusOr<std::vector<HistoryRow>> points =
            DecodeChunk(std::string_view(data.get(), data.size()), league_id, season, player);
        if (!points.ok()) return points.status();
        for (HistoryRow& point : *points) {
          if (point.point.games <= after_games) continue;
          if (static_cast<int64_t>(out.size()) == limit) break;
          out.push_back(std::move(point));
        }
      }
      if (static_cast<int64_t>(rows.size()) < wanted_chunks) break;
      from_chunk = rows[rows.size() - 1][0].as<int64_t>() + 1;
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return out;
}

absl::StatusOr<std::string> ProjectionStore::Digest(const std::string& league_id) {
  std::string digest;
  absl::Status status = pool_.Run("digesting a league projection", [&](pqxx::connection_base& c) {
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
    digest = hash.FinishHex();
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return digest;
}

}  // namespace arbiter::league
