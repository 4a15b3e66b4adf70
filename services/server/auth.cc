#include "services/server/auth.h"

#include <openssl/rand.h>

#include <algorithm>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/core/sha256.h"

namespace arbiter::server {
namespace {

constexpr std::size_t kMaxCachedTokens = 10'000;
constexpr char kBearer[] = "Bearer ";

absl::StatusOr<std::string> RandomHex(int bytes) {
  std::string raw(static_cast<std::size_t>(bytes), '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(raw.data()), bytes) != 1) {
    return absl::InternalError("the system's random generator failed");
  }
  return absl::BytesToHexString(raw);
}

bool Contains(const std::vector<std::string>& list, const std::string& value) {
  return !value.empty() && std::find(list.begin(), list.end(), value) != list.end();
}

// Denials name the caller's role and what was refused, never a person: not
// the caller's principal (logs have it) and not a game's creator.
absl::Status Denied(const Caller& caller, const std::string& what) {
  return absl::PermissionDeniedError(
      absl::StrCat("this ", RoleName(caller.role), " token may not ", what));
}

}  // namespace

absl::StatusOr<NewToken> GenerateToken() {
  absl::StatusOr<std::string> id = RandomHex(16);
  if (!id.ok()) return id.status();
  absl::StatusOr<std::string> secret = RandomHex(32);
  if (!secret.ok()) return secret.status();
  NewToken out;
  out.token = absl::StrCat("arb_", *id, "_", *secret);
  out.record.token_id = *id;
  out.record.token_hash = engine::Sha256Hex(out.token);
  return out;
}

bool IsValidPrincipal(const std::string& principal) {
  if (principal.empty() || principal.size() > 100) return false;
  for (char c : principal) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '.' || c == '-' || c == '@';
    if (!ok) return false;
  }
  return true;
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
  absl::StatusOr<std::optional<TokenRecord>> found = tokens_.FindByHash(hash);
  absl::MutexLock lock(&mu_);
  if (!known) --first_lookups_;
  if (!found.ok()) return found.status();
  if (!found->has_value()) {
    cache_.erase(hash);
    if (unknown_.size() >= kMaxCachedTokens) unknown_.clear();
    unknown_[hash] = now;
    return absl::UnauthenticatedError("unknown token");
  }
  const TokenRecord& record = **found;
  if (std::optional<std::string> refusal = record.Refusal(now)) {
    cache_.erase(hash);
    return absl::UnauthenticatedError(absl::StrCat("the token is ", *refusal));
  }
  Caller caller{record.principal, record.role, record.leagues, record.tournaments,
                record.token_id};
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
  absl::StatusOr<NewToken> token = GenerateToken();
  if (!token.ok()) return token.status();
  Caller stored = caller;
  stored.token_id = token->record.token_id;
  absl::MutexLock lock(&mu_);
  in_process_[token->record.token_hash] = std::move(stored);
  return token->token;
}

absl::Status RequireAdmin(const Caller& caller) {
  if (caller.role == Role::kAdmin) return absl::OkStatus();
  return Denied(caller, "manage tokens (admin only)");
}

absl::Status RequireCreate(const Caller& caller, const std::string& league,
                           const std::string& tournament) {
  if (caller.role == Role::kAdmin) return absl::OkStatus();
  if (caller.role != Role::kOrganiser) {
    return Denied(caller, "create games (admins and organisers only)");
  }
  if (!league.empty() && !Contains(caller.leagues, league)) {
    return Denied(caller, absl::StrCat("create games in league \"", league, "\""));
  }
  if (!tournament.empty() && !Contains(caller.tournaments, tournament)) {
    return Denied(caller, absl::StrCat("create games in tournament \"", tournament, "\""));
  }
  return absl::OkStatus();
}

absl::Status RequireWriteRole(const Caller& caller) {
  if (caller.role == Role::kAdmin || caller.role == Role::kOrganiser) return absl::OkStatus();
  return Denied(caller, "write to games (admins and organisers only)");
}

absl::Status WriteDenied(const Caller& caller, const std::string& game_id) {
  return Denied(caller, absl::StrCat("write to game \"", game_id,
                                     "\" (games of its scope, and games it created, only)"));
}

absl::Status RequireWrite(const Caller& caller, const store::GameRecord& game,
                          const std::string& creator_token_id) {
  if (absl::Status s = RequireWriteRole(caller); !s.ok()) return s;
  if (caller.role == Role::kAdmin) return absl::OkStatus();
  if (InScope(caller, game) ||
      (!creator_token_id.empty() && creator_token_id == caller.token_id)) {
    return absl::OkStatus();
  }
  return WriteDenied(caller, game.game_id);
}

bool InScope(const Caller& caller, const store::GameRecord& game) {
  return caller.role == Role::kOrganiser &&
         (Contains(caller.leagues, game.league_id) ||
          Contains(caller.tournaments, game.tournament_id));
}

absl::Status ReadDenied(const Caller& caller, const std::string& game_id) {
  return Denied(caller, absl::StrCat("read game \"", game_id,
                                     "\" (public tokens read finished games only)"));
}

absl::Status RequireRead(const Caller& caller, const store::GameRecord& game) {
  if (caller.role != Role::kPublic || game.status == store::GameStatus::kFinished) {
    return absl::OkStatus();
  }
  return ReadDenied(caller, game.game_id);
}

absl::Status RequireReadState(const Caller& caller, const store::GameRecord& game) {
  if (SeesSeed(caller, game)) return absl::OkStatus();
  return Denied(caller, absl::StrCat("see the position of game \"", game.game_id,
                                     "\" before it is finished (positions show hidden cards)"));
}

bool SeesSeed(const Caller& caller, const store::GameRecord& game) {
  return caller.role == Role::kAdmin || caller.role == Role::kAuditor ||
         game.status == store::GameStatus::kFinished;
}

}  // namespace arbiter::server
