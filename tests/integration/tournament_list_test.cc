// The tournament index (TournamentService.ListTournaments) on a real server
// over a private PostgreSQL: id order across pages, the league filter, the
// status of each entry, bad page tokens and sizes, and that no entry carries
// a seed, for any caller, whether its tables are in play or over.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <google/protobuf/io/coded_stream.h>

#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "arbiter/v1/league_service.grpc.pb.h"
#include "arbiter/v1/tournament_service.grpc.pb.h"
#include "services/common/resource_names.h"
#include "services/log/json_lines.h"
#include "tests/integration/league_server_fixture.h"

namespace arbiter::server::testing {
namespace {

// A seed whose decimal digits and varint bytes occur nowhere by chance.
constexpr uint64_t kSeed = 8'765'432'109'876'543'210ULL;

class TournamentListTest : public LeagueServerTest {
 protected:
  void SetUp() override {
    LeagueServerTest::SetUp();
    if (HasFatalFailure()) return;
    tournaments_ = v1::TournamentService::NewStub(channel_);
    reader_ = MakeToken(store::Role::kPublic, "reader");
  }

  void CreateLeague(const std::string& id) {
    v1::CreateLeagueRequest request;
    request.set_request_id(id);
    request.set_league_id(id);
    request.mutable_settings()->add_game_types("atlantis");
    request.mutable_settings()->set_rating_system("plackett-luce");
    v1::League created;
    grpc::Status status = leagues_->CreateLeague(As(admin_).get(), request, &created);
    ASSERT_TRUE(status.ok()) << status.error_message();
  }

  // A tournament of `players` players (p1, p2, ...) in one table of four
  // per round where they fit.
  void Create(const std::string& id, int rounds, int players, const std::string& league = "") {
    v1::CreateTournamentRequest request;
    request.set_request_id(absl::StrCat("create-", id));
    request.set_tournament_id(id);
    v1::TournamentSettings& s = *request.mutable_settings();
    s.set_game_type("atlantis");
    s.set_seed(kSeed);
    s.set_rounds(rounds);
    s.add_table_sizes(3);
    s.add_table_sizes(4);
    s.set_preferred_table_size(4);
    for (int p : {4, 2, 1, 0}) s.add_place_points(p);
    s.set_league(league);
    for (int i = 1; i <= players; ++i) request.add_players(absl::StrCat("p", i));
    v1::Tournament out;
    grpc::Status status = tournaments_->CreateTournament(As(admin_).get(), request, &out);
    ASSERT_TRUE(status.ok()) << status.error_message();
  }

  v1::TournamentRound Start(const std::string& id, int round) {
    v1::StartRoundRequest request;
    request.set_name(absl::StrCat("tournaments/", id));
    request.set_request_id(absl::StrCat("start-", id, "-", round));
    request.set_round(round);
    v1::TournamentRound out;
    grpc::Status status = tournaments_->StartRound(As(admin_).get(), request, &out);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return out;
  }

  // Plays a table's game to the end (a legal simulated game on its seed)
  // and confirms it.
  void PlayAndConfirm(const std::string& id, int round, const v1::TournamentTable& table) {
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
    v1::AppendActionsResponse appended;
    grpc::Status status =
        Append(admin_, common::IdOf(common::IdKind::kGame, table.game()), 1, actions,
               absl::StrCat("play-", table.game()), &appended);
    ASSERT_TRUE(status.ok()) << status.error_message();
    v1::ConfirmResultRequest confirm;
    confirm.set_name(absl::StrCat("tournaments/", id));
    confirm.set_request_id(absl::StrCat("confirm-", table.game()));
    confirm.set_round(round);
    confirm.set_table(table.number());
    v1::TournamentRound out;
    status = tournaments_->ConfirmResult(As(admin_).get(), confirm, &out);
    ASSERT_TRUE(status.ok()) << status.error_message();
  }

  grpc::Status List(const std::string& token, const v1::ListTournamentsRequest& request,
                    v1::ListTournamentsResponse* out) {
    return tournaments_->ListTournaments(As(token).get(), request, out);
  }

