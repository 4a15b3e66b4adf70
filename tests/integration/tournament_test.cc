// Tournaments and disputes end to end: a real server over a private
// PostgreSQL, tables' games played over gRPC, results confirmed, standings
// read and checked against the pure model, disputes opened and ruled, roles
// and bad input.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <google/protobuf/util/message_differencer.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "arbiter/v1/league_service.grpc.pb.h"
#include "arbiter/v1/tournament_service.grpc.pb.h"
#include "engine/core/dealer_seed.h"
#include "engine/league/league_ratings.h"
#include "engine/rating/rating.h"
#include "engine/tournament/pairing.h"
#include "engine/tournament/standings.h"
#include "services/access/token_format.h"
#include "services/common/resource_names.h"
#include "services/league/league_settings.h"
#include "services/log/json_lines.h"
#include "services/league/league_projector.h"
#include "services/league/projection_store.h"
#include "services/store/postgres_stream_store.h"
#include "services/tournament/tournament_log.h"
#include "tests/engine/conformance/view_checks.h"
#include "tests/integration/league_server_fixture.h"

namespace arbiter::server::testing {
namespace {

// The id in a table's game name ("games/{id}").
std::string GameId(const std::string& name) { return common::IdOf(common::IdKind::kGame, name); }

std::vector<std::string> Names(int n) {
  std::vector<std::string> out;
  for (int i = 1; i <= n; ++i) out.push_back(absl::StrCat("p", i));
  return out;
}

class TournamentTest : public LeagueServerTest {
 protected:
  void SetUp() override {
    LeagueServerTest::SetUp();
    if (HasFatalFailure()) return;
    tournaments_ = v1::TournamentService::NewStub(channel_);
    disputes_ = v1::DisputeService::NewStub(channel_);
    organiser_ = Organiser("olga", {"cup", "late", "bad"});
    reader_ = MakeToken(store::Role::kPublic, "reader");
  }

  std::string Organiser(const std::string& principal, std::vector<std::string> tournaments) {
    absl::StatusOr<access::NewToken> token = access::GenerateToken();
    EXPECT_TRUE(token.ok());
    token->record.role = store::Role::kOrganiser;
    token->record.principal = principal;
    token->record.tournaments = std::move(tournaments);
    token->record.created_by = "test";
    EXPECT_TRUE(tokens_->Insert(token->record).ok());
    return token->token;
  }

  static v1::TournamentSettings Settings(int rounds) {
    v1::TournamentSettings s;
    s.set_game_type("atlantis");
    s.set_seed(7);
    s.set_rounds(rounds);
    s.add_table_sizes(3);
    s.add_table_sizes(4);
    s.set_preferred_table_size(4);
    for (int p : {4, 2, 1, 0}) s.add_place_points(p);
    for (const char* t : {"game_points", "wins", "strength_of_schedule", "head_to_head"}) {
      s.add_tie_breaks(t);
    }
    return s;
  }

  grpc::Status Create(const std::string& id, const v1::TournamentSettings& settings,
                      const std::vector<std::string>& players, const std::string& token) {
    v1::CreateTournamentRequest request;
    request.set_request_id(absl::StrCat("create-", id));
    request.set_tournament_id(id);
    *request.mutable_settings() = settings;
    for (const std::string& p : players) request.add_players(p);
    v1::Tournament out;
    return tournaments_->CreateTournament(As(token).get(), request, &out);
  }

  grpc::Status Start(const std::string& id, int round, v1::TournamentRound* out,
                     const std::string& token = "") {
    v1::StartRoundRequest request;
    request.set_name(absl::StrCat("tournaments/", id));
    request.set_request_id(absl::StrCat("start-", id, "-", round));
    request.set_round(round);
    return tournaments_->StartRound(As(token.empty() ? organiser_ : token).get(), request, out);
  }

  // Plays the table's game to the end with a legal simulated game on its
  // seed, seats taken by the table's players.
  void Play(const v1::TournamentTable& table) {
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
    grpc::Status status = Append(admin_, GameId(table.game()), 1, actions,
                                 absl::StrCat("play-", table.game()), &response);
    ASSERT_TRUE(status.ok()) << status.error_message();
    ASSERT_EQ(response.status(), v1::GAME_STATUS_FINISHED);
  }

  grpc::Status Confirm(const std::string& id, int round, int table, v1::TournamentRound* out) {
    v1::ConfirmResultRequest request;
    request.set_name(absl::StrCat("tournaments/", id));
    request.set_request_id(absl::StrCat("confirm-", id, "-", round, "-", table));
    request.set_round(round);
    request.set_table(table);
    return tournaments_->ConfirmResult(As(organiser_).get(), request, out);
  }

  // Starts `round`, plays and confirms every table.
  // With `at_once`, one ConfirmResult (table 0) counts every table.
  v1::TournamentRound PlayRound(const std::string& id, int round, const std::string& token = "",
                                bool at_once = false) {
    v1::TournamentRound started;
    grpc::Status status = Start(id, round, &started, token);
    EXPECT_TRUE(status.ok()) << status.error_message();
    v1::TournamentRound last;
    for (const v1::TournamentTable& table : started.tables()) {
      Play(table);
      if (at_once) continue;
      status = Confirm(id, round, table.number(), &last);
      EXPECT_TRUE(status.ok()) << status.error_message();
    }
    if (at_once) {
      status = Confirm(id, round, 0, &last);
      EXPECT_TRUE(status.ok()) << status.error_message();
    }
    return last;
  }

  v1::TournamentStandings Standings(const std::string& id, int after = 0) {
    v1::GetStandingsRequest request;
    request.set_name(absl::StrCat("tournaments/", id));
    request.set_after_round(after);
    v1::TournamentStandings out;
    grpc::Status status = tournaments_->GetStandings(As(admin_).get(), request, &out);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return out;
  }

  v1::Tournament Get(const std::string& id) {
    v1::GetTournamentRequest request;
    request.set_name(absl::StrCat("tournaments/", id));
    v1::Tournament out;
    grpc::Status status = tournaments_->GetTournament(As(admin_).get(), request, &out);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return out;
  }

  grpc::Status OpenDispute(const std::string& dispute, const std::string& id, int round,
                           int table, const std::string& token, v1::Dispute* out,
                           int64_t event = 2) {
    v1::OpenDisputeRequest request;
    request.set_request_id(absl::StrCat("open-", dispute));
    request.set_dispute_id(dispute);
    request.set_tournament(absl::StrCat("tournaments/", id));
    request.set_round(round);
    request.set_table(table);
    request.set_event(event);
    request.set_reason("the first move was made before the table was ready");
    return disputes_->OpenDispute(As(token).get(), request, out);
  }

  grpc::Status Rule(const std::string& dispute, v1::RulingKind kind, v1::Dispute* out,
                    std::vector<int> places = {}, std::vector<int64_t> points = {},
                    const std::string& request_id = "") {
    v1::RuleDisputeRequest request;
    request.set_name(absl::StrCat("disputes/", dispute));
    request.set_request_id(request_id.empty() ? absl::StrCat("rule-", dispute) : request_id);
    request.set_kind(kind);
    request.set_reason("the arbiter watched the recording");
    for (int p : places) request.mutable_corrected()->add_places(p);
    for (int64_t g : points) request.mutable_corrected()->add_game_points(g);
    return disputes_->RuleDispute(As(organiser_).get(), request, out);
  }

