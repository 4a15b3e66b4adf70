// ChunkerThread: a HistoryChunker on a thread of its own.
//
// A rebuild rates a league's results one after the other on one core; the
// encoding of the history points those ratings make (a third of the work for
// a large league) needs nothing from the next rating, so it runs on another
// core. Add hands points over in batches; Take waits until every point
// handed over is encoded. The chunks are those a HistoryChunker given the
// same points would make, in the same order: one thread encodes, in the
// order the points were added.
//
// Add and Take are for one thread (the owner's); the encoding thread is the
// object's own, joined by the destructor.
#ifndef ARBITER_SERVICES_LEAGUE_CHUNKER_THREAD_H_
#define ARBITER_SERVICES_LEAGUE_CHUNKER_THREAD_H_

#include <deque>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "engine/league/league_ratings.h"
#include "engine/rating/rating.h"
#include "services/league/history_chunks.h"

namespace arbiter::league {

class ChunkerThread {
 public:
  ChunkerThread(std::string league_id, engine::rating::RatingConfig config);
  ~ChunkerThread();
  ChunkerThread(const ChunkerThread&) = delete;
  ChunkerThread& operator=(const ChunkerThread&) = delete;

  // Takes `point` (moved from) for encoding.
  void Add(engine::league::HistoryPoint& point);
  // The chunks of every point added so far; empty afterwards.
  std::vector<HistoryChunk> Take();

 private:
  // Points per batch, and batches waiting at most: Add waits rather than
  // let a slow encoder pile up memory.
  static constexpr size_t kBatchPoints = 4096;
  static constexpr size_t kMaxWaiting = 8;

  void HandOver();
  void Run();

  std::vector<engine::league::HistoryPoint> batch_;  // the owner's, not yet handed over
  absl::Mutex mu_;
  std::deque<std::vector<engine::league::HistoryPoint>> waiting_ ABSL_GUARDED_BY(mu_);
  bool encoding_ ABSL_GUARDED_BY(mu_) = false;  // a batch is out of waiting_, not yet encoded
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  // Used by the thread while encoding_, by Take while the thread is idle.
  HistoryChunker chunker_;
  std::thread thread_;
};

}  // namespace arbiter::league

#endif  // ARBITER_SERVICES_LEAGUE_CHUNKER_THREAD_H_
