// MemoryTokenStore: the TokenStore of unit tests, in memory. Same behaviour
// as PostgresTokenStore. Thread-safe.
#ifndef ARBITER_SERVICES_STORE_MEMORY_TOKEN_STORE_H_
#define ARBITER_SERVICES_STORE_MEMORY_TOKEN_STORE_H_

#include <map>
#include <string>

#include "absl/synchronization/mutex.h"
#include "services/store/token_store.h"

namespace arbiter::store {

class MemoryTokenStore final : public TokenStore {
 public:
  absl::Status Insert(const TokenRecord& token) override;
  absl::StatusOr<std::optional<TokenRecord>> FindByHash(const std::string& hash) override;
  absl::StatusOr<int64_t> Count() override;
  absl::StatusOr<TokenRecord> Revoke(const std::string& token_id, const std::string& by,
                                     absl::Time now) override;
  absl::StatusOr<std::vector<TokenRecord>> List(const std::string& after, int limit) override;

 private:
  absl::Mutex mu_;
  std::map<std::string, TokenRecord> by_hash_ ABSL_GUARDED_BY(mu_);
};

}  // namespace arbiter::store

#endif  // ARBITER_SERVICES_STORE_MEMORY_TOKEN_STORE_H_
