// PostgresStreamStore: the StreamStore on PostgreSQL (tables streams and
// stream_events, migrations/0007), on the service's pool of connections
// (pg/pool.h). Thread-safe.
#ifndef ARBITER_SERVICES_STORE_POSTGRES_STREAM_STORE_H_
#define ARBITER_SERVICES_STORE_POSTGRES_STREAM_STORE_H_

#include "services/store/pg/pool.h"
#include "services/store/stream_store.h"

namespace arbiter::store {

class PostgresStreamStore final : public StreamStore {
 public:
  // `pool` must outlive this object.
  explicit PostgresStreamStore(pg::PgPool& pool) : pool_(pool) {}

  absl::StatusOr<StreamEvent> Append(const StreamAppendRequest& request) override;
  absl::StatusOr<StreamRecord> GetStream(const std::string& stream_id) override;
  absl::StatusOr<std::vector<StreamRecord>> ListStreams(const std::string& kind,
                                                        const std::string& after_id,
                                                        int limit) override;
  absl::StatusOr<std::vector<StreamEvent>> ReadStream(const std::string& stream_id,
                                                      int64_t after_sequence, int limit) override;

 private:
  pg::PgPool& pool_;
};

}  // namespace arbiter::store

#endif  // ARBITER_SERVICES_STORE_POSTGRES_STREAM_STORE_H_
