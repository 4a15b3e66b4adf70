// Leagues end to end: a real arbiterd server over a private PostgreSQL, games
// submitted over gRPC, the projector run step by step, and every number on
// the leaderboard checked against the pure league model fed the same results.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <pqxx/pqxx>

#include <map>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "arbiter/v1/league_service.grpc.pb.h"
#include "engine/league/league_ratings.h"
#include "services/league/league_projector.h"
#include "services/league/league_settings.h"
#include "services/league/projection_store.h"
#include "services/log/log_file.h"
#include "services/store/postgres_stream_store.h"
#include "tests/integration/league_server_fixture.h"

namespace arbiter::server::testing {
namespace {

class LeagueTest : public LeagueServerTest {
 protected:
  grpc::Status CreateLeague(const std::string& id, const std::string& system,
                            std::map<std::string, std::string> params = {},
                            const std::string& token = "") {
    v1::CreateLeagueRequest request;
    request.set_request_id(absl::StrCat("create-", id, "-", system));
    request.set_league_id(id);
    request.mutable_settings()->add_game_types("atlantis");
    request.mutable_settings()->set_rating_system(system);
    request.mutable_settings()->mutable_parameters()->insert(params.begin(), params.end());
    v1::League league;
    return leagues_->CreateLeague(As(token.empty() ? admin_ : token).get(), request, &league);
  }

  // A simulated atlantis game whose seats are taken by `players`.
  log::GameLog GameOf(uint64_t seed, const std::vector<std::string>& players) {
    log::GameLog log = Simulated(seed, static_cast<int>(players.size()));
    std::map<std::string, std::string> rename;
    for (int i = 0; i < log.header.players_size(); ++i) {
      rename[log.header.players(i).id()] = players[i];
      log.header.mutable_players(i)->set_id(players[i]);
      log.header.mutable_players(i)->set_name(players[i]);
    }
    for (v1::Action& action : log.actions) action.set_player(rename.at(action.player()));
    return log;
  }

  // Submits into `league`; returns the standings' result as the model sees it.
  void SubmitToLeague(const std::string& game_id, const log::GameLog& log,
                      const std::string& league) {
    v1::SubmitGameRequest request;
    request.set_request_id(absl::StrCat("submit-", game_id));
    request.set_game_id(game_id);
    request.set_log(log::FormatLog(log));
    request.set_league(league);
    v1::SubmitGameResponse response;
    grpc::Status status = stub_->SubmitGame(As(admin_).get(), request, &response);
    ASSERT_TRUE(status.ok()) << status.error_message();
  }

  // The league model fed the league's results as the store holds them.
  engine::league::LeagueRatings Expected(const std::string& league_id, const std::string& system,
                                 const std::vector<std::pair<std::string, std::string>>& params = {}) {
    engine::league::LeagueConfig config;
    config.game_types = {"atlantis"};
    config.rating = *engine::rating::MakeConfig(*engine::rating::ParseSystem(system), params);
    config.rating.provisional_games = 5;
    engine::league::LeagueRatings ratings(config);
    std::set<std::string> voided;
    auto results = *events_->ReadResults(0, 0, league_id, 10000);
    for (const auto& r : results) {
      if (r.kind == store::GameStatus::kVoided) voided.insert(r.event.game_id);
    }
    for (const auto& r : results) {
      if (r.kind != store::GameStatus::kFinished || voided.contains(r.event.game_id)) continue;
      EXPECT_TRUE(ratings.Add(*league::ResultOf(r), nullptr, nullptr).ok());
    }
    return ratings;
  }

  v1::Leaderboard Board(const std::string& league, int page_size = 0,
                        const std::string& token = "") {
    v1::GetLeaderboardRequest request;
    request.set_league(absl::StrCat("leagues/", league));
    request.set_page_size(page_size);
    request.set_page_token(token);
    v1::Leaderboard board;
    grpc::Status status = leagues_->GetLeaderboard(As(admin_).get(), request, &board);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return board;
  }

