// The write flows after a game's creation other than appends, on both
// stores: RevealSeed (GameWriter::Reveal), VoidGame (Void) and a ruled
// correction (RecordCorrection): what is stored, retries answered again,
// and the refusals.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "engine/core/seed_derivation.h"
#include "services/games/game_events.h"
#include "tests/services/games/writer_test_env.h"

namespace arbiter::games::testing {
namespace {

using StatusCode = absl::StatusCode;

// A sealed game "sealed" committed to kSeed whose actions, appended while
// the seed was hidden, are a whole legal game under the seed it derives.
class RevealTest : public GameWriterTest {
 protected:
  static constexpr uint64_t kSeed = 42;

  void SetUp() override {
    GameWriterTest::SetUp();
    absl::StatusOr<v1::Game> game = writer_->Create(admin_, SealedRequest("sealed", kSeed));
    ASSERT_TRUE(game.ok()) << game.status();
    log_ = Simulated(engine::DeriveSealedSeed("sealed", kSeed, game->server_random()));
    const int actions = static_cast<int>(log_.actions.size());
    absl::StatusOr<v1::AppendActionsResponse> appended =
        writer_->Append(admin_, AppendRequest("sealed", 1, log_, 0, actions, "all"), Never());
    ASSERT_TRUE(appended.ok()) << appended.status();
    ASSERT_EQ(appended->status(), v1::GAME_STATUS_ACTIVE) << "the seed is still hidden";
  }

  int64_t Actions() const { return static_cast<int64_t>(log_.actions.size()); }

  log::GameLog log_;
};

TEST_P(RevealTest, ARevealOpensTheCommitmentAndRecordsTheResult) {
  absl::StatusOr<v1::RevealSeedResponse> revealed =
      writer_->Reveal(admin_, RevealRequest("sealed", kSeed), Never());
  ASSERT_TRUE(revealed.ok()) << revealed.status();
  EXPECT_EQ(revealed->adjudication().verdict(), v1::VERDICT_LEGAL);
  EXPECT_TRUE(revealed->adjudication().has_standings());
  EXPECT_EQ(revealed->adjudication().last_event(), Actions() + 2);
  EXPECT_EQ(revealed->game().status(), v1::GAME_STATUS_FINISHED);
  EXPECT_EQ(revealed->game().last_event(), Actions() + 3);

  const std::vector<store::StoredEvent> events = Events("sealed");
  ASSERT_EQ(static_cast<int64_t>(events.size()), Actions() + 3);
  const store::StoredEvent& reveal = events[static_cast<size_t>(Actions() + 1)];
  EXPECT_EQ(reveal.type, kTypeSeedRevealed);
  v1::SeedRevealed body;
  ASSERT_TRUE(body.ParseFromString(reveal.payload));
  EXPECT_EQ(body.seed(), kSeed);
  EXPECT_EQ(body.nonce(), kNonce);
  EXPECT_EQ(events.back().type, store::kGameFinishedType);
  EXPECT_EQ(events.back().recorded_by, kRefereePrincipal);
  EXPECT_EQ(Row("sealed").status, store::GameStatus::kFinished);
}

TEST_P(RevealTest, ARetriedRevealIsAnsweredAgain) {
  const v1::RevealSeedRequest request = RevealRequest("sealed", kSeed);
  absl::StatusOr<v1::RevealSeedResponse> first = writer_->Reveal(admin_, request, Never());
  ASSERT_TRUE(first.ok()) << first.status();
  absl::StatusOr<v1::RevealSeedResponse> again = writer_->Reveal(admin_, request, Never());
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->game().SerializeAsString(), first->game().SerializeAsString());
  EXPECT_EQ(again->adjudication().verdict(), v1::VERDICT_LEGAL);
  EXPECT_EQ(again->adjudication().standings().SerializeAsString(),
            first->adjudication().standings().SerializeAsString());
  EXPECT_EQ(static_cast<int64_t>(Events("sealed").size()), Actions() + 3);
}

TEST_P(RevealTest, AnotherSeedIsRefusedAsAMismatch) {
  absl::StatusOr<v1::RevealSeedResponse> refused =
      writer_->Reveal(admin_, RevealRequest("sealed", kSeed + 1), Never());
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ReasonOf(refused.status()), "SEED_MISMATCH");
  EXPECT_EQ(FieldOf(refused.status()), "seed");
  EXPECT_TRUE(absl::StartsWith(refused.status().message(),
                               "the seed and nonce do not match the commitment of game \"sealed\": "
                               "SHA-256(\"arbiter-seed-v2:sealed:<seed>:<nonce>\") is "))
      << refused.status();
  EXPECT_EQ(static_cast<int64_t>(Events("sealed").size()), Actions() + 1);
}

