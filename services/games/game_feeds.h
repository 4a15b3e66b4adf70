// GameFeeds: the live feeds of games being watched (WatchGame), fed by the
// store's follower rather than by one query per watcher.
//
// A feed is kept per watched game: every event of the game from event 1,
// decoded, each with the seats to act after it and an action with its words
// from the position before it (from a referee that follows the feed;
// event_words.h). It is built when the first watcher of the game arrives and
// dropped with its last watcher. When the follower reports that a watched
// game received events, the feeds' thread reads them once (one query per
// game, however many watch it), appends them and wakes the game's watchers;
// each watcher takes the updates after its own cursor at its own pace. So a
// watcher costs a cursor, never a copy of the events, and every watcher of a
// game sees the same events in the same order, with no gap: a watcher that
// resumes from the last event it received misses nothing and repeats
// nothing.
//
// Bounds: at most `max_watchers` watchers (ResourceExhausted beyond); a
// watcher more than `max_lag` events behind the events stored since it
// started (a client that stopped reading) is dropped. Updates carry whole
// events; cutting them for a viewer (HideSeed) is the caller's.
// Thread-safe. Watchers are called without any lock of the feeds held.
#ifndef ARBITER_SERVICES_GAMES_GAME_FEEDS_H_
#define ARBITER_SERVICES_GAMES_GAME_FEEDS_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "arbiter/v1/arbiter_service.pb.h"
#include "engine/core/ruleset_registry.h"
#include "services/store/event_store.h"

namespace arbiter::games {

// Someone watching a feed (the API layer's stream). Called from the feeds'
// thread, never under the feeds' lock.
class FeedWatcher {
 public:
  virtual ~FeedWatcher() = default;
  // Updates after the watcher's cursor may be waiting: take them (Next).
  virtual void Wake() = 0;
  // The feed will give this watcher nothing more: `why` says what to tell
  // the client (ResourceExhausted for a watcher left behind, DataLoss or
  // Unavailable for a feed that could not be read).
  virtual void Drop(const absl::Status& why) = 0;
};

struct FeedLimits {
  int max_watchers = 10'000;
  int max_lag = 1'000;
};

// What a watcher may take next.
struct FeedNext {
  // The update of event `after + 1`, if the feed has it yet.
  std::optional<v1::GameUpdate> update;
  // True when event `after` or one before it ended the game: nothing more
  // will come.
  bool past_end = false;
};

// Counts, for tests and benchmarks.
struct FeedStats {
  int watchers = 0;
  int feeds = 0;
  int64_t updates = 0;  // kept in all feeds together
};

class GameFeeds final : public store::StoreListener {
 public:
  GameFeeds(store::EventStore& store, const engine::RulesetRegistry& registry,
            FeedLimits limits = {});
  ~GameFeeds() override;  // stops the thread; watchers are not called after

  GameFeeds(const GameFeeds&) = delete;
  GameFeeds& operator=(const GameFeeds&) = delete;

  // Starts watching `game_id` after event `from_event` (which the caller
  // has checked exists). The watcher is woken when updates are ready and
  // kept alive until Unwatch. ResourceExhausted when max_watchers are
  // watching. Returns the watch's id.
  absl::StatusOr<uint64_t> Watch(const std::string& game_id, int64_t from_event,
                                 std::shared_ptr<FeedWatcher> watcher);
  // Stops a watch (unknown ids are ignored); the last watcher of a game
  // takes its feed with it.
  void Unwatch(uint64_t id);
  // The update after event `after` for watch `id`, recording `after` as the
  // watcher's cursor.
  FeedNext Next(uint64_t id, int64_t after);

  FeedStats Stats();

  // store::StoreListener, from the follower's thread: marks the watched
  // games that received events and wakes the feeds' thread.
  void OnStored(int64_t through_position,
                const std::vector<std::pair<std::string, int64_t>>& games,
                bool restart) override;
  void OnLost() override {}

  // One watched game's updates and who watches them (game_feeds.cc).
  struct Feed;

 private:
  struct Watching {
    std::string game_id;
    std::shared_ptr<FeedWatcher> watcher;
    int64_t cursor = 0;   // the last event taken
    int64_t started = 0;  // events in the feed (or from_event) when it began
  };
  // What the thread does after reading: whom to wake, whom to drop.
  struct Calls {
    std::vector<std::shared_ptr<FeedWatcher>> wake;
    std::vector<std::pair<std::shared_ptr<FeedWatcher>, absl::Status>> drop;
  };

  void Run();
  // Reads what is new of `game_id` (outside the lock), appends it and says
  // whom to wake or drop. Unavailable when the store could not be read (the
  // game is then tried again); other errors have dropped its watchers.
  absl::Status Refresh(const std::string& game_id, Calls& calls);
  // Appends `fresh` to `feed` (or, with `failed`, ends it) and fills `calls`.
  void Publish(const std::string& game_id, Feed& feed, std::vector<v1::GameUpdate> fresh,
               const absl::Status& failed, Calls& calls) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Removes watch `id` (and its feed with its last watcher); its watcher.
  std::shared_ptr<FeedWatcher> RemoveLocked(uint64_t id) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  store::EventStore& store_;
  const engine::RulesetRegistry& registry_;
  const FeedLimits limits_;

  absl::Mutex mu_;
  std::map<std::string, std::shared_ptr<Feed>> feeds_ ABSL_GUARDED_BY(mu_);
  std::map<uint64_t, Watching> watching_ ABSL_GUARDED_BY(mu_);
  std::vector<std::string> dirty_ ABSL_GUARDED_BY(mu_);
  uint64_t next_id_ ABSL_GUARDED_BY(mu_) = 1;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::thread thread_;
};

}  // namespace arbiter::games

#endif  // ARBITER_SERVICES_GAMES_GAME_FEEDS_H_
