// DisputeWriter without gRPC, on the in-memory stores and on PostgreSQL:
// who may open a dispute, what a ruling of each kind writes to the game and
// reports, a ruled dispute closed, and bad rulings writing nothing.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "services/common/resource_names.h"
#include "services/common/status_details.h"
#include "tests/services/tournament/writers_fixture.h"

namespace arbiter::tournament::testing {
namespace {

const access::Caller& Olga() {
  static const access::Caller* const olga = new access::Caller(Organiser("olga", {"cup"}));
  return *olga;
}

v1::OpenDisputeRequest OpenRequest(const std::string& request_id, int table, int64_t event) {
  v1::OpenDisputeRequest request;
  request.set_request_id(request_id);
  request.set_dispute_id("d1");
  request.set_tournament("tournaments/cup");
  request.set_round(1);
  request.set_table(table);
  request.set_event(event);
  request.set_reason("a card was dealt twice");
  return request;
}

class DisputeWriterTest : public ::testing::TestWithParam<Backend> {
 protected:
  // Round 1 of "cup" (8 players) played and confirmed.
  void SetUp() override {
    arena_.Create("cup", Settings(2), Names(8), Olga());
    round_ = arena_.PlayRound("cup", 1, Olga());
    ASSERT_EQ(round_.tables_size(), 2);
    game_id_ = common::IdOf(common::IdKind::kGame, round_.tables(0).game());
  }

  absl::StatusOr<v1::Dispute> Open(const access::Caller& caller, int table, int64_t event = 2) {
    return arena_.disputes().OpenDispute(caller, OpenRequest("open", table, event),
                                         [] { return absl::OkStatus(); });
  }

  absl::StatusOr<v1::Dispute> Rule(const v1::RuleDisputeRequest& request) {
    return arena_.disputes().RuleDispute(Olga(), request);
  }

  // What each of the table's players had in the standings before.
  std::map<std::string, std::string> PointsOfTableOne(const v1::TournamentStandings& standings) {
    std::map<std::string, std::string> out;
    for (const v1::StandingsRow& row : standings.rows()) {
      for (const std::string& p : round_.tables(0).players()) {
        if (row.player() == p) out[p] = row.points();
      }
    }
    return out;
  }

