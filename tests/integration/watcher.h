// A WatchGame stream read on a thread of its own, for the tests of the
// live feed (watch_test.cc, dealt_game_test.cc).
#ifndef ARBITER_TESTS_INTEGRATION_WATCHER_H_
#define ARBITER_TESTS_INTEGRATION_WATCHER_H_

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "arbiter/v1/arbiter_service.grpc.pb.h"

namespace arbiter::server::testing {

// A context carrying `token` (none if empty), with a two-minute deadline.
inline std::unique_ptr<grpc::ClientContext> LongCallAs(const std::string& token) {
  auto context = std::make_unique<grpc::ClientContext>();
  if (!token.empty()) context->AddMetadata("authorization", absl::StrCat("Bearer ", token));
  context->set_deadline(std::chrono::system_clock::now() + std::chrono::minutes(2));
  return context;
}

// What one stream received, and how it ended.
struct Watched {
  std::vector<v1::GameUpdate> updates;
  grpc::Status status;
};

// A WatchGame stream read on a thread of its own, until it ends or, with
// `stop_after` > 0, until that many updates were read (then it is
// cancelled, as a client that loses its connection).
class Watcher {
 public:
  Watcher(v1::ArbiterService::Stub& stub, const std::string& token, const std::string& game,
          int64_t from_event, int stop_after = 0)
      : context_(LongCallAs(token)) {
    v1::WatchGameRequest request;
    request.set_game(absl::StrCat("games/", game));
    request.set_from_event(from_event);
    reader_ = stub.WatchGame(context_.get(), request);
    thread_ = std::thread([this, stop_after] {
      v1::GameUpdate update;
      while (reader_->Read(&update)) {
        watched_.updates.push_back(update);
        if (stop_after > 0 && static_cast<int>(watched_.updates.size()) == stop_after) {
          context_->TryCancel();
        }
      }
      watched_.status = reader_->Finish();
    });
  }
  ~Watcher() {
    if (thread_.joinable()) {
      context_->TryCancel();
      thread_.join();
    }
  }
  Watched Join() {
    thread_.join();
    return watched_;
  }

 private:
  std::unique_ptr<grpc::ClientContext> context_;
  std::unique_ptr<grpc::ClientReader<v1::GameUpdate>> reader_;
  Watched watched_;
  std::thread thread_;
};

}  // namespace arbiter::server::testing

#endif  // ARBITER_TESTS_INTEGRATION_WATCHER_H_
