// LiveGames: one lock and one cached referee per game being written to.
//
// Writes to a game are serialised by its lock, so the engine checks each
// action against the position the store will append it to. The cached
// referee saves replaying the game on every append; it is trusted only while
// its event count equals the game's last event in the store (another server
// may have written), and is dropped whenever a write fails half-way.
// Thread-safe. Entries not in use are dropped when there are more than
// `capacity` of them.
#ifndef ARBITER_SERVICES_GAMES_LIVE_GAMES_H_
#define ARBITER_SERVICES_GAMES_LIVE_GAMES_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "absl/synchronization/mutex.h"
#include "arbiter/v1/arbiter_service.pb.h"
#include "services/replay/referee.h"
#include "services/store/event_store.h"

namespace arbiter::games {

// The cached state of one game. Only touched while its lock is held.
struct LiveGame {
  // Judged through `last_event`; nullopt when nothing is cached.
  std::optional<replay::Referee> referee;
  int64_t last_event = 0;
  // False while the seed is hidden: `referee` then holds the header only
  // (seed 0) and is used for shape checks, never for judging.
  bool seed_known = false;
  // The game's creation (league and tournament with the header).
  v1::GameCreated created;
  // The game as its chain stated it through `last_event`, set after this
  // server's own append stored it (and the cached referee judged it): what
  // the next append's permission checks read instead of the store when it
  // expects that same last event. The store still checks the expected event
  // as it writes, so a head that moved on elsewhere is refused, never
  // overwritten (GameWriter::Append then reads the game again).
  std::optional<store::GameRecord> head;

  void Forget() {
    referee.reset();
    last_event = 0;
    head.reset();
  }
};

class LiveGames {
 public:
  explicit LiveGames(std::size_t capacity = 4096) : capacity_(capacity) {}

  // A locked game; unlocked when destroyed.
  class Locked {
   public:
    Locked(Locked&&) = default;
    ~Locked();
    LiveGame& operator*() const { return entry_->game; }
    LiveGame* operator->() const { return &entry_->game; }

   private:
    friend class LiveGames;
    struct Entry {
      absl::Mutex mu;
      LiveGame game;
    };
    explicit Locked(std::shared_ptr<Entry> entry);
    std::shared_ptr<Entry> entry_;
  };

  // Waits for and takes the lock of `game_id`.
  Locked Lock(const std::string& game_id);

 private:
  const std::size_t capacity_;
  absl::Mutex mu_;
  std::map<std::string, std::shared_ptr<Locked::Entry>> entries_ ABSL_GUARDED_BY(mu_);
};

}  // namespace arbiter::games

#endif  // ARBITER_SERVICES_GAMES_LIVE_GAMES_H_
