// ScoreSheetWriter (ReportResult) on the in-memory stores and on PostgreSQL:
// a score sheet recorded as the table's game result and confirmed, marked
// reported everywhere it is read, retried, interrupted, and refused with its
// exact message (a bad sheet, a table already settled, a caller who may not).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "arbiter/v1/events/game_events.pb.h"
#include "services/common/resource_names.h"
#include "services/games/official_result.h"
#include "services/league/league_settings.h"
#include "tests/services/tournament/writers_fixture.h"

namespace arbiter::tournament::testing {
namespace {

using Loss = FlakyStreamStore::Loss;

const access::Caller& Olga() {
  static const access::Caller* const olga = new access::Caller(Organiser("olga", {"cup"}));
  return *olga;
}

// Places 1-3 for seats 1, 2 and 4 of table 1, seat 3 a no-show.
v1::ReportResultRequest Sheet(const std::string& request_id) {
  v1::ReportResultRequest request;
  request.set_name("tournaments/cup");
  request.set_request_id(request_id);
  request.set_round(1);
  request.set_table(1);
  const int places[] = {2, 1, 0, 3};
  const int64_t points[] = {30, 45, 0, 10};
  for (int i = 0; i < 4; ++i) {
    v1::ReportedSeat* seat = request.add_seats();
    seat->set_place(places[i]);
    seat->set_game_points(points[i]);
  }
  request.mutable_seats(2)->set_outcome(v1::SEAT_OUTCOME_NO_SHOW);
  request.add_signed_by("Ann Lee");
  request.add_signed_by("Bob");
  request.set_note("played on cardboard");
  return request;
}

// A player token of `player` bound to `tournament` (every table it sits at).
access::Caller SeatToken(const std::string& player, const std::string& tournament = "cup") {
  access::Caller caller;
  caller.principal = player;
  caller.role = store::Role::kPlayer;
  caller.tournaments = {tournament};
  return caller;
}

v1::ReportResultRequest Accept(const std::string& request_id) {
  v1::ReportResultRequest request;
  request.set_name("tournaments/cup");
  request.set_request_id(request_id);
  request.set_round(1);
  request.set_table(1);
  request.set_accept_proposal(true);
  return request;
}

const v1::StandingsRow& RowOf(const v1::TournamentStandings& standings, const std::string& player) {
  for (const v1::StandingsRow& row : standings.rows()) {
    if (row.player() == player) return row;
  }
  ADD_FAILURE() << player << " is not in the standings";
  return standings.rows(0);
}

class ScoreSheetTest : public ::testing::TestWithParam<Backend> {
 protected:
  // 8 players, one round at two tables of 4, a no-show scoring 1 point.
  void SetUp() override {
    v1::TournamentSettings settings = Settings(1);
    settings.set_no_show_points(1);
    arena_.Create("cup", settings, Names(8), Olga());
    round_ = arena_.Start("cup", 1, Olga());
    ASSERT_EQ(round_.tables_size(), 2);
  }

  std::string GameId(int table) {
    return common::IdOf(common::IdKind::kGame, round_.tables(table - 1).game());
  }
  const std::string& PlayerAt(int table, int seat) {
    return round_.tables(table - 1).players(seat - 1);
  }
  // Every event of the tournament and of table 1's game.
  size_t Events() {
    return arena_.StreamEvents("tournaments/cup").size() + arena_.GameEvents(GameId(1)).size();
  }

