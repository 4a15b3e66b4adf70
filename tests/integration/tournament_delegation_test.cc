// A league's organiser runs the tournaments of its league: creates them,
// registers players, starts rounds, plays and confirms their tables and
// rules on their disputes, whoever created them; and nothing of a
// tournament of another league or of none. A real server over a private
// PostgreSQL; each refusal asserted word for word.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "arbiter/v1/league_service.grpc.pb.h"
#include "arbiter/v1/tournament_service.grpc.pb.h"
#include "services/access/token_format.h"
#include "services/common/resource_names.h"
#include "tests/integration/league_server_fixture.h"

namespace arbiter::server::testing {
namespace {

std::vector<std::string> Names(int n) {
  std::vector<std::string> out;
  for (int i = 1; i <= n; ++i) out.push_back(absl::StrCat("p", i));
  return out;
}

class TournamentDelegationTest : public LeagueServerTest {
 protected:
  void SetUp() override {
    LeagueServerTest::SetUp();
    if (HasFatalFailure()) return;
    tournaments_ = v1::TournamentService::NewStub(channel_);
    disputes_ = v1::DisputeService::NewStub(channel_);
    token_service_ = v1::TokenService::NewStub(channel_);
    for (const char* id : {"north", "south"}) {
      v1::CreateLeagueRequest league;
      league.set_request_id(id);
      league.set_league_id(id);
      league.mutable_settings()->add_game_types("atlantis");
      league.mutable_settings()->set_rating_system("plackett-luce");
      v1::League created;
      ASSERT_TRUE(leagues_->CreateLeague(As(admin_).get(), league, &created).ok());
    }
    nora_ = MakeToken(store::Role::kOrganiser, "nora", {"north"});
  }

  static v1::TournamentSettings Settings(const std::string& league) {
    v1::TournamentSettings s;
    s.set_game_type("atlantis");
    s.set_seed(11);
    s.set_rounds(1);
    s.add_table_sizes(3);
    s.add_table_sizes(4);
    s.set_preferred_table_size(4);
    for (int p : {4, 2, 1, 0}) s.add_place_points(p);
    s.set_league(league);
    return s;
  }

  grpc::Status Create(const std::string& id, const std::string& league, const std::string& token) {
    v1::CreateTournamentRequest request;
    request.set_request_id(absl::StrCat("create-", id));
    request.set_tournament_id(id);
    *request.mutable_settings() = Settings(league);
    for (const std::string& p : Names(8)) request.add_players(p);
    v1::Tournament out;
    return tournaments_->CreateTournament(As(token).get(), request, &out);
  }

  grpc::Status Register(const std::string& id, const std::string& player,
                        const std::string& token) {
    v1::RegisterPlayersRequest request;
    request.set_name(absl::StrCat("tournaments/", id));
    request.set_request_id(absl::StrCat("add-", player));
    request.add_players(player);
    v1::Tournament out;
    return tournaments_->RegisterPlayers(As(token).get(), request, &out);
  }

  grpc::Status Start(const std::string& id, const std::string& token, v1::TournamentRound* out) {
    v1::StartRoundRequest request;
    request.set_name(absl::StrCat("tournaments/", id));
    request.set_request_id(absl::StrCat("start-", id));
    request.set_round(1);
    return tournaments_->StartRound(As(token).get(), request, out);
  }

  grpc::Status Confirm(const std::string& id, int table, const std::string& token) {
    v1::ConfirmResultRequest request;
    request.set_name(absl::StrCat("tournaments/", id));
    request.set_request_id(absl::StrCat("confirm-", id, "-", table));
    request.set_round(1);
    request.set_table(table);
    v1::TournamentRound out;
    return tournaments_->ConfirmResult(As(token).get(), request, &out);
  }

