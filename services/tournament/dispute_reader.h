// A dispute's stream ("disputes/{id}", tournament_log.h) as the API reads
// it: the dispute with its ruling, what its ruling changed in a league's
// ratings, a page of disputes, and Arbiter's adjudication of a disputed game
// (attached when the dispute is opened). Reads only; thread-safe as the
// stores are.
#ifndef ARBITER_SERVICES_TOURNAMENT_DISPUTE_READER_H_
#define ARBITER_SERVICES_TOURNAMENT_DISPUTE_READER_H_

#include <string>

#include "absl/status/statusor.h"
#include "arbiter/v1/tournament_service.pb.h"
#include "engine/core/ruleset_registry.h"
#include "services/games/game_loader.h"
#include "services/store/event_store.h"
#include "services/store/result_index.h"
#include "services/store/stream_store.h"

namespace arbiter::tournament {

// The dispute as its stream says (open, or ruled with its ruling).
// NotFound ("dispute "x" does not exist"); DataLoss for an event that does
// not decode.
absl::StatusOr<v1::Dispute> ReadDispute(store::StreamStore& streams,
                                        const std::string& dispute_id);

// For a ruled dispute that voided or corrected a game rated in a league:
// sets rating_changes and rating_event (league_model.h RatingChangesAt at
// the ruling's event in the game's log). Nothing for other disputes, nor
// when the ruling's event or the league is not found. Errors of the reads.
absl::Status AddRatingChanges(store::EventStore& events, store::ResultIndex& results,
                              store::StreamStore& streams, const std::string& dispute_id,
                              v1::Dispute& dispute);

// A page of ListDisputes (without rating changes). InvalidArgument on
// "page_size" (0-1000) or "page_token" (not a dispute name).
absl::StatusOr<v1::ListDisputesResponse> ListDisputes(store::StreamStore& streams,
                                                      const v1::ListDisputesRequest& request);

// Arbiter's adjudication of `game_id`: the hash chain recomputed as
// VerifyGame does (or why it could not be), and the replay's verdict,
// violation and standings when the game loads and replays. Never fails:
// what could not be read is left empty (the chain's detail says why).
v1::DisputeAdjudication Adjudicate(store::EventStore& events, store::ResultIndex& results,
                                   const engine::RulesetRegistry& registry,
                                   const std::string& game_id, const games::CancelCheck& cancel);

}  // namespace arbiter::tournament

#endif  // ARBITER_SERVICES_TOURNAMENT_DISPUTE_READER_H_
