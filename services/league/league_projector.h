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
// arithmetic, so it writes the same bytes.
//
// In arbiterd it runs under the lease kProjectorLease (UseLease;
// services/store/lease_keeper.h): only the server holding it projects, and
// every write is fenced twice in its transaction, by the checkpoint it
// started from and by the lease's token, so a holder paused or cut off past
// its lease writes nothing. The others stand by, reading the stored
// checkpoint for position() and lag(); a rebuild asked of one of them is
// handed to the holder through the database (pg::LeaseTable::Request) and
// waited for. Without a lease (tests, tools) every projector projects,
// fenced by the checkpoint alone. Thread-safe.
#ifndef ARBITER_SERVICES_LEAGUE_LEAGUE_PROJECTOR_H_
#define ARBITER_SERVICES_LEAGUE_LEAGUE_PROJECTOR_H_

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "engine/league/league_ratings.h"
#include "services/league/league_model.h"
#include "services/league/projection_store.h"
#include "services/store/event_store.h"
#include "services/store/lease_keeper.h"
#include "services/store/result_index.h"
#include "services/store/stream_store.h"

namespace arbiter::league {

// The lease the projector runs under: one for every league, as the
// projector keeps one checkpoint for all of them.
inline constexpr char kProjectorLease[] = "projector:leagues";

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

  // From now on project only while `keeper` (of kProjectorLease) holds the
  // lease, every write fenced by its token. Before Start; `keeper` must
  // outlive this object.
  void UseLease(store::LeaseKeeper& keeper) { lease_ = &keeper; }

  // Runs a step every `interval` on a thread of its own until Stop: CatchUp
  // while this process holds the lease (or has none), else a look at the
  // stored checkpoint.
  void Start(absl::Duration interval = absl::Milliseconds(50));
  void Stop();

  // Brings the projections up to the store's head as it is now.
  // Unavailable under a lease this process does not hold; Aborted if the
  // write was fenced off (another projector moved the checkpoint, or the
  // lease passed to another grant).
  absl::Status CatchUp();
  // Rebuilds one league from the logs now (NotFound for an unknown league).
  // Under a lease held elsewhere, asks the holder and waits for it
  // (Unavailable if it has not done it within `wait`).
  absl::StatusOr<RebuildSummary> Rebuild(const std::string& league_id,
                                         absl::Duration wait = absl::Minutes(10));

  // Runs `hook` in each step after it is computed and before it is written
  // (with the projector's lock held): tests pause a holder there.
  void SetBeforeWriteHookForTest(std::function<void()> hook) { before_write_ = std::move(hook); }

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

  // One step, fenced by `fence` when set.
  absl::Status CatchUpLocked(const std::optional<store::LeaseFence>& fence)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // What the thread does every interval (`watch`: null without a lease).
  void Tick(store::LeaseWatch* watch);
  // Logs a change of lease and forgets what memory holds.
  void NoteTurn(const store::LeaseWatch::Turn& turn);
  // A standby's look at the stored checkpoint: position(), lag().
  void Watch();
  // The fence for a step now: nullopt without a lease; Unavailable if the
  // lease is held elsewhere.
  absl::StatusOr<std::optional<store::LeaseFence>> FenceNow() const;
  // Rebuild on a standby: the holder does it, this reads what it stored.
  absl::StatusOr<RebuildSummary> RebuildByHolder(const std::string& league_id,
                                                 absl::Duration wait);
  // The leagues other servers asked to rebuild (under the lease).
  absl::Status AddRequests(Step& step, const store::LeaseFence& fence)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The summary of a league as this process's memory holds it.
  absl::StatusOr<RebuildSummary> SummaryOf(const std::string& league_id)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
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
  // The lease token memory was loaded under (nullopt: none).
  std::optional<int64_t> memory_token_ ABSL_GUARDED_BY(mu_);
  int64_t checkpoint_ ABSL_GUARDED_BY(mu_) = 0;
  std::map<std::string, League> leagues_ ABSL_GUARDED_BY(mu_);
  std::set<std::string> force_rebuild_ ABSL_GUARDED_BY(mu_);
  std::atomic<int64_t> position_{0};
  std::atomic<int64_t> lag_{0};
  std::atomic<int64_t> caught_up_micros_{absl::ToUnixMicros(absl::Now())};

  absl::Mutex run_mu_;
  bool stopping_ ABSL_GUARDED_BY(run_mu_) = false;
  std::thread thread_;

  store::LeaseKeeper* lease_ = nullptr;
  std::function<void()> before_write_;
};

// The row the projections store for `player` of a model.
RatingRow RowOf(const std::string& league_id, const std::string& season, const std::string& player,
                const engine::league::PlayerRating& rating, const engine::rating::RatingConfig& config);

}  // namespace arbiter::league

#endif  // ARBITER_SERVICES_LEAGUE_LEAGUE_PROJECTOR_H_
