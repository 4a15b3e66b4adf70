#include "services/server/token_service_impl.h"

#include "engine/core/status_macros.h"
#include "services/access/token_format.h"
#include "services/common/page.h"
#include "services/common/resource_names.h"

#include "services/common/proto_time.h"

#include <google/protobuf/util/time_util.h>

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "services/server/rpc_common.h"
#include "services/server/status_mapping.h"
#include "services/store/internal/store_rules.h"

namespace arbiter::server {
namespace {


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
        ARBITER_RETURN_IF_ERROR(access::RequireAdmin(caller));
        if (request->request_id().empty() ||
            static_cast<int>(request->request_id().size()) > store::kMaxIdBytes) {
          return common::FieldError("request_id", "request_id is required (1-200 bytes)");
        }
        store::Role role;
        switch (request->role()) {
          case v1::ROLE_ADMIN:
            role = store::Role::kAdmin;
            break;
          case v1::ROLE_ORGANISER:
            role = store::Role::kOrganiser;
            break;
          case v1::ROLE_AUDITOR:
            role = store::Role::kAuditor;
            break;
          case v1::ROLE_PUBLIC:
            role = store::Role::kPublic;
            break;
          default:
            return common::FieldError("role", absl::StrCat("role must be admin, organiser, auditor or "
                                                   "public, not the value ",
                                                   static_cast<int>(request->role())));
        }
        if (!common::IsValidId(common::IdKind::kPrincipal, request->principal())) {
          return common::FieldError("principal",
                            "principal must be 1-100 characters of A-Z a-z 0-9 _ . @ -");
        }
        for (const std::string& id : request->leagues()) {
          if (!common::IsValidId(common::IdKind::kPrincipal, id)) return common::FieldError("leagues", "a league id is malformed");
        }
        for (const std::string& id : request->tournaments()) {
          if (!common::IsValidId(common::IdKind::kPrincipal, id)) {
            return common::FieldError("tournaments", "a tournament id is malformed");
          }
        }
        ARBITER_ASSIGN_OR_RETURN(access::NewToken token, access::GenerateToken());
        token.record.role = role;
        token.record.principal = request->principal();
        token.record.leagues.assign(request->leagues().begin(), request->leagues().end());
        token.record.tournaments.assign(request->tournaments().begin(),
                                         request->tournaments().end());
        token.record.request_id = request->request_id();
        token.record.created_by = caller.principal;
        if (request->has_ttl()) {
          const absl::Duration ttl =
              absl::Seconds(request->ttl().seconds()) + absl::Nanoseconds(request->ttl().nanos());
          if (ttl < absl::Seconds(1) || ttl > absl::Hours(24 * 3660)) {
            return common::FieldError("ttl", "ttl must be 1 second to 10 years");
          }
          token.record.expires_at = absl::Now() + ttl;
        }
        if (absl::Status s = tokens_.Insert(token.record); !s.ok()) {
          if (s.code() == absl::StatusCode::kAlreadyExists) {
            return absl::AlreadyExistsError(
                absl::StrCat("a token was already created for request_id \"", request->request_id(),
                             "\"; its secret was shown once and is not stored"));
          }
          return s;
        }
        response->set_token(token.token);
        response->set_token_id(token.record.token_id);
        response->set_role(request->role());
        response->set_principal(request->principal());
        if (token.record.expires_at.has_value()) {
          *response->mutable_expire_time() = common::PreciseTimestampOf(*token.record.expires_at);
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