  v1::ListTournamentsResponse ListAll(const std::string& token, const std::string& league = "") {
    v1::ListTournamentsRequest request;
    request.set_league(league);
    v1::ListTournamentsResponse out;
    grpc::Status status = List(token, request, &out);
    EXPECT_TRUE(status.ok()) << status.error_message();
    EXPECT_EQ(out.next_page_token(), "");
    return out;
  }

  static std::vector<std::string> NamesOf(const v1::ListTournamentsResponse& page) {
    std::vector<std::string> out;
    for (const v1::Tournament& t : page.tournaments()) out.push_back(t.name());
    return out;
  }

  // Whether `seed` shows in the answer: its decimal digits in the JSON, or
  // its varint in the wire bytes.
  static bool ShowsSeed(const v1::ListTournamentsResponse& answer, uint64_t seed) {
    uint8_t varint[10];
    const uint8_t* end = google::protobuf::io::CodedOutputStream::WriteVarint64ToArray(seed, varint);
    const std::string wire = answer.SerializeAsString();
    const std::string bytes(reinterpret_cast<const char*>(varint),
                            static_cast<size_t>(end - varint));
    return log::ToJsonLine(answer).find(absl::StrCat(seed)) != std::string::npos ||
           wire.find(bytes) != std::string::npos;
  }

