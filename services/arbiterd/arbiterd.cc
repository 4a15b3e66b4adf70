#include "services/arbiterd/arbiterd.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/core/status_macros.h"
#include "services/arbiterd/transparency_key.h"
#include "services/health/prometheus_text.h"
#include "services/health/standby_read_figures.h"
#include "services/store/token_store.h"

namespace arbiter::arbiterd {
namespace {

// `status` with what failed in front, as arbiterd reports it.
absl::Status Prefixed(const char* what, const absl::Status& status) {
  return absl::Status(status.code(), absl::StrCat(what, ": ", status.message()));
}

// "host:port" with the port actually bound.
std::string AddressOf(const std::string& listen, int port) {
  return listen.substr(0, listen.rfind(':')) + ":" + std::to_string(port);
}

}  // namespace

absl::StatusOr<std::unique_ptr<Arbiterd>> Arbiterd::Start(const Flags& flags) {
  std::unique_ptr<Arbiterd> d(new Arbiterd(flags));
  absl::StatusOr<engine::RulesetRegistry> registry = engine::RulesetRegistry::WithBuiltins();
  if (!registry.ok()) return Prefixed("rulesets", registry.status());
  d->registry_ = std::make_unique<engine::RulesetRegistry>(*std::move(registry));
  ARBITER_RETURN_IF_ERROR(d->OpenDatabase());
  ARBITER_RETURN_IF_ERROR(d->StartLeases());
  ARBITER_RETURN_IF_ERROR(d->StartTransparency());
  d->StartLeagues();
  if (flags.reveal_sweep_seconds > 0) {
    d->sweeper_lease_ = d->Keeper(games::kRevealSweeperLease);
    d->sweeper_ = std::make_unique<games::RevealSweeper>(*d->db_->events,
                                                         absl::Seconds(flags.reveal_sweep_seconds));
    d->sweeper_->UseLease(*d->sweeper_lease_);
    d->sweeper_->Start();
  }
  ARBITER_RETURN_IF_ERROR(d->StartServer());
  d->StartHealth();
  ARBITER_RETURN_IF_ERROR(d->StartWebsite());
  return d;
}

absl::Status Arbiterd::OpenDatabase() {
  spdlog::info("opening the database ({})",
               flags_.database.url.empty() ? "embedded, in " + flags_.database.data_dir + "/postgres"
                                           : "from --database");
  absl::StatusOr<Database> db = arbiterd::OpenDatabase(flags_.database);
  if (!db.ok()) return Prefixed("database", db.status());
  db_.emplace(*std::move(db));
  // Before anything is written: a server whose transparency key or origin
  // is not the one the database's log is bound to stops here.
  absl::StatusOr<transparency::LoadedKey> key =
      TakeTransparencyKey(db_->events->pool(), flags_.transparency_key, flags_.log_origin);
  if (!key.ok()) return Prefixed("transparency key", key.status());
  key_.emplace(*std::move(key));
  absl::StatusOr<std::optional<std::string>> token_file =
      BootstrapAdminToken(*db_->tokens, flags_.database.data_dir);
  if (!token_file.ok()) return Prefixed("admin token", token_file.status());
  admin_token_file_ = *token_file;
  return absl::OkStatus();
}

absl::Status Arbiterd::StartLeases() {
  if (flags_.lease_renew_seconds >= flags_.lease_seconds) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--lease-renew-seconds (", flags_.lease_renew_seconds,
        ") must be less than --lease-seconds (", flags_.lease_seconds, ")"));
  }
  lease_table_ = std::make_unique<store::pg::LeaseTable>(db_->events->pool());
  holder_ = store::NewLeaseHolderId();
  spdlog::info("leases: this server's holder id is {} (time to live {}s, renewed every {}s)",
               holder_, flags_.lease_seconds, flags_.lease_renew_seconds);
  return absl::OkStatus();
}

std::unique_ptr<store::LeaseKeeper> Arbiterd::Keeper(const char* name) {
  store::LeaseTiming timing;
  timing.ttl = absl::Seconds(flags_.lease_seconds);
  timing.renew_every = absl::Seconds(flags_.lease_renew_seconds);
  auto keeper = std::make_unique<store::LeaseKeeper>(*lease_table_, name, holder_, timing);
  keeper->Start();
  return keeper;
}

absl::Status Arbiterd::StartTransparency() {
  // The signing key lives outside the database, created on the first start
  // like the admin token, and taken in OpenDatabase.
  transparency_ = std::make_unique<transparency::TransparencyLog>(db_->events->pool(), key_->signer);
  transparency_lease_ = Keeper(transparency::kTransparencyLease);
  transparency_->UseLease(*transparency_lease_);
  transparency_->Start(absl::Milliseconds(200), absl::Seconds(flags_.checkpoint_seconds));
  return absl::OkStatus();
}

void Arbiterd::StartLeagues() {
  // League logs live in the same database; the projector keeps their
  // ratings up to date with the store.
  streams_ = std::make_unique<store::PostgresStreamStore>(db_->events->pool());
  projections_ = std::make_unique<league::ProjectionStore>(db_->events->pool());
  projector_ = std::make_unique<league::LeagueProjector>(*db_->events, *db_->events, *streams_,
                                                         *projections_);
  projector_lease_ = Keeper(league::kProjectorLease);
  projector_->UseLease(*projector_lease_);
  projector_->Start();
  leagues_.emplace(server::LeagueParts{streams_.get(), projections_.get(), projector_.get()});
}

