// What the API promises of each request's fields (arbiter_service.proto):
// defaults, limits, pages, retries with other content, reading events back,
// public readers, and live play and submission for every game.
#include "absl/strings/str_cat.h"
#include "engine/core/ruleset_registry.h"
#include "engine/core/seed_derivation.h"
#include "services/games/game_events.h"
#include "tests/integration/server_fixture.h"

namespace arbiter::server::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr char kNonce[] = "00112233445566778899aabbccddeeff";

const engine::RegisteredRuleset& DefaultRuleset(const std::string& game) {
  static const engine::RulesetRegistry* const registry =
      new engine::RulesetRegistry(*engine::RulesetRegistry::WithBuiltins());
  return *registry->DefaultFor(game);
}

class RequestsTest : public ServerTest {
 protected:
  // A CreateGameRequest for the log's game with only what is required.
  static v1::CreateGameRequest MinimalCreate(const log::GameLog& log, const std::string& game_id) {
    v1::CreateGameRequest request;
    request.set_request_id(absl::StrCat("create-", game_id));
    request.set_game_id(game_id);
    request.mutable_game()->set_game_type(log.header.game());
    *request.mutable_game()->mutable_players() = log.header.players();
    request.mutable_game()->set_seed(log.header.seed());
    return request;
  }

  grpc::Status CreateWith(const v1::CreateGameRequest& request, v1::Game* out) {
    return stub_->CreateGame(As(admin_).get(), request, out);
  }

  // Reveals `seed` with kNonce, as the admin.
  grpc::Status Reveal(const std::string& game_id, uint64_t seed, v1::RevealSeedResponse* out) {
    v1::RevealSeedRequest request;
    request.set_game(absl::StrCat("games/", game_id));
    request.set_request_id(absl::StrCat("reveal-", game_id));
    request.set_seed(seed);
    request.set_nonce(kNonce);
    return stub_->RevealSeed(As(admin_).get(), request, out);
  }

  // Plays `actions` one call each, from event `last`; returns the last answer.
  v1::AppendActionsResponse PlayLive(const std::string& game_id, int64_t last,
                                     const std::vector<v1::Action>& actions) {
    v1::AppendActionsResponse response;
    for (std::size_t i = 0; i < actions.size(); ++i) {
      grpc::Status status =
          Append(admin_, game_id, last, {actions[i]}, absl::StrCat("live-", last), &response);
      EXPECT_TRUE(status.ok()) << game_id << " action " << i << ": " << status.error_message();
      if (!status.ok()) break;
      last = response.last_event();
    }
    return response;
  }
};

TEST_F(RequestsTest, CreateGameWithoutARulesetUsesTheGamesDefault) {
  const log::GameLog log = Simulated(70, 2);
  v1::Game game;
  ASSERT_TRUE(CreateWith(MinimalCreate(log, "default-ruleset"), &game).ok());
  EXPECT_EQ(game.ruleset_id(), "atlantis-amigo-2009");
  EXPECT_EQ(game.ruleset_hash(), DefaultRuleset("atlantis").hash);
}

TEST_F(RequestsTest, CreateGameWithOnlyARulesetIdFillsInItsHash) {
  const log::GameLog log = Simulated(71, 2);
  v1::CreateGameRequest request = MinimalCreate(log, "id-only");
  request.mutable_game()->set_ruleset_id("atlantis-amigo-2009");
  v1::Game game;
  ASSERT_TRUE(CreateWith(request, &game).ok());
  EXPECT_EQ(game.ruleset_hash(), DefaultRuleset("atlantis").hash);

  request = MinimalCreate(log, "unknown-id");
  request.mutable_game()->set_ruleset_id("atlantis-nowhere");
  grpc::Status status = CreateWith(request, &game);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  // The unknown id is not found, so the header names no ruleset: the answer
  // says what to name instead.
  EXPECT_EQ(status.error_message(),
            absl::StrCat("the header must name ruleset_id and ruleset_hash; the default ruleset "
                         "is atlantis-amigo-2009 with hash ",
                         DefaultRuleset("atlantis").hash));
  ASSERT_EQ(BadRequestOf(status).field_violations_size(), 1);
  EXPECT_EQ(BadRequestOf(status).field_violations(0).field(), "game");
  EXPECT_EQ(StoredGames(), 1);
}

