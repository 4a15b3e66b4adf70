#include "tests/integration/league_server_fixture.h"

#include "absl/strings/str_cat.h"
#include "engine/core/ruleset_registry.h"

namespace arbiter::server::testing {

void LeagueServerTest::SetUp() {
  ServerTest::SetUp();
  ASSERT_NE(server_, nullptr);
  server_->Shutdown(std::chrono::system_clock::now());
  streams_ = std::make_unique<store::PostgresStreamStore>(events_->pool());
  projections_ = std::make_unique<league::ProjectionStore>(events_->pool());
  projector_ =
      std::make_unique<league::LeagueProjector>(*events_, *events_, *streams_, *projections_);
  parts_ = LeagueParts{streams_.get(), projections_.get(), projector_.get()};
  ServerOptions options;
  options.listen = "127.0.0.1:0";
  StartLeagueServer(options);
}

void LeagueServerTest::StartLeagueServer(ServerOptions options, store::pg::StandbyReads* reads) {
  static const engine::RulesetRegistry* const registry =
      new engine::RulesetRegistry(*engine::RulesetRegistry::WithBuiltins());
  auto server = ArbiterServer::Start(options, *events_, *events_, *tokens_, *registry, &parts_,
                                     nullptr, reads);
  ASSERT_TRUE(server.ok()) << server.status();
  server_ = *std::move(server);
  stub_ = StubFor(*server_);
  channel_ = grpc::CreateChannel(absl::StrCat("127.0.0.1:", server_->port()),
                                 grpc::InsecureChannelCredentials());
  leagues_ = v1::LeagueService::NewStub(channel_);
}

}  // namespace arbiter::server::testing
