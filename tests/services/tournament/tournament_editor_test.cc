// TournamentEditor and the late entries of TournamentWriter, on the
// in-memory stores and on PostgreSQL: withdrawals, late registration,
// display names, settings changed and a tournament deleted before round 1,
// each answered, retried and refused with its exact message.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "arbiter/v1/events/game_events.pb.h"
#include "services/common/resource_names.h"
#include "services/tournament/tournament_list.h"
#include "services/tournament/tournament_log.h"
#include "tests/services/tournament/writers_fixture.h"

namespace arbiter::tournament::testing {
namespace {

const access::Caller& Olga() {
  static const access::Caller* const olga = new access::Caller(Organiser("olga", {"cup"}));
  return *olga;
}

v1::WithdrawPlayerRequest Withdraw(const std::string& player, const std::string& request_id) {
  v1::WithdrawPlayerRequest request;
  request.set_name("tournaments/cup");
  request.set_request_id(request_id);
  request.set_player(player);
  request.set_reason("went home ill");
  return request;
}

v1::RegisterPlayersRequest Register(const std::string& player, const std::string& name) {
  v1::RegisterPlayersRequest request;
  request.set_name("tournaments/cup");
  request.set_request_id(absl::StrCat("register-", player));
  request.add_players(player);
  request.add_display_names(name);
  return request;
}

// Every player seated or given a bye in `round`.
std::vector<std::string> Seated(const v1::TournamentRound& round) {
  std::vector<std::string> out(round.byes().begin(), round.byes().end());
  for (const v1::TournamentTable& table : round.tables()) {
    out.insert(out.end(), table.players().begin(), table.players().end());
  }
  std::sort(out.begin(), out.end());
  return out;
}

const v1::StandingsRow& RowOf(const v1::TournamentStandings& standings, const std::string& player) {
  for (const v1::StandingsRow& row : standings.rows()) {
    if (row.player() == player) return row;
  }
  ADD_FAILURE() << player << " is not in the standings";
  return standings.rows(0);
}

class TournamentEditorTest : public ::testing::TestWithParam<Backend> {
 protected:
  int64_t Events() { return static_cast<int64_t>(arena_.StreamEvents("tournaments/cup").size()); }

