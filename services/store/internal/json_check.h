// A strict JSON syntax check (RFC 8259) for the readable copies of event
// payloads, so that both stores refuse the same text with the same message.
// Pure function; thread-safe.
#ifndef ARBITER_SERVICES_STORE_INTERNAL_JSON_CHECK_H_
#define ARBITER_SERVICES_STORE_INTERNAL_JSON_CHECK_H_

#include <string>

namespace arbiter::store::internal {

// Empty if `text` is one valid JSON value (surrounding whitespace allowed),
// in valid UTF-8, nested at most 256 deep, without "\u0000" (PostgreSQL's
// jsonb cannot hold it); otherwise what is wrong and at which byte.
std::string JsonProblem(const std::string& text);

}  // namespace arbiter::store::internal

#endif  // ARBITER_SERVICES_STORE_INTERNAL_JSON_CHECK_H_
