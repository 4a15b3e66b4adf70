// JudgementCache: the adjudications of stored games, so that a repeated
// AdjudicateGame of a game that has not changed is answered without reading
// and replaying its events; ListLegalActions and GetGameState of its last
// position likewise, from the referee the entry keeps.
//
// Two ways to know an entry is not stale:
//   * Find: the caller has read the game's last stored event, and its hash
//     is the entry's. The hash chain makes that hash a digest of every event
//     of the game. Costs the caller a read of the store.
//   * FindCurrent: no read at all. The cache follows the store
//     (EventStore::Follow): every event stored by anyone, in any process,
//     reaches OnStored soon after its commit, and drops the entry of its
//     game. An entry is "current" from a read that began after the follower
//     started until its game's next event is heard of. FindCurrent answers
//     only while the follower is connected and has looked within
//     kFollowerSilence, and only once it has heard of every event this
//     process stored (the store's WrittenThrough): so a caller always sees
//     its own writes, and another server's writes within the follower's
//     delay (a notification: typically well under a millisecond).
// Each entry also keeps the game's record as its chain states it
// (chained_game.h), for the permission check of a cache hit. Bounded: past
// kMaxJudgements entries the cache starts over. Thread-safe.
#ifndef ARBITER_SERVICES_GAMES_JUDGEMENT_CACHE_H_
#define ARBITER_SERVICES_GAMES_JUDGEMENT_CACHE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "arbiter/v1/arbiter_service.pb.h"
#include "services/replay/referee.h"
#include "services/store/event_store.h"

namespace arbiter::games {

class JudgementCache final : public store::StoreListener {
 public:
  static constexpr std::size_t kMaxJudgements = 10'000;
  // Games remembered as changed since reads began (see ReadTicket).
  static constexpr std::size_t kMaxChangedGames = 100'000;
  // FindCurrent stops answering when the follower has been silent this long
  // (it looks every second even without notifications).
  static constexpr absl::Duration kFollowerSilence = absl::Seconds(2);

  struct Judgement {
    v1::Adjudication adjudication;
    store::GameRecord chained;  // the game's record as its chain states it
    // The referee after the game's last event, from the same replay (what
    // ListLegalActions and GetGameState answer from); shared, never
    // changed.
    std::shared_ptr<const replay::Referee> referee;
  };
  // Taken before reading a game whose judgement will be stored.
  struct ReadTicket {
    uint64_t generation = 0;
  };

  ReadTicket BeginRead();

  // The judgement stored for `game_id` at `last_hash`, if any.
  std::optional<Judgement> Find(const std::string& game_id, const std::string& last_hash);
  // The judgement of `game_id` as of its latest event, if the cache knows
  // it without a read; `written_here` is the store's WrittenThrough().
  std::optional<Judgement> FindCurrent(const std::string& game_id, int64_t written_here);

  // Remembers `judged` as the judgement of `game_id` whose last stored event
  // has `last_hash` and store position `last_position`, read after `ticket`
  // was taken.
  void Store(const std::string& game_id, const std::string& last_hash, int64_t last_position,
             const ReadTicket& ticket, const Judgement& judged);

  // store::StoreListener, from the follower's thread.
  void OnStored(int64_t through_position,
                const std::vector<std::pair<std::string, int64_t>>& games,
                bool restart) override;
  void OnLost() override;

 private:
  struct Entry {
    std::string last_hash;
    int64_t last_position = 0;
    bool current = false;  // FindCurrent may answer with it
    Judgement judged;
  };

  absl::Mutex mu_;
  absl::flat_hash_map<std::string, Entry> by_game_ ABSL_GUARDED_BY(mu_);
  // The follower: connected and caught up through `through_`, as of
  // `heard_at_`.
  bool following_ ABSL_GUARDED_BY(mu_) = false;
  int64_t through_ ABSL_GUARDED_BY(mu_) = 0;
  absl::Time heard_at_ ABSL_GUARDED_BY(mu_);
  // Starts at 1 with the follower (0: no follower yet; nothing is current)
  // and grows whenever `changed_` is started over; a read whose ticket is of
  // another generation cannot be checked against `changed_`.
  uint64_t generation_ ABSL_GUARDED_BY(mu_) = 0;
  // Games with events heard of in this generation: their highest position.
  absl::flat_hash_map<std::string, int64_t> changed_ ABSL_GUARDED_BY(mu_);
};

}  // namespace arbiter::games

#endif  // ARBITER_SERVICES_GAMES_JUDGEMENT_CACHE_H_
