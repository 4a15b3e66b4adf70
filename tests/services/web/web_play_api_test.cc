// The website's writes and live feed, over a real server and PostgreSQL:
// a move posted by the table page is the API's AppendActions for the
// signed-in token, refused (and nothing stored) without a token, from
// another site, in another form, for another seat, stale or too large;
// the live feed is WatchGame as server-sent events, limited per address.
#include <google/protobuf/util/json_util.h>
#include <httplib.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "services/web/web_server.h"
#include "services/web/write_guard.h"
#include "tests/services/web/web_test_server.h"
#include "tests/integration/server_fixture.h"

namespace arbiter::server::testing {
namespace {

using ::testing::HasSubstr;

class WebPlayTest : public ServerTest {
 protected:
  void SetUp() override {
    ServerTest::SetUp();
    if (HasFatalFailure()) return;
    web_ = StartWeb(web::WebOptions{"127.0.0.1:0", 4, 0, 100});
    ASSERT_NE(web_, nullptr);
    log_ = Simulated(3, 2);
    v1::Game game;
    ASSERT_TRUE(Create(admin_, log_, "t1", &game).ok());
    for (const v1::Player& p : log_.header.players()) seat_tokens_.push_back(MintPlayer(admin_, p.id(), {"t1"}));
  }

  void TearDown() override {
    web_.reset();
    ServerTest::TearDown();
  }

  std::unique_ptr<web::WebServer> StartWeb(const web::WebOptions& options) {
    return StartWebFor(*server_, options);
  }

  httplib::Client Http(int port = 0) { return WebClient(port == 0 ? web_->port() : port); }

  std::string Origin() const { return absl::StrCat("http://127.0.0.1:", web_->port()); }

  // The body the page posts for the log's action `i` after `expected`.
  std::string MoveBody(std::size_t i, int64_t expected, const std::string& request_id) {
    v1::AppendActionsRequest request;
    request.set_request_id(request_id);
    request.set_expected_last_event(expected);
    *request.add_actions() = log_.actions[i];
    std::string json;
    EXPECT_TRUE(google::protobuf::util::MessageToJsonString(request, &json).ok());
    return json;
  }

  httplib::Result PostMove(const std::string& token, const std::string& body,
                           httplib::Headers extra = {}, const std::string& type = "application/json") {
    httplib::Headers headers = {{"Origin", Origin()}};
    if (!token.empty()) headers.emplace("Cookie", absl::StrCat("arbiter_token=", token));
    for (auto& [k, v] : extra) {
      headers.erase(k);
      if (!v.empty()) headers.emplace(k, v);
    }
    return Http().Post("/api/games/t1/actions", headers, body, type.c_str());
  }

  // The token of the seat that plays the log's action `i`.
  const std::string& TokenOf(std::size_t i) {
    for (int s = 0; s < log_.header.players_size(); ++s) {
      if (log_.header.players(s).id() == log_.actions[i].player()) return seat_tokens_[s];
    }
    return admin_;
  }

  int64_t LastEvent() { return Get("t1").last_event(); }

