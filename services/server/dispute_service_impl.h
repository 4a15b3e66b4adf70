// DisputeServiceImpl: the DisputeService RPCs (tournament_service.proto).
//
// A dispute is its own stream ("disputes/{id}"): opened within the
// tournament's dispute window, with Arbiter's adjudication of the game
// attached (the replay's verdict and standings, and the hash chain
// recomputed), and ruled at most once. A ruling is recorded in the
// tournament's stream too (that is what its standings read), with every
// player whose rank or points changed; a void also appends "game_voided" to
// the game through the GameWriter, so leagues rebuild as for VoidGame. No
// event is ever edited. Thread-safe.
#ifndef ARBITER_SERVICES_SERVER_DISPUTE_SERVICE_IMPL_H_
#define ARBITER_SERVICES_SERVER_DISPUTE_SERVICE_IMPL_H_

#include "arbiter/v1/tournament_service.grpc.pb.h"
#include "engine/core/ruleset_registry.h"
#include "services/access/authenticator.h"
#include "services/access/permissions.h"
#include "services/games/game_writer.h"
#include "services/store/event_store.h"
#include "services/store/stream_store.h"

namespace arbiter::server {

class DisputeServiceImpl final : public v1::DisputeService::Service {
 public:
  DisputeServiceImpl(store::StreamStore& streams, store::EventStore& events, games::GameWriter& writer,
                     const engine::RulesetRegistry& registry, access::Authenticator& auth)
      : streams_(streams), events_(events), writer_(writer), registry_(registry), auth_(auth) {}

  grpc::Status OpenDispute(grpc::ServerContext* context, const v1::OpenDisputeRequest* request,
                           v1::Dispute* response) override;
  grpc::Status GetDispute(grpc::ServerContext* context, const v1::GetDisputeRequest* request,
                          v1::Dispute* response) override;
  grpc::Status RuleDispute(grpc::ServerContext* context, const v1::RuleDisputeRequest* request,
                           v1::Dispute* response) override;
  grpc::Status ListDisputes(grpc::ServerContext* context, const v1::ListDisputesRequest* request,
                            v1::ListDisputesResponse* response) override;

 private:
  // The dispute as its stream says; NotFound for an unknown one.
  absl::StatusOr<v1::Dispute> ReadDispute(const std::string& dispute_id);
  // For a ruled dispute that voided or corrected a game rated in a league:
  // sets rating_changes and rating_event (league_model.h RatingChangesAt at
  // the ruling's event in the game's log). Nothing for other disputes.
  absl::Status AddRatingChanges(const std::string& dispute_id, v1::Dispute& dispute);
  v1::DisputeAdjudication Adjudicate(const std::string& game_id, const games::CancelCheck& cancel);

  store::StreamStore& streams_;
  store::EventStore& events_;
  games::GameWriter& writer_;
  const engine::RulesetRegistry& registry_;
  access::Authenticator& auth_;
};

}  // namespace arbiter::server

#endif  // ARBITER_SERVICES_SERVER_DISPUTE_SERVICE_IMPL_H_
