// Tokens' life cycle over gRPC: expiry, revocation seen by every server
// within a second, listing without secrets, and write rights that stay with
// the token.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "tests/integration/server_fixture.h"

namespace arbiter::server::testing {
namespace {

class TokenLifeCycleTest : public ServerTest {
 protected:
  v1::CreateTokenResponse NewToken(const std::string& request_id, v1::Role role,
                                   int64_t ttl_seconds = 0) {
    v1::CreateTokenRequest request;
    request.set_request_id(request_id);
    request.set_role(role);
    request.set_principal("holder");
    if (ttl_seconds > 0) request.mutable_ttl()->set_seconds(ttl_seconds);
    v1::CreateTokenResponse response;
    grpc::Status status = token_stub_->CreateToken(As(admin_).get(), request, &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return response;
  }

  static grpc::StatusCode ListWith(v1::ArbiterService::Stub& stub, const std::string& token) {
    v1::ListGamesRequest request;
    v1::ListGamesResponse page;
    return stub.ListGames(As(token).get(), request, &page).error_code();
  }

  grpc::Status Revoke(const std::string& token_id, v1::TokenInfo* out, const std::string& as = "") {
    v1::RevokeTokenRequest request;
    request.set_token_id(token_id);
    return token_stub_->RevokeToken(As(as.empty() ? admin_ : as).get(), request, out);
  }
};

TEST_F(TokenLifeCycleTest, ATokenStopsWorkingWhenItExpires) {
  const v1::CreateTokenResponse token = NewToken("short", v1::ROLE_AUDITOR, 1);
  ASSERT_TRUE(token.has_expire_time());
  EXPECT_EQ(ListWith(*stub_, token.token()), grpc::StatusCode::OK);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  v1::ListGamesRequest request;
  v1::ListGamesResponse page;
  grpc::Status status = stub_->ListGames(As(token.token()).get(), request, &page);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(status.error_message(), "the token is expired");
}

TEST_F(TokenLifeCycleTest, ATtlBelowOneSecondIsInvalid) {
  v1::CreateTokenRequest request;
  request.set_request_id("tiny");
  request.set_role(v1::ROLE_PUBLIC);
  request.set_principal("p");
  request.mutable_ttl()->set_nanos(1000);
  v1::CreateTokenResponse response;
  EXPECT_EQ(token_stub_->CreateToken(As(admin_).get(), request, &response).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(TokenLifeCycleTest, ARevokedTokenIsRefusedByEveryServerWithinASecond) {
  ServerOptions options;
  options.listen = "127.0.0.1:0";
  std::unique_ptr<ArbiterServer> other = StartServer(options);
  ASSERT_NE(other, nullptr);
  std::unique_ptr<v1::ArbiterService::Stub> other_stub = StubFor(*other);
  const v1::CreateTokenResponse token = NewToken("to-revoke", v1::ROLE_AUDITOR);
  // Both servers have the token in their caches.
  ASSERT_EQ(ListWith(*stub_, token.token()), grpc::StatusCode::OK);
  ASSERT_EQ(ListWith(*other_stub, token.token()), grpc::StatusCode::OK);

  v1::TokenInfo revoked;
  ASSERT_TRUE(Revoke(token.token_id(), &revoked).ok());
  const absl::Time at = absl::Now();
  EXPECT_TRUE(revoked.has_revoke_time());
  EXPECT_EQ(revoked.revoker(), "root");
  EXPECT_EQ(ListWith(*stub_, token.token()), grpc::StatusCode::UNAUTHENTICATED);
  while (ListWith(*other_stub, token.token()) == grpc::StatusCode::OK) {
    ASSERT_LT(absl::Now() - at, absl::Seconds(1)) << "the other server still takes the token";
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_LT(absl::Now() - at, absl::Seconds(1));
  // A repeated revocation answers the first one.
  v1::TokenInfo again;
  ASSERT_TRUE(Revoke(token.token_id(), &again).ok());
  EXPECT_EQ(again.revoke_time().seconds(), revoked.revoke_time().seconds());
  EXPECT_EQ(again.revoke_time().nanos(), revoked.revoke_time().nanos());
}

TEST_F(TokenLifeCycleTest, OnlyAnAdminRevokesAndAnUnknownIdIsNotFound) {
  const std::string organiser = MakeToken(store::Role::kOrganiser, "org");
  const v1::CreateTokenResponse token = NewToken("victim", v1::ROLE_PUBLIC);
  v1::TokenInfo info;
  EXPECT_EQ(Revoke(token.token_id(), &info, organiser).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(ListWith(*stub_, token.token()), grpc::StatusCode::OK);
  EXPECT_EQ(Revoke("no-such-token", &info).error_code(), grpc::StatusCode::NOT_FOUND);
}

TEST_F(TokenLifeCycleTest, ListTokensShowsIdsRolesAndDatesButNoSecrets) {
  const v1::CreateTokenResponse a = NewToken("a", v1::ROLE_AUDITOR, 3600);
  const v1::CreateTokenResponse b = NewToken("b", v1::ROLE_PUBLIC);
  v1::TokenInfo revoked;
  ASSERT_TRUE(Revoke(b.token_id(), &revoked).ok());
  v1::ListTokensRequest request;
  request.set_page_size(2);
  std::vector<v1::TokenInfo> all;
  while (true) {
    v1::ListTokensResponse page;
    ASSERT_TRUE(token_stub_->ListTokens(As(admin_).get(), request, &page).ok());
    const std::string bytes = page.SerializeAsString();
    for (const std::string& token : {a.token(), b.token(), admin_}) {
      EXPECT_EQ(bytes.find(token.substr(37)), std::string::npos) << "a secret is listed";
    }
    all.insert(all.end(), page.tokens().begin(), page.tokens().end());
    if (page.next_page_token().empty()) break;
    request.set_page_token(page.next_page_token());
  }
  ASSERT_EQ(all.size(), 3u);  // the admin's, a and b
  for (const v1::TokenInfo& info : all) {
    if (info.token_id() == a.token_id()) {
      EXPECT_EQ(info.role(), v1::ROLE_AUDITOR);
      EXPECT_TRUE(info.has_expire_time());
      EXPECT_FALSE(info.has_revoke_time());
    }
    if (info.token_id() == b.token_id()) {
      EXPECT_TRUE(info.has_revoke_time());
      EXPECT_EQ(info.revoker(), "root");
    }
  }
  const std::string auditor = MakeToken(store::Role::kAuditor, "reader");
  v1::ListTokensResponse page;
  EXPECT_EQ(token_stub_->ListTokens(As(auditor).get(), request, &page).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
}

TEST_F(TokenLifeCycleTest, AMalformedTokenIsRefusedWithoutALookUp) {
  // Same answer as an unknown token; no query is needed to give it.
  for (const std::string& token : {std::string("arb_0000_1111"), std::string(5000, 'x'),
                                   "arb_" + std::string(32, 'G') + "_" + std::string(64, 'a')}) {
    EXPECT_EQ(ListWith(*stub_, token), grpc::StatusCode::UNAUTHENTICATED);
  }
}

}  // namespace
}  // namespace arbiter::server::testing
