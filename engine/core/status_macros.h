// Small helpers for absl::Status propagation (abseil 20220623 has none).
#ifndef ARBITER_ENGINE_CORE_STATUS_MACROS_H_
#define ARBITER_ENGINE_CORE_STATUS_MACROS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define ARBITER_CONCAT_INNER_(a, b) a##b
#define ARBITER_CONCAT_(a, b) ARBITER_CONCAT_INNER_(a, b)

// Returns from the enclosing function if `expr` yields a non-OK status.
#define ARBITER_RETURN_IF_ERROR(expr)           \
  do {                                          \
    ::absl::Status arbiter_status_ = (expr);    \
    if (!arbiter_status_.ok()) return arbiter_status_; \
  } while (false)

// `ARBITER_ASSIGN_OR_RETURN(auto x, F());` assigns the value of an
// absl::StatusOr or returns its status from the enclosing function.
#define ARBITER_ASSIGN_OR_RETURN(lhs, expr) \
  ARBITER_ASSIGN_OR_RETURN_IMPL_(ARBITER_CONCAT_(arbiter_statusor_, __LINE__), lhs, expr)
#define ARBITER_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                   \
  if (!tmp.ok()) return std::move(tmp).status();       \
  lhs = *std::move(tmp)

#endif  // ARBITER_ENGINE_CORE_STATUS_MACROS_H_