  std::unique_ptr<v1::TournamentService::Stub> tournaments_;
  std::unique_ptr<v1::DisputeService::Stub> disputes_;
  std::string organiser_;
  std::string reader_;  // a public token: everyone reads
};

TEST_F(TournamentTest, ATournamentRunsFromRegistrationToFinalStandings) {
  ASSERT_TRUE(Create("cup", Settings(3), Names(9), organiser_).ok());
  v1::RegisterPlayersRequest add;
  add.set_name("tournaments/cup");
  add.set_request_id("add-p10");
  add.add_players("p10");
  v1::Tournament registered;
  grpc::Status status = tournaments_->RegisterPlayers(As(organiser_).get(), add, &registered);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(registered.players_size(), 10);

  for (int round = 1; round <= 3; ++round) {
    const v1::TournamentRound played = PlayRound("cup", round, "", round == 3);
    EXPECT_TRUE(played.closed()) << "round " << round;
    ASSERT_EQ(played.tables_size(), 3);  // 4 + 3 + 3
    EXPECT_EQ(played.tables(0).players_size(), 4);
    EXPECT_EQ(played.tables(0).status(), v1::TABLE_STATUS_CONFIRMED);
    EXPECT_EQ(played.tables(0).points_size(), 4);
    // The game exists with the tournament set and the table's seats.
    const v1::Game game = ServerTest::Get(GameId(played.tables(1).game()));
    EXPECT_EQ(game.tournament(), "cup");
    EXPECT_EQ(game.players(0).id(), played.tables(1).players(0));
  }
  // Round 1 is what the model assigns from the seed: reproducible.
  v1::GetRoundRequest first;
  first.set_name("tournaments/cup");
  first.set_round(1);
  v1::TournamentRound round1;
  ASSERT_TRUE(tournaments_->GetRound(As(reader_).get(), first, &round1).ok());
  engine::tournament::TournamentSettings model =
      *tournament::ModelSettings(Get("cup").settings());
  std::vector<std::string> players = Names(9);
  players.push_back("p10");
  const engine::tournament::Round expected = *engine::tournament::AssignRound(model, players, {});
  for (int t = 0; t < round1.tables_size(); ++t) {
    EXPECT_EQ(std::vector<std::string>(round1.tables(t).players().begin(),
                                       round1.tables(t).players().end()),
              expected.tables[static_cast<size_t>(t)].players);
    EXPECT_EQ(round1.tables(t).seed(), expected.tables[static_cast<size_t>(t)].game_seed);
  }

  const v1::TournamentStandings standings = Standings("cup");
  EXPECT_EQ(standings.after_round(), 3);
  ASSERT_EQ(standings.rows_size(), 10);
  for (int i = 0; i < standings.rows_size(); ++i) {
    const v1::StandingsRow& row = standings.rows(i);
    EXPECT_EQ(row.rank(), i + 1);
    ASSERT_EQ(row.rounds_size(), 3);
    for (const v1::StandingsRoundEntry& e : row.rounds()) EXPECT_EQ(e.kind(), "played");
    if (i + 1 < standings.rows_size()) {
      EXPECT_FALSE(row.decided_by().empty());
    }
  }
  v1::TournamentRound more;
  status = Start("cup", 4, &more);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(status.error_message(), "tournament \"cup\" has 3 rounds");
  // Everyone reads, without a token.
  v1::GetStandingsRequest open;
  open.set_name("tournaments/cup");
  v1::TournamentStandings anyone;
  EXPECT_TRUE(tournaments_->GetStandings(As(reader_).get(), open, &anyone).ok());
}

TEST_F(TournamentTest, RulingsVoidOrCorrectAResultAndReportWhatChanged) {
  ASSERT_TRUE(Create("cup", Settings(2), Names(8), organiser_).ok());
  const v1::TournamentRound round = PlayRound("cup", 1);
  const v1::TournamentStandings before = Standings("cup");
  const std::string player = round.tables(0).players(1);
  const std::string bystander = round.tables(1).players(0);

  // A player of another table may not dispute this one; a player of it may.
  v1::Dispute dispute;
  grpc::Status status =
      OpenDispute("d1", "cup", 1, 1, MakeToken(store::Role::kPublic, bystander), &dispute);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  status = OpenDispute("d1", "cup", 1, 1, MakeToken(store::Role::kPublic, player), &dispute);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(dispute.state(), v1::DISPUTE_STATE_OPEN);
  EXPECT_EQ(dispute.opened_by(), player);
  EXPECT_EQ(dispute.adjudication().verdict(), v1::VERDICT_LEGAL);
  EXPECT_TRUE(dispute.adjudication().chain_intact());
  EXPECT_EQ(dispute.adjudication().standings().players_size(), 4);
  const int64_t events_before = Get("cup").last_event();

  status = Rule("d1", v1::RULING_KIND_VOID, &dispute);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(dispute.state(), v1::DISPUTE_STATE_RULED);
  EXPECT_EQ(dispute.ruling().ruled_by(), "olga");
  // Every player of the voided table lost their points; the trace says so.
  std::map<std::string, v1::StandingChange> changes;
  for (const auto& c : dispute.ruling().changes()) changes[c.player()] = c;
  for (const std::string& p : round.tables(0).players()) {
    std::string before_points;
    for (const auto& row : before.rows()) {
      if (row.player() == p) before_points = row.points();
    }
    if (before_points == "0") continue;
    ASSERT_TRUE(changes.contains(p)) << p;
    EXPECT_EQ(changes[p].points_before(), before_points);
    EXPECT_EQ(changes[p].points_after(), "0");
  }
  EXPECT_EQ(Get("cup").last_event(), events_before + 1);  // the ruling, nothing edited
  EXPECT_EQ(ServerTest::Get(GameId(round.tables(0).game())).status(), v1::GAME_STATUS_VOIDED);
  const v1::TournamentStandings after = Standings("cup");
  for (const auto& row : after.rows()) {
    if (row.player() == player) {
      EXPECT_EQ(row.rounds(0).kind(), "void");
    }
  }
  // The trace stays readable.
  v1::GetDisputeRequest get;
  get.set_name("disputes/d1");
  v1::Dispute again;
  ASSERT_TRUE(disputes_->GetDispute(As(reader_).get(), get, &again).ok());
  EXPECT_EQ(again.ruling().changes_size(), dispute.ruling().changes_size());

  // A second ruling on a closed dispute.
  status = Rule("d1", v1::RULING_KIND_UPHOLD, &again, {}, {}, "rule-again");
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(status.error_message(), "dispute \"d1\" is closed: ruled void by olga");

  // A corrected result on table 2: its seats now finish in reverse.
  ASSERT_TRUE(OpenDispute("d2", "cup", 1, 2, organiser_, &dispute).ok());
  status = Rule("d2", v1::RULING_KIND_CORRECTED, &dispute, {4, 3, 2, 1}, {1, 2, 3, 4});
  ASSERT_TRUE(status.ok()) << status.error_message();
  v1::GetRoundRequest get_round;
  get_round.set_name("tournaments/cup");
  get_round.set_round(1);
  v1::TournamentRound corrected;
  ASSERT_TRUE(tournaments_->GetRound(As(reader_).get(), get_round, &corrected).ok());
  EXPECT_EQ(corrected.tables(0).status(), v1::TABLE_STATUS_VOID);
  EXPECT_EQ(corrected.tables(1).status(), v1::TABLE_STATUS_CORRECTED);
  EXPECT_EQ(corrected.tables(1).points(3), "4");
  EXPECT_FALSE(dispute.ruling().changes().empty());

  // An appeal against the correction, upheld: the corrected result stands,
  // and the table still says so.
  ASSERT_TRUE(OpenDispute("d3", "cup", 1, 2, organiser_, &dispute).ok());
  status = Rule("d3", v1::RULING_KIND_UPHOLD, &dispute);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_TRUE(tournaments_->GetRound(As(reader_).get(), get_round, &corrected).ok());
  EXPECT_EQ(corrected.tables(1).status(), v1::TABLE_STATUS_CORRECTED);
  EXPECT_EQ(corrected.tables(1).points(3), "4");

  v1::ListDisputesRequest list;
  list.set_tournament("tournaments/cup");
  v1::ListDisputesResponse listed;
  ASSERT_TRUE(disputes_->ListDisputes(As(reader_).get(), list, &listed).ok());
  EXPECT_EQ(listed.disputes_size(), 3);
}

TEST_F(TournamentTest, EveryoneReadsTheOfficialResultOfACorrectedOrAVoidedTable) {
  ASSERT_TRUE(Create("cup", Settings(2), Names(12), organiser_).ok());
  const v1::TournamentRound round = PlayRound("cup", 1);
  v1::Dispute dispute;
  ASSERT_TRUE(OpenDispute("d1", "cup", 1, 1, organiser_, &dispute).ok());
  ASSERT_TRUE(Rule("d1", v1::RULING_KIND_VOID, &dispute).ok());
  ASSERT_TRUE(OpenDispute("d2", "cup", 1, 2, organiser_, &dispute).ok());
  ASSERT_TRUE(Rule("d2", v1::RULING_KIND_CORRECTED, &dispute, {4, 3, 2, 1}, {1, 2, 3, 4}).ok());
  const std::string voided_game = round.tables(0).game();
  const std::string corrected_game = round.tables(1).game();

  // The corrected table: AdjudicateGame and VerifyGame say which result
  // stands, who recorded it and why, for the public too.
  v1::AdjudicateGameRequest adjudicate;
  adjudicate.set_name(corrected_game);
  v1::Adjudication adjudication;
  ASSERT_TRUE(stub_->AdjudicateGame(As(reader_).get(), adjudicate, &adjudication).ok());
  const v1::OfficialResult& corrected = adjudication.official();
  EXPECT_EQ(corrected.source(), v1::RESULT_SOURCE_CORRECTED);
  EXPECT_EQ(corrected.event(), ServerTest::Get(GameId(corrected_game)).last_event());
  EXPECT_EQ(corrected.recorded_by(), "olga");
  EXPECT_EQ(corrected.reason(), "dispute d2: the arbiter watched the recording");
  ASSERT_EQ(corrected.standings().players_size(), 4);
  for (const v1::PlayerStanding& standing : corrected.standings().players()) {
    EXPECT_EQ(standing.place(), 4 - standing.seat() + 1) << standing.player();
  }
  v1::VerifyGameRequest verify;
  verify.set_name(corrected_game);
  v1::VerifyGameResponse verified;
  ASSERT_TRUE(stub_->VerifyGame(As(reader_).get(), verify, &verified).ok());
  EXPECT_TRUE(verified.intact());
  EXPECT_EQ(verified.official().source(), v1::RESULT_SOURCE_CORRECTED);
  EXPECT_EQ(verified.official().reason(), corrected.reason());

  // The voided table: the public reads the game, its events and its void,
  // never its seed or its positions.
  v1::GetGameRequest get;
  get.set_name(voided_game);
  v1::Game game;
  ASSERT_TRUE(stub_->GetGame(As(reader_).get(), get, &game).ok());
  EXPECT_EQ(game.status(), v1::GAME_STATUS_VOIDED);
  EXPECT_FALSE(game.has_seed());
  adjudicate.set_name(voided_game);
  ASSERT_TRUE(stub_->AdjudicateGame(As(reader_).get(), adjudicate, &adjudication).ok());
  EXPECT_EQ(adjudication.official().source(), v1::RESULT_SOURCE_VOIDED);
  EXPECT_EQ(adjudication.official().reason(), "dispute d1: the arbiter watched the recording");
  EXPECT_EQ(adjudication.official().recorded_by(), "olga");
  v1::ListEventsRequest list;
  list.set_parent(voided_game);
  list.set_page_size(1000);
  v1::ListEventsResponse events;
  ASSERT_TRUE(stub_->ListEvents(As(reader_).get(), list, &events).ok());
  ASSERT_GT(events.events_size(), 2);
  EXPECT_EQ(events.events(0).game_created().header().seed(), 0u) << "the seed stays hidden";
  EXPECT_EQ(events.events(events.events_size() - 1).game_voided().reason(),
            "dispute d1: the arbiter watched the recording");
  v1::GetGameStateRequest state;
  state.set_name(voided_game);
  v1::GameState position;
  EXPECT_EQ(stub_->GetGameState(As(reader_).get(), state, &position).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);

  // A table nobody ruled on: the referee's result stands.
  adjudicate.set_name(round.tables(2).game());
  ASSERT_TRUE(stub_->AdjudicateGame(As(reader_).get(), adjudicate, &adjudication).ok());
  EXPECT_EQ(adjudication.official().source(), v1::RESULT_SOURCE_REFEREE);
  EXPECT_TRUE(adjudication.official().reason().empty());
}

TEST_F(TournamentTest, AVoidRulingReachesTheLeagueRatings) {
  v1::CreateLeagueRequest league;
  league.set_request_id("north");
  league.set_league_id("north");
  league.mutable_settings()->add_game_types("atlantis");
  league.mutable_settings()->set_rating_system("plackett-luce");
  v1::League created;
  ASSERT_TRUE(leagues_->CreateLeague(As(admin_).get(), league, &created).ok());
  v1::TournamentSettings settings = Settings(1);
  settings.set_league("north");
  ASSERT_TRUE(Create("cup", settings, Names(8), organiser_).ok());
  const v1::TournamentRound round = PlayRound("cup", 1, admin_);  // games in the league
  ASSERT_TRUE(projector_->CatchUp().ok());
  v1::GetLeagueRequest get;
  get.set_name("leagues/north");
  v1::League north;
  ASSERT_TRUE(leagues_->GetLeague(As(reader_).get(), get, &north).ok());
  EXPECT_EQ(north.rated_games(), 2);

  v1::Dispute dispute;
  ASSERT_TRUE(OpenDispute("d1", "cup", 1, 2, organiser_, &dispute).ok());
  ASSERT_TRUE(Rule("d1", v1::RULING_KIND_VOID, &dispute).ok());
  ASSERT_TRUE(projector_->CatchUp().ok());
  ASSERT_TRUE(leagues_->GetLeague(As(reader_).get(), get, &north).ok());
  EXPECT_EQ(north.rated_games(), 1);
  EXPECT_EQ(round.tables(1).game(), dispute.game());
}

TEST_F(TournamentTest, ACorrectedResultReachesTheLeagueRatings) {
  v1::CreateLeagueRequest league;
  league.set_request_id("north");
  league.set_league_id("north");
  league.mutable_settings()->add_game_types("atlantis");
  league.mutable_settings()->set_rating_system("plackett-luce");
  v1::League created;
  ASSERT_TRUE(leagues_->CreateLeague(As(admin_).get(), league, &created).ok());
  v1::TournamentSettings settings = Settings(1);
  settings.set_league("north");
  ASSERT_TRUE(Create("cup", settings, Names(8), organiser_).ok());
  const v1::TournamentRound round = PlayRound("cup", 1, admin_);
  ASSERT_TRUE(projector_->CatchUp().ok());
  const v1::TournamentTable& table = round.tables(1);
  const std::string game_id = GameId(table.game());
  auto rating = [&](const std::string& player) {
    v1::GetPlayerRatingRequest request;
    request.set_league("leagues/north");
    request.set_player(player);
    v1::LeaderboardRow row;
    EXPECT_TRUE(leagues_->GetPlayerRating(As(reader_).get(), request, &row).ok()) << player;
    return row;
  };
  // The table's results as played, and the seats' ratings from them.
  std::vector<int> played;
  std::map<std::string, v1::LeaderboardRow> before;
  for (int i = 0; i < table.players_size(); ++i) {
    played.push_back(round.tables(1).places(i));
    before[table.players(i)] = rating(table.players(i));
  }
  // The ruling reverses the places: the last is first.
  std::vector<int> reversed;
  for (int place : played) reversed.push_back(table.players_size() + 1 - place);
  v1::Dispute dispute;
  ASSERT_TRUE(OpenDispute("d1", "cup", 1, 2, organiser_, &dispute).ok());
  const int64_t last_before = events_->GetGame(game_id)->last_sequence;
  ASSERT_TRUE(
      Rule("d1", v1::RULING_KIND_CORRECTED, &dispute, reversed, {10, 20, 30, 40}).ok());

  // The game's log keeps its result and adds the correction after it.
  const auto tail = *events_->ReadGameEvents(game_id, last_before - 1, 10);
  ASSERT_EQ(tail.size(), 2u);
  EXPECT_EQ(tail[0].type, store::kGameFinishedType);
  EXPECT_EQ(tail[1].type, store::kGameFinishedType);
  EXPECT_EQ(tail[1].sequence, last_before + 1);
  v1::GameFinished correction;
  ASSERT_TRUE(correction.ParseFromString(tail[1].payload));
  EXPECT_EQ(correction.correction(), "dispute d1: the arbiter watched the recording");
  EXPECT_EQ(correction.league(), "north");
  ASSERT_EQ(correction.standings().players_size(), 4);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(correction.standings().players(i).player(), table.players(i));
    EXPECT_EQ(correction.standings().players(i).place(), reversed[static_cast<size_t>(i)]);
  }

