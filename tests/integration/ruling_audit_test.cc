// The audit of a game whose result a ruling changed, end to end: a real
// server with tournaments, disputes and the transparency log over a private
// PostgreSQL, `arbiter export` and `arbiter audit` as an auditor runs them.
// An honest correction, void and upheld result audit as holding (the first
// two with the finding "rulings"); a correction that no ruling made, that
// cites a dispute of another game, an upheld dispute or other standings,
// and a bundle edited to carry another dispute's record or another ruling,
// are refused (exit 4) with a sentence naming the event.
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "arbiter/v1/events/tournament_events.pb.h"
#include "arbiter/v1/tournament_service.grpc.pb.h"
#include "arbiter/v1/transparency_service.grpc.pb.h"
#include "engine/core/ruleset_registry.h"
#include "services/common/resource_names.h"
#include "services/access/token_format.h"
#include "services/games/game_writer.h"
#include "services/store/stream_store.h"
#include "services/transparency/bundle_audit.h"
#include "services/transparency/transparency_log.h"
#include "tests/integration/league_server_fixture.h"

namespace arbiter::server::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const engine::RulesetRegistry& Registry() {
  static const engine::RulesetRegistry* const registry =
      new engine::RulesetRegistry(*engine::RulesetRegistry::WithBuiltins());
  return *registry;
}

struct CliRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

constexpr char kReason[] = "the arbiter watched the recording";

