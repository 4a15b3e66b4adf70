// TokenStore: where the service keeps its bearer tokens, hashed.
//
// A token is the string "arb_<token_id>_<secret>"; only its SHA-256 is
// stored (migrations/0003_tokens.sql), so reading the table does not let
// anyone log in. Implementations: PostgresTokenStore and MemoryTokenStore
// (tests). Both are thread-safe.
#ifndef ARBITER_SERVICES_SERVER_TOKEN_STORE_H_
#define ARBITER_SERVICES_SERVER_TOKEN_STORE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"

namespace arbiter::server {

// Stored as text in tokens.role: never rename.
enum class Role { kAdmin, kOrganiser, kAuditor, kPublic };

// "admin", "organiser", "auditor", "public".
const char* RoleName(Role role);
std::optional<Role> ParseRole(const std::string& name);

struct TokenRecord {
  std::string token_id;
  std::string token_hash;  // SHA-256 hex of the whole token
  Role role = Role::kPublic;
  std::string principal;
  std::vector<std::string> leagues;
  std::vector<std::string> tournaments;
  std::string request_id;  // empty for the bootstrap token
  std::string created_by;
};

class TokenStore {
 public:
  virtual ~TokenStore() = default;
  // Stores a token. AlreadyExists if its request id (when not empty) or id
  // is taken; Unavailable if the database is unreachable.
  virtual absl::Status Insert(const TokenRecord& token) = 0;
  // The token with this hash, or nullopt.
  virtual absl::StatusOr<std::optional<TokenRecord>> FindByHash(const std::string& hash) = 0;
  // Number of stored tokens.
  virtual absl::StatusOr<int64_t> Count() = 0;
};

class MemoryTokenStore final : public TokenStore {
 public:
  absl::Status Insert(const TokenRecord& token) override;
  absl::StatusOr<std::optional<TokenRecord>> FindByHash(const std::string& hash) override;
  absl::StatusOr<int64_t> Count() override;

 private:
  absl::Mutex mu_;
  std::map<std::string, TokenRecord> by_hash_ ABSL_GUARDED_BY(mu_);
};

class PostgresTokenStore final : public TokenStore {
 public:
  // `role`: SET ROLE after connecting (empty: none), as PostgresEventStore.
  PostgresTokenStore(std::string conninfo, std::string role);
  ~PostgresTokenStore() override;

  absl::Status Insert(const TokenRecord& token) override;
  absl::StatusOr<std::optional<TokenRecord>> FindByHash(const std::string& hash) override;
  absl::StatusOr<int64_t> Count() override;

 private:
  struct Connection;  // a pqxx::connection (a typedef, so not declarable here)

  // Runs `body` on the (re)connected connection; exceptions become Status.
  template <typename R, typename F>
  R WithConnection(const char* doing, F body);

  const std::string conninfo_;
  const std::string role_;
  absl::Mutex mu_;
  std::unique_ptr<Connection> connection_ ABSL_GUARDED_BY(mu_);
};

}  // namespace arbiter::server

#endif  // ARBITER_SERVICES_SERVER_TOKEN_STORE_H_