  Arena arena_{GetParam()};
};

TEST_P(TournamentEditorTest, AWithdrawnPlayerIsPairedNoMoreAndKeptInTheStandings) {
  arena_.Create("cup", Settings(3), Names(9), Olga());
  arena_.PlayRound("cup", 1, Olga());
  absl::StatusOr<v1::Tournament> after = arena_.editor().WithdrawPlayer(Olga(), Withdraw("p3", "w"));
  ASSERT_TRUE(after.ok()) << after.status();
  const v1::TournamentEntrant& p3 = after->entrants(2);
  EXPECT_EQ(p3.player(), "p3");
  EXPECT_TRUE(p3.withdrawn());
  EXPECT_EQ(p3.withdrawn_after_round(), 1);
  EXPECT_EQ(p3.withdrawal_reason(), "went home ill");
  const int64_t events = Events();

  // The same request again is answered; another one for p3 is refused.
  ASSERT_TRUE(arena_.editor().WithdrawPlayer(Olga(), Withdraw("p3", "w")).ok());
  EXPECT_EQ(Events(), events);
  absl::StatusOr<v1::Tournament> twice =
      arena_.editor().WithdrawPlayer(Olga(), Withdraw("p3", "w2"));
  EXPECT_EQ(twice.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(twice.status().message(),
            "player \"p3\" has already withdrawn from tournament \"cup\"");
  absl::StatusOr<v1::Tournament> stranger =
      arena_.editor().WithdrawPlayer(Olga(), Withdraw("p99", "w3"));
  EXPECT_EQ(stranger.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(stranger.status().message(), "player \"p99\" is not registered in tournament \"cup\"");
  EXPECT_EQ(Events(), events);

  const v1::TournamentRound round2 = arena_.PlayRound("cup", 2, Olga());
  const std::vector<std::string> seated = Seated(round2);
  EXPECT_EQ(seated.size(), 8u);
  EXPECT_EQ(std::count(seated.begin(), seated.end(), "p3"), 0);

  const v1::TournamentStandings standings = arena_.Standings("cup");
  ASSERT_EQ(standings.rows_size(), 9);
  const v1::StandingsRow& row = RowOf(standings, "p3");
  EXPECT_TRUE(row.withdrawn());
  ASSERT_EQ(row.rounds_size(), 2);
  EXPECT_NE(row.rounds(0).kind(), "withdrawn");
  EXPECT_EQ(row.rounds(1).kind(), "withdrawn");
  EXPECT_FALSE(RowOf(standings, "p4").withdrawn());
}

TEST_P(TournamentEditorTest, ALateEntrantIsPairedFromTheNextRoundWithoutChangingAnyLot) {
  arena_.Create("cup", Settings(3), Names(8), Olga());
  arena_.PlayRound("cup", 1, Olga());
  const v1::TournamentStandings before = arena_.Standings("cup");

  absl::StatusOr<v1::Tournament> registered =
      arena_.tournaments().RegisterPlayers(Olga(), Register("zoe", "Zoë Müller"));
  ASSERT_TRUE(registered.ok()) << registered.status();
  ASSERT_EQ(registered->entrants_size(), 9);
  EXPECT_EQ(registered->entrants(8).display_name(), "Zoë Müller");
  // Its retry (the answer was lost) is answered, and writes nothing.
  const int64_t events = Events();
  absl::StatusOr<v1::Tournament> retried =
      arena_.tournaments().RegisterPlayers(Olga(), Register("zoe", "Zoë Müller"));
  ASSERT_TRUE(retried.ok()) << retried.status();
  EXPECT_EQ(retried->entrants_size(), 9);
  EXPECT_EQ(Events(), events);
  EXPECT_EQ(registered->entrants(8).first_round(), 2);
  EXPECT_EQ(registered->entrants(0).first_round(), 1);

  const v1::TournamentStandings after = arena_.Standings("cup");
  ASSERT_EQ(after.rows_size(), 9);
  // Nobody's lot changes, nor the order of those who were there; the late
  // entrant ranks among them by points and tie-breaks like anyone else.
  std::vector<std::string> order_before, order_after;
  for (const v1::StandingsRow& row : before.rows()) {
    EXPECT_EQ(RowOf(after, row.player()).lot(), row.lot()) << row.player();
    order_before.push_back(row.player());
  }
  for (const v1::StandingsRow& row : after.rows()) {
    if (row.player() != "zoe") order_after.push_back(row.player());
  }
  EXPECT_EQ(order_after, order_before);
  const v1::StandingsRow& zoe = RowOf(after, "zoe");
  EXPECT_EQ(zoe.display_name(), "Zoë Müller");
  EXPECT_EQ(zoe.lot(), 9);
  EXPECT_EQ(zoe.rounds(0).kind(), "not entered");
  EXPECT_EQ(zoe.points(), "0");

  const v1::TournamentRound round2 = arena_.Start("cup", 2, Olga());
  const std::vector<std::string> seated = Seated(round2);
  EXPECT_EQ(std::count(seated.begin(), seated.end(), "zoe"), 1);
  for (const v1::TournamentTable& table : round2.tables()) {
    for (int s = 0; s < table.players_size(); ++s) {
      if (table.players(s) != "zoe") continue;
      EXPECT_EQ(table.display_names(s), "Zoë Müller");
      // The table's game seats her under her display name too.
      const std::vector<store::StoredEvent> table_events =
          arena_.GameEvents(common::IdOf(common::IdKind::kGame, table.game()));
      v1::GameCreated created;
      ASSERT_TRUE(created.ParseFromString(table_events.front().payload));
      EXPECT_EQ(created.header().players(s).name(), "Zoë Müller");
    }
  }
}

TEST_P(TournamentEditorTest, NoOneRegistersOnceTheLastRoundHasStarted) {
  arena_.Create("cup", Settings(1), Names(8), Olga());
  arena_.Start("cup", 1, Olga());
  absl::StatusOr<v1::Tournament> late =
      arena_.tournaments().RegisterPlayers(Olga(), Register("zoe", ""));
  EXPECT_EQ(late.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(late.status().message(),
            "tournament \"cup\" has started its last round (1); no round is left for a new "
            "player");
}

TEST_P(TournamentEditorTest, DisplayNamesAreCheckedInCharactersOnePerPlayer) {
  v1::RegisterPlayersRequest request = Register("zoe", "Zoë Müller");
  arena_.Create("cup", Settings(2), Names(8), Olga());
  request.add_display_names("extra");
  absl::StatusOr<v1::Tournament> refused = arena_.tournaments().RegisterPlayers(Olga(), request);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(refused.status().message(),
            "display_names: 2 names for 1 players; give one per player, in order (\"\" for none), "
            "or none at all");
  request.clear_display_names();
  request.add_display_names(std::string(100, 'x'));  // 100 characters: the most
  request.set_display_names(0, absl::StrCat(std::string(99, 'x'), "ë"));
  ASSERT_TRUE(arena_.tournaments().RegisterPlayers(Olga(), request).ok());
  request.set_players(0, "zed");
  request.set_request_id("register-zed");
  request.set_display_names(0, absl::StrCat(std::string(100, 'x'), "ë"));
  refused = arena_.tournaments().RegisterPlayers(Olga(), request);
  EXPECT_EQ(refused.status().message(), "display_names[0] is 101 characters; at most 100");
  request.set_display_names(0, "Zed\tTab");
  refused = arena_.tournaments().RegisterPlayers(Olga(), request);
  EXPECT_EQ(refused.status().message(),
            "display_names[0] holds a control character (U+0009); use printable text only");
  request.set_display_names(0, "Z\xC3");
  refused = arena_.tournaments().RegisterPlayers(Olga(), request);
  EXPECT_EQ(refused.status().message(), "display_names[0] is not valid UTF-8 (byte 2)");
}

v1::UpdateTournamentSettingsRequest SettingsRequest(const std::string& request_id, int rounds) {
  v1::UpdateTournamentSettingsRequest request;
  request.set_name("tournaments/cup");
  request.set_request_id(request_id);
  *request.mutable_settings() = Settings(rounds);
  return request;
}

TEST_P(TournamentEditorTest, SettingsChangeUntilRoundOneStarts) {
  arena_.Create("cup", Settings(2), Names(8), Olga());
  absl::StatusOr<v1::Tournament> changed =
      arena_.editor().UpdateTournamentSettings(Olga(), SettingsRequest("s", 4));
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_EQ(changed->settings().rounds(), 4);
  ASSERT_TRUE(arena_.editor().UpdateTournamentSettings(Olga(), SettingsRequest("s", 4)).ok());
  EXPECT_EQ(Events(), 2);

  v1::UpdateTournamentSettingsRequest bad = SettingsRequest("bad", 4);
  bad.mutable_settings()->set_game_type("chess");
  absl::StatusOr<v1::Tournament> refused = arena_.editor().UpdateTournamentSettings(Olga(), bad);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(refused.status().message().substr(0, 41), "settings.game_type: unknown game 'chess';");
  bad = SettingsRequest("bad-league", 4);
  bad.mutable_settings()->set_league("north");
  refused = arena_.editor().UpdateTournamentSettings(Olga(), bad);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(refused.status().message(),
            "this token may not move tournament \"cup\" into league \"north\" (admins and "
            "organisers of the league only; it names no league): its tables' games are rated "
            "there");
  EXPECT_EQ(Events(), 2);

  arena_.Start("cup", 1, Olga());
  refused = arena_.editor().UpdateTournamentSettings(Olga(), SettingsRequest("late", 3));
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(refused.status().message(),
            "tournament \"cup\" has started round 1: its settings can change only before it; "
            "settle the rest by disputes and rulings");
  EXPECT_EQ(arena_.Round("cup", 1).tables_size(), 2);
}

v1::DeleteTournamentRequest DeleteRequest(const std::string& request_id) {
  v1::DeleteTournamentRequest request;
  request.set_name("tournaments/cup");
  request.set_request_id(request_id);
  request.set_reason("the venue cancelled");
  return request;
}

TEST_P(TournamentEditorTest, ADeletedTournamentIsGoneForReadersAndTheIndexButKeptInItsLog) {
  arena_.Create("cup", Settings(2), Names(8), Olga());
  v1::DeleteTournamentRequest nameless = DeleteRequest("d");
  nameless.clear_reason();
  absl::StatusOr<v1::DeleteTournamentResponse> refused =
      arena_.editor().DeleteTournament(Olga(), nameless);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(refused.status().message(), "reason is required: 1-1000 characters saying why");

  absl::StatusOr<v1::DeleteTournamentResponse> deleted =
      arena_.editor().DeleteTournament(Olga(), DeleteRequest("d"));
  ASSERT_TRUE(deleted.ok()) << deleted.status();
  EXPECT_EQ(deleted->name(), "tournaments/cup");
  EXPECT_EQ(deleted->event(), 2);
  absl::StatusOr<v1::DeleteTournamentResponse> retry =
      arena_.editor().DeleteTournament(Olga(), DeleteRequest("d"));
  ASSERT_TRUE(retry.ok()) << retry.status();
  EXPECT_EQ(retry->event(), 2);
  EXPECT_EQ(Events(), 2);

  absl::StatusOr<TournamentLog> read = ReadTournament(arena_.streams(), "cup");
  EXPECT_EQ(read.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(read.status().message(),
            "tournament \"cup\" was deleted before round 1 (the venue cancelled)");
  absl::StatusOr<v1::ListTournamentsResponse> index =
      ListTournaments(arena_.streams(), arena_.results(), v1::ListTournamentsRequest());
  ASSERT_TRUE(index.ok()) << index.status();
  EXPECT_EQ(index->tournaments_size(), 0);
  EXPECT_EQ(arena_.editor().DeleteTournament(Olga(), DeleteRequest("d2")).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(arena_.editor().WithdrawPlayer(Olga(), Withdraw("p1", "w")).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(Events(), 2);
}

TEST_P(TournamentEditorTest, ATournamentIsNotDeletedOnceRoundOneHasStarted) {
  arena_.Create("cup", Settings(2), Names(8), Olga());
  arena_.Start("cup", 1, Olga());
  absl::StatusOr<v1::DeleteTournamentResponse> refused =
      arena_.editor().DeleteTournament(Olga(), DeleteRequest("d"));
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(refused.status().message(),
            "tournament \"cup\" has started round 1: it can be deleted only before it; finish "
            "it, or void its games by disputes and rulings");
  EXPECT_TRUE(ReadTournament(arena_.streams(), "cup").ok());
}

TEST_P(TournamentEditorTest, OnlyThoseWhoManageTheTournamentEditItAndARefusalWritesNothing) {
  arena_.Create("cup", Settings(2), Names(8), Olga());
  access::Caller auditor;
  auditor.principal = "audrey";
  auditor.role = store::Role::kAuditor;
  access::Caller seat_token;
  seat_token.principal = "p1";
  seat_token.role = store::Role::kPlayer;
  seat_token.tournaments = {"cup"};
  const std::string denied =
      "this token may not manage tournament \"cup\" (admins, and organisers whose token names "
      "the tournament, only)";
  for (const access::Caller& caller :
       {Player("p1"), auditor, seat_token, Organiser("otto", {"other"})}) {
    absl::Status withdraw = arena_.editor().WithdrawPlayer(caller, Withdraw("p1", "w")).status();
    absl::Status settings =
        arena_.editor().UpdateTournamentSettings(caller, SettingsRequest("s", 3)).status();
    absl::Status deletion = arena_.editor().DeleteTournament(caller, DeleteRequest("d")).status();
    for (const absl::Status& status : {withdraw, settings, deletion}) {
      EXPECT_EQ(status.code(), absl::StatusCode::kPermissionDenied) << caller.principal;
      EXPECT_EQ(status.message(), denied) << caller.principal;
    }
  }
  EXPECT_EQ(Events(), 1);
  EXPECT_TRUE(arena_.editor().WithdrawPlayer(Admin(), Withdraw("p1", "w")).ok());
}

INSTANTIATE_TEST_SUITE_P(Stores, TournamentEditorTest,
                         ::testing::Values(Backend::kMemory, Backend::kPostgres), BackendName);

}  // namespace
}  // namespace arbiter::tournament::testing
