// Lease takeover of the singletons (docs/replication.md, "Singletons";
// figures in docs/benchmarks.md). Not a Google Benchmark program: it times
// whole takeovers, seconds each.
//
// Two "servers" in this process, each with its own connection pool, lease
// keepers and singletons as arbiterd starts them (the league projector every
// 50 ms, the transparency log's builder every 200 ms), on a private
// PostgreSQL, while a writer appends a game's event every 10 ms. Server a
// holds both leases; server b stands by. Then a dies: its singletons and
// keepers stop without releasing anything, at a point of its renewal cycle
// that moves from round to round. The program measures the time from the
// death to b's first write: for the projector, the first checkpoint past the
// store's head once a has stopped; for the builder, the first tree larger
// than a left it. A round ends with both servers stopped (leases released), so each
// round starts afresh.
//
// Run: build/bin/lease_takeover [--ttl-ms 10000 --renew-ms 3000] [--rounds 5]
#include <CLI/CLI.hpp>
#include <pqxx/pqxx>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "engine/core/sha256.h"
#include "services/league/league_projector.h"
#include "services/league/projection_store.h"
#include "services/store/embedded_postgres.h"
#include "services/store/lease_keeper.h"
#include "services/store/migrations.h"
#include "services/store/pg/leases.h"
#include "services/store/postgres_event_store.h"
#include "services/store/postgres_stream_store.h"
#include "services/transparency/transparency_log.h"
#include "spdlog/spdlog.h"

namespace arbiter {
namespace {

void Die(const absl::Status& status) {
  std::fprintf(stderr, "lease_takeover: %s\n", status.ToString().c_str());
  std::exit(1);
}

std::unique_ptr<store::PostgresEventStore> OpenStore(const std::string& conninfo) {
  store::PostgresOptions options;
  options.conninfo = conninfo;
  absl::StatusOr<std::unique_ptr<store::PostgresEventStore>> opened =
      store::PostgresEventStore::Open(options);
  if (!opened.ok()) Die(opened.status());
  return *std::move(opened);
}

// One arbiterd's share: its pool (through its store), its leases and the
// two singletons whose takeover is measured.
class Server {
 public:
  Server(const std::string& conninfo, const std::string& holder, store::LeaseTiming timing)
      : store_(OpenStore(conninfo)),
        table_(store_->pool()),
        streams_(store_->pool()),
        projections_(store_->pool()),
        projector_(*store_, *store_, streams_, projections_),
        log_(store_->pool(), *transparency::NoteSigner::Generate("bench.example/log")),
        projector_lease_(table_, league::kProjectorLease, holder, timing),
        log_lease_(table_, transparency::kTransparencyLease, holder, timing) {
    projector_lease_.Start();
    log_lease_.Start();
    projector_.UseLease(projector_lease_);
    log_.UseLease(log_lease_);
    projector_.Start(absl::Milliseconds(50));
    log_.Start(absl::Milliseconds(200), absl::Seconds(10));
  }
  ~Server() { Stop(); }

  bool HoldsBoth() const { return projector_lease_.Held() && log_lease_.Held(); }

  // Dies: stops working and renewing, releases nothing.
  void Die() {
    projector_.Stop();
    log_.Stop();
    projector_lease_.Abandon();
    log_lease_.Abandon();
  }
  void Stop() {
    projector_.Stop();
    log_.Stop();
    projector_lease_.Stop();
    log_lease_.Stop();
  }

  store::PostgresEventStore& store() { return *store_; }

 private:
  std::unique_ptr<store::PostgresEventStore> store_;
  store::pg::LeaseTable table_;
  store::PostgresStreamStore streams_;
  league::ProjectionStore projections_;
  league::LeagueProjector projector_;
  transparency::TransparencyLog log_;
  store::LeaseKeeper projector_lease_;
  store::LeaseKeeper log_lease_;
};

// Appends one event every 10 ms to games of its own until stopped.
class Writer {
 public:
  explicit Writer(store::PostgresEventStore& store) : store_(store) {
    thread_ = std::thread([this] { Run(); });
  }
  ~Writer() {
    stop_ = true;
    thread_.join();
  }

 private:
  void Run() {
    static std::atomic<int> games{0};
    const std::string id = absl::StrCat("load-", games++);
    store::CreateGameRequest create;
    create.request_id = "create-" + id;
    create.game.game_id = id;
    create.game.game = "atlantica";
    create.game.ruleset_id = "standard";
    create.game.ruleset_hash = engine::Sha256Hex("standard");
    create.game.seed = 7;
    create.game.players = {"ana", "ben"};
    create.game.created_by = "bench";
    if (absl::Status s = store_.CreateGame(create).status(); !s.ok()) arbiter::Die(s);
    for (int64_t sequence = 0; !stop_; ++sequence) {
      store::AppendRequest append;
      append.game_id = id;
      append.expected_sequence = sequence;
      append.request_id = absl::StrCat(id, "-", sequence);
      append.recorded_by = "bench";
      store::NewEvent event;
      event.event_id = absl::StrCat(id, "/", sequence);
      event.type = "action";
      event.payload = absl::StrCat("move ", sequence);
      append.events.push_back(event);
      if (absl::Status s = store_.Append(append).status(); !s.ok()) arbiter::Die(s);
      absl::SleepFor(absl::Milliseconds(10));
    }
  }

