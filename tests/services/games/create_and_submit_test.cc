// The creating write flows on both stores: CreateGame (Create), a round's
// tables at once (CreateMany) and SubmitGame (Submit): what is stored, the
// answer to a retry, and the refusals.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "services/games/game_events.h"
#include "tests/services/games/writer_test_env.h"

namespace arbiter::games::testing {
namespace {

using StatusCode = absl::StatusCode;

TEST_P(GameWriterTest, ACreatedGameIsStoredAsEventOneByItsToken) {
  const log::GameLog log = Simulated(5);
  const access::Caller organiser = SignIn(store::Role::kOrganiser, "org", {"north"});
  v1::CreateGameRequest request = CreateRequest("g1", log);
  request.mutable_game()->set_league("north");
  absl::StatusOr<v1::Game> game = writer_->Create(organiser, request);
  ASSERT_TRUE(game.ok()) << game.status();
  EXPECT_EQ(game->name(), "games/g1");
  EXPECT_EQ(game->status(), v1::GAME_STATUS_ACTIVE);
  EXPECT_EQ(game->seed(), log.header.seed());
  EXPECT_EQ(game->league(), "north");
  EXPECT_EQ(game->creator(), "org");
  EXPECT_EQ(game->last_event(), 1);

  const store::GameRecord row = Row("g1");
  EXPECT_EQ(row.seed, log.header.seed());
  EXPECT_EQ(row.league_id, "north");
  EXPECT_EQ(row.players, (std::vector<std::string>{"p1", "p2"}));
  EXPECT_EQ(game->last_event_hash(), row.last_hash);
  const std::vector<store::StoredEvent> events = Events("g1");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].type, kTypeGameCreated);
  EXPECT_EQ(events[0].recorded_by, "org");
  v1::GameCreated created;
  ASSERT_TRUE(created.ParseFromString(events[0].payload));
  EXPECT_EQ(created.creator_token_id(), organiser.token_id);
  EXPECT_EQ(created.header().ruleset_hash(), log.header.ruleset_hash());
}

TEST_P(GameWriterTest, AGameWithoutAnIdGetsTheOneDerivedFromTheRequest) {
  v1::CreateGameRequest request = CreateRequest("", Simulated(5), "make-one");
  absl::StatusOr<v1::Game> game = writer_->Create(admin_, request);
  ASSERT_TRUE(game.ok()) << game.status();
  EXPECT_EQ(game->name(), absl::StrCat("games/", DerivedGameId("root", "make-one")));
}

TEST_P(GameWriterTest, ARetriedCreateIsAnsweredWithTheSameGame) {
  const v1::CreateGameRequest request = CreateRequest("g1", Simulated(5));
  absl::StatusOr<v1::Game> first = writer_->Create(admin_, request);
  ASSERT_TRUE(first.ok()) << first.status();
  absl::StatusOr<v1::Game> again = writer_->Create(admin_, request);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->SerializeAsString(), first->SerializeAsString());
  EXPECT_EQ(Events("g1").size(), 1u);
  EXPECT_EQ(Games(), 1);
}

TEST_P(GameWriterTest, ARetriedSealedCreationIsAnsweredWithTheFirstDraw) {
  const v1::CreateGameRequest request = SealedRequest("sealed", 42);
  absl::StatusOr<v1::Game> first = writer_->Create(admin_, request);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->server_random().size(), 32u);
  EXPECT_TRUE(first->has_reveal_deadline());
  // The retry draws other server bytes; the game is recognised by event 1.
  absl::StatusOr<v1::Game> again = writer_->Create(admin_, request);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->server_random(), first->server_random());
  EXPECT_EQ(again->reveal_deadline().seconds(), first->reveal_deadline().seconds());
  EXPECT_EQ(again->last_event_hash(), first->last_event_hash());
  EXPECT_EQ(Events("sealed").size(), 1u);
  // Another creation of the same id is not a retry.
  absl::StatusOr<v1::Game> other = writer_->Create(admin_, SealedRequest("sealed", 43));
  EXPECT_EQ(other.status().code(), StatusCode::kInvalidArgument) << other.status();
}

