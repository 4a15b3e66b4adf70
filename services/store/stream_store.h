// StreamStore: append-only, hash-chained logs that are not games: a league's
// creation and settings changes, a tournament's log and a dispute's.
//
// A stream is named by its resource name ("leagues/north") and holds events
// 1, 2, 3, ... without gaps. Each request writes exactly one event, chained to
// the previous one with the same hash as game events (event_hash.h: the
// stream id in place of the game id, the request id as the event id), so
// VerifyStreamChain finds an edit made behind the store's back.
//
// Appends are idempotent: a retried request (same request id, same content)
// returns the stored event and writes nothing; the same request id with other
// content is InvalidArgument.
//
// Implementations: PostgresStreamStore (postgres_stream_store.h) and
// MemoryStreamStore (below, for unit tests; same behaviour). Thread-safe.
#ifndef ARBITER_SERVICES_STORE_STREAM_STORE_H_
#define ARBITER_SERVICES_STORE_STREAM_STORE_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace arbiter::store {

inline constexpr int64_t kMaxStreamPayloadBytes = 64 * 1024;

struct StreamRecord {
  std::string stream_id;  // e.g. "leagues/north"
  std::string kind;       // e.g. "league"
  std::string created_by;
  absl::Time created_at;
  int64_t last_sequence = 0;
  std::string last_hash;
};

struct StreamEvent {
  std::string stream_id;
  int64_t sequence = 0;
  std::string request_id;  // also the event id in the hash
  std::string type;
  std::string payload;
  std::string recorded_by;
  absl::Time recorded_at;
  std::string prev_hash;
  std::string hash;
};

struct StreamAppendRequest {
  std::string stream_id;  // 1..200 bytes
  // 0 creates the stream (AlreadyExists if it exists); otherwise the
  // sequence of the last event the writer has seen (Aborted if stale).
  int64_t expected_sequence = 0;
  std::string kind;        // required when creating; ignored otherwise
  std::string request_id;  // required, 1..200 bytes
  std::string recorded_by; // required
  std::string type;        // required, 1..200 bytes
  std::string payload;     // up to kMaxStreamPayloadBytes
};

class StreamStore {
 public:
  virtual ~StreamStore() = default;
  // Errors: InvalidArgument (a bad field, named; request id reused for other
  // content), AlreadyExists, NotFound (no such stream), Aborted (stale
  // expected_sequence), Unavailable.
  virtual absl::StatusOr<StreamEvent> Append(const StreamAppendRequest& request) = 0;
  // NotFound for an unknown stream.
  virtual absl::StatusOr<StreamRecord> GetStream(const std::string& stream_id) = 0;
  // Streams of `kind` with ids > after_id, in id order, at most `limit`
  // (1..1000).
  virtual absl::StatusOr<std::vector<StreamRecord>> ListStreams(const std::string& kind,
                                                                const std::string& after_id,
                                                                int limit) = 0;
  // Up to `limit` (1..10000) events with sequence > after_sequence.
  virtual absl::StatusOr<std::vector<StreamEvent>> ReadStream(const std::string& stream_id,
                                                              int64_t after_sequence,
                                                              int limit) = 0;
};

// Rules both implementations share.
absl::Status ValidateStreamAppend(const StreamAppendRequest& request);
std::string StreamAppendDigest(const StreamAppendRequest& request);
std::string StreamEventHash(const std::string& prev_hash, int64_t sequence,
                            const std::string& stream_id, const std::string& request_id,
                            const std::string& type, const std::string& payload);
// DataLoss naming the first event whose sequence, prev_hash or hash is
// wrong, or if the stream's last_hash disagrees; OK otherwise.
absl::Status VerifyStreamChain(const StreamRecord& stream, const std::vector<StreamEvent>& events);

class MemoryStreamStore final : public StreamStore {
 public:
  absl::StatusOr<StreamEvent> Append(const StreamAppendRequest& request) override;
  absl::StatusOr<StreamRecord> GetStream(const std::string& stream_id) override;
  absl::StatusOr<std::vector<StreamRecord>> ListStreams(const std::string& kind,
                                                        const std::string& after_id,
                                                        int limit) override;
  absl::StatusOr<std::vector<StreamEvent>> ReadStream(const std::string& stream_id,
                                                      int64_t after_sequence, int limit) override;

 private:
  struct Stream {
    StreamRecord record;
    std::vector<StreamEvent> events;
  };
  absl::Mutex mu_;
  std::map<std::string, Stream> streams_ ABSL_GUARDED_BY(mu_);
  // request id -> (stream id, sequence, digest)
  struct Written {
    std::string stream_id;
    int64_t sequence = 0;
    std::string digest;
  };
  std::map<std::string, Written> requests_ ABSL_GUARDED_BY(mu_);
};

}  // namespace arbiter::store

#endif  // ARBITER_SERVICES_STORE_STREAM_STORE_H_
