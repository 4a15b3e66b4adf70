// Hostile clients against a real server: huge unauthenticated messages,
// bursts of bogus tokens, and what legitimate callers see meanwhile.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <spdlog/sinks/ringbuffer_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "services/server/request_limits.h"
#include "tests/integration/server_fixture.h"

namespace arbiter::server::testing {
namespace {

class HostileTest : public ServerTest {
 protected:
  void SetUp() override {
    ServerTest::SetUp();
    log_ = std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(100'000);
    spdlog::default_logger()->sinks().push_back(log_);
  }
  void TearDown() override {
    auto& sinks = spdlog::default_logger()->sinks();
    sinks.erase(std::remove(sinks.begin(), sinks.end(), log_), sinks.end());
    ServerTest::TearDown();
  }

  int LogLinesWith(const std::string& text) {
    int n = 0;
    for (const std::string& line : log_->last_formatted()) {
      if (line.find(text) != std::string::npos) ++n;
    }
    return n;
  }

  // Milliseconds of one ListGames call as `token`.
  double TimedList(v1::ArbiterService::Stub& stub, const std::string& token) {
    const absl::Time start = absl::Now();
    v1::ListGamesRequest request;
    v1::ListGamesResponse page;
    EXPECT_TRUE(stub.ListGames(As(token).get(), request, &page).ok());
    return absl::ToDoubleMilliseconds(absl::Now() - start);
  }

  static double Median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
  }

  std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt> log_;
};

TEST_F(HostileTest, AHugeUnauthenticatedMessageIsRefusedBeforeAnyHandlerReadsIt) {
  ServerOptions options;
  options.listen = "127.0.0.1:0";
  options.max_message_bytes = 80 << 20;
  std::unique_ptr<ArbiterServer> big = StartServer(options);
  ASSERT_NE(big, nullptr);
  auto stub = StubFor(*big);
  v1::SubmitGameRequest request;
  request.set_request_id("huge");
  request.set_log(std::string((64 << 20) - 100, 'x'));  // the client sends up to 64 MiB
  for (const std::string& token :
       {std::string(), "arb_" + std::string(32, 'a') + "_" + std::string(64, 'b')}) {
    v1::SubmitGameResponse response;
    grpc::Status status = stub->SubmitGame(As(token).get(), request, &response);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED) << status.error_message();
  }
  EXPECT_EQ(LogLinesWith("SubmitGame game="), 0) << "a handler ran for an unauthenticated call";
  EXPECT_EQ(LogLinesWith("refused before its message was read"), 2);
  big->Shutdown(std::chrono::system_clock::now());
}

// Every method but the few that carry logs, actions or player lists takes
// 64 KiB at most (request_limits.h); the handler's body never runs for a
// larger request, and the answer says which limit applies.
TEST_F(HostileTest, AnOversizedRequestToASmallMethodIsRefusedWithItsLimit) {
  const std::string auditor = MakeToken(store::Role::kAuditor, "big-reader");
  auto stub = StubFor(*server_);
  v1::GetGameRequest get;
  get.set_name("games/" + std::string(100'000, 'g'));
  v1::Game game;
  grpc::Status status = stub->GetGame(As(auditor).get(), get, &game);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << status.error_message();
  ASSERT_EQ(get.ByteSizeLong(), 100'010u);
  EXPECT_EQ(status.error_message(),
            "the request is 100,010 bytes (97.7 KiB); this call takes at most 65,536 bytes (64 KiB): "
            "send less in one request");

  // Just under the limit, the handler runs and judges the name itself.
  get.set_name("games/" + std::string(60'000, 'g'));
  status = stub->GetGame(As(auditor).get(), get, &game);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << status.error_message();

  // The methods that carry logs take what the server takes.
  const std::string organiser = MakeToken(store::Role::kOrganiser, "big-writer");
  v1::SubmitGameRequest submit;
  submit.set_request_id("big-log");
  submit.set_log(std::string(200'000, '\n'));
  v1::SubmitGameResponse submitted;
  status = stub->SubmitGame(As(organiser).get(), submit, &submitted);
  EXPECT_NE(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << status.error_message();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << status.error_message();
}

TEST(RequestLimits, OnlyLogsActionsAndPlayerListsTakeMoreThanSixtyFourKibibytes) {
  constexpr int64_t kServer = 64 << 20;
  EXPECT_EQ(RequestLimitFor("/arbiter.v1.ArbiterService/SubmitGame", kServer), kServer);
  EXPECT_EQ(RequestLimitFor("/arbiter.v1.ArbiterService/AppendActions", kServer), kServer);
  EXPECT_EQ(RequestLimitFor("/arbiter.v1.TournamentService/RegisterPlayers", kServer), 4 << 20);
  EXPECT_EQ(RequestLimitFor("/arbiter.v1.TournamentService/CreateTournament", kServer), 4 << 20);
  EXPECT_EQ(RequestLimitFor("/arbiter.v1.ArbiterService/GetGame", kServer), 64 << 10);
  EXPECT_EQ(RequestLimitFor("/arbiter.v1.DisputeService/RuleDispute", kServer), 64 << 10);
  EXPECT_EQ(RequestLimitFor("/arbiter.v1.ArbiterService/GetGame", 1000), 1000) << "never above the server's limit";
}

TEST_F(HostileTest, ABurstOfTenThousandBogusTokensLeavesLegitimateCallsFast) {
  const std::string auditor = MakeToken(store::Role::kAuditor, "steady");
  std::vector<double> quiet;
  for (int i = 0; i < 50; ++i) quiet.push_back(TimedList(*stub_, auditor));

  std::atomic<int> next{0};
  std::atomic<int> refused{0};
  std::vector<std::thread> attackers;
  for (int t = 0; t < 8; ++t) {
    attackers.emplace_back([&] {
      auto stub = StubFor(*server_);
      int i;
      while ((i = next.fetch_add(1)) < 10'000) {
        char id[33];
        std::snprintf(id, sizeof(id), "%032x", i);
        const std::string token = absl::StrCat("arb_", id, "_", std::string(64, 'c'));
        v1::ListGamesRequest request;
        v1::ListGamesResponse page;
        if (stub->ListGames(As(token).get(), request, &page).error_code() ==
            grpc::StatusCode::UNAUTHENTICATED) {
          ++refused;
        }
      }
    });
  }
  std::vector<double> busy;
  while (next.load() < 10'000) busy.push_back(TimedList(*stub_, auditor));
  for (std::thread& t : attackers) t.join();
  EXPECT_EQ(refused.load(), 10'000);
  ASSERT_GE(busy.size(), 10u);
  const double quiet_p50 = Median(quiet);
  const double busy_p50 = Median(busy);
  std::printf("ListGames p50: %.2f ms quiet, %.2f ms during 10,000 bogus tokens (%zu calls)\n",
              quiet_p50, busy_p50, busy.size());
  // Two shared cores run the attackers, the server and PostgreSQL: the
  // legitimate caller must not queue behind the attack's look-ups.
  EXPECT_LT(busy_p50, std::max(25.0, 10 * quiet_p50));
}

}  // namespace
}  // namespace arbiter::server::testing
