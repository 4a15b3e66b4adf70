// The transparency log's signing key as arbiterd takes it at start: read
// from --transparency-key, compared with the identity (origin and public
// key) that the database's log is bound to, and, on a database whose log no
// server has claimed yet, created if need be and claimed. The decision is
// services/transparency/log_binding.h; the row is
// services/store/pg/log_binding.h. A server whose key or origin differs from
// the log's is refused before it writes anything: no row, and no key file
// (one it created for a claim it then lost is removed). Not thread-safe:
// arbiterd's main thread calls it once.
#ifndef ARBITER_SERVICES_ARBITERD_TRANSPARENCY_KEY_H_
#define ARBITER_SERVICES_ARBITERD_TRANSPARENCY_KEY_H_

#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "services/store/pg/pool.h"
#include "services/transparency/key_file.h"

namespace arbiter::arbiterd {

// The key to sign with. FailedPrecondition (the message of
// transparency::DecideBinding) when this server may not sign this
// database's log; InvalidArgument for a key file that is not a key; the
// errors of the pool (Unavailable) and of writing the key file (Internal).
// `before_claim` runs, if set, between the decision and a claim (tests let
// another server claim the log there).
absl::StatusOr<transparency::LoadedKey> TakeTransparencyKey(
    store::pg::PgPool& pool, const std::string& key_path, const std::string& origin,
    const std::function<void()>& before_claim = nullptr);

}  // namespace arbiter::arbiterd

#endif  // ARBITER_SERVICES_ARBITERD_TRANSPARENCY_KEY_H_
