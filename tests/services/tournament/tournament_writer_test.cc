// TournamentWriter without gRPC, on the in-memory stores and on
// PostgreSQL: each write answered, retried, refused with its exact message,
// and a StartRound stopped between its events finished by the next one.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "services/common/resource_names.h"
#include "services/common/status_details.h"
#include "services/tournament/tournament_log.h"
#include "tests/services/tournament/writers_fixture.h"

namespace arbiter::tournament::testing {
namespace {

using Loss = FlakyStreamStore::Loss;

const access::Caller& Olga() {
  static const access::Caller* const olga = new access::Caller(Organiser("olga", {"cup"}));
  return *olga;
}

v1::CreateTournamentRequest CreateRequest(const std::string& request_id, int players) {
  v1::CreateTournamentRequest request;
  request.set_request_id(request_id);
  request.set_tournament_id("cup");
  *request.mutable_settings() = Settings(2);
  for (const std::string& p : Names(players)) request.add_players(p);
  return request;
}

v1::StartRoundRequest StartRequest(const std::string& request_id, int round) {
  v1::StartRoundRequest request;
  request.set_name("tournaments/cup");
  request.set_request_id(request_id);
  request.set_round(round);
  return request;
}

v1::ConfirmResultRequest ConfirmRequest(int round, int table) {
  v1::ConfirmResultRequest request;
  request.set_name("tournaments/cup");
  request.set_request_id(absl::StrCat("confirm-", round, "-", table));
  request.set_round(round);
  request.set_table(table);
  return request;
}

class TournamentWriterTest : public ::testing::TestWithParam<Backend> {
 protected:
  int64_t Events() { return static_cast<int64_t>(arena_.StreamEvents("tournaments/cup").size()); }

  Arena arena_{GetParam()};
};

TEST_P(TournamentWriterTest, ACreationIsAnsweredAgainOnRetryAndItsIdIsTakenForAnyOther) {
  absl::StatusOr<v1::Tournament> created =
      arena_.tournaments().CreateTournament(Olga(), CreateRequest("create", 8));
  ASSERT_TRUE(created.ok()) << created.status();
  EXPECT_EQ(created->name(), "tournaments/cup");
  EXPECT_EQ(created->players_size(), 8);
  EXPECT_EQ(created->rounds_started(), 0);
  EXPECT_EQ(created->creator(), "olga");
  EXPECT_EQ(created->last_event(), 1);

  absl::StatusOr<v1::Tournament> again =
      arena_.tournaments().CreateTournament(Olga(), CreateRequest("create", 8));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->last_event_hash(), created->last_event_hash());

