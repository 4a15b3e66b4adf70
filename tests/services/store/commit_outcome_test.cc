// Appends whose commit's outcome is unknown, against a real PostgreSQL made
// to wait for a synchronous standby that never comes
// (synchronous_standby_names names nobody): the wait is cancelled, the
// waiting backend is terminated, or the connection is cut while it waits.
// In each case the append is answered only once it has been looked up again
// by its request id and is known to be durable, and it is stored once. Also
// the pool's back-off while no server answers, and its dropping of the idle
// connections that went to a lost server.
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <pqxx/pqxx>

#include <chrono>
#include <cstdlib>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "services/store/pg/pool.h"
#include "services/store/postgres_event_store.h"
#include "tests/services/store/postgres_test_env.h"
#include "tests/services/store/store_test_util.h"

namespace arbiter::store {
namespace {

using testing::Append;
using testing::CreateRequest;
using testing::Events;
using namespace std::chrono_literals;

// A Unix-socket proxy in front of the cluster's socket: the store connects
// through it, and the test can cut every connection it carries (both sides,
// as a broken network would) while new ones still go through.
class SocketProxy {
 public:
  explicit SocketProxy(std::string target) : target_(std::move(target)) {
    char dir[] = "/tmp/arbiter-proxy-XXXXXX";
    dir_ = mkdtemp(dir);
    const std::string port = target_.substr(target_.rfind('.') + 1);
    path_ = absl::StrCat(dir_, "/.s.PGSQL.", port);
    listener_ = Listen(path_);
    accepting_ = std::thread([this] { AcceptLoop(); });
  }
  ~SocketProxy() {
    ::shutdown(listener_, SHUT_RDWR);
    accepting_.join();
    CutAll();
    for (std::thread& pump : pumps_) pump.join();
    ::close(listener_);
    ::unlink(path_.c_str());
    ::rmdir(dir_.c_str());
  }
  const std::string& dir() const { return dir_; }

  void CutAll() {
    std::lock_guard<std::mutex> lock(mu_);
    for (int fd : open_) ::shutdown(fd, SHUT_RDWR);
  }

 private:
  static int Listen(const std::string& path) {
    int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    path.copy(address.sun_path, sizeof(address.sun_path) - 1);
    if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 ||
        ::listen(fd, 64) != 0) {
      ADD_FAILURE() << "cannot listen on " << path;
    }
    return fd;
  }
  static int Connect(const std::string& path) {
    int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    path.copy(address.sun_path, sizeof(address.sun_path) - 1);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
      ::close(fd);
      return -1;
    }
    return fd;
  }
  void AcceptLoop() {
    while (true) {
      const int client = ::accept(listener_, nullptr, nullptr);
      if (client < 0) return;
      const int server = Connect(target_);
      if (server < 0) {
        ::close(client);
        continue;
      }
      std::lock_guard<std::mutex> lock(mu_);
      open_.push_back(client);
      open_.push_back(server);
      pumps_.emplace_back([client, server] { Pump(client, server); });
    }
  }
  // Copies bytes both ways until either side closes; closes both.
  static void Pump(int a, int b) {
    char buffer[16384];
    pollfd fds[2] = {{a, POLLIN, 0}, {b, POLLIN, 0}};
    while (::poll(fds, 2, -1) > 0) {
      bool done = false;
      for (int i = 0; i < 2 && !done; ++i) {
        if (fds[i].revents == 0) continue;
        const ssize_t n = ::read(fds[i].fd, buffer, sizeof(buffer));
        // MSG_NOSIGNAL: a side the test cut is an error here, not SIGPIPE.
        done = n <= 0 ||
               ::send(fds[1 - i].fd, buffer, static_cast<std::size_t>(n), MSG_NOSIGNAL) != n;
      }
      if (done) break;
    }
    ::shutdown(a, SHUT_RDWR);
    ::shutdown(b, SHUT_RDWR);
  }

  std::string target_, dir_, path_;
  int listener_ = -1;
  std::thread accepting_;
  std::mutex mu_;
  std::vector<int> open_;  // closed when the proxy ends
  std::vector<std::thread> pumps_;
};