  log::GameLog log_;
  std::vector<std::string> seat_tokens_;
  std::unique_ptr<web::WebServer> web_;
};

TEST_F(WebPlayTest, APlayersMoveIsTheApisAppendAndARetryStoresNothingTwice) {
  auto res = PostMove(TokenOf(0), MoveBody(0, 1, "move-1"));
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200) << res->body;
  EXPECT_THAT(res->body, HasSubstr("\"lastEvent\":\"2\""));
  EXPECT_EQ(res->get_header_value("Cache-Control"), "no-store");
  EXPECT_EQ(LastEvent(), 2);
  // The same request again (a page that lost the answer): the first answer.
  auto again = PostMove(TokenOf(0), MoveBody(0, 1, "move-1"));
  ASSERT_TRUE(again);
  EXPECT_EQ(again->status, 200);
  EXPECT_EQ(again->body, res->body);
  EXPECT_EQ(LastEvent(), 2);
  // The same move on a position that has moved on: 409, with the reason.
  auto stale = PostMove(TokenOf(0), MoveBody(0, 1, "move-1b"));
  ASSERT_TRUE(stale);
  EXPECT_EQ(stale->status, 409) << stale->body;
  EXPECT_EQ(LastEvent(), 2);
}

TEST_F(WebPlayTest, MovesAreRefusedWithTheirReasonAndNothingIsStored) {
  struct Case {
    std::string what;
    httplib::Result res;
    int status;
    std::string says;
  };
  const std::string body = MoveBody(0, 1, "m");
  std::vector<Case> cases;
  cases.push_back({"signed out", PostMove("", body), 401, "sign in first"});
  cases.push_back({"another site", PostMove(TokenOf(0), body, {{"Origin", "http://evil.example"}}), 403,
                   "comes from http://evil.example"});
  cases.push_back({"no Origin", PostMove(TokenOf(0), body, {{"Origin", ""}}), 403, "no Origin"});
  cases.push_back({"cross-site fetch", PostMove(TokenOf(0), body, {{"Sec-Fetch-Site", "cross-site"}}), 403,
                   "cross-site"});
  cases.push_back({"a form's body", PostMove(TokenOf(0), body, {}, "text/plain"), 415, "application/json"});
  cases.push_back({"not JSON", PostMove(TokenOf(0), "{actions: [", {}), 400, "not a AppendActionsRequest"});
  cases.push_back({"the game in the body", PostMove(TokenOf(0), R"({"game":"games/other","requestId":"x"})"),
                   400, "which the address gives"});
  cases.push_back({"another seat's move", PostMove(TokenOf(1), body), 403, "may not act for seat"});
  cases.push_back({"too large", PostMove(TokenOf(0), std::string(70 << 10, ' ') + body), 413, ""});
  v1::Action illegal = log_.actions[0];
  illegal.mutable_atlantis()->mutable_move()->set_figure(9);
  illegal.mutable_atlantis()->mutable_move()->clear_cards();
  std::string illegal_json;
  v1::AppendActionsRequest request;
  request.set_request_id("bad");
  request.set_expected_last_event(1);
  *request.add_actions() = illegal;
  ASSERT_TRUE(google::protobuf::util::MessageToJsonString(request, &illegal_json).ok());
  cases.push_back({"an illegal move", PostMove(TokenOf(0), illegal_json), 400, "figure"});
  for (const Case& c : cases) {
    ASSERT_TRUE(c.res) << c.what;
    EXPECT_EQ(c.res->status, c.status) << c.what << ": " << c.res->body;
    EXPECT_THAT(c.res->body, HasSubstr(c.says)) << c.what;
    if (c.status != 413) {
      EXPECT_EQ(c.res->body.find("<"), std::string::npos) << c.what;  // JSON
    }
  }
  EXPECT_EQ(LastEvent(), 1);
  // Reads of the write address, and writes elsewhere: 405 saying what is.
  auto get = Http().Get("/api/games/t1/actions");
  ASSERT_TRUE(get);
  EXPECT_EQ(get->status, 405);
  EXPECT_EQ(get->get_header_value("Allow"), "POST");
  auto elsewhere = Http().Post("/api/games/t1/state", {{"Origin", Origin()}}, "{}", "application/json");
  ASSERT_TRUE(elsewhere);
  EXPECT_EQ(elsewhere->status, 405);
}

TEST_F(WebPlayTest, TheWriteGuardChecksTheRequestsOrigin) {
  const web::WriteRequest good{true, "arbiter.example:8080", "https://arbiter.example:8080", "same-origin",
                               "application/json; charset=utf-8"};
  EXPECT_EQ(web::CheckWrite(good).status, 0);
  web::WriteRequest other_port = good;
  other_port.origin = "https://arbiter.example:9090";
  EXPECT_EQ(web::CheckWrite(other_port).status, 403);
  web::WriteRequest same_site = good;
  same_site.sec_fetch_site = "same-site";
  EXPECT_EQ(web::CheckWrite(same_site).status, 403);
  web::WriteRequest prefix = good;
  prefix.origin = "https://arbiter.example:8080.evil.example";
  EXPECT_EQ(web::CheckWrite(prefix).status, 403);
}

// The events of a server-sent-events body: id and data of each.
std::vector<std::pair<std::string, std::string>> Messages(const std::string& body) {
  std::vector<std::pair<std::string, std::string>> out;
  for (absl::string_view block : absl::StrSplit(body, "\n\n")) {
    std::string id, data;
    for (absl::string_view line : absl::StrSplit(block, '\n')) {
      if (absl::StartsWith(line, "id: ")) id = std::string(line.substr(4));
      if (absl::StartsWith(line, "data: ")) data = std::string(line.substr(6));
    }
    if (!data.empty()) out.emplace_back(id, data);
  }
  return out;
}

TEST_F(WebPlayTest, TheLiveFeedIsWatchGameAsServerSentEvents) {
  v1::AppendActionsResponse appended;
  ASSERT_TRUE(Append(admin_, "t1", 1, {log_.actions[0], log_.actions[1]}, "two", &appended).ok());
  // A seat's feed from event 1: events 2 and 3, as WatchGame answers them to
  // that token; the feed stays open (the game goes on) until its hold ends.
  web_.reset();
  web::WebOptions options{"127.0.0.1:0", 4, 0, 100};
  options.live_feed_hold_ms = 1500;
  web_ = StartWeb(options);
  ASSERT_NE(web_, nullptr);
  const httplib::Headers seat = {{"Cookie", absl::StrCat("arbiter_token=", TokenOf(0))}};
  // A browser accepts compressed answers; a compressed feed would be held
  // back until the compressor's buffer fills, so the feed is never compressed.
  httplib::Headers browser = seat;
  browser.emplace("Accept-Encoding", "gzip, deflate, br");
  auto res = Http().Get("/api/games/t1/watch?from_event=1", browser);
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200) << res->body;
  EXPECT_EQ(res->get_header_value("Content-Encoding"), "");
  EXPECT_EQ(res->get_header_value("Content-Type"), "text/event-stream");
  EXPECT_TRUE(absl::StartsWith(res->body, "retry: 1000\n\n")) << res->body;
  auto messages = Messages(res->body);
  ASSERT_EQ(messages.size(), 2u) << res->body;
  EXPECT_EQ(messages[0].first, "2");
  EXPECT_EQ(messages[1].first, "3");
  EXPECT_THAT(messages[0].second, HasSubstr("\"playersToAct\""));
  EXPECT_EQ(res->body.find("\"seed\""), std::string::npos) << "no seed for a seat of a live game";
  // The browser asks again with the last id it got: nothing is repeated.
  auto resumed = Http().Get("/api/games/t1/watch",
                            {{"Cookie", absl::StrCat("arbiter_token=", TokenOf(0))}, {"Last-Event-ID", "3"}});
  ASSERT_TRUE(resumed);
  EXPECT_EQ(Messages(resumed->body).size(), 0u) << resumed->body;
  // Not signed in, a closed live game: 404 as for an unknown one.
  auto hidden = Http().Get("/api/games/t1/watch");
  auto unknown = Http().Get("/api/games/nosuch/watch");
  ASSERT_TRUE(hidden && unknown);
  EXPECT_EQ(hidden->status, 404);
  EXPECT_EQ(hidden->body, unknown->body);
  for (const char* bad : {"/api/games/t1/watch?from_event=x", "/api/games/t1/watch?after=1"}) {
    auto refused = Http().Get(bad, seat);
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->status, 400) << bad;
  }
  // Past the game's last event: the feed says why.
  auto past = Http().Get("/api/games/t1/watch?from_event=99", seat);
  ASSERT_TRUE(past);
  EXPECT_THAT(past->body, HasSubstr("event: error"));
}

