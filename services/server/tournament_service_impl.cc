#include "services/server/tournament_service_impl.h"

#include "services/common/resource_names.h"
#include "services/common/proto_time.h"

#include <algorithm>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/tournament/pairing.h"
#include "engine/tournament/standings.h"
#include "services/games/chained_game.h"
#include "services/games/game_events.h"
#include "services/server/rpc_common.h"
#include "services/tournament/tournament_access.h"
#include "services/tournament/tournament_reader.h"

namespace arbiter::server {
namespace {

using tournament::ReadTournament;
using tournament::TournamentLog;

absl::StatusOr<std::string> IdOf(const std::string& name) {
  absl::StatusOr<std::string> id = common::ParseName(common::IdKind::kTournament, name, "name");
  if (!id.ok()) return common::WithFieldViolation(id.status(), "name", "not a tournament name");
  return id;
}

// Field errors from the model name their field before the colon.
absl::Status SettingsError(const absl::Status& status) {
  const std::string message(status.message());
  return common::WithFieldViolation(status, absl::StrCat("settings.", message.substr(0, message.find(':'))),
                            message);
}

absl::Status CheckNewPlayers(const std::vector<std::string>& registered,
                             const google::protobuf::RepeatedPtrField<std::string>& players) {
  std::set<std::string> seen(registered.begin(), registered.end());
  for (const std::string& p : players) {
    if (!common::IsValidId(common::IdKind::kPlayer, p)) {
      return common::FieldError("players", absl::StrCat("players: \"", p.substr(0, 80),
                                                "\" is not a player id (1-64 characters of "
                                                "A-Z a-z 0-9 _ . -)"));
    }
    if (!seen.insert(p).second) {
      return common::FieldError("players", absl::StrCat("players: \"", p, "\" is already registered"));
    }
  }
  return absl::OkStatus();
}

// A request's players must fit one stream event with the rest of it.
absl::Status CheckPlayersFit(const store::StreamAppendRequest& append, int players) {
  if (static_cast<int64_t>(append.payload.size()) <= store::kMaxStreamPayloadBytes) {
    return absl::OkStatus();
  }
  return common::FieldError("players", absl::StrCat("players: ", players, " players take ",
                                            append.payload.size(), " bytes; one request may hold ",
                                            store::kMaxStreamPayloadBytes,
                                            " (register the rest with RegisterPlayers)"));
}

store::StreamAppendRequest AppendTo(const TournamentLog& log, const access::Caller& caller,
                                    const std::string& kind, const std::string& request_id,
                                    const char* type, const google::protobuf::Message& body) {
  store::StreamAppendRequest append;
  append.stream_id = common::NameOf(common::IdKind::kTournament, log.id);
  append.expected_sequence = log.stream.last_sequence;
  append.request_id = tournament::StreamRequestId(absl::StrCat("tournament-", kind),
                                                         append.stream_id, caller.principal,
                                                         request_id);
  append.recorded_by = caller.principal;
  append.type = type;
  body.SerializeToString(&append.payload);
  return append;
}

// The round a result or ruling may name: started, and the last one (open).
absl::Status CheckOpenTable(const TournamentLog& log, int round, int table, bool closed) {
  const int started = static_cast<int>(log.rounds.size());
  if (round < 1 || round > started) {
    return absl::FailedPreconditionError(absl::StrCat(
        "round ", round, " of tournament \"", log.id, "\" is not open (",
        started == 0 ? std::string("no round has started") : absl::StrCat("round ", started,
                                                                           " is the latest"),
        ")"));
  }
  const int tables = static_cast<int>(log.rounds[static_cast<size_t>(round - 1)].tables.size());
  if (table < 1 || table > tables) {
    return absl::NotFoundError(
        absl::StrCat("round ", round, " has no table ", table, " (it has ", tables, ")"));
  }
  if (round != started || closed) {
    return absl::FailedPreconditionError(absl::StrCat("round ", round, " is closed"));
  }
  return absl::OkStatus();
}

constexpr int kConfirmationsPerEvent = 500;
// Bytes of tables in one round event, well within a stream event's 64 KiB.
constexpr size_t kRoundPartBytes = 48 * 1024;

// The events that record `round` from its table `from` (1-based) on: a
// "round_started" event with the byes and the number of tables (only when
// `from` is 1), then "round_tables" events, each holding as many tables as
// fit in kRoundPartBytes, in table order. Paired with each event's request
// id: `request_id` for "round_started", `request_id`-t{first table} for the
// others, so a retry writes the same events under the same ids.
std::vector<std::pair<store::StreamAppendRequest, v1::RoundStarted>> RoundParts(
    const v1::RoundStarted& round, int from, const std::string& request_id) {
  std::vector<std::pair<store::StreamAppendRequest, v1::RoundStarted>> parts;
  size_t bytes = 0;
  auto begin = [&](int first_table) {
    auto& [append, part] = parts.emplace_back();
    part.set_round(round.round());
    if (first_table == 1) {
      append.type = tournament::kTypeRoundStarted;
      append.request_id = request_id;
      *part.mutable_byes() = round.byes();
      part.set_table_count(round.tables_size());
    } else {
      append.type = tournament::kTypeRoundTables;
      append.request_id = absl::StrCat(request_id, "-t", first_table);
    }
    bytes = part.ByteSizeLong();
  };
  if (from == 1) begin(1);
  for (int t = from - 1; t < round.tables_size(); ++t) {
    const v1::TournamentTable& table = round.tables(t);
    const size_t size = table.ByteSizeLong() + 4;
    if (parts.empty() || (parts.back().second.tables_size() > 0 && bytes + size > kRoundPartBytes)) {
      begin(t + 1);
    }
    *parts.back().second.add_tables() = table;
    bytes += size;
  }
  for (auto& [append, part] : parts) part.SerializeToString(&append.payload);
  return parts;
}

// The confirmation of one table: its game finished legally.
absl::StatusOr<v1::ResultConfirmed> ConfirmationOf(const tournament::Outcomes& outcomes,
                                                   int round,
                                                   const tournament::TableState& table) {
  const std::string game_id = common::IdOf(common::IdKind::kGame, table.table.game());
  const tournament::GameOutcome* const outcome =
      &tournament::OutcomeOf(outcomes, table.table.game());
  if (outcome->status == store::GameStatus::kVoided) {
    return absl::FailedPreconditionError(absl::StrCat("game \"", game_id, "\" is voided"));
  }
  if (!outcome->finished.has_value()) {
    return absl::FailedPreconditionError(absl::StrCat("game \"", game_id, "\" has not finished"));
  }
  absl::StatusOr<engine::tournament::TableResult> result = tournament::ResultOf(
      *outcome->finished,
      std::vector<std::string>(table.table.players().begin(), table.table.players().end()));
  if (!result.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat("game \"", game_id, "\": ", result.status().message()));
  }
  v1::ResultConfirmed confirmed;
  confirmed.set_round(round);
  confirmed.set_table(table.table.number());
  confirmed.set_game(table.table.game());
  confirmed.set_game_event(outcome->finished_event);
  return confirmed;
}

// The checks every write makes before reading the tournament.
absl::StatusOr<TournamentLog> ForWrite(const access::Caller& caller, const std::string& name,
                                       const std::string& request_id,
                                       store::StreamStore& streams) {
  absl::StatusOr<std::string> id = IdOf(name);
  if (!id.ok()) return id.status();
  if (absl::Status s = tournament::CheckTournamentRequestId(request_id); !s.ok()) return s;
  if (absl::Status s = tournament::RequireOrganise(caller, *id); !s.ok()) return s;
  return ReadTournament(streams, *id);
}

}  // namespace

