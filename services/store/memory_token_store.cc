#include "services/store/memory_token_store.h"

#include <utility>
#include <vector>

namespace arbiter::store {

absl::Status MemoryTokenStore::Insert(const TokenRecord& token) {
  absl::MutexLock lock(&mu_);
  for (const auto& [hash, existing] : by_hash_) {
    if (existing.token_id == token.token_id || hash == token.token_hash ||
        (!token.request_id.empty() && existing.request_id == token.request_id)) {
      return absl::AlreadyExistsError("a token was already created for this request");
    }
  }
  by_hash_[token.token_hash] = token;
  return absl::OkStatus();
}

absl::StatusOr<std::optional<TokenRecord>> MemoryTokenStore::FindByHash(const std::string& hash) {
  absl::MutexLock lock(&mu_);
  auto it = by_hash_.find(hash);
  if (it == by_hash_.end()) return std::optional<TokenRecord>();
  return std::optional<TokenRecord>(it->second);
}

absl::StatusOr<int64_t> MemoryTokenStore::Count() {
  absl::MutexLock lock(&mu_);
  return static_cast<int64_t>(by_hash_.size());
}

absl::StatusOr<TokenRecord> MemoryTokenStore::Revoke(const std::string& token_id,
                                                     const std::string& by, absl::Time now) {
  absl::MutexLock lock(&mu_);
  for (auto& [hash, token] : by_hash_) {
    if (token.token_id != token_id) continue;
    if (!token.revoked_at.has_value()) {
      token.revoked_at = now;
      token.revoked_by = by;
    }
    return token;
  }
  return absl::NotFoundError("no token has this id");
}

absl::StatusOr<std::vector<TokenRecord>> MemoryTokenStore::List(const std::string& after,
                                                               int limit) {
  absl::MutexLock lock(&mu_);
  std::map<std::string, TokenRecord> by_id;
  for (const auto& [hash, token] : by_hash_) {
    if (token.token_id > after) by_id[token.token_id] = token;
  }
  std::vector<TokenRecord> out;
  for (auto& [id, token] : by_id) {
    if (static_cast<int>(out.size()) >= limit) break;
    token.token_hash.clear();
    out.push_back(std::move(token));
  }
  return out;
}

}  // namespace arbiter::store