TEST_F(WebPlayTest, LiveFeedsAreLimitedPerAddress) {
  web_.reset();
  web::WebOptions options{"127.0.0.1:0", 4, 0, 100};
  options.live_feeds_per_address = 1;
  options.live_feed_hold_ms = 3000;
  web_ = StartWeb(options);
  ASSERT_NE(web_, nullptr);
  const httplib::Headers seat = {{"Cookie", absl::StrCat("arbiter_token=", TokenOf(0))}};
  std::thread first([&] {
    auto held = Http().Get("/api/games/t1/watch", seat);
    EXPECT_TRUE(held && held->status == 200);
  });
  absl::SleepFor(absl::Milliseconds(800));
  auto second = Http().Get("/api/games/t1/watch", seat);
  ASSERT_TRUE(second);
  EXPECT_EQ(second->status, 429) << second->body;
  EXPECT_EQ(second->get_header_value("Retry-After"), "5");
  first.join();
  // Once the first feed has ended, a new one opens.
  auto third = Http().Get("/api/games/t1/watch", seat);
  ASSERT_TRUE(third);
  EXPECT_EQ(third->status, 200);
}

TEST_F(WebPlayTest, AFinishedGamesFeedEndsAfterItsLastEvent) {
  v1::SubmitGameResponse submitted;
  ASSERT_TRUE(Submit(admin_, log::FormatLog(Simulated(5, 2)), "done", &submitted).ok());
  auto res = Http().Get("/api/games/done/watch");  // the public reads finished games
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200);
  auto messages = Messages(res->body);
  ASSERT_FALSE(messages.empty());
  EXPECT_EQ(messages.front().first, "1");
  EXPECT_EQ(messages.back().first, std::to_string(Get("done").last_event()));
  EXPECT_THAT(messages.back().second, HasSubstr("\"gameOver\":true"));
}