// The value of `key` in a key=value connection string.
std::string ConninfoValue(const std::string& conninfo, const std::string& key) {
  for (absl::string_view part : absl::StrSplit(conninfo, ' ')) {
    if (absl::StartsWith(part, key + "=")) return std::string(part.substr(key.size() + 1));
  }
  return "";
}

class CommitOutcomeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    conninfo_ = testing::FreshDatabase();
    proxy_ = std::make_unique<SocketProxy>(absl::StrCat(ConninfoValue(conninfo_, "host"),
                                                        "/.s.PGSQL.",
                                                        ConninfoValue(conninfo_, "port")));
    PostgresOptions options;
    options.conninfo = absl::StrCat(conninfo_, " host=", proxy_->dir());
    options.resolve_unknown_for = absl::Seconds(60);
    absl::StatusOr<std::unique_ptr<PostgresEventStore>> store = PostgresEventStore::Open(options);
    ASSERT_TRUE(store.ok()) << store.status();
    store_ = std::move(*store);
    ASSERT_TRUE(store_->CreateGame(CreateRequest("g")).ok());
  }
  void TearDown() override {
    WaitForNoStandby();
    store_.reset();
    proxy_.reset();
  }

  void Sql(const std::string& sql) {
    pqxx::connection conn(conninfo_);
    pqxx::nontransaction txn(conn);
    txn.exec(sql);
  }
  // From now on every commit waits for a standby that never comes. (The
  // setting reaches the commits a moment after the reload: a probe commit
  // shows when.)
  void WaitForAStandby() {
    Sql("ALTER SYSTEM SET synchronous_standby_names = 'nobody'");
    Sql("SELECT pg_reload_conf()");
    const auto give_up = std::chrono::steady_clock::now() + 20s;
    while (std::chrono::steady_clock::now() < give_up) {
      pqxx::connection probe(conninfo_);
      const int pid = probe.backendpid();
      auto committed = std::async(std::launch::async, [&probe] {
        pqxx::work txn(probe);
        txn.exec("SELECT pg_logical_emit_message(true, 'probe', '')");
        txn.commit();
      });
      if (committed.wait_for(200ms) == std::future_status::timeout) {
        Sql(absl::StrCat("SELECT pg_cancel_backend(", pid, ")"));
        committed.get();
        return;
      }
      committed.get();
    }
    FAIL() << "commits never began to wait for the standby";
  }
  // Commits no longer wait; those waiting go on.
  void WaitForNoStandby() {
    Sql("ALTER SYSTEM RESET synchronous_standby_names");
    Sql("SELECT pg_reload_conf()");
  }
  // The backends waiting for the standby, once there are `count` (fails
  // the test after 20 s).
  std::vector<int> WaitersOnceThereAre(std::size_t count) {
    const auto give_up = std::chrono::steady_clock::now() + 20s;
    while (std::chrono::steady_clock::now() < give_up) {
      pqxx::connection conn(conninfo_);
      pqxx::read_transaction txn(conn);
      std::vector<int> pids;
      for (const pqxx::row& row :
           txn.exec("SELECT pid FROM pg_stat_activity WHERE wait_event = 'SyncRep' ORDER BY pid")) {
        pids.push_back(row[0].as<int>());
      }
      if (pids.size() >= count) return pids;
      std::this_thread::sleep_for(20ms);
    }
    ADD_FAILURE() << "fewer than " << count << " backends ever waited for the standby";
    return {};
  }
  int64_t StoredEvents() {
    pqxx::connection conn(conninfo_);
    pqxx::read_transaction txn(conn);
    return txn.exec1("SELECT count(*) FROM events WHERE game_id = 'g'")[0].as<int64_t>();
  }
  std::future<absl::StatusOr<AppendResult>> AppendInTheBackground() {
    return std::async(std::launch::async, [this] {
      return store_->Append(Append("g", 0, "move-1", Events("g", 1)));
    });
  }
  // The append waits for the standby, then `fault` hits its backend (pid):
  // it must stay unanswered while its durability is unknown, and be stored
  // once, and answered as a first write, when the standby requirement goes.
  void ExpectAnsweredOnlyOnceDurable(const std::function<void(int pid)>& fault,
                                     std::size_t waiters_after_fault) {
    WaitForAStandby();
    std::future<absl::StatusOr<AppendResult>> answer = AppendInTheBackground();
    const std::vector<int> waiting = WaitersOnceThereAre(1);
    ASSERT_EQ(waiting.size(), 1u);
    fault(waiting[0]);
    // The look-up's own commit (or the cut-off one) waits for the standby.
    WaitersOnceThereAre(waiters_after_fault);
    ASSERT_EQ(answer.wait_for(300ms), std::future_status::timeout)
        << "answered while its durability was unknown";
    WaitForNoStandby();
    absl::StatusOr<AppendResult> result = answer.get();
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_EQ(result->last_sequence, 1);
    EXPECT_FALSE(result->replayed);
    EXPECT_EQ(StoredEvents(), 1);
    absl::StatusOr<AppendResult> again = store_->Append(Append("g", 0, "move-1", Events("g", 1)));
    ASSERT_TRUE(again.ok()) << again.status();
    EXPECT_TRUE(again->replayed);
    EXPECT_EQ(again->last_hash, result->last_hash);
  }

  std::string conninfo_;
  std::unique_ptr<SocketProxy> proxy_;
  std::unique_ptr<PostgresEventStore> store_;
};

