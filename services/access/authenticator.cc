#include "services/access/authenticator.h"

#include <utility>

#include "engine/core/status_macros.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/core/sha256.h"
#include "services/access/token_format.h"

namespace arbiter::access {
namespace {

constexpr std::size_t kMaxCachedTokens = 10'000;
constexpr char kBearer[] = "Bearer ";

}  // namespace

absl::StatusOr<Caller> Authenticator::Authenticate(const std::string& authorization) {
  if (authorization.empty()) {
    return absl::UnauthenticatedError(
        "no token: send the metadata \"authorization: Bearer <token>\"");
  }
  if (!absl::StartsWith(authorization, kBearer)) {
    return absl::UnauthenticatedError("the authorization metadata must be \"Bearer <token>\"");
  }
  const std::string token = authorization.substr(sizeof(kBearer) - 1);
  if (!IsWellFormedToken(token)) return absl::UnauthenticatedError("unknown token");
  const std::string hash = engine::Sha256Hex(token);
  const absl::Time now = absl::Now();
  bool known = false;
  {
    absl::MutexLock lock(&mu_);
    if (auto it = in_process_.find(hash); it != in_process_.end()) return it->second;
    if (auto it = cache_.find(hash); it != cache_.end()) {
      if (it->second.expires_at.has_value() && now >= *it->second.expires_at) {
        return absl::UnauthenticatedError("the token is expired");
      }
      if (now - it->second.fetched < kTokenCacheTtl) return it->second.caller;
      known = true;  // refresh it: it may have been revoked on another server
    } else if (auto bad = unknown_.find(hash); bad != unknown_.end()) {
      if (now - bad->second < kUnknownTokenTtl) return absl::UnauthenticatedError("unknown token");
      unknown_.erase(bad);
    }
    if (!known) {
      auto free_slot = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        return first_lookups_ < kMaxFirstLookups;
      };
      mu_.Await(absl::Condition(&free_slot));
      ++first_lookups_;
    }
  }
  absl::StatusOr<std::optional<store::TokenRecord>> found = tokens_.FindByHash(hash);
  absl::MutexLock lock(&mu_);
  if (!known) --first_lookups_;
  if (!found.ok()) return found.status();
  if (!found->has_value()) {
    cache_.erase(hash);
    if (unknown_.size() >= kMaxCachedTokens) unknown_.clear();
    unknown_[hash] = now;
    return absl::UnauthenticatedError("unknown token");
  }
  const store::TokenRecord& record = **found;
  if (std::optional<std::string> refusal = record.Refusal(now)) {
    cache_.erase(hash);
    return absl::UnauthenticatedError(absl::StrCat("the token is ", *refusal));
  }
  Caller caller{record.principal, record.role, record.leagues, record.tournaments,
                record.token_id, record.games};
  if (cache_.size() >= kMaxCachedTokens) cache_.clear();
  cache_[hash] = Entry{caller, record.expires_at, now};
  return caller;
}

void Authenticator::Forget(const std::string& token_id) {
  absl::MutexLock lock(&mu_);
  for (auto it = cache_.begin(); it != cache_.end();) {
    if (it->second.caller.token_id == token_id) {
      cache_.erase(it++);
    } else {
      ++it;
    }
  }
}

absl::StatusOr<std::string> Authenticator::AddInProcessToken(const Caller& caller) {
  ARBITER_ASSIGN_OR_RETURN(NewToken token, GenerateToken());
  Caller stored = caller;
  stored.token_id = token.record.token_id;
  absl::MutexLock lock(&mu_);
  in_process_[token.record.token_hash] = std::move(stored);
  return token.token;
}

}  // namespace arbiter::access
