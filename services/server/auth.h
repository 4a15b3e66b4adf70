// Bearer tokens and what each role may do.
//
// A request carries "authorization: Bearer arb_<token_id>_<secret>". The
// Authenticator hashes the token (SHA-256), looks the hash up in the
// TokenStore and caches what it found for kTokenCacheTtl, so a known token
// costs one hash and one map lookup, and a revocation made on any server
// takes effect everywhere within that time (plus one look-up). Expiry is
// checked on every call. Unknown tokens are remembered for kUnknownTokenTtl
// (a repeated bogus token costs no query), and at most
// kMaxFirstLookups look-ups of tokens not in the cache run at once, so a
// flood of bogus tokens cannot take every connection of the token store from
// the refreshes of known tokens. No token, a malformed, unknown, expired or
// revoked one is UNAUTHENTICATED; the permission checks below answer
// PERMISSION_DENIED with what the role may do. Thread-safe.
#ifndef ARBITER_SERVICES_SERVER_AUTH_H_
#define ARBITER_SERVICES_SERVER_AUTH_H_

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "services/server/token_store.h"
#include "services/store/event_store.h"

namespace arbiter::server {

// Who is calling, as their token says.
struct Caller {
  std::string principal;
  Role role = Role::kPublic;
  std::vector<std::string> leagues;
  std::vector<std::string> tournaments;
  std::string token_id;
};

// A fresh token: the secret string (shown once) and its stored record
// (role, principal and scope left for the caller to fill in). 128 random
// bits for the id and 256 for the secret, from OpenSSL's generator.
struct NewToken {
  std::string token;
  TokenRecord record;
};
absl::StatusOr<NewToken> GenerateToken();

// True if `principal` is 1-100 characters of [A-Za-z0-9_.@-]; scope ids
// (leagues, tournaments) use the same alphabet.
bool IsValidPrincipal(const std::string& principal);

inline constexpr absl::Duration kTokenCacheTtl = absl::Milliseconds(500);
inline constexpr absl::Duration kUnknownTokenTtl = absl::Seconds(2);
inline constexpr int kMaxFirstLookups = 2;

// True if `token` has the shape of a token: "arb_", 32 lowercase hex digits,
// "_", 64 lowercase hex digits. Anything else is refused without a look-up.
bool IsWellFormedToken(const std::string& token);

class Authenticator {
 public:
  explicit Authenticator(TokenStore& tokens) : tokens_(tokens) {}

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

  TokenStore& tokens_;
  absl::Mutex mu_;
  absl::flat_hash_map<std::string, Entry> cache_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, absl::Time> unknown_ ABSL_GUARDED_BY(mu_);
  int first_lookups_ ABSL_GUARDED_BY(mu_) = 0;
  absl::flat_hash_map<std::string, Caller> in_process_ ABSL_GUARDED_BY(mu_);  // by hash
};

// PERMISSION_DENIED unless the caller is an admin.
absl::Status RequireAdmin(const Caller& caller);
// PERMISSION_DENIED unless the caller may create a game in this league and
// tournament (admins anywhere; organisers within their scope).
absl::Status RequireCreate(const Caller& caller, const std::string& league,
                           const std::string& tournament);
// PERMISSION_DENIED unless the caller's role writes games at all (admins
// and organisers). Checked before a game is looked up.
absl::Status RequireWriteRole(const Caller& caller);
// True if `game` lies in an organiser's scope (its league or tournament).
bool InScope(const Caller& caller, const store::GameRecord& game);
// PERMISSION_DENIED unless the caller may write to `game`: admins; the
// organiser whose scope holds its league or tournament; the token that
// created it (`creator_token_id`, from the game's creation event; empty for
// games created before tokens were recorded). Rights follow the token, not
// its principal: principals are names and need not be unique.
absl::Status RequireWrite(const Caller& caller, const store::GameRecord& game,
                          const std::string& creator_token_id);
// The denial RequireWrite gives an organiser for `game_id`; also the answer
// for a game that does not exist (permission before existence, AIP-211).
absl::Status WriteDenied(const Caller& caller, const std::string& game_id);
// PERMISSION_DENIED unless the caller may read `game` (public tokens: only
// finished games).
absl::Status RequireRead(const Caller& caller, const store::GameRecord& game);
// The denial RequireRead gives a public token; also its answer for a game
// that does not exist.
absl::Status ReadDenied(const Caller& caller, const std::string& game_id);
// PERMISSION_DENIED unless the caller may see positions of `game`: they are
// derived from the seed (hidden cards), so exactly when SeesSeed.
absl::Status RequireReadState(const Caller& caller, const store::GameRecord& game);
// The seed rule. The seed of a game, and everything derived from it (event
// 1's header and payload in ListEvents, a seed_revealed event, positions),
// is shown to admins and auditors, and to everyone once the game is
// finished; to nobody else while it is live or after it was voided (an
// organiser who gave the seed knows it already and gets it back only in the
// answer to its own CreateGame, SubmitGame or RevealSeed).
bool SeesSeed(const Caller& caller, const store::GameRecord& game);

}  // namespace arbiter::server

#endif  // ARBITER_SERVICES_SERVER_AUTH_H_
