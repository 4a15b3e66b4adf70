// ListenerFanOut: one store follower heard by several listeners, so that a
// server follows the store on one connection however many parts of it need
// to hear what was stored (the judgement cache, the live feeds).
// Each call is passed to every listener in the order they were given, on the
// follower's thread. The listeners are the caller's and must outlive it.
#ifndef ARBITER_SERVICES_STORE_LISTENER_FAN_OUT_H_
#define ARBITER_SERVICES_STORE_LISTENER_FAN_OUT_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "services/store/event_store.h"

namespace arbiter::store {

class ListenerFanOut final : public StoreListener {
 public:
  explicit ListenerFanOut(std::vector<StoreListener*> listeners)
      : listeners_(std::move(listeners)) {}

  void OnStored(int64_t through_position,
                const std::vector<std::pair<std::string, int64_t>>& games,
                bool restart) override {
    for (StoreListener* listener : listeners_) listener->OnStored(through_position, games, restart);
  }
  void OnLost() override {
    for (StoreListener* listener : listeners_) listener->OnLost();
  }

 private:
  const std::vector<StoreListener*> listeners_;
};

}  // namespace arbiter::store

#endif  // ARBITER_SERVICES_STORE_LISTENER_FAN_OUT_H_