class RulingAuditTest : public LeagueServerTest {
 protected:
  void SetUp() override {
    LeagueServerTest::SetUp();
    if (HasFatalFailure()) return;
    log_ = std::make_unique<transparency::TransparencyLog>(
        events_->pool(), *transparency::NoteSigner::Generate("test.example/log"));
    server_->Shutdown(std::chrono::system_clock::now());
    ServerOptions options;
    options.listen = "127.0.0.1:0";
    auto server = ArbiterServer::Start(options, *events_, *events_, *tokens_, Registry(), &parts_,
                                       log_.get());
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
    stub_ = StubFor(*server_);
    channel_ = grpc::CreateChannel(absl::StrCat("127.0.0.1:", server_->port()),
                                   grpc::InsecureChannelCredentials());
    tournaments_ = v1::TournamentService::NewStub(channel_);
    disputes_ = v1::DisputeService::NewStub(channel_);
    log_stub_ = v1::TransparencyService::NewStub(channel_);
    std::string pattern = ::testing::TempDir() + "/ruling_audit_test.XXXXXX";
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    admin_file_ = Write("admin.token", admin_ + "\n");
    public_key_file_ = Write("log.pub", log_->signer().VerifierKey() + "\n");
  }
  void TearDown() override {
    std::filesystem::remove_all(dir_);
    LeagueServerTest::TearDown();
  }

  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  std::string Read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }

  CliRun Arbiter(const std::string& args) {
    const std::string err_path = dir_ + "/stderr";
    const std::string command = absl::StrCat(ARBITER_BIN_DIR, "/arbiter ", args, " 2>", err_path);
    CliRun run;
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr) return run;
    std::array<char, 4096> buffer{};
    while (std::fgets(buffer.data(), buffer.size(), pipe) != nullptr) run.out += buffer.data();
    const int status = pclose(pipe);
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    run.err = Read(err_path);
    return run;
  }
  // `arbiter export GAME -o NAME` after a fresh checkpoint: the bundle's path.
  std::string Export(const std::string& game, const std::string& name) {
    v1::Checkpoint checkpoint;
    grpc::Status status =
        log_stub_->PublishCheckpoint(As(admin_).get(), v1::PublishCheckpointRequest(), &checkpoint);
    EXPECT_TRUE(status.ok()) << status.error_message();
    const std::string path = dir_ + "/" + name;
    CliRun run = Arbiter(absl::StrCat("export ", game, " -o ", path, " --server 127.0.0.1:",
                                      server_->port(), " --token-file ", admin_file_));
    EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
    return path;
  }
  CliRun Audit(const std::string& bundle) {
    return Arbiter(absl::StrCat("audit ", bundle, " --public-key ", public_key_file_));
  }
  v1::AuditBundle Bundle(const std::string& path) {
    absl::StatusOr<v1::AuditBundle> bundle = transparency::BundleFromJson(Read(path));
    EXPECT_TRUE(bundle.ok()) << bundle.status();
    return bundle.ok() ? *bundle : v1::AuditBundle();
  }

  // A one-round tournament "cup" of 16 players at four tables, every table
  // but `unplayed` (0: none) played and confirmed by the organiser olga: its
  // tables.
  std::vector<v1::TournamentTable> PlayCup(int unplayed = 0) {
    absl::StatusOr<access::NewToken> token = access::GenerateToken();
    EXPECT_TRUE(token.ok());
    token->record.role = store::Role::kOrganiser;
    token->record.principal = "olga";
    token->record.tournaments = {"cup"};
    token->record.created_by = "test";
    EXPECT_TRUE(tokens_->Insert(token->record).ok());
    organiser_ = token->token;
    v1::CreateTournamentRequest create;
    create.set_request_id("create-cup");
    create.set_tournament_id("cup");
    v1::TournamentSettings& s = *create.mutable_settings();
    s.set_game_type("atlantis");
    s.set_seed(7);
    s.set_rounds(1);
    s.add_table_sizes(4);
    s.set_preferred_table_size(4);
    for (int p : {4, 2, 1, 0}) s.add_place_points(p);
    s.add_tie_breaks("game_points");
    for (int i = 1; i <= 16; ++i) create.add_players(absl::StrCat("p", i));
    v1::Tournament created;
    grpc::Status status = tournaments_->CreateTournament(As(organiser_).get(), create, &created);
    EXPECT_TRUE(status.ok()) << status.error_message();
    v1::StartRoundRequest start;
    start.set_name("tournaments/cup");
    start.set_request_id("start-cup-1");
    start.set_round(1);
    v1::TournamentRound round;
    status = tournaments_->StartRound(As(organiser_).get(), start, &round);
    EXPECT_TRUE(status.ok()) << status.error_message();
    for (const v1::TournamentTable& table : round.tables()) {
      if (table.number() != unplayed) Play(table);
    }
    v1::ConfirmResultRequest confirm;
    confirm.set_name("tournaments/cup");
    confirm.set_request_id("confirm-cup-1");
    confirm.set_round(1);
    status = tournaments_->ConfirmResult(As(organiser_).get(), confirm, &round);
    EXPECT_TRUE(status.ok()) << status.error_message();
    EXPECT_EQ(round.tables_size(), 4);
    return {round.tables().begin(), round.tables().end()};
  }

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
    grpc::Status status = Append(admin_, common::IdOf(common::IdKind::kGame, table.game()), 1,
                                 actions, absl::StrCat("play-", table.game()), &response);
    ASSERT_TRUE(status.ok()) << status.error_message();
  }

  // Opens dispute `id` on table `table` of round 1 and rules `kind`.
  void Dispute(const std::string& id, int table, v1::RulingKind kind,
               const std::vector<int>& places = {}, const std::vector<int64_t>& points = {}) {
    v1::OpenDisputeRequest open;
    open.set_request_id(absl::StrCat("open-", id));
    open.set_dispute_id(id);
    open.set_tournament("tournaments/cup");
    open.set_round(1);
    open.set_table(table);
    open.set_event(2);
    open.set_reason("the first move was made before the table was ready");
    v1::Dispute dispute;
    grpc::Status status = disputes_->OpenDispute(As(organiser_).get(), open, &dispute);
    ASSERT_TRUE(status.ok()) << status.error_message();
    v1::RuleDisputeRequest rule;
    rule.set_name(absl::StrCat("disputes/", id));
    rule.set_request_id(absl::StrCat("rule-", id));
    rule.set_kind(kind);
    rule.set_reason(kReason);
    for (int p : places) rule.mutable_corrected()->add_places(p);
    for (int64_t g : points) rule.mutable_corrected()->add_game_points(g);
    status = disputes_->RuleDispute(As(organiser_).get(), rule, &dispute);
    ASSERT_TRUE(status.ok()) << status.error_message();
  }

  // What someone who can write the database appends: a corrected result
  // citing `correction`, with no ruling behind it. Its event number.
  int64_t ForgeCorrection(const v1::TournamentTable& table, const std::vector<int>& places,
                          const std::vector<int64_t>& points, const std::string& correction) {
    v1::Standings standings;
    for (int i = 0; i < table.players_size(); ++i) {
      v1::PlayerStanding* seat = standings.add_players();
      seat->set_player(table.players(i));
      seat->set_seat(i + 1);
      seat->set_place(places[static_cast<size_t>(i)]);
      seat->set_score(points[static_cast<size_t>(i)]);
    }
    games::GameWriter writer(*events_, Registry(), games::WriteLimits{});
    access::Caller operator_caller;
    operator_caller.principal = "mallory";
    operator_caller.role = store::Role::kAdmin;
    const absl::StatusOr<int64_t> event = writer.RecordCorrection(
        operator_caller, common::IdOf(common::IdKind::kGame, table.game()), standings, correction,
        absl::StrCat("forged-", table.game(), "-", correction.size()));
    EXPECT_TRUE(event.ok()) << event.status();
    return event.ok() ? *event : 0;
  }

  std::unique_ptr<transparency::TransparencyLog> log_;
  std::unique_ptr<v1::TournamentService::Stub> tournaments_;
  std::unique_ptr<v1::DisputeService::Stub> disputes_;
  std::unique_ptr<v1::TransparencyService::Stub> log_stub_;
  std::string organiser_;
  std::string dir_;
  std::string admin_file_;
  std::string public_key_file_;
};

