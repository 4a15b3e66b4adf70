// TokenStore: where the service keeps its bearer tokens, hashed.
//
// A token is the string "arb_<token_id>_<secret>"; only its SHA-256 is
// stored (migrations/0003_tokens.sql), so reading the table does not let
// anyone log in. Tokens may expire and be revoked (0008_token_life_cycle.sql);
// rows are never deleted. Implementations: PostgresTokenStore (a small pool
// of connections, so that token look-ups do not queue behind one another)
// and MemoryTokenStore (tests). Both are thread-safe.
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
#include "absl/time/time.h"

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
  absl::Time created_at = absl::UnixEpoch();      // set by the store
  std::optional<absl::Time> expires_at;           // nullopt: never
  std::optional<absl::Time> revoked_at;           // nullopt: not revoked
  std::string revoked_by;

  // Why the token no longer works at `now` ("expired", "revoked"), or
  // nullopt if it works.
  std::optional<std::string> Refusal(absl::Time now) const;
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
  // Marks the token revoked by `by` at `now` and returns it; a token already
  // revoked keeps its first revocation. NotFound for an unknown id.
  virtual absl::StatusOr<TokenRecord> Revoke(const std::string& token_id, const std::string& by,
                                             absl::Time now) = 0;
  // Up to `limit` tokens with ids greater than `after`, by id (hashes left
  // empty).
  virtual absl::StatusOr<std::vector<TokenRecord>> List(const std::string& after, int limit) = 0;
};

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

}  // namespace arbiter::server

#endif  // ARBITER_SERVICES_SERVER_TOKEN_STORE_H_
