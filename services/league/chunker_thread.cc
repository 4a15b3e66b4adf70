#include "services/league/chunker_thread.h"

#include <utility>

namespace arbiter::league {

ChunkerThread::ChunkerThread(std::string league_id, engine::rating::RatingConfig config)
    : chunker_(std::move(league_id), std::move(config)) {
  batch_.reserve(kBatchPoints);
  thread_ = std::thread([this] { Run(); });
}

ChunkerThread::~ChunkerThread() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  thread_.join();
}

void ChunkerThread::Add(engine::league::HistoryPoint& point) {
  batch_.push_back(std::move(point));
  if (batch_.size() == kBatchPoints) HandOver();
}

void ChunkerThread::HandOver() {
  if (batch_.empty()) return;
  absl::MutexLock lock(&mu_);
  auto room = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return waiting_.size() < kMaxWaiting; };
  mu_.Await(absl::Condition(&room));
  waiting_.push_back(std::exchange(batch_, {}));
  batch_.reserve(kBatchPoints);
}

std::vector<HistoryChunk> ChunkerThread::Take() {
  HandOver();
  absl::MutexLock lock(&mu_);
  auto idle = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return waiting_.empty() && !encoding_;
  };
  mu_.Await(absl::Condition(&idle));
  return chunker_.Take();
}

void ChunkerThread::Run() {
  while (true) {
    std::vector<engine::league::HistoryPoint> points;
    {
      absl::MutexLock lock(&mu_);
      auto work = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        return !waiting_.empty() || stopping_;
      };
      mu_.Await(absl::Condition(&work));
      if (stopping_) return;  // the owner is gone: nobody takes the chunks
      points = std::move(waiting_.front());
      waiting_.pop_front();
      encoding_ = true;
    }
    for (const engine::league::HistoryPoint& point : points) chunker_.Add(point);
    absl::MutexLock lock(&mu_);
    encoding_ = false;
  }
}

}  // namespace arbiter::league