// The places of a table reversed.
std::vector<int> Reversed(const v1::TournamentTable& table) {
  std::vector<int> reversed;
  for (int i = 0; i < table.players_size(); ++i) {
    reversed.push_back(table.players_size() + 1 - table.places(i));
  }
  return reversed;
}

TEST_F(RulingAuditTest, HonestCorrectedVoidedAndUpheldGamesHoldWithTheirRulings) {
  const std::vector<v1::TournamentTable> tables = PlayCup();
  ASSERT_EQ(tables.size(), 4u);
  Dispute("c1", 1, v1::RULING_KIND_CORRECTED, Reversed(tables[0]), {10, 20, 30, 40});
  Dispute("v1", 2, v1::RULING_KIND_VOID);
  Dispute("u1", 3, v1::RULING_KIND_UPHOLD);

  const std::string corrected = Export(tables[0].game(), "corrected.json");
  EXPECT_EQ(Bundle(corrected).rulings_size(), 1);
  CliRun run = Audit(corrected);
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_THAT(run.out, HasSubstr("rulings: holds - the correction at event "));
  EXPECT_THAT(run.out, HasSubstr(" was ruled in dispute c1 by olga"));
  EXPECT_THAT(run.out, HasSubstr("every check holds"));

  const std::string voided = Export(tables[1].game(), "voided.json");
  EXPECT_EQ(Bundle(voided).rulings_size(), 1);
  run = Audit(voided);
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_THAT(run.out, HasSubstr("rulings: holds - the void at event "));
  EXPECT_THAT(run.out, HasSubstr(" was ruled in dispute v1 by olga"));

  // An upheld result and a game no dispute touched cite no ruling: their
  // bundles and reports are as they always were.
  for (const int t : {2, 3}) {
    const std::string path = Export(tables[static_cast<size_t>(t)].game(),
                                    absl::StrCat("plain-", t, ".json"));
    EXPECT_THAT(Read(path), Not(HasSubstr("rulings")));
    run = Audit(path);
    EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
    EXPECT_THAT(run.out, Not(HasSubstr("rulings")));
  }
}

TEST_F(RulingAuditTest, AScoreSheetAuditsAsHoldingAndSaysItWasNotRefereed) {
  const std::vector<v1::TournamentTable> tables = PlayCup(/*unplayed=*/2);
  ASSERT_EQ(tables.size(), 4u);
  v1::ReportResultRequest sheet;
  sheet.set_name("tournaments/cup");
  sheet.set_request_id("sheet-2");
  sheet.set_round(1);
  sheet.set_table(2);
  for (int place : {2, 1, 3, 0}) {
    v1::ReportedSeat* seat = sheet.add_seats();
    seat->set_place(place);
    seat->set_game_points(place == 0 ? 0 : 40 - place);
    if (place == 0) seat->set_outcome(v1::SEAT_OUTCOME_FORFEIT);
  }
  sheet.add_signed_by("Zoë Müller");
  v1::TournamentRound round;
  grpc::Status status = tournaments_->ReportResult(As(organiser_).get(), sheet, &round);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_TRUE(round.tables(1).reported());

  const std::string path = Export(tables[1].game(), "sheet.json");
  const CliRun run = Audit(path);
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_THAT(run.out, HasSubstr("the result was reported from a score sheet at event 2 (score "
                                 "sheet signed by Zoë Müller), not refereed"));
  EXPECT_THAT(run.out, HasSubstr("every check holds"));

  // What the game says about itself: the official result is the sheet.
  const CliRun adjudicated = Arbiter(absl::StrCat("adjudicate ", tables[1].game(), " --server 127.0.0.1:",
                                                  server_->port(), " --token-file ", admin_file_));
  EXPECT_THAT(adjudicated.out, HasSubstr("official result: reported from a score sheet, not "
                                         "refereed, at event 2 by olga: score sheet signed by "
                                         "Zoë Müller"));
  EXPECT_THAT(adjudicated.out, HasSubstr("forfeit: " + tables[1].players(3)));
}

