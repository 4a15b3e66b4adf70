#include "services/server/token_service_impl.h"

#include "engine/core/status_macros.h"
#include "services/access/token_format.h"
#include "services/access/token_requests.h"
#include "services/games/chained_game.h"
#include "services/games/game_loader.h"
#include "services/common/page.h"
#include "services/common/resource_names.h"

#include "services/common/proto_time.h"

#include <google/protobuf/util/time_util.h>

#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "services/server/rpc_common.h"
#include "services/server/status_mapping.h"
#include "services/store/internal/store_rules.h"

namespace arbiter::server {
namespace {


std::optional<store::Role> RoleOf(v1::Role role) {
  switch (role) {
    case v1::ROLE_ADMIN:
      return store::Role::kAdmin;
    case v1::ROLE_ORGANISER:
      return store::Role::kOrganiser;
    case v1::ROLE_AUDITOR:
      return store::Role::kAuditor;
    case v1::ROLE_PUBLIC:
      return store::Role::kPublic;
    case v1::ROLE_PLAYER:
      return store::Role::kPlayer;
    default:
      return std::nullopt;
  }
}

access::TokenAsked AskedOf(const v1::CreateTokenRequest& request) {
  access::TokenAsked out;
  out.role = RoleOf(request.role());
  out.role_value = static_cast<int>(request.role());
  out.principal = request.principal();
  out.leagues.assign(request.leagues().begin(), request.leagues().end());
  out.tournaments.assign(request.tournaments().begin(), request.tournaments().end());
  out.games.assign(request.games().begin(), request.games().end());
  if (request.has_ttl()) {
    out.ttl = absl::Seconds(request.ttl().seconds()) + absl::Nanoseconds(request.ttl().nanos());
  }
  return out;
}

v1::Role ToRole(store::Role role) {
  switch (role) {
    case store::Role::kAdmin:
      return v1::ROLE_ADMIN;
    case store::Role::kOrganiser:
      return v1::ROLE_ORGANISER;
    case store::Role::kAuditor:
      return v1::ROLE_AUDITOR;
    case store::Role::kPublic:
      return v1::ROLE_PUBLIC;
    case store::Role::kPlayer:
      return v1::ROLE_PLAYER;
  }
  return v1::ROLE_UNSPECIFIED;
}

}  // namespace

v1::TokenInfo ToTokenInfo(const store::TokenRecord& token) {
  v1::TokenInfo out;
  out.set_token_id(token.token_id);
  out.set_role(ToRole(token.role));
  out.set_principal(token.principal);
  for (const std::string& id : token.leagues) out.add_leagues(id);
  for (const std::string& id : token.tournaments) out.add_tournaments(id);
  for (const std::string& id : token.games) out.add_games(id);
  out.set_creator(token.created_by);
  *out.mutable_create_time() = common::PreciseTimestampOf(token.created_at);
  if (token.expires_at.has_value()) *out.mutable_expire_time() = common::PreciseTimestampOf(*token.expires_at);
  if (token.revoked_at.has_value()) {
    *out.mutable_revoke_time() = common::PreciseTimestampOf(*token.revoked_at);
    out.set_revoker(token.revoked_by);
  }
  return out;
}

grpc::Status TokenServiceImpl::CreateToken(grpc::ServerContext* context,
                                           const v1::CreateTokenRequest* request,
                                           v1::CreateTokenResponse* response) {
  return Serve(
      context, auth_, "CreateToken", "", request->request_id(),
      [&](const access::Caller& caller) -> absl::Status {
        const access::GameLookup games =
            [this](const std::string& game_id) -> absl::StatusOr<access::ScopedGame> {
          access::ScopedGame out;
          ARBITER_ASSIGN_OR_RETURN(out.record, games::ChainedRecord(games_, game_id));
          ARBITER_ASSIGN_OR_RETURN(out.creator_token_id, games::CreatorTokenOf(games_, game_id));
          return out;
        };
        access::TournamentLeagueLookup tournament_leagues;
        if (tournaments_ != nullptr) {
          tournament_leagues = [this](const std::string& id) { return tournaments_->LeagueOf(id); };
        }
        ARBITER_ASSIGN_OR_RETURN(
            store::TokenRecord record,
            access::TokenToMint(caller, AskedOf(*request), games, absl::Now(), tournament_leagues));
        if (request->request_id().empty() ||
            static_cast<int>(request->request_id().size()) > store::kMaxIdBytes) {
          return common::FieldError("request_id", "request_id is required (1-200 bytes)");
        }
        ARBITER_ASSIGN_OR_RETURN(access::NewToken token, access::GenerateToken());
        record.token_id = token.record.token_id;
        record.token_hash = token.record.token_hash;
        record.request_id = request->request_id();
        record.created_by = caller.principal;
        if (absl::Status s = tokens_.Insert(record); !s.ok()) {
          if (s.code() == absl::StatusCode::kAlreadyExists) {
            return absl::AlreadyExistsError(
                absl::StrCat("a token was already created for request_id \"", request->request_id(),
                             "\"; its secret was shown once and is not stored"));
          }
          return s;
        }
        response->set_token(token.token);
        response->set_token_id(record.token_id);
        response->set_role(request->role());
        response->set_principal(request->principal());
        if (record.expires_at.has_value()) {
          *response->mutable_expire_time() = common::PreciseTimestampOf(*record.expires_at);
        }
        return absl::OkStatus();
      });
}

grpc::Status TokenServiceImpl::RevokeToken(grpc::ServerContext* context,
                                           const v1::RevokeTokenRequest* request,
                                           v1::TokenInfo* response) {
  return Serve(context, auth_, "RevokeToken", "", request->token_id(),
               [&](const access::Caller& caller) -> absl::Status {
                 ARBITER_RETURN_IF_ERROR(access::RequireAdmin(caller));
                 if (request->token_id().empty() || request->token_id().size() > 200) {
                   return common::FieldError("token_id", "token_id is required (the part after \"arb_\")");
                 }
                 absl::StatusOr<store::TokenRecord> revoked =
                     tokens_.Revoke(request->token_id(), caller.principal, absl::Now());
                 if (!revoked.ok()) {
                   if (absl::IsNotFound(revoked.status())) {
                     return common::WithFieldViolation(
                         absl::NotFoundError(
                             absl::StrCat("no token has the id \"", request->token_id(), "\"")),
                         "token_id", "unknown token id");
                   }
                   return revoked.status();
                 }
                 auth_.Forget(request->token_id());
                 *response = ToTokenInfo(*revoked);
                 return absl::OkStatus();
               });
}

grpc::Status TokenServiceImpl::ListTokens(grpc::ServerContext* context,
                                          const v1::ListTokensRequest* request,
                                          v1::ListTokensResponse* response) {
  return Serve(context, auth_, "ListTokens", "", "", [&](const access::Caller& caller) -> absl::Status {
    ARBITER_RETURN_IF_ERROR(access::RequireAdmin(caller));
    ARBITER_ASSIGN_OR_RETURN(const int size, common::PageSizeOf(request->page_size()));
    ARBITER_ASSIGN_OR_RETURN(std::vector<store::TokenRecord> tokens, tokens_.List(request->page_token(), size + 1));
    for (int i = 0; i < static_cast<int>(tokens.size()) && i < size; ++i) {
      *response->add_tokens() = ToTokenInfo(tokens[i]);
    }
    if (static_cast<int>(tokens.size()) > size) {
      response->set_next_page_token(tokens[size - 1].token_id);
    }
    return absl::OkStatus();
  });
}

}  // namespace arbiter::server