TEST_F(CommitOutcomeTest, ACommitWhoseWaitForTheStandbyIsCancelledIsAnsweredOnlyOnceDurable) {
  // PostgreSQL: "the transaction has already committed locally, but might
  // not have been replicated to the standby". Then the look-up confirms it
  // with a commit of its own, which waits in turn.
  ExpectAnsweredOnlyOnceDurable(
      [this](int pid) { Sql(absl::StrCat("SELECT pg_cancel_backend(", pid, ")")); }, 1);
}

TEST_F(CommitOutcomeTest, ACommitWhoseBackendIsTerminatedIsLookedUpByItsRequestId) {
  ExpectAnsweredOnlyOnceDurable(
      [this](int pid) { Sql(absl::StrCat("SELECT pg_terminate_backend(", pid, ")")); }, 1);
}

TEST_F(CommitOutcomeTest, ACommitCutOffByTheNetworkWaitsForItsTransactionToEnd) {
  // The connection is cut while the backend waits: the backend goes on
  // waiting, its transaction in progress and its rows invisible. Not finding
  // them yet must not be taken for "not stored".
  ExpectAnsweredOnlyOnceDurable([this](int) { proxy_->CutAll(); }, 1);
}

TEST_F(CommitOutcomeTest, ACreationWhoseWaitForTheStandbyIsCancelledIsAnsweredOnlyOnceDurable) {
  // A creation is one statement in autocommit: the warning comes with it.
  WaitForAStandby();
  std::future<absl::StatusOr<GameRecord>> answer = std::async(
      std::launch::async, [this] { return store_->CreateGame(CreateRequest("h")); });
  const std::vector<int> waiting = WaitersOnceThereAre(1);
  ASSERT_EQ(waiting.size(), 1u);
  Sql(absl::StrCat("SELECT pg_cancel_backend(", waiting[0], ")"));
  WaitersOnceThereAre(1);  // the look-up's own commit
  ASSERT_EQ(answer.wait_for(300ms), std::future_status::timeout)
      << "answered while its durability was unknown";
  WaitForNoStandby();
  absl::StatusOr<GameRecord> created = answer.get();
  ASSERT_TRUE(created.ok()) << created.status();
  EXPECT_EQ(created->game_id, "h");
  absl::StatusOr<GameRecord> again = store_->CreateGame(CreateRequest("h"));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->last_hash, created->last_hash);
}