  // Plays the table's game to its end with `token`'s appends.
  grpc::Status Play(const v1::TournamentTable& table, const std::string& token) {
    log::GameLog log = Simulated(table.seed(), table.players_size());
    std::map<std::string, std::string> rename;
    for (int i = 0; i < log.header.players_size(); ++i) {
      rename[log.header.players(i).id()] = table.players(i);
    }
    std::vector<v1::Action> actions;
    for (v1::Action action : log.actions) {
      action.set_player(rename.at(action.player()));
      actions.push_back(std::move(action));
    }
    v1::AppendActionsResponse response;
    return Append(token, common::IdOf(common::IdKind::kGame, table.game()), 1, actions,
                  absl::StrCat("play-", table.game()), &response);
  }

  grpc::Status OpenDispute(const std::string& dispute, const std::string& id, int table,
                           const std::string& token) {
    v1::OpenDisputeRequest request;
    request.set_request_id(absl::StrCat("open-", dispute));
    request.set_dispute_id(dispute);
    request.set_tournament(absl::StrCat("tournaments/", id));
    request.set_round(1);
    request.set_table(table);
    request.set_reason("a card was dealt face up");
    v1::Dispute out;
    return disputes_->OpenDispute(As(token).get(), request, &out);
  }

  grpc::Status Rule(const std::string& dispute, const std::string& token, v1::Dispute* out) {
    v1::RuleDisputeRequest request;
    request.set_name(absl::StrCat("disputes/", dispute));
    request.set_request_id(absl::StrCat("rule-", dispute));
    request.set_kind(v1::RULING_KIND_VOID);
    request.set_reason("the deal was spoiled");
    return disputes_->RuleDispute(As(token).get(), request, out);
  }

  grpc::Status CreateGame(const std::string& league, const std::string& tournament,
                          const std::string& game_id) {
    v1::CreateGameRequest request;
    request.set_request_id(absl::StrCat("create-", game_id));
    request.set_game_id(game_id);
    request.mutable_game()->set_game_type("atlantis");
    for (const std::string& p : Names(3)) request.mutable_game()->add_players()->set_id(p);
    request.mutable_game()->set_seed(5);
    request.mutable_game()->set_league(league);
    request.mutable_game()->set_tournament(tournament);
    v1::Game out;
    return stub_->CreateGame(As(nora_).get(), request, &out);
  }

  // A player token for `player`, bound to tournament `id`, minted by nora.
  grpc::Status SeatToken(const std::string& id, const std::string& player) {
    v1::CreateTokenRequest request;
    request.set_role(v1::ROLE_PLAYER);
    request.set_principal(player);
    request.add_tournaments(id);
    request.set_request_id(absl::StrCat("seat-", id, "-", player));
    v1::CreateTokenResponse out;
    return token_service_->CreateToken(As(nora_).get(), request, &out);
  }

  // Admin creates `id` in `league` and starts its round 1.
  v1::TournamentRound AdminStarted(const std::string& id, const std::string& league) {
    EXPECT_TRUE(Create(id, league, admin_).ok());
    v1::TournamentRound round;
    const grpc::Status status = Start(id, admin_, &round);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return round;
  }

