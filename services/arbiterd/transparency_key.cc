#include "services/arbiterd/transparency_key.h"

#include <unistd.h>

#include <spdlog/spdlog.h>

#include <optional>

#include "absl/strings/str_cat.h"
#include "services/store/pg/log_binding.h"
#include "services/store/pg/transparency_tables.h"
#include "services/transparency/log_binding.h"

namespace arbiter::arbiterd {
namespace {

std::string ThisServer() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  return absl::StrCat("arbiterd on ", host, ", pid ", getpid());
}

// What the database holds, and what this server has (no key: nullopt).
absl::StatusOr<transparency::BindingFacts> ReadFacts(store::pg::PgPool& pool,
                                                     const std::string& key_path,
                                                     const std::string& origin) {
  transparency::BindingFacts facts;
  facts.key_path = key_path;
  absl::StatusOr<std::optional<transparency::NoteSigner>> key =
      transparency::ReadKey(key_path, origin);
  if (!key.ok()) return key.status();
  if (key->has_value()) facts.server = transparency::IdentityOf(**key);
  store::pg::LogBindingTable bindings(pool);
  absl::StatusOr<std::optional<store::pg::LogBindingRow>> bound = bindings.Read();
  if (!bound.ok()) return bound.status();
  if (bound->has_value()) {
    facts.bound = transparency::LogIdentity{(*bound)->origin, (*bound)->public_key};
    facts.bound_by = (*bound)->bound_by;
  }
  store::pg::TransparencyTables tables(pool);
  absl::StatusOr<std::optional<store::pg::CheckpointRow>> latest = tables.LatestCheckpoint();
  if (!latest.ok()) return latest.status();
  if (latest->has_value()) {
    facts.latest_note = (*latest)->note;
    facts.latest_size = (*latest)->tree_size;
  }
  return facts;
}

// Claims the unbound log for `key`; refused (and a key made for the claim
// removed) if another server claimed it first.
absl::Status Claim(store::pg::PgPool& pool, const transparency::BindingFacts& facts,
                   const transparency::LoadedKey& key) {
  const transparency::LogIdentity mine = transparency::IdentityOf(key.signer);
  store::pg::LogBindingRow row;
  row.origin = mine.origin;
  row.public_key = mine.public_key;
  row.bound_by = facts.latest_note.has_value()
                     ? absl::StrCat(ThisServer(), ", from the latest checkpoint (tree size ",
                                    facts.latest_size, "), which its key verifies")
                     : absl::StrCat(ThisServer(), ", the first server to start on this database");
  store::pg::LogBindingTable bindings(pool);
  absl::StatusOr<store::pg::LogBindingRow> stored = bindings.Claim(row);
  absl::Status status = stored.status();
  if (stored.ok()) {
    status = transparency::CheckClaimed({stored->origin, stored->public_key}, stored->bound_by,
                                        mine, key.key_path);
  }
  if (!status.ok()) {
    transparency::RemoveCreatedKey(key);
    return status;
  }
  spdlog::info("transparency log: bound to {} ({})", transparency::VerifierKeyOf(mine),
               stored->bound_by);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<transparency::LoadedKey> TakeTransparencyKey(
    store::pg::PgPool& pool, const std::string& key_path, const std::string& origin,
    const std::function<void()>& before_claim) {
  absl::StatusOr<transparency::BindingFacts> facts = ReadFacts(pool, key_path, origin);
  if (!facts.ok()) return facts.status();
  absl::StatusOr<transparency::BindingStep> step = transparency::DecideBinding(*facts);
  if (!step.ok()) return step.status();
  // Allowed to sign: now the key may be created (on a log no one claimed)
  // and its verifier key written beside it.
  absl::StatusOr<transparency::LoadedKey> key = transparency::LoadOrCreateKey(key_path, origin);
  if (!key.ok()) return key.status();
  if (*step == transparency::BindingStep::kClaim) {
    if (before_claim) before_claim();
    if (absl::Status s = Claim(pool, *facts, *key); !s.ok()) return s;
  }
  return key;
}

}  // namespace arbiter::arbiterd