TEST_P(GameWriterTest, ASealedCreationNeedsItsGameIdAndAWellFormedCommitment) {
  v1::CreateGameRequest request = SealedRequest("sealed", 42);
  request.clear_game_id();
  absl::StatusOr<v1::Game> no_id = writer_->Create(admin_, request);
  EXPECT_EQ(no_id.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(FieldOf(no_id.status()), "game_id");
  request = SealedRequest("sealed", 42);
  request.mutable_game()->set_seed_commitment("not-a-hash");
  EXPECT_EQ(FieldOf(writer_->Create(admin_, request).status()), "game.seed_commitment");
  request = SealedRequest("sealed", 42);
  request.mutable_reveal_within()->set_seconds(367 * 24 * 3600);
  absl::StatusOr<v1::Game> too_long = writer_->Create(admin_, request);
  EXPECT_EQ(FieldOf(too_long.status()), "reveal_within");
  EXPECT_EQ(too_long.status().message(),
            "reveal_within must be more than 0 and at most 366 days, not 8808h");
  EXPECT_EQ(Games(), 0);
}

TEST_P(GameWriterTest, ACreationOutsideTheCallersScopeIsDenied) {
  const access::Caller organiser = SignIn(store::Role::kOrganiser, "org", {"north"});
  v1::CreateGameRequest request = CreateRequest("g1", Simulated(5));
  request.mutable_game()->set_league("south");
  absl::StatusOr<v1::Game> denied = writer_->Create(organiser, request);
  EXPECT_EQ(denied.status().code(), StatusCode::kPermissionDenied);
  EXPECT_EQ(denied.status().message(),
            "this organiser token may not create games in league \"south\"");
  const access::Caller auditor = SignIn(store::Role::kAuditor, "aud");
  request.mutable_game()->clear_league();
  EXPECT_EQ(writer_->Create(auditor, request).status().code(), StatusCode::kPermissionDenied);
  EXPECT_EQ(Games(), 0);
}

TEST_P(GameWriterTest, ABadRequestIdOrGameIdIsRefusedWithItsField) {
  v1::CreateGameRequest request = CreateRequest("g1", Simulated(5), "");
  absl::StatusOr<v1::Game> no_request_id = writer_->Create(admin_, request);
  EXPECT_EQ(no_request_id.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(FieldOf(no_request_id.status()), "request_id");
  request = CreateRequest("no spaces", Simulated(5));
  absl::StatusOr<v1::Game> bad_id = writer_->Create(admin_, request);
  EXPECT_EQ(bad_id.status().message(), "game_id must be 1-63 characters of A-Z a-z 0-9 _ . -");
  EXPECT_EQ(FieldOf(bad_id.status()), "game_id");
  EXPECT_EQ(Games(), 0);
}

TEST_P(GameWriterTest, CreateManyAnswersEachRequestInItsOrder) {
  const log::GameLog log = Simulated(5);
  std::vector<v1::CreateGameRequest> requests = {
      CreateRequest("t1", log, "r1"), CreateRequest("bad id", log, "r2"),
      CreateRequest("t3", log, "r3")};
  std::vector<absl::StatusOr<v1::Game>> created = writer_->CreateMany(admin_, requests);
  ASSERT_EQ(created.size(), 3u);
  ASSERT_TRUE(created[0].ok()) << created[0].status();
  EXPECT_EQ(created[0]->name(), "games/t1");
  EXPECT_EQ(created[1].status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(FieldOf(created[1].status()), "game_id");
  ASSERT_TRUE(created[2].ok()) << created[2].status();
  EXPECT_EQ(created[2]->name(), "games/t3");
  EXPECT_EQ(Games(), 2);
  EXPECT_EQ(Row("t3").created_by, "root");

  // Retried: the same answers, nothing more stored.
  std::vector<absl::StatusOr<v1::Game>> again = writer_->CreateMany(admin_, requests);
  ASSERT_TRUE(again[0].ok()) << again[0].status();
  EXPECT_EQ(again[0]->last_event_hash(), created[0]->last_event_hash());
  EXPECT_EQ(again[1].status().code(), StatusCode::kInvalidArgument);
  ASSERT_TRUE(again[2].ok()) << again[2].status();
  EXPECT_EQ(Games(), 2);
}

TEST_P(GameWriterTest, CreateManyRefusesEachRequestOutsideTheCallersScope) {
  const access::Caller organiser = SignIn(store::Role::kOrganiser, "org", {}, {"cup"});
  const log::GameLog log = Simulated(5);
  std::vector<v1::CreateGameRequest> requests = {CreateRequest("t1", log, "r1"),
                                                 CreateRequest("t2", log, "r2")};
  requests[0].mutable_game()->set_tournament("cup");
  requests[1].mutable_game()->set_tournament("other");
  std::vector<absl::StatusOr<v1::Game>> created = writer_->CreateMany(organiser, requests);
  ASSERT_EQ(created.size(), 2u);
  EXPECT_TRUE(created[0].ok()) << created[0].status();
  EXPECT_EQ(created[1].status().code(), StatusCode::kPermissionDenied);
  EXPECT_EQ(Games(), 1);
}

TEST_P(GameWriterTest, ASubmittedGameIsStoredWholeWithItsResult) {
  const log::GameLog log = Simulated(7);
  absl::StatusOr<v1::SubmitGameResponse> submitted =
      writer_->Submit(admin_, SubmitRequest("whole", log), Never());
  ASSERT_TRUE(submitted.ok()) << submitted.status();
  const int64_t actions = static_cast<int64_t>(log.actions.size());
  EXPECT_EQ(submitted->adjudication().verdict(), v1::VERDICT_LEGAL);
  EXPECT_EQ(submitted->adjudication().actions(), actions);
  EXPECT_EQ(submitted->adjudication().last_event(), actions + 1);
  EXPECT_TRUE(submitted->adjudication().has_standings());
  EXPECT_EQ(submitted->game().status(), v1::GAME_STATUS_FINISHED);
  EXPECT_EQ(submitted->game().last_event(), actions + 2);

  const store::GameRecord row = Row("whole");
  EXPECT_EQ(row.status, store::GameStatus::kFinished);
  EXPECT_EQ(row.seed, log.header.seed());
  const std::vector<store::StoredEvent> events = Events("whole");
  ASSERT_EQ(static_cast<int64_t>(events.size()), actions + 2);
  EXPECT_EQ(events.front().type, kTypeGameCreated);
  EXPECT_EQ(events[1].type, kTypeAction);
  EXPECT_EQ(events.back().type, store::kGameFinishedType);
  EXPECT_EQ(events.back().event_id, EventId("whole", actions + 2));
}

TEST_P(GameWriterTest, ARetriedSubmitIsAnsweredAgain) {
  const v1::SubmitGameRequest request = SubmitRequest("whole", Simulated(7));
  absl::StatusOr<v1::SubmitGameResponse> first = writer_->Submit(admin_, request, Never());
  ASSERT_TRUE(first.ok()) << first.status();
  absl::StatusOr<v1::SubmitGameResponse> again = writer_->Submit(admin_, request, Never());
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->SerializeAsString(), first->SerializeAsString());
  EXPECT_EQ(Games(), 1);
}

TEST_P(GameWriterTest, ASubmittedLogWithAnIllegalActionIsKeptAsEvidence) {
  log::GameLog log = Simulated(7);
  // Action 3 by the other player: out of turn.
  v1::Action& action = log.actions.at(3);
  action.set_player(action.player() == "p1" ? "p2" : "p1");
  absl::StatusOr<v1::SubmitGameResponse> submitted =
      writer_->Submit(admin_, SubmitRequest("cheat", log), Never());
  ASSERT_TRUE(submitted.ok()) << submitted.status();
  EXPECT_EQ(submitted->adjudication().verdict(), v1::VERDICT_ILLEGAL);
  EXPECT_EQ(submitted->adjudication().violation().event(), 5);
  EXPECT_EQ(submitted->adjudication().violation().player(), action.player());
  EXPECT_EQ(submitted->game().status(), v1::GAME_STATUS_FINISHED);
  EXPECT_EQ(static_cast<int64_t>(Events("cheat").size()),
            static_cast<int64_t>(log.actions.size()) + 2);
}

TEST_P(GameWriterTest, ASubmitOverTheEventLimitStoresNothing) {
  WriteLimits limits;
  limits.max_events_per_game = 5;
  UseLimits(limits);
  absl::StatusOr<v1::SubmitGameResponse> refused =
      writer_->Submit(admin_, SubmitRequest("long", Simulated(7)), Never());
  EXPECT_EQ(refused.status().code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(ReasonOf(refused.status()), "EVENT_LIMIT");
  EXPECT_EQ(refused.status().message(),
            "the log has more than 4 actions; this server allows 5 events per game, the header "
            "included");
  EXPECT_EQ(Games(), 0);
}

TEST_P(GameWriterTest, ASubmitByAnAuditorIsDenied) {
  const access::Caller auditor = SignIn(store::Role::kAuditor, "aud");
  absl::StatusOr<v1::SubmitGameResponse> denied =
      writer_->Submit(auditor, SubmitRequest("whole", Simulated(7)), Never());
  EXPECT_EQ(denied.status().code(), StatusCode::kPermissionDenied);
  EXPECT_EQ(denied.status().message(),
            "this auditor token may not create games (admins and organisers only)");
  EXPECT_EQ(Games(), 0);
}

INSTANTIATE_TEST_SUITE_P(BothStores, GameWriterTest,
                         ::testing::Values(StoreKind::kMemory, StoreKind::kPostgres), StoreName);

}  // namespace
}  // namespace arbiter::games::testing
