// A ruling interrupted between its writes, and retried. A ruling writes
// three times: the "ruling_recorded" event on the tournament's stream, the
// game's void or corrected result (through the GameWriter), and the
// "dispute_ruled" event on the dispute's stream (dispute_writer.h). Each
// test loses one of those stream writes (before it is stored, or after,
// with its answer lost), retries the same request, and compares everything
// the ruling touched with the same ruling made without interruption on
// stores of their own: the game voided or corrected once, the tournament's
// ruling recorded once, the dispute ruled once, the same ruling with the
// same standing changes, and the same round and standings.
#include <gtest/gtest.h>

#include <google/protobuf/util/message_differencer.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "services/common/resource_names.h"
#include "services/tournament/dispute_reader.h"
#include "services/tournament/rulings.h"
#include "services/tournament/tournament_log.h"
#include "tests/services/tournament/writers_fixture.h"

namespace arbiter::tournament::testing {
namespace {

using Loss = FlakyStreamStore::Loss;
using google::protobuf::util::MessageDifferencer;

const access::Caller& Olga() {
  static const access::Caller* const olga = new access::Caller(Organiser("olga", {"cup"}));
  return *olga;
}

// Round 1 of "cup" played and confirmed at both tables, and dispute "d1"
// opened on table 1.
void PlayAndDispute(Arena& arena) {
  arena.Create("cup", Settings(2), Names(8), Olga());
  arena.PlayRound("cup", 1, Olga());
  arena.Open("d1", "cup", 1, 1, Olga());
}

v1::RuleDisputeRequest Ruling(v1::RulingKind kind) {
  if (kind == v1::RULING_KIND_CORRECTED) return RuleRequest("d1", kind, {4, 3, 2, 1}, {1, 2, 3, 4});
  return RuleRequest("d1", kind);
}

// Everything a ruling on "d1" touches, without its times and hashes.
struct Outcome {
  v1::Dispute dispute;
  v1::TournamentRound round;
  v1::TournamentStandings standings;
  int tournament_rulings = 0;  // "ruling_recorded" events naming d1
  int dispute_rulings = 0;     // "dispute_ruled" events
  int game_writes = 0;         // events of the game's log naming d1
  store::GameStatus game_status = store::GameStatus::kUnspecified;
};

Outcome OutcomeOf(Arena& arena) {
  Outcome out;
  absl::StatusOr<v1::Dispute> dispute = ReadDispute(arena.streams(), "d1");
  EXPECT_TRUE(dispute.ok()) << dispute.status();
  if (dispute.ok()) out.dispute = *dispute;
  out.dispute.clear_open_time();
  out.dispute.clear_last_event_hash();
  out.dispute.mutable_ruling()->clear_rule_time();
  out.round = arena.Round("cup", 1);
  out.standings = arena.Standings("cup");
  for (const store::StreamEvent& event : arena.StreamEvents("tournaments/cup")) {
    v1::RulingRecorded recorded;
    if (event.type == kTypeRulingRecorded && recorded.ParseFromString(event.payload) &&
        recorded.dispute() == "d1") {
      ++out.tournament_rulings;
    }
  }
  for (const store::StreamEvent& event : arena.StreamEvents("disputes/d1")) {
    if (event.type == kTypeDisputeRuled) ++out.dispute_rulings;
  }
  const std::string game_id = common::IdOf(common::IdKind::kGame, out.round.tables(0).game());
  for (const store::StoredEvent& event : arena.GameEvents(game_id)) {
    v1::GameVoided voided;
    v1::GameFinished finished;
    if ((event.type == store::kGameVoidedType && voided.ParseFromString(event.payload) &&
         absl::StartsWith(voided.reason(), "dispute d1: ")) ||
        (event.type == store::kGameFinishedType && finished.ParseFromString(event.payload) &&
         absl::StartsWith(finished.correction(), "dispute d1: "))) {
      ++out.game_writes;
    }
  }
  absl::StatusOr<store::GameRecord> game = arena.events().GetGame(game_id);
  EXPECT_TRUE(game.ok()) << game.status();
  if (game.ok()) out.game_status = game->status;
  return out;
}

// The outcome of `kind` ruled on d1 without interruption (computed once per
// backend and kind).
const Outcome& Uninterrupted(Backend backend, v1::RulingKind kind) {
  static auto* const outcomes = new std::map<std::pair<Backend, v1::RulingKind>, Outcome>();
  auto [it, added] = outcomes->try_emplace({backend, kind});
  if (added) {
    Arena arena(backend);
    PlayAndDispute(arena);
    absl::StatusOr<v1::Dispute> ruled = arena.disputes().RuleDispute(Olga(), Ruling(kind));
    EXPECT_TRUE(ruled.ok()) << ruled.status();
    it->second = OutcomeOf(arena);
  }
  return it->second;
}

// What differs between two messages; empty if nothing does.
std::string Differences(const google::protobuf::Message& got,
                        const google::protobuf::Message& want) {
  std::string out;
  MessageDifferencer differencer;
  differencer.ReportDifferencesToString(&out);
  differencer.Compare(want, got);
  return out;
}

void ExpectSameOutcome(const Outcome& got, const Outcome& want) {
  EXPECT_EQ(got.dispute.state(), v1::DISPUTE_STATE_RULED);
  EXPECT_EQ(Differences(got.dispute, want.dispute), "");
  EXPECT_FALSE(want.dispute.ruling().changes().empty())
      << "a ruling that changes nothing proves little";
  EXPECT_EQ(Differences(got.round, want.round), "");
  EXPECT_EQ(Differences(got.standings, want.standings), "");
  EXPECT_EQ(got.tournament_rulings, 1);
  EXPECT_EQ(got.dispute_rulings, 1);
  EXPECT_EQ(got.game_writes, 1);
  EXPECT_EQ(got.game_status, want.game_status);
}

class RulingRetryTest : public ::testing::TestWithParam<Backend> {
 protected:
  // Rules d1 with `kind` while the next append to `stream` ("tournaments/",
  // "disputes/") is lost as `loss` says, then retries the same request.
  // Returns the retry's answer and leaves the outcome in `outcome`.
  absl::StatusOr<v1::Dispute> RuleInterrupted(v1::RulingKind kind, const std::string& stream,
                                              Loss loss, Outcome& outcome) {
    Arena arena(GetParam());
    PlayAndDispute(arena);
    arena.streams().FailNextAppend(stream, loss);
    absl::StatusOr<v1::Dispute> first = arena.disputes().RuleDispute(Olga(), Ruling(kind));
    EXPECT_TRUE(arena.streams().Failed());
    EXPECT_EQ(first.status().code(), absl::StatusCode::kUnavailable) << first.status();
    absl::StatusOr<v1::Dispute> retry = arena.disputes().RuleDispute(Olga(), Ruling(kind));
    outcome = OutcomeOf(arena);
    return retry;
  }

