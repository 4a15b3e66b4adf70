// The gRPC service TransparencyService (transparency_service.proto):
// checkpoints, inclusion and consistency proofs of the transparency log, its
// public key and a dispute's log with its proof. Each RPC authenticates,
// checks the role, and reads the TransparencyLog (GetStreamEvidence: also
// the dispute's stream). Thread-safe.
#ifndef ARBITER_SERVICES_SERVER_TRANSPARENCY_SERVICE_IMPL_H_
#define ARBITER_SERVICES_SERVER_TRANSPARENCY_SERVICE_IMPL_H_

#include "arbiter/v1/transparency_service.grpc.pb.h"
#include "services/access/authenticator.h"
#include "services/server/read_routing.h"
#include "services/access/permissions.h"
#include "services/store/event_store.h"
#include "services/store/stream_store.h"
#include "services/transparency/transparency_log.h"

namespace arbiter::server {

class TransparencyServiceImpl final : public v1::TransparencyService::Service {
 public:
  // `streams` may be null (no leagues, tournaments or disputes): then
  // GetStreamEvidence answers NOT_FOUND.
  TransparencyServiceImpl(store::EventStore& store, store::StreamStore* streams,
                          transparency::TransparencyLog& log, access::Authenticator& auth,
                          const ReadRouting* reads = nullptr)
      : store_(store), streams_(streams), log_(log), auth_(auth), reads_(reads) {}

  grpc::Status GetCheckpoint(grpc::ServerContext* context, const v1::GetCheckpointRequest* request,
                             v1::Checkpoint* response) override;
  grpc::Status GetInclusionProof(grpc::ServerContext* context,
                                 const v1::GetInclusionProofRequest* request,
                                 v1::InclusionProof* response) override;
  grpc::Status GetConsistencyProof(grpc::ServerContext* context,
                                   const v1::GetConsistencyProofRequest* request,
                                   v1::ConsistencyProof* response) override;
  grpc::Status GetPublicKey(grpc::ServerContext* context, const v1::GetPublicKeyRequest* request,
                            v1::PublicKey* response) override;
  grpc::Status PublishCheckpoint(grpc::ServerContext* context,
                                 const v1::PublishCheckpointRequest* request,
                                 v1::Checkpoint* response) override;
  grpc::Status GetStreamEvidence(grpc::ServerContext* context,
                                 const v1::GetStreamEvidenceRequest* request,
                                 v1::AuditStream* response) override;

 private:
  store::EventStore& store_;
  store::StreamStore* streams_;
  transparency::TransparencyLog& log_;
  access::Authenticator& auth_;
  const ReadRouting* const reads_;  // null: every call on the primary
};

}  // namespace arbiter::server

#endif  // ARBITER_SERVICES_SERVER_TRANSPARENCY_SERVICE_IMPL_H_
