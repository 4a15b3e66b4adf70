// arbiterd's health without a database (services/health): what a probe's
// answer means and the reasons anyone may read, the monitor's cache (one
// probe per interval however often it is asked), its cutting of a probe that
// hangs, the figures' cache, and the Prometheus text of every figure.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "absl/cleanup/cleanup.h"
#include "absl/strings/match.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "services/health/health_monitor.h"
#include "services/health/lag_metrics.h"
#include "services/health/prometheus_text.h"
#include "services/health/readiness.h"
#include "services/health/standby_read_figures.h"
#include "tests/services/health/prometheus_parse.h"

namespace arbiter::health {
namespace {

using store::pg::DatabaseRole;
using store::pg::StoreFigures;
using testing::ParsePrometheusText;
using testing::PromText;

DatabaseRole Primary() { return DatabaseRole{}; }

DatabaseRole Standby(double lag_seconds) {
  DatabaseRole role;
  role.in_recovery = true;
  role.replay_lag_bytes = 4096;
  role.replay_lag_seconds = lag_seconds;
  return role;
}

// A source whose probe answers what the test says, counting probes; a probe
// may be made to hang until it is cut (or, `ignore_cuts`, until released).
class FakeSource final : public HealthSource {
 public:
  absl::StatusOr<DatabaseRole> Probe() override {
    absl::MutexLock lock(&mu_);
    ++probes_;
    if (hang_) {
      probe_started_ = absl::Now();
      auto over = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        return (cut_ && !ignore_cuts_) || !hang_;
      };
      mu_.Await(absl::Condition(&over));
      const bool was_cut = cut_;
      cut_ = false;
      probe_started_ = absl::InfiniteFuture();
      if (was_cut && !ignore_cuts_) return absl::DeadlineExceededError("probing PostgreSQL: cut");
    }
    return answer_;
  }
  absl::StatusOr<StoreFigures> ReadFigures() override {
    absl::SleepFor(absl::Milliseconds(20));  // a read takes a while
    absl::MutexLock lock(&mu_);
    ++reads_;
    return figures_;
  }
  void CutLate(absl::Time now) override {
    absl::MutexLock lock(&mu_);
    if (now - probe_started_ > bound_) {
      cut_ = true;
      ++cuts_;
    }
  }

  void Answer(absl::StatusOr<DatabaseRole> answer) {
    absl::MutexLock lock(&mu_);
    answer_ = std::move(answer);
  }
  void Hang(bool hang, bool ignore_cuts = false) {
    absl::MutexLock lock(&mu_);
    hang_ = hang;
    ignore_cuts_ = ignore_cuts;
  }
  int probes() {
    absl::MutexLock lock(&mu_);
    return probes_;
  }
  int reads() {
    absl::MutexLock lock(&mu_);
    return reads_;
  }
  int cuts() {
    absl::MutexLock lock(&mu_);
    return cuts_;
  }

  absl::Duration bound_ = absl::Milliseconds(100);

