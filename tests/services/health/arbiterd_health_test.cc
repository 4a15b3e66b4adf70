// arbiterd's health end to end: a whole arbiterd (services/arbiterd, in
// this process) on a PostgreSQL cluster of the test's own, which the tests
// stop, cut off and freeze: liveness (/healthz, gRPC health "") stays up
// through it all; readiness (/readyz, gRPC health arbiter.v1.Readiness and
// the API services) goes down with a one-line reason and comes back; the
// figures of /metrics parse as Prometheus text and move when a game is
// stored; and nothing secret (game ids, seeds, tokens, connection details)
// is in any of these answers.
#include <gtest/gtest.h>
#include <httplib.h>
#include <signal.h>
#include <sys/stat.h>

#include <pqxx/pqxx>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "arbiter/v1/arbiter_service.grpc.pb.h"
#include "engine/core/ruleset_registry.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "services/arbiterd/arbiterd.h"
#include "services/log/log_file.h"
#include "services/replay/simulate.h"
#include "services/server/server.h"
#include "services/store/embedded_postgres.h"
#include "tests/services/health/prometheus_parse.h"
#include "tests/services/store/private_cluster.h"

namespace arbiter::arbiterd {
namespace {

using grpc::health::v1::HealthCheckResponse;
using health::testing::ParsePrometheusText;
using health::testing::PromText;

constexpr char kUnreachable[] =
    "no writable PostgreSQL: cannot connect (refused or lost; the server log says why)\n";

struct Answer {
  int status = 0;
  std::string body;
  std::string content_type;
};

// Waits up to `limit` for `done`.
template <typename Done>
bool Eventually(Done done, absl::Duration limit) {
  const absl::Time deadline = absl::Now() + limit;
  while (!done()) {
    if (absl::Now() > deadline) return false;
    absl::SleepFor(absl::Milliseconds(50));
  }
  return true;
}

class ArbiterdHealthTest : public ::testing::Test {
 protected:
  // One cluster for the program, in a directory that is kept while it is
  // stopped, so that it comes back at the same address.
  static void SetUpTestSuite() {
    absl::StatusOr<std::unique_ptr<store::testing::PrivateCluster>> started =
        store::testing::PrivateCluster::Start("arbiter-health");
    ASSERT_TRUE(started.ok()) << started.status();
    own_ = started->release();
    cluster_ = &own_->server();
    base_ = &own_->dir();
  }

  static void TearDownTestSuite() {
    if (own_ != nullptr) {
      EXPECT_TRUE(own_->Stop().ok());
    }
    delete own_;
    own_ = nullptr;
    cluster_ = nullptr;
    base_ = nullptr;
  }

  void SetUp() override {
    ASSERT_NE(cluster_, nullptr);
    static int counter = 0;
    database_ = absl::StrCat("health_", ++counter);
    Superuser(absl::StrCat("CREATE DATABASE ", database_));
    const Flags flags = FlagsFor();
    absl::StatusOr<std::unique_ptr<Arbiterd>> started = Arbiterd::Start(flags);
    ASSERT_TRUE(started.ok()) << started.status();
    arbiterd_ = *std::move(started);
    channel_ = grpc::CreateChannel(absl::StrCat("127.0.0.1:", arbiterd_->grpc_port()),
                                   grpc::InsecureChannelCredentials());
    std::ifstream token_file(flags.database.data_dir + "/admin.token");
    std::getline(token_file, admin_);
    ASSERT_FALSE(admin_.empty());
  }

  // The flags of this test's arbiterd, with `read_urls` as its
  // --read-database.
  Flags FlagsFor(std::vector<std::string> read_urls = {}) const {
    Flags flags;
    flags.database.url = cluster_->ConninfoFor(database_);
    flags.database.data_dir = absl::StrCat(*base_, "/", database_);
    flags.database.read_urls = std::move(read_urls);
    flags.server.listen = "127.0.0.1:0";
    flags.web.listen = "127.0.0.1:0";
    flags.reveal_sweep_seconds = 0;
    flags.checkpoint_seconds = 1;
    flags.grace_seconds = 1;
    Complete(flags);
    return flags;
  }

