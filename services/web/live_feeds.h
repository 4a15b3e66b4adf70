// The live feed of a game for the website: GET /api/games/ID/watch answers
// server-sent events (text/event-stream), one per GameUpdate of the gRPC
// API's WatchGame, called in-process as the visitor (the public role, or the
// signed-in token), so WatchGame's access rules and cuts apply unchanged:
//
//   retry: 1000
//
//   id: 7
//   data: {"event":{...},"playersToAct":["bob"]}
//
// A feed ends after the update that finishes or voids the game, and after
// LiveFeedLimits::hold (the browser's EventSource then asks again with
// Last-Event-ID, and misses nothing), so a visitor that went away holds a
// serving thread for at most that long. An error after the feed began (say
// from_event past the game's last event) is sent as "event: error" with the
// JSON error. Each open feed holds one serving thread: at most `total` feeds
// at once, `per_address` from one client address; beyond that 429.
// Thread-safe.
#ifndef ARBITER_SERVICES_WEB_LIVE_FEEDS_H_
#define ARBITER_SERVICES_WEB_LIVE_FEEDS_H_

#include <grpcpp/channel.h>

#include <cstdint>
#include <memory>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace httplib {
struct Response;
}

namespace arbiter::web {

struct LiveFeedLimits {
  int total = 128;
  int per_address = 16;
  absl::Duration hold = absl::Seconds(25);
};

class LiveFeeds {
 public:
  LiveFeeds(std::shared_ptr<grpc::Channel> channel, std::string public_token,
            LiveFeedLimits limits);
  ~LiveFeeds();

  // Answers `res` with game `game_id`'s updates after `from_event`, as
  // `token`'s holder (empty: the public role). The caller has checked that
  // the visitor may read the game. 429 when `address` or the server is at
  // its limit.
  void Serve(const std::string& game_id, int64_t from_event, const std::string& token,
             const std::string& address, httplib::Response& res);

  // Ends every open feed and refuses new ones (before the HTTP server stops).
  void CloseAll();

 private:
  struct Feed;
  bool TakeSlot(const std::string& address);
  void Release(const std::string& address, Feed* feed);

  std::shared_ptr<grpc::Channel> channel_;
  const std::string authorization_;
  const LiveFeedLimits limits_;
  absl::Mutex mu_;
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
  int open_ ABSL_GUARDED_BY(mu_) = 0;
  absl::flat_hash_map<std::string, int> per_address_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_set<Feed*> feeds_ ABSL_GUARDED_BY(mu_);
};

}  // namespace arbiter::web

#endif  // ARBITER_SERVICES_WEB_LIVE_FEEDS_H_
