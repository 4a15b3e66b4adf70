// PostgresTokenStore: the tokens table (migrations/0003_tokens.sql,
// 0008_token_life_cycle.sql), on a pool of connections (pg/pool.h): arbiterd
// gives it the service's one pool (arbiterd/database.h). Thread-safe.
#ifndef ARBITER_SERVICES_STORE_POSTGRES_TOKEN_STORE_H_
#define ARBITER_SERVICES_STORE_POSTGRES_TOKEN_STORE_H_

#include <string>
#include <vector>

#include "services/store/pg/pool.h"
#include "services/store/token_store.h"

namespace arbiter::store {

class PostgresTokenStore final : public TokenStore {
 public:
  // `pool` must outlive this object.
  explicit PostgresTokenStore(pg::PgPool& pool) : pool_(pool) {}

  absl::Status Insert(const TokenRecord& token) override;
  absl::StatusOr<std::optional<TokenRecord>> FindByHash(const std::string& hash) override;
  absl::StatusOr<int64_t> Count() override;
  absl::StatusOr<TokenRecord> Revoke(const std::string& token_id, const std::string& by,
                                     absl::Time now) override;
  absl::StatusOr<std::vector<TokenRecord>> List(const std::string& after, int limit) override;

 private:
  pg::PgPool& pool_;
};

}  // namespace arbiter::store

#endif  // ARBITER_SERVICES_STORE_POSTGRES_TOKEN_STORE_H_
