// The shape of a bearer token, and new tokens.
//
// A token is the string "arb_<token_id>_<secret>": "arb_", 32 lowercase hex
// digits (128 random bits, the public id), "_", 64 lowercase hex digits (256
// random bits). Only its SHA-256 is stored (store/token_store.h), so reading
// the tokens table does not let anyone sign in. Pure functions except
// GenerateToken (OpenSSL's generator); thread-safe.
#ifndef ARBITER_SERVICES_ACCESS_TOKEN_FORMAT_H_
#define ARBITER_SERVICES_ACCESS_TOKEN_FORMAT_H_

#include <string>

#include "absl/status/statusor.h"
#include "services/store/token_store.h"

namespace arbiter::access {

// A fresh token: the secret string (shown once) and its stored record
// (role, principal and scope left for the caller to fill in). Internal if
// the system's random generator fails.
struct NewToken {
  std::string token;
  store::TokenRecord record;
};
absl::StatusOr<NewToken> GenerateToken();

// True if `token` has the shape of a token. Anything else is refused without
// a look-up.
bool IsWellFormedToken(const std::string& token);

}  // namespace arbiter::access

#endif  // ARBITER_SERVICES_ACCESS_TOKEN_FORMAT_H_