TEST_F(RequestsTest, CreateGameWithOnlyARulesetHashIsRefusedNamingTheMissingId) {
  const log::GameLog log = Simulated(72, 2);
  v1::CreateGameRequest request = MinimalCreate(log, "hash-only");
  request.mutable_game()->set_ruleset_hash(DefaultRuleset("atlantis").hash);
  v1::Game game;
  grpc::Status status = CreateWith(request, &game);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << status.error_message();
  EXPECT_THAT(status.error_message(), HasSubstr("ruleset_id"));
  EXPECT_EQ(StoredGames(), 0);
}

TEST_F(RequestsTest, CreateGameWithoutAGameIdDerivesTheNameFromCallerAndRequestId) {
  v1::CreateGameRequest request = MinimalCreate(Simulated(73, 2), "");
  request.set_request_id("create-unnamed");
  v1::Game game;
  ASSERT_TRUE(CreateWith(request, &game).ok());
  EXPECT_EQ(game.name(), absl::StrCat("games/", games::DerivedGameId("root", "create-unnamed")));
  EXPECT_THAT(game.name(), StartsWith("games/g-"));
  EXPECT_EQ(game.name().size(), std::string("games/g-").size() + 24);
  // The same request again is the same game.
  v1::Game again;
  ASSERT_TRUE(CreateWith(request, &again).ok());
  EXPECT_EQ(again.name(), game.name());
  EXPECT_EQ(StoredGames(), 1);
}

TEST_F(RequestsTest, TheRevealedSeedIsReadBackAsAnEvent) {
  const log::GameLog log = Simulated(74, 2);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "sealed", &game,
                     engine::SealedSeedCommitment("sealed", log.header.seed(), kNonce)).ok());
  v1::RevealSeedResponse revealed;
  ASSERT_TRUE(Reveal("sealed", log.header.seed(), &revealed).ok());

  v1::ListEventsRequest list;
  list.set_parent("games/sealed");
  v1::ListEventsResponse events;
  ASSERT_TRUE(stub_->ListEvents(As(admin_).get(), list, &events).ok());
  ASSERT_EQ(events.events_size(), 2);
  const v1::Event& event = events.events(1);
  EXPECT_EQ(event.event(), 2);
  EXPECT_EQ(event.type(), "seed_revealed");
  ASSERT_TRUE(event.has_seed_revealed());
  EXPECT_EQ(event.seed_revealed().seed(), log.header.seed());
  EXPECT_EQ(event.seed_revealed().nonce(), kNonce);
  EXPECT_EQ(event.prev_hash(), events.events(0).hash());
}

TEST_F(RequestsTest, RevealSeedOnAGameCreatedWithItsSeedIsFailedPrecondition) {
  const log::GameLog log = Simulated(75, 2);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "open-seed", &game).ok());
  v1::RevealSeedResponse revealed;
  grpc::Status status = Reveal("open-seed", log.header.seed(), &revealed);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(status.error_message(),
            "game \"open-seed\" was created with its seed; there is nothing to reveal");
  EXPECT_EQ(Get("open-seed").last_event(), 1);
}