  void TearDown() override {
    Thaw();
    if (cluster_->server_pid() < 0) {
      EXPECT_TRUE(cluster_->Restart().ok());
    }
    if (arbiterd_ != nullptr) arbiterd_->Stop();
  }

  // Runs `sql` as the superuser in the database "postgres".
  static void Superuser(const std::string& sql) {
    pqxx::connection conn(cluster_->ConninfoFor("postgres"));
    pqxx::nontransaction txn(conn);
    txn.exec(sql);
  }

  Answer Get(const std::string& path) {
    httplib::Client client("127.0.0.1", arbiterd_->web_port());
    client.set_read_timeout(10, 0);
    httplib::Result res = client.Get(path.c_str());
    if (!res) return Answer{-1, "", ""};
    return Answer{res->status, res->body, res->get_header_value("Content-Type")};
  }

  // The gRPC health service's status of `service` ("": the server's).
  HealthCheckResponse::ServingStatus Health(const std::string& service) {
    auto stub = grpc::health::v1::Health::NewStub(channel_);
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
    grpc::health::v1::HealthCheckRequest request;
    request.set_service(service);
    HealthCheckResponse response;
    const grpc::Status status = stub->Check(&context, request, &response);
    EXPECT_TRUE(status.ok()) << service << ": " << status.error_message();
    return response.status();
  }

  absl::StatusOr<PromText> Metrics() {
    const Answer answer = Get("/metrics");
    EXPECT_EQ(answer.status, 200);
    EXPECT_EQ(answer.content_type, "text/plain; version=0.0.4; charset=utf-8");
    return ParsePrometheusText(answer.body);
  }

  // SIGSTOP to the postmaster and every process it started (the server
  // stops answering; sockets stay open), and SIGCONT to them.
  void Freeze() {
    const int postmaster = cluster_->server_pid();
    frozen_ = {postmaster};
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
      std::ifstream stat(entry.path() / "stat");
      std::string line;
      if (!std::getline(stat, line)) continue;
      // pid (comm) state ppid ...: the fields after the last ')'.
      std::vector<std::string> fields =
          absl::StrSplit(line.substr(line.rfind(')') + 2), ' ');
      int pid = 0, ppid = 0;
      if (fields.size() > 1 && absl::SimpleAtoi(fields[1], &ppid) && ppid == postmaster &&
          absl::SimpleAtoi(entry.path().filename().string(), &pid)) {
        frozen_.push_back(pid);
      }
    }
    for (int pid : frozen_) kill(pid, SIGSTOP);
  }
  void Thaw() {
    for (int pid : frozen_) kill(pid, SIGCONT);
    frozen_.clear();
  }