  std::unique_ptr<v1::TournamentService::Stub> tournaments_;
  std::unique_ptr<v1::DisputeService::Stub> disputes_;
  std::unique_ptr<v1::TokenService::Stub> token_service_;  // the league server's
  std::string nora_;  // an organiser of league "north" only
};

TEST_F(TournamentDelegationTest, ALeagueOrganiserRunsATournamentOfItsLeagueFromCreationToRuling) {
  grpc::Status status = Create("cup", "north", nora_);
  ASSERT_TRUE(status.ok()) << status.error_message();
  status = Register("cup", "p9", nora_);
  ASSERT_TRUE(status.ok()) << status.error_message();
  status = Register("cup", "p10", nora_);
  ASSERT_TRUE(status.ok()) << status.error_message();
  status = SeatToken("cup", "p9");
  ASSERT_TRUE(status.ok()) << status.error_message();
  v1::TournamentRound round;
  status = Start("cup", nora_, &round);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(round.tables_size(), 3);  // 4 + 3 + 3
  for (const v1::TournamentTable& table : round.tables()) {
    status = Play(table, nora_);
    ASSERT_TRUE(status.ok()) << status.error_message();
    status = Confirm("cup", table.number(), nora_);
    ASSERT_TRUE(status.ok()) << status.error_message();
  }
  status = OpenDispute("d-cup", "cup", 2, nora_);
  ASSERT_TRUE(status.ok()) << status.error_message();
  v1::Dispute ruled;
  status = Rule("d-cup", nora_, &ruled);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(ruled.state(), v1::DISPUTE_STATE_RULED);
  EXPECT_EQ(ruled.ruling().ruled_by(), "nora");
  EXPECT_EQ(Get(common::IdOf(common::IdKind::kGame, round.tables(1).game())).status(),
            v1::GAME_STATUS_VOIDED);
  // Its tables are games of the league and of the tournament.
  const v1::Game game = Get(common::IdOf(common::IdKind::kGame, round.tables(0).game()));
  EXPECT_EQ(game.league(), "north");
  EXPECT_EQ(game.tournament(), "cup");
}

TEST_F(TournamentDelegationTest, ALeagueOrganiserRunsItsLeaguesTournamentsWhoeverCreatedThem) {
  const v1::TournamentRound round = AdminStarted("open", "north");
  ASSERT_EQ(round.tables_size(), 2);
  // While its tables are live, its seed is shown to those who manage it.
  v1::GetTournamentRequest get;
  get.set_name("tournaments/open");
  v1::Tournament seen;
  ASSERT_TRUE(tournaments_->GetTournament(As(nora_).get(), get, &seen).ok());
  EXPECT_FALSE(seen.seed_withheld());
  EXPECT_EQ(seen.settings().seed(), 11u);
  const std::string south = MakeToken(store::Role::kOrganiser, "sven", {"south"});
  ASSERT_TRUE(tournaments_->GetTournament(As(south).get(), get, &seen).ok());
  EXPECT_TRUE(seen.seed_withheld());
  grpc::Status status = Play(round.tables(0), nora_);
  ASSERT_TRUE(status.ok()) << status.error_message();
  status = Confirm("open", 1, nora_);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_TRUE(OpenDispute("d-open", "open", 1, admin_).ok());
  v1::Dispute ruled;
  status = Rule("d-open", nora_, &ruled);
  ASSERT_TRUE(status.ok()) << status.error_message();
  // A game it creates itself may name a tournament of its league, and no
  // other.
  status = CreateGame("north", "open", "g-open");
  EXPECT_TRUE(status.ok()) << status.error_message();
}

TEST_F(TournamentDelegationTest, ALeagueOrganiserManagesNoTournamentOfAnotherLeagueOrOfNone) {
  const v1::TournamentRound away = AdminStarted("away", "south");
  const v1::TournamentRound free = AdminStarted("free", "");
  const std::string away_denied =
      "this token may not manage tournament \"away\" (admins, organisers whose token names the "
      "tournament, and organisers of its league \"south\", only)";
  const std::string free_denied =
      "this token may not manage tournament \"free\" (admins, and organisers whose token names "
      "the tournament, only)";
  for (const auto& [id, denied] : {std::pair{std::string("away"), away_denied},
                                   std::pair{std::string("free"), free_denied}}) {
    grpc::Status status = Register(id, "p9", nora_);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED) << id;
    EXPECT_EQ(status.error_message(), denied);
    status = Confirm(id, 1, nora_);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED) << id;
    EXPECT_EQ(status.error_message(), denied);
  }
  v1::TournamentRound round;
  grpc::Status status = Create("later", "south", admin_);
  ASSERT_TRUE(status.ok()) << status.error_message();
  status = Start("later", nora_, &round);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(status.error_message(),
            "this token may not manage tournament \"later\" (admins, organisers whose token names "
            "the tournament, and organisers of its league \"south\", only)");
  // Its tables' games are not its games.
  status = Play(away.tables(0), nora_);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  status = Play(free.tables(0), nora_);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  // Nor its disputes.
  ASSERT_TRUE(OpenDispute("d-away", "away", 1, admin_).ok());
  v1::Dispute dispute;
  status = Rule("d-away", nora_, &dispute);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(status.error_message(), away_denied);
  // Nor its players' seat tokens.
  for (const std::string id : {"away", "free", "nowhere"}) {
    status = SeatToken(id, "p1");
    EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED) << id;
    EXPECT_EQ(status.error_message(),
              absl::StrCat("this organiser token may not create player tokens for tournament \"",
                           id, "\" (its token names neither it nor its league)"));
  }
  // Nor may a game it creates name such a tournament.
  status = CreateGame("north", "away", "g-away");
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(status.error_message(),
            "this organiser token may not create games in tournament \"away\"");
}

