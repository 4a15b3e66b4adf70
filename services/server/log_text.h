// Caller-supplied text made safe for one log line, and the correlation ids
// that tie a generic client error to the server's log line with the detail.
// Thread-safe (pure functions; the random ids come from OpenSSL).
#ifndef ARBITER_SERVICES_SERVER_LOG_TEXT_H_
#define ARBITER_SERVICES_SERVER_LOG_TEXT_H_

#include <cstddef>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace arbiter::server {

// At most this many bytes of one caller-supplied field reach a log line.
inline constexpr std::size_t kMaxLoggedBytes = 200;

// `text` with control characters, quotes, backslashes and bytes >= 0x80
// written as C escapes (so a newline cannot start a forged log line and a
// terminal escape code cannot act), cut to `max_bytes` of the escaped form
// with "..." appended when cut; "-" for empty text.
std::string LogSafe(absl::string_view text, std::size_t max_bytes = kMaxLoggedBytes);

// 16 random hex digits naming one failed call in the server's log.
std::string NewCorrelationId();

// True for the codes whose messages may carry the database's own text
// (INTERNAL, UNKNOWN, UNAVAILABLE): clients get ClientSafe's message
// instead.
bool IsServerSide(absl::StatusCode code);

// The status a client sees for a server-side failure: the same code, a
// generic message naming `correlation_id`, and ErrorInfo with the id.
absl::Status ClientSafe(absl::StatusCode code, const std::string& correlation_id);

}  // namespace arbiter::server

#endif  // ARBITER_SERVICES_SERVER_LOG_TEXT_H_