  static store::testing::PrivateCluster* own_;
  static const std::string* base_;
  static store::EmbeddedPostgres* cluster_;
  std::string database_;
  std::unique_ptr<Arbiterd> arbiterd_;
  std::shared_ptr<grpc::Channel> channel_;
  std::string admin_;
  std::vector<int> frozen_;
};

store::testing::PrivateCluster* ArbiterdHealthTest::own_ = nullptr;
const std::string* ArbiterdHealthTest::base_ = nullptr;
store::EmbeddedPostgres* ArbiterdHealthTest::cluster_ = nullptr;

TEST_F(ArbiterdHealthTest, LivenessStaysUpWhileTheDatabaseIsDown) {
  EXPECT_EQ(Get("/healthz").status, 200);
  ASSERT_TRUE(cluster_->Shutdown().ok());
  ASSERT_TRUE(Eventually([&] { return Get("/readyz").status == 503; }, absl::Seconds(10)));
  // Down for a few probes: the process is still alive, and says so.
  for (int i = 0; i < 10; ++i) {
    const Answer live = Get("/healthz");
    EXPECT_EQ(live.status, 200);
    EXPECT_EQ(live.body, "ok\n");
    EXPECT_EQ(Health(""), HealthCheckResponse::SERVING);
    absl::SleepFor(absl::Milliseconds(300));
  }
  ASSERT_TRUE(cluster_->Restart().ok());
}

TEST_F(ArbiterdHealthTest, ReadinessFollowsTheDatabaseDownAndBack) {
  const Answer ready = Get("/readyz");
  EXPECT_EQ(ready.status, 200);
  EXPECT_EQ(ready.body, "ready\n");
  EXPECT_EQ(Health(server::kReadinessService), HealthCheckResponse::SERVING);
  EXPECT_EQ(Health("arbiter.v1.ArbiterService"), HealthCheckResponse::SERVING);

  const absl::Time stopped = absl::Now();
  ASSERT_TRUE(cluster_->Shutdown().ok());
  ASSERT_TRUE(Eventually([&] { return Get("/readyz").status == 503; }, absl::Seconds(10)));
  // One probe a second, each bounded by a second.
  EXPECT_LT(absl::Now() - stopped, absl::Seconds(4));
  EXPECT_EQ(Get("/readyz").body, kUnreachable);
  EXPECT_TRUE(Eventually(
      [&] { return Health(server::kReadinessService) == HealthCheckResponse::NOT_SERVING; },
      absl::Seconds(2)));
  EXPECT_EQ(Health("arbiter.v1.ArbiterService"), HealthCheckResponse::NOT_SERVING);
  EXPECT_EQ(Health("arbiter.v1.LeagueService"), HealthCheckResponse::NOT_SERVING);

  ASSERT_TRUE(cluster_->Restart().ok());
  const absl::Time restarted = absl::Now();
  ASSERT_TRUE(Eventually([&] { return Get("/readyz").status == 200; }, absl::Seconds(10)));
  EXPECT_LT(absl::Now() - restarted, absl::Seconds(4));
  EXPECT_TRUE(Eventually(
      [&] { return Health(server::kReadinessService) == HealthCheckResponse::SERVING; },
      absl::Seconds(2)));
  EXPECT_EQ(Health("arbiter.v1.ArbiterService"), HealthCheckResponse::SERVING);
}

TEST_F(ArbiterdHealthTest, ReadinessFailsWhileThePoolsConnectionsAreCutOff) {
  // Every backend of arbiterd's database ended, and no new one admitted.
  Superuser(absl::StrCat("ALTER DATABASE ", database_, " ALLOW_CONNECTIONS false"));
  Superuser(absl::StrCat("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '",
                         database_, "'"));
  ASSERT_TRUE(Eventually([&] { return Get("/readyz").status == 503; }, absl::Seconds(5)));
  EXPECT_EQ(Get("/readyz").body, kUnreachable);
  EXPECT_TRUE(Eventually(
      [&] { return Health(server::kReadinessService) == HealthCheckResponse::NOT_SERVING; },
      absl::Seconds(2)));
  Superuser(absl::StrCat("ALTER DATABASE ", database_, " ALLOW_CONNECTIONS true"));
  EXPECT_TRUE(Eventually([&] { return Get("/readyz").status == 200; }, absl::Seconds(5)));
  EXPECT_TRUE(Eventually(
      [&] { return Health(server::kReadinessService) == HealthCheckResponse::SERVING; },
      absl::Seconds(2)));
}

TEST_F(ArbiterdHealthTest, AServerThatStopsAnsweringMakesItUnreadyWithinSeconds) {
  const absl::Time frozen = absl::Now();
  Freeze();
  ASSERT_TRUE(Eventually([&] { return Get("/readyz").status == 503; }, absl::Seconds(10)));
  EXPECT_LT(absl::Now() - frozen, absl::Seconds(5));
  EXPECT_TRUE(absl::StartsWith(Get("/readyz").body, "no writable PostgreSQL: no answer "))
      << Get("/readyz").body;
  EXPECT_EQ(Get("/healthz").status, 200);
  EXPECT_TRUE(Eventually(
      [&] { return Health(server::kReadinessService) == HealthCheckResponse::NOT_SERVING; },
      absl::Seconds(2)));
  Thaw();
  EXPECT_TRUE(Eventually([&] { return Get("/readyz").status == 200; }, absl::Seconds(10)));
  EXPECT_TRUE(Eventually(
      [&] { return Health(server::kReadinessService) == HealthCheckResponse::SERVING; },
      absl::Seconds(2)));
}

// A complete simulated game of Atlantis for three.
log::GameLog Simulated(uint64_t seed) {
  absl::StatusOr<engine::RulesetRegistry> registry = engine::RulesetRegistry::WithBuiltins();
  EXPECT_TRUE(registry.ok());
  replay::SimulationRequest simulation;
  simulation.game = "atlantis";
  simulation.players = 3;
  simulation.seed = seed;
  absl::StatusOr<log::GameLog> log = replay::SimulateGame(simulation, *registry);
  EXPECT_TRUE(log.ok()) << log.status();
  return *std::move(log);
}

std::unique_ptr<grpc::ClientContext> As(const std::string& token) {
  auto context = std::make_unique<grpc::ClientContext>();
  context->AddMetadata("authorization", absl::StrCat("Bearer ", token));
  context->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  return context;
}

// Submits a finished simulated game as the admin.
void SubmitGame(const std::shared_ptr<grpc::Channel>& channel, const std::string& token,
                const std::string& game_id, uint64_t seed) {
  v1::SubmitGameRequest request;
  request.set_request_id(absl::StrCat("submit-", game_id));
  request.set_game_id(game_id);
  request.set_log(log::FormatLog(Simulated(seed)));
  v1::SubmitGameResponse response;
  const grpc::Status status =
      v1::ArbiterService::NewStub(channel)->SubmitGame(As(token).get(), request, &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
}

TEST_F(ArbiterdHealthTest, MetricsParseAsPrometheusTextAndMoveWhenAGameIsStored) {
  // The store's follower connects a moment after the server starts.
  absl::StatusOr<PromText> before = absl::UnknownError("never scraped");
  Eventually(
      [&] {
        before = Metrics();
        return before.ok() && before->Value("arbiter_follower_connected") == 1;
      },
      absl::Seconds(15));
  ASSERT_TRUE(before.ok()) << before.status();
  EXPECT_EQ(before->Value("arbiter_ready"), 1);
  EXPECT_EQ(before->Value("arbiter_database_writable"), 1);
  EXPECT_EQ(before->Value("arbiter_database_in_recovery"), 0);
  EXPECT_EQ(before->Value("arbiter_store_figures_ok"), 1);
  EXPECT_EQ(before->Value("arbiter_follower_connected"), 1);
  const std::optional<double> probe = before->Value("arbiter_database_probe_seconds");
  ASSERT_TRUE(probe.has_value());
  EXPECT_GT(*probe, 0);
  EXPECT_LT(*probe, 1);
  EXPECT_FALSE(before->Value("arbiter_standby_replay_lag_bytes").has_value());
  const double head = before->Value("arbiter_store_head_position").value_or(-1);
  const double tree = before->Value("arbiter_transparency_tree_size").value_or(-1);
  ASSERT_GE(head, 0);

  ASSERT_NO_FATAL_FAILURE(SubmitGame(channel_, admin_, "moving", 11));
  std::optional<PromText> after;
  const bool settled = Eventually(
      [&] {
        absl::StatusOr<PromText> now = Metrics();
        if (!now.ok()) return false;
        after = *now;
        return now->Value("arbiter_store_head_position") > head &&
               now->Value("arbiter_follower_lag_events") == 0 &&
               now->Value("arbiter_projector_lag_events", {{"projector", "leagues"}}) == 0 &&
               now->Value("arbiter_transparency_unlogged_events") == 0;
      },
      absl::Seconds(15));
  ASSERT_TRUE(after.has_value());
  ASSERT_TRUE(settled) << "the lags did not return to 0";
  const double new_head = after->Value("arbiter_store_head_position").value_or(-1);
  EXPECT_GT(new_head, head + 10);  // a whole game's events
  EXPECT_EQ(after->Value("arbiter_follower_position"), new_head);
  EXPECT_EQ(after->Value("arbiter_projector_position", {{"projector", "leagues"}}), new_head);
  EXPECT_EQ(after->Value("arbiter_transparency_tree_size"), tree + (new_head - head));
}

// --read-database, wired through: here the primary itself (a server not in
// recovery answers at once), so that the figures move without a standby;
// tests/integration/standby_reads_test.cc reads through a real one.
TEST_F(ArbiterdHealthTest, WithAReadDatabaseWritesAnswerATokenAndTheReadFiguresAppear) {
  EXPECT_FALSE(Metrics()->Value("arbiter_standby_reads_total").has_value());
  arbiterd_->Stop();
  absl::StatusOr<std::unique_ptr<Arbiterd>> started =
      Arbiterd::Start(FlagsFor({cluster_->ConninfoFor(database_)}));
  ASSERT_TRUE(started.ok()) << started.status();
  arbiterd_ = *std::move(started);
  channel_ = grpc::CreateChannel(absl::StrCat("127.0.0.1:", arbiterd_->grpc_port()),
                                 grpc::InsecureChannelCredentials());
  auto stub = v1::ArbiterService::NewStub(channel_);
  v1::SubmitGameRequest submit;
  submit.set_request_id("submit-read");
  submit.set_game_id("read");
  submit.set_log(log::FormatLog(Simulated(12)));
  v1::SubmitGameResponse submitted;
  std::unique_ptr<grpc::ClientContext> context = As(admin_);
  ASSERT_TRUE(stub->SubmitGame(context.get(), submit, &submitted).ok());
  const auto& headers = context->GetServerInitialMetadata();
  auto token = headers.find("arbiter-read-after");
  ASSERT_NE(token, headers.end());
  ASSERT_NE(headers.find("arbiter-position"), headers.end());

  std::unique_ptr<grpc::ClientContext> read = As(admin_);
  read->AddMetadata("arbiter-read-after", std::string(token->second.data(), token->second.size()));
  v1::GetGameRequest get;
  get.set_name("games/read");
  v1::Game game;
  const grpc::Status status = stub->GetGame(read.get(), get, &game);
  ASSERT_TRUE(status.ok()) << status.error_message();
  absl::StatusOr<PromText> text = Metrics();
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_GE(text->Value("arbiter_standby_reads_total").value_or(0), 1);
  EXPECT_EQ(text->Value("arbiter_standby_read_fallbacks_total", {{"reason", "lag"}}), 0);
  EXPECT_GE(text->Value("arbiter_standby_read_wait_seconds_count").value_or(0), 1);
}

TEST_F(ArbiterdHealthTest, NoGameIdSeedTokenOrConnectionDetailIsInAnyAnswer) {
  ASSERT_NO_FATAL_FAILURE(SubmitGame(channel_, admin_, "secret-finished-game", 12));
  // A live game: its seed is secret.
  const uint64_t seed = 98765432123456789ull;
  const log::GameLog log = Simulated(13);
  v1::CreateGameRequest create;
  create.set_request_id("create-secret");
  create.set_game_id("secret-live-game");
  v1::Game& live = *create.mutable_game();
  live.set_game_type(log.header.game());
  live.set_ruleset_id(log.header.ruleset_id());
  live.set_ruleset_hash(log.header.ruleset_hash());
  *live.mutable_players() = log.header.players();
  live.set_seed(seed);
  v1::Game game;
  const grpc::Status created =
      v1::ArbiterService::NewStub(channel_)->CreateGame(As(admin_).get(), create, &game);
  ASSERT_TRUE(created.ok()) << created.error_message();

  const std::string conninfo = cluster_->ConninfoFor(database_);
  const std::string socket_dir = conninfo.substr(5, conninfo.find(' ') - 5);  // "host=..."
  const std::vector<std::string> secrets = {
      "secret-finished-game", "secret-live-game", absl::StrCat(seed), admin_,
      admin_.substr(0, 12),  database_,           socket_dir,         ".s.PGSQL"};
  auto check = [&](const std::string& what, const std::string& body) {
    for (const std::string& secret : secrets) {
      EXPECT_FALSE(absl::StrContains(body, secret)) << what << " holds \"" << secret << "\":\n"
                                                    << body;
    }
  };
  for (const char* path : {"/healthz", "/readyz", "/metrics"}) check(path, Get(path).body);
  // Down, the reason says what kind of failure it is, not what libpq said.
  ASSERT_TRUE(cluster_->Shutdown().ok());
  ASSERT_TRUE(Eventually([&] { return Get("/readyz").status == 503; }, absl::Seconds(10)));
  for (const char* path : {"/readyz", "/metrics"}) check(path, Get(path).body);
  check("/readyz", Get("/readyz").body);
  EXPECT_EQ(Get("/readyz").body, kUnreachable);
  ASSERT_TRUE(cluster_->Restart().ok());
}

}  // namespace
}  // namespace arbiter::arbiterd