absl::StatusOr<v1::Tournament> TournamentServiceImpl::View(const TournamentLog& log) {
  v1::Tournament out;
  out.set_name(common::NameOf(common::IdKind::kTournament, log.id));
  *out.mutable_settings() = log.settings;
  for (const std::string& p : log.players) out.add_players(p);
  out.set_rounds_started(static_cast<int>(log.rounds.size()));
  if (!log.rounds.empty()) {
    absl::StatusOr<tournament::ReadRounds> read =
        tournament::ReadResults(events_, log, 0);
    if (!read.ok()) return read.status();
    out.set_last_round_closed(tournament::IsClosed(read->status.back()));
  }
  out.set_creator(log.stream.created_by);
  *out.mutable_create_time() = common::TimestampOf(log.stream.created_at);
  out.set_last_event(log.stream.last_sequence);
  out.set_last_event_hash(log.stream.last_hash);
  return out;
}

absl::Status TournamentServiceImpl::Answer(const std::string& id, v1::Tournament* response) {
  absl::StatusOr<TournamentLog> log = ReadTournament(streams_, id);
  if (!log.ok()) return log.status();
  absl::StatusOr<v1::Tournament> view = View(*log);
  if (!view.ok()) return view.status();
  *response = *std::move(view);
  return absl::OkStatus();
}

