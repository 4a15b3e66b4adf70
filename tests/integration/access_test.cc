// Tokens and roles: who may call what.
#include "absl/strings/str_cat.h"
#include "engine/core/sha256.h"
#include "tests/integration/server_fixture.h"

namespace arbiter::server::testing {
namespace {

TEST_F(ServerTest, ACallWithoutATokenIsUnauthenticated) {
  v1::ListGamesRequest request;
  v1::ListGamesResponse response;
  grpc::Status status = stub_->ListGames(As("").get(), request, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  // Refused from its metadata before the message was read (early_auth.h):
  // gRPC's auth processors answer with a code and a message, no details.
  EXPECT_NE(status.error_message().find("no token"), std::string::npos);
}

TEST_F(ServerTest, AnUnknownTokenIsUnauthenticated) {
  v1::ListGamesRequest request;
  v1::ListGamesResponse response;
  EXPECT_EQ(stub_->ListGames(As("arb_0000_1111").get(), request, &response).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
}

TEST_F(ServerTest, AnAuditorReadsEverythingAndWritesNothing) {
  const std::string auditor = MakeToken(store::Role::kAuditor, "auditor");
  const log::GameLog log = Simulated(31);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "audited", &game).ok());
  v1::GetGameStateRequest state_request;
  state_request.set_name("games/audited");
  v1::GameState state;
  EXPECT_TRUE(stub_->GetGameState(As(auditor).get(), state_request, &state).ok());
  v1::AppendActionsResponse appended;
  grpc::Status write = Append(auditor, "audited", 1, {log.actions[0]}, "w", &appended);
  EXPECT_EQ(write.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Create(auditor, log, "by-auditor", &game).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Get("audited").last_event(), 1);
}

TEST_F(ServerTest, APublicTokenReadsFinishedGamesOnly) {
  const std::string reader = MakeToken(store::Role::kPublic, "league-site");
  const log::GameLog log = Simulated(32);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "running", &game).ok());
  v1::SubmitGameResponse submitted;
  ASSERT_TRUE(Submit(admin_, log::FormatLog(Simulated(33)), "done", &submitted).ok());

  v1::GetGameRequest get;
  get.set_name("games/running");
  EXPECT_EQ(stub_->GetGame(As(reader).get(), get, &game).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  get.set_name("games/done");
  ASSERT_TRUE(stub_->GetGame(As(reader).get(), get, &game).ok());
  EXPECT_EQ(game.seed(), 33u);  // shown once finished

  v1::AdjudicateGameRequest adjudicate;
  adjudicate.set_name("games/done");
  v1::Adjudication adjudication;
  EXPECT_TRUE(stub_->AdjudicateGame(As(reader).get(), adjudicate, &adjudication).ok());

  v1::ListGamesRequest list;
  v1::ListGamesResponse page;
  ASSERT_TRUE(stub_->ListGames(As(reader).get(), list, &page).ok());
  ASSERT_EQ(page.games_size(), 1);
  EXPECT_EQ(page.games(0).name(), "games/done");
  list.set_status(v1::GAME_STATUS_ACTIVE);
  EXPECT_EQ(stub_->ListGames(As(reader).get(), list, &page).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
}

TEST_F(ServerTest, AnOrganiserCannotWriteToAnotherOrganisersGame) {
  const std::string alice = MakeToken(store::Role::kOrganiser, "alice");
  const std::string bob = MakeToken(store::Role::kOrganiser, "bob");
  const log::GameLog log = Simulated(34);
  v1::Game game;
  ASSERT_TRUE(Create(alice, log, "first-game", &game).ok());
  EXPECT_EQ(game.creator(), "alice");
  v1::AppendActionsResponse appended;
  grpc::Status status = Append(bob, "first-game", 1, {log.actions[0]}, "b", &appended);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  // The denial names no one: not the game's creator, not the caller.
  EXPECT_EQ(status.error_message().find("alice"), std::string::npos);
  EXPECT_EQ(status.error_message().find("bob"), std::string::npos);
  EXPECT_EQ(Get("first-game").last_event(), 1);
  EXPECT_TRUE(Append(alice, "first-game", 1, {log.actions[0]}, "a", &appended).ok());
}

TEST_F(ServerTest, AnOrganiserIsScopedToTheirLeagues) {
  const std::string north = MakeToken(store::Role::kOrganiser, "north-org", {"north"});
  v1::SubmitGameRequest request;
  request.set_request_id("r");
  request.set_log(log::FormatLog(Simulated(35)));
  request.set_league("south");
  v1::SubmitGameResponse response;
  EXPECT_EQ(stub_->SubmitGame(As(north).get(), request, &response).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(StoredGames(), 0);
  request.set_league("north");
  ASSERT_TRUE(stub_->SubmitGame(As(north).get(), request, &response).ok());
  EXPECT_EQ(response.game().league(), "north");
}

TEST_F(ServerTest, OnlyAnAdminCreatesTokensAndTheNewTokenWorks) {
  const std::string organiser = MakeToken(store::Role::kOrganiser, "org");
  v1::CreateTokenRequest request;
  request.set_request_id("t1");
  request.set_role(v1::ROLE_AUDITOR);
  request.set_principal("inspector");
  v1::CreateTokenResponse response;
  EXPECT_EQ(token_stub_->CreateToken(As(organiser).get(), request, &response).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  ASSERT_TRUE(token_stub_->CreateToken(As(admin_).get(), request, &response).ok());
  EXPECT_EQ(response.token().rfind("arb_", 0), 0u);
  // Stored hashed: the secret is nowhere in the store.
  absl::StatusOr<std::optional<store::TokenRecord>> found =
      tokens_->FindByHash(engine::Sha256Hex(response.token()));
  ASSERT_TRUE(found.ok() && found->has_value());
  EXPECT_EQ((*found)->role, store::Role::kAuditor);
  const std::string secret = response.token().substr(response.token().rfind('_') + 1);
  ASSERT_GE(secret.size(), 40u);
  EXPECT_THAT(TablesHolding(secret), ::testing::IsEmpty());
  EXPECT_THAT(TablesHolding(engine::Sha256Hex(response.token())), ::testing::Contains("tokens"));
  // A repeated request id does not mint a second secret.
  EXPECT_EQ(token_stub_->CreateToken(As(admin_).get(), request, &response).error_code(),
            grpc::StatusCode::ALREADY_EXISTS);

  v1::ListGamesRequest list;
  v1::ListGamesResponse page;
  request.set_request_id("t2");
  ASSERT_TRUE(token_stub_->CreateToken(As(admin_).get(), request, &response).ok());
  EXPECT_TRUE(stub_->ListGames(As(response.token()).get(), list, &page).ok());
  request.set_request_id("t3");
  request.set_role(static_cast<v1::Role>(42));
  EXPECT_EQ(token_stub_->CreateToken(As(admin_).get(), request, &response).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
}

}  // namespace
}  // namespace arbiter::server::testing
