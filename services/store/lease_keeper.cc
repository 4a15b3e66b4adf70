#include "services/store/lease_keeper.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"

namespace arbiter::store {
namespace {

// Eight hex digits from the kernel's generator (the time, should it be
// unreadable: the host and pid already tell processes apart but for a pid
// reused on the same host).
std::string RandomHex() {
  uint32_t value = 0;
  std::ifstream urandom("/dev/urandom", std::ios::binary);
  if (!urandom.read(reinterpret_cast<char*>(&value), sizeof value)) {
    value = static_cast<uint32_t>(absl::ToUnixNanos(absl::Now()));
  }
  return absl::StrFormat("%08x", value);
}

}  // namespace

std::string NewLeaseHolderId() {
  std::array<char, 256> host{};
  if (gethostname(host.data(), host.size() - 1) != 0) host[0] = '\0';
  return absl::StrCat(host[0] == '\0' ? "unknown-host" : host.data(), ":", getpid(), ":",
                      RandomHex());
}

LeaseKeeper::LeaseKeeper(pg::LeaseTable& table, std::string name, std::string holder,
                         LeaseTiming timing)
    : table_(table), name_(std::move(name)), holder_(std::move(holder)), timing_(timing) {}

void LeaseKeeper::Start() {
  if (thread_.joinable()) return;
  {
    absl::MutexLock lock(&mu_);
    stopping_ = false;
  }
  const absl::Duration first = TryOnce();
  thread_ = std::thread([this, first] {
    absl::Duration wait = first;
    while (true) {
      {
        absl::MutexLock lock(&mu_);
        if (mu_.AwaitWithTimeout(absl::Condition(&stopping_), wait)) return;
        if (paused_) {
          wait = timing_.renew_every;
          continue;
        }
      }
      wait = TryOnce();
    }
  });
}

void LeaseKeeper::Join() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  if (thread_.joinable()) thread_.join();
}

void LeaseKeeper::Stop() {
  Join();
  absl::MutexLock tries(&try_mu_);
  std::optional<LeaseFence> grant;
  {
    absl::MutexLock lock(&mu_);
    grant = std::exchange(grant_, std::nullopt);
    if (grant.has_value()) why_ = "released";
  }
  if (grant.has_value()) (void)table_.Release(*grant);  // else it lapses at its expiry
}

void LeaseKeeper::Abandon() {
  Join();
  absl::MutexLock lock(&mu_);
  grant_.reset();
  why_ = "abandoned";
}

std::optional<LeaseFence> LeaseKeeper::Held() const {
  absl::MutexLock lock(&mu_);
  if (!grant_.has_value() || Clock::now() >= valid_until_) return std::nullopt;
  return grant_;
}

std::string LeaseKeeper::Describe() const {
  absl::MutexLock lock(&mu_);
  return why_;
}

void LeaseKeeper::Refused(const LeaseFence& fence) {
  absl::MutexLock lock(&mu_);
  if (!grant_.has_value() || grant_->token != fence.token) return;
  grant_.reset();
  why_ = absl::StrCat("a write under token ", fence.token, " was refused");
}

void LeaseKeeper::Pause(bool paused) {
  absl::MutexLock lock(&mu_);
  paused_ = paused;
}

absl::Duration LeaseKeeper::TryOnce() {
  absl::MutexLock tries(&try_mu_);
  const Clock::time_point sent = Clock::now();
  bool held = false;
  {
    absl::MutexLock lock(&mu_);
    held = grant_.has_value();
  }
  if (held) {
    const absl::Duration next = Renew(sent);
    absl::MutexLock lock(&mu_);
    if (grant_.has_value()) return next;
  }
  return Acquire(sent);
}

absl::Duration LeaseKeeper::Renew(Clock::time_point sent) {
  LeaseFence fence;
  {
    absl::MutexLock lock(&mu_);
    fence = *grant_;
  }
  const absl::Duration lock_wait = std::min(timing_.renew_every / 2, absl::Seconds(1));
  absl::StatusOr<bool> renewed = table_.Renew(fence, timing_.ttl, lock_wait);
  absl::MutexLock lock(&mu_);
  if (!renewed.ok()) {
    // Still ours unless taken over; believed so until valid_until_.
    why_ = absl::StrCat("holding token ", fence.token, ", but renewing it failed: ",
                        renewed.status().message());
    return timing_.renew_every / 2;
  }
  if (!*renewed) {
    grant_.reset();
    why_ = absl::StrCat("token ", fence.token, " was taken over");
    return absl::ZeroDuration();
  }
  valid_until_ = sent + absl::ToChronoNanoseconds(timing_.ttl);
  why_ = absl::StrCat("held with token ", fence.token);
  return timing_.renew_every;
}

absl::Duration LeaseKeeper::Acquire(Clock::time_point sent) {
  const absl::Duration lock_wait = std::min(timing_.renew_every / 2, absl::Seconds(1));
  absl::StatusOr<pg::LeaseGrant> grant = table_.Acquire(name_, holder_, timing_.ttl, lock_wait);
  absl::MutexLock lock(&mu_);
  if (!grant.ok()) {
    why_ = absl::StrCat("taking it failed: ", grant.status().message());
    return timing_.renew_every;
  }
  if (grant->fence.has_value()) {
    grant_ = grant->fence;
    if (timing_.idle_limit > absl::ZeroDuration()) grant_->idle_limit = timing_.idle_limit;
    valid_until_ = sent + absl::ToChronoNanoseconds(timing_.ttl);
    why_ = absl::StrCat("held with token ", grant_->token);
    return timing_.renew_every;
  }
  if (grant->holder.empty()) {
    why_ = "its row was locked by another server; trying again";
    return std::min(timing_.renew_every, absl::Milliseconds(100));
  }
  why_ = absl::StrCat("held by ", grant->holder, " with token ", grant->token, " for ",
                      absl::FormatDuration(absl::Trunc(grant->remaining, absl::Milliseconds(1))),
                      " more");
  // Try again just after that grant lapses, unless it is renewed first.
  return std::clamp(grant->remaining + absl::Milliseconds(1), absl::Milliseconds(1),
                    timing_.renew_every);
}

LeaseWatch::Turn LeaseWatch::Next() {
  Turn turn;
  turn.fence = keeper_.Held();
  const std::optional<int64_t> token =
      turn.fence.has_value() ? std::optional<int64_t>(turn.fence->token) : std::nullopt;
  turn.changed = !asked_ || token != token_;
  turn.lost = turn.changed && token_.has_value() && !token.has_value();
  asked_ = true;
  token_ = token;
  return turn;
}

}  // namespace arbiter::store
