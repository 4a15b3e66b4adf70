// Arbiterd: every part of a running arbiterd, started in order and stopped
// in reverse: the database and its stores, the leases, the transparency
// log's builder, the league projector, the reveal sweeper (each running only
// while this server holds its lease), the gRPC server, its health (readiness
// and the lag figures, services/health) and the website.
// The composition root: the only place that knows all of them.
// Start and Stop from one thread (main's).
#ifndef ARBITER_SERVICES_ARBITERD_ARBITERD_H_
#define ARBITER_SERVICES_ARBITERD_ARBITERD_H_

#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "engine/core/ruleset_registry.h"
#include "services/arbiterd/database.h"
#include "services/arbiterd/flags.h"
#include "services/games/reveal_sweep.h"
#include "services/health/health_monitor.h"
#include "services/health/health_source.h"
#include "services/health/lag_metrics.h"
#include "services/league/league_projector.h"
#include "services/league/projection_store.h"
#include "services/server/server.h"
#include "services/store/lease_keeper.h"
#include "services/store/pg/leases.h"
#include "services/store/postgres_stream_store.h"
#include "services/transparency/key_file.h"
#include "services/transparency/transparency_log.h"
#include "services/web/web_server.h"

namespace arbiter::arbiterd {

class Arbiterd {
 public:
  // Opens the database (starting the embedded cluster and migrating it if
  // need be), writes the bootstrap admin token and the signing key on the
  // first start, and starts every part. A transparency key or log origin
  // other than the one the database's log is bound to (transparency_key.h)
  // is refused before anything is written. The first failure is returned with
  // what failed ("database: ...", "transparency key: ..."); the parts
  // already started are stopped.
  static absl::StatusOr<std::unique_ptr<Arbiterd>> Start(const Flags& flags);
  ~Arbiterd() { Stop(); }

  // What a person needs to connect, printed on stdout: first-start files,
  // the gRPC address and the website's.
  void PrintBanner() const;

  // Stops taking calls, lets calls in flight finish within the grace
  // period, stops every part and then the database. Idempotent.
  void Stop();

  // The ports actually bound (the website's: 0 without one).
  int grpc_port() const { return server_->port(); }
  int web_port() const { return web_ == nullptr ? 0 : web_->port(); }

 private:
  explicit Arbiterd(const Flags& flags) : flags_(flags) {}
  absl::Status OpenDatabase();
  // The lease table and this process's holder id; a started keeper per
  // singleton (docs/replication.md, "Singletons").
  absl::Status StartLeases();
  std::unique_ptr<store::LeaseKeeper> Keeper(const char* name);
  absl::Status StartTransparency();
  void StartLeagues();
  absl::Status StartServer();
  // The readiness probe (the gRPC health service follows it) and the lag
  // figures, for the website's /readyz and /metrics.
  void StartHealth();
  // What the website's /readyz and /metrics ask.
  web::HealthHooks WebHealth() const;
  absl::Status StartWebsite();

  const Flags flags_;
  std::unique_ptr<engine::RulesetRegistry> registry_;
  std::optional<Database> db_;
  std::optional<std::string> admin_token_file_;  // written on this start
  std::unique_ptr<store::pg::LeaseTable> lease_table_;
  std::string holder_;
  std::unique_ptr<store::LeaseKeeper> transparency_lease_;
  std::unique_ptr<store::LeaseKeeper> projector_lease_;
  std::unique_ptr<store::LeaseKeeper> sweeper_lease_;
  std::optional<transparency::LoadedKey> key_;
  std::unique_ptr<transparency::TransparencyLog> transparency_;
  std::unique_ptr<store::PostgresStreamStore> streams_;
  std::unique_ptr<league::ProjectionStore> projections_;
  std::unique_ptr<league::LeagueProjector> projector_;
  std::optional<server::LeagueParts> leagues_;
  std::unique_ptr<games::RevealSweeper> sweeper_;
  std::unique_ptr<server::ArbiterServer> server_;
  std::unique_ptr<health::PgHealthSource> health_source_;
  std::unique_ptr<health::HealthMonitor> health_;
  std::unique_ptr<health::LagMetrics> metrics_;
  std::unique_ptr<web::WebServer> web_;
  bool stopped_ = false;
};

}  // namespace arbiter::arbiterd

#endif  // ARBITER_SERVICES_ARBITERD_ARBITERD_H_
