#include "services/server/transparency_service_impl.h"

#include "engine/core/status_macros.h"
#include "services/common/resource_names.h"

#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "services/games/chained_game.h"
#include "services/games/game_events.h"
#include "services/server/rpc_common.h"
#include "services/server/status_mapping.h"
#include "services/transparency/transparency_proofs.h"

namespace arbiter::server {
namespace {

// "games/{game}/events/{event}" -> (game id, event number).
absl::StatusOr<std::pair<std::string, int64_t>> ParseEventName(const std::string& name) {
  const std::size_t cut = name.rfind("/events/");
  int64_t event = 0;
  if (cut == std::string::npos || !absl::SimpleAtoi(name.substr(cut + 8), &event) || event < 1 ||
      name.substr(cut + 8) != absl::StrCat(event)) {
    return common::FieldError("name", "name must be \"games/{game}/events/{event}\" with an event from 1");
  }
  absl::StatusOr<std::string> game_id = common::ParseName(common::IdKind::kGame, name.substr(0, cut), "name");
  if (!game_id.ok()) return common::WithFieldViolation(game_id.status(), "name", "not an event name");
  return std::make_pair(*game_id, event);
}

}  // namespace

grpc::Status TransparencyServiceImpl::GetCheckpoint(grpc::ServerContext* context,
                                                    const v1::GetCheckpointRequest* request,
                                                    v1::Checkpoint* response) {
  return Serve(context, auth_, reads_, Route::kStandbyRead, "GetCheckpoint", "", "", [&](const access::Caller&) -> absl::Status {
    ARBITER_ASSIGN_OR_RETURN(transparency::StoredCheckpoint checkpoint, transparency::FindCheckpoint(log_, request->tree_size()));
    *response = transparency::ToCheckpoint(checkpoint, log_.signer().name());
    return absl::OkStatus();
  });
}

grpc::Status TransparencyServiceImpl::GetInclusionProof(
    grpc::ServerContext* context, const v1::GetInclusionProofRequest* request,
    v1::InclusionProof* response) {
  return Serve(context, auth_, reads_, Route::kStandbyRead, "GetInclusionProof", request->name(), "",
               [&](const access::Caller& caller) -> absl::Status {
                 absl::StatusOr<std::pair<std::string, int64_t>> event =
                     ParseEventName(request->name());
                 if (!event.ok()) return event.status();
                 // Permission before existence, as for every read of a game.
                 absl::StatusOr<store::GameRecord> record = games::ChainedRecord(store_, event->first);
                 if (!record.ok()) {
                   if (absl::IsNotFound(record.status()) && !access::ReadsLiveGames(caller)) {
                     return access::ReadDenied(caller, event->first);
                   }
                   return record.status();
                 }
                 ARBITER_RETURN_IF_ERROR(access::RequireRead(caller, *record));
                 ARBITER_ASSIGN_OR_RETURN(v1::InclusionProof proof, transparency::ProveGameEvent( store_, log_, event->first, event->second, request->tree_size()));
                 *response = std::move(proof);
                 return absl::OkStatus();
               });
}

grpc::Status TransparencyServiceImpl::GetConsistencyProof(
    grpc::ServerContext* context, const v1::GetConsistencyProofRequest* request,
    v1::ConsistencyProof* response) {
  return Serve(context, auth_, reads_, Route::kStandbyRead, "GetConsistencyProof", "", "", [&](const access::Caller&) -> absl::Status {
    const int64_t from = request->from_tree_size();
    const int64_t to = request->to_tree_size();
    if (from < 0) return common::FieldError("from_tree_size", "from_tree_size must not be negative");
    if (to < from) {
      return common::FieldError("to_tree_size", absl::StrCat("to_tree_size (", to,
                                                     ") must be at least from_tree_size (", from,
                                                     ")"));
    }
    absl::StatusOr<std::vector<engine::merkle::Hash>> hashes =
        log_.ConsistencyProof(static_cast<uint64_t>(from), static_cast<uint64_t>(to));
    if (!hashes.ok()) {
      if (absl::IsInvalidArgument(hashes.status())) {
        return common::FieldError("to_tree_size", std::string(hashes.status().message()));
      }
      return hashes.status();
    }
    response->set_from_tree_size(from);
    response->set_to_tree_size(to);
    for (const engine::merkle::Hash& h : *hashes) response->add_hashes(engine::merkle::ToBytes(h));
    return absl::OkStatus();
  });
}

grpc::Status TransparencyServiceImpl::GetPublicKey(grpc::ServerContext* context,
                                                   const v1::GetPublicKeyRequest*,
                                                   v1::PublicKey* response) {
  return Serve(context, auth_, reads_, Route::kStandbyRead, "GetPublicKey", "", "", [&](const access::Caller&) -> absl::Status {
    response->set_origin(log_.signer().name());
    response->set_verifier_key(log_.signer().VerifierKey());
    return absl::OkStatus();
  });
}

grpc::Status TransparencyServiceImpl::PublishCheckpoint(grpc::ServerContext* context,
                                                        const v1::PublishCheckpointRequest*,
                                                        v1::Checkpoint* response) {
  return Serve(context, auth_, reads_, Route::kWrite, "PublishCheckpoint", "", "",
               [&](const access::Caller& caller) -> absl::Status {
                 ARBITER_RETURN_IF_ERROR(access::RequireAdmin(caller));
                 ARBITER_ASSIGN_OR_RETURN(transparency::StoredCheckpoint checkpoint, log_.Publish());
                 *response = transparency::ToCheckpoint(checkpoint, log_.signer().name());
                 return absl::OkStatus();
               });
}

grpc::Status TransparencyServiceImpl::GetStreamEvidence(
    grpc::ServerContext* context, const v1::GetStreamEvidenceRequest* request,
    v1::AuditStream* response) {
  return Serve(context, auth_, reads_, Route::kStandbyRead, "GetStreamEvidence", request->stream(), "",
               [&](const access::Caller&) -> absl::Status {
                 // Disputes are public (GetDispute: every role); other
                 // streams are not offered here.
                 ARBITER_ASSIGN_OR_RETURN(
                     const std::string dispute_id,
                     common::ParseName(common::IdKind::kDispute, request->stream(), "stream"));
                 if (request->tree_size() < 0) {
                   return common::FieldError("tree_size", "tree_size must not be negative");
                 }
                 if (streams_ == nullptr) {  // a server with no disputes
                   return absl::NotFoundError(
                       absl::StrCat(request->stream(), " does not exist"));
                 }
                 ARBITER_ASSIGN_OR_RETURN(
                     *response,
                     transparency::ProveStream(*streams_, log_,
                                               common::NameOf(common::IdKind::kDispute, dispute_id),
                                               request->tree_size()));
                 return absl::OkStatus();
               });
}

}  // namespace arbiter::server
