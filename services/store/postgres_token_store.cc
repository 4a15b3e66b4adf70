#include "services/store/postgres_token_store.h"

#include <pqxx/pqxx>

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "services/store/internal/pq_status.h"

namespace arbiter::store {
namespace {

// Leagues and tournaments travel as one text joined by the unit separator
// (ids never contain control characters; access/ checks).
constexpr char kSeparator[] = "\x1f";

std::vector<std::string> SplitList(const std::string& joined) {
  if (joined.empty()) return {};
  return absl::StrSplit(joined, kSeparator);
}

// Times travel as microseconds since 1970 (bigint); -1 stands for NULL.
int64_t Micros(const std::optional<absl::Time>& t) {
  return t.has_value() ? absl::ToUnixMicros(*t) : -1;
}

std::optional<absl::Time> FromMicros(const pqxx::field& field) {
  if (field.is_null()) return std::nullopt;
  return absl::FromUnixMicros(field.as<int64_t>());
}

// The columns RowToRecord reads, in its order.
constexpr char kColumns[] =
    "token_id, role, principal, array_to_string(leagues, E'\\x1f'), "
    "array_to_string(tournaments, E'\\x1f'), coalesce(request_id, ''), created_by, "
    "(extract(epoch FROM created_at) * 1000000)::bigint, "
    "(extract(epoch FROM expires_at) * 1000000)::bigint, "
    "(extract(epoch FROM revoked_at) * 1000000)::bigint, coalesce(revoked_by, ''), token_hash";

absl::StatusOr<TokenRecord> RowToRecord(const pqxx::row& row) {
  TokenRecord token;
  token.token_id = row[0].as<std::string>();
  std::optional<Role> role = ParseRole(row[1].as<std::string>());
  if (!role.has_value()) return absl::DataLossError("a stored token has an unknown role");
  token.role = *role;
  token.principal = row[2].as<std::string>();
  token.leagues = SplitList(row[3].as<std::string>());
  token.tournaments = SplitList(row[4].as<std::string>());
  token.request_id = row[5].as<std::string>();
  token.created_by = row[6].as<std::string>();
  token.created_at = FromMicros(row[7]).value_or(absl::UnixEpoch());
  token.expires_at = FromMicros(row[8]);
  token.revoked_at = FromMicros(row[9]);
  token.revoked_by = row[10].as<std::string>();
  token.token_hash = row[11].as<std::string>();
  return token;
}

}  // namespace

PostgresTokenStore::PostgresTokenStore(std::string conninfo, std::string role, int connections)
    : conninfo_(std::move(conninfo)), role_(std::move(role)),
      max_connections_(std::max(1, connections)) {}

PostgresTokenStore::~PostgresTokenStore() = default;

struct PostgresTokenStore::Connection {
  explicit Connection(const std::string& conninfo) : c(conninfo) {}
  pqxx::connection c;
};

template <typename R, typename F>
R PostgresTokenStore::WithConnection(const char* doing, F body) {
  std::unique_ptr<Connection> connection;
  {
    absl::MutexLock lock(&mu_);
    auto available = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return !idle_.empty() || open_ < max_connections_;
    };
    mu_.Await(absl::Condition(&available));
    if (!idle_.empty()) {
      connection = std::move(idle_.back());
      idle_.pop_back();
    } else {
      ++open_;  // opened below, outside the lock
    }
  }
  auto give_back = [&](bool keep) {
    absl::MutexLock lock(&mu_);
    if (keep && connection != nullptr) {
      idle_.push_back(std::move(connection));
    } else {
      --open_;
    }
  };
  try {
    if (connection == nullptr || !connection->c.is_open()) {
      connection = std::make_unique<Connection>(conninfo_);
      if (!role_.empty()) {
        pqxx::nontransaction setup(connection->c);
        setup.exec("SET ROLE " + setup.quote_name(role_));
      }
    }
    R result = body(connection->c);
    give_back(true);
    return result;
  } catch (const std::exception& error) {
    give_back(!internal::IsConnectionLoss(error) && connection != nullptr &&
              connection->c.is_open());
    return internal::StatusFromException(error, doing);
  }
}

