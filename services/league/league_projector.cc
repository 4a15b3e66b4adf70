#include "services/league/league_projector.h"

#include <algorithm>
#include <iterator>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "engine/core/status_macros.h"
#include "services/common/resource_names.h"
#include "services/league/league_settings.h"
#include "spdlog/spdlog.h"

namespace arbiter::league {
namespace {

constexpr int kResultBatch = 10'000;
constexpr int kStreamPage = 1000;

using Changed = std::set<std::pair<std::string, std::string>>;

// Every league's id and the sequence of its last event (its settings).
absl::StatusOr<std::map<std::string, int64_t>> AllLeagues(store::StreamStore& streams) {
  std::map<std::string, int64_t> out;
  std::string after;
  while (true) {
    ARBITER_ASSIGN_OR_RETURN(const std::vector<store::StreamRecord> page,
                             streams.ListStreams(kLeagueKind, after, kStreamPage));
    for (const store::StreamRecord& stream : page) {
      out[common::IdOf(common::IdKind::kLeague, stream.stream_id)] = stream.last_sequence;
    }
    if (static_cast<int>(page.size()) < kStreamPage) break;
    after = page.back().stream_id;
  }
  return out;
}

void AddTables(const std::string& league_id, const engine::league::LeagueRatings& ratings,
               const std::set<std::string>& seasons, ProjectionWrite& write) {
  for (const std::string& season : seasons) {
    TableRow row{league_id, season, 0, ratings.table_games(season)};
    for (const auto& [player, rating] : ratings.table(season)) {
      if (!rating.is_virtual) ++row.players;
    }
    write.tables.push_back(row);
  }
}

// The new points of a step, appended to their chunks.
void AddHistory(const std::string& league_id, const engine::league::LeagueRatings& ratings,
                const std::vector<engine::league::HistoryPoint>& points, ProjectionWrite& write) {
  HistoryChunker chunker(league_id, ratings.config().rating);
  for (const engine::league::HistoryPoint& point : points) chunker.Add(point);
  std::vector<HistoryChunk> chunks = chunker.Take();
  write.history.insert(write.history.end(), std::make_move_iterator(chunks.begin()),
                       std::make_move_iterator(chunks.end()));
}

int64_t PointsOf(const std::vector<HistoryChunk>& chunks) {
  int64_t points = 0;
  for (const HistoryChunk& chunk : chunks) points += chunk.points;
  return points;
}

}  // namespace

RatingRow RowOf(const std::string& league_id, const std::string& season, const std::string& player,
                const engine::league::PlayerRating& rating, const engine::rating::RatingConfig& config) {
  RatingRow row;
  row.league_id = league_id;
  row.season = season;
  row.player = player;
  row.rating = rating;
  row.display = engine::rating::DisplayRating(config, rating.rating);
  row.provisional = !rating.is_virtual && engine::rating::IsProvisional(config, rating.rating, rating.games);
  return row;
}

double LeagueProjector::lag_seconds() const {
  if (lag_.load() == 0) return 0;
  return absl::ToDoubleSeconds(absl::Now() - absl::FromUnixMicros(caught_up_micros_.load()));
}

void LeagueProjector::Start(absl::Duration interval) {
  thread_ = std::thread([this, interval] {
    std::optional<store::LeaseWatch> watch;
    if (lease_ != nullptr) watch.emplace(*lease_);
    while (true) {
      {
        absl::MutexLock lock(&run_mu_);
        auto stopping = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(run_mu_) { return stopping_; };
        if (run_mu_.AwaitWithTimeout(absl::Condition(&stopping), interval)) return;
      }
      Tick(watch.has_value() ? &*watch : nullptr);
    }
  });
}

void LeagueProjector::Tick(store::LeaseWatch* watch) {
  std::optional<store::LeaseFence> fence;
  if (watch != nullptr) {
    const store::LeaseWatch::Turn turn = watch->Next();
    if (turn.changed) NoteTurn(turn);
    if (!turn.fence.has_value()) {
      Watch();
      return;
    }
    fence = turn.fence;
  }
  absl::Status status;
  {
    absl::MutexLock lock(&mu_);
    status = CatchUpLocked(fence);
  }
  if (status.ok()) return;
  spdlog::warn("league projector: {}", std::string(status.message()));
  if (fence.has_value() && store::IsLeaseLost(status)) lease_->Refused(*fence);
}

void LeagueProjector::NoteTurn(const store::LeaseWatch::Turn& turn) {
  if (turn.fence.has_value()) {
    spdlog::info("league projector: holding lease {} (holder {}, token {}): projecting",
                 kProjectorLease, turn.fence->holder, turn.fence->token);
  } else if (turn.lost) {
    spdlog::warn("league projector: lease {} lost ({}): stopped projecting", kProjectorLease,
                 lease_->Describe());
  } else {
    spdlog::info("league projector: not holding lease {} ({}): standing by", kProjectorLease,
                 lease_->Describe());
  }
}

void LeagueProjector::Watch() {
  absl::StatusOr<int64_t> checkpoint = projections_.Checkpoint();
  absl::StatusOr<int64_t> head = events_.HeadPosition();
  if (!checkpoint.ok() || !head.ok()) return;
  position_ = *checkpoint;
  lag_ = std::max<int64_t>(0, *head - *checkpoint);
  if (lag_ == 0) caught_up_micros_ = absl::ToUnixMicros(absl::Now());
}

absl::StatusOr<std::optional<store::LeaseFence>> LeagueProjector::FenceNow() const {
  if (lease_ == nullptr) return std::optional<store::LeaseFence>();
  std::optional<store::LeaseFence> fence = lease_->Held();
  if (!fence.has_value()) {
    return absl::UnavailableError(absl::StrCat("the league projector runs in another server (lease ",
                                               kProjectorLease, ": ", lease_->Describe(), ")"));
  }
  return fence;
}

void LeagueProjector::Stop() {
  {
    absl::MutexLock lock(&run_mu_);
    stopping_ = true;
  }
  if (thread_.joinable()) thread_.join();
}

absl::Status LeagueProjector::CatchUp() {
  ARBITER_ASSIGN_OR_RETURN(const std::optional<store::LeaseFence> fence, FenceNow());
  absl::MutexLock lock(&mu_);
  return CatchUpLocked(fence);
}

absl::StatusOr<RebuildSummary> LeagueProjector::Rebuild(const std::string& league_id,
                                                        absl::Duration wait) {
  ARBITER_RETURN_IF_ERROR(
      streams_.GetStream(common::NameOf(common::IdKind::kLeague, league_id)).status());
  if (absl::StatusOr<std::optional<store::LeaseFence>> fence = FenceNow(); fence.ok()) {
    absl::MutexLock lock(&mu_);
    force_rebuild_.insert(league_id);
    const absl::Status status = CatchUpLocked(*fence);
    if (status.ok()) return SummaryOf(league_id);
    // Without a lease, or failed otherwise than by losing it: as it is.
    if (!store::IsLeaseLost(status)) return status;
    spdlog::warn("league projector: {}; asking the holder to rebuild league {}",
                 std::string(status.message()), league_id);
    lease_->Refused(**fence);
  }
  return RebuildByHolder(league_id, wait);
}

absl::StatusOr<RebuildSummary> LeagueProjector::RebuildByHolder(const std::string& league_id,
                                                                absl::Duration wait) {
  store::pg::LeaseTable& table = lease_->table();
  ARBITER_ASSIGN_OR_RETURN(const int64_t number, table.Request(kProjectorLease, league_id));
  const absl::Time deadline = absl::Now() + wait;
  while (true) {
    ARBITER_ASSIGN_OR_RETURN(const int64_t done, table.Done(kProjectorLease, league_id));
    if (done >= number) break;
    if (absl::Now() >= deadline) {
      return absl::UnavailableError(absl::StrCat(
          "league ", league_id, ": the league projector's holder has not rebuilt it within ",
          absl::FormatDuration(wait), " (lease ", kProjectorLease, ": ", lease_->Describe(),
          "); it will when it can"));
    }
    absl::SleepFor(absl::Milliseconds(20));
  }
  // What the holder stored.
  RebuildSummary summary;
  ARBITER_ASSIGN_OR_RETURN(summary.position, projections_.Checkpoint());
  ARBITER_ASSIGN_OR_RETURN(const std::optional<LeagueProjection> projection,
                           projections_.Projection(league_id));
  if (projection.has_value()) summary.rated_games = projection->rated_games;
  ARBITER_ASSIGN_OR_RETURN(const LeaderboardPage page,
                           projections_.Leaderboard(league_id, "", 1, ""));
  summary.players = page.total_players;
  ARBITER_ASSIGN_OR_RETURN(summary.digest, projections_.Digest(league_id));
  position_ = std::max(position_.load(), summary.position);
  return summary;
}

absl::StatusOr<RebuildSummary> LeagueProjector::SummaryOf(const std::string& league_id) {
  RebuildSummary summary;
  summary.position = checkpoint_;
  if (auto it = leagues_.find(league_id); it != leagues_.end()) {
    summary.rated_games = it->second.ratings->rated_games();
    for (const auto& [player, rating] : it->second.ratings->table("")) {
      if (!rating.is_virtual) ++summary.players;
    }
  }
  ARBITER_ASSIGN_OR_RETURN(summary.digest, projections_.Digest(league_id));
  return summary;
}

void LeagueProjector::AddWholeLeague(const std::string& league_id, const League& league,
                                     ProjectionWrite& write) {
  write.replaced_leagues.push_back(league_id);
  const engine::league::LeagueRatings& ratings = *league.ratings;
  std::set<std::string> seasons;
  for (const auto& [season, table] : ratings.tables()) {
    seasons.insert(season);
    for (const auto& [player, rating] : table) {
      write.ratings.push_back(RowOf(league_id, season, player, rating, ratings.config().rating));
    }
  }
  AddTables(league_id, ratings, seasons, write);
  write.projections.push_back(
      LeagueProjection{league_id, league.settings_sequence, ratings.rated_games()});
}

absl::Status LeagueProjector::Load() {
  ARBITER_ASSIGN_OR_RETURN(const int64_t checkpoint, projections_.Checkpoint());
  ARBITER_ASSIGN_OR_RETURN(const auto leagues, AllLeagues(streams_));
  ARBITER_ASSIGN_OR_RETURN(const std::vector<LeagueProjection> projected,
                           projections_.Projections());
  std::map<std::string, int64_t> projected_settings;
  for (const LeagueProjection& p : projected) projected_settings[p.league_id] = p.settings_sequence;
  leagues_.clear();
  for (const auto& [league_id, sequence] : leagues) {
    auto it = projected_settings.find(league_id);
    if (it == projected_settings.end() || it->second != sequence) continue;  // rebuilt next
    ARBITER_ASSIGN_OR_RETURN(League league, Compute(league_id, checkpoint, nullptr));
    leagues_.emplace(league_id, std::move(league));
  }
  checkpoint_ = checkpoint;
  position_ = checkpoint_;
  loaded_ = true;
  return absl::OkStatus();
}

// What one CatchUp step rates and writes.
struct LeagueProjector::Step {
  int64_t head = 0;                        // the store's head: the new checkpoint
  std::map<std::string, int64_t> leagues;  // every league and its settings sequence
  std::set<std::string> rebuild;           // leagues computed whole
  ProjectionWrite write;
  std::map<std::string, Changed> changed;  // league -> (season, player) rated
  std::map<std::string, std::vector<engine::league::HistoryPoint>> history;  // new points
  std::map<std::string, League> rebuilt;
  absl::Time started;
};

absl::Status LeagueProjector::AddRequests(Step& step, const store::LeaseFence& fence) {
  step.write.fence = fence;
  ARBITER_ASSIGN_OR_RETURN(step.write.requests_done, lease_->table().Pending(kProjectorLease));
  for (const auto& [league_id, number] : step.write.requests_done) step.rebuild.insert(league_id);
  return absl::OkStatus();
}

absl::Status LeagueProjector::CatchUpLocked(const std::optional<store::LeaseFence>& fence) {
  // Memory loaded under another grant may be behind what holders since
  // then wrote.
  const std::optional<int64_t> token =
      fence.has_value() ? std::optional<int64_t>(fence->token) : std::nullopt;
  if (token != memory_token_) loaded_ = false;
  if (!loaded_) {
    ARBITER_RETURN_IF_ERROR(Load());
    memory_token_ = token;
  }
  Step step;
  ARBITER_ASSIGN_OR_RETURN(step.head, events_.HeadPosition());
  ARBITER_ASSIGN_OR_RETURN(step.leagues, AllLeagues(streams_));
  step.rebuild = force_rebuild_;
  if (fence.has_value()) ARBITER_RETURN_IF_ERROR(AddRequests(step, *fence));
  for (const auto& [league_id, sequence] : step.leagues) {
    auto it = leagues_.find(league_id);
    if (it == leagues_.end() || it->second.settings_sequence != sequence) {
      step.rebuild.insert(league_id);
    }
  }
  step.started = absl::Now();
  step.write.from_position = checkpoint_;
  ARBITER_RETURN_IF_ERROR(RateNewResults(step));
  step.write.to_position = step.head;
  AddChangedRows(step);
  ARBITER_RETURN_IF_ERROR(RebuildLeagues(step));
  const absl::Time computed = absl::Now();
  if (before_write_) before_write_();
  if (absl::Status status = projections_.Write(step.write); !status.ok()) {
    loaded_ = false;  // memory may be ahead of the store: reload next time
    return status;
  }
  const absl::Time written = absl::Now();
  if (!step.rebuilt.empty() || written - step.started > absl::Seconds(1)) {
    spdlog::info(
        "league projector: up to position {}, {} leagues rebuilt, {} rating rows and {} history "
        "points ({} chunks) written; read and rated in {:.3f}s, written in {:.3f}s",
        step.head, step.rebuilt.size(), step.write.ratings.size(), PointsOf(step.write.history),
        step.write.history.size(), absl::ToDoubleSeconds(computed - step.started),
        absl::ToDoubleSeconds(written - computed));
  }
  Finish(step);
  return absl::OkStatus();
}

absl::Status LeagueProjector::RateNewResults(Step& step) {
  int64_t after = checkpoint_;
  while (after < step.head) {
    ARBITER_ASSIGN_OR_RETURN(const std::vector<store::ResultEvent> batch,
                             results_.ReadResults(after, step.head, "", kResultBatch));
    for (const store::ResultEvent& result : batch) {
      const std::string& league_id = result.league_id;
      if (league_id.empty() || step.rebuild.contains(league_id)) continue;
      if (!ChainNamesLeague(result)) {
        spdlog::warn("league {}: game {} not counted: its chained events name another league",
                     league_id, result.event.game_id);
        continue;
      }
      auto it = leagues_.find(league_id);
      if (it == leagues_.end()) continue;  // no such league (yet): its rebuild will count it
      League& league = it->second;
      if (result.kind == store::GameStatus::kVoided) {
        if (league.seen.contains(result.event.game_id)) step.rebuild.insert(league_id);
        continue;
      }
      v1::GameFinished finished;
      if (!finished.ParseFromString(result.event.payload)) {
        return absl::DataLossError(absl::StrCat("the result of game \"", result.event.game_id,
                                                "\" (event ", result.event.sequence,
                                                ") does not decode"));
      }
      // Stored on purpose as a repeat of a game the league counts already.
      if (!finished.duplicate_of().empty()) continue;
      if (!league.seen.insert(result.event.game_id).second) {
        step.rebuild.insert(league_id);  // a corrected result
        continue;
      }
      ARBITER_ASSIGN_OR_RETURN(const engine::league::GameResult game, ResultOf(result, finished));
      absl::StatusOr<bool> counted =
          league.ratings->Add(game, &step.history[league_id], &step.changed[league_id]);
      if (!counted.ok()) {
        spdlog::warn("league {}: game {} not rated: {}", league_id, result.event.game_id,
                     std::string(counted.status().message()));
      }
    }
    if (static_cast<int>(batch.size()) < kResultBatch) break;
    after = batch.back().event.position;
  }
  return absl::OkStatus();
}

void LeagueProjector::AddChangedRows(Step& step) {
  for (const auto& [league_id, pairs] : step.changed) {
    if (step.rebuild.contains(league_id)) continue;
    const League& league = leagues_.at(league_id);
    const engine::league::LeagueRatings& ratings = *league.ratings;
    std::set<std::string> seasons;
    for (const auto& [season, player] : pairs) {
      seasons.insert(season);
      step.write.ratings.push_back(RowOf(league_id, season, player,
                                         ratings.table(season).at(player),
                                         ratings.config().rating));
    }
    AddHistory(league_id, ratings, step.history[league_id], step.write);
    AddTables(league_id, ratings, seasons, step.write);
    step.write.projections.push_back(
        LeagueProjection{league_id, league.settings_sequence, ratings.rated_games()});
  }
}

absl::Status LeagueProjector::RebuildLeagues(Step& step) {
  for (const std::string& league_id : step.rebuild) {
    if (!step.leagues.contains(league_id)) continue;
    std::vector<HistoryChunk> chunks;
    ARBITER_ASSIGN_OR_RETURN(League league, Compute(league_id, step.head, &chunks));
    AddWholeLeague(league_id, league, step.write);
    step.write.history.insert(step.write.history.end(), std::make_move_iterator(chunks.begin()),
                              std::make_move_iterator(chunks.end()));
    step.rebuilt.emplace(league_id, std::move(league));
  }
  return absl::OkStatus();
}

void LeagueProjector::Finish(Step& step) {
  for (auto& [league_id, league] : step.rebuilt) leagues_[league_id] = std::move(league);
  for (const std::string& league_id : step.rebuild) force_rebuild_.erase(league_id);
  checkpoint_ = step.head;
  position_ = checkpoint_;
  absl::StatusOr<int64_t> now = events_.HeadPosition();
  lag_ = now.ok() ? *now - checkpoint_ : 0;
  if (lag_ == 0) caught_up_micros_ = absl::ToUnixMicros(absl::Now());
  if (lag_ > 100'000) spdlog::warn("league projector: {} events behind the store", lag_.load());
}

}  // namespace arbiter::league
