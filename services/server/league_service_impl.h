// LeagueServiceImpl: the LeagueService RPCs (league_service.proto). Writes go
// to the league's stream (StreamStore); reads come from the projections the
// LeagueProjector keeps. Thread-safe.
#ifndef ARBITER_SERVICES_SERVER_LEAGUE_SERVICE_IMPL_H_
#define ARBITER_SERVICES_SERVER_LEAGUE_SERVICE_IMPL_H_

#include "arbiter/v1/league_service.grpc.pb.h"
#include "services/league/league_projector.h"
#include "services/league/projection_store.h"
#include "services/access/authenticator.h"
#include "services/server/read_routing.h"
#include "services/access/permissions.h"
#include "services/store/stream_store.h"

namespace arbiter::server {

class LeagueServiceImpl final : public v1::LeagueService::Service {
 public:
  LeagueServiceImpl(store::StreamStore& streams, league::ProjectionStore& projections,
                    league::LeagueProjector& projector, access::Authenticator& auth,
                    const ReadRouting* reads = nullptr)
      : streams_(streams),
        projections_(projections),
        projector_(projector),
        auth_(auth),
        reads_(reads) {}

  grpc::Status CreateLeague(grpc::ServerContext* context, const v1::CreateLeagueRequest* request,
                            v1::League* response) override;
  grpc::Status UpdateLeague(grpc::ServerContext* context, const v1::UpdateLeagueRequest* request,
                            v1::League* response) override;
  grpc::Status GetLeague(grpc::ServerContext* context, const v1::GetLeagueRequest* request,
                         v1::League* response) override;
  grpc::Status ListLeagues(grpc::ServerContext* context, const v1::ListLeaguesRequest* request,
                           v1::ListLeaguesResponse* response) override;
  grpc::Status GetLeaderboard(grpc::ServerContext* context,
                              const v1::GetLeaderboardRequest* request,
                              v1::Leaderboard* response) override;
  grpc::Status GetPlayerRating(grpc::ServerContext* context,
                               const v1::GetPlayerRatingRequest* request,
                               v1::LeaderboardRow* response) override;
  grpc::Status GetRatingHistory(grpc::ServerContext* context,
                                const v1::GetRatingHistoryRequest* request,
                                v1::RatingHistory* response) override;
  grpc::Status RebuildLeague(grpc::ServerContext* context, const v1::RebuildLeagueRequest* request,
                             v1::RebuildLeagueResponse* response) override;

 private:
  // The settings in force; NotFound for an unknown league.
  absl::StatusOr<v1::LeagueSettings> ReadSettings(const std::string& league_id);
  // The league's API view; NotFound for an unknown league.
  absl::StatusOr<v1::League> ReadLeague(const std::string& league_id);
  // NotFound unless the league exists and `season` is empty or one of its
  // seasons.
  absl::Status CheckSeason(const std::string& league_id, const std::string& season);
  // For the reads of a league's projection: waits, at most the routing's
  // wait, until the projector has passed the request's
  // arbiter-after-position (if any), then answers arbiter-projected-position
  // (read_routing.h). InvalidArgument for a malformed header; a projector
  // still behind is not an error: the answer says how far it is.
  absl::Status AwaitProjection(grpc::ServerContext* context);

  store::StreamStore& streams_;
  league::ProjectionStore& projections_;
  league::LeagueProjector& projector_;
  access::Authenticator& auth_;
  const ReadRouting* const reads_;  // null: every call on the primary
};

}  // namespace arbiter::server

#endif  // ARBITER_SERVICES_SERVER_LEAGUE_SERVICE_IMPL_H_
