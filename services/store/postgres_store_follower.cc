#include "services/store/postgres_store_follower.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <pqxx/pqxx>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "services/store/pg/pool.h"

namespace arbiter::store {
namespace {

constexpr char kChannel[] = "arbiter_events";
constexpr int kLookEveryMs = 1000;   // without a notification
constexpr int kReconnectMs = 200;    // after a lost connection

// The head, and each game with events in (after, head] with the highest of
// their positions; one row with a NULL game when there are none. Positions
// are recorded per batch (append_requests, migration 0004), so this reads a
// row per batch, not per event. One statement: one snapshot of store_head
// and the batches.
constexpr char kLook[] =
    "SELECT h.last_position, r.game_id, max(r.last_position) "
    "FROM store_head h LEFT JOIN append_requests r "
    "ON r.last_position > $1::bigint AND r.last_position <= h.last_position "
    "GROUP BY h.last_position, r.game_id";

// A notification only wakes the follower; what is new is read by position.
class Wake final : public pqxx::notification_receiver {
 public:
  explicit Wake(pqxx::connection_base& conn) : pqxx::notification_receiver(conn, kChannel) {}
  void operator()(const std::string&, int) override {}
};

}  // namespace

PostgresStoreFollower::PostgresStoreFollower(PostgresOptions options, StoreListener& listener)
    : options_(std::move(options)), listener_(listener) {
  wake_fd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  thread_ = std::thread([this] { Run(); });
}

PostgresStoreFollower::~PostgresStoreFollower() {
  stopping_ = true;
  if (wake_fd_ >= 0) {
    const uint64_t one = 1;
    (void)!write(wake_fd_, &one, sizeof one);
  }
  thread_.join();
  if (wake_fd_ >= 0) close(wake_fd_);
}

int64_t PostgresStoreFollower::Look(pqxx::connection& conn, int64_t through) {
  pqxx::result rows;
  {
    pqxx::nontransaction txn(conn);
    rows = txn.exec_prepared("follower_look", std::max<int64_t>(through, 0));
  }
  const int64_t head = rows[0][0].as<int64_t>();
  if (through < 0 || head < through) {
    // Starting (or the store is not the one followed so far): only the head
    // is known.
    listener_.OnStored(head, {}, true);
    return head;
  }
  std::vector<std::pair<std::string, int64_t>> games;
  for (const pqxx::row& row : rows) {
    if (!row[1].is_null()) games.emplace_back(row[1].as<std::string>(), row[2].as<int64_t>());
  }
  listener_.OnStored(head, games, false);
  return head;
}

void PostgresStoreFollower::Run() {
  int64_t through = -1;  // -1: not following yet
  // Waits up to `ms` for the connection's socket (if any) or for the stop.
  auto wait = [this](int socket, int ms) {
    pollfd fds[2] = {{wake_fd_, POLLIN, 0}, {socket, POLLIN, 0}};
    (void)poll(fds, 2, ms);
  };
  while (!stopping_) {
    try {
      pqxx::connection conn(options_.conninfo);
      pg::SetUpConnection(conn, options_.role);
      Wake wake(conn);  // LISTEN before the first look: no commit falls between
      conn.prepare("follower_look", kLook);
      while (!stopping_) {
        through = Look(conn, through);
        wait(conn.sock(), kLookEveryMs);
        conn.get_notifs();  // throws if the connection was lost
      }
    } catch (const std::exception&) {
      if (stopping_) break;
      listener_.OnLost();
      wait(-1, kReconnectMs);
    }
  }
}

}  // namespace arbiter::store
