#include "services/store/postgres_token_store.h"

#include <pqxx/pqxx>

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/core/status_macros.h"

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
    "(extract(epoch FROM revoked_at) * 1000000)::bigint, coalesce(revoked_by, ''), token_hash, "
    "array_to_string(games, E'\\x1f')";

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
  token.games = SplitList(row[12].as<std::string>());
  return token;
}

}  // namespace

absl::Status PostgresTokenStore::Insert(const TokenRecord& token) {
  return pool_.Run("storing a token", [&](pqxx::connection_base& c) -> absl::Status {
    pqxx::transaction<pqxx::isolation_level::read_committed> tx(c);
    tx.exec_params(
        "INSERT INTO tokens (token_id, token_hash, role, principal, leagues, tournaments, "
        "request_id, created_by, expires_at, games) VALUES ($1, $2, $3, $4, "
        "coalesce(string_to_array(NULLIF($5, ''), E'\\x1f'), '{}'), "
        "coalesce(string_to_array(NULLIF($6, ''), E'\\x1f'), '{}'), "
        "NULLIF($7, ''), $8, "
        "CASE WHEN $9::bigint < 0 THEN NULL ELSE to_timestamp($9::bigint / 1e6) END, "
        "coalesce(string_to_array(NULLIF($10, ''), E'\\x1f'), '{}'))",
        token.token_id, token.token_hash, std::string(RoleName(token.role)), token.principal,
        absl::StrJoin(token.leagues, kSeparator), absl::StrJoin(token.tournaments, kSeparator),
        token.request_id, token.created_by, Micros(token.expires_at),
        absl::StrJoin(token.games, kSeparator));
    tx.commit();
    return absl::OkStatus();
  });
}

absl::StatusOr<std::optional<TokenRecord>> PostgresTokenStore::FindByHash(
    const std::string& hash) {
  return pool_.Run(
      "reading a token",
      [&](pqxx::connection_base& c) -> absl::StatusOr<std::optional<TokenRecord>> {
        pqxx::read_transaction tx(c);
        pqxx::result rows = tx.exec_params(
            absl::StrCat("SELECT ", kColumns, " FROM tokens WHERE token_hash = $1"), hash);
        if (rows.empty()) return std::optional<TokenRecord>();
        ARBITER_ASSIGN_OR_RETURN(TokenRecord token, RowToRecord(rows[0]));
        return std::optional<TokenRecord>(std::move(token));
      });
}

absl::StatusOr<TokenRecord> PostgresTokenStore::Revoke(const std::string& token_id,
                                                       const std::string& by, absl::Time now) {
  return pool_.Run(
      "revoking a token", [&](pqxx::connection_base& c) -> absl::StatusOr<TokenRecord> {
        // One statement: the first revocation wins under any isolation.
        pqxx::transaction<pqxx::isolation_level::read_committed> tx(c);
        pqxx::result rows = tx.exec_params(
            absl::StrCat("UPDATE tokens SET revoked_at = coalesce(revoked_at, "
                         "to_timestamp($2::bigint / 1e6)), "
                         "revoked_by = coalesce(revoked_by, $3) WHERE token_id = $1 RETURNING ",
                         kColumns),
            token_id, absl::ToUnixMicros(now), by);
        if (rows.empty()) return absl::NotFoundError("no token has this id");
        ARBITER_ASSIGN_OR_RETURN(TokenRecord token, RowToRecord(rows[0]));
        tx.commit();
        return token;
      });
}

absl::StatusOr<std::vector<TokenRecord>> PostgresTokenStore::List(const std::string& after,
                                                                 int limit) {
  return pool_.Run(
      "listing tokens",
      [&](pqxx::connection_base& c) -> absl::StatusOr<std::vector<TokenRecord>> {
        pqxx::read_transaction tx(c);
        pqxx::result rows = tx.exec_params(
            absl::StrCat("SELECT ", kColumns,
                         " FROM tokens WHERE token_id > $1 ORDER BY token_id LIMIT $2"),
            after, limit);
        std::vector<TokenRecord> out;
        for (const pqxx::row& row : rows) {
          ARBITER_ASSIGN_OR_RETURN(TokenRecord token, RowToRecord(row));
          token.token_hash.clear();
          out.push_back(std::move(token));
        }
        return out;
      });
}

absl::StatusOr<int64_t> PostgresTokenStore::Count() {
  return pool_.Run("counting tokens", [&](pqxx::connection_base& c) -> absl::StatusOr<int64_t> {
    pqxx::read_transaction tx(c);
    return tx.exec1("SELECT count(*) FROM tokens")[0].as<int64_t>();
  });
}

}  // namespace arbiter::store