  ASSERT_TRUE(projector_->CatchUp().ok());
  v1::GetLeagueRequest get;
  get.set_name("leagues/north");
  v1::League north;
  ASSERT_TRUE(leagues_->GetLeague(As(reader_).get(), get, &north).ok());
  EXPECT_EQ(north.rated_games(), 2);  // the game counts once

  // The model rating the two games in their order, table 2 with the
  // corrected places, gives exactly the ratings now stored.
  engine::league::LeagueConfig config;
  config.game_types = {"atlantis"};
  config.rating = *engine::rating::MakeConfig(*engine::rating::ParseSystem("plackett-luce"), {});
  engine::league::LeagueRatings expected(config);
  const auto results = *events_->ReadResults(0, 0, "north", 100);
  ASSERT_EQ(results.size(), 3u);  // two results and the correction
  int64_t first_position = 0;
  for (const auto& r : results) {
    if (r.event.game_id != game_id || r.event.sequence != last_before) {
      if (r.event.game_id == game_id) continue;  // the correction: counted below
      ASSERT_TRUE(expected.Add(*league::ResultOf(r), nullptr, nullptr).ok());
      continue;
    }
    first_position = r.event.position;
    engine::league::GameResult fixed = *league::ResultOf(r);
    fixed.places = reversed;
    ASSERT_TRUE(expected.Add(fixed, nullptr, nullptr).ok());
  }
  for (int i = 0; i < table.players_size(); ++i) {
    const std::string& player = table.players(i);
    const v1::LeaderboardRow after = rating(player);
    const engine::league::PlayerRating& model = expected.table("").at(player);
    EXPECT_EQ(after.mu(), model.rating.mu) << player;
    EXPECT_EQ(after.sigma(), model.rating.sigma) << player;
    EXPECT_EQ(after.games(), 1) << player;
    // Whoever moved up the table gained, whoever moved down lost.
    if (reversed[static_cast<size_t>(i)] < played[static_cast<size_t>(i)]) {
      EXPECT_GT(after.mu(), before[player].mu()) << player;
    } else if (reversed[static_cast<size_t>(i)] > played[static_cast<size_t>(i)]) {
      EXPECT_LT(after.mu(), before[player].mu()) << player;
    }
    // One history point for the game, at its first result's position.
    v1::GetRatingHistoryRequest history;
    history.set_league("leagues/north");
    history.set_player(player);
    v1::RatingHistory points;
    ASSERT_TRUE(leagues_->GetRatingHistory(As(reader_).get(), history, &points).ok());
    ASSERT_EQ(points.points_size(), 1) << player;
    EXPECT_EQ(points.points(0).game(), table.game());
    EXPECT_EQ(points.points(0).position(), first_position);
  }
  // The tournament's trace names the players whose standing changed.
  EXPECT_FALSE(dispute.ruling().changes().empty());
  // A rebuild gives the same ratings.
  v1::RebuildLeagueRequest rebuild;
  rebuild.set_name("leagues/north");
  v1::RebuildLeagueResponse rebuilt;
  ASSERT_TRUE(leagues_->RebuildLeague(As(admin_).get(), rebuild, &rebuilt).ok());
  EXPECT_EQ(rebuilt.rated_games(), 2);
  EXPECT_EQ(rating(table.players(0)).mu(), expected.table("").at(table.players(0)).rating.mu);
}

TEST_F(TournamentTest, ARulingTracesTheRatingsItChangesAsTheLeaderboardShowsThem) {
  v1::CreateLeagueRequest league;
  league.set_request_id("south");
  league.set_league_id("south");
  league.mutable_settings()->add_game_types("atlantis");
  league.mutable_settings()->set_rating_system("plackett-luce");
  v1::League created;
  ASSERT_TRUE(leagues_->CreateLeague(As(admin_).get(), league, &created).ok());
  v1::TournamentSettings settings = Settings(1);
  settings.set_league("south");
  const std::vector<std::string> players = Names(8);
  ASSERT_TRUE(Create("cup", settings, players, organiser_).ok());
  const v1::TournamentRound round = PlayRound("cup", 1, admin_);
  ASSERT_EQ(round.tables_size(), 2);
  // Every player's leaderboard row (NotFound: no rated game, as 0 games).
  auto board = [&]() {
    EXPECT_TRUE(projector_->CatchUp().ok());
    std::map<std::string, v1::LeaderboardRow> rows;
    for (const std::string& player : players) {
      v1::GetPlayerRatingRequest request;
      request.set_league("leagues/south");
      request.set_player(player);
      v1::LeaderboardRow row;
      grpc::Status status = leagues_->GetPlayerRating(As(reader_).get(), request, &row);
      EXPECT_TRUE(status.ok() || status.error_code() == grpc::StatusCode::NOT_FOUND)
          << status.error_message();
      rows[player] = status.ok() ? row : v1::LeaderboardRow();
    }
    return rows;
  };
  // The trace lists exactly the players whose row changed, with the rows.
  auto check = [&](const v1::Dispute& dispute, const v1::TournamentTable& table,
                   const std::map<std::string, v1::LeaderboardRow>& before,
                   const std::map<std::string, v1::LeaderboardRow>& after) {
    std::set<std::string> traced;
    for (const v1::RatingChange& change : dispute.rating_changes()) {
      EXPECT_EQ(change.league(), "leagues/south");
      EXPECT_EQ(change.season(), "");
      traced.insert(change.player());
      const v1::LeaderboardRow& old_row = before.at(change.player());
      const v1::LeaderboardRow& new_row = after.at(change.player());
      EXPECT_EQ(change.display_rating_before(), old_row.display_rating()) << change.player();
      EXPECT_EQ(change.mu_before(), old_row.mu()) << change.player();
      EXPECT_EQ(change.sigma_before(), old_row.sigma()) << change.player();
      EXPECT_EQ(change.games_before(), old_row.games()) << change.player();
      EXPECT_EQ(change.display_rating_after(), new_row.display_rating()) << change.player();
      EXPECT_EQ(change.mu_after(), new_row.mu()) << change.player();
      EXPECT_EQ(change.sigma_after(), new_row.sigma()) << change.player();
      EXPECT_EQ(change.games_after(), new_row.games()) << change.player();
    }
    std::set<std::string> moved;
    for (const std::string& player : players) {
      if (before.at(player).SerializeAsString() != after.at(player).SerializeAsString()) {
        moved.insert(player);
      }
    }
    EXPECT_EQ(traced, moved);
    EXPECT_EQ(traced, std::set<std::string>(table.players().begin(), table.players().end()));
  };

  // A corrected result: the places reversed.
  const std::map<std::string, v1::LeaderboardRow> played = board();
  const v1::TournamentTable& first = round.tables(0);
  std::vector<int> reversed;
  for (int i = 0; i < first.players_size(); ++i) {
    reversed.push_back(first.players_size() + 1 - first.places(i));
  }
  v1::Dispute corrected;
  ASSERT_TRUE(OpenDispute("c1", "cup", 1, 1, organiser_, &corrected).ok());
  ASSERT_TRUE(Rule("c1", v1::RULING_KIND_CORRECTED, &corrected, reversed, {10, 20, 30, 40}).ok());
  const std::map<std::string, v1::LeaderboardRow> after_correction = board();
  check(corrected, first, played, after_correction);
  EXPECT_EQ(corrected.rating_event(),
            absl::StrCat(first.game(), "/events/",
                         events_->GetGame(GameId(first.game()))->last_sequence));

  // A voided game: its players lose the game from their ratings.
  const v1::TournamentTable& second = round.tables(1);
  v1::Dispute voided;
  ASSERT_TRUE(OpenDispute("v1", "cup", 1, 2, organiser_, &voided).ok());
  ASSERT_TRUE(Rule("v1", v1::RULING_KIND_VOID, &voided).ok());
  const std::map<std::string, v1::LeaderboardRow> after_void = board();
  check(voided, second, after_correction, after_void);
  for (const v1::RatingChange& change : voided.rating_changes()) {
    EXPECT_EQ(change.games_before(), 1);
    EXPECT_EQ(change.games_after(), 0);
  }

  // Read later, and after the league is rebuilt from the logs, each trace
  // reads the same, byte for byte.
  auto read = [&](const std::string& id) {
    v1::GetDisputeRequest request;
    request.set_name(absl::StrCat("disputes/", id));
    v1::Dispute out;
    EXPECT_TRUE(disputes_->GetDispute(As(reader_).get(), request, &out).ok());
    return out;
  };
  EXPECT_EQ(read("c1").SerializeAsString(), corrected.SerializeAsString());
  EXPECT_EQ(read("v1").SerializeAsString(), voided.SerializeAsString());
  v1::RebuildLeagueRequest rebuild;
  rebuild.set_name("leagues/south");
  v1::RebuildLeagueResponse rebuilt;
  ASSERT_TRUE(leagues_->RebuildLeague(As(admin_).get(), rebuild, &rebuilt).ok());
  EXPECT_EQ(read("c1").SerializeAsString(), corrected.SerializeAsString());
  EXPECT_EQ(read("v1").SerializeAsString(), voided.SerializeAsString());
  for (const auto& [player, row] : board()) {
    EXPECT_EQ(row.SerializeAsString(), after_void.at(player).SerializeAsString()) << player;
  }
}

TEST_F(TournamentTest, ARoundOf2500TablesIsRecordedInParts) {
  std::vector<std::string> players;
  for (int i = 1; i <= 10'000; ++i) players.push_back(absl::StrFormat("player-%05d", i));
  // One request cannot hold them all: a precise error, nothing stored.
  grpc::Status status = Create("big", Settings(1), players, admin_);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(absl::StartsWith(status.error_message(), "players: 10000 players take "))
      << status.error_message();
  EXPECT_TRUE(absl::EndsWith(status.error_message(),
                             " bytes; one request may hold 65536 (register the rest in further "
                             "requests)"))
      << status.error_message();
  EXPECT_EQ(streams_->GetStream("tournaments/big").status().code(), absl::StatusCode::kNotFound);

  auto create_big = [&](const std::string& id) {
    ASSERT_TRUE(Create(id, Settings(1), std::vector<std::string>(players.begin(),
                                                                 players.begin() + 4000),
                       admin_)
                    .ok());
    for (int first : {4000, 7000}) {
      v1::RegisterPlayersRequest add;
      add.set_name(absl::StrCat("tournaments/", id));
      add.set_request_id(absl::StrCat("add-", first));
      for (int i = first; i < first + 3000; ++i) add.add_players(players[static_cast<size_t>(i)]);
      v1::Tournament out;
      status = tournaments_->RegisterPlayers(As(admin_).get(), add, &out);
      ASSERT_TRUE(status.ok()) << status.error_message();
    }
  };
  create_big("big");
  v1::TournamentRound round;
  status = Start("big", 1, &round, admin_);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(round.tables_size(), 2500);
  const engine::tournament::Round expected = *engine::tournament::AssignRound(
      *tournament::ModelSettings(Settings(1)), players, {});
  std::set<std::string> seated;
  for (int t = 0; t < 2500; ++t) {
    const v1::TournamentTable& table = round.tables(t);
    ASSERT_EQ(table.number(), t + 1);
    ASSERT_EQ(std::vector<std::string>(table.players().begin(), table.players().end()),
              expected.tables[static_cast<size_t>(t)].players);
    ASSERT_EQ(table.seed(), expected.tables[static_cast<size_t>(t)].game_seed);
    seated.insert(table.players().begin(), table.players().end());
  }
  EXPECT_EQ(seated.size(), 10'000u);
  EXPECT_EQ(ServerTest::Get("big-r1-t2500").players(3).id(), round.tables(2499).players(3));

  // The stream: the creation, two registrations, then the round in parts,
  // each within a stream event's 64 KiB.
  const auto events = *streams_->ReadStream("tournaments/big", 0, 100);
  ASSERT_GE(events.size(), 6u);
  EXPECT_EQ(events[3].type, "round_started");
  v1::RoundStarted first;
  ASSERT_TRUE(first.ParseFromString(events[3].payload));
  EXPECT_EQ(first.table_count(), 2500);
  int recorded = first.tables_size();
  for (size_t e = 4; e < events.size(); ++e) {
    EXPECT_EQ(events[e].type, "round_tables");
    v1::RoundStarted part;
    ASSERT_TRUE(part.ParseFromString(events[e].payload));
    EXPECT_EQ(part.tables(0).number(), recorded + 1);
    recorded += part.tables_size();
  }
  EXPECT_EQ(recorded, 2500);
  for (const auto& e : events) EXPECT_LE(e.payload.size(), 64u * 1024u);

  // A retry answers the same and writes nothing.
  v1::TournamentRound again;
  ASSERT_TRUE(Start("big", 1, &again, admin_).ok());
  EXPECT_EQ(again.SerializeAsString(), round.SerializeAsString());
  EXPECT_EQ(streams_->GetStream("tournaments/big")->last_sequence,
            static_cast<int64_t>(events.size()));

  // A start interrupted after its first event (no games created, the rest
  // of the tables not recorded) is finished by the next StartRound, under
  // the first event's request id; until then the round has not started.
  create_big("big2");
  store::StreamAppendRequest part;
  part.stream_id = "tournaments/big2";
  part.expected_sequence = 3;
  part.request_id = "interrupted-start";
  part.recorded_by = "root";
  part.type = "round_started";
  part.payload = events[3].payload;
  ASSERT_TRUE(streams_->Append(part).ok());
  EXPECT_EQ(Get("big2").rounds_started(), 0);
  // Nobody registers into a round being started.
  v1::RegisterPlayersRequest late;
  late.set_name("tournaments/big2");
  late.set_request_id("late");
  late.add_players("latecomer");
  v1::Tournament unchanged;
  status = tournaments_->RegisterPlayers(As(admin_).get(), late, &unchanged);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(status.error_message(),
            "round 1 of tournament \"big2\" is being started; start round 1 again to finish "
            "it, then register the players for the next round");
  v1::TournamentRound finished;
  status = Start("big2", 1, &finished, admin_);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(finished.tables_size(), 2500);
  for (int t = 0; t < 2500; t += 499) {
    EXPECT_EQ(finished.tables(t).seed(), round.tables(t).seed());
    EXPECT_EQ(finished.tables(t).players(0), round.tables(t).players(0));
  }
  const auto events2 = *streams_->ReadStream("tournaments/big2", 0, 100);
  ASSERT_EQ(events2.size(), events.size());
  for (size_t e = 4; e < events2.size(); ++e) {
    // The same tables, and the request that finished the round named.
    v1::RoundStarted had;
    v1::RoundStarted now;
    ASSERT_TRUE(had.ParseFromString(events[e].payload));
    ASSERT_TRUE(now.ParseFromString(events2[e].payload));
    EXPECT_TRUE(absl::StartsWith(now.finished_by(), "tournament-round-")) << now.finished_by();
    now.clear_finished_by();
    EXPECT_EQ(now.SerializeAsString(), had.SerializeAsString());
    EXPECT_TRUE(absl::StartsWith(events2[e].request_id, "interrupted-start-t"))
        << events2[e].request_id;
  }
  EXPECT_EQ(Get("big2").rounds_started(), 1);
  EXPECT_EQ(ServerTest::Get("big2-r1-t1").players(0).id(), round.tables(0).players(0));

  // The StartRound that finished the round, retried with its request id, is
  // answered with the same round and writes nothing.
  v1::TournamentRound retried;
  status = Start("big2", 1, &retried, admin_);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(retried.SerializeAsString(), finished.SerializeAsString());
  EXPECT_EQ(streams_->GetStream("tournaments/big2")->last_sequence,
            static_cast<int64_t>(events2.size()));
  // Another request for the started round is refused, nothing written.
  v1::StartRoundRequest other;
  other.set_name("tournaments/big2");
  other.set_request_id("another-start");
  other.set_round(1);
  v1::TournamentRound refused;
  status = tournaments_->StartRound(As(admin_).get(), other, &refused);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(status.error_message(),
            "round 1 has already started (by a request with another request id); read its tables "
            "instead");
  EXPECT_EQ(streams_->GetStream("tournaments/big2")->last_sequence,
            static_cast<int64_t>(events2.size()));
}

TEST_F(TournamentTest, LongRequestIdsAndPrincipalsFitAndNameOneTournamentEach) {
  // A 200-byte client request id (the most allowed) by a long principal.
  const std::string principal(100, 'o');
  const std::string organiser = Organiser(principal, {"cup", "late"});
  const std::string long_id(200, 'r');
  for (const char* id : {"cup", "late"}) {
    v1::CreateTournamentRequest request;
    request.set_request_id(long_id);  // the same client id on two tournaments
    request.set_tournament_id(id);
    *request.mutable_settings() = Settings(1);
    for (const std::string& p : Names(4)) request.add_players(p);
    v1::Tournament out;
    grpc::Status status = tournaments_->CreateTournament(As(organiser).get(), request, &out);
    ASSERT_TRUE(status.ok()) << id << ": " << status.error_message();
    v1::StartRoundRequest start;
    start.set_name(absl::StrCat("tournaments/", id));
    start.set_request_id(long_id);
    start.set_round(1);
    v1::TournamentRound round;
    status = tournaments_->StartRound(As(organiser).get(), start, &round);
    ASSERT_TRUE(status.ok()) << id << ": " << status.error_message();
    // Stored under a bounded id: the kind and a SHA-256.
    const auto events = *streams_->ReadStream(absl::StrCat("tournaments/", id), 0, 10);
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[1].request_id,
              tournament::StreamRequestId(
                  "tournament-round", absl::StrCat("tournaments/", id), principal, long_id));
    EXPECT_EQ(events[1].request_id.size(), std::string("tournament-round-").size() + 64);
  }
  v1::Dispute dispute;
  v1::OpenDisputeRequest open;
  open.set_request_id(long_id);
  open.set_dispute_id("d1");
  open.set_tournament("tournaments/cup");
  open.set_round(1);
  open.set_table(1);
  open.set_reason("a long request id");
  grpc::Status status = disputes_->OpenDispute(As(organiser).get(), open, &dispute);
  ASSERT_TRUE(status.ok()) << status.error_message();
  // 201 bytes are refused, naming the field.
  open.set_request_id(std::string(201, 'r'));
  open.set_dispute_id("d2");
  status = disputes_->OpenDispute(As(organiser).get(), open, &dispute);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(status.error_message(), "request_id is required: 1-200 bytes, unique per request");
}

TEST_F(TournamentTest, ADisputeAfterItsWindowIsRefused) {
  v1::TournamentSettings settings = Settings(1);
  settings.set_dispute_window_seconds(1);
  ASSERT_TRUE(Create("late", settings, Names(4), organiser_).ok());
  PlayRound("late", 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  v1::Dispute dispute;
  grpc::Status status = OpenDispute("d-late", "late", 1, 1, organiser_, &dispute);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(status.error_message().find("the dispute window for round 1 table 1 closed at"),
            std::string::npos)
      << status.error_message();
}

TEST_F(TournamentTest, RolesAreEnforced) {
  const std::string stranger = Organiser("sam", {"elsewhere"});
  grpc::Status status = Create("cup", Settings(1), Names(4), stranger);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  status = Create("cup", Settings(1), Names(4), MakeToken(store::Role::kPublic, "pat"));
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  ASSERT_TRUE(Create("cup", Settings(1), Names(4), organiser_).ok());
  v1::TournamentRound round;
  status = Start("cup", 1, &round, stranger);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  status = Start("cup", 1, &round, MakeToken(store::Role::kAuditor, "audrey"));
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Get("cup").rounds_started(), 0);
  ASSERT_TRUE(Start("cup", 1, &round, admin_).ok());
}

// A pending table's seed deals every card its players will hold, and the
// tournament's seed deals every table: while a game they deal is live, the
// public, the tournament's players (their own table's included) and
// organisers of other tournaments read every tournament answer without them
// (seed_withheld says so). The tournament's organisers, admins
// and auditors see them. A finished game's seed is shown to everyone, and
// the tournament's once every round is over.
TEST_F(TournamentTest, ALiveTablesSeedIsShownOnlyToThoseWhoMaySeeLiveSeeds) {
  v1::TournamentSettings settings = Settings(2);
  settings.set_seed(918273645546372819);
  ASSERT_TRUE(Create("cup", settings, Names(8), organiser_).ok());
  v1::TournamentRound started;
  ASSERT_TRUE(Start("cup", 1, &started).ok());
  ASSERT_EQ(started.tables_size(), 2);
  ASSERT_NE(started.tables(0).seed(), 0u);  // the organiser's own StartRound
  // A player of the tournament, seated at table 1, reads it as the public.
  absl::StatusOr<access::NewToken> seated = access::GenerateToken();
  ASSERT_TRUE(seated.ok());
  seated->record.role = store::Role::kPlayer;
  seated->record.principal = started.tables(0).players(0);
  seated->record.tournaments = {"cup"};
  seated->record.created_by = "test";
  ASSERT_TRUE(tokens_->Insert(seated->record).ok());
  const std::vector<std::string> kept_from = {reader_, MakeToken(store::Role::kPublic, "pat"),
                                              Organiser("sam", {"elsewhere"}), seated->token};
  const std::vector<std::string> shown_to = {organiser_, admin_,
                                             MakeToken(store::Role::kAuditor, "audrey")};
  // Every answer about the tournament a caller can ask for, as JSON.
  auto answers = [&](const std::string& token) {
    v1::GetTournamentRequest get;
    get.set_name("tournaments/cup");
    v1::Tournament tournament;
    EXPECT_TRUE(tournaments_->GetTournament(As(token).get(), get, &tournament).ok());
    v1::GetRoundRequest round;
    round.set_name("tournaments/cup");
    v1::TournamentRound latest;
    EXPECT_TRUE(tournaments_->GetRound(As(token).get(), round, &latest).ok());
    v1::GetStandingsRequest standings_request;
    standings_request.set_name("tournaments/cup");
    v1::TournamentStandings standings;
    EXPECT_TRUE(tournaments_->GetStandings(As(token).get(), standings_request, &standings).ok());
    return std::make_tuple(tournament, latest,
                           absl::StrCat(log::ToJsonLine(tournament), log::ToJsonLine(latest),
                                        log::ToJsonLine(standings)));
  };
  const std::string tournament_seed = absl::StrCat(settings.seed());
  const std::string table1_seed = absl::StrCat(started.tables(0).seed());
  const std::string table2_seed = absl::StrCat(started.tables(1).seed());
  for (const std::string& token : kept_from) {
    const auto [tournament, round, json] = answers(token);
    EXPECT_TRUE(tournament.seed_withheld());
    EXPECT_EQ(tournament.settings().seed(), 0u);
    for (const v1::TournamentTable& table : round.tables()) {
      EXPECT_TRUE(table.seed_withheld());
      EXPECT_EQ(table.seed(), 0u);
    }
    for (const std::string& seed : {tournament_seed, table1_seed, table2_seed}) {
      EXPECT_FALSE(absl::StrContains(json, seed)) << seed << " in " << json;
    }
  }
  for (const std::string& token : shown_to) {
    const auto [tournament, round, json] = answers(token);
    EXPECT_FALSE(tournament.seed_withheld());
    EXPECT_EQ(tournament.settings().seed(), settings.seed());
    EXPECT_EQ(round.tables(0).seed(), started.tables(0).seed());
    EXPECT_FALSE(round.tables(1).seed_withheld());
  }
  // Table 1's game ends (not yet confirmed): its seed deals nothing more.
  Play(started.tables(0));
  {
    const auto [tournament, round, json] = answers(reader_);
    EXPECT_FALSE(round.tables(0).seed_withheld());
    EXPECT_EQ(round.tables(0).seed(), started.tables(0).seed());
    EXPECT_TRUE(round.tables(1).seed_withheld());
    EXPECT_FALSE(absl::StrContains(json, table2_seed));
    EXPECT_TRUE(tournament.seed_withheld());  // round 2 is still to be dealt
  }
  Play(started.tables(1));
  v1::TournamentRound confirmed;
  ASSERT_TRUE(Confirm("cup", 1, 0, &confirmed).ok());
  EXPECT_TRUE(std::get<0>(answers(reader_)).seed_withheld());  // round 2 is still to be dealt
  v1::TournamentRound second;
  ASSERT_TRUE(Start("cup", 2, &second).ok());
  // Every round has started, and round 2's games are live.
  EXPECT_TRUE(std::get<0>(answers(reader_)).seed_withheld());
  for (const v1::TournamentTable& table : second.tables()) Play(table);
  v1::TournamentRound last;
  ASSERT_TRUE(Confirm("cup", 2, 0, &last).ok());
  ASSERT_TRUE(last.closed());
  const auto [tournament, round, json] = answers(reader_);
  EXPECT_FALSE(tournament.seed_withheld());
  EXPECT_EQ(tournament.settings().seed(), settings.seed());
  EXPECT_EQ(round.tables(0).seed(), last.tables(0).seed());
}

// With deal_tables, every table's game is dealt by the server: no answer
// about the tournament, to anyone (its organiser included), holds a seed
// that decides a table's cards; the players of a table add their values
// with their tournament seat tokens, an organiser may close a table's deal
// without them, and a finished table's deal is re-derived from its log.
TEST_F(TournamentTest, DealtTablesAreDealtByTheServerAndNoSeedDecidesThem) {
  v1::TournamentSettings settings = Settings(1);
  settings.set_deal_tables(true);
  ASSERT_TRUE(Create("cup", settings, Names(8), organiser_).ok());
  v1::TournamentRound started;
  ASSERT_TRUE(Start("cup", 1, &started).ok());
  ASSERT_EQ(started.tables_size(), 2);
  for (const v1::TournamentTable& table : started.tables()) {
    EXPECT_TRUE(table.dealt());
    EXPECT_EQ(table.seed(), 0u);
    for (const std::string& token : {organiser_, admin_}) {
      v1::GetGameRequest get;
      get.set_name(table.game());
      v1::Game game;
      ASSERT_TRUE(stub_->GetGame(As(token).get(), get, &game).ok());
      EXPECT_TRUE(game.deal());
      EXPECT_FALSE(game.has_seed());
      EXPECT_EQ(game.awaiting_seat_values_size(), table.players_size());
    }
  }
  // Table 1: each player adds a value with its tournament token, and the
  // table is played through the API to its end.
  const v1::TournamentTable& first = started.tables(0);
  std::vector<std::string> seats;
  for (const std::string& player : first.players()) {
    absl::StatusOr<access::NewToken> token = access::GenerateToken();
    ASSERT_TRUE(token.ok());
    token->record.role = store::Role::kPlayer;
    token->record.principal = player;
    token->record.tournaments = {"cup"};
    token->record.created_by = "test";
    ASSERT_TRUE(tokens_->Insert(token->record).ok());
    seats.push_back(token->token);
    v1::AddSeatValueRequest add;
    add.set_game(first.game());
    add.set_request_id(absl::StrCat("value-", player));
    add.set_value(absl::StrCat("lucky ", player));
    v1::Game game;
    ASSERT_TRUE(stub_->AddSeatValue(As(seats.back()).get(), add, &game).ok());
  }
  for (int move = 0; move < 5000; ++move) {
    bool moved = false;
    for (const std::string& seat : seats) {
      v1::ListLegalActionsRequest request;
      request.set_game(first.game());
      v1::ListLegalActionsResponse offered;
      ASSERT_TRUE(stub_->ListLegalActions(As(seat).get(), request, &offered).ok());
      if (offered.actions().empty()) continue;
      v1::AppendActionsResponse response;
      ASSERT_TRUE(Append(seat, GameId(first.game()), offered.last_event(),
                         {offered.actions(0).action()}, absl::StrCat("m", move), &response)
                      .ok());
      moved = true;
      break;
    }
    if (!moved) break;
  }
  v1::ListEventsRequest list;
  list.set_parent(first.game());
  list.set_page_size(1000);
  v1::ListEventsResponse events;
  ASSERT_TRUE(stub_->ListEvents(As(reader_).get(), list, &events).ok());
  ASSERT_TRUE(events.events(events.events_size() - 1).has_game_finished());
  ASSERT_TRUE(events.events(events.events_size() - 2).has_dealer_revealed());
  // Table 2: the organiser closes the deal without its players' values.
  v1::CloseDealRequest close;
  close.set_game(started.tables(1).game());
  close.set_request_id("close-2");
  v1::Game closed;
  ASSERT_TRUE(stub_->CloseDeal(As(organiser_).get(), close, &closed).ok());
  EXPECT_TRUE(closed.deal_closed());
  v1::TournamentRound confirmed;
  ASSERT_TRUE(Confirm("cup", 1, 1, &confirmed).ok());
  EXPECT_EQ(confirmed.tables(0).status(), v1::TABLE_STATUS_CONFIRMED);
  EXPECT_EQ(confirmed.tables(1).status(), v1::TABLE_STATUS_PENDING);
}

// A drawn lot: the server commits to a secret at creation, records it when
// round 1 starts, and round 1's tables follow from it and the players
// registered by then, not from the organiser's seed; the commitment opens
// and anyone re-derives round 1. The drawn lot cannot be turned off later.
// Spectators: the public follows a live table's game, seeing no hidden card.
TEST_F(TournamentTest, ADrawnLotDecidesRoundOneAndSpectatorsFollowTheLiveTables) {
  v1::TournamentSettings settings = Settings(2);
  settings.set_deal_tables(true);
  settings.set_draw_lot(true);
  settings.set_spectators(true);
  ASSERT_TRUE(Create("cup", settings, Names(12), organiser_).ok());
  const v1::Tournament before = Get("cup");
  ASSERT_EQ(before.lot_commitment().size(), 64u);
  EXPECT_TRUE(before.lot_secret().empty());

  v1::UpdateTournamentSettingsRequest change;
  change.set_name("tournaments/cup");
  change.set_request_id("no-lot");
  *change.mutable_settings() = settings;
  change.mutable_settings()->set_draw_lot(false);
  v1::Tournament changed;
  grpc::Status status =
      tournaments_->UpdateTournamentSettings(As(organiser_).get(), change, &changed);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), ::testing::StartsWith("settings.draw_lot: "));

