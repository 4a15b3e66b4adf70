#include "services/server/tournament_service_impl.h"

#include <utility>

#include "engine/core/status_macros.h"
#include "services/common/resource_names.h"
#include "services/server/rpc_common.h"
#include "services/tournament/seed_sight.h"
#include "services/tournament/tournament_list.h"
#include "services/tournament/tournament_log.h"
#include "services/tournament/tournament_views.h"

namespace arbiter::server {

grpc::Status TournamentServiceImpl::CreateTournament(grpc::ServerContext* context,
                                                     const v1::CreateTournamentRequest* request,
                                                     v1::Tournament* response) {
  return Serve(context, auth_, reads_, Route::kWrite, "CreateTournament",
               common::NameOf(common::IdKind::kTournament, request->tournament_id()),
               request->request_id(), [&](const access::Caller& caller) -> absl::Status {
                 ARBITER_ASSIGN_OR_RETURN(*response, writer_.CreateTournament(caller, *request));
                 return absl::OkStatus();
               });
}

grpc::Status TournamentServiceImpl::RegisterPlayers(grpc::ServerContext* context,
                                                    const v1::RegisterPlayersRequest* request,
                                                    v1::Tournament* response) {
  return Serve(context, auth_, reads_, Route::kWrite, "RegisterPlayers", request->name(), request->request_id(),
               [&](const access::Caller& caller) -> absl::Status {
                 ARBITER_ASSIGN_OR_RETURN(*response, writer_.RegisterPlayers(caller, *request));
                 return absl::OkStatus();
               });
}

grpc::Status TournamentServiceImpl::WithdrawPlayer(grpc::ServerContext* context,
                                                   const v1::WithdrawPlayerRequest* request,
                                                   v1::Tournament* response) {
  return Serve(context, auth_, reads_, Route::kWrite, "WithdrawPlayer", request->name(), request->request_id(),
               [&](const access::Caller& caller) -> absl::Status {
                 ARBITER_ASSIGN_OR_RETURN(*response, editor_.WithdrawPlayer(caller, *request));
                 return absl::OkStatus();
               });
}

grpc::Status TournamentServiceImpl::UpdateTournamentSettings(
    grpc::ServerContext* context, const v1::UpdateTournamentSettingsRequest* request,
    v1::Tournament* response) {
  return Serve(context, auth_, reads_, Route::kWrite, "UpdateTournamentSettings", request->name(), request->request_id(),
               [&](const access::Caller& caller) -> absl::Status {
                 ARBITER_ASSIGN_OR_RETURN(*response,
                                          editor_.UpdateTournamentSettings(caller, *request));
                 return absl::OkStatus();
               });
}

grpc::Status TournamentServiceImpl::DeleteTournament(grpc::ServerContext* context,
                                                     const v1::DeleteTournamentRequest* request,
                                                     v1::DeleteTournamentResponse* response) {
  return Serve(context, auth_, reads_, Route::kWrite, "DeleteTournament", request->name(), request->request_id(),
               [&](const access::Caller& caller) -> absl::Status {
                 ARBITER_ASSIGN_OR_RETURN(*response, editor_.DeleteTournament(caller, *request));
                 return absl::OkStatus();
               });
}

grpc::Status TournamentServiceImpl::GetTournament(grpc::ServerContext* context,
                                                  const v1::GetTournamentRequest* request,
                                                  v1::Tournament* response) {
  return Serve(context, auth_, reads_, Route::kStandbyRead, "GetTournament", request->name(), "",
               [&](const access::Caller& caller) -> absl::Status {
                 ARBITER_ASSIGN_OR_RETURN(const std::string id,
                                          tournament::ParseTournamentName(request->name()));
                 ARBITER_ASSIGN_OR_RETURN(const tournament::TournamentLog log,
                                          tournament::ReadTournament(streams_, id));
                 ARBITER_ASSIGN_OR_RETURN(
                     *response, tournament::ReadTournamentView(
                                    results_, log, tournament::SeedSightOf(caller, log)));
                 return absl::OkStatus();
               });
}

grpc::Status TournamentServiceImpl::ListTournaments(grpc::ServerContext* context,
                                                    const v1::ListTournamentsRequest* request,
                                                    v1::ListTournamentsResponse* response) {
  return Serve(context, auth_, reads_, Route::kStandbyRead, "ListTournaments", "", "",
               [&](const access::Caller&) -> absl::Status {
                 ARBITER_ASSIGN_OR_RETURN(*response,
                                          tournament::ListTournaments(streams_, results_, *request));
                 return absl::OkStatus();
               });
}

grpc::Status TournamentServiceImpl::StartRound(grpc::ServerContext* context,
                                               const v1::StartRoundRequest* request,
                                               v1::TournamentRound* response) {
  return Serve(context, auth_, reads_, Route::kWrite, "StartRound", request->name(), request->request_id(),
               [&](const access::Caller& caller) -> absl::Status {
                 ARBITER_ASSIGN_OR_RETURN(*response, writer_.StartRound(caller, *request));
                 return absl::OkStatus();
               });
}

grpc::Status TournamentServiceImpl::GetRound(grpc::ServerContext* context,
                                             const v1::GetRoundRequest* request,
                                             v1::TournamentRound* response) {
  return Serve(context, auth_, reads_, Route::kStandbyRead, "GetRound", request->name(), "",
               [&](const access::Caller& caller) -> absl::Status {
                 ARBITER_ASSIGN_OR_RETURN(const std::string id,
                                          tournament::ParseTournamentName(request->name()));
                 ARBITER_ASSIGN_OR_RETURN(const tournament::TournamentLog log,
                                          tournament::ReadTournament(streams_, id));
                 // Round 0: the latest.
                 const int number = request->round() == 0 ? static_cast<int>(log.rounds.size())
                                                          : request->round();
                 ARBITER_ASSIGN_OR_RETURN(
                     *response, tournament::ReadRoundView(results_, log, number,
                                                          tournament::SeedSightOf(caller, log)));
                 return absl::OkStatus();
               });
}

grpc::Status TournamentServiceImpl::ConfirmResult(grpc::ServerContext* context,
                                                  const v1::ConfirmResultRequest* request,
                                                  v1::TournamentRound* response) {
  return Serve(context, auth_, reads_, Route::kWrite, "ConfirmResult", request->name(), request->request_id(),
               [&](const access::Caller& caller) -> absl::Status {
                 ARBITER_ASSIGN_OR_RETURN(*response, writer_.ConfirmResult(caller, *request));
                 return absl::OkStatus();
               });
}

grpc::Status TournamentServiceImpl::ReportResult(grpc::ServerContext* context,
                                                 const v1::ReportResultRequest* request,
                                                 v1::TournamentRound* response) {
  return Serve(context, auth_, reads_, Route::kWrite, "ReportResult", request->name(), request->request_id(),
               [&](const access::Caller& caller) -> absl::Status {
                 ARBITER_ASSIGN_OR_RETURN(*response, score_sheets_.ReportResult(caller, *request));
                 return absl::OkStatus();
               });
}

grpc::Status TournamentServiceImpl::GetStandings(grpc::ServerContext* context,
                                                 const v1::GetStandingsRequest* request,
                                                 v1::TournamentStandings* response) {
  return Serve(context, auth_, reads_, Route::kStandbyRead, "GetStandings", request->name(), "",
               [&](const access::Caller&) -> absl::Status {
                 ARBITER_ASSIGN_OR_RETURN(const std::string id,
                                          tournament::ParseTournamentName(request->name()));
                 ARBITER_ASSIGN_OR_RETURN(const tournament::TournamentLog log,
                                          tournament::ReadTournament(streams_, id));
                 ARBITER_ASSIGN_OR_RETURN(
                     *response,
                     tournament::ReadStandingsView(results_, log, request->after_round()));
                 return absl::OkStatus();
               });
}

}  // namespace arbiter::server