 private:
  absl::Mutex mu_;
  absl::StatusOr<DatabaseRole> answer_ ABSL_GUARDED_BY(mu_) = Primary();
  StoreFigures figures_ ABSL_GUARDED_BY(mu_);
  bool hang_ ABSL_GUARDED_BY(mu_) = false;
  bool ignore_cuts_ ABSL_GUARDED_BY(mu_) = false;
  bool cut_ ABSL_GUARDED_BY(mu_) = false;
  absl::Time probe_started_ ABSL_GUARDED_BY(mu_) = absl::InfiniteFuture();
  int probes_ ABSL_GUARDED_BY(mu_) = 0;
  int reads_ ABSL_GUARDED_BY(mu_) = 0;
  int cuts_ ABSL_GUARDED_BY(mu_) = 0;
};

// Waits up to `limit` for `done`.
template <typename Done>
bool Eventually(Done done, absl::Duration limit = absl::Seconds(5)) {
  const absl::Time deadline = absl::Now() + limit;
  while (!done()) {
    if (absl::Now() > deadline) return false;
    absl::SleepFor(absl::Milliseconds(10));
  }
  return true;
}

HealthOptions Quick() {
  HealthOptions options;
  options.interval = absl::Milliseconds(200);
  options.tick = absl::Milliseconds(20);
  options.policy.bound = absl::Milliseconds(100);
  return options;
}

TEST(Readiness, APrimaryIsReadyAndAStandbyIsNot) {
  EXPECT_TRUE(Decide(Primary(), {}).ready);
  const Readiness standby = Decide(Standby(0), {});
  EXPECT_FALSE(standby.ready);
  EXPECT_EQ(standby.reason, "no writable PostgreSQL: connected to a standby (read-only, in recovery)");
}

TEST(Readiness, AReadReplicaIsReadyOnlyWithinItsLagBound) {
  ReadinessPolicy replica;
  replica.standby_max_lag = absl::Seconds(5);
  EXPECT_TRUE(Decide(Standby(4.5), replica).ready);
  const Readiness behind = Decide(Standby(7.25), replica);
  EXPECT_FALSE(behind.ready);
  EXPECT_EQ(behind.reason, "standby: replay is 7.25s behind (at most 5s)");
  DatabaseRole unknown = Standby(0);
  unknown.replay_lag_seconds.reset();
  EXPECT_FALSE(Decide(unknown, replica).ready);
}

TEST(Readiness, EachFailureHasAOneLineReasonWithoutTheDatabaseText) {
  // What libpq says names sockets, hosts and users: none of it is shown.
  const std::string secret = "connection to server on socket \"/tmp/pgsock/.s.PGSQL.5432\" failed";
  const std::vector<std::pair<absl::Status, std::string>> cases = {
      {absl::UnavailableError(secret),
       "no writable PostgreSQL: cannot connect (refused or lost; the server log says why)"},
      {absl::DeadlineExceededError(secret), "no writable PostgreSQL: no answer within 1s"},
      {absl::ResourceExhaustedError(secret), "PostgreSQL busy: no free connection within 1s"},
      {absl::PermissionDeniedError(secret),
       "no writable PostgreSQL: the probe failed (PERMISSION_DENIED; the server log says why)"},
  };
  for (const auto& [status, reason] : cases) {
    const Readiness readiness = Decide(status, {});
    EXPECT_FALSE(readiness.ready);
    EXPECT_EQ(readiness.reason, reason);
  }
  EXPECT_EQ(Silent(absl::Milliseconds(3400)).reason, "no writable PostgreSQL: no answer for 3s");
  EXPECT_EQ(Silent(absl::InfiniteDuration()).reason, "no writable PostgreSQL: not probed yet");
}

TEST(HealthMonitor, ProbesOncePerIntervalHoweverOftenItIsAsked) {
  FakeSource source;
  HealthMonitor monitor(source, Quick(), nullptr);
  monitor.Start();
  std::atomic<int64_t> asked{0};
  std::vector<std::thread> askers;
  const absl::Time end = absl::Now() + absl::Milliseconds(1100);
  for (int i = 0; i < 4; ++i) {
    askers.emplace_back([&] {
      while (absl::Now() < end) {
        EXPECT_TRUE(monitor.Current().readiness.ready);
        ++asked;
      }
    });
  }
  for (std::thread& t : askers) t.join();
  monitor.Stop();
  // Start's probe and one per 200 ms: 6 in 1.1 s, whatever the thousands of
  // questions.
  EXPECT_GT(asked.load(), 1000);
  EXPECT_GE(source.probes(), 5);
  EXPECT_LE(source.probes(), 7);
}

TEST(HealthMonitor, AProbeThatHangsIsCutWithinItsBoundAndMakesItUnready) {
  FakeSource source;
  HealthOptions options = Quick();
  options.interval = absl::Milliseconds(100);
  options.policy.bound = source.bound_ = absl::Milliseconds(300);
  HealthMonitor monitor(source, options, nullptr);
  absl::Cleanup release = [&] { source.Hang(false); };  // before the monitor stops
  monitor.Start();
  ASSERT_TRUE(monitor.Current().readiness.ready);
  const absl::Time hung = absl::Now();
  source.Hang(true);
  ASSERT_TRUE(Eventually([&] { return !monitor.Current().readiness.ready; }));
  // The next probe starts within 100 ms and is cut 300 ms later (a tick is
  // 20 ms): before the 700 ms after which silence alone would tell.
  EXPECT_LT(absl::Now() - hung, absl::Milliseconds(650));
  EXPECT_EQ(monitor.Current().readiness.reason, "no writable PostgreSQL: no answer within 300ms");
  EXPECT_GE(source.cuts(), 1);
  source.Hang(false);
  EXPECT_TRUE(Eventually([&] { return monitor.Current().readiness.ready; }));
  monitor.Stop();
}

TEST(HealthMonitor, AProbeThatCannotBeCutIsReportedBySilence) {
  FakeSource source;
  HealthMonitor monitor(source, Quick(), nullptr);
  absl::Cleanup release = [&] { source.Hang(false); };  // before the monitor stops
  monitor.Start();
  source.Hang(true, /*ignore_cuts=*/true);  // stuck opening a connection, say
  ASSERT_TRUE(Eventually([&] { return !monitor.Current().readiness.ready; }));
  EXPECT_TRUE(absl::StartsWith(monitor.Current().readiness.reason,
                               "no writable PostgreSQL: no answer for "));
  source.Hang(false);
  EXPECT_TRUE(Eventually([&] { return monitor.Current().readiness.ready; }));
  monitor.Stop();
}

TEST(HealthMonitor, TellsItsObserverOfEachChangeOnce) {
  FakeSource source;
  absl::Mutex mu;
  std::vector<bool> told;
  HealthMonitor monitor(source, Quick(), [&](bool ready) {
    absl::MutexLock lock(&mu);
    told.push_back(ready);
  });
  monitor.Start();
  auto told_count = [&] {
    absl::MutexLock lock(&mu);
    return told.size();
  };
  EXPECT_EQ(told_count(), 1u);  // Start tells the first answer
  source.Answer(absl::UnavailableError("down"));
  ASSERT_TRUE(Eventually([&] { return told_count() == 2; }));
  absl::SleepFor(absl::Milliseconds(600));  // three more failed probes
  source.Answer(Standby(0));                 // still not ready: no change
  absl::SleepFor(absl::Milliseconds(400));
  source.Answer(Primary());
  ASSERT_TRUE(Eventually([&] { return told_count() == 3; }));
  absl::SleepFor(absl::Milliseconds(400));
  monitor.Stop();
  absl::MutexLock lock(&mu);
  EXPECT_EQ(told, (std::vector<bool>{true, false, true}));
}

TEST(LagMetrics, ReadsTheFiguresAtMostOncePerMaxAgeHoweverOftenScraped) {
  FakeSource source;
  HealthMonitor monitor(source, Quick(), nullptr);
  monitor.Start();
  LagMetrics metrics(monitor, source, nullptr, absl::Milliseconds(300));
  std::vector<std::thread> scrapers;
  const absl::Time end = absl::Now() + absl::Milliseconds(1000);
  std::atomic<int> scrapes{0};
  for (int i = 0; i < 4; ++i) {
    scrapers.emplace_back([&] {
      while (absl::Now() < end) {
        absl::StatusOr<PromText> text = ParsePrometheusText(metrics.Text());
        EXPECT_TRUE(text.ok()) << text.status();
        if (text.ok()) {
          EXPECT_EQ(text->Value("arbiter_store_figures_ok"), 1);
        }
        ++scrapes;
      }
    });
  }
  for (std::thread& t : scrapers) t.join();
  monitor.Stop();
  EXPECT_GT(scrapes.load(), 100);
  EXPECT_GE(source.reads(), 2);
  EXPECT_LE(source.reads(), 4);  // one per 300 ms (each read takes 20 ms)
}

StoreFigures Figures() {
  StoreFigures figures;
  figures.head_position = 12345678;
  figures.projectors = {{"leagues", 12345600}, {"odd \"name\"\\\n", 3}};
  figures.transparency_tree_size = 12345700;
  figures.transparency_events_position = 12345670;
  figures.unlogged_stream_events = 2;
  return figures;
}

HealthSnapshot Answered(DatabaseRole role, absl::Time at) {
  HealthSnapshot snapshot;
  snapshot.readiness = Decide(role, {});
  snapshot.role = role;
  snapshot.probe_latency = absl::Microseconds(1500);
  snapshot.probed_at = at;
  return snapshot;
}

TEST(MetricsText, OnAPrimaryEveryFigureParsesWithItsValue) {
  const absl::Time now = absl::Now();
  const std::string text = MetricsText(Answered(Primary(), now - absl::Milliseconds(250)), now,
                                       FollowerState{12345670, true}, Figures());
  absl::StatusOr<PromText> parsed = ParsePrometheusText(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status() << "\n" << text;
  EXPECT_EQ(parsed->Value("arbiter_ready"), 1);
  EXPECT_EQ(parsed->Value("arbiter_database_writable"), 1);
  EXPECT_EQ(parsed->Value("arbiter_database_in_recovery"), 0);
  EXPECT_EQ(parsed->Value("arbiter_database_probe_seconds"), 0.0015);
  EXPECT_EQ(parsed->Value("arbiter_database_probe_age_seconds"), 0.25);
  EXPECT_EQ(parsed->Value("arbiter_store_figures_ok"), 1);
  EXPECT_EQ(parsed->Value("arbiter_store_head_position"), 12345678);
  EXPECT_EQ(parsed->Value("arbiter_follower_connected"), 1);
  EXPECT_EQ(parsed->Value("arbiter_follower_position"), 12345670);
  EXPECT_EQ(parsed->Value("arbiter_follower_lag_events"), 8);
  EXPECT_EQ(parsed->Value("arbiter_projector_position", {{"projector", "leagues"}}), 12345600);
  EXPECT_EQ(parsed->Value("arbiter_projector_lag_events", {{"projector", "leagues"}}), 78);
  EXPECT_EQ(parsed->Value("arbiter_projector_lag_events", {{"projector", "odd \"name\"\\\n"}}),
            12345675);
  EXPECT_EQ(parsed->Value("arbiter_transparency_tree_size"), 12345700);
  EXPECT_EQ(parsed->Value("arbiter_transparency_unlogged_events"), 8 + 2);
  EXPECT_FALSE(parsed->Value("arbiter_standby_replay_lag_bytes").has_value());
  for (const auto& [name, type] : parsed->types) EXPECT_EQ(type, "gauge") << name;
  for (const auto& sample : parsed->samples) EXPECT_EQ(parsed->helps.count(sample.name), 1u);
}

TEST(MetricsText, OnAStandbyItHasTheReplayLagAndNoProjectors) {
  const absl::Time now = absl::Now();
  StoreFigures figures = Figures();
  figures.projectors.reset();
  absl::StatusOr<PromText> parsed = ParsePrometheusText(
      MetricsText(Answered(Standby(2.5), now), now, FollowerState{}, figures));
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->Value("arbiter_ready"), 0);
  EXPECT_EQ(parsed->Value("arbiter_database_writable"), 0);
  EXPECT_EQ(parsed->Value("arbiter_database_in_recovery"), 1);
  EXPECT_EQ(parsed->Value("arbiter_standby_replay_lag_bytes"), 4096);
  EXPECT_EQ(parsed->Value("arbiter_standby_replay_lag_seconds"), 2.5);
  EXPECT_EQ(parsed->Value("arbiter_follower_connected"), 0);
  EXPECT_FALSE(parsed->Value("arbiter_follower_position").has_value());
  EXPECT_FALSE(parsed->Value("arbiter_projector_position", {{"projector", "leagues"}}).has_value());
}

TEST(MetricsText, WithoutTheDatabaseItSaysSoAndLeavesTheStoreFiguresOut) {
  HealthSnapshot down;
  down.readiness = Decide(absl::UnavailableError("refused"), {});
  down.probe_latency = absl::Milliseconds(3);
  down.probed_at = absl::Now();
  absl::StatusOr<PromText> parsed = ParsePrometheusText(
      MetricsText(down, absl::Now(), FollowerState{40, false}, std::nullopt));
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->Value("arbiter_ready"), 0);
  EXPECT_EQ(parsed->Value("arbiter_database_writable"), 0);
  EXPECT_FALSE(parsed->Value("arbiter_database_in_recovery").has_value());
  EXPECT_EQ(parsed->Value("arbiter_store_figures_ok"), 0);
  EXPECT_EQ(parsed->Value("arbiter_follower_position"), 40);
  EXPECT_FALSE(parsed->Value("arbiter_store_head_position").has_value());
  EXPECT_FALSE(parsed->Value("arbiter_follower_lag_events").has_value());
}