TEST_F(TournamentDelegationTest, ALeagueOrganiserCreatesTournamentsInItsLeagueOnly) {
  grpc::Status status = Create("mine", "south", nora_);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(status.error_message(),
            "this token may not create a tournament in league \"south\" (admins, organisers of "
            "the league, and organisers whose token names the tournament, only; it names league "
            "\"north\"); an admin can mint a token for league \"south\": arbiter token create "
            "--role organiser --league south --principal NAME");
  status = Create("mine", "", nora_);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(status.error_message(),
            "this token may not manage tournament \"mine\" (admins, and organisers whose token "
            "names the tournament, only)");
  v1::GetTournamentRequest get;
  get.set_name("tournaments/mine");
  v1::Tournament none;
  EXPECT_EQ(tournaments_->GetTournament(As(admin_).get(), get, &none).error_code(),
            grpc::StatusCode::NOT_FOUND);
  // A token of two leagues names both.
  status = Create("mine", "west", MakeToken(store::Role::kOrganiser, "nils", {"north", "east"}));
  EXPECT_EQ(status.error_message(),
            "this token may not create a tournament in league \"west\" (admins, organisers of "
            "the league, and organisers whose token names the tournament, only; it names leagues "
            "\"north\", \"east\"); an admin can mint a token for league \"west\": arbiter token "
            "create --role organiser --league west --principal NAME");
  // An unknown tournament is refused like another league's.
  v1::TournamentRound round;
  status = Start("nowhere", nora_, &round);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(status.error_message(),
            "this token may not manage tournament \"nowhere\" (admins, and organisers whose token "
            "names the tournament, only)");
}

TEST_F(TournamentDelegationTest, AnOrganiserWhoseTokenNamesTheTournamentStillRunsIt) {
  absl::StatusOr<access::NewToken> token = access::GenerateToken();
  ASSERT_TRUE(token.ok());
  token->record.role = store::Role::kOrganiser;
  token->record.principal = "tess";
  token->record.tournaments = {"solo"};
  token->record.created_by = "test";
  ASSERT_TRUE(tokens_->Insert(token->record).ok());
  const std::string tess = token->token;
  grpc::Status status = Create("solo", "", tess);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_TRUE(Register("solo", "p9", tess).ok());
  v1::TournamentRound round;
  status = Start("solo", tess, &round);
  ASSERT_TRUE(status.ok()) << status.error_message();
  status = Play(round.tables(0), tess);
  ASSERT_TRUE(status.ok()) << status.error_message();
  status = Confirm("solo", 1, tess);
  ASSERT_TRUE(status.ok()) << status.error_message();
  // The league's organiser does not run it: it is in no league.
  status = Confirm("solo", 1, nora_);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
}

}  // namespace
}  // namespace arbiter::server::testing