  v1::TournamentRound started;
  ASSERT_TRUE(Start("cup", 1, &started).ok());
  const v1::Tournament after = Get("cup");
  EXPECT_EQ(after.lot_commitment(), before.lot_commitment());
  const std::string secret = absl::HexStringToBytes(after.lot_secret());
  ASSERT_EQ(secret.size(), 32u);
  EXPECT_EQ(engine::LotCommitment("cup", secret), before.lot_commitment());
  const uint64_t lot_seed = engine::DeriveLotSeed("cup", secret, Names(12));
  EXPECT_EQ(after.lot_seed(), lot_seed);
  absl::StatusOr<engine::tournament::TournamentSettings> model =
      tournament::ModelSettings(settings);
  ASSERT_TRUE(model.ok());
  // By the organiser's seed alone, round 1 would seat the players otherwise
  // (12 players: two shuffles agree about once in 479 million draws).
  engine::tournament::TournamentSettings organisers = *model;
  organisers.draw_lot = false;
  absl::StatusOr<engine::tournament::Round> by_seed =
      engine::tournament::AssignRound(organisers, Names(12), {}, {});
  model->drawn_lots[1] = lot_seed;
  absl::StatusOr<engine::tournament::Round> expected =
      engine::tournament::AssignRound(*model, Names(12), {}, {});
  ASSERT_TRUE(expected.ok()) << expected.status();
  ASSERT_TRUE(by_seed.ok()) << by_seed.status();
  ASSERT_EQ(started.tables_size(), static_cast<int>(expected->tables.size()));
  bool as_by_seed = true;
  for (int t = 0; t < started.tables_size(); ++t) {
    const std::vector<std::string> seated(started.tables(t).players().begin(),
                                          started.tables(t).players().end());
    EXPECT_EQ(seated, expected->tables[static_cast<size_t>(t)].players) << "table " << t + 1;
    as_by_seed = as_by_seed && seated == by_seed->tables[static_cast<size_t>(t)].players;
  }
  EXPECT_FALSE(as_by_seed) << "round 1 is seated as the organiser's seed alone would seat it";

