// A token bucket per client address: each address may make `burst` requests
// at once and `rate` per second on average; beyond that Allow() says no and
// how long to wait. Buckets of addresses not seen for a minute are dropped
// when the table grows past kMaxAddresses, so a flood of addresses cannot
// grow it without bound. Thread-safe.
#ifndef ARBITER_SERVICES_WEB_RATE_LIMITER_H_
#define ARBITER_SERVICES_WEB_RATE_LIMITER_H_

#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace arbiter::web {

class RateLimiter {
 public:
  static constexpr std::size_t kMaxAddresses = 100'000;

  // rate <= 0 turns the limit off.
  RateLimiter(double rate, double burst) : rate_(rate), burst_(burst < 1 ? 1 : burst) {}

  // True if `address` may make a request at `now` (and takes a token);
  // otherwise false and *retry_after is the wait for the next token.
  bool Allow(const std::string& address, absl::Time now, absl::Duration* retry_after);

 private:
  struct Bucket {
    double tokens;
    absl::Time updated;
  };
  const double rate_;
  const double burst_;
  absl::Mutex mu_;
  absl::flat_hash_map<std::string, Bucket> buckets_ ABSL_GUARDED_BY(mu_);
};

}  // namespace arbiter::web

#endif  // ARBITER_SERVICES_WEB_RATE_LIMITER_H_
