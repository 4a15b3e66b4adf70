#include "services/server/dispute_service_impl.h"

#include <string>

#include "engine/core/status_macros.h"
#include "services/common/resource_names.h"
#include "services/server/rpc_common.h"
#include "services/tournament/dispute_reader.h"
#include "services/tournament/tournament_log.h"

namespace arbiter::server {

grpc::Status DisputeServiceImpl::OpenDispute(grpc::ServerContext* context,
                                             const v1::OpenDisputeRequest* request,
                                             v1::Dispute* response) {
  return Serve(context, auth_, reads_, Route::kWrite, "OpenDispute",
               common::NameOf(common::IdKind::kDispute, request->dispute_id()),
               request->request_id(), [&](const access::Caller& caller) -> absl::Status {
                 ARBITER_ASSIGN_OR_RETURN(*response,
                                          writer_.OpenDispute(caller, *request, CancelOf(context)));
                 return absl::OkStatus();
               });
}

grpc::Status DisputeServiceImpl::GetDispute(grpc::ServerContext* context,
                                            const v1::GetDisputeRequest* request,
                                            v1::Dispute* response) {
  return Serve(context, auth_, reads_, Route::kStandbyRead, "GetDispute", request->name(), "",
               [&](const access::Caller&) -> absl::Status {
                 ARBITER_ASSIGN_OR_RETURN(const std::string id,
                                          tournament::ParseDisputeName(request->name()));
                 ARBITER_ASSIGN_OR_RETURN(v1::Dispute dispute,
                                          tournament::ReadDispute(streams_, id));
                 ARBITER_RETURN_IF_ERROR(
                     tournament::AddRatingChanges(events_, results_, streams_, id, dispute));
                 *response = std::move(dispute);
                 return absl::OkStatus();
               });
}

grpc::Status DisputeServiceImpl::RuleDispute(grpc::ServerContext* context,
                                             const v1::RuleDisputeRequest* request,
                                             v1::Dispute* response) {
  return Serve(context, auth_, reads_, Route::kWrite, "RuleDispute", request->name(), request->request_id(),
               [&](const access::Caller& caller) -> absl::Status {
                 ARBITER_ASSIGN_OR_RETURN(*response, writer_.RuleDispute(caller, *request));
                 return absl::OkStatus();
               });
}

grpc::Status DisputeServiceImpl::ListDisputes(grpc::ServerContext* context,
                                              const v1::ListDisputesRequest* request,
                                              v1::ListDisputesResponse* response) {
  return Serve(context, auth_, reads_, Route::kStandbyRead, "ListDisputes", request->tournament(), "",
               [&](const access::Caller&) -> absl::Status {
                 ARBITER_ASSIGN_OR_RETURN(*response, tournament::ListDisputes(streams_, *request));
                 return absl::OkStatus();
               });
}

}  // namespace arbiter::server