  void ExpectBoardMatches(const v1::Leaderboard& board, const engine::league::LeagueRatings& expected) {
    const engine::league::Table& table = expected.table("");
    int64_t people = 0;
    for (const auto& [id, r] : table) people += r.is_virtual ? 0 : 1;
    EXPECT_EQ(board.total_players(), people);
    ASSERT_EQ(board.rows_size(), people);
    double previous = 1e300;
    for (const v1::LeaderboardRow& row : board.rows()) {
      const engine::league::PlayerRating& want = table.at(row.player());
      EXPECT_EQ(row.mu(), want.rating.mu) << row.player();  // bit for bit
      EXPECT_EQ(row.sigma(), want.rating.sigma) << row.player();
      EXPECT_EQ(row.games(), want.games) << row.player();
      EXPECT_EQ(row.display_rating(), engine::rating::DisplayRating(expected.config().rating, want.rating));
      EXPECT_LE(row.display_rating(), previous);
      previous = row.display_rating();
    }
  }

};

const std::vector<std::vector<std::string>> kTables = {
    {"ann", "bob", "cy"}, {"bob", "dee", "eve"}, {"ann", "dee", "fay"},
    {"cy", "eve", "fay"}, {"ann", "bob", "eve", "fay"}, {"dee", "cy"}};

TEST_F(LeagueTest, LeaderboardComesFromTheSubmittedGames) {
  ASSERT_TRUE(CreateLeague("north", "plackett-luce").ok());
  for (std::size_t i = 0; i < kTables.size(); ++i) {
    SubmitToLeague(absl::StrCat("n", i), GameOf(100 + i, kTables[i]), "north");
  }
  ASSERT_TRUE(projector_->CatchUp().ok());
  const engine::league::LeagueRatings expected = Expected("north", "plackett-luce");
  EXPECT_EQ(expected.rated_games(), 6);
  ExpectBoardMatches(Board("north"), expected);

  // Every game of a player is in their history, naming the game.
  v1::GetRatingHistoryRequest request;
  request.set_league("leagues/north");
  request.set_player("ann");
  v1::RatingHistory history;
  ASSERT_TRUE(leagues_->GetRatingHistory(As(admin_).get(), request, &history).ok());
  ASSERT_EQ(history.points_size(), 3);
  EXPECT_EQ(history.points(0).game(), "games/n0");
  EXPECT_EQ(history.points(2).game(), "games/n4");
  EXPECT_EQ(history.points(2).mu(), expected.table("").at("ann").rating.mu);
  EXPECT_EQ(history.points(2).games(), 3);
}

TEST_F(LeagueTest, PagesCoverEveryPlayerOnceWithSharedRanks) {
  ASSERT_TRUE(CreateLeague("north", "plackett-luce").ok());
  for (std::size_t i = 0; i < kTables.size(); ++i) {
    SubmitToLeague(absl::StrCat("n", i), GameOf(200 + i, kTables[i]), "north");
  }
  ASSERT_TRUE(projector_->CatchUp().ok());
  const v1::Leaderboard whole = Board("north");
  std::vector<std::string> paged;
  std::string token;
  do {
    v1::Leaderboard page = Board("north", 2, token);
    for (const auto& row : page.rows()) {
      paged.push_back(row.player());
      EXPECT_EQ(row.rank(), whole.rows(static_cast<int>(paged.size()) - 1).rank());
    }
    token = page.next_page_token();
  } while (!token.empty());
  ASSERT_EQ(paged.size(), static_cast<std::size_t>(whole.rows_size()));
  for (int i = 0; i < whole.rows_size(); ++i) EXPECT_EQ(paged[i], whole.rows(i).player());
  EXPECT_EQ(whole.rows(0).rank(), 1);
}

TEST_F(LeagueTest, RebuildGivesTheSameBytesAndVoidingUncountsAGame) {
  ASSERT_TRUE(CreateLeague("north", "plackett-luce").ok());
  for (std::size_t i = 0; i < kTables.size(); ++i) {
    SubmitToLeague(absl::StrCat("n", i), GameOf(300 + i, kTables[i]), "north");
  }
  ASSERT_TRUE(projector_->CatchUp().ok());
  const std::string before = *projections_->Digest("north");
  v1::RebuildLeagueRequest rebuild;
  rebuild.set_name("leagues/north");
  v1::RebuildLeagueResponse rebuilt;
  ASSERT_TRUE(leagues_->RebuildLeague(As(admin_).get(), rebuild, &rebuilt).ok());
  EXPECT_EQ(rebuilt.digest(), before);
  EXPECT_EQ(rebuilt.rated_games(), 6);

  v1::VoidGameRequest void_request;
  void_request.set_name("games/n1");
  void_request.set_request_id("void-n1");
  void_request.set_reason("a player used a marked deck");
  v1::Game voided;
  grpc::Status status = stub_->VoidGame(As(admin_).get(), void_request, &voided);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(voided.status(), v1::GAME_STATUS_VOIDED);
  // A retry answers the same; a second void is refused.
  ASSERT_TRUE(stub_->VoidGame(As(admin_).get(), void_request, &voided).ok());
  void_request.set_request_id("void-n1-again");
  EXPECT_EQ(stub_->VoidGame(As(admin_).get(), void_request, &voided).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);

  ASSERT_TRUE(projector_->CatchUp().ok());
  const engine::league::LeagueRatings expected = Expected("north", "plackett-luce");
  EXPECT_EQ(expected.rated_games(), 5);
  ExpectBoardMatches(Board("north"), expected);
  EXPECT_NE(*projections_->Digest("north"), before);
  ASSERT_TRUE(leagues_->RebuildLeague(As(admin_).get(), rebuild, &rebuilt).ok());
  EXPECT_EQ(rebuilt.rated_games(), 5);
  EXPECT_EQ(rebuilt.digest(), *projections_->Digest("north"));
}

TEST_F(LeagueTest, ChangingTheSystemRebuildsTheLeague) {
  ASSERT_TRUE(CreateLeague("north", "plackett-luce").ok());
  for (std::size_t i = 0; i < kTables.size(); ++i) {
    SubmitToLeague(absl::StrCat("n", i), GameOf(400 + i, kTables[i]), "north");
  }
  ASSERT_TRUE(projector_->CatchUp().ok());
  v1::UpdateLeagueRequest update;
  update.set_name("leagues/north");
  update.set_request_id("to-elo");
  update.set_expected_last_event(1);
  update.mutable_settings()->add_game_types("atlantis");
  update.mutable_settings()->set_rating_system("elo");
  (*update.mutable_settings()->mutable_parameters())["k"] = "24";
  v1::League league;
  grpc::Status status = leagues_->UpdateLeague(As(admin_).get(), update, &league);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(league.last_event(), 2);
  EXPECT_EQ(league.rated_games(), 6);
  ExpectBoardMatches(Board("north"), Expected("north", "elo", {{"k", "24"}}));
  // A stale expected event is refused.
  update.set_request_id("to-glicko");
  update.mutable_settings()->set_rating_system("glicko2");
  update.mutable_settings()->clear_parameters();
  EXPECT_EQ(leagues_->UpdateLeague(As(admin_).get(), update, &league).error_code(),
            grpc::StatusCode::ABORTED);
}

TEST_F(LeagueTest, AnInterruptedWriteCountsNothingAndTheNextCountsEverythingOnce) {
  ASSERT_TRUE(CreateLeague("north", "plackett-luce").ok());
  ASSERT_TRUE(projector_->CatchUp().ok());
  for (std::size_t i = 0; i < kTables.size(); ++i) {
    SubmitToLeague(absl::StrCat("n", i), GameOf(500 + i, kTables[i]), "north");
  }
  {
    // The projector's transaction dies in the middle of writing the history
    // (one chunk per player: the fourth of six).
    pqxx::connection conn(conninfo_);
    pqxx::nontransaction sql(conn);
    sql.exec(
        "CREATE FUNCTION die_mid_batch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        "IF (SELECT count(*) FROM league_history_chunks) >= 3 THEN "
        "RAISE EXCEPTION 'killed mid-batch'; END IF; RETURN NEW; END $$");
    sql.exec(
        "CREATE TRIGGER die BEFORE INSERT ON league_history_chunks FOR EACH ROW "
        "EXECUTE FUNCTION die_mid_batch()");
  }
  EXPECT_FALSE(projector_->CatchUp().ok());
  {
    pqxx::connection conn(conninfo_);
    pqxx::nontransaction sql(conn);
    EXPECT_EQ(sql.exec1("SELECT count(*) FROM league_history_chunks")[0].as<int>(), 0);
    EXPECT_EQ(sql.exec1("SELECT count(*) FROM league_ratings")[0].as<int>(), 0);
    sql.exec("DROP TRIGGER die ON league_history_chunks");
  }
  // A new projector (a restart) and the old one both catch up: each game
  // counts once.
  league::LeagueProjector restarted(*events_, *events_, *streams_, *projections_);
  ASSERT_TRUE(restarted.CatchUp().ok());
  ASSERT_TRUE(projector_->CatchUp().ok());
  const engine::league::LeagueRatings expected = Expected("north", "plackett-luce");
  ExpectBoardMatches(Board("north"), expected);
  pqxx::connection conn(conninfo_);
  pqxx::nontransaction sql(conn);
  EXPECT_EQ(
      sql.exec1("SELECT sum(points) FROM league_history_chunks WHERE season = ''")[0].as<int>(),
      18);  // 3+3+3+3+4+2 seats
}

// A player with more points than one history chunk holds: the projector's
// steps append to the player's last chunk (and start the next one in the
// middle of a step), a rebuild writes the chunks whole; both store the same
// bytes (the digest) and answer GetRatingHistory the same, page by page
// across chunk boundaries, with the pure model's numbers.
TEST_F(LeagueTest, StepsAndARebuildStoreTheSameHistoryAcrossChunks) {
  ASSERT_TRUE(CreateLeague("north", "plackett-luce").ok());
  ASSERT_TRUE(projector_->CatchUp().ok());
  const std::vector<std::vector<std::string>> tables = {{"ann", "bob"}, {"ann", "cy"},
                                                        {"bob", "ann", "cy"}};
  int game = 0;
  for (int step : {20, 17, 8}) {  // ann: chunk 0 fills in the second step
    for (int i = 0; i < step; ++i, ++game) {
      SubmitToLeague(absl::StrCat("c", game), GameOf(700 + game, tables[game % 3]), "north");
    }
    ASSERT_TRUE(projector_->CatchUp().ok());
  }
  // The pure model's history of ann, fed the same results.
  engine::league::LeagueConfig config;
  config.game_types = {"atlantis"};
  config.rating = *engine::rating::MakeConfig(engine::rating::System::kPlackettLuce, {});
  config.rating.provisional_games = 5;
  engine::league::LeagueRatings model(config);
  std::vector<engine::league::HistoryPoint> points, ann;
  absl::StatusOr<std::vector<store::ResultEvent>> results =
      events_->ReadResults(0, 0, "north", 10000);
  ASSERT_TRUE(results.ok()) << results.status();
  for (const store::ResultEvent& r : *results) {
    ASSERT_TRUE(model.Add(*league::ResultOf(r), &points, nullptr).ok());
  }
  for (const engine::league::HistoryPoint& p : points) {
    if (p.player == "ann" && p.season.empty()) ann.push_back(p);
  }
  ASSERT_EQ(ann.size(), 45u);
  ASSERT_GT(ann.size(), static_cast<size_t>(league::kHistoryChunkPoints));

  auto history_pages = [&](int page_size) {
    std::vector<v1::RatingHistory> pages;
    std::string token;
    do {
      v1::GetRatingHistoryRequest request;
      request.set_league("leagues/north");
      request.set_player("ann");
      request.set_page_size(page_size);
      request.set_page_token(token);
      v1::RatingHistory page;
      grpc::Status status = leagues_->GetRatingHistory(As(admin_).get(), request, &page);
      EXPECT_TRUE(status.ok()) << status.error_message();
      if (!status.ok()) break;
      pages.push_back(page);
      token = page.next_page_token();
      if (pages.size() > 50) {  // 45 points: a token that does not move on
        ADD_FAILURE() << "GetRatingHistory pages do not end";
        break;
      }
    } while (!token.empty());
    return pages;
  };
  auto answers = [&] {
    std::vector<std::string> out;
    for (int size : {7, 32, 100}) {
      for (const v1::RatingHistory& page : history_pages(size)) {
        out.push_back(page.SerializeAsString());
      }
    }
    return out;
  };
  // Pages of 7 cross both chunk boundaries and give every point once, in
  // order, as the model computed it.
  std::vector<v1::RatingPoint> paged;
  for (const v1::RatingHistory& page : history_pages(7)) {
    for (const v1::RatingPoint& point : page.points()) paged.push_back(point);
  }
  ASSERT_EQ(paged.size(), ann.size());
  for (size_t i = 0; i < ann.size(); ++i) {
    EXPECT_EQ(paged[i].games(), static_cast<int64_t>(i) + 1);
    EXPECT_EQ(paged[i].game(), absl::StrCat("games/", ann[i].game_id)) << i;
    EXPECT_EQ(paged[i].position(), ann[i].position) << i;
    EXPECT_EQ(paged[i].mu(), ann[i].rating.mu) << i;  // bit for bit
    EXPECT_EQ(paged[i].sigma(), ann[i].rating.sigma) << i;
    EXPECT_EQ(paged[i].place(), ann[i].place) << i;
    EXPECT_EQ(paged[i].display_rating(), engine::rating::DisplayRating(config.rating, ann[i].rating)) << i;
  }
  {
    pqxx::connection conn(conninfo_);
    pqxx::nontransaction sql(conn);
    EXPECT_EQ(sql.exec1("SELECT count(*) FROM league_history_chunks WHERE player = 'ann' "
                        "AND season = ''")[0]
                  .as<int>(),
              2);
  }

  const std::string stepped = *projections_->Digest("north");
  const std::vector<std::string> stepped_answers = answers();
  ASSERT_TRUE(projector_->Rebuild("north").ok());
  EXPECT_EQ(*projections_->Digest("north"), stepped);
  EXPECT_EQ(answers(), stepped_answers);
}

TEST_F(LeagueTest, BadInputIsRefusedWithTheFieldNamed) {
  grpc::Status status = CreateLeague("north", "trueskill");
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(status.error_message().find("settings.rating_system"), std::string::npos)
      << status.error_message();
  status = CreateLeague("north", "plackett-luce", {{"sigma", "-1"}});
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(status.error_message().find("sigma"), std::string::npos) << status.error_message();
  status = CreateLeague("north", "elo", {{"k", "0"}});
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  status = CreateLeague("bad/id", "elo");
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  // Nothing was created by any of those.
  v1::ListLeaguesRequest list;
  v1::ListLeaguesResponse listed;
  ASSERT_TRUE(leagues_->ListLeagues(As(admin_).get(), list, &listed).ok());
  EXPECT_EQ(listed.leagues_size(), 0);

  v1::GetLeaderboardRequest request;
  request.set_league("leagues/nowhere");
  v1::Leaderboard board;
  EXPECT_EQ(leagues_->GetLeaderboard(As(admin_).get(), request, &board).error_code(),
            grpc::StatusCode::NOT_FOUND);

  ASSERT_TRUE(CreateLeague("north", "plackett-luce").ok());
  EXPECT_EQ(CreateLeague("north", "elo").error_code(), grpc::StatusCode::ALREADY_EXISTS);
  // The largest page size is taken (it once asked the store for 1,001).
  list.set_page_size(1000);
  grpc::Status largest = leagues_->ListLeagues(As(admin_).get(), list, &listed);
  ASSERT_TRUE(largest.ok()) << largest.error_message();
  EXPECT_EQ(listed.leagues_size(), 1);
  EXPECT_EQ(listed.next_page_token(), "");
  list.set_page_size(1001);
  EXPECT_EQ(leagues_->ListLeagues(As(admin_).get(), list, &listed).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  // A game of another type, or of an unknown league, is refused and not stored.
  v1::SubmitGameRequest submit;
  submit.set_request_id("wrong-league");
  submit.set_game_id("wrong-league");
  submit.set_log(log::FormatLog(GameOf(1, {"ann", "bob"})));
  submit.set_league("nowhere");
  v1::SubmitGameResponse response;
  status = stub_->SubmitGame(As(admin_).get(), submit, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND) << status.error_message();
  EXPECT_EQ(StoredGames(), 0);
  // An organiser of another league may not manage this one; public may read.
  const std::string other = MakeToken(store::Role::kOrganiser, "olga", {"south"});
  v1::RebuildLeagueRequest rebuild;
  rebuild.set_name("leagues/north");
  v1::RebuildLeagueResponse rebuilt;
  EXPECT_EQ(leagues_->RebuildLeague(As(other).get(), rebuild, &rebuilt).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  const std::string reader = MakeToken(store::Role::kPublic, "pat");
  request.set_league("leagues/north");
  EXPECT_TRUE(leagues_->GetLeaderboard(As(reader).get(), request, &board).ok());
  // Unknown players and seasons are NOT_FOUND, naming what is unknown.
  v1::GetPlayerRatingRequest player;
  player.set_league("leagues/north");
  player.set_player("nobody");
  v1::LeaderboardRow row;
  status = leagues_->GetPlayerRating(As(reader).get(), player, &row);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_NE(status.error_message().find("\"nobody\""), std::string::npos) << status.error_message();
  player.set_season("2031");
  status = leagues_->GetPlayerRating(As(reader).get(), player, &row);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_NE(status.error_message().find("no season \"2031\""), std::string::npos)
      << status.error_message();
  v1::GetRatingHistoryRequest history;
  history.set_league("leagues/north");
  history.set_player("nobody");
  v1::RatingHistory points;
  EXPECT_EQ(leagues_->GetRatingHistory(As(reader).get(), history, &points).error_code(),
            grpc::StatusCode::NOT_FOUND);
  history.set_page_token("-3");
  EXPECT_EQ(leagues_->GetRatingHistory(As(reader).get(), history, &points).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  request.set_page_size(1001);
  EXPECT_EQ(leagues_->GetLeaderboard(As(reader).get(), request, &board).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  request.set_page_size(0);
  request.set_page_token("zz");
  EXPECT_EQ(leagues_->GetLeaderboard(As(reader).get(), request, &board).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(LeagueTest, IllegalGamesAreNotRated) {
  ASSERT_TRUE(CreateLeague("north", "plackett-luce").ok());
  SubmitToLeague("legal", GameOf(600, {"ann", "bob", "cy"}), "north");
  SubmitToLeague("illegal", WithActionOutOfTurn(GameOf(601, {"ann", "bob", "cy"}), 3), "north");
  ASSERT_TRUE(projector_->CatchUp().ok());
  const engine::league::LeagueRatings expected = Expected("north", "plackett-luce");
  EXPECT_EQ(expected.rated_games(), 1);
  ExpectBoardMatches(Board("north"), expected);
  EXPECT_EQ(Get("illegal").status(), v1::GAME_STATUS_FINISHED);
}

// The store files a result under the games row's league (a cache); the
// projector counts it only for the league the game's chained events name.
// An operator who files a game of no league under "north" (the row's
// trigger off) before it ends changes no leaderboard.
TEST_F(LeagueTest, AResultCountsOnlyForTheLeagueItsChainNames) {
  ASSERT_TRUE(CreateLeague("north", "plackett-luce").ok());
  SubmitToLeague("counted", GameOf(610, {"ann", "bob", "cy"}), "north");
  log::GameLog log = GameOf(611, {"ann", "bob", "dee"});
  const std::vector<v1::Action> rest(log.actions.begin() + 3, log.actions.end());
  log.actions.resize(3);
  SubmitToLeague("smuggled", log, "");
  {
    pqxx::connection conn(conninfo_);
    pqxx::work txn(conn);
    txn.exec0("SET session_replication_role = replica");
    txn.exec0("UPDATE games SET league_id = 'north' WHERE game_id = 'smuggled'");
    txn.commit();
  }
  v1::AppendActionsResponse appended;
  ASSERT_TRUE(Append(admin_, "smuggled", 4, rest, "rest", &appended).ok());
  ASSERT_EQ(appended.status(), v1::GAME_STATUS_FINISHED);
  ASSERT_EQ(events_->ReadResults(0, 0, "north", 100)->size(), 2u);  // filed under north
  ASSERT_TRUE(projector_->CatchUp().ok());
  EXPECT_EQ(Board("north").total_players(), 3);  // ann, bob, cy: not dee
  ASSERT_TRUE(projector_->Rebuild("north").ok());
  EXPECT_EQ(Board("north").total_players(), 3);
}

// A league's rebuild rates the result rows (game_results, migration 0018),
// not the events: VerifyGame compares the two, so a row edited or removed in
// the database (triggers off, as an operator could) makes the game not
// intact, naming the result event.
TEST_F(LeagueTest, VerifyGameFindsAResultRowThatDisagreesWithItsEvent) {
  ASSERT_TRUE(CreateLeague("north", "plackett-luce").ok());
  SubmitToLeague("kept", GameOf(620, {"ann", "bob", "cy"}), "north");
  auto verify = [&] {
    v1::VerifyGameRequest request;
    request.set_name("games/kept");
    v1::VerifyGameResponse response;
    const grpc::Status status = stub_->VerifyGame(As(admin_).get(), request, &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return response;
  };
  const v1::VerifyGameResponse intact = verify();
  ASSERT_TRUE(intact.intact()) << intact.problem();
  const int64_t last = intact.events();  // the game_finished event
  auto edit = [&](const std::string& statement) {
    pqxx::connection conn(conninfo_);
    pqxx::work txn(conn);
    txn.exec0("SET session_replication_role = replica");
    txn.exec0(statement);
    txn.commit();
  };
  struct Case {
    std::string edit;
    std::string undo;
    std::string problem;
  };
  const std::vector<Case> cases = {
      {"UPDATE game_results SET payload = payload || '\\x00'::bytea WHERE game_id = 'kept'",
       "UPDATE game_results SET payload = substring(payload FROM 1 FOR length(payload) - 1) "
       "WHERE game_id = 'kept'",
       "holds another payload than the event: a league's rebuild would rate the row"},
      {"UPDATE game_results SET recorded_micros = recorded_micros + 1 WHERE game_id = 'kept'",
       "UPDATE game_results SET recorded_micros = recorded_micros - 1 WHERE game_id = 'kept'",
       "gives another time than the event"},
      {"UPDATE game_results SET kind = 'voided' WHERE game_id = 'kept'",
       "UPDATE game_results SET kind = 'finished' WHERE game_id = 'kept'",
       "says the game was voided"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.edit);
    edit(c.edit);
    const v1::VerifyGameResponse response = verify();
    EXPECT_FALSE(response.intact());
    EXPECT_EQ(response.first_bad_event(), last);
    EXPECT_TRUE(absl::StrContains(response.problem(), c.problem)) << response.problem();
    EXPECT_TRUE(absl::StartsWith(response.problem(), absl::StrCat("the result row of event ", last)))
        << response.problem();
    edit(c.undo);
    EXPECT_TRUE(verify().intact());
  }
  edit("DELETE FROM game_results WHERE game_id = 'kept'");
  const v1::VerifyGameResponse missing = verify();
  EXPECT_FALSE(missing.intact());
  EXPECT_EQ(missing.first_bad_event(), last);
  EXPECT_TRUE(absl::StrContains(missing.problem(), "game_results has no row at its position"))
      << missing.problem();

  // Who sees the report: a public token may verify a finished game (its
  // integrity is public), and a voided one, whose void and reason are the
  // official result.
  const std::string site = MakeToken(store::Role::kPublic, "site");
  v1::VerifyGameRequest request;
  request.set_name("games/kept");
  v1::VerifyGameResponse seen;
  ASSERT_TRUE(stub_->VerifyGame(As(site).get(), request, &seen).ok());
  EXPECT_EQ(seen.problem(), missing.problem());
  v1::VoidGameRequest void_request;
  void_request.set_name("games/kept");
  void_request.set_request_id("void-kept");
  void_request.set_reason("its result row was tampered with");
  v1::Game voided;
  ASSERT_TRUE(stub_->VoidGame(As(admin_).get(), void_request, &voided).ok());
  v1::VerifyGameResponse after_void;
  ASSERT_TRUE(stub_->VerifyGame(As(site).get(), request, &after_void).ok());
  EXPECT_EQ(after_void.problem(), missing.problem());
  EXPECT_FALSE(verify().intact());  // the admin still sees the missing row
}

}  // namespace
}  // namespace arbiter::server::testing
