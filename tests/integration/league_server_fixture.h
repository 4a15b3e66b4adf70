// A ServerTest whose server also serves leagues, tournaments and disputes:
// the league projection parts over the same database, and a LeagueService
// stub on a channel that other stubs may share.
#ifndef ARBITER_TESTS_INTEGRATION_LEAGUE_SERVER_FIXTURE_H_
#define ARBITER_TESTS_INTEGRATION_LEAGUE_SERVER_FIXTURE_H_

#include <memory>

#include "arbiter/v1/league_service.grpc.pb.h"
#include "services/league/league_projector.h"
#include "services/league/projection_store.h"
#include "services/store/pg/standby_reads.h"
#include "services/store/postgres_stream_store.h"
#include "tests/integration/server_fixture.h"

namespace arbiter::server::testing {

class LeagueServerTest : public ServerTest {
 protected:
  // Replaces the plain server ServerTest started with one that has the
  // league parts; stub_ talks to it.
  void SetUp() override;
  // Starts a server with the league parts and `options` (reading from the
  // standbys of `reads` when given) in place of server_; stub_ and
  // leagues_ talk to it over channel_.
  void StartLeagueServer(ServerOptions options, store::pg::StandbyReads* reads = nullptr);

  std::unique_ptr<store::PostgresStreamStore> streams_;
  std::unique_ptr<league::ProjectionStore> projections_;
  std::unique_ptr<league::LeagueProjector> projector_;
  LeagueParts parts_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::LeagueService::Stub> leagues_;
};

}  // namespace arbiter::server::testing

#endif  // ARBITER_TESTS_INTEGRATION_LEAGUE_SERVER_FIXTURE_H_
