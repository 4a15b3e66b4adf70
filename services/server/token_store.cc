#include "services/server/token_store.h"

#include <pqxx/pqxx>

#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "services/store/internal/pq_status.h"

namespace arbiter::server {
namespace {

// Leagues and tournaments travel as one text joined by the unit separator
// (ids never contain control characters; auth.cc checks).
constexpr char kSeparator[] = "\x1f";

std::vector<std::string> SplitList(const std::string& joined) {
  if (joined.empty()) return {};
  return absl::StrSplit(joined, kSeparator);
}

}  // namespace

const char* RoleName(Role role) {
  switch (role) {
    case Role::kAdmin:
      return "admin";
    case Role::kOrganiser:
      return "organiser";
    case Role::kAuditor:
      return "auditor";
    case Role::kPublic:
      return "public";
  }
  return "public";
}

std::optional<Role> ParseRole(const std::string& name) {
  for (Role role : {Role::kAdmin, Role::kOrganiser, Role::kAuditor, Role::kPublic}) {
    if (name == RoleName(role)) return role;
  }
  return std::nullopt;
}

absl::Status MemoryTokenStore::Insert(const TokenRecord& token) {
  absl::MutexLock lock(&mu_);
  for (const auto& [hash, existing] : by_hash_) {
    if (existing.token_id == token.token_id || hash == token.token_hash ||
        (!token.request_id.empty() && existing.request_id == token.request_id)) {
      return absl::AlreadyExistsError("a token was already created for this request");
    }
  }
  by_hash_[token.token_hash] = token;
  return absl::OkStatus();
}

absl::StatusOr<std::optional<TokenRecord>> MemoryTokenStore::FindByHash(const std::string& hash) {
  absl::MutexLock lock(&mu_);
  auto it = by_hash_.find(hash);
  if (it == by_hash_.end()) return std::optional<TokenRecord>();
  return std::optional<TokenRecord>(it->second);
}

absl::StatusOr<int64_t> MemoryTokenStore::Count() {
  absl::MutexLock lock(&mu_);
  return static_cast<int64_t>(by_hash_.size());
}

PostgresTokenStore::PostgresTokenStore(std::string conninfo, std::string role)
    : conninfo_(std::move(conninfo)), role_(std::move(role)) {}

PostgresTokenStore::~PostgresTokenStore() = default;

struct PostgresTokenStore::Connection {
  explicit Connection(const std::string& conninfo) : c(conninfo) {}
  pqxx::connection c;
};

template <typename R, typename F>
R PostgresTokenStore::WithConnection(const char* doing, F body) {
  absl::MutexLock lock(&mu_);
  try {
    if (connection_ == nullptr || !connection_->c.is_open()) {
      connection_ = std::make_unique<Connection>(conninfo_);
      if (!role_.empty()) {
        pqxx::nontransaction setup(connection_->c);
        setup.exec("SET ROLE " + setup.quote_name(role_));
      }
    }
    return body(connection_->c);
  } catch (const std::exception& error) {
    if (store::internal::IsConnectionLoss(error)) connection_.reset();
    return store::internal::StatusFromException(error, doing);
  }
}

absl::Status PostgresTokenStore::Insert(const TokenRecord& token) {
  return WithConnection<absl::Status>("storing a token", [&](pqxx::connection& c) -> absl::Status {
    pqxx::work tx(c);
    tx.exec_params(
        "INSERT INTO tokens (token_id, token_hash, role, principal, leagues, tournaments, "
        "request_id, created_by) VALUES ($1, $2, $3, $4, "
        "coalesce(string_to_array(NULLIF($5, ''), E'\\x1f'), '{}'), "
        "coalesce(string_to_array(NULLIF($6, ''), E'\\x1f'), '{}'), "
        "NULLIF($7, ''), $8)",
        token.token_id, token.token_hash, std::string(RoleName(token.role)), token.principal,
        absl::StrJoin(token.leagues, kSeparator), absl::StrJoin(token.tournaments, kSeparator),
        token.request_id, token.created_by);
    tx.commit();
    return absl::OkStatus();
  });
}

absl::StatusOr<std::optional<TokenRecord>> PostgresTokenStore::FindByHash(const std::string& hash) {
  return WithConnection<absl::StatusOr<std::optional<TokenRecord>>>(
      "reading a token", [&](pqxx::connection& c) -> absl::StatusOr<std::optional<TokenRecord>> {
        pqxx::read_transaction tx(c);
        pqxx::result rows = tx.exec_params(
            "SELECT token_id, role, principal, array_to_string(leagues, E'\\x1f'), "
            "array_to_string(tournaments, E'\\x1f'), coalesce(request_id, ''), created_by "
            "FROM tokens WHERE token_hash = $1",
            hash);
        if (rows.empty()) return std::optional<TokenRecord>();
        const pqxx::row& row = rows[0];
        TokenRecord token;
        token.token_id = row[0].as<std::string>();
        token.token_hash = hash;
        std::optional<Role> role = ParseRole(row[1].as<std::string>());
        if (!role.has_value()) return absl::DataLossError("a stored token has an unknown role");
        token.role = *role;
        token.principal = row[2].as<std::string>();
        token.leagues = SplitList(row[3].as<std::string>());
        token.tournaments = SplitList(row[4].as<std::string>());
        token.request_id = row[5].as<std::string>();
        token.created_by = row[6].as<std::string>();
        return std::optional<TokenRecord>(std::move(token));
      });
}

absl::StatusOr<int64_t> PostgresTokenStore::Count() {
  return WithConnection<absl::StatusOr<int64_t>>("counting tokens", [&](pqxx::connection& c) -> absl::StatusOr<int64_t> {
    pqxx::read_transaction tx(c);
    return tx.exec1("SELECT count(*) FROM tokens")[0].as<int64_t>();
  });
}

}  // namespace arbiter::server