  Arena arena_{GetParam()};
  v1::TournamentRound round_;
  std::string game_id_;
};

TEST_P(DisputeWriterTest, OnlyTheTablesPlayersAndTheTournamentsArbitersOpenADispute) {
  const std::string seated = round_.tables(0).players(1);
  const std::string bystander = round_.tables(1).players(0);
  absl::StatusOr<v1::Dispute> refused = Open(Player(bystander), 1);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(refused.status().message(),
            "this token may not open a dispute on round 1 table 1 (admins, the tournament's "
            "organisers and the table's players only)");
  const int64_t last = arena_.GameEvents(game_id_).back().sequence;
  absl::StatusOr<v1::Dispute> beyond = Open(Player(seated), 1, last + 1);
  EXPECT_EQ(beyond.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(beyond.status().message(),
            absl::StrCat("event: game \"", game_id_, "\" has events 1-", last,
                         " (0: the whole game)"));

  absl::StatusOr<v1::Dispute> opened = Open(Player(seated), 1);
  ASSERT_TRUE(opened.ok()) << opened.status();
  EXPECT_EQ(opened->name(), "disputes/d1");
  EXPECT_EQ(opened->state(), v1::DISPUTE_STATE_OPEN);
  EXPECT_EQ(opened->opened_by(), seated);
  EXPECT_EQ(opened->game(), round_.tables(0).game());
  EXPECT_EQ(opened->adjudication().verdict(), v1::VERDICT_LEGAL);
  EXPECT_TRUE(opened->adjudication().chain_intact());
  EXPECT_EQ(opened->adjudication().events(), last);

  v1::OpenDisputeRequest again = OpenRequest("open-again", 2, 2);
  absl::StatusOr<v1::Dispute> taken =
      arena_.disputes().OpenDispute(Olga(), again, [] { return absl::OkStatus(); });
  EXPECT_EQ(taken.status().code(), absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(taken.status().message(),
            "dispute \"d1\" already exists (round 1 table 1 of tournament \"cup\"); read it, or open "
            "yours under another dispute id");
  ASSERT_TRUE(common::ErrorInfoOf(taken.status()).has_value());
  EXPECT_EQ(common::ErrorInfoOf(taken.status())->reason(), "DISPUTE_EXISTS");

  // The same person's other dispute under the same id and request id (as the
  // CLI derives it from the dispute id) is told the same, not that a request
  // id was reused; a retry of the first request is answered with the dispute.
  absl::StatusOr<v1::Dispute> reused = arena_.disputes().OpenDispute(
      Player(seated), OpenRequest("open", 1, 1), [] { return absl::OkStatus(); });
  EXPECT_EQ(reused.status().code(), absl::StatusCode::kAlreadyExists) << reused.status();
  EXPECT_EQ(reused.status().message(), taken.status().message());
  absl::StatusOr<v1::Dispute> retried = Open(Player(seated), 1);
  ASSERT_TRUE(retried.ok()) << retried.status();
  EXPECT_EQ(retried->name(), "disputes/d1");
}

TEST_P(DisputeWriterTest, AVoidRulingVoidsTheGameAndReportsWhoLostTheirPoints) {
  ASSERT_TRUE(Open(Olga(), 1).ok());
  const std::map<std::string, std::string> before = PointsOfTableOne(arena_.Standings("cup"));
  const size_t tournament_events = arena_.StreamEvents("tournaments/cup").size();

  absl::StatusOr<v1::Dispute> ruled = Rule(RuleRequest("d1", v1::RULING_KIND_VOID));
  ASSERT_TRUE(ruled.ok()) << ruled.status();
  EXPECT_EQ(ruled->state(), v1::DISPUTE_STATE_RULED);
  EXPECT_EQ(ruled->ruling().kind(), v1::RULING_KIND_VOID);
  EXPECT_EQ(ruled->ruling().ruled_by(), "olga");
  std::map<std::string, v1::StandingChange> changes;
  for (const v1::StandingChange& c : ruled->ruling().changes()) changes[c.player()] = c;
  for (const auto& [player, points] : before) {
    if (points == "0") continue;
    ASSERT_TRUE(changes.contains(player)) << player;
    EXPECT_EQ(changes[player].points_before(), points);
    EXPECT_EQ(changes[player].points_after(), "0");
  }
  const std::vector<store::StoredEvent> game = arena_.GameEvents(game_id_);
  EXPECT_EQ(game.back().type, store::kGameVoidedType);
  EXPECT_EQ(arena_.StreamEvents("tournaments/cup").size(), tournament_events + 1);
  EXPECT_EQ(arena_.Round("cup", 1).tables(0).status(), v1::TABLE_STATUS_VOID);

  absl::StatusOr<v1::Dispute> twice = Rule(RuleRequest("d1", v1::RULING_KIND_UPHOLD));
  EXPECT_EQ(twice.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(twice.status().message(), "dispute \"d1\" is closed: ruled void by olga");
}

TEST_P(DisputeWriterTest, ACorrectedRulingGivesTheGameOneCorrectedResult) {
  ASSERT_TRUE(Open(Olga(), 1).ok());
  absl::StatusOr<v1::Dispute> ruled =
      Rule(RuleRequest("d1", v1::RULING_KIND_CORRECTED, {4, 3, 2, 1}, {1, 2, 3, 4}));
  ASSERT_TRUE(ruled.ok()) << ruled.status();
  EXPECT_FALSE(ruled->ruling().changes().empty());
  const std::vector<store::StoredEvent> game = arena_.GameEvents(game_id_);
  ASSERT_EQ(game.back().type, store::kGameFinishedType);
  v1::GameFinished corrected;
  ASSERT_TRUE(corrected.ParseFromString(game.back().payload));
  EXPECT_EQ(corrected.correction(), "dispute d1: the arbiter watched the recording");
  ASSERT_EQ(corrected.standings().players_size(), 4);
  EXPECT_EQ(corrected.standings().players(0).player(), round_.tables(0).players(0));
  EXPECT_EQ(corrected.standings().players(0).place(), 4);
  EXPECT_EQ(corrected.standings().players(3).score(), 4);
  const v1::TournamentTable table = arena_.Round("cup", 1).tables(0);
  EXPECT_EQ(table.status(), v1::TABLE_STATUS_CORRECTED);
  EXPECT_EQ(table.points(3), "4");

  absl::StatusOr<v1::Dispute> twice = Rule(RuleRequest("d1", v1::RULING_KIND_VOID));
  EXPECT_EQ(twice.status().message(), "dispute \"d1\" is closed: ruled corrected result by olga");
}

TEST_P(DisputeWriterTest, AnUpheldResultLeavesTheGameAndTheStandingsAsTheyWere) {
  ASSERT_TRUE(Open(Olga(), 1).ok());
  const size_t game_events = arena_.GameEvents(game_id_).size();
  absl::StatusOr<v1::Dispute> ruled = Rule(RuleRequest("d1", v1::RULING_KIND_UPHOLD));
  ASSERT_TRUE(ruled.ok()) << ruled.status();
  EXPECT_EQ(ruled->state(), v1::DISPUTE_STATE_RULED);
  EXPECT_TRUE(ruled->ruling().changes().empty());
  EXPECT_EQ(arena_.GameEvents(game_id_).size(), game_events);
  EXPECT_EQ(arena_.Round("cup", 1).tables(0).status(), v1::TABLE_STATUS_CONFIRMED);
}

TEST_P(DisputeWriterTest, ABadRulingIsRefusedWithItsFieldAndWritesNothing) {
  ASSERT_TRUE(Open(Olga(), 1).ok());
  const size_t tournament_events = arena_.StreamEvents("tournaments/cup").size();
  const size_t game_events = arena_.GameEvents(game_id_).size();
  struct Case {
    v1::RuleDisputeRequest request;
    std::string message;
  };
  const std::vector<Case> cases = {
      {RuleRequest("d1", v1::RULING_KIND_UNSPECIFIED),
       "kind is required: RULING_KIND_UPHOLD, _VOID or _CORRECTED"},
      {RuleRequest("d1", v1::RULING_KIND_VOID, {1, 2, 3, 4}, {4, 3, 2, 1}),
       "corrected: only for RULING_KIND_CORRECTED"},
      {RuleRequest("d1", v1::RULING_KIND_UPHOLD, {}, {}), ""},  // reason cleared below
  };
  for (Case c : cases) {
    if (c.message.empty()) {
      c.request.clear_reason();
      c.message = "reason is required: 1-1000 characters saying why";
    }
    absl::StatusOr<v1::Dispute> ruled = Rule(c.request);
    EXPECT_EQ(ruled.status().code(), absl::StatusCode::kInvalidArgument) << c.message;
    EXPECT_EQ(ruled.status().message(), c.message);
  }
  absl::StatusOr<v1::Dispute> short_result =
      Rule(RuleRequest("d1", v1::RULING_KIND_CORRECTED, {1, 2}, {2, 1}));
  EXPECT_EQ(short_result.status().code(), absl::StatusCode::kInvalidArgument);
  absl::StatusOr<v1::Dispute> player =
      arena_.disputes().RuleDispute(Player(round_.tables(0).players(0)),
                                    RuleRequest("d1", v1::RULING_KIND_VOID));
  EXPECT_EQ(player.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(arena_.StreamEvents("tournaments/cup").size(), tournament_events);
  EXPECT_EQ(arena_.GameEvents(game_id_).size(), game_events);
  EXPECT_EQ(arena_.StreamEvents("disputes/d1").size(), 1u);
}

INSTANTIATE_TEST_SUITE_P(Stores, DisputeWriterTest,
                         ::testing::Values(Backend::kMemory, Backend::kPostgres), BackendName);

}  // namespace
}  // namespace arbiter::tournament::testing
