// PostgresTokenStore: the tokens table (migrations/0003_tokens.sql,
// 0008_token_life_cycle.sql). A small pool of connections of its own, so that
// token look-ups do not queue behind the event store's work. Thread-safe.
#ifndef ARBITER_SERVICES_STORE_POSTGRES_TOKEN_STORE_H_
#define ARBITER_SERVICES_STORE_POSTGRES_TOKEN_STORE_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "services/store/token_store.h"

namespace arbiter::store {

class PostgresTokenStore final : public TokenStore {
 public:
  // `role`: SET ROLE after connecting (empty: none), as PostgresEventStore.
  // At most `connections` connections, opened when first needed; further
  // calls wait for one.
  PostgresTokenStore(std::string conninfo, std::string role, int connections = 4);
  ~PostgresTokenStore() override;

  absl::Status Insert(const TokenRecord& token) override;
  absl::StatusOr<std::optional<TokenRecord>> FindByHash(const std::string& hash) override;
  absl::StatusOr<int64_t> Count() override;
  absl::StatusOr<TokenRecord> Revoke(const std::string& token_id, const std::string& by,
                                     absl::Time now) override;
  absl::StatusOr<std::vector<TokenRecord>> List(const std::string& after, int limit) override;

 private:
  struct Connection;  // a pqxx::connection (a typedef, so not declarable here)

  // Runs `body` on a pooled, (re)connected connection; exceptions become
  // Status (the connection is dropped if it broke).
  template <typename R, typename F>
  R WithConnection(const char* doing, F body);

  const std::string conninfo_;
  const std::string role_;
  const int max_connections_;
  absl::Mutex mu_;
  std::vector<std::unique_ptr<Connection>> idle_ ABSL_GUARDED_BY(mu_);
  int open_ ABSL_GUARDED_BY(mu_) = 0;  // idle and in use
};

}  // namespace arbiter::store

#endif  // ARBITER_SERVICES_STORE_POSTGRES_TOKEN_STORE_H_