absl::StatusOr<v1::TournamentRound> TournamentServiceImpl::Round(const TournamentLog& log,
                                                                 int number) {
  if (number < 1 || number > static_cast<int>(log.rounds.size())) {
    return absl::NotFoundError(absl::StrCat("tournament \"", log.id, "\" has no round ", number,
                                            " (", log.rounds.size(), " started)"));
  }
  absl::StatusOr<tournament::ReadRounds> read =
      tournament::ReadResults(events_, log, number);
  if (!read.ok()) return read.status();
  return tournament::RoundView(log, *read, number);
}

grpc::Status TournamentServiceImpl::CreateTournament(grpc::ServerContext* context,
                                                     const v1::CreateTournamentRequest* request,
                                                     v1::Tournament* response) {
  return Serve(context, auth_, "CreateTournament", common::NameOf(common::IdKind::kTournament, request->tournament_id()),
               request->request_id(), [&](const access::Caller& caller) -> absl::Status {
                 if (absl::Status s = tournament::CheckTournamentRequestId(request->request_id()); !s.ok()) {
                   return s;
                 }
                 if (!common::IsValidId(common::IdKind::kTournament, request->tournament_id())) {
                   return common::FieldError("tournament_id",
                                     "tournament_id must be 1-40 characters of A-Z a-z 0-9 _ . -");
                 }
                 if (absl::Status s = tournament::RequireOrganise(caller, request->tournament_id()); !s.ok()) {
                   return s;
                 }
                 absl::StatusOr<engine::tournament::TournamentSettings> model =
                     tournament::ModelSettings(request->settings());
                 if (!model.ok()) return SettingsError(model.status());
                 if (absl::Status s = CheckNewPlayers({}, request->players()); !s.ok()) return s;
                 v1::TournamentCreated created;
                 *created.mutable_settings() = request->settings();
                 *created.mutable_players() = request->players();
                 TournamentLog empty;
                 empty.id = request->tournament_id();
                 store::StreamAppendRequest append =
                     AppendTo(empty, caller, "create", request->request_id(),
                              tournament::kTypeTournamentCreated, created);
                 append.kind = tournament::kTournamentKind;
                 if (absl::Status s = CheckPlayersFit(append, request->players_size()); !s.ok()) {
                   return s;
                 }
                 absl::StatusOr<store::StreamEvent> event = streams_.Append(append);
                 if (!event.ok()) {
                   if (absl::IsAlreadyExists(event.status())) {
                     return absl::AlreadyExistsError(absl::StrCat(
                         "tournament \"", request->tournament_id(), "\" already exists"));
                   }
                   return event.status();
                 }
                 return Answer(request->tournament_id(), response);
               });
}

grpc::Status TournamentServiceImpl::RegisterPlayers(grpc::ServerContext* context,
                                                    const v1::RegisterPlayersRequest* request,
                                                    v1::Tournament* response) {
  return Serve(context, auth_, "RegisterPlayers", request->name(), request->request_id(),
               [&](const access::Caller& caller) -> absl::Status {
                 absl::StatusOr<TournamentLog> log =
                     ForWrite(caller, request->name(), request->request_id(), streams_);
                 if (!log.ok()) return log.status();
                 const std::string* const id = &log->id;
                 if (!log->rounds.empty() || log->starting.has_value()) {
                   return absl::FailedPreconditionError(absl::StrCat(
                       "tournament \"", *id, "\" has started round 1; players can no longer "
                       "register"));
                 }
                 if (request->players().empty()) {
                   return common::FieldError("players", "players: at least one is required");
                 }
                 if (absl::Status s = CheckNewPlayers(log->players, request->players()); !s.ok()) {
                   return s;
                 }
                 v1::PlayersRegistered added;
                 *added.mutable_players() = request->players();
                 const store::StreamAppendRequest append =
                     AppendTo(*log, caller, "register", request->request_id(),
                              tournament::kTypePlayersRegistered, added);
                 if (absl::Status s = CheckPlayersFit(append, request->players_size()); !s.ok()) {
                   return s;
                 }
                 absl::StatusOr<store::StreamEvent> event = streams_.Append(append);
                 if (!event.ok()) return event.status();
                 return Answer(*id, response);
               });
}

