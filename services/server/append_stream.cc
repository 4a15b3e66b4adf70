#include "services/server/append_stream.h"

#include <pthread.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "services/common/status_details.h"
#include "services/server/status_mapping.h"

namespace arbiter::server {

AppendWorkers::AppendWorkers(int threads) {
  for (int i = 0; i < std::max(1, threads); ++i) {
    threads_.emplace_back([this] {
      pthread_setname_np(pthread_self(), "append-worker");  // as top -H and perf show it
      Work();
    });
  }
}

AppendWorkers::~AppendWorkers() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  for (std::thread& thread : threads_) thread.join();
}

void AppendWorkers::Run(std::function<void()> task) {
  absl::MutexLock lock(&mu_);
  tasks_.push_back(std::move(task));
}

void AppendWorkers::Work() {
  while (true) {
    std::function<void()> task;
    {
      absl::MutexLock lock(&mu_);
      auto ready = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        return stopping_ || !tasks_.empty();
      };
      mu_.Await(absl::Condition(&ready));
      if (tasks_.empty()) return;  // stopping, and nothing left to run
      task = std::move(tasks_.front());
      tasks_.pop_front();
    }
    task();
  }
}

bool StreamCount::Open() {
  int open = open_.load();
  do {
    if (open >= max_) return false;
  } while (!open_.compare_exchange_weak(open, open + 1));
  return true;
}

AppendStreamReactor* AppendStreamReactor::Start(AppendWorkers& workers, StreamCount& count,
                                                AppendOne append_one) {
  if (count.Open()) return new AppendStreamReactor(workers, &count, std::move(append_one));
  auto* refused = new AppendStreamReactor(workers, nullptr, std::move(append_one));
  spdlog::warn("StreamAppendActions refused: {} streams are open (--max-append-streams)",
               count.max());
  refused->Finish(ToGrpcStatus(common::WithErrorInfo(
      absl::ResourceExhaustedError(absl::StrCat(
          "this server keeps at most ", count.max(),
          " StreamAppendActions streams open (--max-append-streams): close a stream no longer in "
          "use, or send the move by AppendActions")),
      "TOO_MANY_STREAMS", {{"max_streams", absl::StrCat(count.max())}})));
  return refused;
}

AppendStreamReactor::AppendStreamReactor(AppendWorkers& workers, StreamCount* count,
                                         AppendOne append_one)
    : workers_(workers), count_(count), append_one_(std::move(append_one)) {
  if (count_ != nullptr) StartRead(&request_);
}

void AppendStreamReactor::OnReadDone(bool ok) {
  if (!ok) {
    // The client closed its side (or the call ended): every request read
    // has been answered.
    Finish(grpc::Status::OK);
    return;
  }
  workers_.Run([this] {
    outcome_ = append_one_(request_);
    StartWrite(&outcome_);
  });
}

void AppendStreamReactor::OnWriteDone(bool ok) {
  if (!ok) {
    Finish(grpc::Status(grpc::StatusCode::CANCELLED, "the stream ended before its answer was sent"));
    return;
  }
  StartRead(&request_);
}

void AppendStreamReactor::OnDone() {
  if (count_ != nullptr) count_->Close();
  delete this;
}

}  // namespace arbiter::server