  // The retry is answered with the ruled dispute and ends as `kind` ruled
  // without interruption.
  void ExpectRetryCompletes(const std::string& stream, Loss loss) {
    for (v1::RulingKind kind : {v1::RULING_KIND_VOID, v1::RULING_KIND_CORRECTED}) {
      SCOPED_TRACE(RulingName(kind));
      Outcome outcome;
      absl::StatusOr<v1::Dispute> retry = RuleInterrupted(kind, stream, loss, outcome);
      ASSERT_TRUE(retry.ok()) << retry.status();
      EXPECT_EQ(retry->state(), v1::DISPUTE_STATE_RULED);
      EXPECT_EQ(retry->ruling().kind(), kind);
      ExpectSameOutcome(outcome, Uninterrupted(GetParam(), kind));
    }
  }
};

TEST_P(RulingRetryTest, ARulingStoppedBeforeItsTournamentEventIsMadeWholeByItsRetry) {
  ExpectRetryCompletes("tournaments/", Loss::kBeforeWrite);
}

TEST_P(RulingRetryTest, ARulingWhoseTournamentEventsAnswerWasLostIsCompletedByItsRetry) {
  ExpectRetryCompletes("tournaments/", Loss::kAfterWrite);
}

TEST_P(RulingRetryTest, ARulingStoppedBeforeItsDisputeEventIsCompletedByItsRetry) {
  ExpectRetryCompletes("disputes/", Loss::kBeforeWrite);
}

TEST_P(RulingRetryTest, ARulingWhoseLastAnswerWasLostIsWholeAndItsRetryFindsTheDisputeClosed) {
  for (v1::RulingKind kind : {v1::RULING_KIND_VOID, v1::RULING_KIND_CORRECTED}) {
    SCOPED_TRACE(RulingName(kind));
    Outcome outcome;
    absl::StatusOr<v1::Dispute> retry = RuleInterrupted(kind, "disputes/", Loss::kAfterWrite,
                                                        outcome);
    EXPECT_EQ(retry.status().code(), absl::StatusCode::kFailedPrecondition) << retry.status();
    EXPECT_EQ(retry.status().message(),
              absl::StrCat("dispute \"d1\" is closed: ruled ",
                           kind == v1::RULING_KIND_VOID ? "void" : "corrected result", " by olga"));
    ExpectSameOutcome(outcome, Uninterrupted(GetParam(), kind));
  }
}

TEST_P(RulingRetryTest, ARulingRecordedByOneArbiterIsCompletedByAnotherWithTheGameCorrectedOnce) {
  Arena arena(GetParam());
  PlayAndDispute(arena);
  // Olga's ruling stops after the game's corrected result.
  arena.streams().FailNextAppend("disputes/", Loss::kBeforeWrite);
  const v1::RuleDisputeRequest request = Ruling(v1::RULING_KIND_CORRECTED);
  EXPECT_EQ(arena.disputes().RuleDispute(Olga(), request).status().code(),
            absl::StatusCode::kUnavailable);
  // An admin asks for the same ruling: olga's, recorded first, is the
  // ruling; the admin's completes it (its game write would have another
  // request id) and is told so.
  absl::StatusOr<v1::Dispute> other = arena.disputes().RuleDispute(Admin(), request);
  EXPECT_EQ(other.status().code(), absl::StatusCode::kFailedPrecondition) << other.status();
  EXPECT_EQ(other.status().message(), "dispute \"d1\" is closed: ruled corrected result by olga");
  ExpectSameOutcome(OutcomeOf(arena), Uninterrupted(GetParam(), v1::RULING_KIND_CORRECTED));
}

TEST_P(RulingRetryTest, AVoidTheGameWouldRefuseIsRefusedBeforeAnythingIsWritten) {
  Arena arena(GetParam());
  PlayAndDispute(arena);
  // 1000 characters fit a ruling's reason, not the game's "dispute d1: ..." one.
  v1::RuleDisputeRequest request = Ruling(v1::RULING_KIND_VOID);
  request.set_reason(std::string(1000, 'r'));
  absl::StatusOr<v1::Dispute> ruled = arena.disputes().RuleDispute(Olga(), request);
  EXPECT_EQ(ruled.status().code(), absl::StatusCode::kInvalidArgument) << ruled.status();
  EXPECT_EQ(ruled.status().message(),
            "reason is 1000 characters; at most 988");
  const Outcome outcome = OutcomeOf(arena);
  EXPECT_EQ(outcome.dispute.state(), v1::DISPUTE_STATE_OPEN);
  EXPECT_EQ(outcome.tournament_rulings, 0);
  EXPECT_EQ(outcome.game_writes, 0);
  EXPECT_EQ(outcome.game_status, store::GameStatus::kFinished);
}

INSTANTIATE_TEST_SUITE_P(Stores, RulingRetryTest,
                         ::testing::Values(Backend::kMemory, Backend::kPostgres), BackendName);

}  // namespace
}  // namespace arbiter::tournament::testing
