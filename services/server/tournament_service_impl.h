// TournamentServiceImpl: the TournamentService RPCs (tournament_service.proto)
// as transport: each authenticates, hands the request to the tournament
// domain (services/tournament/: TournamentWriter for the writes, the folded
// log and its views for the reads) and maps the answer and the status.
// Thread-safe as the domain is.
#ifndef ARBITER_SERVICES_SERVER_TOURNAMENT_SERVICE_IMPL_H_
#define ARBITER_SERVICES_SERVER_TOURNAMENT_SERVICE_IMPL_H_

#include "arbiter/v1/tournament_service.grpc.pb.h"
#include "services/access/authenticator.h"
#include "services/server/read_routing.h"
#include "services/games/game_writer.h"
#include "services/store/event_store.h"
#include "services/store/result_index.h"
#include "services/store/stream_store.h"
#include "services/tournament/score_sheet.h"
#include "services/tournament/tournament_editor.h"
#include "services/tournament/tournament_writer.h"

namespace arbiter::server {

class TournamentServiceImpl final : public v1::TournamentService::Service {
 public:
  TournamentServiceImpl(store::StreamStore& streams, store::EventStore& events,
                        store::ResultIndex& results, games::GameWriter& games,
                        access::Authenticator& auth, const ReadRouting* reads = nullptr)
      : streams_(streams), results_(results), writer_(streams, events, results, games),
        editor_(streams, results, games), score_sheets_(streams, results, games), auth_(auth),
        reads_(reads) {}

  grpc::Status CreateTournament(grpc::ServerContext* context,
                                const v1::CreateTournamentRequest* request,
                                v1::Tournament* response) override;
  grpc::Status RegisterPlayers(grpc::ServerContext* context,
                               const v1::RegisterPlayersRequest* request,
                               v1::Tournament* response) override;
  grpc::Status WithdrawPlayer(grpc::ServerContext* context,
                              const v1::WithdrawPlayerRequest* request,
                              v1::Tournament* response) override;
  grpc::Status UpdateTournamentSettings(grpc::ServerContext* context,
                                        const v1::UpdateTournamentSettingsRequest* request,
                                        v1::Tournament* response) override;
  grpc::Status DeleteTournament(grpc::ServerContext* context,
                                const v1::DeleteTournamentRequest* request,
                                v1::DeleteTournamentResponse* response) override;
  grpc::Status GetTournament(grpc::ServerContext* context, const v1::GetTournamentRequest* request,
                             v1::Tournament* response) override;
  grpc::Status ListTournaments(grpc::ServerContext* context,
                               const v1::ListTournamentsRequest* request,
                               v1::ListTournamentsResponse* response) override;
  grpc::Status StartRound(grpc::ServerContext* context, const v1::StartRoundRequest* request,
                          v1::TournamentRound* response) override;
  grpc::Status GetRound(grpc::ServerContext* context, const v1::GetRoundRequest* request,
                        v1::TournamentRound* response) override;
  grpc::Status ConfirmResult(grpc::ServerContext* context, const v1::ConfirmResultRequest* request,
                             v1::TournamentRound* response) override;
  grpc::Status ReportResult(grpc::ServerContext* context, const v1::ReportResultRequest* request,
                            v1::TournamentRound* response) override;
  grpc::Status GetStandings(grpc::ServerContext* context, const v1::GetStandingsRequest* request,
                            v1::TournamentStandings* response) override;

 private:
  store::StreamStore& streams_;
  store::ResultIndex& results_;
  tournament::TournamentWriter writer_;
  tournament::TournamentEditor editor_;
  tournament::ScoreSheetWriter score_sheets_;
  access::Authenticator& auth_;
  const ReadRouting* const reads_;  // null: every call on the primary
};

}  // namespace arbiter::server

#endif  // ARBITER_SERVICES_SERVER_TOURNAMENT_SERVICE_IMPL_H_
