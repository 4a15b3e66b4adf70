#include "services/server/log_text.h"

#include "services/common/status_details.h"

#include <openssl/rand.h>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "services/server/status_mapping.h"

namespace arbiter::server {

std::string LogSafe(absl::string_view text, std::size_t max_bytes) {
  if (text.empty()) return "-";
  // Escaping at most 4 bytes per input byte: look at no more than needed.
  std::string escaped = absl::CHexEscape(text.substr(0, max_bytes + 1));
  if (escaped.size() > max_bytes || text.size() > max_bytes + 1) {
    std::size_t cut = std::min(escaped.size(), max_bytes);
    // Do not end inside an escape sequence ("\x1" of "\x1b").
    const std::size_t slash = escaped.rfind('\\', cut == 0 ? 0 : cut - 1);
    if (slash != std::string::npos && cut - slash < 4) cut = slash;
    escaped.resize(cut);
    escaped += "...";
  }
  return escaped;
}

std::string NewCorrelationId() {
  unsigned char raw[8] = {};
  if (RAND_bytes(raw, sizeof(raw)) != 1) return "0000000000000000";
  return absl::BytesToHexString(absl::string_view(reinterpret_cast<const char*>(raw), sizeof(raw)));
}

bool IsServerSide(absl::StatusCode code) {
  return code == absl::StatusCode::kInternal || code == absl::StatusCode::kUnknown ||
         code == absl::StatusCode::kUnavailable;
}

absl::Status ClientSafe(absl::StatusCode code, const std::string& correlation_id) {
  const char* what = code == absl::StatusCode::kUnavailable
                         ? "the service cannot reach its database just now; retry later"
                         : "the server failed to answer";
  return common::WithErrorInfo(absl::Status(code, absl::StrCat(what, " (correlation id ", correlation_id,
                                                       "; the server's log has the details)")),
                       CodeName(code), {{"correlation_id", correlation_id}});
}

}  // namespace arbiter::server
