// FollowerProgress: a StoreListener that only remembers how far its
// follower has reported and whether it holds its connection, for the
// figures arbiterd exports (the follower's lag, docs/replication.md,
// "Health and lag for orchestrators"). The server adds it last to its
// ListenerFanOut, so a position it shows has reached every other listener.
// Thread-safe: the follower's thread writes, anyone reads.
#ifndef ARBITER_SERVICES_STORE_FOLLOWER_PROGRESS_H_
#define ARBITER_SERVICES_STORE_FOLLOWER_PROGRESS_H_

#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "services/store/event_store.h"

namespace arbiter::store {

class FollowerProgress final : public StoreListener {
 public:
  void OnStored(int64_t through_position, const std::vector<std::pair<std::string, int64_t>>&,
                bool) override {
    position_.store(through_position);
    connected_.store(true);
  }
  void OnLost() override { connected_.store(false); }

  // The last position reported through; -1 before the first report.
  int64_t position() const { return position_.load(); }
  // False before the first report and while the connection is lost.
  bool connected() const { return connected_.load(); }

 private:
  std::atomic<int64_t> position_{-1};
  std::atomic<bool> connected_{false};
};

}  // namespace arbiter::store

#endif  // ARBITER_SERVICES_STORE_FOLLOWER_PROGRESS_H_
