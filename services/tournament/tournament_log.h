// A tournament's and a dispute's stream (services/store/stream_store.h) as
// the service reads them: resource names, stored event types, the published
// settings turned into the model's, and a tournament's events folded into
// its players, rounds, confirmations and rulings. No results from games here
// (tournament_reader.h adds them). Pure functions; thread-safe.
#ifndef ARBITER_SERVICES_TOURNAMENT_TOURNAMENT_LOG_H_
#define ARBITER_SERVICES_TOURNAMENT_TOURNAMENT_LOG_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "arbiter/v1/tournament_service.pb.h"
#include "engine/tournament/rounds.h"
#include "engine/tournament/settings.h"
#include "services/store/stream_store.h"

namespace arbiter::tournament {

// Stream kinds and event types. Stored: never rename.
inline constexpr char kTournamentKind[] = "tournament";
inline constexpr char kDisputeKind[] = "dispute";
inline constexpr char kTypeTournamentCreated[] = "tournament_created";
inline constexpr char kTypePlayersRegistered[] = "players_registered";
inline constexpr char kTypePlayerWithdrawn[] = "player_withdrawn";
inline constexpr char kTypeSettingsChanged[] = "settings_changed";
inline constexpr char kTypeTournamentDeleted[] = "tournament_deleted";
inline constexpr char kTypeRoundStarted[] = "round_started";
inline constexpr char kTypeRoundTables[] = "round_tables";
inline constexpr char kTypeResultConfirmed[] = "result_confirmed";
inline constexpr char kTypeResultsConfirmed[] = "results_confirmed";
inline constexpr char kTypeResultProposed[] = "result_proposed";
inline constexpr char kTypeRulingRecorded[] = "ruling_recorded";
inline constexpr char kTypeDisputeOpened[] = "dispute_opened";
inline constexpr char kTypeDisputeRuled[] = "dispute_ruled";

inline constexpr int64_t kDefaultDisputeWindowSeconds = 86400;

// "{tournament}-r{round}-t{table}".
std::string TableGameId(const std::string& tournament_id, int round, int table);

// The id in a request's tournament name ("tournaments/{id}") given in
// `field`. InvalidArgument with a field violation ("not a tournament name").
absl::StatusOr<std::string> ParseTournamentName(const std::string& name,
                                                const std::string& field = "name");
// The same for a dispute's name ("disputes/{id}") in field "name".
absl::StatusOr<std::string> ParseDisputeName(const std::string& name);

// The stream request id of a write of `kind` ("round", "confirm", ...) to
// `stream_id` by `principal` with the client's `request_id`: the kind and a
// SHA-256 of the rest (kind + 65 bytes), so a client's id of up to 200 bytes
// and a principal of up to 100 always fit the store's 200-byte limit, and
// the same client id used on two tournaments names two requests.
std::string StreamRequestId(const std::string& kind, const std::string& stream_id,
                            const std::string& principal, const std::string& request_id);

// The model's settings. InvalidArgument starting with the field's name
// ("tie_breaks: unknown criterion ...").
absl::StatusOr<engine::tournament::TournamentSettings> ModelSettings(const v1::TournamentSettings& settings);

struct TableState {
  v1::TournamentTable table;  // as started: number, players, seed, game
  std::optional<v1::ResultConfirmed> confirmed;
  absl::Time confirmed_at = absl::InfinitePast();
  int64_t confirmed_event = 0;         // the stream event that confirmed it
  std::string confirmed_request_id;    // that event's (stream) request id
  std::optional<v1::RulingRecorded> ruling;  // the last one
  std::optional<v1::ResultProposed> proposal;  // the last score sheet a player proposed
  int proposals = 0;                           // how many were proposed
};

struct RoundState {
  int number = 0;
  std::vector<TableState> tables;
  std::vector<std::string> byes;
  // The request id of its "round_started" event (StreamRequestId), and the
  // tables the round has in all (tables.size() once it is recorded).
  std::string request_id;
  int table_count = 0;
  // The StartRound requests that finished the round after an interruption
  // (RoundStarted.finished_by of its "round_tables" events), in order: a
  // retry of one of them is answered with the round, as one of request_id.
  std::vector<std::string> finished_by;
};

struct TournamentLog {
  std::string id;
  store::StreamRecord stream;
  v1::TournamentSettings settings;
  engine::tournament::TournamentSettings model;
  std::vector<std::string> players;  // in registration order
  // settings.draw_lot: each round's lot commitment (round 1's from the
  // creation event, round r+1's from round r's "round_started") and, once
  // the round has started, its secret (32 bytes; model.drawn_lots[r] is
  // then derived from it and EntryGroup(r)).
  std::map<int, std::string> lot_commitments;
  std::map<int, std::string> lot_secrets;
  // Each player's display name, if one was given.
  std::map<std::string, std::string> display_names;
  // Late entries and withdrawals, as the model takes them.
  engine::tournament::FieldChanges changes;
  std::map<std::string, std::string> withdrawal_reasons;
  // Set by a "tournament_deleted" event: its reason (ReadTournament then
  // answers NotFound).
  std::optional<std::string> deleted;
  std::vector<RoundState> rounds;  // started: every table recorded
  // A round whose "round_started" event is stored but not all of its
  // "round_tables" events (StartRound stopped half way): StartRound finishes
  // it; everything else ignores it.
  std::optional<RoundState> starting;
  // Every event's request id (as stored: StreamRequestId) and sequence: how
  // a write finds that it was already made, so that its retry is answered.
  std::map<std::string, int64_t> request_ids;
  // Every "ruling_recorded" event by its dispute's id: how RuleDispute finds
  // a ruling recorded here whose dispute is not ruled yet (dispute_writer.h).
  std::map<std::string, v1::RulingRecorded> rulings;
};

// Folds a tournament's events. DataLoss if an event does not decode, is of
// an unknown type or names a round or table that does not exist.
absl::StatusOr<TournamentLog> FoldTournament(const std::string& id,
                                             const store::StreamRecord& stream,
                                             const std::vector<store::StreamEvent>& events);
// Reads and folds. NotFound ("tournament \"x\" does not exist", or "... was
// deleted: reason").
absl::StatusOr<TournamentLog> ReadTournament(store::StreamStore& streams, const std::string& id);
// The same, deleted tournaments included (TournamentLog::deleted set).
absl::StatusOr<TournamentLog> ReadTournamentLog(store::StreamStore& streams, const std::string& id);
// The players first paired in round `round` (1: every entrant registered
// before round 1), in registration order.
std::vector<std::string> EntryGroup(const TournamentLog& log, int round);
// Records round `round`'s lot secret (checked by the caller) in `log` and
// the seed of its entry group derived from it (engine::DeriveLotSeed): the
// one derivation the fold and StartRound share.
void ApplyLotDraw(TournamentLog& log, int round, const std::string& secret);

// The display name of `player` in `log`, or "".
const std::string& DisplayNameOf(const TournamentLog& log, const std::string& player);

}  // namespace arbiter::tournament

#endif  // ARBITER_SERVICES_TOURNAMENT_TOURNAMENT_LOG_H_