TEST_F(WebPlayTest, TheTablePageIsServedForAnyIdAndTheLegalMovesAreTheApis) {
  auto page = Http().Get("/play/t1");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_THAT(page->body, HasSubstr("/static/play.js"));
  v1::ListLegalActionsRequest request;
  request.set_game("games/t1");
  v1::ListLegalActionsResponse legal;
  ASSERT_TRUE(stub_->ListLegalActions(As(TokenOf(0)).get(), request, &legal).ok());
  std::string json;
  ASSERT_TRUE(google::protobuf::util::MessageToJsonString(legal, &json).ok());
  auto res = Http().Get("/api/games/t1/legal-actions", {{"Cookie", absl::StrCat("arbiter_token=", TokenOf(0))}});
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
  EXPECT_EQ(res->body, json);
  // Another seat's moves show its hand: refused to a seat, 404 to the public.
  auto other = Http().Get(absl::StrCat("/api/games/t1/legal-actions?player=", log_.header.players(1).id()),
                          {{"Cookie", absl::StrCat("arbiter_token=", TokenOf(0))}});
  ASSERT_TRUE(other);
  EXPECT_EQ(other->status, 404);
  auto public_moves = Http().Get(absl::StrCat("/api/games/t1/legal-actions?player=", log_.header.players(0).id()));
  ASSERT_TRUE(public_moves);
  EXPECT_EQ(public_moves->status, 404);
}

