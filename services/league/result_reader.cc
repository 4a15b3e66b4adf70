#include "services/league/result_reader.h"

#include <deque>
#include <thread>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "engine/core/status_macros.h"
#include "services/league/league_settings.h"
#include "spdlog/spdlog.h"

namespace arbiter::league {
namespace {

// Results per batch, and batches waiting at most (the reader waits rather
// than run far ahead of the caller).
constexpr size_t kBatch = 1024;
constexpr size_t kMaxWaiting = 8;

class Pipe {
 public:
  void Push(std::vector<DecodedResult>& batch) {
    absl::MutexLock lock(&mu_);
    auto room = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return waiting_.size() < kMaxWaiting;
    };
    mu_.Await(absl::Condition(&room));
    waiting_.push_back(std::exchange(batch, {}));
  }
  void Close(absl::Status status) {
    absl::MutexLock lock(&mu_);
    closed_ = true;
    status_ = std::move(status);
  }
  // The next batch; false once the pipe is closed and empty.
  bool Pop(std::vector<DecodedResult>& batch) {
    absl::MutexLock lock(&mu_);
    auto ready = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return !waiting_.empty() || closed_;
    };
    mu_.Await(absl::Condition(&ready));
    if (waiting_.empty()) return false;
    batch = std::move(waiting_.front());
    waiting_.pop_front();
    return true;
  }
  absl::Status status() {
    absl::MutexLock lock(&mu_);
    return status_;
  }

 private:
  absl::Mutex mu_;
  std::deque<std::vector<DecodedResult>> waiting_ ABSL_GUARDED_BY(mu_);
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
  absl::Status status_ ABSL_GUARDED_BY(mu_);
};

// Decodes `result` into `out`: its payload once, for the league its chain
// names and for the standings.
absl::Status Decode(const store::ResultEvent& result, const std::string& league_id, bool warn,
                    v1::GameFinished& finished, DecodedResult& out) {
  out.game_id = result.event.game_id;
  const bool voids = result.kind == store::GameStatus::kVoided;
  const bool named = voids ? ChainNamesLeague(result)
                           : finished.ParseFromString(result.event.payload) &&
                                 finished.league() == league_id;
  if (!named) {
    if (warn) {
      spdlog::warn("league {}: game {} not counted: its chained events name another league",
                   league_id, result.event.game_id);
    }
    out.kind = DecodedResult::Kind::kUncounted;
    return absl::OkStatus();
  }
  if (voids) {
    out.kind = DecodedResult::Kind::kVoid;
    return absl::OkStatus();
  }
  if (!finished.duplicate_of().empty()) {
    // Stored on purpose as a repeat of a game the league counts already.
    out.kind = DecodedResult::Kind::kUncounted;
    return absl::OkStatus();
  }
  ARBITER_ASSIGN_OR_RETURN(out.game, ResultOf(result, finished));
  out.kind = DecodedResult::Kind::kResult;
  return absl::OkStatus();
}

}  // namespace

absl::Status ReadLeagueResults(store::ResultIndex& results, const std::string& league_id,
                               int64_t position, bool warn,
                               const std::function<void(DecodedResult&)>& each) {
  Pipe pipe;
  std::thread reader([&] {
    std::vector<DecodedResult> batch;
    batch.reserve(kBatch);
    v1::GameFinished finished;
    absl::Status status = results.ScanLeagueResults(
        league_id, 0, position, [&](const store::ResultEvent& result) -> absl::Status {
          DecodedResult decoded;
          if (absl::Status failed = Decode(result, league_id, warn, finished, decoded);
              !failed.ok()) {
            return failed;
          }
          batch.push_back(std::move(decoded));
          if (batch.size() == kBatch) {
            pipe.Push(batch);
            batch.reserve(kBatch);
          }
          return absl::OkStatus();
        });
    if (!batch.empty()) pipe.Push(batch);
    pipe.Close(std::move(status));
  });
  std::vector<DecodedResult> batch;
  while (pipe.Pop(batch)) {
    for (DecodedResult& result : batch) each(result);
  }
  reader.join();
  return pipe.status();
}

}  // namespace arbiter::league