  Arena arena_{GetParam()};
  v1::TournamentRound round_;
};

TEST_P(ScoreSheetTest, ASheetEndsTheTablesGameIsConfirmedAndReadsAsReported) {
  absl::StatusOr<v1::TournamentRound> answer = arena_.score_sheets().ReportResult(Olga(), Sheet("s"));
  ASSERT_TRUE(answer.ok()) << answer.status();
  const v1::TournamentTable& table = answer->tables(0);
  EXPECT_EQ(table.status(), v1::TABLE_STATUS_CONFIRMED);
  EXPECT_TRUE(table.reported());
  EXPECT_EQ(std::vector<std::string>(table.reported_result().signed_by().begin(),
                                     table.reported_result().signed_by().end()),
            (std::vector<std::string>{"Ann Lee", "Bob"}));
  EXPECT_EQ(std::vector<std::string>(table.points().begin(), table.points().end()),
            (std::vector<std::string>{"2", "4", "1", "1"}));
  EXPECT_FALSE(answer->tables(1).reported());

  // The game's log ends with the sheet, recorded by olga, not refereed.
  const std::vector<store::StoredEvent> events = arena_.GameEvents(GameId(1));
  const store::StoredEvent& last = events.back();
  ASSERT_EQ(last.type, store::kGameFinishedType);
  EXPECT_EQ(last.recorded_by, "olga");
  v1::GameFinished finished;
  ASSERT_TRUE(finished.ParseFromString(last.payload));
  EXPECT_EQ(finished.verdict(), v1::VERDICT_UNSPECIFIED);
  EXPECT_EQ(finished.actions(), 0);
  EXPECT_EQ(finished.reported().outcomes(2), v1::SEAT_OUTCOME_NO_SHOW);
  EXPECT_EQ(finished.standings().players(1).place(), 1);
  EXPECT_EQ(finished.standings().players(1).score(), 45);

  absl::StatusOr<v1::OfficialResult> official = games::OfficialResultOf(last);
  ASSERT_TRUE(official.ok()) << official.status();
  EXPECT_EQ(official->source(), v1::RESULT_SOURCE_REPORTED);
  EXPECT_EQ(official->reason(), "score sheet signed by Ann Lee, Bob: played on cardboard");
  EXPECT_EQ(official->recorded_by(), "olga");

  // The standings name the no-show and mark every seat's round reported.
  const v1::TournamentStandings standings = arena_.Standings("cup");
  const v1::StandingsRow& absent = RowOf(standings, PlayerAt(1, 3));
  EXPECT_EQ(absent.rounds(0).kind(), "no-show");
  EXPECT_EQ(absent.points(), "1");
  EXPECT_TRUE(absent.rounds(0).reported());
  const v1::StandingsRow& winner = RowOf(standings, PlayerAt(1, 2));
  EXPECT_EQ(winner.rounds(0).kind(), "played");
  EXPECT_EQ(winner.rounds(0).place(), 1);
  EXPECT_TRUE(winner.rounds(0).reported());
  EXPECT_FALSE(RowOf(standings, PlayerAt(2, 1)).rounds(0).reported());

  // A league that does not rate reported results skips it; one that does,
  // not with a seat that did not play.
  store::ResultEvent result;
  result.event = last;
  absl::StatusOr<engine::league::GameResult> rated = league::ResultOf(result);
  ASSERT_TRUE(rated.ok()) << rated.status();
  EXPECT_TRUE(rated->reported);
  EXPECT_FALSE(rated->legal);
}

TEST_P(ScoreSheetTest, ARetryIsAnsweredAndAnotherSheetForTheTableIsRefused) {
  ASSERT_TRUE(arena_.score_sheets().ReportResult(Olga(), Sheet("s")).ok());
  const size_t events = Events();
  absl::StatusOr<v1::TournamentRound> again = arena_.score_sheets().ReportResult(Olga(), Sheet("s"));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_TRUE(again->tables(0).reported());
  EXPECT_EQ(Events(), events);

  absl::StatusOr<v1::TournamentRound> other = arena_.score_sheets().ReportResult(Olga(), Sheet("s2"));
  EXPECT_EQ(other.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(other.status().message(),
            "round 1 table 1 already has a confirmed result; to change it open a dispute "
            "(arbiter dispute open)");
  EXPECT_EQ(Events(), events);
}

TEST_P(ScoreSheetTest, AGameThatIsOverTakesNoSheet) {
  arena_.Play(round_.tables(1));
  v1::ReportResultRequest request = Sheet("s");
  request.set_table(2);
  absl::StatusOr<v1::TournamentRound> refused = arena_.score_sheets().ReportResult(Olga(), request);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(refused.status().message(),
            "game \"" + GameId(2) +
                "\" is already over: a score sheet cannot replace its result; open a dispute on "
                "the table instead (arbiter dispute open)");
}

TEST_P(ScoreSheetTest, ABadSheetIsRefusedNamingWhatIsWrongAndNothingIsWritten) {
  const size_t events = Events();
  struct Case {
    v1::ReportResultRequest request;
    std::string message;
  };
  std::vector<Case> cases;
  cases.push_back({Sheet("a"), ""});
  cases.back().request.mutable_seats()->RemoveLast();
  cases.back().message = "table 1 has 4 seats (" + PlayerAt(1, 1) + ", " + PlayerAt(1, 2) + ", " +
                         PlayerAt(1, 3) + ", " + PlayerAt(1, 4) + "); the sheet gives 3";
  cases.push_back({Sheet("b"), "say who signed the score sheet (--signed-by NAME, once per signature)"});
  cases.back().request.clear_signed_by();
  cases.push_back({Sheet("c"), "place 4 is outside 1-3 for this table"});
  cases.back().request.mutable_seats(3)->set_place(4);
  cases.push_back({Sheet("d"), "seat 3 did not play, so its game points must be 0"});
  cases.back().request.mutable_seats(2)->set_game_points(12);
  cases.push_back({Sheet("e"), "signed_by[1] holds a control character (U+0009); use printable text only"});
  cases.back().request.set_signed_by(1, "Bo\tb");
  for (const Case& c : cases) {
    absl::StatusOr<v1::TournamentRound> refused =
        arena_.score_sheets().ReportResult(Olga(), c.request);
    EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument) << c.message;
    EXPECT_EQ(refused.status().message(), c.message);
  }
  EXPECT_EQ(Events(), events);
}

TEST_P(ScoreSheetTest, OnlyTheTournamentsOrganisersMayEnterASheet) {
  const size_t events = Events();
  for (const access::Caller& caller : {Organiser("eve", {"other"}), Player(PlayerAt(1, 1))}) {
    absl::StatusOr<v1::TournamentRound> refused =
        arena_.score_sheets().ReportResult(caller, Sheet("s"));
    EXPECT_EQ(refused.status().code(), absl::StatusCode::kPermissionDenied) << caller.principal;
  }
  EXPECT_EQ(Events(), events);
  EXPECT_TRUE(arena_.score_sheets().ReportResult(Admin(), Sheet("s")).ok());
}

TEST_P(ScoreSheetTest, ASheetInterruptedBeforeItsConfirmationIsConfirmedByItsRetry) {
  arena_.streams().FailNextAppend("tournaments/", Loss::kBeforeWrite);
  absl::StatusOr<v1::TournamentRound> first = arena_.score_sheets().ReportResult(Olga(), Sheet("s"));
  EXPECT_TRUE(arena_.streams().Failed());
  EXPECT_EQ(first.status().code(), absl::StatusCode::kUnavailable) << first.status();
  // The game's log has the sheet; the table awaits confirmation.
  const v1::TournamentTable waiting = arena_.Round("cup", 1).tables(0);
  EXPECT_EQ(waiting.status(), v1::TABLE_STATUS_PENDING);
  EXPECT_TRUE(waiting.game_over());
  const size_t game_events = arena_.GameEvents(GameId(1)).size();

  absl::StatusOr<v1::TournamentRound> retry = arena_.score_sheets().ReportResult(Olga(), Sheet("s"));
  ASSERT_TRUE(retry.ok()) << retry.status();
  EXPECT_EQ(retry->tables(0).status(), v1::TABLE_STATUS_CONFIRMED);
  EXPECT_TRUE(retry->tables(0).reported());
  EXPECT_EQ(arena_.GameEvents(GameId(1)).size(), game_events);
}

TEST_P(ScoreSheetTest, ARulingOnADisputeSupersedesTheSheet) {
  ASSERT_TRUE(arena_.score_sheets().ReportResult(Olga(), Sheet("s")).ok());
  arena_.Open("d1", "cup", 1, 1, Player(PlayerAt(1, 1)));
  absl::StatusOr<v1::Dispute> ruled = arena_.disputes().RuleDispute(
      Olga(), RuleRequest("d1", v1::RULING_KIND_CORRECTED, {1, 2, 3, 4}, {50, 40, 30, 20}));
  ASSERT_TRUE(ruled.ok()) << ruled.status();
  const v1::TournamentTable table = arena_.Round("cup", 1).tables(0);
  EXPECT_EQ(table.status(), v1::TABLE_STATUS_CORRECTED);
  EXPECT_FALSE(table.reported());
  EXPECT_EQ(RowOf(arena_.Standings("cup"), PlayerAt(1, 3)).rounds(0).kind(), "played");
  absl::StatusOr<v1::OfficialResult> official =
      games::OfficialResultOf(arena_.GameEvents(GameId(1)).back());
  ASSERT_TRUE(official.ok()) << official.status();
  EXPECT_EQ(official->source(), v1::RESULT_SOURCE_CORRECTED);
}

TEST_P(ScoreSheetTest, APlayersProposalCountsOnceTheOrganiserAcceptsIt) {
  const access::Caller player = SeatToken(PlayerAt(1, 1));
  absl::StatusOr<v1::TournamentRound> proposed =
      arena_.score_sheets().ReportResult(player, Sheet("p"));
  ASSERT_TRUE(proposed.ok()) << proposed.status();
  EXPECT_EQ(proposed->tables(0).status(), v1::TABLE_STATUS_PENDING);
  EXPECT_EQ(proposed->tables(0).proposal().proposed_by(), PlayerAt(1, 1));
  EXPECT_EQ(proposed->tables(0).proposal().signed_by(0), "Ann Lee");
  // A player's answer withholds the seeds of tables still in play.
  EXPECT_TRUE(proposed->tables(1).seed_withheld());
  EXPECT_EQ(proposed->tables(1).seed(), 0u);
  EXPECT_TRUE(proposed->tables(0).seed_withheld());
  // Nothing in the game's log yet, nothing counted.
  EXPECT_EQ(arena_.GameEvents(GameId(1)).size(), 1u);
  EXPECT_EQ(RowOf(arena_.Standings("cup"), PlayerAt(1, 3)).rounds(0).kind(), "pending");

  absl::StatusOr<v1::TournamentRound> accepted =
      arena_.score_sheets().ReportResult(Olga(), Accept("a"));
  ASSERT_TRUE(accepted.ok()) << accepted.status();
  const v1::TournamentTable& table = accepted->tables(0);
  EXPECT_EQ(table.status(), v1::TABLE_STATUS_CONFIRMED);
  EXPECT_TRUE(table.reported());
  EXPECT_FALSE(table.has_proposal());
  EXPECT_EQ(table.reported_result().proposed_by(), PlayerAt(1, 1));
  const store::StoredEvent last = arena_.GameEvents(GameId(1)).back();
  EXPECT_EQ(last.recorded_by, "olga");
  absl::StatusOr<v1::OfficialResult> official = games::OfficialResultOf(last);
  ASSERT_TRUE(official.ok()) << official.status();
  EXPECT_EQ(official->reason(), "score sheet signed by Ann Lee, Bob (proposed by " +
                                    PlayerAt(1, 1) + "): played on cardboard");
  EXPECT_EQ(RowOf(arena_.Standings("cup"), PlayerAt(1, 3)).rounds(0).kind(), "no-show");
}

TEST_P(ScoreSheetTest, OnlyAPlayerOfTheTableProposesAndOnlyAnOrganiserAccepts) {
  const size_t events = Events();
  absl::StatusOr<v1::TournamentRound> elsewhere =
      arena_.score_sheets().ReportResult(SeatToken(PlayerAt(2, 1)), Sheet("p"));
  EXPECT_EQ(elsewhere.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(elsewhere.status().message(),
            "this player token may not propose a score sheet for round 1 table 1 of tournament "
            "\"cup\" (a player proposes only for a table it sits at: its seats are " +
                PlayerAt(1, 1) + ", " + PlayerAt(1, 2) + ", " + PlayerAt(1, 3) + ", " +
                PlayerAt(1, 4) + ")");
  absl::StatusOr<v1::TournamentRound> other_event =
      arena_.score_sheets().ReportResult(SeatToken(PlayerAt(1, 1), "other"), Sheet("p"));
  EXPECT_EQ(other_event.status().code(), absl::StatusCode::kPermissionDenied);
  absl::StatusOr<v1::TournamentRound> accepting =
      arena_.score_sheets().ReportResult(SeatToken(PlayerAt(1, 1)), Accept("a"));
  EXPECT_EQ(accepting.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(accepting.status().message(),
            "this player token may not accept a score sheet in tournament \"cup\" (its "
            "organisers accept proposals)");
  EXPECT_EQ(Events(), events);
}

TEST_P(ScoreSheetTest, ATablesPlayersProposeAtMostTwentySheets) {
  const access::Caller player = SeatToken(PlayerAt(1, 1));
  for (int i = 0; i < kMaxProposalsPerTable; ++i) {
    ASSERT_TRUE(
        arena_.score_sheets().ReportResult(player, Sheet(absl::StrCat("p", i))).ok());
  }
  const size_t events = Events();
  absl::StatusOr<v1::TournamentRound> more =
      arena_.score_sheets().ReportResult(player, Sheet("one more"));
  EXPECT_EQ(more.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(more.status().message(),
            "round 1 table 1 has 20 proposed score sheets already (at most 20); ask the "
            "organiser to enter the sheet");
  EXPECT_EQ(Events(), events);
  // A retry of an earlier proposal is still answered.
  EXPECT_TRUE(arena_.score_sheets().ReportResult(player, Sheet("p3")).ok());
}

TEST_P(ScoreSheetTest, AnAcceptanceNeedsAProposalAndNoSheetOfItsOwn) {
  absl::StatusOr<v1::TournamentRound> nothing =
      arena_.score_sheets().ReportResult(Olga(), Accept("a"));
  EXPECT_EQ(nothing.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(nothing.status().message(),
            "round 1 table 1 has no proposed score sheet to accept; enter the sheet itself "
            "(arbiter tournament report with --place, --signed-by, ...)");
  ASSERT_TRUE(arena_.score_sheets().ReportResult(SeatToken(PlayerAt(1, 2)), Sheet("p")).ok());
  v1::ReportResultRequest both = Sheet("b");
  both.set_accept_proposal(true);
  absl::StatusOr<v1::TournamentRound> mixed = arena_.score_sheets().ReportResult(Olga(), both);
  EXPECT_EQ(mixed.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(mixed.status().message(),
            "an acceptance takes the proposal as it stands: leave seats, signed_by and note empty "
            "(--accept with no other sheet flags)");
  EXPECT_FALSE(arena_.Round("cup", 1).tables(0).reported());
}

INSTANTIATE_TEST_SUITE_P(Backends, ScoreSheetTest,
                         ::testing::Values(Backend::kMemory, Backend::kPostgres), BackendName);

}  // namespace
}  // namespace arbiter::tournament::testing
