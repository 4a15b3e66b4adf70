// LeagueProjector: keeps the league projections (ratings, leaderboards,
// histories) up to date with the store, inside arbiterd.
//
// It reads the store's results ("game_finished" / "game_voided" events, from
// the store's result index, result_index.h) in
// global order after its checkpoint, rates each with its league's settings
// (engine/league), and writes the changed ratings, the new history points and
// the new checkpoint in one transaction (ProjectionStore::Write), so every
// result is counted exactly once across crashes and restarts. In memory it
// holds each league's model; after a failed write or a restart it rebuilds
// that memory from the results up to the stored checkpoint.
//
// A league is rebuilt from scratch (its rows replaced in the same
// transaction) when it first appears, when its settings change (a new event
// in its log), when a game it counted is voided or given a corrected result
// (a later "game_finished" event of the same game, which takes the place of
// the first one in the order), and on request (Rebuild).
// A rebuild rates the same results in the same order with the same
// arithmetic, so it writes the same bytes. Thread-safe.
#ifndef ARBITER_SERVICES_LEAGUE_LEAGUE_PROJECTOR_H_
#define ARBITER_SERVICES_LEAGUE_LEAGUE_PROJECTOR_H_

#include <atomic>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "engine/league/league_ratings.h"
#include "services/league/league_model.h"
#include "services/league/projection_store.h"
#include "services/store/event_store.h"
#include "services/store/result_index.h"
#include "services/store/stream_store.h"

namespace arbiter::league {

struct RebuildSummary {
  int64_t rated_games = 0;
  int64_t players = 0;
  int64_t position = 0;
  std::string digest;
};

class LeagueProjector {
 public:
  // `events` gives the store's head; `results` the results up to it.
  LeagueProjector(store::EventStore& events, store::ResultIndex& results,
                  store::StreamStore& streams, ProjectionStore& projections)
      : events_(events), results_(results), streams_(streams), projections_(projections) {}
  ~LeagueProjector() { Stop(); }

  // Runs CatchUp every `interval` on a thread of its own until Stop.
  void Start(absl::Duration interval = absl::Milliseconds(50));
  void Stop();

  // Brings the projections up to the store's head as it is now.
  absl::Status CatchUp();
  // Rebuilds one league from the logs now (NotFound for an unknown league).
  absl::StatusOr<RebuildSummary> Rebuild(const std::string& league_id);

  // The store position the projections are up to date with (in memory; 0
  // before the first step).
  int64_t position() const { return position_.load(); }
  // Events between the store's head and the checkpoint, as of the last step.
  int64_t lag() const { return lag_.load(); }
  // Seconds since a step last ended with nothing left to count (0 if the
  // last step did; since construction if none has).
  double lag_seconds() const;

 private:
  // `seen`: a second result (a correction) or a void of one of its games
  // rebuilds the league.
  using League = LeagueModel;

  struct Step;  // what one CatchUp step rates and writes (league_projector.cc)

  absl::Status CatchUpLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status Load() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The parts of a step: rate the results after the checkpoint into the
  // leagues' models (leagues to rebuild aside), add the rows they changed,
  // compute the leagues to rebuild whole, and once written keep the new
  // models and checkpoint.
  absl::Status RateNewResults(Step& step) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void AddChangedRows(Step& step) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status RebuildLeagues(Step& step) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Finish(Step& step) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // ComputeLeague (league_model.h) on this projector's stores.
  absl::StatusOr<League> Compute(const std::string& league_id, int64_t position,
                                 std::vector<HistoryChunk>* history) {
    return ComputeLeague(results_, streams_, league_id, position, history);
  }
  // Every row of a league's model, for a write that replaces it.
  void AddWholeLeague(const std::string& league_id, const League& league, ProjectionWrite& write);

  store::EventStore& events_;
  store::ResultIndex& results_;
  store::StreamStore& streams_;
  ProjectionStore& projections_;

  absl::Mutex mu_;
  bool loaded_ ABSL_GUARDED_BY(mu_) = false;
  int64_t checkpoint_ ABSL_GUARDED_BY(mu_) = 0;
  std::map<std::string, League> leagues_ ABSL_GUARDED_BY(mu_);
  std::set<std::string> force_rebuild_ ABSL_GUARDED_BY(mu_);
  std::atomic<int64_t> position_{0};
  std::atomic<int64_t> lag_{0};
  std::atomic<int64_t> caught_up_micros_{absl::ToUnixMicros(absl::Now())};

  absl::Mutex run_mu_;
  bool stopping_ ABSL_GUARDED_BY(run_mu_) = false;
  std::thread thread_;
};

// The row the projections store for `player` of a model.
RatingRow RowOf(const std::string& league_id, const std::string& season, const std::string& player,
                const engine::league::PlayerRating& rating, const engine::rating::RatingConfig& config);

}  // namespace arbiter::league

#endif  // ARBITER_SERVICES_LEAGUE_LEAGUE_PROJECTOR_H_
