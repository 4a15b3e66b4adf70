#include "services/league/projection_store.h"

#include <algorithm>
#include <cstring>
#include <string_view>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "engine/core/status_macros.h"

namespace arbiter::league {
namespace {

store::pg::LeagueRatingRow Stored(const RatingRow& row) {
  store::pg::LeagueRatingRow out;
  out.league_id = row.league_id;
  out.season = row.season;
  out.player = row.player;
  out.mu = row.rating.rating.mu;
  out.sigma = row.rating.rating.sigma;
  out.volatility = row.rating.rating.volatility;
  out.display = row.display;
  out.games = row.rating.games;
  out.last_position = row.rating.last_position;
  out.last_game_id = row.rating.last_game;
  out.last_played = row.rating.last_played;
  out.provisional = row.provisional;
  out.is_virtual = row.rating.is_virtual;
  return out;
}

RatingRow Served(store::pg::LeagueRatingRow row) {
  RatingRow out;
  out.league_id = std::move(row.league_id);
  out.season = std::move(row.season);
  out.player = std::move(row.player);
  out.rating.rating.mu = row.mu;
  out.rating.rating.sigma = row.sigma;
  out.rating.rating.volatility = row.volatility;
  out.display = row.display;
  out.rating.games = row.games;
  out.rating.last_position = row.last_position;
  out.rating.last_game = std::move(row.last_game_id);
  out.rating.last_played = row.last_played;
  out.provisional = row.provisional;
  out.rating.is_virtual = row.is_virtual;
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

}  // namespace

absl::StatusOr<int64_t> ProjectionStore::Checkpoint() { return tables_.Checkpoint(); }

absl::Status ProjectionStore::Write(const ProjectionWrite& write) {
  std::vector<store::pg::LeagueRatingRow> ratings;
  ratings.reserve(write.ratings.size());
  for (const RatingRow& row : write.ratings) ratings.push_back(Stored(row));
  store::pg::ProjectionRowsWrite rows;
  rows.from_position = write.from_position;
  rows.to_position = write.to_position;
  rows.replaced_leagues = write.replaced_leagues;
  rows.ratings = ratings;
  rows.history = write.history;
  rows.tables = write.tables;
  rows.projections = write.projections;
  rows.fence = write.fence;
  rows.requests_done = write.requests_done;
  return tables_.Write(rows);
}

absl::StatusOr<std::optional<LeagueProjection>> ProjectionStore::Projection(
    const std::string& league_id) {
  return tables_.Projection(league_id);
}

absl::StatusOr<std::vector<LeagueProjection>> ProjectionStore::Projections() {
  return tables_.Projections();
}

absl::StatusOr<LeaderboardPage> ProjectionStore::Leaderboard(const std::string& league_id,
                                                             const std::string& season,
                                                             int page_size,
                                                             const std::string& page_token) {
  std::optional<std::pair<double, std::string>> after;
  if (!page_token.empty()) {
    ARBITER_ASSIGN_OR_RETURN(after, DecodeToken(page_token));
  }
  ARBITER_ASSIGN_OR_RETURN(store::pg::LeagueRatingsPage stored,
                           tables_.RatingsByDisplay(league_id, season, after, page_size + 1));
  LeaderboardPage page;
  page.total_players = stored.total_players;
  // Standard competition ranking: 1 + the players rated strictly higher.
  const int64_t offset = stored.rated_higher + stored.tied_before;
  int64_t rank = stored.rated_higher + 1;
  for (int i = 0; i < static_cast<int>(stored.rows.size()); ++i) {
    if (i == page_size) {
      const RatingRow& last = page.rows.back().second;
      page.next_page_token = EncodeToken(last.display, last.player);
      break;
    }
    RatingRow row = Served(std::move(stored.rows[i]));
    if (i > 0 && row.display != page.rows.back().second.display) rank = offset + i + 1;
    page.rows.emplace_back(rank, std::move(row));
  }
  return page;
}

absl::StatusOr<std::optional<RatingRow>> ProjectionStore::Player(const std::string& league_id,
                                                                 const std::string& season,
                                                                 const std::string& player) {
  ARBITER_ASSIGN_OR_RETURN(std::optional<store::pg::LeagueRatingRow> row,
                           tables_.Rating(league_id, season, player));
  if (!row.has_value()) return std::optional<RatingRow>();
  return std::optional<RatingRow>(Served(*std::move(row)));
}

absl::StatusOr<std::vector<HistoryRow>> ProjectionStore::History(const std::string& league_id,
                                                                 const std::string& season,
                                                                 const std::string& player,
                                                                 int64_t after_games, int limit) {
  std::vector<HistoryRow> out;
  // The first point wanted has games after_games + 1; every chunk but a
  // player's last is full, so limit / kHistoryChunkPoints + 2 chunks hold
  // the page. Should one not be full, the next chunks are read.
  const int64_t wanted_chunks = limit / kHistoryChunkPoints + 2;
  int64_t from_chunk = ChunkOf(std::max<int64_t>(after_games, 0) + 1);
  while (static_cast<int64_t>(out.size()) < limit) {
    ARBITER_ASSIGN_OR_RETURN(
        const std::vector<store::pg::StoredHistoryChunk> chunks,
        tables_.HistoryChunks(league_id, season, player, from_chunk, wanted_chunks));
    for (const store::pg::StoredHistoryChunk& chunk : chunks) {
      ARBITER_ASSIGN_OR_RETURN(std::vector<HistoryRow> points,
                               DecodeChunk(chunk.data, league_id, season, player));
      for (HistoryRow& point : points) {
        if (point.point.games <= after_games) continue;
        if (static_cast<int64_t>(out.size()) == limit) break;
        out.push_back(std::move(point));
      }
    }
    if (static_cast<int64_t>(chunks.size()) < wanted_chunks) break;
    from_chunk = chunks.back().chunk + 1;
  }
  return out;
}

absl::StatusOr<std::string> ProjectionStore::Digest(const std::string& league_id) {
  return tables_.Digest(league_id);
}

}  // namespace arbiter::league
