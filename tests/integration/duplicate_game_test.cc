// The same played game submitted twice: refused naming the stored game,
// stored on purpose only when asked, and never rated twice by a league.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <string>

#include "absl/strings/str_cat.h"
#include "arbiter/v1/league_service.grpc.pb.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "services/league/league_projector.h"
#include "services/log/log_file.h"
#include "tests/integration/league_server_fixture.h"

namespace arbiter::server::testing {
namespace {

class DuplicateGameTest : public LeagueServerTest {
 protected:
  void SetUp() override {
    LeagueServerTest::SetUp();
    v1::CreateLeagueRequest request;
    request.set_request_id("create-north");
    request.set_league_id("north");
    request.mutable_settings()->add_game_types("atlantis");
    request.mutable_settings()->set_rating_system("plackett-luce");
    v1::League league;
    ASSERT_TRUE(leagues_->CreateLeague(As(admin_).get(), request, &league).ok());
  }

  grpc::Status Submit(const std::string& game_id, const log::GameLog& log,
                      bool allow_duplicate, v1::SubmitGameResponse* response) {
    v1::SubmitGameRequest request;
    request.set_request_id(absl::StrCat("submit-", game_id));
    request.set_game_id(game_id);
    request.set_log(log::FormatLog(log));
    request.set_league("north");
    request.set_allow_duplicate(allow_duplicate);
    return stub_->SubmitGame(As(admin_).get(), request, response);
  }

  int64_t GamesOf(const std::string& player) {
    v1::GetPlayerRatingRequest request;
    request.set_league("leagues/north");
    request.set_player(player);
    v1::LeaderboardRow row;
    grpc::Status status = leagues_->GetPlayerRating(As(admin_).get(), request, &row);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return row.games();
  }
};

TEST_F(DuplicateGameTest, TheSameLogUnderAnotherIdIsRefusedNamingTheStoredGame) {
  const log::GameLog log = Simulated(7, 3);
  v1::SubmitGameResponse response;
  ASSERT_TRUE(Submit("original", log, false, &response).ok());

  // A renamed player is still the same played game.
  log::GameLog renamed = log;
  renamed.header.mutable_players(0)->set_name("Zoe, renamed");
  grpc::Status status = Submit("again", renamed, false, &response);
  ASSERT_EQ(status.error_code(), grpc::StatusCode::ALREADY_EXISTS) << status.error_message();
  EXPECT_EQ(status.error_message(),
            "this log records the same game (header and actions) as the stored game "
            "\"original\"; to store it again, marked as a duplicate and never rated, submit it "
            "with --allow-duplicate (allow_duplicate in the API)");
  google::rpc::Status details;
  ASSERT_TRUE(details.ParseFromString(status.error_details()));
  google::rpc::ErrorInfo info;
  ASSERT_TRUE(details.details(0).UnpackTo(&info));
  EXPECT_EQ(info.reason(), "DUPLICATE_GAME");
  EXPECT_EQ(info.metadata().at("game"), "original");
  v1::GetGameRequest get;
  get.set_name("games/again");
  v1::Game game;
  EXPECT_EQ(stub_->GetGame(As(admin_).get(), get, &game).error_code(),
            grpc::StatusCode::NOT_FOUND);

  // One action fewer is another game (an unfinished one).
  log::GameLog shorter = log;
  shorter.actions.pop_back();
  EXPECT_TRUE(Submit("shorter", shorter, false, &response).ok());
}

TEST_F(DuplicateGameTest, AnAllowedDuplicateIsMarkedAndTheLeagueRatesThePlayedGameOnce) {
  const log::GameLog log = Simulated(8, 3);
  v1::SubmitGameResponse response;
  ASSERT_TRUE(Submit("original", log, false, &response).ok());
  EXPECT_TRUE(response.game().duplicate_of().empty());
  ASSERT_TRUE(Submit("copy", log, true, &response).ok());
  EXPECT_EQ(response.game().duplicate_of(), "original");
  // A retry of the allowed duplicate answers the same game.
  ASSERT_TRUE(Submit("copy", log, true, &response).ok());
  EXPECT_EQ(response.game().name(), "games/copy");
  EXPECT_EQ(response.game().duplicate_of(), "original");
  // allow_duplicate on a log that repeats nothing stores it unmarked.
  ASSERT_TRUE(Submit("fresh", Simulated(9, 3), true, &response).ok());
  EXPECT_TRUE(response.game().duplicate_of().empty());

  ASSERT_TRUE(projector_->CatchUp().ok());
  const std::string player = log.header.players(0).id();
  EXPECT_EQ(GamesOf(player), 2) << "the original and the fresh game, not the copy";
  v1::RebuildLeagueRequest rebuild;
  rebuild.set_name("leagues/north");
  v1::RebuildLeagueResponse rebuilt;
  ASSERT_TRUE(leagues_->RebuildLeague(As(admin_).get(), rebuild, &rebuilt).ok());
  EXPECT_EQ(rebuilt.rated_games(), 2);
  EXPECT_EQ(GamesOf(player), 2);
}

}  // namespace
}  // namespace arbiter::server::testing