  // The public follows table 1's live game as a spectator: the game and its
  // position without any hand, and no seat's moves.
  const std::string table_game = started.tables(0).game();
  v1::GetGameRequest get;
  get.set_name(table_game);
  v1::Game game;
  ASSERT_TRUE(stub_->GetGame(As(reader_).get(), get, &game).ok());
  EXPECT_TRUE(game.spectators());
  v1::CloseDealRequest close;
  close.set_game(table_game);
  close.set_request_id("close-1");
  ASSERT_TRUE(stub_->CloseDeal(As(organiser_).get(), close, &game).ok());
  v1::GetGameStateRequest state;
  state.set_name(table_game);
  v1::GameState seen;
  status = stub_->GetGameState(As(reader_).get(), state, &seen);
  ASSERT_TRUE(status.ok()) << status.error_message();
  v1::GameState everything;
  ASSERT_TRUE(stub_->GetGameState(As(admin_).get(), state, &everything).ok());
  // The admin's view with every hand cut to its size is the spectator's.
  const std::optional<std::set<std::string>> hands = arbiter::testing::HandCountersOf("atlantis");
  ASSERT_TRUE(hands.has_value());
  v1::PositionView cut = everything.view();
  int hidden = 0;
  for (v1::PlayerHoldings& holdings : *cut.mutable_players()) {
    for (v1::Counter& counter : *holdings.mutable_items()) {
      if (hands->count(counter.name()) == 0 || counter.detail().empty()) continue;
      counter.clear_detail();
      ++hidden;
    }
  }
  EXPECT_GT(hidden, 0) << "no hand to hide: the check below would prove nothing";
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(seen.view(), cut))
      << seen.view().ShortDebugString();
  v1::ListLegalActionsRequest moves;
  moves.set_game(table_game);
  moves.set_player(started.tables(0).players(0));
  v1::ListLegalActionsResponse offered;
  EXPECT_EQ(stub_->ListLegalActions(As(reader_).get(), moves, &offered).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
}

