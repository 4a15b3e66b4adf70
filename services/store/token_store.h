// TokenStore: where the service keeps its bearer tokens, hashed.
//
// A token is the string "arb_<token_id>_<secret>"; only its SHA-256 is
// stored (migrations/0003_tokens.sql), so reading the table does not let
// anyone log in. Tokens may expire and be revoked (0008_token_life_cycle.sql);
// rows are never deleted. Implementations: PostgresTokenStore (postgres_token_store.h) and
// MemoryTokenStore (memory_token_store.h, tests). Both are thread-safe.
#ifndef ARBITER_SERVICES_STORE_TOKEN_STORE_H_
#define ARBITER_SERVICES_STORE_TOKEN_STORE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace arbiter::store {


// Stored as text in tokens.role: never rename.
enum class Role { kAdmin, kOrganiser, kAuditor, kPublic, kPlayer };

// "admin", "organiser", "auditor", "public", "player".
const char* RoleName(Role role);
std::optional<Role> ParseRole(const std::string& name);

struct TokenRecord {
  std::string token_id;
  std::string token_hash;  // SHA-256 hex of the whole token
  Role role = Role::kPublic;
  std::string principal;
  std::vector<std::string> leagues;
  std::vector<std::string> tournaments;  // an organiser's; a player's (every table)
  std::vector<std::string> games;        // a player's games (migration 0019)
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

}  // namespace arbiter::store

#endif  // ARBITER_SERVICES_STORE_TOKEN_STORE_H_
