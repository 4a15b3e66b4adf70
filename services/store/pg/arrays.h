// PostgreSQL array literals, the form in which the stores send a list as one
// parameter ($1::text[], $2::bigint[]) for a statement to unnest. The one
// encoder of the service: the event store, the league projections and the
// transparency log all send their lists through it. Pure functions;
// thread-safe.
#ifndef ARBITER_SERVICES_STORE_PG_ARRAYS_H_
#define ARBITER_SERVICES_STORE_PG_ARRAYS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"

namespace arbiter::store::pg {

// A text array: {"a","b\"c"} (each value quoted, '"' and '\' escaped).
std::string TextArray(const std::vector<std::string>& values);
// The same with NULL for nullopt: {"a",NULL}.
std::string TextArray(const std::vector<std::optional<std::string>>& values);

// An integer array: {1,2,3}.
template <typename Int>
std::string IntArray(const std::vector<Int>& values) {
  static_assert(std::is_integral_v<Int>, "IntArray takes integers");
  std::string out = "{";
  for (std::size_t i = 0; i < values.size(); ++i) {
    absl::StrAppend(&out, i > 0 ? "," : "", values[i]);
  }
  out += '}';
  return out;
}
// The same with NULL for nullopt: {1,NULL,3}.
std::string IntArray(const std::vector<std::optional<int64_t>>& values);

}  // namespace arbiter::store::pg

#endif  // ARBITER_SERVICES_STORE_PG_ARRAYS_H_
