// Who sees what: every RPC of ArbiterService, TokenService and LeagueService
// called by every role (admin, auditor, organiser of the game's league,
// organiser of another league, public, a player of the game and a player of
// another game) about a live game, and no answer,
// error or log line carrying the game's seed to a caller who may not see it
// (auth.h SeesSeed). Then the clean-answer rules: permission before
// existence, denials that name nobody, no database text in errors, unknown
// fields dropped before hashing, and log lines that caller text cannot
// forge.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <spdlog/sinks/ringbuffer_sink.h>
#include <spdlog/spdlog.h>

#include <functional>
#include <map>
#include <set>
#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "arbiter/v1/league_service.grpc.pb.h"
#include "services/access/token_format.h"
#include "services/league/league_projector.h"
#include "services/league/projection_store.h"
#include "services/log/log_file.h"
#include "services/store/postgres_stream_store.h"
#include "tests/integration/league_server_fixture.h"

namespace arbiter::server::testing {
namespace {

// Large enough that its encodings (decimal, varint) cannot occur by chance.
constexpr uint64_t kSeed = 0x5EED0F5EC2E7ABCDull;

std::string Varint(uint64_t value) {
  std::string out;
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
  return out;
}

bool ShowsSeed(const std::string& bytes) {
  return bytes.find(Varint(kSeed)) != std::string::npos ||
         bytes.find(absl::StrCat(kSeed)) != std::string::npos;
}

// What one call gave back: its status and its answer, as bytes.
struct Answer {
  std::string rpc;
  grpc::Status status;
  std::string bytes;  // the serialized answer
  bool ShowsSeed() const {
    return testing::ShowsSeed(bytes) || testing::ShowsSeed(status.error_message()) ||
           testing::ShowsSeed(status.error_details());
  }
};

class RolesTest : public LeagueServerTest {
 protected:
  void SetUp() override {
    LeagueServerTest::SetUp();
    if (HasFatalFailure()) return;
    token_stub_ = v1::TokenService::NewStub(channel_);
    log_ = std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(10'000);
    spdlog::default_logger()->sinks().push_back(log_);

    for (const char* league : {"north", "south"}) {
      v1::CreateLeagueRequest request;
      request.set_request_id(absl::StrCat("league-", league));
      request.set_league_id(league);
      request.mutable_settings()->add_game_types("atlantis");
      request.mutable_settings()->set_rating_system("elo");
      v1::League created;
      ASSERT_TRUE(leagues_->CreateLeague(As(admin_).get(), request, &created).ok());
    }
    roles_ = {{"admin", admin_},
              {"auditor", MakeToken(store::Role::kAuditor, "inspector")},
              {"organiser in scope", MakeToken(store::Role::kOrganiser, "north-org", {"north"})},
              {"organiser of another league", MakeToken(store::Role::kOrganiser, "south-org", {"south"})},
              {"public", MakeToken(store::Role::kPublic, "league-site")}};
    log_text_ = log::FormatLog(Simulated(kSeed));
    log_ptr_ = std::make_unique<log::GameLog>(Simulated(kSeed));
    const std::string seated = log_ptr_->header.players(0).id();
    roles_.emplace_back("player of the game", PlayerToken(seated, {"live"}));
    roles_.emplace_back("player of another game", PlayerToken(seated, {"elsewhere"}));
    StartLiveGame("live", "north");
  }

  void TearDown() override {
    auto& sinks = spdlog::default_logger()->sinks();
    sinks.erase(std::remove(sinks.begin(), sinks.end(), log_), sinks.end());
    ServerTest::TearDown();
  }

  // A game in `league` created by the admin with kSeed, with two actions.
  void StartLiveGame(const std::string& game_id, const std::string& league) {
    v1::CreateGameRequest request;
    request.set_request_id(absl::StrCat("create-", game_id));
    request.set_game_id(game_id);
    v1::Game& game = *request.mutable_game();
    game.set_game_type(log_ptr_->header.game());
    *game.mutable_players() = log_ptr_->header.players();
    game.set_seed(kSeed);
    game.set_league(league);
    v1::Game created;
    ASSERT_TRUE(stub_->CreateGame(As(admin_).get(), request, &created).ok());
    v1::AppendActionsResponse appended;
    ASSERT_TRUE(Append(admin_, game_id, 1, {log_ptr_->actions[0], log_ptr_->actions[1]},
                       absl::StrCat("append-", game_id), &appended)
                    .ok());
  }

  // A player token for `principal`, bound to `games`.
  std::string PlayerToken(const std::string& principal, std::vector<std::string> games) {
    absl::StatusOr<access::NewToken> token = access::GenerateToken();
    EXPECT_TRUE(token.ok());
    token->record.role = store::Role::kPlayer;
    token->record.principal = principal;
    token->record.games = std::move(games);
    token->record.created_by = "test";
    EXPECT_TRUE(tokens_->Insert(token->record).ok());
    return token->token;
  }

  template <typename Response>
  static Answer Take(const std::string& rpc, const grpc::Status& status, const Response& response) {
    return Answer{rpc, status, response.SerializeAsString()};
  }

  // Every RPC, about the live game where it names one, as `token`. Writes
  // are made so that they fail (a stale expected event, a missing reason,
  // an existing id): the game stays as it is for the next role.
  std::vector<Answer> CallEverything(const std::string& token) {
    std::vector<Answer> out;
    {
      v1::GetGameRequest r;
      r.set_name("games/live");
      v1::Game a;
      out.push_back(Take("GetGame", stub_->GetGame(As(token).get(), r, &a), a));
    }
    {
      v1::ListGamesRequest r;
      v1::ListGamesResponse a;
      out.push_back(Take("ListGames", stub_->ListGames(As(token).get(), r, &a), a));
    }
    {
      v1::ListEventsRequest r;
      r.set_parent("games/live");
      v1::ListEventsResponse a;
      out.push_back(Take("ListEvents", stub_->ListEvents(As(token).get(), r, &a), a));
    }
    {
      v1::AdjudicateGameRequest r;
      r.set_name("games/live");
      v1::Adjudication a;
      out.push_back(Take("AdjudicateGame", stub_->AdjudicateGame(As(token).get(), r, &a), a));
    }
    for (int64_t event : {0, 1, 2, 3}) {
      v1::GetGameStateRequest r;
      r.set_name("games/live");
      r.set_event(event);
      v1::GameState a;
      out.push_back(Take("GetGameState", stub_->GetGameState(As(token).get(), r, &a), a));
    }
    for (const v1::Player& seat : log_ptr_->header.players()) {
      v1::ListLegalActionsRequest r;
      r.set_game("games/live");
      r.set_player(seat.id());
      v1::ListLegalActionsResponse a;
      out.push_back(Take("ListLegalActions", stub_->ListLegalActions(As(token).get(), r, &a), a));
    }
    {
      v1::VerifyGameRequest r;
      r.set_name("games/live");
      v1::VerifyGameResponse a;
      out.push_back(Take("VerifyGame", stub_->VerifyGame(As(token).get(), r, &a), a));
    }
    {
      v1::CreateGameRequest r;
      r.set_request_id("again");
      r.set_game_id("live");
      r.mutable_game()->set_game_type("atlantis");
      *r.mutable_game()->mutable_players() = log_ptr_->header.players();
      r.mutable_game()->set_seed(1);
      r.mutable_game()->set_league("north");
      v1::Game a;
      out.push_back(Take("CreateGame", stub_->CreateGame(As(token).get(), r, &a), a));
    }
    {
      v1::AppendActionsResponse a;
      out.push_back(
          Take("AppendActions", Append(token, "live", 99, {log_ptr_->actions[2]}, "stale", &a), a));
    }
    {
      v1::SubmitGameRequest r;
      r.set_request_id("again");
      r.set_game_id("live");
      r.set_league("north");
      r.set_log(log::FormatLog(Simulated(7)));
      v1::SubmitGameResponse a;
      out.push_back(Take("SubmitGame", stub_->SubmitGame(As(token).get(), r, &a), a));
    }
    {
      v1::RevealSeedRequest r;
      r.set_game("games/live");
      r.set_request_id("reveal");
      r.set_seed(kSeed);
      r.set_nonce(std::string(32, 'a'));
      v1::RevealSeedResponse a;
      // The caller sends the seed here: only the answer is checked.
      grpc::Status status = stub_->RevealSeed(As(token).get(), r, &a);
      out.push_back(Take("RevealSeed", status, a));
    }
    {
      v1::VoidGameRequest r;
      r.set_name("games/live");
      r.set_request_id("void");
      v1::Game a;
      out.push_back(Take("VoidGame", stub_->VoidGame(As(token).get(), r, &a), a));
    }
    {
      v1::CreateTokenRequest r;
      v1::CreateTokenResponse a;
      out.push_back(Take("CreateToken", token_stub_->CreateToken(As(token).get(), r, &a), a));
    }
    {
      v1::GetLeagueRequest r;
      r.set_name("leagues/north");
      v1::League a;
      out.push_back(Take("GetLeague", leagues_->GetLeague(As(token).get(), r, &a), a));
    }
    {
      v1::ListLeaguesRequest r;
      v1::ListLeaguesResponse a;
      out.push_back(Take("ListLeagues", leagues_->ListLeagues(As(token).get(), r, &a), a));
    }
    {
      v1::GetLeaderboardRequest r;
      r.set_league("leagues/north");
      v1::Leaderboard a;
      out.push_back(Take("GetLeaderboard", leagues_->GetLeaderboard(As(token).get(), r, &a), a));
    }
    {
      v1::GetPlayerRatingRequest r;
      r.set_league("leagues/north");
      r.set_player(log_ptr_->header.players(0).id());
      v1::LeaderboardRow a;
      out.push_back(Take("GetPlayerRating", leagues_->GetPlayerRating(As(token).get(), r, &a), a));
    }
    {
      v1::GetRatingHistoryRequest r;
      r.set_league("leagues/north");
      r.set_player(log_ptr_->header.players(0).id());
      v1::RatingHistory a;
      out.push_back(
          Take("GetRatingHistory", leagues_->GetRatingHistory(As(token).get(), r, &a), a));
    }
    {
      v1::CreateLeagueRequest r;
      r.set_request_id("league-north");
      r.set_league_id("north");
      v1::League a;
      out.push_back(Take("CreateLeague", leagues_->CreateLeague(As(token).get(), r, &a), a));
    }
    {
      v1::UpdateLeagueRequest r;
      r.set_name("leagues/north");
      r.set_request_id("update");
      v1::League a;
      out.push_back(Take("UpdateLeague", leagues_->UpdateLeague(As(token).get(), r, &a), a));
    }
    {
      v1::RebuildLeagueRequest r;
      r.set_name("leagues/north");
      v1::RebuildLeagueResponse a;
      out.push_back(Take("RebuildLeague", leagues_->RebuildLeague(As(token).get(), r, &a), a));
    }
    return out;
  }

  std::vector<std::string> LogLines() { return log_->last_formatted(); }

  std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt> log_;
  std::vector<std::pair<std::string, std::string>> roles_;  // name, token
  std::string log_text_;
  std::unique_ptr<log::GameLog> log_ptr_;
};

TEST_F(RolesTest, ALiveGamesSeedReachesOnlyAdminsAndAuditorsThroughAnyRpc) {
  for (const auto& [role, token] : roles_) {
    const bool sees = role == "admin" || role == "auditor";
    bool shown_somewhere = false;
    for (const Answer& answer : CallEverything(token)) {
      if (!sees) {
        EXPECT_FALSE(answer.ShowsSeed()) << role << " learns the seed from " << answer.rpc << ": "
                                         << answer.status.error_message();
      }
      shown_somewhere = shown_somewhere || answer.ShowsSeed();
      if ((answer.rpc == "GetGameState" || answer.rpc == "ListLegalActions") && !sees &&
          role != "player of the game") {
        // A position, and a seat's moves, show hidden cards: derived from the seed.
        EXPECT_EQ(answer.status.error_code(), grpc::StatusCode::PERMISSION_DENIED)
            << role << ", " << answer.rpc;
      }
    }
    // The detector works: those who may see the seed do see it.
    EXPECT_EQ(shown_somewhere, sees) << role;
  }
  for (const std::string& line : LogLines()) {
    EXPECT_FALSE(ShowsSeed(line)) << line;
  }
  EXPECT_EQ(Get("live").last_event(), 3);
}

TEST_F(RolesTest, AnOrganiserOfAnotherLeagueOrAPlayerWritesNothingThroughAnyRpc) {
  const std::set<std::string> writes = {"CreateGame",   "AppendActions", "SubmitGame",
                                        "RevealSeed",   "CreateToken",   "CreateLeague",
                                        "UpdateLeague", "RebuildLeague"};
  const std::string seat_1 = log_ptr_->header.players(0).id();
  for (const size_t caller : {3u, 5u, 6u}) {
    const std::string& role = roles_[caller].first;
    for (const Answer& answer : CallEverything(roles_[caller].second)) {
      if (answer.rpc == "AppendActions" && role == "player of the game" &&
          log_ptr_->actions[2].player() == seat_1) {
        // Its own seat, at a stale expected event: refused as stale.
        EXPECT_EQ(answer.status.error_code(), grpc::StatusCode::ABORTED) << answer.status.error_message();
        continue;
      }
      if (writes.count(answer.rpc) > 0) {
        EXPECT_EQ(answer.status.error_code(), grpc::StatusCode::PERMISSION_DENIED)
            << role << ", " << answer.rpc << ": " << answer.status.error_message();
      }
      if (answer.rpc == "VoidGame") {
        // Refused as malformed (no reason) or as not its game: never done.
        EXPECT_FALSE(answer.status.ok()) << role;
      }
    }
  }
  EXPECT_EQ(Get("live").last_event(), 3);
  EXPECT_EQ(Get("live").status(), v1::GAME_STATUS_ACTIVE);
}

TEST_F(RolesTest, ListEventsOmitsTheSeedAndItsBytesButKeepsTheChain) {
  v1::ListEventsRequest request;
  request.set_parent("games/live");
  v1::ListEventsResponse page;
  ASSERT_TRUE(stub_->ListEvents(As(roles_[3].second).get(), request, &page).ok());
  ASSERT_EQ(page.events_size(), 3);
  EXPECT_EQ(page.events(0).game_created().header().seed(), 0u);
  EXPECT_TRUE(page.events(0).payload().empty());
  EXPECT_FALSE(page.events(0).hash().empty());
  EXPECT_FALSE(page.events(1).payload().empty());  // actions are not secret
  ASSERT_TRUE(stub_->ListEvents(As(roles_[1].second).get(), request, &page).ok());
  EXPECT_EQ(page.events(0).game_created().header().seed(), kSeed);
}

TEST_F(RolesTest, APublicTokenCannotTellAnUnknownGameFromALiveOne) {
  const std::string& site = roles_[4].second;
  for (const char* rpc :
       {"GetGame", "ListEvents", "AdjudicateGame", "GetGameState", "VerifyGame"}) {
    std::vector<grpc::Status> answers;
    for (const char* name : {"games/live", "games/no-such-game"}) {
      grpc::Status status;
      const std::string which(rpc);
      if (which == "GetGame") {
        v1::GetGameRequest r;
        r.set_name(name);
        v1::Game a;
        status = stub_->GetGame(As(site).get(), r, &a);
      } else if (which == "ListEvents") {
        v1::ListEventsRequest r;
        r.set_parent(name);
        v1::ListEventsResponse a;
        status = stub_->ListEvents(As(site).get(), r, &a);
      } else if (which == "AdjudicateGame") {
        v1::AdjudicateGameRequest r;
        r.set_name(name);
        v1::Adjudication a;
        status = stub_->AdjudicateGame(As(site).get(), r, &a);
      } else if (which == "GetGameState") {
        v1::GetGameStateRequest r;
        r.set_name(name);
        v1::GameState a;
        status = stub_->GetGameState(As(site).get(), r, &a);
      } else {
        v1::VerifyGameRequest r;
        r.set_name(name);
        v1::VerifyGameResponse a;
        status = stub_->VerifyGame(As(site).get(), r, &a);
      }
      answers.push_back(status);
    }
    EXPECT_EQ(answers[0].error_code(), grpc::StatusCode::PERMISSION_DENIED) << rpc;
    EXPECT_EQ(answers[1].error_code(), answers[0].error_code()) << rpc;
    EXPECT_EQ(absl::StrReplaceAll(answers[1].error_message(), {{"no-such-game", "live"}}),
              answers[0].error_message())
        << rpc;
  }
}

TEST_F(RolesTest, AnOrganiserOfAnotherLeagueCannotTellAnUnknownGameFromOneItMayNotWrite) {
  const std::string& south = roles_[3].second;
  for (const char* game : {"live", "no-such-game"}) {
    v1::AppendActionsResponse appended;
    grpc::Status append = Append(south, game, 3, {log_ptr_->actions[2]}, "x", &appended);
    v1::VoidGameRequest void_request;
    void_request.set_name(absl::StrCat("games/", game));
    void_request.set_request_id("v");
    void_request.set_reason("because");
    v1::Game voided;
    grpc::Status void_status = stub_->VoidGame(As(south).get(), void_request, &voided);
    v1::RevealSeedRequest reveal;
    reveal.set_game(absl::StrCat("games/", game));
    reveal.set_request_id("r");
    reveal.set_nonce(std::string(32, 'a'));
    v1::RevealSeedResponse revealed;
    grpc::Status reveal_status = stub_->RevealSeed(As(south).get(), reveal, &revealed);
    for (const grpc::Status& status : {append, void_status, reveal_status}) {
      EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED) << game;
      EXPECT_EQ(status.error_message(),
                absl::StrCat("this organiser token may not write to game \"", game,
                             "\" (games of its scope, and games it created, only)"));
    }
  }
}

TEST_F(RolesTest, AnOrganiserTokenNamedAdminDoesNotWriteToTheAdminsGames) {
  // The admin's game outside any league: only its creating token (and
  // admins) may write to it, whatever other tokens are called.
  v1::Game game;
  const log::GameLog log = Simulated(41);
  ASSERT_TRUE(Create(admin_, log, "admins-own", &game).ok());
  const std::string impostor = MakeToken(store::Role::kOrganiser, "root");
  v1::AppendActionsResponse appended;
  EXPECT_EQ(Append(impostor, "admins-own", 1, {log.actions[0]}, "i", &appended).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  // An organiser's own game is writable by the token that created it...
  const std::string alice = MakeToken(store::Role::kOrganiser, "alice");
  ASSERT_TRUE(Create(alice, log, "alices", &game).ok());
  EXPECT_TRUE(Append(alice, "alices", 1, {log.actions[0]}, "a", &appended).ok());
  // ...and not by another token that carries the same name.
  const std::string other_alice = MakeToken(store::Role::kOrganiser, "alice");
  EXPECT_EQ(Append(other_alice, "alices", 2, {log.actions[1]}, "b", &appended).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
}

TEST_F(RolesTest, UnknownFieldsOfAnActionAreDroppedBeforeHashing) {
  v1::Action action = log_ptr_->actions[2];
  action.GetReflection()->MutableUnknownFields(&action)->AddVarint(4242, 7);
  action.GetReflection()->MutableUnknownFields(&action)->AddLengthDelimited(4243, "smuggled");
  v1::AppendActionsResponse appended;
  ASSERT_TRUE(Append(admin_, "live", 3, {action}, "with-unknown", &appended).ok());
  v1::ListEventsRequest request;
  request.set_parent("games/live");
  v1::ListEventsResponse page;
  ASSERT_TRUE(stub_->ListEvents(As(admin_).get(), request, &page).ok());
  ASSERT_EQ(page.events_size(), 4);
  EXPECT_EQ(page.events(3).payload(), log_ptr_->actions[2].SerializeAsString());
  EXPECT_EQ(page.events(3).payload().find("smuggled"), std::string::npos);
}

TEST_F(RolesTest, ARepeatedAdjudicationIsNeverStale) {
  v1::AdjudicateGameRequest request;
  request.set_name("games/live");
  v1::Adjudication first;
  v1::Adjudication again;
  ASSERT_TRUE(stub_->AdjudicateGame(As(admin_).get(), request, &first).ok());
  ASSERT_TRUE(stub_->AdjudicateGame(As(admin_).get(), request, &again).ok());
  EXPECT_EQ(again.SerializeAsString(), first.SerializeAsString());
  EXPECT_EQ(first.last_event(), 3);
  v1::AppendActionsResponse appended;
  ASSERT_TRUE(Append(admin_, "live", 3, {log_ptr_->actions[2]}, "more", &appended).ok());
  v1::Adjudication after;
  ASSERT_TRUE(stub_->AdjudicateGame(As(admin_).get(), request, &after).ok());
  EXPECT_EQ(after.last_event(), 4);
  EXPECT_EQ(after.actions(), 3);
  // Permission is checked on every call, cached answer or not.
  const std::string site = roles_[4].second;
  EXPECT_EQ(stub_->AdjudicateGame(As(site).get(), request, &after).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
}

// A violation's detail may describe hidden cards: in a game whose seed a
// caller may not see (here a voided illegal game), the caller gets the rule
// and the event but not the detail; admins and auditors get all of it.
TEST_F(RolesTest, AViolationsDetailReachesOnlyThoseWhoMaySeeTheSeed) {
  log::GameLog illegal = WithActionOutOfTurn(Simulated(kSeed + 1), 4);
  v1::SubmitGameRequest submit;
  submit.set_request_id("illegal-north");
  submit.set_log(log::FormatLog(illegal));
  submit.set_league("north");
  v1::SubmitGameResponse submitted;
  ASSERT_TRUE(stub_->SubmitGame(As(admin_).get(), submit, &submitted).ok());
  const std::string full_detail = submitted.adjudication().violation().detail();
  ASSERT_EQ(submitted.adjudication().violation().rule(), "not_your_turn");
  ASSERT_FALSE(full_detail.empty());
  v1::VoidGameRequest void_request;
  void_request.set_name(submitted.game().name());
  void_request.set_request_id("void-illegal");
  void_request.set_reason("played at the wrong table");
  v1::Game voided;
  ASSERT_TRUE(stub_->VoidGame(As(admin_).get(), void_request, &voided).ok());

  v1::AdjudicateGameRequest request;
  request.set_name(submitted.game().name());
  for (int pass = 0; pass < 2; ++pass) {  // the second pass answers from the cache
    for (const auto& [role, token] : roles_) {
      v1::Adjudication answer;
      // Everyone reads a voided game (its void is the official result).
      grpc::Status status = stub_->AdjudicateGame(As(token).get(), request, &answer);
      ASSERT_TRUE(status.ok()) << role << ": " << status.error_message();
      EXPECT_EQ(answer.violation().rule(), "not_your_turn") << role;
      EXPECT_EQ(answer.violation().event(), submitted.adjudication().violation().event()) << role;
      EXPECT_EQ(answer.official().source(), v1::RESULT_SOURCE_VOIDED) << role;
      EXPECT_EQ(answer.official().reason(), "played at the wrong table") << role;
      if (role == "admin" || role == "auditor") {
        EXPECT_EQ(answer.violation().detail(), full_detail) << role;
      } else {
        EXPECT_EQ(answer.violation().detail(),
                  "withheld: the game was voided before its cards were revealed, and the detail "
                  "may describe hidden cards (admins and auditors see it)")
            << role;
      }
    }
  }
}

TEST_F(RolesTest, DatabaseTextStaysInTheServersLog) {
  {
    pqxx::connection c(conninfo_);
    pqxx::nontransaction tx(c);
    tx.exec("ALTER TABLE events RENAME TO events_moved_away");
  }
  v1::ListEventsRequest request;
  request.set_parent("games/live");
  v1::ListEventsResponse page;
  grpc::Status status = stub_->ListEvents(As(admin_).get(), request, &page);
  {
    pqxx::connection c(conninfo_);
    pqxx::nontransaction tx(c);
    tx.exec("ALTER TABLE events_moved_away RENAME TO events");
  }
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error_message().find("events"), std::string::npos) << status.error_message();
  EXPECT_EQ(status.error_message().find("relation \""), std::string::npos)
      << status.error_message();
  const std::string id = ErrorInfoOf(status).metadata().at("correlation_id");
  EXPECT_NE(status.error_message().find(id), std::string::npos);
  bool logged = false;
  for (const std::string& line : LogLines()) {
    logged = logged || (line.find(id) != std::string::npos &&
                        line.find("relation \\\"") != std::string::npos);
  }
  EXPECT_TRUE(logged) << "the log keeps the detail under the correlation id";
}

TEST_F(RolesTest, CallerTextCannotForgeOrColourALogLine) {
  const std::string hostile =
      absl::StrCat("games/x\n[2026-01-01 00:00:00.000] [arbiterd] [info] forged\x1b[2J",
                   std::string(10'000, 'A'));
  v1::GetGameRequest get;
  get.set_name(hostile);
  v1::Game game;
  EXPECT_EQ(stub_->GetGame(As(admin_).get(), get, &game).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  v1::AppendActionsRequest append;
  append.set_game("games/live");
  append.set_request_id(hostile.substr(0, 150));
  append.set_expected_last_event(3);
  *append.add_actions() = log_ptr_->actions[2];
  v1::AppendActionsResponse appended;
  stub_->AppendActions(As(admin_).get(), append, &appended);
  bool seen = false;
  for (const std::string& line : LogLines()) {
    std::string body = line;
    while (!body.empty() && (body.back() == '\n' || body.back() == '\r')) body.pop_back();
    EXPECT_EQ(body.find('\n'), std::string::npos) << body;
    EXPECT_EQ(body.find('\x1b'), std::string::npos) << body;
    EXPECT_LT(body.size(), 2000u);
    seen = seen || body.find("forged") != std::string::npos;
  }
  EXPECT_TRUE(seen) << "the hostile text is logged, escaped";
}

}  // namespace
}  // namespace arbiter::server::testing
