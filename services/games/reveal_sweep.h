// The reveal deadline of sealed games: a game whose seed was not revealed by
// the deadline in its event 1 is voided by a chained "game_voided" event,
// recorded by the referee ("arbiter"), so that withholding a reveal cannot
// freeze a result. arbiterd runs it every --reveal-sweep-seconds, in one
// server at a time: under the lease kRevealSweeperLease
// (services/store/lease_keeper.h), every void's append fenced by the lease's
// token as well as by the game's expected sequence and a request id of its
// own, so a sweeper paused past its lease voids nothing.
// Thread-safe (the store serialises appends; a reveal that wins the race
// makes the void's append fail, and the game is left alone).
#ifndef ARBITER_SERVICES_GAMES_REVEAL_SWEEP_H_
#define ARBITER_SERVICES_GAMES_REVEAL_SWEEP_H_

#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "services/store/event_store.h"
#include "services/store/lease_keeper.h"

namespace arbiter::games {

inline constexpr char kRevealSweeperLease[] = "reveal-sweeper";

// The reason a game voided by the sweep records.
std::string UnrevealedReason(absl::Time deadline);

// Voids every active sealed game whose deadline is before `now` and whose
// seed is unrevealed. Returns the ids of the games it voided. A game that
// cannot be read is skipped (and logged); a failure to list games is an
// error, and so is a void refused by `fence` (each void's append carries it
// when set: store::IsLeaseLost), which ends the sweep.
absl::StatusOr<std::vector<std::string>> VoidUnrevealedGames(
    store::EventStore& store, absl::Time now,
    const std::optional<store::LeaseFence>& fence = std::nullopt);

// Runs VoidUnrevealedGames on its own thread every `every` from Start until
// Stop (or destruction).
class RevealSweeper {
 public:
  RevealSweeper(store::EventStore& store, absl::Duration every) : store_(store), every_(every) {}
  ~RevealSweeper() { Stop(); }
  RevealSweeper(const RevealSweeper&) = delete;
  RevealSweeper& operator=(const RevealSweeper&) = delete;

  // Sweep only while `keeper` (of kRevealSweeperLease) holds the lease.
  // Before Start; `keeper` must outlive this object.
  void UseLease(store::LeaseKeeper& keeper) { lease_ = &keeper; }

  void Start();
  void Stop();

 private:
  void Run();
  // One sweep, if this process may (`watch`: null without a lease).
  void Sweep(store::LeaseWatch* watch);

  store::EventStore& store_;
  const absl::Duration every_;
  absl::Mutex mu_;
  bool stop_ ABSL_GUARDED_BY(mu_) = false;
  std::thread thread_;
  store::LeaseKeeper* lease_ = nullptr;
};

}  // namespace arbiter::games

#endif  // ARBITER_SERVICES_GAMES_REVEAL_SWEEP_H_