// With a drawn lot every round draws the lot of the players it pairs first:
// round 1 commits to round 2's secret before any late entrant registers,
// round 2 reveals it, and the late entrants' lot numbers follow from it.
TEST_F(TournamentTest, EachRoundDrawsTheLotOfThePlayersItPairsFirst) {
  v1::TournamentSettings settings = Settings(2);
  settings.set_draw_lot(true);
  ASSERT_TRUE(Create("late", settings, Names(8), organiser_).ok());
  const v1::TournamentRound first = PlayRound("late", 1);
  ASSERT_EQ(first.next_lot_commitment().size(), 64u);
  const std::string first_secret = absl::HexStringToBytes(first.lot_secret());
  ASSERT_EQ(first_secret.size(), 32u);
  EXPECT_EQ(first.lot_seed(), engine::DeriveLotSeed("late", first_secret, Names(8)));

  const std::vector<std::string> late = {"p9", "p10", "p11", "p12", "p13"};
  v1::RegisterPlayersRequest add;
  add.set_name("tournaments/late");
  add.set_request_id("add-late");
  for (const std::string& p : late) add.add_players(p);
  v1::Tournament registered;
  ASSERT_TRUE(tournaments_->RegisterPlayers(As(organiser_).get(), add, &registered).ok());

  v1::TournamentRound second;
  grpc::Status status = Start("late", 2, &second);
  ASSERT_TRUE(status.ok()) << status.error_message();
  const std::string second_secret = absl::HexStringToBytes(second.lot_secret());
  ASSERT_EQ(second_secret.size(), 32u);
  EXPECT_EQ(engine::LotCommitment("late", second_secret), first.next_lot_commitment());
  EXPECT_EQ(second.lot_seed(), engine::DeriveLotSeed("late", second_secret, late));
  EXPECT_TRUE(second.next_lot_commitment().empty()) << "round 2 is the last";

  absl::StatusOr<engine::tournament::TournamentSettings> model =
      tournament::ModelSettings(settings);
  ASSERT_TRUE(model.ok());
  model->drawn_lots = {{1, first.lot_seed()}, {2, second.lot_seed()}};
  std::vector<std::string> everyone = Names(8);
  engine::tournament::FieldChanges changes;
  for (const std::string& p : late) {
    everyone.push_back(p);
    changes.first_round[p] = 2;
  }
  const std::map<std::string, int> lots =
      engine::tournament::LotNumbers(*model, everyone, changes);
  const v1::TournamentStandings standings = Standings("late", 1);
  ASSERT_EQ(standings.rows_size(), 13);
  for (const v1::StandingsRow& row : standings.rows()) {
    EXPECT_EQ(row.lot(), lots.at(row.player())) << row.player();
  }
}

