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

absl::Status Denied(const Caller& caller, const std::string& what) {
  return absl::PermissionDeniedError(
      absl::StrCat("the ", RoleName(caller.role), " token of \"", caller.principal, "\" may not ",
                   what));
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

absl::StatusOr<Caller> Authenticator::Authenticate(const std::string& authorization) {
  if (authorization.empty()) {
    return absl::UnauthenticatedError(
        "no token: send the metadata \"authorization: Bearer <token>\"");
  }
  if (!absl::StartsWith(authorization, kBearer)) {
    return absl::UnauthenticatedError("the authorization metadata must be \"Bearer <token>\"");
  }
  const std::string token = authorization.substr(sizeof(kBearer) - 1);
  const std::string hash = engine::Sha256Hex(token);
  {
    absl::MutexLock lock(&mu_);
    if (auto it = cache_.find(hash); it != cache_.end()) return it->second;
  }
  absl::StatusOr<std::optional<TokenRecord>> found = tokens_.FindByHash(hash);
  if (!found.ok()) return found.status();
  if (!found->has_value()) return absl::UnauthenticatedError("unknown token");
  const TokenRecord& record = **found;
  Caller caller{record.principal, record.role, record.leagues, record.tournaments,
                record.token_id};
  absl::MutexLock lock(&mu_);
  if (cache_.size() >= kMaxCachedTokens) cache_.clear();
  cache_[hash] = caller;
  return caller;
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

absl::Status RequireWrite(const Caller& caller, const store::GameRecord& game) {
  if (caller.role == Role::kAdmin) return absl::OkStatus();
  if (caller.role != Role::kOrganiser) {
    return Denied(caller, "write to games (admins and organisers only)");
  }
  if (game.created_by == caller.principal || Contains(caller.leagues, game.league_id) ||
      Contains(caller.tournaments, game.tournament_id)) {
    return absl::OkStatus();
  }
  return Denied(caller, absl::StrCat("write to game \"", game.game_id, "\", which belongs to \"",
                                     game.created_by, "\""));
}

absl::Status RequireRead(const Caller& caller, const store::GameRecord& game) {
  if (caller.role != Role::kPublic || game.status == store::GameStatus::kFinished) {
    return absl::OkStatus();
  }
  return Denied(caller, absl::StrCat("read game \"", game.game_id,
                                     "\" before it is finished (public tokens read results only)"));
}

absl::Status RequireReadState(const Caller& caller, const store::GameRecord& game) {
  if (caller.role == Role::kAdmin || caller.role == Role::kAuditor ||
      game.status == store::GameStatus::kFinished) {
    return absl::OkStatus();
  }
  if (caller.role == Role::kOrganiser && RequireWrite(caller, game).ok()) return absl::OkStatus();
  return Denied(caller, absl::StrCat("see the position of game \"", game.game_id,
                                     "\" before it is finished"));
}

bool SeesSeed(const Caller& caller, const store::GameRecord& game) {
  return caller.role == Role::kAdmin || caller.role == Role::kAuditor ||
         game.status == store::GameStatus::kFinished;
}

}  // namespace arbiter::server
