// DisputeServiceImpl: the DisputeService RPCs (tournament_service.proto) as
// transport: each authenticates, hands the request to the dispute domain
// (services/tournament/: DisputeWriter for the writes, dispute_reader.h for
// the reads) and maps the answer and the status. Thread-safe as the domain
// is.
#ifndef ARBITER_SERVICES_SERVER_DISPUTE_SERVICE_IMPL_H_
#define ARBITER_SERVICES_SERVER_DISPUTE_SERVICE_IMPL_H_

#include "arbiter/v1/tournament_service.grpc.pb.h"
#include "engine/core/ruleset_registry.h"
#include "services/access/authenticator.h"
#include "services/server/read_routing.h"
#include "services/games/game_writer.h"
#include "services/store/event_store.h"
#include "services/store/result_index.h"
#include "services/store/stream_store.h"
#include "services/tournament/dispute_writer.h"

namespace arbiter::server {

class DisputeServiceImpl final : public v1::DisputeService::Service {
 public:
  DisputeServiceImpl(store::StreamStore& streams, store::EventStore& events,
                     store::ResultIndex& results, games::GameWriter& games,
                     const engine::RulesetRegistry& registry, access::Authenticator& auth,
                     const ReadRouting* reads = nullptr)
      : streams_(streams),
        events_(events),
        results_(results),
        writer_(streams, events, results, games, registry),
        auth_(auth),
        reads_(reads) {}

  grpc::Status OpenDispute(grpc::ServerContext* context, const v1::OpenDisputeRequest* request,
                           v1::Dispute* response) override;
  grpc::Status GetDispute(grpc::ServerContext* context, const v1::GetDisputeRequest* request,
                          v1::Dispute* response) override;
  grpc::Status RuleDispute(grpc::ServerContext* context, const v1::RuleDisputeRequest* request,
                           v1::Dispute* response) override;
  grpc::Status ListDisputes(grpc::ServerContext* context, const v1::ListDisputesRequest* request,
                            v1::ListDisputesResponse* response) override;

 private:
  store::StreamStore& streams_;
  store::EventStore& events_;
  store::ResultIndex& results_;
  tournament::DisputeWriter writer_;
  access::Authenticator& auth_;
  const ReadRouting* const reads_;  // null: every call on the primary
};

}  // namespace arbiter::server

#endif  // ARBITER_SERVICES_SERVER_DISPUTE_SERVICE_IMPL_H_
