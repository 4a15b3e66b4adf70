// StreamAppendActions: AppendActions over one long-lived stream, written with
// gRPC's callback API so that an open stream holds no thread while its table
// thinks about the next move.
//
// Each request message is answered by one AppendActionsOutcome, in the order
// the requests came: the stream reads a request, hands it to the workers,
// writes the answer, then reads the next. The workers (a fixed pool shared
// by every stream) run the append as an AppendActions call would, and wait
// for its commit there, so that gRPC's own threads never wait on the
// database. How many appends run at once is the pool's size, however many
// streams are open.
#ifndef ARBITER_SERVICES_SERVER_APPEND_STREAM_H_
#define ARBITER_SERVICES_SERVER_APPEND_STREAM_H_

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <deque>
#include <functional>
#include <thread>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "arbiter/v1/arbiter_service.grpc.pb.h"

namespace arbiter::server {

// StreamAppendActions' bounds (ServerOptions::append_streams).
struct AppendStreamLimits {
  // Streamed appends run at once (threads that wait for their commits),
  // however many streams are open. An open stream holds no thread.
  int threads = 64;
  // Streams open at once; one more is refused with RESOURCE_EXHAUSTED.
  int max_streams = 10'000;
};

// A fixed set of threads running tasks in the order queued. The destructor
// runs what is queued, then joins.
class AppendWorkers {
 public:
  explicit AppendWorkers(int threads);
  ~AppendWorkers();
  AppendWorkers(const AppendWorkers&) = delete;
  AppendWorkers& operator=(const AppendWorkers&) = delete;

  void Run(std::function<void()> task);

 private:
  void Work();

  absl::Mutex mu_;
  std::deque<std::function<void()>> tasks_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::thread> threads_;
};

// The streams open now, against a bound.
class StreamCount {
 public:
  explicit StreamCount(int max) : max_(max) {}
  // Counts one more open stream; false (and nothing counted) at the bound.
  bool Open();
  void Close() { open_.fetch_sub(1); }
  int max() const { return max_; }

 private:
  const int max_;
  std::atomic<int> open_{0};
};

// The answer to one request of the stream (runs on a worker).
using AppendOne =
    std::function<v1::AppendActionsOutcome(const v1::AppendActionsRequest& request)>;

// One StreamAppendActions call. Deletes itself once gRPC is done with it.
class AppendStreamReactor final
    : public grpc::ServerBidiReactor<v1::AppendActionsRequest, v1::AppendActionsOutcome> {
 public:
  // A stream counted in `count`, which it leaves when it is done; or, when
  // `count` is at its bound, one refused at once (RESOURCE_EXHAUSTED).
  static AppendStreamReactor* Start(AppendWorkers& workers, StreamCount& count,
                                    AppendOne append_one);

  void OnReadDone(bool ok) override;
  void OnWriteDone(bool ok) override;
  void OnDone() override;

 private:
  AppendStreamReactor(AppendWorkers& workers, StreamCount* count, AppendOne append_one);

  AppendWorkers& workers_;
  StreamCount* const count_;  // null: refused, never counted
  const AppendOne append_one_;
  v1::AppendActionsRequest request_;
  v1::AppendActionsOutcome outcome_;
};

}  // namespace arbiter::server

#endif  // ARBITER_SERVICES_SERVER_APPEND_STREAM_H_
