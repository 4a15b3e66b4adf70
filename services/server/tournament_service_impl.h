// TournamentServiceImpl: the TournamentService RPCs (tournament_service.proto).
// Writes go to the tournament's stream; a round's games are created through
// a GameWriter, together (with the tournament set and each table's seed);
// results and standings are derived on every read from the stream and the
// store's results of the tournament's games, read in one query
// (services/tournament/tournament_reader.h). Thread-safe: concurrent writes
// to one tournament race on the stream's expected sequence (ABORTED).
#ifndef ARBITER_SERVICES_SERVER_TOURNAMENT_SERVICE_IMPL_H_
#define ARBITER_SERVICES_SERVER_TOURNAMENT_SERVICE_IMPL_H_

#include "arbiter/v1/tournament_service.grpc.pb.h"
#include "services/access/authenticator.h"
#include "services/access/permissions.h"
#include "services/games/game_writer.h"
#include "services/store/event_store.h"
#include "services/store/stream_store.h"
#include "services/tournament/tournament_log.h"

namespace arbiter::server {

class TournamentServiceImpl final : public v1::TournamentService::Service {
 public:
  TournamentServiceImpl(store::StreamStore& streams, store::EventStore& events,
                        games::GameWriter& writer, access::Authenticator& auth)
      : streams_(streams), events_(events), writer_(writer), auth_(auth) {}

  grpc::Status CreateTournament(grpc::ServerContext* context,
                                const v1::CreateTournamentRequest* request,
                                v1::Tournament* response) override;
  grpc::Status RegisterPlayers(grpc::ServerContext* context,
                               const v1::RegisterPlayersRequest* request,
                               v1::Tournament* response) override;
  grpc::Status GetTournament(grpc::ServerContext* context, const v1::GetTournamentRequest* request,
                             v1::Tournament* response) override;
  grpc::Status StartRound(grpc::ServerContext* context, const v1::StartRoundRequest* request,
                          v1::TournamentRound* response) override;
  grpc::Status GetRound(grpc::ServerContext* context, const v1::GetRoundRequest* request,
                        v1::TournamentRound* response) override;
  grpc::Status ConfirmResult(grpc::ServerContext* context, const v1::ConfirmResultRequest* request,
                             v1::TournamentRound* response) override;
  grpc::Status GetStandings(grpc::ServerContext* context, const v1::GetStandingsRequest* request,
                            v1::TournamentStandings* response) override;

 private:
  absl::StatusOr<v1::Tournament> View(const tournament::TournamentLog& log);
  // Reads the tournament again and answers with its view.
  absl::Status Answer(const std::string& id, v1::Tournament* response);
  absl::StatusOr<v1::TournamentRound> Round(const tournament::TournamentLog& log,
                                            int number);
  // Creates the games of a round's tables together (or accepts those an
  // earlier attempt created).
  absl::Status CreateTableGames(const access::Caller& caller, const tournament::TournamentLog& log,
                                const v1::RoundStarted& round);

  store::StreamStore& streams_;
  store::EventStore& events_;
  games::GameWriter& writer_;
  access::Authenticator& auth_;
};

}  // namespace arbiter::server

#endif  // ARBITER_SERVICES_SERVER_TOURNAMENT_SERVICE_IMPL_H_
