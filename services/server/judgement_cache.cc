#include "services/server/judgement_cache.h"

namespace arbiter::server {

std::optional<JudgementCache::Judgement> JudgementCache::Find(const std::string& game_id,
                                                              const std::string& last_hash) {
  absl::MutexLock lock(&mu_);
  auto it = by_game_.find(game_id);
  if (it == by_game_.end() || it->second.first != last_hash) return std::nullopt;
  return it->second.second;
}

void JudgementCache::Store(const std::string& game_id, const std::string& last_hash,
                           const Judgement& judged) {
  if (last_hash.empty()) return;
  absl::MutexLock lock(&mu_);
  if (by_game_.size() >= kMaxJudgements && !by_game_.contains(game_id)) by_game_.clear();
  by_game_[game_id] = {last_hash, judged};
}

}  // namespace arbiter::server