  absl::StatusOr<v1::Tournament> other =
      arena_.tournaments().CreateTournament(Olga(), CreateRequest("another", 8));
  EXPECT_EQ(other.status().code(), absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(other.status().message(), "tournament \"cup\" already exists");
  EXPECT_EQ(Events(), 1);
}

TEST_P(TournamentWriterTest, AnOrganiserOfAnotherTournamentWritesNothingToThisOne) {
  const access::Caller otto = Organiser("otto", {"other"});
  EXPECT_EQ(arena_.tournaments().CreateTournament(otto, CreateRequest("create", 8)).status().code(),
            absl::StatusCode::kPermissionDenied);
  arena_.Create("cup", Settings(2), Names(8), Olga());
  absl::StatusOr<v1::TournamentRound> started =
      arena_.tournaments().StartRound(otto, StartRequest("start", 1));
  EXPECT_EQ(started.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(started.status().message(),
            "this token may not manage tournament \"cup\" (admins, and organisers whose token "
            "names the tournament, only)");
  EXPECT_EQ(Events(), 1);
}

TEST_P(TournamentWriterTest, PlayersRegisterBeforeRoundOneAndLateEntrantsAfterIt) {
  arena_.Create("cup", Settings(2), Names(8), Olga());
  v1::RegisterPlayersRequest add;
  add.set_name("tournaments/cup");
  add.set_request_id("add");
  add.add_players("p9");
  absl::StatusOr<v1::Tournament> registered = arena_.tournaments().RegisterPlayers(Olga(), add);
  ASSERT_TRUE(registered.ok()) << registered.status();
  EXPECT_EQ(registered->players_size(), 9);

  add.set_request_id("add-again");
  add.set_players(0, "p1");
  absl::StatusOr<v1::Tournament> twice = arena_.tournaments().RegisterPlayers(Olga(), add);
  EXPECT_EQ(twice.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(twice.status().message(), "players: \"p1\" is already registered");

  arena_.Start("cup", 1, Olga());
  add.set_request_id("late");
  add.set_players(0, "p10");
  absl::StatusOr<v1::Tournament> late = arena_.tournaments().RegisterPlayers(Olga(), add);
  ASSERT_TRUE(late.ok()) << late.status();
  ASSERT_EQ(late->entrants_size(), 10);
  EXPECT_EQ(late->entrants(8).first_round(), 1);
  EXPECT_EQ(late->entrants(9).first_round(), 2);
}

TEST_P(TournamentWriterTest, StartRoundCreatesEachTablesGameAndAnswersOnlyItsOwnRetry) {
  arena_.Create("cup", Settings(2), Names(8), Olga());
  const v1::TournamentRound round = arena_.Start("cup", 1, Olga());
  ASSERT_EQ(round.tables_size(), 2);
  for (const v1::TournamentTable& table : round.tables()) {
    EXPECT_EQ(table.game(), absl::StrCat("games/cup-r1-t", table.number()));
    absl::StatusOr<store::GameRecord> game =
        arena_.events().GetGame(common::IdOf(common::IdKind::kGame, table.game()));
    ASSERT_TRUE(game.ok()) << game.status();
    EXPECT_EQ(game->tournament_id, "cup");
    EXPECT_EQ(game->players,
              std::vector<std::string>(table.players().begin(), table.players().end()));
  }
  const int64_t events = Events();

  absl::StatusOr<v1::TournamentRound> retry =
      arena_.tournaments().StartRound(Olga(), StartRequest("start-cup-1", 1));
  ASSERT_TRUE(retry.ok()) << retry.status();
  EXPECT_EQ(retry->tables(1).seed(), round.tables(1).seed());
  absl::StatusOr<v1::TournamentRound> other =
      arena_.tournaments().StartRound(Olga(), StartRequest("someone-else", 1));
  EXPECT_EQ(other.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(other.status().message(),
            "round 1 has already started (by a request with another request id); read its tables "
            "instead");
  absl::StatusOr<v1::TournamentRound> beyond =
      arena_.tournaments().StartRound(Olga(), StartRequest("beyond", 3));
  EXPECT_EQ(beyond.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(beyond.status().message(), "tournament \"cup\" has 2 rounds");
  EXPECT_EQ(Events(), events);
}

TEST_P(TournamentWriterTest, AStartRoundStoppedBetweenItsEventsIsFinishedByTheNextOne) {
  // 6,000 players at tables of 4: 1,500 tables, more than one event holds.
  arena_.Create("cup", Settings(2), Names(6000), Olga());
  arena_.streams().FailNextAppend("tournaments/", Loss::kBeforeWrite, 1);
  absl::StatusOr<v1::TournamentRound> stopped =
      arena_.tournaments().StartRound(Olga(), StartRequest("first", 1));
  EXPECT_EQ(stopped.status().code(), absl::StatusCode::kUnavailable) << stopped.status();
  ASSERT_TRUE(arena_.streams().Failed());
  absl::StatusOr<TournamentLog> half = ReadTournament(arena_.streams(), "cup");
  ASSERT_TRUE(half.ok()) << half.status();
  ASSERT_TRUE(half->starting.has_value());
  EXPECT_TRUE(half->rounds.empty());

  // Another request finishes it, under the first one's request ids.
  const access::Caller admin = Admin();
  absl::StatusOr<v1::TournamentRound> finished =
      arena_.tournaments().StartRound(admin, StartRequest("second", 1));
  ASSERT_TRUE(finished.ok()) << finished.status();
  EXPECT_EQ(finished->tables_size(), 1500);
  const std::vector<store::StreamEvent> events = arena_.StreamEvents("tournaments/cup");
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[1].type, kTypeRoundStarted);
  EXPECT_EQ(events[1].recorded_by, "olga");
  EXPECT_EQ(events[2].type, kTypeRoundTables);
  EXPECT_EQ(events[2].recorded_by, "admin");
  // Both requests' retries are answered.
  EXPECT_TRUE(arena_.tournaments().StartRound(admin, StartRequest("second", 1)).ok());
  EXPECT_TRUE(arena_.tournaments().StartRound(Olga(), StartRequest("first", 1)).ok());
  EXPECT_EQ(arena_.StreamEvents("tournaments/cup").size(), 3u);
}

TEST_P(TournamentWriterTest, ConfirmResultCountsFinishedTablesAndNamesWhatIsNot) {
  arena_.Create("cup", Settings(2), Names(8), Olga());
  const v1::TournamentRound round = arena_.Start("cup", 1, Olga());
  arena_.Play(round.tables(0));

  absl::StatusOr<v1::TournamentRound> unfinished =
      arena_.tournaments().ConfirmResult(Olga(), ConfirmRequest(1, 2));
  EXPECT_EQ(unfinished.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(unfinished.status().message(), "game \"cup-r1-t2\" has not finished");
  absl::StatusOr<v1::TournamentRound> no_table =
      arena_.tournaments().ConfirmResult(Olga(), ConfirmRequest(1, 3));
  EXPECT_EQ(no_table.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(no_table.status().message(), "round 1 has no table 3 (it has 2)");
  absl::StatusOr<v1::TournamentRound> no_round =
      arena_.tournaments().ConfirmResult(Olga(), ConfirmRequest(2, 1));
  EXPECT_EQ(no_round.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(no_round.status().message(),
            "round 2 of tournament \"cup\" is not open (round 1 is the latest)");

  // Table 0: every finished table, the others left pending.
  absl::StatusOr<v1::TournamentRound> all =
      arena_.tournaments().ConfirmResult(Olga(), ConfirmRequest(1, 0));
  ASSERT_TRUE(all.ok()) << all.status();
  EXPECT_EQ(all->tables(0).status(), v1::TABLE_STATUS_CONFIRMED);
  EXPECT_EQ(all->tables(0).points_size(), 4);
  EXPECT_EQ(all->tables(1).status(), v1::TABLE_STATUS_PENDING);
  EXPECT_FALSE(all->closed());
  const std::vector<store::StreamEvent> events = arena_.StreamEvents("tournaments/cup");
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events.back().type, kTypeResultsConfirmed);
}

TEST_P(TournamentWriterTest, ASecondConfirmationSaysTheTableIsConfirmedAndARetryIsAnsweredAsBefore) {
  arena_.Create("cup", Settings(2), Names(8), Olga());
  const v1::TournamentRound round = arena_.Start("cup", 1, Olga());
  arena_.Play(round.tables(0));
  absl::StatusOr<v1::TournamentRound> first =
      arena_.tournaments().ConfirmResult(Olga(), ConfirmRequest(1, 1));
  ASSERT_TRUE(first.ok()) << first.status();
  const std::vector<store::StreamEvent> events = arena_.StreamEvents("tournaments/cup");
  ASSERT_EQ(events.size(), 3u);

  absl::StatusOr<v1::TournamentRound> retry =
      arena_.tournaments().ConfirmResult(Olga(), ConfirmRequest(1, 1));
  ASSERT_TRUE(retry.ok()) << retry.status();
  EXPECT_EQ(retry->tables(0).status(), v1::TABLE_STATUS_CONFIRMED);

  v1::ConfirmResultRequest again = ConfirmRequest(1, 1);
  again.set_request_id("confirm-again");
  absl::StatusOr<v1::TournamentRound> second = arena_.tournaments().ConfirmResult(Olga(), again);
  EXPECT_EQ(second.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(second.status().message(),
            absl::StrCat("round 1 table 1 is already confirmed (event 3 of tournament \"cup\", ",
                         absl::FormatTime(absl::RFC3339_sec, events.back().recorded_at,
                                          absl::UTCTimeZone()),
                         "); a confirmed result changes only through a dispute"));
  ASSERT_TRUE(common::ErrorInfoOf(second.status()).has_value());
  EXPECT_EQ(common::ErrorInfoOf(second.status())->reason(), "RESULT_CONFIRMED");
  // The same from another organiser with the first one's request id.
  absl::StatusOr<v1::TournamentRound> other =
      arena_.tournaments().ConfirmResult(Admin(), ConfirmRequest(1, 1));
  EXPECT_EQ(other.status().code(), absl::StatusCode::kFailedPrecondition) << other.status();
  EXPECT_EQ(Events(), 3);
}

INSTANTIATE_TEST_SUITE_P(Stores, TournamentWriterTest,
                         ::testing::Values(Backend::kMemory, Backend::kPostgres), BackendName);

}  // namespace
}  // namespace arbiter::tournament::testing
