// Reads from a hot standby with read-your-writes (docs/replication.md,
// "Reads from standbys"): a server whose read database is a real standby of
// the test cluster (tests/services/store/hot_standby.h), whose replay the
// tests pause and resume. A write answers its token; a read carrying it
// waits for the standby and falls back to the primary after the bound; a
// read without one may be served stale; a malformed token is refused; the
// read-only calls write nothing (the standby would refuse it); what a role
// may not see stays hidden; a league read waits for the projector.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <pqxx/pqxx>

#include <chrono>
#include <future>
#include <memory>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "arbiter/v1/tournament_service.grpc.pb.h"
#include "services/log/log_file.h"
#include "services/server/read_routing.h"
#include "services/store/pg/standby_reads.h"
#include "tests/integration/league_server_fixture.h"
#include "tests/services/store/hot_standby.h"

namespace arbiter::server::testing {
namespace {

constexpr absl::Duration kWait = absl::Milliseconds(300);

// The value of answer header `name`, or "".
std::string HeaderOf(const grpc::ClientContext& context, const char* name) {
  const auto& metadata = context.GetServerInitialMetadata();
  auto it = metadata.find(name);
  return it == metadata.end() ? "" : std::string(it->second.data(), it->second.size());
}

class StandbyReadsTest : public LeagueServerTest {
 protected:
  static void SetUpTestSuite() { standby_ = store::testing::HotStandby::Start().release(); }
  static void TearDownTestSuite() {
    delete standby_;
    standby_ = nullptr;
  }

  // The server LeagueServerTest started, replaced by one that reads from
  // the standby.
  void SetUp() override {
    LeagueServerTest::SetUp();
    ASSERT_NE(standby_, nullptr);
    // The fresh database has reached the standby.
    ASSERT_TRUE(standby_->CatchUp());
    server_->Shutdown(std::chrono::system_clock::now());
    store::pg::StandbyReadOptions options;
    options.conninfos = {standby_->ConninfoFor(pqxx::connection(conninfo_).dbname())};
    options.wait = kWait;
    reads_ = std::make_unique<store::pg::StandbyReads>(events_->pool(), options);
    StartReadingServer();
  }

  // A new server (with empty caches) reading from the standby, in place of
  // the one running; the stubs talk to it.
  void StartReadingServer() {
    if (server_ != nullptr) server_->Shutdown(std::chrono::system_clock::now());
    server_.reset();
    ServerOptions server_options;
    server_options.listen = "127.0.0.1:0";
    server_options.read_wait_ms = static_cast<int>(absl::ToInt64Milliseconds(kWait));
    StartLeagueServer(server_options, reads_.get());
    if (HasFatalFailure()) return;
    tournaments_ = v1::TournamentService::NewStub(channel_);
    token_stub_ = v1::TokenService::NewStub(channel_);
  }

  void TearDown() override {
    if (standby_ != nullptr) standby_->ResumeReplay();
    LeagueServerTest::TearDown();
    server_.reset();  // before the routing it points to
  }

  // What a write answered: its read-your-writes headers.
  struct Written {
    grpc::Status status;
    std::string read_after;
    std::string position;
  };

  Written SubmitGame(const std::string& game_id, const log::GameLog& log,
                     const std::string& league = "") {
    v1::SubmitGameRequest request;
    request.set_request_id(absl::StrCat("submit-", game_id));
    request.set_game_id(game_id);
    request.set_log(log::FormatLog(log));
    request.set_league(league);
    v1::SubmitGameResponse response;
    std::unique_ptr<grpc::ClientContext> context = As(admin_);
    Written written;
    written.status = stub_->SubmitGame(context.get(), request, &response);
    written.read_after = HeaderOf(*context, kReadAfterHeader);
    written.position = HeaderOf(*context, kPositionHeader);
    return written;
  }