TEST_F(RulingAuditTest, ACorrectionNoRulingMadeIsRefused) {
  const std::vector<v1::TournamentTable> tables = PlayCup();
  ASSERT_EQ(tables.size(), 4u);
  Dispute("c1", 1, v1::RULING_KIND_CORRECTED, Reversed(tables[0]), {10, 20, 30, 40});
  Dispute("u1", 3, v1::RULING_KIND_UPHOLD);
  const std::string reason = absl::StrCat(": ", kReason);
  struct Forgery {
    size_t table;
    std::string correction;
    std::vector<int64_t> points;
    std::string refusal;
  };
  const std::vector<Forgery> forgeries = {
      // No dispute at all.
      {1, absl::StrCat("dispute x9", reason), {10, 20, 30, 40},
       "cites dispute x9, whose record this bundle does not carry"},
      // The ruling of another game's dispute.
      {3, absl::StrCat("dispute c1", reason), {10, 20, 30, 40},
       absl::StrCat("cites dispute c1, which is about ", tables[0].game(), ", not ",
                    tables[3].game())},
      // A dispute whose result was upheld.
      {2, absl::StrCat("dispute u1", reason), {10, 20, 30, 40},
       "cites dispute u1, whose ruling is RULING_KIND_UPHOLD, not RULING_KIND_CORRECTED"},
      // The right dispute, other standings.
      {0, absl::StrCat("dispute c1", reason), {40, 30, 20, 10},
       "cites dispute c1, whose ruling gives places ("},
  };
  for (const Forgery& forgery : forgeries) {
    const v1::TournamentTable& table = tables[forgery.table];
    const int64_t event =
        ForgeCorrection(table, Reversed(table), forgery.points, forgery.correction);
    const std::string path = Export(table.game(), absl::StrCat("forged-", forgery.table, ".json"));
    const CliRun run = Audit(path);
    EXPECT_EQ(run.exit_code, 4) << forgery.correction << run.out << run.err;
    EXPECT_THAT(run.err, HasSubstr(absl::StrCat("failed: rulings: the correction at event ", event,
                                                " ", forgery.refusal)))
        << run.err;
  }
}

TEST_F(RulingAuditTest, ABundleEditedToCarryAnotherRecordIsRefused) {
  const std::vector<v1::TournamentTable> tables = PlayCup();
  ASSERT_EQ(tables.size(), 4u);
  Dispute("c1", 1, v1::RULING_KIND_CORRECTED, Reversed(tables[0]), {10, 20, 30, 40});
  Dispute("c2", 2, v1::RULING_KIND_CORRECTED, Reversed(tables[1]), {1, 2, 3, 4});
  const v1::AuditBundle honest = Bundle(Export(tables[0].game(), "c1.json"));
  const v1::AuditBundle other = Bundle(Export(tables[1].game(), "c2.json"));
  ASSERT_EQ(honest.rulings_size(), 1);
  ASSERT_EQ(other.rulings_size(), 1);

  // Another dispute's record in place of the cited one.
  v1::AuditBundle edited = honest;
  *edited.mutable_rulings(0) = other.rulings(0);
  CliRun run = Audit(Write("swapped.json", transparency::BundleToJson(edited)));
  EXPECT_EQ(run.exit_code, 4) << run.out << run.err;
  EXPECT_THAT(run.err, HasSubstr("cites dispute c1, whose record this bundle does not carry"));

  // The same, renamed to pass for the cited one: its chain names it.
  edited.mutable_rulings(0)->set_stream("disputes/c1");
  run = Audit(Write("renamed.json", transparency::BundleToJson(edited)));
  EXPECT_EQ(run.exit_code, 4) << run.out << run.err;
  EXPECT_THAT(run.err, HasSubstr("cites dispute c1, whose record is broken"));

  // The cited record with its ruling's game points changed: the chain,
  // then (with the hashes recomputed) the signed tree, refuse it.
  edited = honest;
  v1::AuditStream& stream = *edited.mutable_rulings(0);
  v1::AuditEvent& ruled = *stream.mutable_events(stream.events_size() - 1);
  ASSERT_EQ(ruled.type(), "dispute_ruled");
  v1::DisputeRuled ruling;
  ASSERT_TRUE(ruling.ParseFromString(ruled.payload()));
  ruling.mutable_ruling()->mutable_corrected()->set_game_points(0, 99);
  ruled.set_payload(ruling.SerializeAsString());
  run = Audit(Write("changed.json", transparency::BundleToJson(edited)));
  EXPECT_EQ(run.exit_code, 4) << run.out << run.err;
  EXPECT_THAT(run.err, HasSubstr("cites dispute c1, whose record is broken"));
  ruled.set_hash(store::StreamEventHash(ruled.prev_hash(), ruled.sequence(), stream.stream(),
                                        ruled.event_id(), ruled.type(), ruled.payload()));
  stream.mutable_proof()->set_event_hash(ruled.hash());
  run = Audit(Write("rehashed.json", transparency::BundleToJson(edited)));
  EXPECT_EQ(run.exit_code, 4) << run.out << run.err;
  EXPECT_THAT(run.err, HasSubstr("cites dispute c1, whose record is not in the signed tree"));
}

}  // namespace
}  // namespace arbiter::server::testing