  std::unique_ptr<v1::TournamentService::Stub> tournaments_;
  std::string reader_;  // a public token
};

TEST_F(TournamentListTest, ListsEveryTournamentInIdOrderAcrossPages) {
  Create("spring", 2, 5);
  Create("autumn", 3, 8);
  Create("winter", 1, 4);
  v1::ListTournamentsRequest request;
  request.set_page_size(2);
  v1::ListTournamentsResponse first;
  grpc::Status status = List(reader_, request, &first);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(NamesOf(first), (std::vector<std::string>{"tournaments/autumn", "tournaments/spring"}));
  ASSERT_NE(first.next_page_token(), "");
  request.set_page_token(first.next_page_token());
  v1::ListTournamentsResponse second;
  status = List(reader_, request, &second);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(NamesOf(second), (std::vector<std::string>{"tournaments/winter"}));
  EXPECT_EQ(second.next_page_token(), "");

  const v1::Tournament& autumn = first.tournaments(0);
  EXPECT_EQ(autumn.settings().game_type(), "atlantis");
  EXPECT_EQ(autumn.settings().rounds(), 3);
  EXPECT_EQ(autumn.players_size(), 8);
  EXPECT_EQ(autumn.rounds_started(), 0);
  EXPECT_EQ(autumn.status(), "registering");
  EXPECT_EQ(autumn.creator(), "root");
}

TEST_F(TournamentListTest, NoTournamentsIsAnEmptyPage) {
  const v1::ListTournamentsResponse page = ListAll(reader_);
  EXPECT_EQ(page.tournaments_size(), 0);
}

TEST_F(TournamentListTest, TheLeagueFilterKeepsThatLeaguesTournamentsOnly) {
  CreateLeague("north");
  CreateLeague("south");
  Create("a-north", 1, 4, "north");
  Create("b-open", 1, 4);
  Create("c-south", 1, 4, "south");
  Create("d-north", 1, 4, "north");
  EXPECT_EQ(NamesOf(ListAll(reader_, "north")),
            (std::vector<std::string>{"tournaments/a-north", "tournaments/d-north"}));
  EXPECT_EQ(NamesOf(ListAll(reader_, "south")), (std::vector<std::string>{"tournaments/c-south"}));
  EXPECT_EQ(ListAll(reader_, "east").tournaments_size(), 0);
  EXPECT_EQ(ListAll(reader_).tournaments_size(), 4);

  // A page of one of the league's: the token leads past the others.
  v1::ListTournamentsRequest request;
  request.set_league("north");
  request.set_page_size(1);
  v1::ListTournamentsResponse page;
  ASSERT_TRUE(List(reader_, request, &page).ok());
  EXPECT_EQ(NamesOf(page), (std::vector<std::string>{"tournaments/a-north"}));
  request.set_page_token(page.next_page_token());
  ASSERT_TRUE(List(reader_, request, &page).ok());
  EXPECT_EQ(NamesOf(page), (std::vector<std::string>{"tournaments/d-north"}));
  EXPECT_EQ(page.next_page_token(), "");
}

TEST_F(TournamentListTest, BadPagesAndLeaguesAreRefusedNamingTheField) {
  const std::vector<std::pair<v1::ListTournamentsRequest, std::string>> cases = [] {
    std::vector<std::pair<v1::ListTournamentsRequest, std::string>> out;
    v1::ListTournamentsRequest r;
    r.set_page_size(-1);
    out.push_back({r, "page_size"});
    r = {};
    r.set_page_size(1001);
    out.push_back({r, "page_size"});
    r = {};
    r.set_page_token("leagues/north");
    out.push_back({r, "page_token"});
    r = {};
    r.set_league("no spaces");
    out.push_back({r, "league"});
    return out;
  }();
  for (const auto& [request, field] : cases) {
    v1::ListTournamentsResponse out;
    grpc::Status status = List(reader_, request, &out);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << field;
    const google::rpc::BadRequest bad = BadRequestOf(status);
    ASSERT_EQ(bad.field_violations_size(), 1) << field;
    EXPECT_EQ(bad.field_violations(0).field(), field);
  }
}

TEST_F(TournamentListTest, NoEntryCarriesASeedWhileItsTablesAreInPlay) {
  Create("live", 2, 8);
  const v1::TournamentRound round = Start("live", 1);
  ASSERT_EQ(round.tables_size(), 2);
  std::vector<uint64_t> seeds = {kSeed};
  for (const v1::TournamentTable& table : round.tables()) {
    ASSERT_NE(table.seed(), 0U);
    seeds.push_back(table.seed());
  }
  for (const std::string& token : {reader_, admin_}) {
    const v1::ListTournamentsResponse page = ListAll(token);
    ASSERT_EQ(page.tournaments_size(), 1);
    const v1::Tournament& live = page.tournaments(0);
    EXPECT_EQ(live.status(), "in play");
    EXPECT_EQ(live.rounds_started(), 1);
    EXPECT_FALSE(live.last_round_closed());
    EXPECT_TRUE(live.seed_withheld());
    EXPECT_EQ(live.settings().seed(), 0U);
    for (const uint64_t seed : seeds) EXPECT_FALSE(ShowsSeed(page, seed)) << seed;
  }
}

TEST_F(TournamentListTest, EachEntrySaysWhereItStandsAndAFinishedOneStillHasNoSeed) {
  Create("done", 2, 4);
  EXPECT_EQ(ListAll(reader_).tournaments(0).status(), "registering");
  for (int r = 1; r <= 2; ++r) {
    const v1::TournamentRound round = Start("done", r);
    ASSERT_EQ(round.tables_size(), 1);
    EXPECT_EQ(ListAll(reader_).tournaments(0).status(), "in play") << r;
    PlayAndConfirm("done", r, round.tables(0));
    if (HasFatalFailure()) return;
    EXPECT_EQ(ListAll(reader_).tournaments(0).status(), r == 1 ? "between rounds" : "finished");
  }
  const v1::ListTournamentsResponse page = ListAll(reader_);
  ASSERT_EQ(page.tournaments_size(), 1);
  EXPECT_EQ(page.tournaments(0).status(), "finished");
  EXPECT_EQ(page.tournaments(0).rounds_started(), 2);
  EXPECT_TRUE(page.tournaments(0).last_round_closed());
  EXPECT_FALSE(ShowsSeed(page, kSeed));
  // GetTournament shows it to the public once every game is over.
  v1::GetTournamentRequest get;
  get.set_name("tournaments/done");
  v1::Tournament done;
  ASSERT_TRUE(tournaments_->GetTournament(As(reader_).get(), get, &done).ok());
  EXPECT_EQ(done.settings().seed(), kSeed);
  EXPECT_EQ(done.status(), "finished");
}

}  // namespace
}  // namespace arbiter::server::testing