  // GetGame as `token`, with `read_after` as the request's header if not
  // empty.
  grpc::Status GetGameAs(const std::string& token, const std::string& game_id,
                         const std::string& read_after = "", v1::Game* out = nullptr) {
    std::unique_ptr<grpc::ClientContext> context = As(token);
    if (!read_after.empty()) context->AddMetadata(kReadAfterHeader, read_after);
    v1::GetGameRequest request;
    request.set_name(absl::StrCat("games/", game_id));
    v1::Game game;
    return stub_->GetGame(context.get(), request, out != nullptr ? out : &game);
  }

  store::pg::StandbyReadStats Stats() const { return reads_->Stats(); }

  static store::testing::HotStandby* standby_;
  std::unique_ptr<store::pg::StandbyReads> reads_;
  std::unique_ptr<v1::TournamentService::Stub> tournaments_;
};

store::testing::HotStandby* StandbyReadsTest::standby_ = nullptr;

TEST_F(StandbyReadsTest, AReadWithAWritesTokenWaitsForAPausedStandbyThenReadsThePrimary) {
  standby_->PauseReplay();
  const Written written = SubmitGame("g1", Simulated(1));
  ASSERT_TRUE(written.status.ok()) << written.status.error_message();
  ASSERT_TRUE(store::pg::ParseWalPosition(written.read_after).ok()) << written.read_after;
  EXPECT_FALSE(written.position.empty());

  const absl::Time start = absl::Now();
  v1::Game game;
  const grpc::Status status = GetGameAs(admin_, "g1", written.read_after, &game);
  const absl::Duration took = absl::Now() - start;
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(game.name(), "games/g1");
  EXPECT_GE(took, kWait - absl::Milliseconds(20)) << "it did not wait for the standby";
  const store::pg::StandbyReadStats stats = Stats();
  EXPECT_EQ(stats.fallbacks_lag, 1);
  EXPECT_EQ(stats.served_by_standby, 0);
  EXPECT_EQ(stats.waits, 1);
}

TEST_F(StandbyReadsTest, AReadWithAWritesTokenIsServedByTheStandbyOnceItHasReplayed) {
  standby_->PauseReplay();
  const Written written = SubmitGame("g1", Simulated(1));
  ASSERT_TRUE(written.status.ok()) << written.status.error_message();
  std::thread resume([] {
    absl::SleepFor(absl::Milliseconds(100));
    standby_->ResumeReplay();
  });
  v1::Game game;
  const grpc::Status status = GetGameAs(admin_, "g1", written.read_after, &game);
  resume.join();
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(game.name(), "games/g1");
  store::pg::StandbyReadStats stats = Stats();
  EXPECT_EQ(stats.served_by_standby, 1);
  EXPECT_EQ(stats.fallbacks_lag + stats.fallbacks_unreachable, 0);
  EXPECT_GE(stats.wait_seconds_sum, 0.05) << "it did not wait for the replay";

  // The same token again: the standby is known to have passed it.
  ASSERT_TRUE(GetGameAs(admin_, "g1", written.read_after).ok());
  stats = Stats();
  EXPECT_EQ(stats.served_by_standby, 2);
  EXPECT_EQ(stats.fallbacks_lag, 0);
}

TEST_F(StandbyReadsTest, WithoutATokenAReadMayBeServedByAStandbyThatHasNotSeenTheWrite) {
  standby_->PauseReplay();
  ASSERT_TRUE(SubmitGame("g1", Simulated(1)).status.ok());
  EXPECT_EQ(GetGameAs(admin_, "g1").error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(Stats().served_by_standby, 1);
  standby_->ResumeReplay();
  ASSERT_TRUE(standby_->CatchUp());
  EXPECT_TRUE(GetGameAs(admin_, "g1").ok());
  EXPECT_EQ(Stats().served_by_standby, 2);
  EXPECT_EQ(Stats().fallbacks_lag, 0);
}

TEST_F(StandbyReadsTest, AServerWithoutAReadDatabaseAnswersNoToken) {
  ServerOptions options;
  options.listen = "127.0.0.1:0";
  std::unique_ptr<ArbiterServer> plain = StartServer(options);
  ASSERT_NE(plain, nullptr);
  v1::SubmitGameRequest request;
  request.set_request_id("submit-plain");
  request.set_log(log::FormatLog(Simulated(2)));
  v1::SubmitGameResponse response;
  std::unique_ptr<grpc::ClientContext> context = As(admin_);
  ASSERT_TRUE(StubFor(*plain)->SubmitGame(context.get(), request, &response).ok());
  EXPECT_EQ(HeaderOf(*context, kReadAfterHeader), "");
  EXPECT_EQ(HeaderOf(*context, kPositionHeader), "");
  plain->Shutdown(std::chrono::system_clock::now());
}

TEST_F(StandbyReadsTest, AMalformedTokenIsRefusedNamingTheHeaderAndItsForm) {
  ASSERT_TRUE(SubmitGame("g1", Simulated(1)).status.ok());
  for (const char* bad : {"3000148", "0/", "0/XYZ", "1/2/3", "123456789/0", " 0/1"}) {
    const grpc::Status status = GetGameAs(admin_, "g1", bad);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << bad;
    EXPECT_NE(status.error_message().find("arbiter-read-after"), std::string::npos)
        << status.error_message();
    EXPECT_NE(status.error_message().find("0/3000148"), std::string::npos)
        << status.error_message();
  }
  for (const char* bad : {"-5", "12a", "0x10", ""}) {
    std::unique_ptr<grpc::ClientContext> context = As(admin_);
    context->AddMetadata(kAfterPositionHeader, bad);
    v1::GetLeaderboardRequest request;
    request.set_league("leagues/none");
    v1::Leaderboard board;
    const grpc::Status status = leagues_->GetLeaderboard(context.get(), request, &board);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << bad;
    EXPECT_NE(status.error_message().find("arbiter-after-position"), std::string::npos)
        << status.error_message();
  }
}

TEST_F(StandbyReadsTest, EveryReadOnlyCallRunsOnTheStandbyAndWritesNothing) {
  const log::GameLog live_log = Simulated(3);
  v1::Game live;
  ASSERT_TRUE(Create(admin_, live_log, "live", &live).ok());
  ASSERT_TRUE(SubmitGame("done", Simulated(4)).status.ok());
  ASSERT_TRUE(standby_->CatchUp());

  auto expect_ok = [](const char* rpc, const grpc::Status& status) {
    EXPECT_TRUE(status.ok()) << rpc << ": " << status.error_message();
  };
  for (const char* game : {"live", "done"}) {
    v1::Game got;
    expect_ok("GetGame", GetGameAs(admin_, game, "", &got));
    v1::ListEventsRequest events;
    events.set_parent(absl::StrCat("games/", game));
    v1::ListEventsResponse listed;
    expect_ok("ListEvents", stub_->ListEvents(As(admin_).get(), events, &listed));
    v1::AdjudicateGameRequest adjudicate;
    adjudicate.set_name(absl::StrCat("games/", game));
    v1::Adjudication adjudication;
    expect_ok("AdjudicateGame", stub_->AdjudicateGame(As(admin_).get(), adjudicate, &adjudication));
    v1::VerifyGameRequest verify;
    verify.set_name(absl::StrCat("games/", game));
    v1::VerifyGameResponse verified;
    expect_ok("VerifyGame", stub_->VerifyGame(As(admin_).get(), verify, &verified));
    EXPECT_TRUE(verified.intact());
    v1::GetGameStateRequest state;
    state.set_name(absl::StrCat("games/", game));
    state.set_event(1);
    v1::GameState seen;
    expect_ok("GetGameState", stub_->GetGameState(As(admin_).get(), state, &seen));
  }
  v1::ListLegalActionsRequest moves;
  moves.set_game("games/live");
  moves.set_player(live_log.header.players(0).id());
  v1::ListLegalActionsResponse offered;
  expect_ok("ListLegalActions", stub_->ListLegalActions(As(admin_).get(), moves, &offered));
  v1::ListGamesRequest games;
  v1::ListGamesResponse listed;
  expect_ok("ListGames", stub_->ListGames(As(admin_).get(), games, &listed));
  EXPECT_EQ(listed.games_size(), 2);
  v1::ListTournamentsRequest tournaments;
  v1::ListTournamentsResponse tournament_list;
  expect_ok("ListTournaments",
            tournaments_->ListTournaments(As(admin_).get(), tournaments, &tournament_list));

  const store::pg::StandbyReadStats stats = Stats();
  EXPECT_GE(stats.served_by_standby, 10);
  EXPECT_EQ(stats.fallbacks_lag + stats.fallbacks_unreachable, 0);

  // What a mis-routed write would meet: the standby refuses it.
  store::pg::StandbyReadScope scope(*reads_, std::nullopt);
  absl::Status write = events_->pool().Run("a write in a read scope", [](pqxx::connection_base& c) {
    pqxx::work txn(c);
    EXPECT_TRUE(txn.exec1("SELECT pg_is_in_recovery()")[0].as<bool>());
    txn.exec0("UPDATE store_head SET last_position = last_position");
    txn.commit();
    return absl::OkStatus();
  });
  EXPECT_FALSE(write.ok());
  EXPECT_NE(write.message().find("read-only"), std::string::npos) << write;
}

TEST_F(StandbyReadsTest, WhatARoleMayNotSeeStaysHiddenThroughTheStandby) {
  const log::GameLog log = Simulated(5);
  v1::Game live;
  ASSERT_TRUE(Create(admin_, log, "live", &live).ok());
  const std::string player = MintPlayer(admin_, log.header.players(0).id(), {"live"});
  ASSERT_FALSE(player.empty());
  const std::string anyone = MakeToken(store::Role::kPublic, "anyone");
  ASSERT_TRUE(standby_->CatchUp());

  // The public sees nothing of a live game.
  EXPECT_EQ(GetGameAs(anyone, "live").error_code(), grpc::StatusCode::PERMISSION_DENIED);
  v1::ListEventsRequest events;
  events.set_parent("games/live");
  v1::ListEventsResponse listed;
  EXPECT_EQ(stub_->ListEvents(As(anyone).get(), events, &listed).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  v1::GetGameStateRequest state;
  state.set_name("games/live");
  v1::GameState seen;
  EXPECT_EQ(stub_->GetGameState(As(anyone).get(), state, &seen).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  v1::ListGamesRequest all;
  v1::ListGamesResponse games;
  ASSERT_TRUE(stub_->ListGames(As(anyone).get(), all, &games).ok());
  EXPECT_EQ(games.games_size(), 0);

  // A seated player reads its game without the seed, and not another
  // seat's moves.
  v1::Game got;
  ASSERT_TRUE(GetGameAs(player, "live", "", &got).ok());
  EXPECT_NE(got.seed_source_case(), v1::Game::kSeed);
  ASSERT_TRUE(stub_->ListEvents(As(player).get(), events, &listed).ok());
  ASSERT_GE(listed.events_size(), 1);
  EXPECT_EQ(listed.events(0).game_created().header().seed(), 0u);
  v1::ListLegalActionsRequest moves;
  moves.set_game("games/live");
  moves.set_player(log.header.players(1).id());
  v1::ListLegalActionsResponse offered;
  EXPECT_EQ(stub_->ListLegalActions(As(player).get(), moves, &offered).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);

  // And all of it was answered by the standby.
  EXPECT_GE(Stats().served_by_standby, 5);
  EXPECT_EQ(Stats().fallbacks_lag + Stats().fallbacks_unreachable, 0);
}

TEST_F(StandbyReadsTest, ALeagueReadWaitsForTheProjectorToPassAWritesPosition) {
  v1::CreateLeagueRequest create;
  create.set_league_id("north");
  create.set_request_id("create-north");
  create.mutable_settings()->add_game_types("atlantis");
  create.mutable_settings()->set_rating_system("plackett-luce");
  v1::League league;
  ASSERT_TRUE(leagues_->CreateLeague(As(admin_).get(), create, &league).ok());
  const Written written = SubmitGame("n1", Simulated(6), "north");
  ASSERT_TRUE(written.status.ok()) << written.status.error_message();
  ASSERT_FALSE(written.position.empty());
  const int64_t position = std::stoll(written.position);

  auto board_after = [&](int64_t after, v1::Leaderboard* board) {
    std::unique_ptr<grpc::ClientContext> context = As(admin_);
    context->AddMetadata(kAfterPositionHeader, absl::StrCat(after));
    v1::GetLeaderboardRequest request;
    request.set_league("leagues/north");
    const grpc::Status status = leagues_->GetLeaderboard(context.get(), request, board);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return std::stoll("0" + HeaderOf(*context, kProjectedPositionHeader));
  };
  // The projector (not running on its own in this test) catches up while
  // the read waits.
  std::thread project([this] {
    absl::SleepFor(absl::Milliseconds(50));
    EXPECT_TRUE(projector_->CatchUp().ok());
  });
  v1::Leaderboard board;
  const int64_t projected = board_after(position, &board);
  project.join();
  EXPECT_GE(projected, position);
  EXPECT_EQ(board.rows_size(), 3);

  // A position the projector has not reached: answered after the wait,
  // saying how far it is.
  const absl::Time start = absl::Now();
  EXPECT_LT(board_after(position + 1000, &board), position + 1000);
  EXPECT_GE(absl::Now() - start, kWait - absl::Milliseconds(20));
}

TEST_F(StandbyReadsTest, AStaleReadFromTheStandbyIsNeverTakenForTheLatestByTheCache) {
  const log::GameLog log = Simulated(7);
  v1::Game live;
  ASSERT_TRUE(Create(admin_, log, "live", &live).ok());
  ASSERT_TRUE(standby_->CatchUp());
  standby_->PauseReplay();
  v1::AppendActionsResponse appended;
  ASSERT_TRUE(Append(admin_, "live", 1, {log.actions[0]}, "move-1", &appended).ok());
  // A server whose follower starts after the move: it has heard of nothing
  // about the game, and its cache is empty.
  StartReadingServer();
  for (int i = 0; i < 500 && !server_->follower_progress().connected(); ++i) {
    absl::SleepFor(absl::Milliseconds(10));
  }
  ASSERT_TRUE(server_->follower_progress().connected());
  auto adjudicate = [&] {
    v1::AdjudicateGameRequest request;
    request.set_name("games/live");
    v1::Adjudication adjudication;
    const grpc::Status status = stub_->AdjudicateGame(As(admin_).get(), request, &adjudication);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return adjudication.last_event();
  };
  EXPECT_EQ(adjudicate(), 1) << "the paused standby has not seen the move";
  standby_->ResumeReplay();
  ASSERT_TRUE(standby_->CatchUp());
  // The first answer must not be the cache's "current" one.
  EXPECT_EQ(adjudicate(), 2);
}

TEST_F(StandbyReadsTest, WithALagBoundATokenlessReadSkipsAStandbyThatFellBehind) {
  server_->Shutdown(std::chrono::system_clock::now());
  server_.reset();  // before the routing it points to is replaced
  store::pg::StandbyReadOptions options = reads_->options();
  options.max_lag = absl::Milliseconds(300);
  reads_ = std::make_unique<store::pg::StandbyReads>(events_->pool(), options);
  StartReadingServer();
  // Caught up: within the bound, the standby serves the read.
  ASSERT_TRUE(SubmitGame("g1", Simulated(1)).status.ok());
  ASSERT_TRUE(standby_->CatchUp());
  EXPECT_TRUE(GetGameAs(admin_, "g1").ok());
  EXPECT_EQ(Stats().served_by_standby, 1);
  EXPECT_EQ(Stats().fallbacks_lag, 0);
  // Replay paused behind a write for longer than the bound: the primary
  // answers, and the write is there.
  standby_->PauseReplay();
  ASSERT_TRUE(SubmitGame("g2", Simulated(2)).status.ok());
  absl::SleepFor(absl::Milliseconds(800));
  EXPECT_TRUE(GetGameAs(admin_, "g2").ok());
  EXPECT_EQ(Stats().fallbacks_lag, 1);
  EXPECT_EQ(Stats().served_by_standby, 1);
}

}  // namespace
}  // namespace arbiter::server::testing
