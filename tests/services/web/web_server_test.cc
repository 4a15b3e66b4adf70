// The website end to end: a real ArbiterServer with leagues over a private
// PostgreSQL, the WebServer in front of its in-process channel, and plain
// HTTP requests: status codes, limits, headers, 404 alike for unknown and
// private things, and JSON equal to the gRPC answer a public token gets.
#include "services/web/web_server.h"

#include <google/protobuf/util/json_util.h>
#include <httplib.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "arbiter/v1/league_service.grpc.pb.h"
#include "arbiter/v1/tournament_service.grpc.pb.h"
#include "services/league/league_projector.h"
#include "services/league/projection_store.h"
#include "services/log/log_file.h"
#include "services/store/postgres_stream_store.h"
#include "services/server/request_limits.h"
#include "services/web/api_routes.h"
#include "tests/services/web/web_test_server.h"
#include "tests/integration/league_server_fixture.h"

namespace arbiter::server::testing {
namespace {

constexpr char kScriptName[] = "<script>alert(1)</script>";

class WebServerTest : public LeagueServerTest {
 protected:
  void SetUp() override {
    LeagueServerTest::SetUp();
    if (HasFatalFailure()) return;
    public_ = MakeToken(store::Role::kPublic, "reader");
    web_ = StartWeb(web::WebOptions{"127.0.0.1:0", 4, 0, 100});
    ASSERT_NE(web_, nullptr);
  }

  void TearDown() override {
    web_.reset();
    ServerTest::TearDown();
  }

  std::unique_ptr<web::WebServer> StartWeb(const web::WebOptions& options) {
    return StartWebFor(*server_, options);
  }

  httplib::Client Http(int port = 0) { return WebClient(port == 0 ? web_->port() : port); }

  // A finished legal game whose first player is named like a script.
  void SubmitFinished(const std::string& game_id) {
    log::GameLog log = Simulated(7);
    log.header.mutable_players(0)->set_name(kScriptName);
    v1::SubmitGameResponse response;
    ASSERT_TRUE(Submit(admin_, log::FormatLog(log), game_id, &response).ok());
  }

  static std::string Json(const google::protobuf::Message& message) {
    std::string json;
    EXPECT_TRUE(google::protobuf::util::MessageToJsonString(message, &json).ok());
    return json;
  }

