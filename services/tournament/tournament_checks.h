// The checks of the tournament writes (tournament_writer.h) that read no
// store: a request's players, the round and table a confirmation names, a
// table's game as a confirmable result, and the model's settings errors as
// field violations. Pure functions; thread-safe.
#ifndef ARBITER_SERVICES_TOURNAMENT_TOURNAMENT_CHECKS_H_
#define ARBITER_SERVICES_TOURNAMENT_TOURNAMENT_CHECKS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "arbiter/v1/tournament_service.pb.h"
#include "services/store/stream_store.h"
#include "services/tournament/tournament_log.h"
#include "services/tournament/tournament_reader.h"

namespace arbiter::tournament {

// A settings error of the model (ModelSettings) as a field violation of
// "settings.{the field the message starts with}".
absl::Status SettingsError(const absl::Status& status);

// InvalidArgument on "players" for a player that is not a player id or is
// already in `registered` (or twice in `players`).
absl::Status CheckNewPlayers(const std::vector<std::string>& registered,
                             const google::protobuf::RepeatedPtrField<std::string>& players);

// The most characters of a player's display name.
inline constexpr int kMaxDisplayNameCharacters = 100;

// InvalidArgument on "display_names" unless `names` is empty or has one
// entry per player, each "" or a display name (common::CheckPrintableText).
absl::Status CheckDisplayNames(const google::protobuf::RepeatedPtrField<std::string>& players,
                               const google::protobuf::RepeatedPtrField<std::string>& names);

// InvalidArgument on "players" if `append` (holding `players` players) is
// larger than one stream event may be.
absl::Status CheckPlayersFit(const store::StreamAppendRequest& append, int players);

// The round a result or ruling may name: started, and the last one (open).
// FailedPrecondition for a round not started, not the last or `closed`;
// NotFound for a table the round does not have.
absl::Status CheckOpenTable(const TournamentLog& log, int round, int table, bool closed);

// FailedPrecondition (ErrorInfo reason RESULT_CONFIRMED) if table `table`
// of `round` is confirmed by an event whose request id is not
// `stream_request_id`: a retry of the confirming request passes, to be
// answered as the first was.
absl::Status CheckNotConfirmedByAnother(const TournamentLog& log, int round, int table,
                                        const std::string& stream_request_id);

// The confirmation of one table of `round`: its game finished legally with
// the table's players. FailedPrecondition (naming the game) otherwise.
absl::StatusOr<v1::ResultConfirmed> ConfirmationOf(const Outcomes& outcomes, int round,
                                                   const TableState& table);

}  // namespace arbiter::tournament

#endif  // ARBITER_SERVICES_TOURNAMENT_TOURNAMENT_CHECKS_H_