absl::Status Arbiterd::StartServer() {
  ARBITER_ASSIGN_OR_RETURN(
      std::unique_ptr<server::ArbiterServer> started,
      server::ArbiterServer::Start(flags_.server, *db_->events,
                                   *db_->events,  // its own result index
                                   *db_->tokens, *registry_, &*leagues_, transparency_.get(),
                                   db_->standby_reads.get()));
  server_ = std::move(started);
  return absl::OkStatus();
}

void Arbiterd::StartHealth() {
  const health::HealthOptions options;
  health_source_ =
      std::make_unique<health::PgHealthSource>(db_->events->pool(), options.policy.bound);
  server::ArbiterServer* server = server_.get();
  health_ = std::make_unique<health::HealthMonitor>(
      *health_source_, options, [server](bool ready) { server->SetReady(ready); });
  health_->Start();
  const store::FollowerProgress* progress = &server_->follower_progress();
  metrics_ = std::make_unique<health::LagMetrics>(*health_, *health_source_, [progress] {
    return health::FollowerState{progress->position(), progress->connected()};
  });
}

web::HealthHooks Arbiterd::WebHealth() const {
  web::HealthHooks hooks;
  health::HealthMonitor* monitor = health_.get();
  hooks.ready = [monitor] {
    const health::Readiness readiness = monitor->Current().readiness;
    return web::ReadyAnswer{readiness.ready, readiness.reason};
  };
  health::LagMetrics* metrics = metrics_.get();
  store::pg::StandbyReads* reads = db_->standby_reads.get();
  hooks.metrics = [metrics, reads] {
    std::string text = metrics->Text();
    if (reads != nullptr) text += health::StandbyReadFigures(reads->Stats());
    return text;
  };
  hooks.metrics_content_type = health::PrometheusText::kContentType;
  return hooks;
}

absl::Status Arbiterd::StartWebsite() {
  if (flags_.web.listen.empty()) return absl::OkStatus();
  // The website calls the services through the in-process channel, as the
  // public role unless a visitor signs in.
  absl::StatusOr<std::string> token = server_->AddInProcessToken(store::Role::kPublic, "web");
  if (!token.ok()) return Prefixed("web token", token.status());
  ARBITER_ASSIGN_OR_RETURN(std::unique_ptr<web::WebServer> started, web::WebServer::Start(flags_.web, server_->InProcessChannel(), *token, WebHealth()));
  web_ = std::move(started);
  return absl::OkStatus();
}

void Arbiterd::PrintBanner() const {
  if (key_->created) {
    std::printf("First start: wrote the checkpoint signing key to %s (mode 0600); auditors verify "
                "with %s.\n",
                key_->key_path.c_str(), key_->public_key_path.c_str());
  }
  if (admin_token_file_.has_value()) {
    std::printf("First start: wrote a bootstrap admin token to %s (mode 0600).\n",
                admin_token_file_->c_str());
  }
  const bool tls = !flags_.server.tls_cert_file.empty();
  const std::string address = AddressOf(flags_.server.listen, server_->port());
  const char* data_dir = flags_.database.data_dir.c_str();
  std::printf(
      "arbiterd is listening on %s (%s).\n"
      "Connect with:\n"
      "  arbiter games --server %s%s --token-file %s/admin.token\n"
      "  grpcurl %s-H \"authorization: Bearer $(cat %s/admin.token)\" %s list\n",
      address.c_str(), tls ? "TLS" : "plaintext", address.c_str(), tls ? " --tls" : "", data_dir,
      tls ? "" : "-plaintext ", data_dir, address.c_str());
  if (web_ != nullptr) {
    std::string web_host = flags_.web.listen.substr(0, flags_.web.listen.rfind(':'));
    if (web_host.empty() || web_host == "0.0.0.0") web_host = "127.0.0.1";
    std::printf("The website is at http://%s:%d/\n", web_host.c_str(), web_->port());
  }
  std::fflush(stdout);
}

void Arbiterd::Stop() {
  if (stopped_) return;
  stopped_ = true;
  // No readiness change may reach the gRPC health service once it is
  // shutting down: the monitor stops first.
  if (health_ != nullptr) health_->Stop();
  if (web_ != nullptr) web_->Stop();
  if (server_ != nullptr) {
    server_->Shutdown(std::chrono::system_clock::now() +
                      std::chrono::seconds(flags_.grace_seconds));
    server_.reset();
  }
  if (sweeper_ != nullptr) sweeper_->Stop();
  if (projector_ != nullptr) projector_->Stop();
  if (transparency_ != nullptr) transparency_->Stop();
  // Released, so that another server takes each over at its next try.
  for (auto* keeper : {&sweeper_lease_, &projector_lease_, &transparency_lease_}) {
    if (*keeper != nullptr) (*keeper)->Stop();
  }
  if (!db_.has_value()) return;
  db_->standby_reads.reset();  // it routes from the event store's pool
  db_->tokens.reset();  // it uses the event store's pool
  db_->events.reset();
  if (db_->embedded != nullptr) {
    if (absl::Status s = db_->embedded->Stop(); !s.ok()) {
      spdlog::error("stopping PostgreSQL: {}", std::string(s.message()));
    }
  }
}

}  // namespace arbiter::arbiterd