TEST_F(RequestsTest, AppendActionsTakesOneToAThousandActionsEachWithAPlayer) {
  const log::GameLog log = Simulated(76, 2);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "batch", &game).ok());
  v1::AppendActionsResponse response;
  grpc::Status none = Append(admin_, "batch", 1, {}, "none", &response);
  EXPECT_EQ(none.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(none.error_message(), "give 1-1000 actions, not 0");
  EXPECT_EQ(BadRequestOf(none).field_violations(0).field(), "actions");

  std::vector<v1::Action> too_many(1001, log.actions[0]);
  grpc::Status over = Append(admin_, "batch", 1, too_many, "over", &response);
  EXPECT_EQ(over.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(over.error_message(), "give 1-1000 actions, not 1001");

  v1::Action anonymous = log.actions[0];
  anonymous.clear_player();
  grpc::Status nobody = Append(admin_, "batch", 1, {anonymous}, "nobody", &response);
  EXPECT_EQ(nobody.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(nobody.error_message(), "line 2: unknown player ''; the players are p1, p2");
  EXPECT_EQ(Get("batch").last_event(), 1);
}

TEST_F(RequestsTest, AnUnfinishedSubmittedLogIsContinuedLive) {
  const log::GameLog log = Simulated(77, 3);
  log::GameLog first_part = log;
  first_part.actions.resize(5);
  v1::SubmitGameResponse submitted;
  ASSERT_TRUE(Submit(admin_, log::FormatLog(first_part), "half", &submitted).ok());
  EXPECT_EQ(submitted.game().status(), v1::GAME_STATUS_ACTIVE);
  EXPECT_EQ(submitted.adjudication().verdict(), v1::VERDICT_UNFINISHED);
  EXPECT_EQ(submitted.game().last_event(), 6);

  const v1::AppendActionsResponse last = PlayLive(
      "half", 6, std::vector<v1::Action>(log.actions.begin() + 5, log.actions.end()));
  EXPECT_EQ(last.status(), v1::GAME_STATUS_FINISHED);
  EXPECT_EQ(last.verdict(), v1::VERDICT_LEGAL);
  EXPECT_EQ(last.last_event(), static_cast<int64_t>(log.actions.size()) + 1);
}

TEST_F(RequestsTest, SubmitGameReusingARequestIdWithOtherContentIsInvalidArgument) {
  v1::SubmitGameResponse response;
  ASSERT_TRUE(Submit(admin_, log::FormatLog(Simulated(78, 2)), "reused", &response, "req-1").ok());
  grpc::Status status =
      Submit(admin_, log::FormatLog(Simulated(79, 2)), "reused", &response, "req-1");
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << status.error_message();
  EXPECT_EQ(StoredGames(), 1);
  EXPECT_EQ(Get("reused").seed(), 78u);
}

TEST_F(RequestsTest, ListGamesAndListEventsCheckPageSizesAndTokens) {
  v1::SubmitGameResponse submitted;
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(Submit(admin_, log::FormatLog(Simulated(80 + i, 2)), absl::StrCat("paged-", i),
                       &submitted).ok());
  }
  v1::ListGamesRequest list;
  list.set_page_size(2);
  std::vector<int> sizes;
  do {
    v1::ListGamesResponse page;
    ASSERT_TRUE(stub_->ListGames(As(admin_).get(), list, &page).ok());
    sizes.push_back(page.games_size());
    list.set_page_token(page.next_page_token());
  } while (!list.page_token().empty() && sizes.size() < 10);
  EXPECT_EQ(sizes, (std::vector<int>{2, 2, 1}));

  v1::ListGamesResponse page;
  for (int bad_size : {-1, 1001}) {
    list.Clear();
    list.set_page_size(bad_size);
    grpc::Status status = stub_->ListGames(As(admin_).get(), list, &page);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << bad_size;
    EXPECT_THAT(status.error_message(), HasSubstr("page_size")) << bad_size;
  }
  list.Clear();
  list.set_page_size(1000);
  ASSERT_TRUE(stub_->ListGames(As(admin_).get(), list, &page).ok());
  EXPECT_EQ(page.games_size(), 5);
  list.set_page_token("not-a-token");
  grpc::Status bad_token = stub_->ListGames(As(admin_).get(), list, &page);
  EXPECT_EQ(bad_token.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(bad_token.error_message(), HasSubstr("page_token"));

  v1::ListEventsRequest events;
  events.set_parent("games/paged-0");
  v1::ListEventsResponse event_page;
  events.set_page_size(1001);
  EXPECT_EQ(stub_->ListEvents(As(admin_).get(), events, &event_page).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  events.set_page_size(-1);
  EXPECT_EQ(stub_->ListEvents(As(admin_).get(), events, &event_page).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  events.set_page_size(0);
  events.set_page_token("not-a-token");
  EXPECT_EQ(stub_->ListEvents(As(admin_).get(), events, &event_page).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  events.set_page_token("");
  ASSERT_TRUE(stub_->ListEvents(As(admin_).get(), events, &event_page).ok());
  EXPECT_EQ(event_page.events_size(), static_cast<int>(Get("paged-0").last_event()));
}

TEST_F(RequestsTest, APublicTokenReadsNothingOfAnUnfinishedGame) {
  const std::string reader = MakeToken(store::Role::kPublic, "league-site");
  v1::Game game;
  ASSERT_TRUE(Create(admin_, Simulated(90, 2), "running", &game).ok());
  const std::string name = "games/running";
  v1::GetGameRequest get;
  get.set_name(name);
  EXPECT_EQ(stub_->GetGame(As(reader).get(), get, &game).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  v1::ListEventsRequest events;
  events.set_parent(name);
  v1::ListEventsResponse event_page;
  EXPECT_EQ(stub_->ListEvents(As(reader).get(), events, &event_page).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  v1::AdjudicateGameRequest adjudicate;
  adjudicate.set_name(name);
  v1::Adjudication adjudication;
  EXPECT_EQ(stub_->AdjudicateGame(As(reader).get(), adjudicate, &adjudication).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  v1::GetGameStateRequest state;
  state.set_name(name);
  state.set_event(1);
  v1::GameState position;
  EXPECT_EQ(stub_->GetGameState(As(reader).get(), state, &position).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  v1::VerifyGameRequest verify;
  verify.set_name(name);
  v1::VerifyGameResponse report;
  EXPECT_EQ(stub_->VerifyGame(As(reader).get(), verify, &report).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  v1::ListGamesRequest list;
  v1::ListGamesResponse page;
  ASSERT_TRUE(stub_->ListGames(As(reader).get(), list, &page).ok());
  EXPECT_EQ(page.games_size(), 0);
}

// Every game through the service: a submitted log and the same game played
// live give the same verdict and standings.
class EveryGameTest : public RequestsTest, public ::testing::WithParamInterface<const char*> {};

TEST_P(EveryGameTest, IsSubmittedAndPlayedLiveWithTheSameStandings) {
  const std::string game = GetParam();
  const log::GameLog log = Simulated(95, 3, game);
  v1::SubmitGameResponse submitted;
  ASSERT_TRUE(Submit(admin_, log::FormatLog(log), "submitted", &submitted).ok());
  EXPECT_EQ(submitted.game().game_type(), game);
  EXPECT_EQ(submitted.game().status(), v1::GAME_STATUS_FINISHED);
  EXPECT_EQ(submitted.adjudication().verdict(), v1::VERDICT_LEGAL);

  v1::Game created;
  ASSERT_TRUE(Create(admin_, log, "live", &created).ok());
  const v1::AppendActionsResponse last = PlayLive("live", 1, log.actions);
  EXPECT_EQ(last.status(), v1::GAME_STATUS_FINISHED);
  EXPECT_EQ(last.verdict(), v1::VERDICT_LEGAL);
  EXPECT_EQ(last.standings().SerializeAsString(),
            submitted.adjudication().standings().SerializeAsString());

  v1::VerifyGameRequest verify;
  verify.set_name("games/live");
  v1::VerifyGameResponse report;
  ASSERT_TRUE(stub_->VerifyGame(As(admin_).get(), verify, &report).ok());
  EXPECT_TRUE(report.intact());
  EXPECT_EQ(report.verdict(), v1::VERDICT_LEGAL);
  // The header, the actions, and the result the last append led to.
  EXPECT_EQ(report.events(), static_cast<int64_t>(log.actions.size()) + 2);
}

INSTANTIATE_TEST_SUITE_P(AllGames, EveryGameTest,
                         ::testing::Values("atlantis", "atlantica", "atlantis-rising"));

}  // namespace
}  // namespace arbiter::server::testing
