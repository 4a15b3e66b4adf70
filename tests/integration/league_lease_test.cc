// The league projector under its lease (docs/replication.md, "Singletons"):
// two projectors on one database as two servers run them, each with its own
// lease keeper. Only the holder projects; a holder paused past its lease
// and resumed after another took over writes nothing (the leaderboard stays
// what a rebuild from scratch gives); a rebuild asked of a standby is done
// by the holder; the other server takes over within ttl + one renewal period
// of the holder's death; and under one grant the checkpoint still counts
// each game once.
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "arbiter/v1/events/league_events.pb.h"
#include "arbiter/v1/league_service.grpc.pb.h"
#include "services/league/league_projector.h"
#include "services/league/league_settings.h"
#include "services/log/log_file.h"
#include "services/store/lease_keeper.h"
#include "services/store/pg/leases.h"
#include "tests/integration/league_server_fixture.h"

namespace arbiter::server::testing {
namespace {

store::LeaseTiming Quick() {
  store::LeaseTiming timing;
  timing.ttl = absl::Seconds(1);
  timing.renew_every = absl::Milliseconds(250);
  return timing;
}

// One server's projector and the keeper of its lease. Counts the steps it
// is about to write, and can be stopped just before one (paused).
struct ProjectorServer {
  std::unique_ptr<store::LeaseKeeper> keeper;
  std::unique_ptr<league::LeagueProjector> projector;
  std::atomic<int> writes{0};
  std::atomic<bool> pause_next{false};
  absl::Notification paused;
  absl::Notification resume;
};

class LeagueLeaseTest : public LeagueServerTest {
 protected:
  void SetUp() override {
    LeagueServerTest::SetUp();
    table_ = std::make_unique<store::pg::LeaseTable>(events_->pool());
  }
  void TearDown() override {
    servers_.clear();  // projectors first, then their keepers
    shared_keepers_.clear();
    LeagueServerTest::TearDown();
  }

  // A server holding (or standing by for) the projector's lease; its
  // keeper is started, its projector not.
  ProjectorServer& NewServer(const std::string& holder,
                             std::shared_ptr<store::LeaseKeeper> keeper = nullptr) {
    auto server = std::make_unique<ProjectorServer>();
    ProjectorServer* s = server.get();
    if (keeper == nullptr) {
      keeper = std::make_shared<store::LeaseKeeper>(*table_, league::kProjectorLease, holder,
                                                    Quick());
      keeper->Start();
    }
    shared_keepers_.push_back(keeper);
    s->projector =
        std::make_unique<league::LeagueProjector>(*events_, *events_, *streams_, *projections_);
    s->projector->UseLease(*keeper);
    s->projector->SetBeforeWriteHookForTest([s] {
      ++s->writes;
      if (s->pause_next.exchange(false)) {
        s->paused.Notify();
        s->resume.WaitForNotification();
      }
    });
    servers_.push_back(std::move(server));
    return *s;
  }

  void CreateLeague(const std::string& id) {
    v1::CreateLeagueRequest request;
    request.set_request_id(absl::StrCat("create-", id));
    request.set_league_id(id);
    request.mutable_settings()->add_game_types("atlantis");
    request.mutable_settings()->set_rating_system("plackett-luce");
    v1::League league;
    grpc::Status status = leagues_->CreateLeague(As(admin_).get(), request, &league);
    ASSERT_TRUE(status.ok()) << status.error_message();
  }

  void SubmitGame(int n) {
    v1::SubmitGameRequest request;
    request.set_request_id(absl::StrCat("submit-", n));
    request.set_game_id(absl::StrCat("g", n));
    request.set_log(log::FormatLog(Simulated(500 + n, 3)));
    request.set_league("north");
    v1::SubmitGameResponse response;
    grpc::Status status = stub_->SubmitGame(As(admin_).get(), request, &response);
    ASSERT_TRUE(status.ok()) << status.error_message();
  }

  // A settings change appended to the league's log by hand (UpdateLeague
  // would also rebuild through the fixture's own projector).
  void ChangeSystem(const std::string& system, int64_t expected) {
    v1::LeagueSettingsChanged changed;
    changed.mutable_settings()->add_game_types("atlantis");
    changed.mutable_settings()->set_rating_system(system);
    store::StreamAppendRequest append;
    append.stream_id = "leagues/north";
    append.expected_sequence = expected;
    append.request_id = absl::StrCat("system-", system);
    append.recorded_by = "admin";
    append.type = league::kTypeLeagueSettingsChanged;
    changed.SerializeToString(&append.payload);
    ASSERT_TRUE(streams_->Append(append).ok());
  }

