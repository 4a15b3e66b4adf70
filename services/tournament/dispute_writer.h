// DisputeWriter: the writes of a dispute (OpenDispute and RuleDispute of
// tournament_service.proto), each checked in full before anything is
// stored, and what each answers.
//
// A dispute is its own stream ("disputes/{id}"): opened within the
// tournament's dispute window, with Arbiter's adjudication of the game
// attached (dispute_reader.h Adjudicate), and ruled at most once. A ruling
// is recorded in the tournament's stream too (that is what its standings
// read), with every player whose rank or points changed; a void also appends
// "game_voided" to the game through the GameWriter, so leagues rebuild as for
// VoidGame, and a corrected result one more "game_finished" event. No event
// is ever edited.
//
// A ruling's writes are not one transaction (the store has none across
// streams and games); they are made safe to retry instead:
//   1. Everything is checked and decided before the first write, including
//      what the game's write would refuse (CheckGameWrite) and the standing
//      changes, which are computed from the standings before any write.
//   2. The first write, "ruling_recorded" on the tournament's stream (request
//      id "tournament-ruling-{dispute}"), is the commit point: it holds the
//      whole ruling (kind, reason, corrected result, arbiter, time, changes),
//      and the tournament's standings count it from then on.
//   3. Then, in this order, the game's void or corrected result (client
//      request id "dispute-{dispute}", reason "dispute {dispute}: ...") and
//      "dispute_ruled" on the dispute's stream ("dispute-ruling-{dispute}").
//      Both are derived from the recorded ruling alone.
//   4. A RuleDispute on a dispute that is open but whose ruling is recorded
//      in the tournament completes steps 3 from the recorded ruling, whatever
//      it asks for: the game's write is skipped if the game's log already
//      holds the dispute's event (FindRulingEvent: so a completion by another
//      arbiter, whose request id differs, writes it no second time), and the
//      dispute's event is the same request as the interrupted one's. It is
//      answered with the dispute if it asks for the recorded ruling (the same
//      kind, reason, corrected result and arbiter: a retry), and refused as
//      closed otherwise, as it would have been had the first one finished.
// So a ruling stopped anywhere leaves either nothing (before step 2) or a
// recorded ruling that the next RuleDispute on the dispute finishes, each
// write made once. A RuleDispute on a ruled dispute is refused as closed,
// even the retry of the one that ruled it (GetDispute reads the ruling).
//
// Thread-safe as the stores and the GameWriter are: two rulings of one
// dispute race on the tournament's stream, and the loser writes nothing.
#ifndef ARBITER_SERVICES_TOURNAMENT_DISPUTE_WRITER_H_
#define ARBITER_SERVICES_TOURNAMENT_DISPUTE_WRITER_H_

#include <string>

#include "absl/status/statusor.h"
#include "arbiter/v1/tournament_service.pb.h"
#include "engine/core/ruleset_registry.h"
#include "services/access/permissions.h"
#include "services/games/game_loader.h"
#include "services/games/game_writer.h"
#include "services/store/event_store.h"
#include "services/store/result_index.h"
#include "services/store/stream_store.h"
#include "services/tournament/tournament_log.h"

namespace arbiter::tournament {

class DisputeWriter {
 public:
  // The stores, the writer and the registry must outlive this object.
  DisputeWriter(store::StreamStore& streams, store::EventStore& events,
                store::ResultIndex& results, games::GameWriter& games,
                const engine::RulesetRegistry& registry)
      : streams_(streams), events_(events), results_(results), games_(games), registry_(registry) {}

  // OpenDispute: the dispute as opened. InvalidArgument with a field
  // violation for a bad field, NotFound for an unknown tournament, round or
  // table, PermissionDenied for a caller who is neither an arbiter of the
  // tournament nor a player of the table, FailedPrecondition after the
  // dispute window, AlreadyExists for a dispute id in use; `cancel` stops
  // the adjudication (Cancelled, DeadlineExceeded).
  absl::StatusOr<v1::Dispute> OpenDispute(const access::Caller& caller,
                                          const v1::OpenDisputeRequest& request,
                                          const games::CancelCheck& cancel);
  // RuleDispute: the dispute as ruled, with what the ruling changed in a
  // league's ratings. InvalidArgument with a field violation for a bad
  // field, NotFound for an unknown dispute, PermissionDenied for a caller who
  // may not manage the tournament, FailedPrecondition for a ruled dispute
  // ("dispute "x" is closed: ruled void by olga"), and the stores' errors
  // (then retry: see above).
  absl::StatusOr<v1::Dispute> RuleDispute(const access::Caller& caller,
                                          const v1::RuleDisputeRequest& request);

 private:
  // The ruling `request` makes on `table` of `log`, with the standing
  // changes it makes.
  absl::StatusOr<v1::RulingRecorded> Decide(const access::Caller& caller,
                                            const v1::RuleDisputeRequest& request,
                                            const std::string& dispute_id,
                                            const v1::Dispute& dispute, const TournamentLog& log);
  // The ruling's writes after its commit point, in order: the game voided
  // or corrected (unless its log holds the dispute's event already), and
  // the ruling in the dispute's stream.
  absl::Status Complete(const access::Caller& caller, const std::string& dispute_id,
                        const v1::Dispute& dispute, const v1::RulingRecorded& recorded,
                        const TableState& table);
  absl::Status WriteToGame(const access::Caller& caller, const std::string& dispute_id,
                           const v1::Dispute& dispute, const v1::RulingRecorded& recorded,
                           const TableState& table);
  absl::Status RecordInDispute(const access::Caller& caller, const std::string& dispute_id,
                               const v1::Dispute& dispute, const v1::RulingRecorded& recorded);
  // The commit point: the ruling in the tournament's stream.
  absl::Status RecordInTournament(const access::Caller& caller, const TournamentLog& log,
                                  const v1::RulingRecorded& recorded);
  // The dispute read again, with its rating changes.
  absl::StatusOr<v1::Dispute> Answer(const std::string& dispute_id);

  store::StreamStore& streams_;
  store::EventStore& events_;
  store::ResultIndex& results_;
  games::GameWriter& games_;
  const engine::RulesetRegistry& registry_;
};

}  // namespace arbiter::tournament

#endif  // ARBITER_SERVICES_TOURNAMENT_DISPUTE_WRITER_H_
