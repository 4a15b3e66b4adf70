// LeaseKeeper: keeps one named lease (pg/leases.h) for this process, so that
// a piece of work that must run in one arbiterd at a time (a singleton: the
// league projector, the transparency-log builder, the reveal sweeper) runs
// in one. It tries at once on Start, then on a thread of its own: while it
// holds the lease it renews it every `renew_every`; while another server
// does, it tries again when that grant is due to lapse (at most
// `renew_every` later), and takes it over once it has.
//
// Held() is this process's belief: the grant, while the last renewal the
// database accepted was sent less than `ttl` ago (by the local monotonic
// clock; the database's expiry was set later, so the belief ends first). A
// singleton works only while Held() answers, and every write it makes
// carries the fence Held() gave it, which the database checks in the same
// transaction (pg::CheckFence): the belief keeps a cut-off holder from
// starting work it would lose; the fence keeps a paused one from writing.
//
// Takeover after a holder dies: its grant lapses at most ttl after its last
// renewal, and the next server takes it over at its next try, so within
// ttl + renew_every of the death (docs/replication.md has the figures).
// Thread-safe.
#ifndef ARBITER_SERVICES_STORE_LEASE_KEEPER_H_
#define ARBITER_SERVICES_STORE_LEASE_KEEPER_H_

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "services/store/lease_fence.h"
#include "services/store/pg/leases.h"

namespace arbiter::store {

struct LeaseTiming {
  absl::Duration ttl = absl::Seconds(10);
  absl::Duration renew_every = absl::Seconds(3);  // well under ttl: a missed renewal or two is harmless
  // How long a fenced transaction may sit idle (LeaseFence::idle_limit);
  // zero: ttl.
  absl::Duration idle_limit = absl::ZeroDuration();
};

// A holder id unique to this process: "<host>:<pid>:<8 random hex digits>".
std::string NewLeaseHolderId();

class LeaseKeeper {
 public:
  // `table` must outlive this object.
  LeaseKeeper(pg::LeaseTable& table, std::string name, std::string holder, LeaseTiming timing = {});
  ~LeaseKeeper() { Stop(); }
  LeaseKeeper(const LeaseKeeper&) = delete;
  LeaseKeeper& operator=(const LeaseKeeper&) = delete;

  // Tries once now, then keeps trying on a thread of its own.
  void Start();
  // Stops trying and releases the lease if held (its expiry set to now, so
  // another server takes it over at its next try).
  void Stop();
  // Stops trying without releasing: the lease lapses as if this process
  // had died (tests, the takeover benchmark).
  void Abandon();

  // The fence to write with while this process holds the lease; nullopt
  // while it does not (or believes it may not).
  std::optional<LeaseFence> Held() const;
  // The last outcome, for log lines: "held with token 3", "held by h with
  // token 4 for 8.2s more", "renewal failed: ...".
  std::string Describe() const;

  // A write fenced by `fence` was refused (IsLeaseLost): if that is still
  // the grant, Held() answers nullopt from now on, and the next try finds
  // out who holds the lease.
  void Refused(const LeaseFence& fence);

  // One try (what the thread does): renew the grant held, else try to take
  // the lease. Returns how long to wait before the next.
  absl::Duration TryOnce();
  // While paused the thread tries nothing (a holder that stopped renewing:
  // for tests). Held() still answers by the local clock.
  void Pause(bool paused);

  const std::string& name() const { return name_; }
  const std::string& holder() const { return holder_; }
  const LeaseTiming& timing() const { return timing_; }
  pg::LeaseTable& table() const { return table_; }

 private:
  using Clock = std::chrono::steady_clock;

  absl::Duration Renew(Clock::time_point sent) ABSL_EXCLUSIVE_LOCKS_REQUIRED(try_mu_);
  absl::Duration Acquire(Clock::time_point sent) ABSL_EXCLUSIVE_LOCKS_REQUIRED(try_mu_);
  void Run();
  void Join();

  pg::LeaseTable& table_;
  const std::string name_;
  const std::string holder_;
  const LeaseTiming timing_;

  absl::Mutex try_mu_;  // one try at a time (the thread, TryOnce, Stop)

  mutable absl::Mutex mu_;
  std::optional<LeaseFence> grant_ ABSL_GUARDED_BY(mu_);
  Clock::time_point valid_until_ ABSL_GUARDED_BY(mu_);
  std::string why_ ABSL_GUARDED_BY(mu_) = "not tried yet";
  bool paused_ ABSL_GUARDED_BY(mu_) = false;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::thread thread_;
};

// What a singleton's loop asks before each step: the fence to work with
// (nullopt: do not work), and whether that changed since it last asked (a
// new grant or a lost one: log it, and forget what memory holds, which
// another holder may have moved on from). Not thread-safe: one loop owns it.
class LeaseWatch {
 public:
  explicit LeaseWatch(const LeaseKeeper& keeper) : keeper_(keeper) {}

  struct Turn {
    std::optional<LeaseFence> fence;
    bool changed = false;
    bool lost = false;  // changed, from a grant worked under to none
  };
  Turn Next();

  const LeaseKeeper& keeper() const { return keeper_; }

 private:
  const LeaseKeeper& keeper_;
  std::optional<int64_t> token_;  // of the grant worked under last
  bool asked_ = false;
};

}  // namespace arbiter::store

#endif  // ARBITER_SERVICES_STORE_LEASE_KEEPER_H_
