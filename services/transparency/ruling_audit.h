// The finding "rulings" of the offline audit (bundle_audit.h): every ruling
// a game's log cites is carried by the bundle and says what the log says.
//
// A game's log cites a ruling in two ways (services/tournament/rulings.h):
// a later "game_finished" whose `correction` is "dispute {id}: {reason}",
// and a "game_voided" whose reason is. For each, the bundle must carry the
// dispute's log (AuditBundle.rulings) whose chain is intact, whose last
// event is a leaf of the same signed tree as the game's, whose
// "dispute_opened" is about this game, and one of whose "dispute_ruled"
// events made exactly this write: a corrected result with the same places
// and game points seat by seat (a void: a void), for the same reason.
// A correction that names no dispute fails too. A void whose reason names
// none was not made by a ruling and is not checked here.
//
// What it cannot catch: a false ruling written into the dispute's own log
// that matches the forged correction; that ruling is then in the signed
// public log, under its recorded `ruled_by`. Pure; thread-safe.
#ifndef ARBITER_SERVICES_TRANSPARENCY_RULING_AUDIT_H_
#define ARBITER_SERVICES_TRANSPARENCY_RULING_AUDIT_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "arbiter/v1/transparency_service.pb.h"
#include "services/transparency/checkpoint.h"
#include "services/transparency/bundle_audit.h"

namespace arbiter::transparency {

// One ruling a game's log cites.
struct CitedRuling {
  int64_t event = 0;        // the game event that cites it
  bool voided = false;      // a "game_voided" (else a corrected result)
  std::string dispute_id;   // empty: a correction that names no dispute
};

// The rulings `events` (a game's log, in order) cite. Events whose payload
// does not decode are skipped (the chain and replay findings name them).
std::vector<CitedRuling> CitedRulings(
    const google::protobuf::RepeatedPtrField<v1::AuditEvent>& events);

// OK if `proof` leads from its event hash to `checkpoint`'s root;
// InvalidArgument (a malformed proof) or the verification's error.
absl::Status VerifyProof(const v1::InclusionProof& proof, const Checkpoint& checkpoint);

// The finding "rulings" of `bundle` (its chain already checked), against
// the signed `checkpoint` (nullptr: none opened). nullopt when the log
// cites no ruling and the bundle carries none, so that such a bundle's
// report is what it always was.
std::optional<AuditFinding> CheckRulings(const v1::AuditBundle& bundle,
                                         const Checkpoint* checkpoint);

}  // namespace arbiter::transparency

#endif  // ARBITER_SERVICES_TRANSPARENCY_RULING_AUDIT_H_