absl::Status PostgresTokenStore::Insert(const TokenRecord& token) {
  return WithConnection<absl::Status>("storing a token", [&](pqxx::connection& c) -> absl::Status {
    pqxx::transaction<pqxx::isolation_level::read_committed> tx(c);
    tx.exec_params(
        "INSERT INTO tokens (token_id, token_hash, role, principal, leagues, tournaments, "
        "request_id, created_by, expires_at) VALUES ($1, $2, $3, $4, "
        "coalesce(string_to_array(NULLIF($5, ''), E'\\x1f'), '{}'), "
        "coalesce(string_to_array(NULLIF($6, ''), E'\\x1f'), '{}'), "
        "NULLIF($7, ''), $8, "
        "CASE WHEN $9::bigint < 0 THEN NULL ELSE to_timestamp($9::bigint / 1e6) END)",
        token.token_id, token.token_hash, std::string(RoleName(token.role)), token.principal,
        absl::StrJoin(token.leagues, kSeparator), absl::StrJoin(token.tournaments, kSeparator),
        token.request_id, token.created_by, Micros(token.expires_at));
    tx.commit();
    return absl::OkStatus();
  });
}

absl::StatusOr<std::optional<TokenRecord>> PostgresTokenStore::FindByHash(const std::string& hash) {
  return WithConnection<absl::StatusOr<std::optional<TokenRecord>>>(
      "reading a token", [&](pqxx::connection& c) -> absl::StatusOr<std::optional<TokenRecord>> {
        pqxx::read_transaction tx(c);
        pqxx::result rows = tx.exec_params(
            absl::StrCat("SELECT ", kColumns, " FROM tokens WHERE token_hash = $1"), hash);
        if (rows.empty()) return std::optional<TokenRecord>();
        absl::StatusOr<TokenRecord> token = RowToRecord(rows[0]);
        if (!token.ok()) return token.status();
        return std::optional<TokenRecord>(*std::move(token));
      });
}

absl::StatusOr<TokenRecord> PostgresTokenStore::Revoke(const std::string& token_id,
                                                       const std::string& by, absl::Time now) {
  return WithConnection<absl::StatusOr<TokenRecord>>(
      "revoking a token", [&](pqxx::connection& c) -> absl::StatusOr<TokenRecord> {
        // One statement: the first revocation wins under any isolation.
        pqxx::transaction<pqxx::isolation_level::read_committed> tx(c);
        pqxx::result rows = tx.exec_params(
            absl::StrCat("UPDATE tokens SET revoked_at = coalesce(revoked_at, "
                         "to_timestamp($2::bigint / 1e6)), "
                         "revoked_by = coalesce(revoked_by, $3) WHERE token_id = $1 RETURNING ",
                         kColumns),
            token_id, absl::ToUnixMicros(now), by);
        if (rows.empty()) return absl::NotFoundError("no token has this id");
        absl::StatusOr<TokenRecord> token = RowToRecord(rows[0]);
        if (!token.ok()) return token.status();
        tx.commit();
        return token;
      });
}

absl::StatusOr<std::vector<TokenRecord>> PostgresTokenStore::List(const std::string& after,
                                                                 int limit) {
  return WithConnection<absl::StatusOr<std::vector<TokenRecord>>>(
      "listing tokens", [&](pqxx::connection& c) -> absl::StatusOr<std::vector<TokenRecord>> {
        pqxx::read_transaction tx(c);
        pqxx::result rows = tx.exec_params(
            absl::StrCat("SELECT ", kColumns,
                         " FROM tokens WHERE token_id > $1 ORDER BY token_id LIMIT $2"),
            after, limit);
        std::vector<TokenRecord> out;
        for (const pqxx::row& row : rows) {
          absl::StatusOr<TokenRecord> token = RowToRecord(row);
          if (!token.ok()) return token.status();
          token->token_hash.clear();
          out.push_back(*std::move(token));
        }
        return out;
      });
}

absl::StatusOr<int64_t> PostgresTokenStore::Count() {
  return WithConnection<absl::StatusOr<int64_t>>("counting tokens", [&](pqxx::connection& c) -> absl::StatusOr<int64_t> {
    pqxx::read_transaction tx(c);
    return tx.exec1("SELECT count(*) FROM tokens")[0].as<int64_t>();
  });
}

}  // namespace arbiter::store