// What round 1 would refuse when it creates the tables' games is refused
// when the tournament is created, and nothing is written: the same request,
// corrected, then creates it (it used to be stored, fail at round 1, and
// block its own request id).
TEST_F(TournamentTest, AGameTypeOrLeagueThatRound1WouldRefuseIsRefusedAtCreation) {
  v1::TournamentSettings settings = Settings(2);
  settings.set_game_type("chess");
  grpc::Status status = Create("early", settings, Names(8), admin_);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(),
              ::testing::StartsWith("settings.game_type: unknown game 'chess'; known games: "));

  settings = Settings(2);
  settings.set_league("nowhere");
  status = Create("early", settings, Names(8), admin_);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND) << status.error_message();
  EXPECT_THAT(status.error_message(), ::testing::HasSubstr("nowhere"));

  v1::CreateLeagueRequest league;
  league.set_request_id("south");
  league.set_league_id("south");
  league.mutable_settings()->add_game_types("atlantica");
  league.mutable_settings()->set_rating_system("plackett-luce");
  v1::League south;
  ASSERT_TRUE(leagues_->CreateLeague(As(admin_).get(), league, &south).ok());
  settings.set_league("south");  // rates Atlantica; the tournament plays Atlantis
  status = Create("early", settings, Names(8), admin_);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION) << status.error_message();

  v1::GetTournamentRequest get;
  get.set_name("tournaments/early");
  v1::Tournament none;
  EXPECT_EQ(tournaments_->GetTournament(As(admin_).get(), get, &none).error_code(),
            grpc::StatusCode::NOT_FOUND);
  status = Create("early", Settings(2), Names(8), admin_);
  EXPECT_TRUE(status.ok()) << status.error_message();
}

