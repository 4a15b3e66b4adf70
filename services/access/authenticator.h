// Authenticator: from an "authorization" metadata value to a Caller.
//
// A request carries "authorization: Bearer arb_<token_id>_<secret>"
// (token_format.h). The Authenticator hashes the token (SHA-256), looks the
// hash up in the TokenStore and caches what it found for kTokenCacheTtl, so a
// known token costs one hash and one map lookup, and a revocation made on any
// server takes effect everywhere within that time (plus one look-up). Expiry
// is checked on every call. Unknown tokens are remembered for
// kUnknownTokenTtl (a repeated bogus token costs no query), and at most
// kMaxFirstLookups look-ups of tokens not in the cache run at once, so a flood
// of bogus tokens cannot take every connection of the token store from the
// refreshes of known tokens. No token, a malformed, unknown, expired or
// revoked one is UNAUTHENTICATED. Thread-safe.
#ifndef ARBITER_SERVICES_ACCESS_AUTHENTICATOR_H_
#define ARBITER_SERVICES_ACCESS_AUTHENTICATOR_H_

#include <optional>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "services/access/caller.h"
#include "services/store/token_store.h"

namespace arbiter::access {

inline constexpr absl::Duration kTokenCacheTtl = absl::Milliseconds(500);
inline constexpr absl::Duration kUnknownTokenTtl = absl::Seconds(2);
inline constexpr int kMaxFirstLookups = 2;

class Authenticator {
 public:
  explicit Authenticator(store::TokenStore& tokens) : tokens_(tokens) {}

  // The caller named by an "authorization" metadata value. UNAUTHENTICATED
  // if it is missing, not "Bearer <token>", malformed, unknown, expired or
  // revoked; Unavailable if the token store cannot be reached.
  absl::StatusOr<Caller> Authenticate(const std::string& authorization);

  // Drops cached entries of `token_id` (after revoking it on this server).
  void Forget(const std::string& token_id);

  // A fresh token for `caller` that exists only in this process's memory,
  // never in the token store: it works for calls made in this process (the
  // web pages call the services in-process with a public one) and dies
  // with it.
  absl::StatusOr<std::string> AddInProcessToken(const Caller& caller);

 private:
  struct Entry {
    Caller caller;
    std::optional<absl::Time> expires_at;
    absl::Time fetched;
  };

  store::TokenStore& tokens_;
  absl::Mutex mu_;
  absl::flat_hash_map<std::string, Entry> cache_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, absl::Time> unknown_ ABSL_GUARDED_BY(mu_);
  int first_lookups_ ABSL_GUARDED_BY(mu_) = 0;
  absl::flat_hash_map<std::string, Caller> in_process_ ABSL_GUARDED_BY(mu_);  // by hash
};

}  // namespace arbiter::access

#endif  // ARBITER_SERVICES_ACCESS_AUTHENTICATOR_H_
