// WatchReactor: one WatchGame stream, written with gRPC's callback API so
// that a watcher holds no thread while it waits for the next move.
//
// The reactor takes updates from the game's feed (games/game_feeds.h) one at
// a time, each after the last it wrote, cuts each for its caller (the seed,
// unless the caller may see it) and writes it; a write in flight is the only
// message it holds. It ends the stream with OK after the event that ends the
// game, with the feed's reason when the feed drops it (a watcher left behind:
// the call is cancelled), and when the client goes away. One log line when
// the stream ends: game, principal, status, updates sent, time.
// The reactor keeps itself alive until gRPC's OnDone; the feed may hold it a
// little longer. Thread-safe.
#ifndef ARBITER_SERVICES_SERVER_WATCH_GAME_H_
#define ARBITER_SERVICES_SERVER_WATCH_GAME_H_

#include <grpcpp/grpcpp.h>

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "arbiter/v1/arbiter_service.pb.h"
#include "engine/core/game.h"
#include "services/games/game_events.h"
#include "services/games/game_feeds.h"

namespace arbiter::server {

// What a checked WatchGame request asks for.
struct WatchRequest {
  std::string game_id;
  int64_t from_event = 0;
  bool sees_seed = false;  // access::SeesSeed of the caller
  // access::ViewerOf of the caller is not nullopt: the actions' words
  // (Event.text, services/games/event_words.h) are sent.
  bool sees_positions = false;
  std::string principal;
  // Whose hands the caller sees, and the game whose actions HideHand cuts
  // for the others.
  games::HandSight hands;
  const engine::Game* game = nullptr;
};

class WatchReactor final : public grpc::ServerWriteReactor<v1::GameUpdate>,
                           public games::FeedWatcher {
 public:
  // The reactor for a call: it starts watching, or, when `request` is an
  // error, finishes the call with it at once.
  static WatchReactor* Start(grpc::CallbackServerContext* context, games::GameFeeds& feeds,
                             const absl::StatusOr<WatchRequest>& request);

  WatchReactor(grpc::CallbackServerContext* context, games::GameFeeds& feeds);

  // games::FeedWatcher, from the feeds' thread.
  void Wake() override;
  void Drop(const absl::Status& why) override;

  // grpc::ServerWriteReactor.
  void OnWriteDone(bool ok) override;
  void OnCancel() override;
  void OnDone() override;

 private:
  // Ends the stream with `status` once no write is in flight; `cancel`
  // also cancels the call (so that a write the client does not read ends).
  void End(const absl::Status& status, bool cancel);

  grpc::CallbackServerContext* const context_;
  games::GameFeeds& feeds_;
  const absl::Time start_ = absl::Now();
  WatchRequest request_;

  absl::Mutex mu_;
  std::shared_ptr<WatchReactor> self_;  // released in OnDone
  uint64_t id_ ABSL_GUARDED_BY(mu_) = 0;
  bool watching_ ABSL_GUARDED_BY(mu_) = false;  // id_ is the feeds'
  bool writing_ ABSL_GUARDED_BY(mu_) = false;
  bool finishing_ ABSL_GUARDED_BY(mu_) = false;  // Finish called or due
  absl::Status final_ ABSL_GUARDED_BY(mu_);
  int64_t cursor_ ABSL_GUARDED_BY(mu_) = 0;  // the last event written
  int64_t sent_ ABSL_GUARDED_BY(mu_) = 0;
  v1::GameUpdate out_;  // the write in flight
};

}  // namespace arbiter::server

#endif  // ARBITER_SERVICES_SERVER_WATCH_GAME_H_