  std::string public_;
  std::unique_ptr<web::WebServer> web_;
};

TEST_F(WebServerTest, GameJsonEqualsThePublicGrpcAnswer) {
  SubmitFinished("shown");
  v1::GetGameRequest request;
  request.set_name("games/shown");
  v1::Game game;
  ASSERT_TRUE(stub_->GetGame(As(public_).get(), request, &game).ok());
  auto client = Http();
  auto res = client.Get("/api/games/shown");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
  EXPECT_EQ(res->body, Json(game));
  EXPECT_EQ(res->get_header_value("Content-Type"), "application/json; charset=utf-8");

  v1::GetGameStateRequest state_request;
  state_request.set_name("games/shown");
  state_request.set_event(5);
  v1::GameState state;
  ASSERT_TRUE(stub_->GetGameState(As(public_).get(), state_request, &state).ok());
  res = client.Get("/api/games/shown/state?event=5");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
  EXPECT_EQ(res->body, Json(state));
}

TEST_F(WebServerTest, ASignedInAuditorReadsWhatTheAuditorRoleMayAndTheCookieIsChecked) {
  v1::Game live;
  ASSERT_TRUE(Create(admin_, Simulated(3), "live", &live).ok());
  const std::string auditor = MakeToken(store::Role::kAuditor, "judge");
  v1::GetGameRequest request;
  request.set_name("games/live");
  v1::Game as_auditor;
  ASSERT_TRUE(stub_->GetGame(As(auditor).get(), request, &as_auditor).ok());
  auto client = Http();
  // The public does not see the live game; the signed-in auditor does, and
  // gets what the gRPC API gives that token (its seed included).
  EXPECT_EQ(client.Get("/api/games/live")->status, 404);
  EXPECT_EQ(client.Get("/games/live")->status, 404);
  const httplib::Headers signed_in = {{"Cookie", absl::StrCat("theme=dark; arbiter_token=", auditor)}};
  auto json = client.Get("/api/games/live", signed_in);
  ASSERT_TRUE(json);
  EXPECT_EQ(json->status, 200);
  EXPECT_EQ(json->body, Json(as_auditor));
  EXPECT_TRUE(as_auditor.has_seed());
  EXPECT_EQ(json->get_header_value("Vary"), "Cookie");
  auto page = client.Get("/games/live", signed_in);
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_EQ(client.Get("/api/games/live/events", signed_in)->status, 200);

  // A token the server does not know: 401, not a silent public view.
  const std::string unknown =
      absl::StrCat("arb_", std::string(32, 'a'), "_", std::string(64, 'b'));
  const httplib::Headers stranger = {{"Cookie", absl::StrCat("arbiter_token=", unknown)}};
  auto refused = client.Get("/api/games/live", stranger);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 401);
  EXPECT_NE(refused->body.find("sign-in token is not accepted"), std::string::npos) << refused->body;
  EXPECT_EQ(client.Get("/games/live", stranger)->status, 401);
  // Not a token at all, or two of them: 400.
  for (const std::string& cookie :
       {std::string("arbiter_token=<script>"), absl::StrCat("arbiter_token=", auditor,
                                                            "; arbiter_token=", auditor)}) {
    auto bad = client.Get("/api/games/live", {{"Cookie", cookie}});
    ASSERT_TRUE(bad);
    EXPECT_EQ(bad->status, 400) << cookie;
    EXPECT_EQ(bad->body.find("<script>"), std::string::npos);
    EXPECT_EQ(client.Get("/games/live", {{"Cookie", cookie}})->status, 400) << cookie;
  }
}

TEST_F(WebServerTest, PagesAreServedWithAPolicyThatForbidsOtherSites) {
  SubmitFinished("page");
  auto client = Http();
  for (const char* path : {"/", "/games/page", "/games/page?event=3", "/static/game.js",
                           "/static/site.css"}) {
    auto res = client.Get(path);
    ASSERT_TRUE(res) << path;
    EXPECT_EQ(res->status, 200) << path;
    EXPECT_THAT(res->get_header_value("Content-Security-Policy"),
                ::testing::HasSubstr("default-src 'none'; script-src 'self'"))
        << path;
    EXPECT_EQ(res->get_header_value("X-Content-Type-Options"), "nosniff");
  }
  EXPECT_EQ(client.Get("/static/game.js")->get_header_value("Content-Type"),
            "text/javascript; charset=utf-8");
}

TEST_F(WebServerTest, DataNeverReachesHtml) {
  SubmitFinished("named");
  auto client = Http();
  auto page = client.Get("/games/named");
  ASSERT_TRUE(page);
  EXPECT_THAT(page->body, ::testing::Not(::testing::HasSubstr("alert(1)")));
  auto json = client.Get("/api/games/named");
  ASSERT_TRUE(json);
  // In the JSON it is data (served as JSON, never sniffed as HTML).
  EXPECT_THAT(json->body, ::testing::HasSubstr("alert(1)"));
}

TEST_F(WebServerTest, UnknownAndPrivateAnswer404Alike) {
  v1::Game live;
  ASSERT_TRUE(Create(admin_, Simulated(3), "live", &live).ok());
  auto client = Http();
  auto unknown = client.Get("/api/games/nosuch");
  auto hidden = client.Get("/api/games/live");
  ASSERT_TRUE(unknown && hidden);
  EXPECT_EQ(unknown->status, 404);
  EXPECT_EQ(hidden->status, 404);
  EXPECT_EQ(unknown->body, hidden->body);
  auto unknown_page = client.Get("/games/nosuch");
  auto hidden_page = client.Get("/games/live");
  ASSERT_TRUE(unknown_page && hidden_page);
  EXPECT_EQ(unknown_page->status, 404);
  EXPECT_EQ(hidden_page->status, 404);
  EXPECT_EQ(unknown_page->body, hidden_page->body);
  for (const char* path : {"/leagues/nosuch", "/tournaments/nosuch", "/api/leagues/nosuch",
                           "/api/games/live/state", "/api/games/live/events", "/nowhere",
                           "/static/nothing.js", "/api/nothing"}) {
    auto res = client.Get(path);
    ASSERT_TRUE(res) << path;
    EXPECT_EQ(res->status, 404) << path;
  }
}

TEST_F(WebServerTest, MalformedQueriesAre400) {
  SubmitFinished("q");
  auto client = Http();
  for (const char* path :
       {"/games/q?event=abc", "/games/q?event=0", "/games/q?event=-1", "/games/q?colour=red",
        "/games/q?event=1&event=2", "/api/games/q/state?event=x", "/api/games/q/state?evnt=1",
        "/api/games?page_size=big", "/api/games/q/events?page_size=5000",
        "/leagues/x?player=%3Cb%3E"}) {
    auto res = client.Get(path);
    ASSERT_TRUE(res) << path;
    EXPECT_EQ(res->status, 400) << path << " " << res->body;
  }
}

TEST_F(WebServerTest, MethodsSizesAndLongTargets) {
  auto client = Http();
  auto post = client.Post("/", "x", "text/plain");
  ASSERT_TRUE(post);
  EXPECT_EQ(post->status, 405);
  EXPECT_EQ(post->get_header_value("Allow"), "GET, HEAD");
  auto del = client.Delete("/api/games");
  ASSERT_TRUE(del);
  EXPECT_EQ(del->status, 405);
  auto big = Http().Post("/", std::string(kSmallRequestBytes + 1, 'x'), "text/plain");
  ASSERT_TRUE(big);
  EXPECT_EQ(big->status, 413);
  // A GET announcing a body over the limit, too.
  httplib::Headers length{{"Content-Length", std::to_string(kSmallRequestBytes + 1)}};
  auto big_get = Http().Get("/", length);
  ASSERT_TRUE(big_get);
  EXPECT_EQ(big_get->status, 413);
  auto small = Http().Post("/", std::string(1000, 'x'), "text/plain");
  ASSERT_TRUE(small);
  EXPECT_EQ(small->status, 405);
  auto long_target = Http().Get(absl::StrCat("/games/", std::string(web::kMaxTargetBytes, 'a')));
  ASSERT_TRUE(long_target);
  EXPECT_EQ(long_target->status, 414);
}

TEST_F(WebServerTest, ClientsOverTheirRateGet429) {
  auto limited = StartWeb(web::WebOptions{"127.0.0.1:0", 2, 0.5, 3});
  ASSERT_NE(limited, nullptr);
  auto client = Http(limited->port());
  for (int i = 0; i < 3; ++i) {
    auto res = client.Get("/static/site.css");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 200) << i;
  }
  auto refused = client.Get("/static/site.css");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 429);
  EXPECT_EQ(refused->get_header_value("Retry-After"), "2");
}