  static bool WaitFor(const std::function<bool()>& done, absl::Duration limit = absl::Seconds(20)) {
    const absl::Time deadline = absl::Now() + limit;
    while (!done()) {
      if (absl::Now() > deadline) return false;
      absl::SleepFor(absl::Milliseconds(5));
    }
    return true;
  }

  bool Projected() {
    absl::StatusOr<int64_t> head = events_->HeadPosition();
    absl::StatusOr<int64_t> checkpoint = projections_->Checkpoint();
    return head.ok() && checkpoint.ok() && *head == *checkpoint;
  }

  int64_t RatedGames() {
    absl::StatusOr<std::optional<league::LeagueProjection>> p = projections_->Projection("north");
    return p.ok() && p->has_value() ? (*p)->rated_games : -1;
  }

  int64_t SettingsProjected() {
    absl::StatusOr<std::optional<league::LeagueProjection>> p = projections_->Projection("north");
    return p.ok() && p->has_value() ? (*p)->settings_sequence : -1;
  }

  std::string Digest() { return *projections_->Digest("north"); }

  std::unique_ptr<store::pg::LeaseTable> table_;
  std::vector<std::shared_ptr<store::LeaseKeeper>> shared_keepers_;
  std::vector<std::unique_ptr<ProjectorServer>> servers_;
};

TEST_F(LeagueLeaseTest, OnlyTheServerHoldingTheLeaseProjects) {
  CreateLeague("north");
  ProjectorServer& a = NewServer("a");
  ProjectorServer& b = NewServer("b");
  a.projector->Start(absl::Milliseconds(10));
  b.projector->Start(absl::Milliseconds(10));
  for (int n = 0; n < 6; ++n) SubmitGame(n);
  ASSERT_TRUE(WaitFor([&] { return Projected() && RatedGames() == 6; }));
  absl::SleepFor(absl::Milliseconds(300));  // many steps of both
  EXPECT_GT(a.writes.load(), 0);
  EXPECT_EQ(b.writes.load(), 0);
  // The standby reads the stored checkpoint for its position.
  EXPECT_TRUE(WaitFor([&] { return b.projector->position() == *events_->HeadPosition(); }));
  EXPECT_EQ(b.projector->lag(), 0);
  EXPECT_EQ(b.projector->CatchUp().code(), absl::StatusCode::kUnavailable);
}

// Server a is paused (its process stopped, say) in the middle of a rebuild
// of the league, computed with the settings of the time; its lease lapses,
// the settings change and b, now holding the lease, projects them. When a
// resumes, its write of the stale rebuild is refused with nothing written:
// the checkpoint alone would not stop it (no game came in between), the
// lease's token does. a's Rebuild then asks the holder instead.
TEST_F(LeagueLeaseTest, APausedHolderPastItsLeaseWritesNothingAfterATakeover) {
  CreateLeague("north");
  for (int n = 0; n < 4; ++n) SubmitGame(n);
  ProjectorServer& a = NewServer("a");
  store::LeaseKeeper& a_lease = *shared_keepers_.back();
  ASSERT_TRUE(a_lease.Held().has_value());
  ASSERT_TRUE(a.projector->CatchUp().ok());
  ASSERT_EQ(RatedGames(), 4);
  ProjectorServer& b = NewServer("b");
  store::LeaseKeeper& b_lease = *shared_keepers_.back();
  b.projector->Start(absl::Milliseconds(10));

  a.pause_next = true;
  absl::StatusOr<league::RebuildSummary> rebuilt;
  std::thread rebuild([&] { rebuilt = a.projector->Rebuild("north", absl::Seconds(30)); });
  a.paused.WaitForNotification();
  a_lease.Pause(true);  // a's whole process is stopped: no renewals either
  ChangeSystem("elo", 1);
  ASSERT_TRUE(WaitFor([&] { return b_lease.Held().has_value() && SettingsProjected() == 2; }));
  const std::string before = Digest();
  a.resume.Notify();
  rebuild.join();

  EXPECT_EQ(Digest(), before) << "the stale holder's write went through";
  EXPECT_EQ(SettingsProjected(), 2);
  EXPECT_EQ(RatedGames(), 4);
  // a's Rebuild was done by b, from scratch: the same bytes.
  ASSERT_TRUE(rebuilt.ok()) << rebuilt.status();
  EXPECT_EQ(rebuilt->digest, before);
  EXPECT_EQ(rebuilt->rated_games, 4);
  EXPECT_FALSE(a_lease.Held().has_value());
}

TEST_F(LeagueLeaseTest, ARebuildAskedOfAStandbyIsDoneByTheHolder) {
  CreateLeague("north");
  for (int n = 0; n < 3; ++n) SubmitGame(n);
  ProjectorServer& a = NewServer("a");
  ProjectorServer& b = NewServer("b");
  a.projector->Start(absl::Milliseconds(10));
  b.projector->Start(absl::Milliseconds(10));
  ASSERT_TRUE(WaitFor([&] { return Projected() && RatedGames() == 3; }));
  const std::string digest = Digest();
  const int writes = a.writes.load();
  absl::StatusOr<league::RebuildSummary> rebuilt = b.projector->Rebuild("north");
  ASSERT_TRUE(rebuilt.ok()) << rebuilt.status();
  EXPECT_EQ(rebuilt->digest, digest);
  EXPECT_EQ(rebuilt->rated_games, 3);
  EXPECT_EQ(rebuilt->players, 3);
  EXPECT_EQ(rebuilt->position, *events_->HeadPosition());
  EXPECT_GT(a.writes.load(), writes);
  EXPECT_EQ(b.writes.load(), 0);
  EXPECT_EQ(b.projector->Rebuild("nowhere").status().code(), absl::StatusCode::kNotFound);
}

TEST_F(LeagueLeaseTest, AnotherServerTakesOverWithinTtlAndOneRenewalPeriodOfTheHoldersDeath) {
  CreateLeague("north");
  SubmitGame(0);
  ProjectorServer& a = NewServer("a");
  store::LeaseKeeper& a_lease = *shared_keepers_.back();
  ProjectorServer& b = NewServer("b");
  a.projector->Start(absl::Milliseconds(10));
  b.projector->Start(absl::Milliseconds(10));
  ASSERT_TRUE(WaitFor([&] { return Projected() && RatedGames() == 1; }));
  // a dies: it stops projecting and renewing, and releases nothing.
  const absl::Time died = absl::Now();
  a.projector->Stop();
  a_lease.Abandon();
  SubmitGame(1);
  ASSERT_TRUE(WaitFor([&] { return Projected() && RatedGames() == 2; }));
  const absl::Duration takeover = absl::Now() - died;
  const store::LeaseTiming timing = Quick();
  EXPECT_GT(b.writes.load(), 0);
  EXPECT_LE(takeover, timing.ttl + timing.renew_every + absl::Milliseconds(500)) << takeover;
}

// Two projectors writing under one grant (one process's memory behind what
// it stored, as after a commit whose answer was lost): the token does not
// tell them apart, the expected checkpoint does, and each game counts once.
TEST_F(LeagueLeaseTest, UnderOneGrantTheCheckpointStillCountsEachGameOnce) {
  CreateLeague("north");
  for (int n = 0; n < 3; ++n) SubmitGame(n);
  ProjectorServer& first = NewServer("a");
  ProjectorServer& second = NewServer("a", shared_keepers_.back());
  ASSERT_TRUE(first.projector->CatchUp().ok());
  ASSERT_TRUE(second.projector->CatchUp().ok());
  for (int n = 3; n < 5; ++n) SubmitGame(n);
  ASSERT_TRUE(first.projector->CatchUp().ok());
  const absl::Status stale = second.projector->CatchUp();
  EXPECT_EQ(stale.code(), absl::StatusCode::kAborted) << stale;
  EXPECT_FALSE(store::IsLeaseLost(stale));
  ASSERT_TRUE(second.projector->CatchUp().ok());  // reloaded
  EXPECT_EQ(RatedGames(), 5);
  const std::string stepped = Digest();
  absl::StatusOr<league::RebuildSummary> rebuilt = first.projector->Rebuild("north");
  ASSERT_TRUE(rebuilt.ok()) << rebuilt.status();
  EXPECT_EQ(rebuilt->digest, stepped);
}

}  // namespace
}  // namespace arbiter::server::testing
