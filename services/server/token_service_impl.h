// TokenService: creates, lists and revokes bearer tokens (admins; organisers
// create player tokens for what they manage, access/token_requests.h).
//
// A revocation takes effect at once on this server (the Authenticator's
// cache entry is dropped) and within auth.h's kTokenCacheTtl on every other
// server. Secrets are shown once, by CreateToken; ListTokens and
// RevokeToken answer without secrets or hashes.
// Thread-safe: gRPC calls these from many threads.
#ifndef ARBITER_SERVICES_SERVER_TOKEN_SERVICE_IMPL_H_
#define ARBITER_SERVICES_SERVER_TOKEN_SERVICE_IMPL_H_

#include "arbiter/v1/arbiter_service.grpc.pb.h"
#include "services/access/authenticator.h"
#include "services/access/permissions.h"
#include "services/games/tournament_league.h"
#include "services/store/event_store.h"
#include "services/store/token_store.h"

namespace arbiter::server {

class TokenServiceImpl final : public v1::TokenService::Service {
 public:
  // `games` is read to check that a player token's games lie in an
  // organiser's scope, and `tournaments` (may be null) that its tournaments
  // are of the organiser's leagues.
  TokenServiceImpl(store::TokenStore& tokens, store::EventStore& games, access::Authenticator& auth,
                   games::TournamentLeagues* tournaments = nullptr)
      : tokens_(tokens), games_(games), auth_(auth), tournaments_(tournaments) {}

  grpc::Status CreateToken(grpc::ServerContext* context, const v1::CreateTokenRequest* request,
                           v1::CreateTokenResponse* response) override;
  grpc::Status RevokeToken(grpc::ServerContext* context, const v1::RevokeTokenRequest* request,
                           v1::TokenInfo* response) override;
  grpc::Status ListTokens(grpc::ServerContext* context, const v1::ListTokensRequest* request,
                          v1::ListTokensResponse* response) override;

 private:
  store::TokenStore& tokens_;
  store::EventStore& games_;
  access::Authenticator& auth_;
  games::TournamentLeagues* const tournaments_;
};

// The API's view of a stored token (no secret, no hash).
v1::TokenInfo ToTokenInfo(const store::TokenRecord& token);

}  // namespace arbiter::server

#endif  // ARBITER_SERVICES_SERVER_TOKEN_SERVICE_IMPL_H_