grpc::Status TournamentServiceImpl::GetTournament(grpc::ServerContext* context,
                                                  const v1::GetTournamentRequest* request,
                                                  v1::Tournament* response) {
  return Serve(context, auth_, "GetTournament", request->name(), "",
               [&](const access::Caller&) -> absl::Status {
                 absl::StatusOr<std::string> id = IdOf(request->name());
                 if (!id.ok()) return id.status();
                 return Answer(*id, response);
               });
}

absl::Status TournamentServiceImpl::CreateTableGames(const access::Caller& caller,
                                                     const TournamentLog& log,
                                                     const v1::RoundStarted& round) {
  std::vector<v1::CreateGameRequest> creates;
  creates.reserve(static_cast<size_t>(round.tables_size()));
  for (const v1::TournamentTable& table : round.tables()) {
    v1::CreateGameRequest& create = creates.emplace_back();
    create.set_request_id(absl::StrCat("tournament-", log.id, "-r", round.round(), "-t",
                                       table.number()));
    create.set_game_id(tournament::TableGameId(log.id, round.round(), table.number()));
    v1::Game* game = create.mutable_game();
    game->set_game_type(log.settings.game_type());
    for (const std::string& p : table.players()) game->add_players()->set_id(p);
    game->set_seed(table.seed());
    game->set_tournament(log.id);
    game->set_league(log.settings.league());
  }
  const std::vector<absl::StatusOr<v1::Game>> created = writer_.CreateMany(caller, creates);
  for (size_t i = 0; i < created.size(); ++i) {
    if (created[i].ok()) continue;
    if (!absl::IsAlreadyExists(created[i].status())) return created[i].status();
    // Created by an earlier attempt at this round (by another caller): the
    // same tournament and seats, or it is someone else's game.
    const std::string& game_id = creates[i].game_id();
    absl::StatusOr<store::GameRecord> record = games::ChainedRecord(events_, game_id);
    if (!record.ok()) return record.status();
    const v1::TournamentTable& table = round.tables(static_cast<int>(i));
    if (record->tournament_id != log.id ||
        record->players !=
            std::vector<std::string>(table.players().begin(), table.players().end())) {
      return absl::AlreadyExistsError(
          absl::StrCat("game \"", game_id, "\" exists and is not this table's game"));
    }
  }
  return absl::OkStatus();
}

