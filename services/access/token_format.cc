#include "services/access/token_format.h"

#include <openssl/rand.h>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/core/sha256.h"
#include "engine/core/status_macros.h"

namespace arbiter::access {
namespace {

absl::StatusOr<std::string> RandomHex(int bytes) {
  std::string raw(static_cast<std::size_t>(bytes), '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(raw.data()), bytes) != 1) {
    return absl::InternalError("the system's random generator failed");
  }
  return absl::BytesToHexString(raw);
}

}  // namespace

absl::StatusOr<NewToken> GenerateToken() {
  ARBITER_ASSIGN_OR_RETURN(const std::string id, RandomHex(16));
  ARBITER_ASSIGN_OR_RETURN(const std::string secret, RandomHex(32));
  NewToken out;
  out.token = absl::StrCat("arb_", id, "_", secret);
  out.record.token_id = id;
  out.record.token_hash = engine::Sha256Hex(out.token);
  return out;
}

bool IsWellFormedToken(const std::string& token) {
  // "arb_" + 32 hex + "_" + 64 hex.
  if (token.size() != 4 + 32 + 1 + 64 || !absl::StartsWith(token, "arb_") || token[36] != '_') {
    return false;
  }
  for (std::size_t i = 4; i < token.size(); ++i) {
    if (i == 36) continue;
    const char c = token[i];
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

}  // namespace arbiter::access