TEST_F(CommitOutcomeTest, AnAppendCutOffBeforeItsCommitIsAnsweredNotStored) {
  // The game's row is held, so the append waits for its lock, before COMMIT.
  pqxx::connection holder(conninfo_);
  pqxx::work hold(holder);
  hold.exec("SELECT 1 FROM games WHERE game_id = 'g' FOR UPDATE");
  std::future<absl::StatusOr<AppendResult>> answer = AppendInTheBackground();
  const auto give_up = std::chrono::steady_clock::now() + 20s;
  while (std::chrono::steady_clock::now() < give_up) {
    pqxx::connection conn(conninfo_);
    pqxx::read_transaction txn(conn);
    if (!txn.exec("SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock'").empty()) break;
    std::this_thread::sleep_for(20ms);
  }
  proxy_->CutAll();
  absl::StatusOr<AppendResult> result = answer.get();
  hold.abort();
  EXPECT_EQ(result.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(StoredEvents(), 0);
  absl::StatusOr<AppendResult> retry = store_->Append(Append("g", 0, "move-1", Events("g", 1)));
  ASSERT_TRUE(retry.ok()) << retry.status();
  EXPECT_FALSE(retry->replayed);
}

TEST(PgPoolBackOff, WhileNoServerAnswersCallsFailAtOnceWithoutANewAttempt) {
  pg::PgPoolOptions options;
  options.conninfo = "host=/nonexistent-arbiter-socket-dir port=1 connect_timeout=2";
  options.reconnect_backoff = absl::Seconds(30);
  pg::PgPool pool(options);
  absl::StatusOr<pg::PgPool::Lease> first = pool.Take();
  EXPECT_EQ(first.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(pool.connect_attempts(), 1);
  absl::StatusOr<pg::PgPool::Lease> second = pool.Take();
  EXPECT_EQ(second.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_NE(second.status().message().find("the next attempt is in"), std::string::npos)
      << second.status();
  EXPECT_NE(second.status().message().find("nonexistent-arbiter-socket-dir"), std::string::npos)
      << second.status();
  EXPECT_EQ(pool.connect_attempts(), 1);
}

TEST(PgPoolBackOff, AfterTheBackOffTheNextCallTriesAgain) {
  pg::PgPoolOptions options;
  options.conninfo = "host=/nonexistent-arbiter-socket-dir port=1";
  options.role = "";
  options.reconnect_backoff = absl::Milliseconds(50);
  pg::PgPool failing(options);
  EXPECT_FALSE(failing.Take().ok());
  absl::SleepFor(absl::Milliseconds(60));
  EXPECT_FALSE(failing.Take().ok());
  EXPECT_EQ(failing.connect_attempts(), 2);
}

TEST(PgPoolLoss, IdleConnectionsOpenedBeforeALossAreDroppedWithIt) {
  const std::string conninfo = testing::FreshDatabase();
  pg::PgPoolOptions options;
  options.conninfo = conninfo;
  options.role = "";
  pg::PgPool pool(options);
  {
    std::vector<pg::PgPool::Lease> leases;
    for (int i = 0; i < 3; ++i) {
      absl::StatusOr<pg::PgPool::Lease> lease = pool.Take();
      ASSERT_TRUE(lease.ok()) << lease.status();
      leases.push_back(std::move(*lease));
    }
  }
  EXPECT_EQ(pool.connect_attempts(), 3);
  {
    pqxx::connection admin(conninfo);
    pqxx::nontransaction txn(admin);
    txn.exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
             "WHERE pid <> pg_backend_pid() AND datname = current_database()");
  }
  auto ask = [&pool] {
    return pool.Run("asking", [](pqxx::connection_base& conn) -> absl::Status {
      pqxx::nontransaction txn(conn);
      txn.exec("SELECT 1");
      return absl::OkStatus();
    });
  };
  EXPECT_EQ(ask().code(), absl::StatusCode::kUnavailable);  // the first meets the loss
  EXPECT_TRUE(ask().ok());  // the others were dropped with it: a new connection
  EXPECT_EQ(pool.connect_attempts(), 4);
}

}  // namespace
}  // namespace arbiter::store
