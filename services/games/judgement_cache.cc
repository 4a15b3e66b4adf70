#include "services/games/judgement_cache.h"

#include <algorithm>

#include "absl/time/clock.h"

namespace arbiter::games {

JudgementCache::ReadTicket JudgementCache::BeginRead() {
  absl::MutexLock lock(&mu_);
  return ReadTicket{generation_};
}

std::optional<JudgementCache::Judgement> JudgementCache::Find(const std::string& game_id,
                                                              const std::string& last_hash) {
  absl::MutexLock lock(&mu_);
  auto it = by_game_.find(game_id);
  if (it == by_game_.end() || it->second.last_hash != last_hash) return std::nullopt;
  return it->second.judged;
}

std::optional<JudgementCache::Judgement> JudgementCache::FindCurrent(const std::string& game_id,
                                                                     int64_t written_here) {
  absl::MutexLock lock(&mu_);
  if (!following_ || through_ < written_here || absl::Now() - heard_at_ > kFollowerSilence) {
    return std::nullopt;
  }
  auto it = by_game_.find(game_id);
  if (it == by_game_.end() || !it->second.current) return std::nullopt;
  return it->second.judged;
}

void JudgementCache::Store(const std::string& game_id, const std::string& last_hash,
                           int64_t last_position, const ReadTicket& ticket,
                           const Judgement& judged) {
  if (last_hash.empty()) return;
  absl::MutexLock lock(&mu_);
  // Current if every event of the game after the one read will still be
  // heard of: the read began in this generation, so events of the game up
  // to its start are at or before `last_position`, and those heard of
  // since are in changed_.
  bool current = ticket.generation != 0 && ticket.generation == generation_;
  if (current) {
    auto changed = changed_.find(game_id);
    current = changed == changed_.end() || changed->second <= last_position;
  }
  if (by_game_.size() >= kMaxJudgements && !by_game_.contains(game_id)) by_game_.clear();
  by_game_[game_id] = Entry{last_hash, last_position, current, judged};
}

void JudgementCache::OnStored(int64_t through_position,
                              const std::vector<std::pair<std::string, int64_t>>& games,
                              bool restart) {
  absl::MutexLock lock(&mu_);
  if (restart) {
    // Nothing is known of what happened before: no entry stays current.
    ++generation_;
    changed_.clear();
    for (auto& [game_id, entry] : by_game_) entry.current = false;
  }
  for (const auto& [game_id, position] : games) {
    if (changed_.size() >= kMaxChangedGames && !changed_.contains(game_id)) {
      ++generation_;
      changed_.clear();
    }
    int64_t& highest = changed_[game_id];
    highest = std::max(highest, position);
    auto it = by_game_.find(game_id);
    if (it != by_game_.end() && it->second.last_position < position) it->second.current = false;
  }
  following_ = true;
  through_ = through_position;
  heard_at_ = absl::Now();
}

void JudgementCache::OnLost() {
  absl::MutexLock lock(&mu_);
  following_ = false;
}

}  // namespace arbiter::games
