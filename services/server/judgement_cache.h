// JudgementCache: the adjudications of stored games, keyed by game and the
// hash of its last event, so that a repeated AdjudicateGame of a game that
// has not changed is answered without reading and replaying its events.
//
// Why it is never stale: an entry is used only when the game's last stored
// event (read by the caller) has the same hash, and the hash chain makes that
// hash a digest of every event of the game. A game that changed has another
// last hash, and its entry is simply replaced. Each entry also keeps the
// game's record as its chain states it (chained_game.h), computed with the
// adjudication, for the permission check of a cache hit. Bounded: past
// kMaxJudgements entries the cache starts over.
// Thread-safe.
#ifndef ARBITER_SERVICES_SERVER_JUDGEMENT_CACHE_H_
#define ARBITER_SERVICES_SERVER_JUDGEMENT_CACHE_H_

#include <optional>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "arbiter/v1/arbiter_service.pb.h"
#include "services/store/event_store.h"

namespace arbiter::server {

class JudgementCache {
 public:
  static constexpr std::size_t kMaxJudgements = 10'000;

  struct Judgement {
    v1::Adjudication adjudication;
    store::GameRecord chained;  // the game's record as its chain states it
  };
  // The judgement stored for `game_id` at `last_hash`, if any.
  std::optional<Judgement> Find(const std::string& game_id, const std::string& last_hash);
  // Remembers `judged` as the judgement of `game_id` at `last_hash`.
  void Store(const std::string& game_id, const std::string& last_hash, const Judgement& judged);

 private:
  absl::Mutex mu_;
  absl::flat_hash_map<std::string, std::pair<std::string, Judgement>> by_game_
      ABSL_GUARDED_BY(mu_);
};

}  // namespace arbiter::server

#endif  // ARBITER_SERVICES_SERVER_JUDGEMENT_CACHE_H_