// GetGame says who is to act in a live game whose position the server can
// compute (the tournament page shows it for each table in play), and
// nothing in a sealed one.
TEST_F(WebPlayTest, GetGameSaysWhoIsToActWhenTheServerKnows) {
  v1::GetGameRequest request;
  request.set_name("games/t1");
  v1::Game game;
  ASSERT_TRUE(stub_->GetGame(As(TokenOf(1)).get(), request, &game).ok());
  ASSERT_EQ(game.players_to_act_size(), 1);
  EXPECT_EQ(game.players_to_act(0), log_.actions[0].player());
  v1::AppendActionsResponse appended;
  ASSERT_TRUE(Append(admin_, "t1", 1, {log_.actions[0]}, "first", &appended).ok());
  ASSERT_TRUE(stub_->GetGame(As(TokenOf(1)).get(), request, &game).ok());
  ASSERT_EQ(game.players_to_act_size(), 1);
  EXPECT_EQ(game.players_to_act(0), log_.actions[1].player());
  v1::Game sealed;
  ASSERT_TRUE(Create(admin_, log_, "sealed", &sealed, std::string(64, 'b')).ok());
  request.set_name("games/sealed");
  ASSERT_TRUE(stub_->GetGame(As(admin_).get(), request, &game).ok());
  EXPECT_EQ(game.players_to_act_size(), 0);
}

// An Atlantis Rising Keep names the library cards kept, which only their
// holder has seen: while the game is live, ListEvents and WatchGame give the
// others the Keep without its cards (and without the stored bytes that
// encode them); the holder, the admin and, once the game is over,
// everyone get all of it.
TEST_F(WebPlayTest, TheCardsAKeepNamesReachOnlyTheirHolderWhileTheGameIsLive) {
  log::GameLog rising;
  int keep = -1;
  for (uint64_t seed = 1; seed < 40 && keep < 0; ++seed) {
    rising = Simulated(seed, 2, "atlantis-rising");
    for (std::size_t i = 0; i < rising.actions.size(); ++i) {
      if (rising.actions[i].atlantis_rising().has_keep() &&
          rising.actions[i].atlantis_rising().keep().cards_size() > 0) {
        keep = static_cast<int>(i);
        break;
      }
    }
  }
  ASSERT_GE(keep, 0) << "no simulated game keeps a card";
  web_.reset();
  web::WebOptions options{"127.0.0.1:0", 4, 0, 100};
  options.live_feed_hold_ms = 1500;
  web_ = StartWeb(options);
  ASSERT_NE(web_, nullptr);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, rising, "rise", &game).ok());
  std::vector<v1::Action> upto(rising.actions.begin(), rising.actions.begin() + keep + 1);
  v1::AppendActionsResponse appended;
  ASSERT_TRUE(Append(admin_, "rise", 1, upto, "upto-keep", &appended).ok());
  const std::string holder = rising.actions[static_cast<std::size_t>(keep)].player();
  const std::string other = rising.header.players(0).id() == holder ? rising.header.players(1).id()
                                                                    : rising.header.players(0).id();
  const std::string holder_token = MintPlayer(admin_, holder, {"rise"});
  const std::string other_token = MintPlayer(admin_, other, {"rise"});
  const int64_t keep_event = keep + 2;
  auto event_as = [&](const std::string& token) {
    v1::ListEventsRequest request;
    request.set_parent("games/rise");
    request.set_page_size(1000);
    v1::ListEventsResponse response;
    EXPECT_TRUE(stub_->ListEvents(As(token).get(), request, &response).ok());
    for (const v1::Event& e : response.events()) {
      if (e.event() == keep_event) return e;
    }
    return v1::Event();
  };
  const v1::Event seen_by_other = event_as(other_token);
  ASSERT_TRUE(seen_by_other.action().atlantis_rising().has_keep());
  EXPECT_EQ(seen_by_other.action().atlantis_rising().keep().cards_size(), 0);
  EXPECT_TRUE(seen_by_other.payload().empty()) << "the bytes would tell the cards";
  EXPECT_FALSE(seen_by_other.hash().empty());
  EXPECT_THAT(seen_by_other.text(), HasSubstr("keeps"));
  for (const std::string& token : {holder_token, admin_}) {
    const v1::Event full = event_as(token);
    EXPECT_GT(full.action().atlantis_rising().keep().cards_size(), 0);
    EXPECT_FALSE(full.payload().empty());
  }
  // The live feed cuts it alike.
  const httplib::Headers other_cookie = {{"Cookie", absl::StrCat("arbiter_token=", other_token)}};
  auto feed = Http().Get(absl::StrCat("/api/games/rise/watch?from_event=", keep_event - 1), other_cookie);
  ASSERT_TRUE(feed);
  auto messages = Messages(feed->body);
  ASSERT_FALSE(messages.empty()) << feed->body;
  EXPECT_EQ(messages.front().first, std::to_string(keep_event));
  for (const v1::Action& a : upto) {
    for (const std::string& card : a.atlantis_rising().keep().cards()) {
      EXPECT_EQ(messages.front().second.find(absl::StrCat("\"", card, "\"")), std::string::npos) << card;
    }
  }
  // Once the game is over, everyone sees the whole log.
  std::vector<v1::Action> rest(rising.actions.begin() + keep + 1, rising.actions.end());
  ASSERT_TRUE(Append(admin_, "rise", appended.last_event(), rest, "rest", &appended).ok());
  EXPECT_GT(event_as(other_token).action().atlantis_rising().keep().cards_size(), 0);
}

