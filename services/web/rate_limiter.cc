#include "services/web/rate_limiter.h"

#include <algorithm>

namespace arbiter::web {

bool RateLimiter::Allow(const std::string& address, absl::Time now,
                        absl::Duration* retry_after) {
  if (rate_ <= 0) return true;
  absl::MutexLock lock(&mu_);
  if (buckets_.size() >= kMaxAddresses && !buckets_.contains(address)) {
    for (auto stale = buckets_.begin(); stale != buckets_.end();) {
      if (now - stale->second.updated > absl::Minutes(1)) {
        buckets_.erase(stale++);
      } else {
        ++stale;
      }
    }
  }
  auto [it, inserted] = buckets_.try_emplace(address, Bucket{burst_, now});
  Bucket& bucket = it->second;
  if (!inserted) {
    const double refill = absl::ToDoubleSeconds(now - bucket.updated) * rate_;
    bucket.tokens = std::min(burst_, bucket.tokens + std::max(0.0, refill));
    bucket.updated = std::max(bucket.updated, now);
  }
  if (bucket.tokens >= 1) {
    bucket.tokens -= 1;
    return true;
  }
  if (retry_after != nullptr) *retry_after = absl::Seconds((1 - bucket.tokens) / rate_);
  return false;
}

}  // namespace arbiter::web
