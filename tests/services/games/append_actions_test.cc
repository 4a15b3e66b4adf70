// AppendActions (GameWriter::Append) on both stores: judged and stored
// batches, the game's result stored with the batch that ends it, retries
// answered as the first time (also one that ended the game), and the
// refusals: an illegal action, a stale expected event, the event limit, a
// game that is over, and callers who may not write.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "services/games/game_events.h"
#include "tests/services/games/writer_test_env.h"

namespace arbiter::games::testing {
namespace {

using StatusCode = absl::StatusCode;

class AppendTest : public GameWriterTest {
 protected:
  void SetUp() override {
    GameWriterTest::SetUp();
    log_ = Simulated(5);
    ASSERT_GT(log_.actions.size(), 10u);
    ASSERT_LE(log_.actions.size(), static_cast<size_t>(store::kMaxEventsPerAppend));
    CreateAsAdmin("live", log_);
  }

  int Actions() const { return static_cast<int>(log_.actions.size()); }

  // A player token of `principal`, bound to game `game`.
  static access::Caller PlayerOf(const std::string& principal, const std::string& game) {
    access::Caller player;
    player.principal = principal;
    player.role = store::Role::kPlayer;
    player.games = {game};
    return player;
  }

  // Expects `request` to game "live" refused to an organiser of another
  // scope (with its words) and to an auditor; answers the organiser.
  access::Caller ExpectOthersRefused(const v1::AppendActionsRequest& request) {
    const access::Caller elsewhere = SignIn(store::Role::kOrganiser, "org", {"north"});
    absl::StatusOr<v1::AppendActionsResponse> denied = writer_->Append(elsewhere, request, Never());
    EXPECT_EQ(denied.status().code(), StatusCode::kPermissionDenied);
    EXPECT_EQ(denied.status().message(),
              "this organiser token may not write to game \"live\" (games of its scope, and games "
              "it created, only)");
    const access::Caller auditor = SignIn(store::Role::kAuditor, "aud");
    EXPECT_EQ(writer_->Append(auditor, request, Never()).status().code(),
              StatusCode::kPermissionDenied);
    return elsewhere;
  }

  log::GameLog log_;
};

TEST_P(AppendTest, AnAppendIsJudgedAndStored) {
  absl::StatusOr<v1::AppendActionsResponse> appended =
      writer_->Append(admin_, AppendRequest("live", 1, log_, 0, 5, "a1"), Never());
  ASSERT_TRUE(appended.ok()) << appended.status();
  EXPECT_EQ(appended->first_event(), 2);
  EXPECT_EQ(appended->last_event(), 6);
  EXPECT_EQ(appended->status(), v1::GAME_STATUS_ACTIVE);
  EXPECT_EQ(appended->verdict(), v1::VERDICT_UNFINISHED);
  const store::GameRecord row = Row("live");
  EXPECT_EQ(row.last_sequence, 6);
  EXPECT_EQ(appended->last_event_hash(), row.last_hash);
  const std::vector<store::StoredEvent> events = Events("live");
  ASSERT_EQ(events.size(), 6u);
  EXPECT_EQ(events[5].type, kTypeAction);
  EXPECT_EQ(events[5].recorded_by, "root");
  v1::Action stored;
  ASSERT_TRUE(stored.ParseFromString(events[5].payload));
  EXPECT_EQ(stored.SerializeAsString(), log_.actions[4].SerializeAsString());

  // The next batch goes on from there.
  absl::StatusOr<v1::AppendActionsResponse> next =
      writer_->Append(admin_, AppendRequest("live", 6, log_, 5, 7, "a2"), Never());
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_EQ(next->first_event(), 7);
  EXPECT_EQ(next->last_event(), 8);
}

TEST_P(AppendTest, TheBatchThatEndsTheGameStoresItsResult) {
  absl::StatusOr<v1::AppendActionsResponse> appended =
      writer_->Append(admin_, AppendRequest("live", 1, log_, 0, Actions(), "all"), Never());
  ASSERT_TRUE(appended.ok()) << appended.status();
  EXPECT_EQ(appended->status(), v1::GAME_STATUS_FINISHED);
  EXPECT_EQ(appended->verdict(), v1::VERDICT_LEGAL);
  EXPECT_TRUE(appended->has_standings());
  EXPECT_EQ(appended->last_event(), Actions() + 1);
  const std::vector<store::StoredEvent> events = Events("live");
  ASSERT_EQ(static_cast<int>(events.size()), Actions() + 2);
  // The answer names the last action, not the result after it.
  EXPECT_EQ(appended->last_event_hash(), events[static_cast<size_t>(Actions())].hash);
  EXPECT_EQ(events.back().type, store::kGameFinishedType);
  EXPECT_EQ(Row("live").status, store::GameStatus::kFinished);
}

TEST_P(AppendTest, ARetriedAppendIsAnsweredAsTheFirstTime) {
  const v1::AppendActionsRequest request = AppendRequest("live", 1, log_, 0, 3, "a1");
  absl::StatusOr<v1::AppendActionsResponse> first = writer_->Append(admin_, request, Never());
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_TRUE(writer_->Append(admin_, AppendRequest("live", 4, log_, 3, 6, "a2"), Never()).ok());
  // The game has moved on; the retry is answered as the first time.
  absl::StatusOr<v1::AppendActionsResponse> again = writer_->Append(admin_, request, Never());
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->SerializeAsString(), first->SerializeAsString());
  EXPECT_EQ(Row("live").last_sequence, 7);
}

TEST_P(AppendTest, ARetriedAppendThatEndedTheGameIsAnsweredAgain) {
  const v1::AppendActionsRequest request = AppendRequest("live", 1, log_, 0, Actions(), "all");
  absl::StatusOr<v1::AppendActionsResponse> first = writer_->Append(admin_, request, Never());
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_EQ(first->status(), v1::GAME_STATUS_FINISHED);
  // A fresh writer (another server, or after a restart) has nothing cached.
  UseLimits(WriteLimits{});
  absl::StatusOr<v1::AppendActionsResponse> again = writer_->Append(admin_, request, Never());
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->SerializeAsString(), first->SerializeAsString());
  EXPECT_EQ(static_cast<int>(Events("live").size()), Actions() + 2);
}

