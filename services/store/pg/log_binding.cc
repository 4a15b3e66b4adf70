#include "services/store/pg/log_binding.h"

#include <pqxx/pqxx>

#include "absl/strings/escaping.h"

namespace arbiter::store::pg {
namespace {

constexpr char kSelect[] =
    "SELECT origin, encode(public_key, 'hex'), extract(epoch FROM bound_at)::bigint, bound_by "
    "FROM transparency_log_binding";

LogBindingRow RowOf(const pqxx::row& row) {
  LogBindingRow out;
  out.origin = row[0].as<std::string>();
  out.public_key = absl::HexStringToBytes(row[1].as<std::string>());
  out.bound_at_seconds = row[2].as<int64_t>();
  out.bound_by = row[3].as<std::string>();
  return out;
}

}  // namespace

absl::StatusOr<std::optional<LogBindingRow>> LogBindingTable::Read() {
  return pool_.Run("reading the transparency log's binding",
                   [&](pqxx::connection_base& conn) -> absl::StatusOr<std::optional<LogBindingRow>> {
                     pqxx::read_transaction txn(conn);
                     pqxx::result rows = txn.exec(kSelect);
                     if (rows.empty()) return std::optional<LogBindingRow>();
                     return RowOf(rows[0]);
                   });
}

absl::StatusOr<LogBindingRow> LogBindingTable::Claim(const LogBindingRow& row) {
  return pool_.Run("binding the transparency log",
                   [&](pqxx::connection_base& conn) -> absl::StatusOr<LogBindingRow> {
    pqxx::work txn(conn);
    txn.exec_params0(
        "INSERT INTO transparency_log_binding (id, origin, public_key, bound_by) "
        "VALUES (true, $1, decode($2, 'hex'), $3) ON CONFLICT (id) DO NOTHING",
        row.origin, absl::BytesToHexString(row.public_key), row.bound_by);
    // Read in the same transaction: this row, or the one a server that
    // started at the same moment committed first (the insert waited for it).
    LogBindingRow stored = RowOf(txn.exec1(kSelect));
    txn.commit();
    return stored;
  });
}

}  // namespace arbiter::store::pg