// Scorer mode: the organiser whose token created a seeded table (it chose
// the seed) sees the whole position and lists every seat's moves; another
// organiser, and the creator of a dealt game, do not.
TEST_F(WebPlayTest, TheCreatorOfASeededTableScoresItAndNobodyElseSeesItsHands) {
  const std::string scorer = MakeToken(store::Role::kOrganiser, "olga");
  const std::string other = MakeToken(store::Role::kOrganiser, "oscar");
  v1::Game created;
  ASSERT_TRUE(Create(scorer, log_, "cardboard", &created).ok());
  auto state_of = [&](const std::string& token, v1::GameState* out) {
    v1::GetGameStateRequest request;
    request.set_name("games/cardboard");
    return stub_->GetGameState(As(token).get(), request, out);
  };
  auto moves_of = [&](const std::string& token, int seat, v1::ListLegalActionsResponse* out) {
    v1::ListLegalActionsRequest request;
    request.set_game("games/cardboard");
    request.set_player(log_.header.players(seat).id());
    return stub_->ListLegalActions(As(token).get(), request, out);
  };
  v1::GameState as_scorer, as_admin;
  ASSERT_TRUE(state_of(scorer, &as_scorer).ok());
  ASSERT_TRUE(state_of(admin_, &as_admin).ok());
  EXPECT_EQ(as_scorer.description(), as_admin.description()) << "the whole position";
  v1::ListLegalActionsResponse moves, admin_moves;
  ASSERT_TRUE(moves_of(scorer, 0, &moves).ok());
  ASSERT_TRUE(moves_of(admin_, 0, &admin_moves).ok());
  EXPECT_EQ(moves.actions_size(), admin_moves.actions_size());
  EXPECT_GT(moves.actions_size(), 0);
  v1::GameState denied_state;
  v1::ListLegalActionsResponse denied_moves;
  EXPECT_EQ(state_of(other, &denied_state).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(moves_of(other, 0, &denied_moves).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  // A game the organiser's token created with a commitment (the seed
  // hidden from everyone until revealed): no position for anyone yet, and
  // the scorer's rule does not apply.
  v1::Game sealed;
  ASSERT_TRUE(Create(scorer, log_, "sealed", &sealed, std::string(64, 'a')).ok());
  v1::GetGameStateRequest sealed_request;
  sealed_request.set_name("games/sealed");
  v1::GameState sealed_state;
  EXPECT_NE(stub_->GetGameState(As(scorer).get(), sealed_request, &sealed_state).error_code(),
            grpc::StatusCode::OK);
}

}  // namespace
}  // namespace arbiter::server::testing