TEST_F(WebServerTest, HealthPathsAnswerOverTheRateLimitWithoutACookie) {
  // A client over its rate still gets its probes answered: liveness, and
  // the hooks' readiness and figures.
  web::HealthHooks hooks;
  hooks.ready = [] { return web::ReadyAnswer{false, "no writable PostgreSQL: test"}; };
  hooks.metrics = [] { return std::string("arbiter_ready 0\n"); };
  auto token = server_->AddInProcessToken(store::Role::kPublic, "web");
  ASSERT_TRUE(token.ok());
  auto limited = web::WebServer::Start(web::WebOptions{"127.0.0.1:0", 2, 0.5, 3},
                                       server_->InProcessChannel(), *token, hooks);
  ASSERT_TRUE(limited.ok()) << limited.status();
  auto client = Http((*limited)->port());
  for (int i = 0; i < 4; ++i) ASSERT_EQ(client.Get("/static/site.css")->status, i < 3 ? 200 : 429);
  const httplib::Headers malformed_cookie = {{"Cookie", "arbiter_token=not-a-token"}};
  for (int i = 0; i < 10; ++i) {
    auto live = client.Get("/healthz", malformed_cookie);
    ASSERT_TRUE(live);
    EXPECT_EQ(live->status, 200);
    EXPECT_EQ(live->body, "ok\n");
    auto ready = client.Get("/readyz");
    ASSERT_TRUE(ready);
    EXPECT_EQ(ready->status, 503);
    EXPECT_EQ(ready->body, "no writable PostgreSQL: test\n");
    auto metrics = client.Get("/metrics");
    ASSERT_TRUE(metrics);
    EXPECT_EQ(metrics->status, 200);
    EXPECT_EQ(metrics->get_header_value("Content-Type"), "text/plain; version=0.0.4; charset=utf-8");
    EXPECT_EQ(metrics->get_header_value("Cache-Control"), "no-store");
  }
  EXPECT_EQ(client.Get("/static/site.css")->status, 429);
  // Without hooks (the default website of these tests) only liveness is
  // served.
  EXPECT_EQ(Http().Get("/healthz")->status, 200);
  EXPECT_EQ(Http().Get("/readyz")->status, 404);
  EXPECT_EQ(Http().Get("/metrics")->status, 404);
}