TEST_P(RevealTest, ABadNonceOrAnUnwritableGameIsRefused) {
  v1::RevealSeedRequest request = RevealRequest("sealed", kSeed);
  request.set_nonce("short");
  EXPECT_EQ(FieldOf(writer_->Reveal(admin_, request, Never()).status()), "nonce");
  const access::Caller auditor = SignIn(store::Role::kAuditor, "aud");
  EXPECT_EQ(writer_->Reveal(auditor, RevealRequest("sealed", kSeed), Never()).status().code(),
            StatusCode::kPermissionDenied);
  EXPECT_EQ(static_cast<int64_t>(Events("sealed").size()), Actions() + 1);
}

TEST_P(GameWriterTest, ARevealAfterTheDeadlineIsRefused) {
  v1::CreateGameRequest request = SealedRequest("late", 42);
  request.mutable_reveal_within()->set_nanos(1'000'000);
  ASSERT_TRUE(writer_->Create(admin_, request).ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  absl::StatusOr<v1::RevealSeedResponse> late =
      writer_->Reveal(admin_, RevealRequest("late", 42), Never());
  EXPECT_EQ(late.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(ReasonOf(late.status()), "REVEAL_DEADLINE_PASSED");
  EXPECT_TRUE(absl::StartsWith(late.status().message(),
                               "the seed of game \"late\" had to be revealed by "))
      << late.status();
  EXPECT_EQ(Row("late").last_sequence, 1);
}

TEST_P(GameWriterTest, AGameCreatedWithItsSeedHasNothingToReveal) {
  CreateAsAdmin("open", Simulated(5));
  absl::StatusOr<v1::RevealSeedResponse> refused =
      writer_->Reveal(admin_, RevealRequest("open", 42), Never());
  EXPECT_EQ(refused.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(refused.status().message(),
            "game \"open\" was created with its seed; there is nothing to reveal");
}

v1::VoidGameRequest VoidRequest(const std::string& game_id, const std::string& request_id,
                                const std::string& reason = "the table was disturbed") {
  v1::VoidGameRequest request;
  request.set_name("games/" + game_id);
  request.set_request_id(request_id);
  request.set_reason(reason);
  return request;
}

TEST_P(GameWriterTest, AVoidIsStoredAsTheGamesLastEvent) {
  const log::GameLog log = Simulated(5);
  CreateAsAdmin("g1", log);
  ASSERT_TRUE(writer_->Append(admin_, AppendRequest("g1", 1, log, 0, 3, "a1"), Never()).ok());
  absl::StatusOr<v1::Game> voided = writer_->Void(admin_, VoidRequest("g1", "v1"));
  ASSERT_TRUE(voided.ok()) << voided.status();
  EXPECT_EQ(voided->status(), v1::GAME_STATUS_VOIDED);
  EXPECT_EQ(voided->last_event(), 5);
  const std::vector<store::StoredEvent> events = Events("g1");
  ASSERT_EQ(events.size(), 5u);
  EXPECT_EQ(events.back().type, store::kGameVoidedType);
  v1::GameVoided body;
  ASSERT_TRUE(body.ParseFromString(events.back().payload));
  EXPECT_EQ(body.reason(), "the table was disturbed");
  EXPECT_EQ(Row("g1").status, store::GameStatus::kVoided);
  // Nothing is appended to a voided game.
  EXPECT_EQ(writer_->Append(admin_, AppendRequest("g1", 5, log, 3, 4, "a2"), Never())
                .status()
                .code(),
            StatusCode::kFailedPrecondition);
}

TEST_P(GameWriterTest, ARetriedVoidIsAnsweredAgainAndAnotherIsRefused) {
  CreateAsAdmin("g1", Simulated(5));
  absl::StatusOr<v1::Game> first = writer_->Void(admin_, VoidRequest("g1", "v1"));
  ASSERT_TRUE(first.ok()) << first.status();
  absl::StatusOr<v1::Game> again = writer_->Void(admin_, VoidRequest("g1", "v1"));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->SerializeAsString(), first->SerializeAsString());
  absl::StatusOr<v1::Game> other = writer_->Void(admin_, VoidRequest("g1", "v2"));
  EXPECT_EQ(other.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(other.status().message(), "game \"g1\" is already voided");
  EXPECT_EQ(Events("g1").size(), 2u);
}

TEST_P(GameWriterTest, AVoidNeedsAReasonAndAWriter) {
  CreateAsAdmin("g1", Simulated(5));
  absl::StatusOr<v1::Game> no_reason = writer_->Void(admin_, VoidRequest("g1", "v1", ""));
  EXPECT_EQ(no_reason.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(FieldOf(no_reason.status()), "reason");
  const access::Caller elsewhere = SignIn(store::Role::kOrganiser, "org", {"north"});
  EXPECT_EQ(writer_->Void(elsewhere, VoidRequest("g1", "v1")).status().code(),
            StatusCode::kPermissionDenied);
  EXPECT_EQ(FieldOf(writer_->Void(admin_, VoidRequest("no such name", "v1")).status()), "name");
  EXPECT_EQ(Events("g1").size(), 1u);
}

// `standings` with the first two players' places swapped.
v1::Standings Swapped(const v1::Standings& standings) {
  v1::Standings out = standings;
  const int32_t first = out.players(0).place();
  out.mutable_players(0)->set_place(out.players(1).place());
  out.mutable_players(1)->set_place(first);
  return out;
}

TEST_P(GameWriterTest, ACorrectionIsStoredAfterTheResultAndAnsweredAgain) {
  absl::StatusOr<v1::SubmitGameResponse> submitted =
      writer_->Submit(admin_, SubmitRequest("g1", Simulated(7)), Never());
  ASSERT_TRUE(submitted.ok()) << submitted.status();
  const int64_t result = submitted->game().last_event();
  const v1::Standings corrected = Swapped(submitted->adjudication().standings());

  absl::StatusOr<int64_t> sequence =
      writer_->RecordCorrection(admin_, "g1", corrected, "disputes/d1", "c1");
  ASSERT_TRUE(sequence.ok()) << sequence.status();
  EXPECT_EQ(*sequence, result + 1);
  const std::vector<store::StoredEvent> events = Events("g1");
  ASSERT_EQ(static_cast<int64_t>(events.size()), result + 1);
  EXPECT_EQ(events.back().type, store::kGameFinishedType);
  EXPECT_EQ(events.back().recorded_by, "root");
  v1::GameFinished body;
  ASSERT_TRUE(body.ParseFromString(events.back().payload));
  EXPECT_EQ(body.correction(), "disputes/d1");
  EXPECT_EQ(body.verdict(), v1::VERDICT_LEGAL);
  EXPECT_EQ(body.standings().SerializeAsString(), corrected.SerializeAsString());

  // The same request again: its event.
  absl::StatusOr<int64_t> again =
      writer_->RecordCorrection(admin_, "g1", corrected, "disputes/d1", "c1");
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(*again, result + 1);
  // The same request id for another correction is refused.
  absl::StatusOr<int64_t> other = writer_->RecordCorrection(
      admin_, "g1", submitted->adjudication().standings(), "disputes/d2", "c1");
  EXPECT_EQ(other.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(other.status().message(),
            "request id \"c1\" was already used for a different correction");
  EXPECT_EQ(static_cast<int64_t>(Events("g1").size()), result + 1);
}

TEST_P(GameWriterTest, ACorrectionEndsAnUnfinishedGame) {
  const log::GameLog log = Simulated(5);
  CreateAsAdmin("g1", log);
  absl::StatusOr<v1::AppendActionsResponse> appended =
      writer_->Append(admin_, AppendRequest("g1", 1, log, 0, 4, "a1"), Never());
  ASSERT_TRUE(appended.ok()) << appended.status();
  v1::Standings standings;
  for (const char* player : {"p1", "p2"}) standings.add_players()->set_player(player);
  standings.mutable_players(0)->set_place(2);
  standings.mutable_players(1)->set_place(1);
  absl::StatusOr<int64_t> sequence =
      writer_->RecordCorrection(admin_, "g1", standings, "disputes/d1", "c1");
  ASSERT_TRUE(sequence.ok()) << sequence.status();
  EXPECT_EQ(*sequence, 6);
  EXPECT_EQ(Row("g1").status, store::GameStatus::kFinished);
}

TEST_P(GameWriterTest, AVoidedGameTakesNoCorrection) {
  CreateAsAdmin("g1", Simulated(5));
  ASSERT_TRUE(writer_->Void(admin_, VoidRequest("g1", "v1")).ok());
  absl::StatusOr<int64_t> refused =
      writer_->RecordCorrection(admin_, "g1", v1::Standings(), "disputes/d1", "c1");
  EXPECT_EQ(refused.status().code(), StatusCode::kFailedPrecondition) << refused.status();
  const access::Caller auditor = SignIn(store::Role::kAuditor, "aud");
  EXPECT_EQ(writer_->RecordCorrection(auditor, "g1", v1::Standings(), "d", "c2").status().code(),
            StatusCode::kPermissionDenied);
  EXPECT_EQ(Events("g1").size(), 2u);
}

INSTANTIATE_TEST_SUITE_P(BothStores, RevealTest,
                         ::testing::Values(StoreKind::kMemory, StoreKind::kPostgres), StoreName);

}  // namespace
}  // namespace arbiter::games::testing