grpc::Status TournamentServiceImpl::StartRound(grpc::ServerContext* context,
                                               const v1::StartRoundRequest* request,
                                               v1::TournamentRound* response) {
  return Serve(context, auth_, "StartRound", request->name(), request->request_id(),
               [&](const access::Caller& caller) -> absl::Status {
                 absl::StatusOr<TournamentLog> log =
                     ForWrite(caller, request->name(), request->request_id(), streams_);
                 if (!log.ok()) return log.status();
                 const std::string* const id = &log->id;
                 const int next = static_cast<int>(log->rounds.size()) + 1;
                 if (request->round() < 1) {
                   return common::FieldError("round", "round is required: the round to start, from 1");
                 }
                 const std::string request_id = tournament::StreamRequestId(
                     "tournament-round", common::NameOf(common::IdKind::kTournament, *id), caller.principal,
                     request->request_id());
                 if (request->round() < next) {
                   // A retry is answered with the round it started; another
                   // request is refused.
                   const tournament::RoundState& earlier =
                       log->rounds[static_cast<size_t>(request->round() - 1)];
                   const bool answered =
                       earlier.request_id == request_id ||
                       std::find(earlier.finished_by.begin(), earlier.finished_by.end(),
                                 request_id) != earlier.finished_by.end();
                   if (!answered) {
                     return absl::FailedPreconditionError(absl::StrCat(
                         "round ", request->round(), " has already started (by another "
                         "StartRound request; GetRound reads its tables)"));
                   }
                   absl::StatusOr<v1::TournamentRound> view = Round(*log, request->round());
                   if (!view.ok()) return view.status();
                   *response = *std::move(view);
                   return absl::OkStatus();
                 }
                 if (request->round() > log->model.rounds) {
                   return absl::FailedPreconditionError(absl::StrCat(
                       "tournament \"", *id, "\" has ", log->model.rounds, " rounds"));
                 }
                 if (request->round() > next) {
                   return absl::FailedPreconditionError(absl::StrCat(
                       "round ", request->round(), " cannot start before round ", next));
                 }
                 absl::StatusOr<tournament::ReadRounds> read =
                     tournament::ReadResults(events_, *log, 0);
                 if (!read.ok()) return read.status();
                 absl::StatusOr<engine::tournament::Round> round =
                     engine::tournament::AssignRound(log->model, log->players, read->rounds);
                 if (!round.ok()) return round.status();
                 v1::RoundStarted started;
                 started.set_round(next);
                 for (const engine::tournament::Table& table : round->tables) {
                   v1::TournamentTable* t = started.add_tables();
                   t->set_number(table.number);
                   for (const std::string& p : table.players) t->add_players(p);
                   t->set_seed(table.game_seed);
                 }
                 for (const std::string& bye : round->byes) started.add_byes(bye);
                 // A round an earlier attempt recorded in part is finished as
                 // it was begun, under that attempt's request ids.
                 int from = 1;
                 std::string first_id = request_id;
                 if (log->starting.has_value()) {
                   const tournament::RoundState& begun = *log->starting;
                   bool same = begun.number == next && begun.table_count == started.tables_size();
                   for (size_t t = 0; same && t < begun.tables.size(); ++t) {
                     const v1::TournamentTable& had = begun.tables[t].table;
                     const v1::TournamentTable& now = started.tables(static_cast<int>(t));
                     same = had.seed() == now.seed() &&
                            std::equal(had.players().begin(), had.players().end(),
                                       now.players().begin(), now.players().end());
                   }
                   if (!same) {
                     return absl::AbortedError(absl::StrCat(
                         "round ", next, " was recorded in part with other tables than it now "
                         "has; the earlier results changed since"));
                   }
                   from = static_cast<int>(begun.tables.size()) + 1;
                   first_id = begun.request_id;
                 }
                 if (absl::Status s = CreateTableGames(caller, *log, started); !s.ok()) return s;
                 int64_t expected = log->stream.last_sequence;
                 for (auto& [append, part] : RoundParts(started, from, first_id)) {
                   if (first_id != request_id) {
                     // This request finishes a round another one began:
                     // its parts name it, so that its retry is answered.
                     part.set_finished_by(request_id);
                     part.SerializeToString(&append.payload);
                   }
                   append.stream_id = common::NameOf(common::IdKind::kTournament, *id);
                   append.expected_sequence = expected++;
                   append.recorded_by = caller.principal;
                   absl::StatusOr<store::StreamEvent> event = streams_.Append(append);
                   if (!event.ok()) return event.status();
                 }
                 absl::StatusOr<TournamentLog> after = ReadTournament(streams_, *id);
                 if (!after.ok()) return after.status();
                 absl::StatusOr<v1::TournamentRound> view = Round(*after, next);
                 if (!view.ok()) return view.status();
                 *response = *std::move(view);
                 return absl::OkStatus();
               });
}

grpc::Status TournamentServiceImpl::GetRound(grpc::ServerContext* context,
                                             const v1::GetRoundRequest* request,
                                             v1::TournamentRound* response) {
  return Serve(context, auth_, "GetRound", request->name(), "", [&](const access::Caller&) -> absl::Status {
    absl::StatusOr<std::string> id = IdOf(request->name());
    if (!id.ok()) return id.status();
    absl::StatusOr<TournamentLog> log = ReadTournament(streams_, *id);
    if (!log.ok()) return log.status();
    const int number = request->round() == 0 ? static_cast<int>(log->rounds.size())
                                             : request->round();
    absl::StatusOr<v1::TournamentRound> view = Round(*log, number);
    if (!view.ok()) return view.status();
    *response = *std::move(view);
    return absl::OkStatus();
  });
}

