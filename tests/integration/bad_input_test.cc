// Bad input: the right status code, a message that says what is wrong, and
// nothing stored.
#include "absl/strings/str_cat.h"
#include "tests/integration/server_fixture.h"

namespace arbiter::server::testing {
namespace {

using ::testing::HasSubstr;

TEST_F(ServerTest, AMalformedLogLineIsInvalidArgumentNamingTheLine) {
  std::string text = log::FormatLog(Simulated(41));
  text.insert(text.find('\n') + 1, "{not json\n");
  v1::SubmitGameResponse response;
  grpc::Status status = Submit(admin_, text, "bad-json", &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("line 2"));
  EXPECT_EQ(BadRequestOf(status).field_violations(0).field(), "log");
  EXPECT_EQ(StoredGames(), 0);
}

TEST_F(ServerTest, ALogWithAWrongRulesetHashIsRefused) {
  log::GameLog log = Simulated(42);
  log.header.set_ruleset_hash(std::string(64, 'a'));
  v1::SubmitGameResponse response;
  grpc::Status status = Submit(admin_, log::FormatLog(log), "bad-hash", &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_THAT(status.error_message(), HasSubstr("line 1"));
  EXPECT_EQ(StoredGames(), 0);
}

TEST_F(ServerTest, AnActionOfAnotherGameIsInvalidArgument) {
  log::GameLog log = Simulated(43);
  log.actions[3].mutable_atlantica();  // switches the oneof away from atlantis
  v1::SubmitGameResponse response;
  grpc::Status status = Submit(admin_, log::FormatLog(log), "wrong-type", &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("line 5"));
  EXPECT_EQ(StoredGames(), 0);

  v1::Game game;
  ASSERT_TRUE(Create(admin_, Simulated(43), "live-wrong-type", &game).ok());
  v1::AppendActionsResponse appended;
  grpc::Status append = Append(admin_, "live-wrong-type", 1, {log.actions[3]}, "x", &appended);
  EXPECT_EQ(append.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(append.error_message(), HasSubstr("atlantica"));
  EXPECT_EQ(Get("live-wrong-type").last_event(), 1);
}

TEST_F(ServerTest, AnUnknownPlayerInALogIsInvalidArgument) {
  log::GameLog log = Simulated(44);
  log.actions[0].set_player("stranger");
  v1::SubmitGameResponse response;
  grpc::Status status = Submit(admin_, log::FormatLog(log), "stranger", &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("stranger"));
  EXPECT_EQ(StoredGames(), 0);
}

TEST_F(ServerTest, AnUnknownGameIsNotFound) {
  v1::GetGameRequest request;
  request.set_name("games/nope");
  v1::Game game;
  grpc::Status status = stub_->GetGame(As(admin_).get(), request, &game);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_THAT(status.error_message(), HasSubstr("nope"));
  v1::AppendActionsResponse appended;
  EXPECT_EQ(Append(admin_, "nope", 1, {Simulated(45).actions[0]}, "r", &appended).error_code(),
            grpc::StatusCode::NOT_FOUND);
}

TEST_F(ServerTest, AMalformedResourceNameIsInvalidArgument) {
  v1::GetGameRequest request;
  request.set_name("game/x y");
  v1::Game game;
  grpc::Status status = stub_->GetGame(As(admin_).get(), request, &game);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(BadRequestOf(status).field_violations(0).field(), "name");
}

TEST_F(ServerTest, AnUnknownEnumValueIsInvalidArgument) {
  v1::ListGamesRequest request;
  request.set_status(static_cast<v1::GameStatus>(17));
  v1::ListGamesResponse response;
  grpc::Status status = stub_->ListGames(As(admin_).get(), request, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("17"));
}

TEST_F(ServerTest, AnOversizedMessageIsRefusedAndNothingIsStored) {
  v1::SubmitGameResponse response;
  grpc::Status status = Submit(admin_, std::string(3 << 20, 'x'), "huge", &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(StoredGames(), 0);
}

TEST_F(ServerTest, AGameBeyondTheEventLimitIsResourceExhausted) {
  ServerOptions options;
  options.listen = "127.0.0.1:0";
  options.limits.max_events_per_game = 10;
  std::unique_ptr<ArbiterServer> small = StartServer(options);
  auto stub = StubFor(*small);
  v1::SubmitGameRequest request;
  request.set_request_id("r");
  request.set_log(log::FormatLog(Simulated(46)));
  v1::SubmitGameResponse response;
  grpc::Status status = stub->SubmitGame(As(admin_).get(), request, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(ErrorInfoOf(status).reason(), "EVENT_LIMIT");
  // Parsing stopped at the limit instead of reading the whole log first.
  EXPECT_NE(status.error_message().find("the log has more than 9 actions"), std::string::npos)
      << status.error_message();
  EXPECT_EQ(StoredGames(), 0);
  small->Shutdown(std::chrono::system_clock::now());
}

TEST_F(ServerTest, WritesWithoutARequestIdAreInvalidArgument) {
  v1::SubmitGameRequest request;
  request.set_log(log::FormatLog(Simulated(47)));
  v1::SubmitGameResponse response;
  grpc::Status status = stub_->SubmitGame(As(admin_).get(), request, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(BadRequestOf(status).field_violations(0).field(), "request_id");
}

TEST_F(ServerTest, ASeedCommitmentThatIsNotASha256IsInvalidArgument) {
  v1::Game game;
  grpc::Status status = Create(admin_, Simulated(48), "bad-commitment", &game, "abc");
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(BadRequestOf(status).field_violations(0).field(), "game.seed_commitment");
  EXPECT_EQ(StoredGames(), 0);
}

}  // namespace
}  // namespace arbiter::server::testing