TEST_F(WebServerTest, LeagueJsonEqualsTheGrpcAnswer) {
  v1::CreateLeagueRequest create;
  create.set_request_id("create-north");
  create.set_league_id("north");
  create.mutable_settings()->add_game_types("atlantis");
  create.mutable_settings()->set_rating_system("plackett-luce");
  v1::League created;
  ASSERT_TRUE(leagues_->CreateLeague(As(admin_).get(), create, &created).ok());
  v1::GetLeaderboardRequest request;
  request.set_league("leagues/north");
  request.set_page_size(10);
  v1::Leaderboard board;
  ASSERT_TRUE(leagues_->GetLeaderboard(As(public_).get(), request, &board).ok());
  auto client = Http();
  auto res = client.Get("/api/leagues/north/leaderboard?page_size=10");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200) << res->body;
  EXPECT_EQ(res->body, Json(board));
  auto page = client.Get("/leagues/north");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
}

// The public site's tournament index, tournament and round pages, as a
// visitor with no sign-in reads them while round 1 is in play: no seed that deals a live
// table (nor the tournament's, which deals them all), and seedWithheld says
// why it is missing.
TEST_F(WebServerTest, ATournamentsLiveSeedsAreNotOnThePublicSite) {
  auto tournaments = v1::TournamentService::NewStub(server_->InProcessChannel());
  v1::CreateTournamentRequest create;
  create.set_request_id("create-cup");
  create.set_tournament_id("cup");
  v1::TournamentSettings& settings = *create.mutable_settings();
  settings.set_game_type("atlantis");
  settings.set_seed(918273645546372819);
  settings.set_rounds(1);
  settings.add_table_sizes(4);
  settings.set_preferred_table_size(4);
  for (int p : {3, 2, 1, 0}) settings.add_place_points(p);
  for (const char* player : {"ann", "bob", "cy", "dee"}) create.add_players(player);
  v1::Tournament created;
  ASSERT_TRUE(tournaments->CreateTournament(As(admin_).get(), create, &created).ok());
  v1::StartRoundRequest start;
  start.set_name("tournaments/cup");
  start.set_request_id("start-cup-1");
  start.set_round(1);
  v1::TournamentRound round;
  ASSERT_TRUE(tournaments->StartRound(As(admin_).get(), start, &round).ok());
  ASSERT_EQ(round.tables_size(), 1);
  const std::string table_seed = absl::StrCat(round.tables(0).seed());
  auto client = Http();
  for (const char* path :
       {"/api/tournaments", "/api/tournaments/cup", "/api/tournaments/cup/rounds/1"}) {
    auto res = client.Get(path);
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 200) << path << ": " << res->body;
    EXPECT_EQ(res->body.find(table_seed), std::string::npos) << path << ": " << res->body;
    EXPECT_EQ(res->body.find("918273645546372819"), std::string::npos) << path << ": " << res->body;
    EXPECT_NE(res->body.find("\"seedWithheld\":true"), std::string::npos) << path << ": " << res->body;
  }
  // The index page, filtered or not; an unknown query is refused.
  for (const auto& [path, status] : std::vector<std::pair<std::string, int>>{
           {"/tournaments", 200}, {"/tournaments?league=north", 200}, {"/tournaments?x=1", 400}}) {
    auto res = client.Get(path);
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, status) << path;
  }
}

// Every route names a method of the gRPC API that reads (the website never
// writes), with request fields of the names it sets.
TEST(ApiRoutesTest, EveryRouteNamesARealReadMethod) {
  namespace pb = google::protobuf;
  for (const web::ApiRoute& route : web::ApiRoutes()) {
    const std::size_t slash = route.rpc.rfind('/');
    const pb::ServiceDescriptor* service =
        pb::DescriptorPool::generated_pool()->FindServiceByName(route.rpc.substr(1, slash - 1));
    ASSERT_NE(service, nullptr) << route.rpc;
    const pb::MethodDescriptor* method = service->FindMethodByName(route.rpc.substr(slash + 1));
    ASSERT_NE(method, nullptr) << route.rpc;
    const std::string name = method->name();
    EXPECT_TRUE(name.rfind("Get", 0) == 0 || name.rfind("List", 0) == 0 ||
                name == "AdjudicateGame" || name == "VerifyGame")
        << name;
    for (const auto& [field, pattern] : route.path_fields) {
      EXPECT_NE(method->input_type()->FindFieldByName(field), nullptr) << route.rpc << " " << field;
    }
    for (const std::string& field : route.query_fields) {
      EXPECT_NE(method->input_type()->FindFieldByName(field), nullptr) << route.rpc << " " << field;
    }
  }
}

}  // namespace
}  // namespace arbiter::server::testing
