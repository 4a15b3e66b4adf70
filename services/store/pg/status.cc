#include "services/store/pg/status.h"

#include <pqxx/pqxx>

#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace arbiter::store::pg {

bool IsConnectionLoss(const std::exception& error) {
  if (dynamic_cast<const pqxx::broken_connection*>(&error) != nullptr) return true;
  if (dynamic_cast<const pqxx::in_doubt_error*>(&error) != nullptr) return true;
  if (dynamic_cast<const pqxx::statement_completion_unknown*>(&error) != nullptr) return true;
  if (const auto* sql = dynamic_cast<const pqxx::sql_error*>(&error)) {
    const std::string& state = sql->sqlstate();
    return absl::StartsWith(state, "08") || absl::StartsWith(state, "57P");
  }
  return false;
}

absl::Status StatusFromException(const std::exception& error, absl::string_view doing) {
  std::string what = error.what();
  while (!what.empty() && (what.back() == '\n' || what.back() == ' ')) what.pop_back();
  const std::string message = absl::StrCat(doing, ": ", what);
  if (dynamic_cast<const pqxx::in_doubt_error*>(&error) != nullptr) {
    return absl::UnavailableError(
        absl::StrCat(message, " (the outcome is unknown; retry with the same request id)"));
  }
  if (IsConnectionLoss(error)) return absl::UnavailableError(message);
  // libpqxx 6.4 throws some subclasses without their SQLSTATE.
  if (dynamic_cast<const pqxx::data_exception*>(&error) != nullptr) {
    return absl::InvalidArgumentError(message);
  }
  if (dynamic_cast<const pqxx::insufficient_privilege*>(&error) != nullptr) {
    return absl::PermissionDeniedError(message);
  }
  if (dynamic_cast<const pqxx::unique_violation*>(&error) != nullptr) {
    return absl::AlreadyExistsError(message);
  }
  if (dynamic_cast<const pqxx::transaction_rollback*>(&error) != nullptr) {
    return absl::AbortedError(message);
  }
  if (const auto* sql = dynamic_cast<const pqxx::sql_error*>(&error)) {
    const std::string& state = sql->sqlstate();
    if (absl::StartsWith(state, "22")) return absl::InvalidArgumentError(message);
    if (state == "42501" || state == "AR001") return absl::PermissionDeniedError(message);
    if (state == "23505") return absl::AlreadyExistsError(message);
    if (state == "40001" || state == "40P01") return absl::AbortedError(message);
    if (state == "53300") return absl::UnavailableError(message);  // too many connections
  }
  return absl::InternalError(message);
}

}  // namespace arbiter::store::pg
