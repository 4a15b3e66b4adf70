#include "services/server/server.h"

#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/health_check_service_interface.h>
#include <grpcpp/resource_quota.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server_builder.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/core/status_macros.h"
#include "services/league/league_check_impl.h"
#include "services/server/early_auth.h"
#include "services/server/request_limits.h"
#include "services/tournament/tournament_league_impl.h"

namespace arbiter::server {
namespace {

absl::StatusOr<std::string> ReadFile(const std::string& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::InvalidArgumentError(absl::StrCat("cannot read the TLS ", what, " ", path));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

bool IsLoopbackAddress(const std::string& listen) {
  if (absl::StartsWith(listen, "unix:") || absl::StartsWith(listen, "unix-abstract:")) return true;
  std::string host = listen.substr(0, listen.rfind(':'));
  if (absl::StartsWith(host, "[") && absl::EndsWith(host, "]")) {
    host = host.substr(1, host.size() - 2);
  }
  if (host == "localhost" || host == "::1") return true;
  // 127.0.0.0/8, written as a dotted quad.
  std::vector<std::string> parts = absl::StrSplit(host, '.');
  if (parts.size() != 4 || parts[0] != "127") return false;
  for (const std::string& part : parts) {
    int n = 0;
    if (part.empty() || part.size() > 3 || !absl::SimpleAtoi(part, &n) || n < 0 || n > 255) {
      return false;
    }
  }
  return true;
}

ArbiterServer::ArbiterServer(store::EventStore& store, store::ResultIndex& results,
                             store::TokenStore& tokens,
                             const engine::RulesetRegistry& registry, const ServerOptions& options,
                             const LeagueParts* leagues,
                             transparency::TransparencyLog* transparency,
                             store::pg::StandbyReads* standby_reads)
    : auth_(tokens),
      routing_(standby_reads, absl::Milliseconds(options.read_wait_ms)),
      league_check_(leagues != nullptr
                        ? std::make_unique<league::StreamLeagueCheck>(*leagues->streams)
                        : nullptr),
      tournament_leagues_(
          leagues != nullptr
              ? std::make_unique<tournament::StreamTournamentLeagues>(*leagues->streams)
              : nullptr),
      writer_(store, registry, options.limits, league_check_.get(), tournament_leagues_.get()),
      arbiter_service_(store, results, registry, auth_, writer_, options.watch, &routing_,
                       options.append_streams),
      token_service_(tokens, store, auth_, tournament_leagues_.get()) {
  if (leagues != nullptr) {
    league_service_ = std::make_unique<LeagueServiceImpl>(*leagues->streams, *leagues->projections,
                                                          *leagues->projector, auth_, &routing_);
    tournament_service_ = std::make_unique<TournamentServiceImpl>(
        *leagues->streams, store, results, writer_, auth_, &routing_);
    dispute_service_ = std::make_unique<DisputeServiceImpl>(*leagues->streams, store, results,
                                                            writer_, registry, auth_, &routing_);
  }
  if (transparency != nullptr) {
    transparency_service_ = std::make_unique<TransparencyServiceImpl>(
        store, leagues != nullptr ? leagues->streams : nullptr, *transparency, auth_, &routing_);
    arbiter_service_.set_transparency(transparency);
  }
}

ArbiterServer::~ArbiterServer() {
  if (!shut_down_) Shutdown(std::chrono::system_clock::now());
}

absl::StatusOr<std::unique_ptr<ArbiterServer>> ArbiterServer::Start(
    const ServerOptions& options, store::EventStore& store, store::ResultIndex& results,
    store::TokenStore& tokens, const engine::RulesetRegistry& registry, const LeagueParts* leagues,
    transparency::TransparencyLog* transparency, store::pg::StandbyReads* standby_reads) {
  ARBITER_ASSIGN_OR_RETURN(Credentials credentials, CredentialsFor(options));
  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  std::unique_ptr<ArbiterServer> server(
      new ArbiterServer(store, results, tokens, registry, options, leagues, transparency,
                        standby_reads));
  if (credentials.takes_auth_processor) {
    server->early_auth_ = std::make_shared<EarlyAuthProcessor>(server->auth_);
    credentials.credentials->SetAuthMetadataProcessor(server->early_auth_);
  }
  grpc::ServerBuilder builder;
  builder.AddListeningPort(options.listen, credentials.credentials, &server->port_);
  Configure(builder, options);
  grpc::ResourceQuota quota("arbiterd");
  quota.Resize(static_cast<std::size_t>(
      std::max<int64_t>(int64_t{64} << 20, options.memory_quota_bytes)));
  quota.SetMaxThreads(std::max(options.max_threads, options.idle_threads + 2));
  builder.SetResourceQuota(quota);
  server->RegisterServices(builder);
  server->server_ = builder.BuildAndStart();
  if (server->server_ == nullptr || server->port_ == 0) {
    server->shut_down_ = true;
    return absl::UnavailableError(absl::StrCat("cannot listen on ", options.listen));
  }
  server->MarkServing();
  return server;
}

absl::StatusOr<ArbiterServer::Credentials> ArbiterServer::CredentialsFor(
    const ServerOptions& options) {
  if (options.tls_cert_file.empty() != options.tls_key_file.empty()) {
    return absl::InvalidArgumentError("TLS needs both a certificate and a key file");
  }
  if (!options.tls_cert_file.empty()) {
    ARBITER_ASSIGN_OR_RETURN(const std::string cert, ReadFile(options.tls_cert_file, "certificate"));
    ARBITER_ASSIGN_OR_RETURN(const std::string key, ReadFile(options.tls_key_file, "key"));
    grpc::SslServerCredentialsOptions ssl;
    ssl.pem_key_cert_pairs.push_back({key, cert});
    return Credentials{grpc::SslServerCredentials(ssl), true};
  }
  if (!options.insecure && !IsLoopbackAddress(options.listen)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "refusing to listen on ", options.listen,
        " without TLS: bearer tokens would cross the network in clear. Give --tls-cert and "
        "--tls-key, listen on a loopback address, or pass --insecure (e.g. behind a proxy "
        "that terminates TLS)"));
  }
  // Local credentials: plaintext on the wire, but they accept an
  // AuthMetadataProcessor (and only loopback peers).
  if (!options.insecure || IsLoopbackAddress(options.listen)) {
    return Credentials{grpc::experimental::LocalServerCredentials(
                           absl::StartsWith(options.listen, "unix") ? UDS : LOCAL_TCP),
                       true};
  }
  return Credentials{grpc::InsecureServerCredentials(), false};
}

void ArbiterServer::Configure(grpc::ServerBuilder& builder, const ServerOptions& options) {
  builder.SetMaxReceiveMessageSize(options.max_message_bytes);
  builder.SetMaxSendMessageSize(options.max_message_bytes);
  std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> interceptors;
  interceptors.push_back(std::make_unique<RequestSizeInterceptorFactory>(options.max_message_bytes));
  builder.experimental().SetInterceptorCreators(std::move(interceptors));
  builder.SetSyncServerOption(grpc::ServerBuilder::SyncServerOption::MAX_POLLERS,
                              std::max(1, options.idle_threads));
}

void ArbiterServer::RegisterServices(grpc::ServerBuilder& builder) {
  builder.RegisterService(&arbiter_service_);
  builder.RegisterService(&token_service_);
  if (league_service_ != nullptr) builder.RegisterService(league_service_.get());
  if (tournament_service_ != nullptr) {
    builder.RegisterService(tournament_service_.get());
    builder.RegisterService(dispute_service_.get());
  }
  if (transparency_service_ != nullptr) builder.RegisterService(transparency_service_.get());
}

void ArbiterServer::MarkServing() {
  grpc::HealthCheckServiceInterface* health = server_->GetHealthCheckService();
  if (health == nullptr) return;
  std::vector<std::string> names = {kReadinessService, "arbiter.v1.ArbiterService",
                                    "arbiter.v1.TokenService"};
  if (league_service_ != nullptr) {
    names.insert(names.end(), {"arbiter.v1.LeagueService", "arbiter.v1.TournamentService",
                               "arbiter.v1.DisputeService"});
  }
  if (transparency_service_ != nullptr) names.push_back("arbiter.v1.TransparencyService");
  health->SetServingStatus(true);  // "": liveness
  for (const std::string& name : names) health->SetServingStatus(name, true);
  absl::MutexLock lock(&health_mu_);
  health_names_ = std::move(names);
}

void ArbiterServer::SetReady(bool ready) {
  absl::MutexLock lock(&health_mu_);
  grpc::HealthCheckServiceInterface* health =
      server_ == nullptr ? nullptr : server_->GetHealthCheckService();
  if (health_final_ || health == nullptr) return;
  for (const std::string& name : health_names_) health->SetServingStatus(name, ready);
}

std::shared_ptr<grpc::Channel> ArbiterServer::InProcessChannel() {
  grpc::ChannelArguments arguments;
  return server_->InProcessChannel(arguments);
}

absl::StatusOr<std::string> ArbiterServer::AddInProcessToken(store::Role role,
                                                            const std::string& principal) {
  access::Caller caller;
  caller.principal = principal;
  caller.role = role;
  return auth_.AddInProcessToken(caller);
}

void ArbiterServer::Shutdown(std::chrono::system_clock::time_point deadline) {
  if (shut_down_) return;
  shut_down_ = true;
  {
    absl::MutexLock lock(&health_mu_);
    health_final_ = true;
    if (grpc::HealthCheckServiceInterface* health = server_->GetHealthCheckService()) {
      health->SetServingStatus(false);
    }
  }
  server_->Shutdown(deadline);
  server_->Wait();
}

}  // namespace arbiter::server