TEST_F(TournamentTest, BadInputGivesAPreciseErrorAndChangesNothing) {
  v1::TournamentSettings settings = Settings(2);
  settings.add_tie_breaks("elo");
  grpc::Status status = Create("bad", settings, Names(8), organiser_);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(status.error_message(),
            "tie_breaks: unknown criterion \"elo\"; known: game_points, wins, "
            "strength_of_schedule, head_to_head");
  status = Create("bad", Settings(2), {"p1", "p2", "p1"}, organiser_);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(status.error_message(), "players: \"p1\" is already registered");

  ASSERT_TRUE(Create("bad", Settings(2), Names(8), organiser_).ok());
  const int64_t created = Get("bad").last_event();
  v1::TournamentRound out;
  status = Confirm("bad", 1, 1, &out);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(status.error_message(),
            "round 1 of tournament \"bad\" is not open (no round has started)");
  ASSERT_TRUE(Start("bad", 1, &out).ok());
  const int64_t started = Get("bad").last_event();
  EXPECT_EQ(started, created + 1);

  // A retry of the same request answers as the first time and writes
  // nothing; another request to start round 1 is refused.
  v1::TournamentRound again;
  status = Start("bad", 1, &again);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(again.SerializeAsString(), out.SerializeAsString());
  EXPECT_EQ(Get("bad").last_event(), started);
  v1::StartRoundRequest other;
  other.set_name("tournaments/bad");
  other.set_request_id("another-start");
  other.set_round(1);
  status = tournaments_->StartRound(As(organiser_).get(), other, &again);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(status.error_message(),
            "round 1 has already started (by a request with another request id); read its tables "
            "instead");
  // The same client request id from another caller is another request.
  status = Start("bad", 1, &again, admin_);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(Get("bad").last_event(), started);
  status = Start("bad", 2, &out);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(status.error_message(), "round 1 is still open: table 1 has no result");
  status = Confirm("bad", 1, 9, &out);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(status.error_message(), "round 1 has no table 9 (it has 2)");
  status = Confirm("bad", 2, 1, &out);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(status.error_message(), "round 2 of tournament \"bad\" is not open (round 1 is the latest)");
  status = Confirm("bad", 1, 1, &out);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(status.error_message(), "game \"bad-r1-t1\" has not finished");

  v1::RegisterPlayersRequest late;
  late.set_name("tournaments/bad");
  late.set_request_id("late-1");
  late.add_players("p1");
  v1::Tournament t;
  status = tournaments_->RegisterPlayers(As(organiser_).get(), late, &t);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(status.error_message(), "players: \"p1\" is already registered");

  v1::Dispute dispute;
  status = OpenDispute("d9", "bad", 1, 7, organiser_, &dispute, 0);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(status.error_message(), "round 1 has no table 7 (it has 2)");
  status = OpenDispute("d9", "bad", 1, 1, organiser_, &dispute, 5);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(status.error_message(), "event: game \"bad-r1-t1\" has events 1-1 (0: the whole game)");
  ASSERT_TRUE(OpenDispute("d9", "bad", 1, 1, organiser_, &dispute, 0).ok());
  const int64_t opened = Get("bad").last_event();
  status = Rule("d9", v1::RULING_KIND_CORRECTED, &dispute, {1, 2}, {3, 4});
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(status.error_message(), "the result has game points for 2 seats; the table has 4");
  status = Rule("d9", v1::RULING_KIND_UNSPECIFIED, &dispute);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  v1::GetTournamentRequest missing;
  missing.set_name("tournaments/nope");
  status = tournaments_->GetTournament(As(reader_).get(), missing, &t);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(Get("bad").last_event(), opened);
  EXPECT_EQ(opened, started);
}

}  // namespace
}  // namespace arbiter::server::testing