grpc::Status TournamentServiceImpl::ConfirmResult(grpc::ServerContext* context,
                                                  const v1::ConfirmResultRequest* request,
                                                  v1::TournamentRound* response) {
  return Serve(context, auth_, "ConfirmResult", request->name(), request->request_id(),
               [&](const access::Caller& caller) -> absl::Status {
                 absl::StatusOr<TournamentLog> log =
                     ForWrite(caller, request->name(), request->request_id(), streams_);
                 if (!log.ok()) return log.status();
                 const std::string* const id = &log->id;
                 const bool all = request->table() == 0;
                 if (absl::Status s = CheckOpenTable(*log, request->round(),
                                                     all ? 1 : request->table(), false);
                     !s.ok()) {
                   return s;
                 }
                 const auto& tables = log->rounds[static_cast<size_t>(request->round() - 1)].tables;
                 absl::StatusOr<tournament::Outcomes> outcomes =
                     tournament::ReadOutcomes(events_, *id);
                 if (!outcomes.ok()) return outcomes.status();
                 v1::ResultsConfirmed batch;
                 for (const tournament::TableState& table : tables) {
                   if (!all && table.table.number() != request->table()) continue;
                   if (table.confirmed.has_value() || table.ruling.has_value()) continue;
                   absl::StatusOr<v1::ResultConfirmed> confirmed =
                       ConfirmationOf(*outcomes, request->round(), table);
                   if (!confirmed.ok()) {
                     if (all && absl::IsFailedPrecondition(confirmed.status())) continue;
                     return confirmed.status();
                   }
                   *batch.add_results() = *std::move(confirmed);
                 }
                 if (batch.results_size() == 1 && !all) {
                   absl::StatusOr<store::StreamEvent> event = streams_.Append(
                       AppendTo(*log, caller, "confirm", request->request_id(),
                                tournament::kTypeResultConfirmed, batch.results(0)));
                   if (!event.ok()) return event.status();
                 } else {
                   // Events of at most kConfirmationsPerEvent tables, to stay
                   // well within a stream event's size.
                   for (int first = 0; first < batch.results_size();
                        first += kConfirmationsPerEvent) {
                     v1::ResultsConfirmed part;
                     for (int i = first;
                          i < std::min(batch.results_size(), first + kConfirmationsPerEvent); ++i) {
                       *part.add_results() = batch.results(i);
                     }
                     store::StreamAppendRequest append =
                         AppendTo(*log, caller, "confirm", request->request_id(),
                                  tournament::kTypeResultsConfirmed, part);
                     append.expected_sequence += first / kConfirmationsPerEvent;
                     append.request_id += absl::StrCat("-", first / kConfirmationsPerEvent);
                     absl::StatusOr<store::StreamEvent> event = streams_.Append(append);
                     if (!event.ok()) return event.status();
                   }
                 }
                 if (batch.results_size() > 0) {
                   log = ReadTournament(streams_, *id);
                   if (!log.ok()) return log.status();
                 }
                 absl::StatusOr<v1::TournamentRound> view = Round(*log, request->round());
                 if (!view.ok()) return view.status();
                 *response = *std::move(view);
                 return absl::OkStatus();
               });
}

grpc::Status TournamentServiceImpl::GetStandings(grpc::ServerContext* context,
                                                 const v1::GetStandingsRequest* request,
                                                 v1::TournamentStandings* response) {
  return Serve(context, auth_, "GetStandings", request->name(), "",
               [&](const access::Caller&) -> absl::Status {
                 absl::StatusOr<std::string> id = IdOf(request->name());
                 if (!id.ok()) return id.status();
                 absl::StatusOr<TournamentLog> log = ReadTournament(streams_, *id);
                 if (!log.ok()) return log.status();
                 const int started = static_cast<int>(log->rounds.size());
                 if (request->after_round() < 0 || request->after_round() > started) {
                   return absl::NotFoundError(absl::StrCat("tournament \"", *id, "\" has no round ",
                                                           request->after_round(), " (", started,
                                                           " started)"));
                 }
                 const int after = request->after_round() == 0 ? started : request->after_round();
                 absl::StatusOr<tournament::ReadRounds> read =
                     tournament::ReadResults(events_, *log, after);
                 if (!read.ok()) return read.status();
                 absl::StatusOr<std::vector<engine::tournament::StandingRow>> rows =
                     engine::tournament::ComputeStandings(log->model, log->players, read->rounds);
                 if (!rows.ok()) return rows.status();
                 *response = tournament::StandingsView(*log, after, *rows);
                 return absl::OkStatus();
               });
}

}  // namespace arbiter::server