TEST_P(AppendTest, AnIllegalActionIsRefusedAndNothingIsStored) {
  v1::AppendActionsRequest request = AppendRequest("live", 1, log_, 0, 3, "bad");
  v1::Action& action = *request.mutable_actions(2);
  action.set_player(action.player() == "p1" ? "p2" : "p1");
  absl::StatusOr<v1::AppendActionsResponse> refused = writer_->Append(admin_, request, Never());
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ReasonOf(refused.status()), "ILLEGAL_ACTION");
  EXPECT_EQ(FieldOf(refused.status()), "actions[2]");
  EXPECT_TRUE(absl::StartsWith(refused.status().message(),
                               "event 4 (actions[2]) by " + action.player() + " is illegal: "))
      << refused.status();
  EXPECT_EQ(Row("live").last_sequence, 1);
  // The referee the refusal moved is not trusted: the legal batch is judged
  // from the stored game.
  absl::StatusOr<v1::AppendActionsResponse> legal =
      writer_->Append(admin_, AppendRequest("live", 1, log_, 0, 3, "good"), Never());
  ASSERT_TRUE(legal.ok()) << legal.status();
  EXPECT_EQ(legal->last_event(), 4);
}

TEST_P(AppendTest, AStaleExpectedEventIsRefusedWithTheGamesLastEvent) {
  ASSERT_TRUE(writer_->Append(admin_, AppendRequest("live", 1, log_, 0, 5, "a1"), Never()).ok());
  absl::StatusOr<v1::AppendActionsResponse> stale =
      writer_->Append(admin_, AppendRequest("live", 1, log_, 0, 1, "late"), Never());
  EXPECT_EQ(stale.status().code(), StatusCode::kAborted);
  EXPECT_EQ(ReasonOf(stale.status()), "STALE_EXPECTED_EVENT");
  EXPECT_EQ(stale.status().message(),
            "expected_last_event is 1 but the game is at event 6; read the new events and decide "
            "again");
  // Ahead of the game is stale too.
  absl::StatusOr<v1::AppendActionsResponse> ahead =
      writer_->Append(admin_, AppendRequest("live", 9, log_, 5, 6, "ahead"), Never());
  EXPECT_EQ(ahead.status().code(), StatusCode::kAborted);
  EXPECT_EQ(Row("live").last_sequence, 6);
}