  store::PostgresEventStore& store_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

int64_t Scalar(pqxx::connection& conn, const std::string& sql) {
  pqxx::nontransaction txn(conn);
  pqxx::result rows = txn.exec(sql);
  return rows.empty() || rows[0][0].is_null() ? 0 : rows[0][0].as<int64_t>();
}

struct Round {
  double projector_seconds = 0;
  double builder_seconds = 0;
};

Round RunRound(const std::string& conninfo, store::LeaseTiming timing, int round, int rounds) {
  Server a(conninfo, absl::StrCat("a", round), timing);
  Server b(conninfo, absl::StrCat("b", round), timing);
  if (!a.HoldsBoth()) Die(absl::InternalError("the first server does not hold the leases"));
  Writer writer(a.store());
  // Die at a point of a's renewal cycle that moves from round to round.
  absl::SleepFor(timing.renew_every * 2 + timing.renew_every * round / rounds);
  pqxx::connection conn(conninfo);
  const absl::Time died = absl::Now();
  a.Die();
  // What a wrote, its steps in flight included (b cannot write before a's
  // grants lapse, a ttl less a renewal period from now at the soonest).
  const int64_t head = Scalar(conn, "SELECT last_position FROM store_head");
  const int64_t tree = Scalar(conn, "SELECT tree_size FROM transparency_head");
  Round out;
  const absl::Time give_up = died + timing.ttl * 3 + absl::Seconds(10);
  while ((out.projector_seconds == 0 || out.builder_seconds == 0) && absl::Now() < give_up) {
    const double since = absl::ToDoubleSeconds(absl::Now() - died);
    if (out.projector_seconds == 0 &&
        Scalar(conn, "SELECT position FROM projector_checkpoints WHERE projector = 'leagues'") >
            head) {
      out.projector_seconds = since;
    }
    if (out.builder_seconds == 0 && Scalar(conn, "SELECT tree_size FROM transparency_head") > tree) {
      out.builder_seconds = since;
    }
    absl::SleepFor(absl::Milliseconds(2));
  }
  if (out.projector_seconds == 0 || out.builder_seconds == 0) {
    Die(absl::DeadlineExceededError("no takeover within three ttls"));
  }
  return out;
}

double Percentile(std::vector<double> values, double p) {
  std::sort(values.begin(), values.end());
  const std::size_t at = static_cast<std::size_t>(p * static_cast<double>(values.size() - 1) + 0.5);
  return values[at];
}

int Run(int argc, char** argv) {
  CLI::App app{"lease_takeover: time from a singleton holder's death to the next holder's write"};
  int ttl_ms = 10'000;
  int renew_ms = 3'000;
  int rounds = 5;
  app.add_option("--ttl-ms", ttl_ms, "Lease time to live")->capture_default_str();
  app.add_option("--renew-ms", renew_ms, "Renewal period")->capture_default_str();
  app.add_option("--rounds", rounds, "Deaths measured")->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  spdlog::set_level(spdlog::level::warn);  // lease changes are logged at info
  store::EmbeddedPostgresOptions options;
  options.extra_config = "shared_buffers = '128MB'\n";
  absl::StatusOr<std::unique_ptr<store::EmbeddedPostgres>> pg = store::EmbeddedPostgres::Start(options);
  if (!pg.ok()) Die(pg.status());
  {
    pqxx::connection admin((*pg)->ConninfoFor("postgres"));
    pqxx::nontransaction txn(admin);
    txn.exec("CREATE DATABASE leases");
  }
  const std::string conninfo = (*pg)->ConninfoFor("leases");
  if (absl::Status s = store::ApplyMigrations(conninfo); !s.ok()) Die(s);
  store::LeaseTiming timing;
  timing.ttl = absl::Milliseconds(ttl_ms);
  timing.renew_every = absl::Milliseconds(renew_ms);
  std::vector<double> projector, builder;
  std::printf("ttl %d ms, renewed every %d ms, %d rounds\nround  projector  builder\n", ttl_ms,
              renew_ms, rounds);
  for (int round = 0; round < rounds; ++round) {
    const Round r = RunRound(conninfo, timing, round, rounds);
    std::printf("%5d  %8.3fs  %6.3fs\n", round, r.projector_seconds, r.builder_seconds);
    std::fflush(stdout);
    projector.push_back(r.projector_seconds);
    builder.push_back(r.builder_seconds);
  }
  for (const auto& [name, values] : {std::pair{"projector", projector}, std::pair{"builder", builder}}) {
    std::printf("%-9s  min %.3fs  median %.3fs  max %.3fs\n", name,
                *std::min_element(values.begin(), values.end()), Percentile(values, 0.5),
                *std::max_element(values.begin(), values.end()));
  }
  if (absl::Status s = (*pg)->Stop(); !s.ok()) Die(s);
  return 0;
}

}  // namespace
}  // namespace arbiter

int main(int argc, char** argv) { return arbiter::Run(argc, argv); }