TEST(PrometheusText, EscapesHelpAndLabelValuesAndWritesNumbersExactly) {
  PrometheusText out;
  out.Gauge("a_b:c", "back\\slash and\nnewline \"quoted\"");
  out.Sample(int64_t{9007199254740993}, {{"l", "x\"y\\z\nw"}, {"m", ""}});
  out.Sample(0.1, {{"l", "second"}});
  EXPECT_EQ(out.text(),
            "# HELP a_b:c back\\\\slash and\\nnewline \"quoted\"\n"
            "# TYPE a_b:c gauge\n"
            "a_b:c{l=\"x\\\"y\\\\z\\nw\",m=\"\"} 9007199254740993\n"
            "a_b:c{l=\"second\"} 0.1\n");
  absl::StatusOr<PromText> parsed = ParsePrometheusText(out.text());
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->helps["a_b:c"], "back\\slash and\nnewline \"quoted\"");
  EXPECT_EQ(parsed->samples[0].labels["l"], "x\"y\\z\nw");
}

}  // namespace
}  // namespace arbiter::health

namespace arbiter::health {
namespace {

TEST(MetricsText, TheStandbyReadFiguresParseAsCountersAndAHistogram) {
  store::pg::StandbyReadStats stats;
  stats.served_by_standby = 7;
  stats.fallbacks_lag = 2;
  stats.fallbacks_unreachable = 1;
  stats.waits = 3;
  stats.wait_seconds_sum = 0.25;
  for (std::size_t i = 0; i < stats.wait_buckets.size(); ++i) {
    stats.wait_buckets[i] = store::pg::StandbyReadStats::kWaitBounds[i] >= 0.01 ? 3 : 1;
  }
  absl::StatusOr<testing::PromText> text = testing::ParsePrometheusText(StandbyReadFigures(stats));
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(text->types.at("arbiter_standby_reads_total"), "counter");
  EXPECT_EQ(text->types.at("arbiter_standby_read_wait_seconds"), "histogram");
  EXPECT_EQ(text->Value("arbiter_standby_reads_total"), 7);
  EXPECT_EQ(text->Value("arbiter_standby_read_fallbacks_total", {{"reason", "lag"}}), 2);
  EXPECT_EQ(text->Value("arbiter_standby_read_fallbacks_total", {{"reason", "unreachable"}}), 1);
  EXPECT_EQ(text->Value("arbiter_standby_read_wait_seconds_bucket", {{"le", "0.005"}}), 1);
  EXPECT_EQ(text->Value("arbiter_standby_read_wait_seconds_bucket", {{"le", "0.01"}}), 3);
  EXPECT_EQ(text->Value("arbiter_standby_read_wait_seconds_bucket", {{"le", "+Inf"}}), 3);
  EXPECT_EQ(text->Value("arbiter_standby_read_wait_seconds_sum"), 0.25);
  EXPECT_EQ(text->Value("arbiter_standby_read_wait_seconds_count"), 3);
}

}  // namespace
}  // namespace arbiter::health
