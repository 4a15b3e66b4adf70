#include "services/games/live_games.h"

namespace arbiter::games {

LiveGames::Locked::Locked(std::shared_ptr<Entry> entry) : entry_(std::move(entry)) {
  entry_->mu.Lock();
}

LiveGames::Locked::~Locked() {
  if (entry_ != nullptr) entry_->mu.Unlock();
}

LiveGames::Locked LiveGames::Lock(const std::string& game_id) {
  std::shared_ptr<Locked::Entry> entry;
  {
    absl::MutexLock lock(&mu_);
    if (entries_.size() >= capacity_) {
      // Drop entries nobody holds (use_count 1: only the map).
      for (auto it = entries_.begin(); it != entries_.end();) {
        it = it->second.use_count() == 1 ? entries_.erase(it) : std::next(it);
      }
    }
    std::shared_ptr<Locked::Entry>& slot = entries_[game_id];
    if (slot == nullptr) slot = std::make_shared<Locked::Entry>();
    entry = slot;
  }
  return Locked(std::move(entry));
}

}  // namespace arbiter::games