TEST_P(AppendTest, AnAppendPastTheEventLimitIsRefused) {
  WriteLimits limits;
  limits.max_events_per_game = 5;
  UseLimits(limits);
  ASSERT_TRUE(writer_->Append(admin_, AppendRequest("live", 1, log_, 0, 4, "a1"), Never()).ok());
  absl::StatusOr<v1::AppendActionsResponse> refused =
      writer_->Append(admin_, AppendRequest("live", 5, log_, 4, 5, "a2"), Never());
  EXPECT_EQ(refused.status().code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(ReasonOf(refused.status()), "EVENT_LIMIT");
  EXPECT_EQ(refused.status().message(), "the game would have 6 events; this server allows 5 per game");
  EXPECT_EQ(Row("live").last_sequence, 5);
}

TEST_P(AppendTest, AGameThatIsOverAcceptsNoMoreActions) {
  ASSERT_TRUE(
      writer_->Append(admin_, AppendRequest("live", 1, log_, 0, Actions(), "all"), Never()).ok());
  // Seen every action: told the game is over.
  const int64_t last_action = Actions() + 1;
  absl::StatusOr<v1::AppendActionsResponse> refused = writer_->Append(
      admin_, AppendRequest("live", last_action, log_, 0, 1, "more"), Never());
  EXPECT_EQ(refused.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(refused.status().message(), "game \"live\" is finished and accepts no more actions");
  EXPECT_EQ(static_cast<int>(Events("live").size()), Actions() + 2);
}

TEST_P(AppendTest, OnlyWritersOfTheGameMayAppend) {
  const v1::AppendActionsRequest request = AppendRequest("live", 1, log_, 0, 1, "a1");
  const access::Caller elsewhere = ExpectOthersRefused(request);
  // Permission before existence: the same answer for a game that does not
  // exist, unless the caller is an admin.
  const v1::AppendActionsRequest nowhere = AppendRequest("nowhere", 1, log_, 0, 1, "a1");
  absl::StatusOr<v1::AppendActionsResponse> unknown = writer_->Append(elsewhere, nowhere, Never());
  EXPECT_EQ(unknown.status().code(), StatusCode::kPermissionDenied);
  EXPECT_EQ(writer_->Append(admin_, nowhere, Never()).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(Row("live").last_sequence, 1);
}

TEST_P(AppendTest, TheCreatingTokenMayAppendAndAnotherOfTheSamePrincipalMayNot) {
  const access::Caller creator = SignIn(store::Role::kOrganiser, "org");
  ASSERT_TRUE(writer_->Create(creator, CreateRequest("mine", log_)).ok());
  const access::Caller same_name = SignIn(store::Role::kOrganiser, "org");
  EXPECT_EQ(writer_->Append(same_name, AppendRequest("mine", 1, log_, 0, 1, "a1"), Never())
                .status()
                .code(),
            StatusCode::kPermissionDenied);
  absl::StatusOr<v1::AppendActionsResponse> appended =
      writer_->Append(creator, AppendRequest("mine", 1, log_, 0, 1, "a1"), Never());
  ASSERT_TRUE(appended.ok()) << appended.status();
  EXPECT_EQ(Events("mine").back().recorded_by, "org");
}

TEST_P(AppendTest, ABadRequestIsRefusedWithItsField) {
  v1::AppendActionsRequest request = AppendRequest("live", 1, log_, 0, 1, "a1");
  request.set_game("live");
  EXPECT_EQ(FieldOf(writer_->Append(admin_, request, Never()).status()), "game");
  request = AppendRequest("live", 0, log_, 0, 1, "a1");
  EXPECT_EQ(FieldOf(writer_->Append(admin_, request, Never()).status()), "expected_last_event");
  request = AppendRequest("live", 1, log_, 0, 0, "a1");
  absl::StatusOr<v1::AppendActionsResponse> empty = writer_->Append(admin_, request, Never());
  EXPECT_EQ(FieldOf(empty.status()), "actions");
  EXPECT_EQ(empty.status().message(), "give 1-1000 actions, not 0");
  EXPECT_EQ(Row("live").last_sequence, 1);
}

TEST_P(AppendTest, AnAppendToASealedGameIsCheckedForShapeOnly) {
  ASSERT_TRUE(writer_->Create(admin_, SealedRequest("sealed", 42)).ok());
  absl::StatusOr<v1::AppendActionsResponse> appended =
      writer_->Append(admin_, AppendRequest("sealed", 1, log_, 0, 3, "a1"), Never());
  ASSERT_TRUE(appended.ok()) << appended.status();
  EXPECT_EQ(appended->verdict(), v1::VERDICT_UNSPECIFIED);
  EXPECT_EQ(appended->status(), v1::GAME_STATUS_ACTIVE);
  v1::AppendActionsRequest stranger = AppendRequest("sealed", 4, log_, 3, 4, "a2");
  stranger.mutable_actions(0)->set_player("p9");
  absl::StatusOr<v1::AppendActionsResponse> refused = writer_->Append(admin_, stranger, Never());
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(refused.status().message(), "event 5: unknown player 'p9'");
  EXPECT_EQ(FieldOf(refused.status()), "actions[0]");
}

// After its own append, a writer keeps the game's head and judges the next
// append at it without reading the game. Another server (a second writer on
// the same store) may have moved the game on since.
TEST_P(AppendTest, AnAppendAtAKeptHeadThatAnotherServerMovedOnIsRefusedAsStale) {
  ASSERT_TRUE(writer_->Append(admin_, AppendRequest("live", 1, log_, 0, 5, "a1"), Never()).ok());
  GameWriter other(*store_, Registry(), WriteLimits{});
  ASSERT_TRUE(other.Append(admin_, AppendRequest("live", 6, log_, 5, 7, "b1"), Never()).ok());
  // An append that expects neither the kept head nor the real one is
  // refused naming the real one.
  absl::StatusOr<v1::AppendActionsResponse> older =
      writer_->Append(admin_, AppendRequest("live", 1, log_, 0, 1, "older"), Never());
  EXPECT_EQ(older.status().message(),
            "expected_last_event is 1 but the game is at event 8; read the new events and decide "
            "again");
  absl::StatusOr<v1::AppendActionsResponse> stale =
      writer_->Append(admin_, AppendRequest("live", 6, log_, 5, 6, "late"), Never());
  EXPECT_EQ(stale.status().code(), StatusCode::kAborted);
  EXPECT_EQ(ReasonOf(stale.status()), "STALE_EXPECTED_EVENT");
  EXPECT_EQ(stale.status().message(),
            "expected_last_event is 6 but the game is at event 8; read the new events and decide "
            "again");
  EXPECT_EQ(Row("live").last_sequence, 8);
  // At the game's real head, the writer judges from the stored game: the
  // actions the other server stored count.
  absl::StatusOr<v1::AppendActionsResponse> next =
      writer_->Append(admin_, AppendRequest("live", 8, log_, 7, 9, "a2"), Never());
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_EQ(next->last_event(), 10);
  EXPECT_EQ(next->last_event_hash(), Row("live").last_hash);
  EXPECT_EQ(next->verdict(), v1::VERDICT_UNFINISHED);
  EXPECT_EQ(static_cast<int>(Events("live").size()), 10);
}

TEST_P(AppendTest, ARetryThatAnotherServerStoredIsAnsweredAsTheFirstTimeAtAKeptHead) {
  ASSERT_TRUE(writer_->Append(admin_, AppendRequest("live", 1, log_, 0, 5, "a1"), Never()).ok());
  const v1::AppendActionsRequest request = AppendRequest("live", 6, log_, 5, 7, "b1");
  GameWriter other(*store_, Registry(), WriteLimits{});
  absl::StatusOr<v1::AppendActionsResponse> first = other.Append(admin_, request, Never());
  ASSERT_TRUE(first.ok()) << first.status();
  // The client's retry reaches this writer, whose kept head is event 6.
  absl::StatusOr<v1::AppendActionsResponse> again = writer_->Append(admin_, request, Never());
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->SerializeAsString(), first->SerializeAsString());
  EXPECT_EQ(static_cast<int>(Events("live").size()), 8);
  // And the writer goes on from the stored game.
  absl::StatusOr<v1::AppendActionsResponse> next =
      writer_->Append(admin_, AppendRequest("live", 8, log_, 7, 8, "a2"), Never());
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_EQ(next->last_event(), 9);
}

TEST_P(AppendTest, AKeptHeadAnswersThePermissionChecksAsAReadWould) {
  ASSERT_TRUE(writer_->Append(admin_, AppendRequest("live", 1, log_, 0, 5, "a1"), Never()).ok());
  const v1::AppendActionsRequest request = AppendRequest("live", 6, log_, 5, 6, "a2");
  ExpectOthersRefused(request);
  // A player of the game may act for its own seat only.
  const std::string actor = request.actions(0).player();
  const std::string other_seat = actor == "p1" ? "p2" : "p1";
  access::Caller player = PlayerOf(other_seat, "live");
  absl::StatusOr<v1::AppendActionsResponse> not_yours = writer_->Append(player, request, Never());
  EXPECT_EQ(not_yours.status().code(), StatusCode::kPermissionDenied);
  EXPECT_TRUE(absl::StrContains(not_yours.status().message(), "act for seat")) << not_yours.status();
  const access::Caller stranger = PlayerOf(actor, "another");
  EXPECT_EQ(writer_->Append(stranger, request, Never()).status().code(),
            StatusCode::kPermissionDenied);
  EXPECT_EQ(Row("live").last_sequence, 6);
  player.principal = actor;
  absl::StatusOr<v1::AppendActionsResponse> own = writer_->Append(player, request, Never());
  ASSERT_TRUE(own.ok()) << own.status();
  EXPECT_EQ(own->last_event(), 7);
}

INSTANTIATE_TEST_SUITE_P(BothStores, AppendTest,
                         ::testing::Values(StoreKind::kMemory, StoreKind::kPostgres), StoreName);

}  // namespace
}  // namespace arbiter::games::testing
