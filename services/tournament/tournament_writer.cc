#include "services/tournament/tournament_writer.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/core/dealer_seed.h"
#include "engine/core/game.h"
#include "engine/core/status_macros.h"
#include "engine/tournament/pairing.h"
#include "services/common/resource_names.h"
#include "services/common/status_details.h"
#include "services/games/chained_game.h"
#include "services/games/dealt_game.h"
#include "services/tournament/tournament_access.h"
#include "services/tournament/tournament_checks.h"
#include "services/tournament/tournament_editor.h"
#include "services/tournament/tournament_reader.h"
#include "services/tournament/tournament_views.h"

namespace arbiter::tournament {
namespace {

constexpr int kConfirmationsPerEvent = 500;

// The append of `body` (tournament_access.h).
store::StreamAppendRequest AppendTo(const TournamentLog& log, const access::Caller& caller,
                                    const std::string& kind, const std::string& request_id,
                                    const char* type, const google::protobuf::Message& body) {
  return TournamentAppend(log, caller, kind, request_id, type, body);
}

// The key under which the store keeps a tournament's lot secret of `round`
// (a name no game id can take: game ids have no "/").
std::string LotSecretKey(const std::string& tournament_id, int round) {
  if (round == 1) return absl::StrCat("tournament/", tournament_id, "/lot");
  return absl::StrCat("tournament/", tournament_id, "/lot/", round);
}

// The request to create the game of `table` of `round`.
v1::CreateGameRequest CreateTableGame(const TournamentLog& log, int round,
                                      const v1::TournamentTable& table) {
  v1::CreateGameRequest create;
  create.set_request_id(absl::StrCat("tournament-", log.id, "-r", round, "-t", table.number()));
  create.set_game_id(TableGameId(log.id, round, table.number()));
  v1::Game* game = create.mutable_game();
  game->set_game_type(log.settings.game_type());
  for (const std::string& p : table.players()) {
    v1::Player* player = game->add_players();
    player->set_id(p);
    player->set_name(DisplayNameOf(log, p));
  }
  if (log.settings.deal_tables()) {
    game->set_deal(true);
  } else {
    game->set_seed(table.seed());
  }
  game->set_tournament(log.id);
  game->set_league(log.settings.league());
  game->set_spectators(log.settings.spectators());
  return create;
}

}  // namespace

absl::StatusOr<TournamentLog> TournamentWriter::ForWrite(const access::Caller& caller,
                                                         const std::string& name,
                                                         const std::string& request_id) {
  ARBITER_ASSIGN_OR_RETURN(const std::string id, ParseTournamentName(name));
  ARBITER_RETURN_IF_ERROR(CheckTournamentRequestId(request_id));
  return ReadToOrganise(caller, streams_, id);
}

absl::StatusOr<v1::Tournament> TournamentWriter::Answer(const std::string& id) {
  ARBITER_ASSIGN_OR_RETURN(const TournamentLog log, ReadTournament(streams_, id));
  return ReadTournamentView(results_, log, SeedSight::kAll);
}

absl::StatusOr<v1::Tournament> TournamentWriter::CreateTournament(
    const access::Caller& caller, const v1::CreateTournamentRequest& request) {
  ARBITER_RETURN_IF_ERROR(CheckTournamentRequestId(request.request_id()));
  if (!common::IsValidId(common::IdKind::kTournament, request.tournament_id())) {
    return common::FieldError("tournament_id",
                              "tournament_id must be 1-40 characters of A-Z a-z 0-9 _ . -");
  }
  ARBITER_RETURN_IF_ERROR(
      RequireCreateTournament(caller, request.tournament_id(), request.settings().league()));
  ARBITER_RETURN_IF_ERROR(CheckTournamentSettings(games_, request.settings()));
  ARBITER_RETURN_IF_ERROR(CheckNewPlayers({}, request.players()));
  ARBITER_RETURN_IF_ERROR(CheckDisplayNames(request.players(), request.display_names()));
  v1::TournamentCreated created;
  if (request.settings().draw_lot()) {
    ARBITER_ASSIGN_OR_RETURN(*created.mutable_lot_commitment(),
                             LotCommitmentFor(request.tournament_id(), 1));
  }
  *created.mutable_settings() = request.settings();
  *created.mutable_players() = request.players();
  *created.mutable_display_names() = request.display_names();
  TournamentLog empty;
  empty.id = request.tournament_id();
  store::StreamAppendRequest append =
      AppendTo(empty, caller, "create", request.request_id(), kTypeTournamentCreated, created);
  append.kind = kTournamentKind;
  ARBITER_RETURN_IF_ERROR(CheckPlayersFit(append, request.players_size()));
  if (absl::Status s = streams_.Append(append).status(); !s.ok()) {
    if (!absl::IsAlreadyExists(s)) return s;
    return absl::AlreadyExistsError(
        absl::StrCat("tournament \"", request.tournament_id(), "\" already exists"));
  }
  return Answer(request.tournament_id());
}

absl::StatusOr<v1::Tournament> TournamentWriter::RegisterPlayers(
    const access::Caller& caller, const v1::RegisterPlayersRequest& request) {
  ARBITER_ASSIGN_OR_RETURN(const TournamentLog log,
                           ForWrite(caller, request.name(), request.request_id()));
  // A retry of a registration that was stored is answered, not refused as
  // registering the same players twice.
  const std::string stream_name = common::NameOf(common::IdKind::kTournament, log.id);
  if (log.request_ids.contains(StreamRequestId("tournament-register", stream_name,
                                               caller.principal, request.request_id()))) {
    return Answer(log.id);
  }
  if (log.starting.has_value()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "round ", log.starting->number, " of tournament \"", log.id,
        "\" is being started; start round ", log.starting->number,
        " again to finish it, then register the players for the next round"));
  }
  if (static_cast<int>(log.rounds.size()) >= log.model.rounds) {
    return absl::FailedPreconditionError(
        absl::StrCat("tournament \"", log.id, "\" has started its last round (", log.model.rounds,
                     "); no round is left for a new player"));
  }
  if (request.players().empty()) {
    return common::FieldError("players", "players: at least one is required");
  }
  ARBITER_RETURN_IF_ERROR(CheckNewPlayers(log.players, request.players()));
  ARBITER_RETURN_IF_ERROR(CheckDisplayNames(request.players(), request.display_names()));
  v1::PlayersRegistered added;
  *added.mutable_players() = request.players();
  *added.mutable_display_names() = request.display_names();
  const store::StreamAppendRequest append =
      AppendTo(log, caller, "register", request.request_id(), kTypePlayersRegistered, added);
  ARBITER_RETURN_IF_ERROR(CheckPlayersFit(append, request.players_size()));
  ARBITER_RETURN_IF_ERROR(streams_.Append(append).status());
  return Answer(log.id);
}

absl::StatusOr<v1::TournamentRound> TournamentWriter::StartRound(
    const access::Caller& caller, const v1::StartRoundRequest& request) {
  ARBITER_ASSIGN_OR_RETURN(const TournamentLog log,
                           ForWrite(caller, request.name(), request.request_id()));
  const int next = static_cast<int>(log.rounds.size()) + 1;
  if (request.round() < 1) {
    return common::FieldError("round", "round is required: the round to start, from 1");
  }
  const std::string request_id =
      StreamRequestId("tournament-round", common::NameOf(common::IdKind::kTournament, log.id),
                      caller.principal, request.request_id());
  if (request.round() < next) return AnswerStarted(log, request.round(), request_id);
  if (request.round() > log.model.rounds) {
    return absl::FailedPreconditionError(
        absl::StrCat("tournament \"", log.id, "\" has ", log.model.rounds, " rounds"));
  }
  if (request.round() > next) {
    return absl::FailedPreconditionError(
        absl::StrCat("round ", request.round(), " cannot start before round ", next));
  }
  ARBITER_ASSIGN_OR_RETURN(const TournamentLog drawn, WithDrawnLot(log));
  ARBITER_ASSIGN_OR_RETURN(v1::RoundStarted started, DealNextRound(drawn));
  ARBITER_RETURN_IF_ERROR(AddLotDraw(drawn, started));
  ARBITER_ASSIGN_OR_RETURN(const RoundResume resume, ResumeRound(log, started, request_id));
  ARBITER_RETURN_IF_ERROR(CreateTableGames(caller, log, started));
  ARBITER_RETURN_IF_ERROR(RecordRound(caller, log, started, resume, request_id));
  ARBITER_ASSIGN_OR_RETURN(const TournamentLog after, ReadTournament(streams_, log.id));
  return ReadRoundView(results_, after, next, SeedSight::kAll);
}

absl::StatusOr<v1::TournamentRound> TournamentWriter::AnswerStarted(const TournamentLog& log,
                                                                    int number,
                                                                    const std::string& request_id) {
  const RoundState& earlier = log.rounds[static_cast<size_t>(number - 1)];
  const bool answered = earlier.request_id == request_id ||
                        std::find(earlier.finished_by.begin(), earlier.finished_by.end(),
                                  request_id) != earlier.finished_by.end();
  if (!answered) {
    return common::WithErrorInfo(
        absl::FailedPreconditionError(absl::StrCat(
            "round ", number,
            " has already started (by a request with another request id); read its tables instead")),
        "ROUND_STARTED", {{"tournament", log.id}, {"round", absl::StrCat(number)}});
  }
  return ReadRoundView(results_, log, number, SeedSight::kAll);
}

absl::StatusOr<std::string> TournamentWriter::LotCommitmentFor(const std::string& id, int round) {
  ARBITER_ASSIGN_OR_RETURN(const std::string secret, games::DrawDealerSecret());
  // A retry finds the first secret and commits to it again.
  ARBITER_ASSIGN_OR_RETURN(const std::string kept,
                           events_.KeepDealerSecret(LotSecretKey(id, round), secret));
  return engine::LotCommitment(id, kept);
}

absl::StatusOr<TournamentLog> TournamentWriter::WithDrawnLot(const TournamentLog& log) {
  const int next = static_cast<int>(log.rounds.size()) + 1;
  if (!log.settings.draw_lot() || log.lot_secrets.contains(next)) return log;
  ARBITER_ASSIGN_OR_RETURN(const std::optional<std::string> secret,
                           events_.DealerSecret(LotSecretKey(log.id, next)));
  const auto commitment = log.lot_commitments.find(next);
  if (!secret.has_value() || commitment == log.lot_commitments.end() ||
      engine::LotCommitment(log.id, *secret) != commitment->second) {
    return absl::DataLossError(absl::StrCat(
        "tournament \"", log.id, "\": the lot secret this server keeps for round ", next, " ",
        secret.has_value() ? "does not open" : "is missing for",
        " the commitment made for it; the round cannot be drawn (restore the dealer_secrets "
        "table from a backup)"));
  }
  TournamentLog drawn = log;
  ApplyLotDraw(drawn, next, *secret);
  return drawn;
}

absl::Status TournamentWriter::AddLotDraw(const TournamentLog& drawn, v1::RoundStarted& started) {
  if (!drawn.settings.draw_lot()) return absl::OkStatus();
  const int round = started.round();
  started.set_lot_secret(drawn.lot_secrets.at(round));
  if (round >= drawn.model.rounds) return absl::OkStatus();
  if (auto known = drawn.lot_commitments.find(round + 1); known != drawn.lot_commitments.end()) {
    started.set_next_lot_commitment(known->second);  // an interrupted start recorded it
    return absl::OkStatus();
  }
  ARBITER_ASSIGN_OR_RETURN(*started.mutable_next_lot_commitment(),
                           LotCommitmentFor(drawn.id, round + 1));
  return absl::OkStatus();
}

absl::StatusOr<v1::RoundStarted> TournamentWriter::DealNextRound(const TournamentLog& log) {
  ARBITER_ASSIGN_OR_RETURN(const ReadRounds read, ReadResults(results_, log, 0));
  ARBITER_ASSIGN_OR_RETURN(const engine::tournament::Round round,
                           engine::tournament::AssignRound(log.model, log.players, read.rounds,
                                                           log.changes));
  return RoundStartedOf(static_cast<int>(log.rounds.size()) + 1, round);
}

absl::Status TournamentWriter::CreateTableGames(const access::Caller& caller,
                                                const TournamentLog& log,
                                                const v1::RoundStarted& round) {
  std::vector<v1::CreateGameRequest> creates;
  creates.reserve(static_cast<size_t>(round.tables_size()));
  for (const v1::TournamentTable& table : round.tables()) {
    creates.push_back(CreateTableGame(log, round.round(), table));
  }
  const std::vector<absl::StatusOr<v1::Game>> created = games_.CreateMany(caller, creates);
  for (size_t i = 0; i < created.size(); ++i) {
    if (created[i].ok()) continue;
    if (!absl::IsAlreadyExists(created[i].status())) return created[i].status();
    // Created by an earlier attempt at this round (by another caller): the
    // same tournament and seats, or it is someone else's game.
    const std::string& game_id = creates[i].game_id();
    ARBITER_ASSIGN_OR_RETURN(const store::GameRecord record,
                             games::ChainedRecord(events_, game_id));
    const v1::TournamentTable& table = round.tables(static_cast<int>(i));
    const std::vector<std::string> seats(table.players().begin(), table.players().end());
    if (record.tournament_id != log.id || record.players != seats) {
      return absl::AlreadyExistsError(
          absl::StrCat("game \"", game_id, "\" exists and is not this table's game"));
    }
  }
  return absl::OkStatus();
}

absl::Status TournamentWriter::RecordRound(const access::Caller& caller, const TournamentLog& log,
                                           const v1::RoundStarted& round,
                                           const RoundResume& resume,
                                           const std::string& request_id) {
  int64_t expected = log.stream.last_sequence;
  for (RoundPart& part : RoundParts(round, resume.from, resume.first_request_id)) {
    if (resume.first_request_id != request_id) {
      // This request finishes a round another one began: its parts name it,
      // so that its retry is answered.
      part.body.set_finished_by(request_id);
      part.body.SerializeToString(&part.append.payload);
    }
    part.append.stream_id = common::NameOf(common::IdKind::kTournament, log.id);
    part.append.expected_sequence = expected++;
    part.append.recorded_by = caller.principal;
    ARBITER_RETURN_IF_ERROR(streams_.Append(part.append).status());
  }
  return absl::OkStatus();
}

absl::StatusOr<v1::TournamentRound> TournamentWriter::ConfirmResult(
    const access::Caller& caller, const v1::ConfirmResultRequest& request) {
  ARBITER_ASSIGN_OR_RETURN(TournamentLog log,
                           ForWrite(caller, request.name(), request.request_id()));
  const bool all = request.table() == 0;
  ARBITER_RETURN_IF_ERROR(CheckOpenTable(log, request.round(), all ? 1 : request.table(), false));
  if (!all) {
    ARBITER_RETURN_IF_ERROR(CheckNotConfirmedByAnother(
        log, request.round(), request.table(),
        StreamRequestId("tournament-confirm", common::NameOf(common::IdKind::kTournament, log.id),
                        caller.principal, request.request_id())));
  }
  ARBITER_ASSIGN_OR_RETURN(const v1::ResultsConfirmed batch,
                           Confirmations(log, request.round(), request.table()));
  ARBITER_RETURN_IF_ERROR(RecordConfirmations(caller, log, request.request_id(), !all, batch));
  if (batch.results_size() > 0) {
    ARBITER_ASSIGN_OR_RETURN(log, ReadTournament(streams_, log.id));
  }
  return ReadRoundView(results_, log, request.round(), SeedSight::kAll);
}

absl::StatusOr<v1::ResultsConfirmed> TournamentWriter::Confirmations(const TournamentLog& log,
                                                                     int round, int table) {
  const bool all = table == 0;
  ARBITER_ASSIGN_OR_RETURN(const Outcomes outcomes, ReadOutcomes(results_, log.id));
  v1::ResultsConfirmed batch;
  for (const TableState& state : log.rounds[static_cast<size_t>(round - 1)].tables) {
    if (!all && state.table.number() != table) continue;
    if (state.confirmed.has_value() || state.ruling.has_value()) continue;
    absl::StatusOr<v1::ResultConfirmed> confirmed = ConfirmationOf(outcomes, round, state);
    if (!confirmed.ok()) {
      if (all && absl::IsFailedPrecondition(confirmed.status())) continue;
      return confirmed.status();
    }
    *batch.add_results() = *std::move(confirmed);
  }
  return batch;
}

absl::Status TournamentWriter::RecordConfirmations(const access::Caller& caller,
                                                   const TournamentLog& log,
                                                   const std::string& request_id, bool one_table,
                                                   const v1::ResultsConfirmed& batch) {
  if (batch.results_size() == 1 && one_table) {
    return streams_
        .Append(
            AppendTo(log, caller, "confirm", request_id, kTypeResultConfirmed, batch.results(0)))
        .status();
  }
  // Events of at most kConfirmationsPerEvent tables, to stay well within a
  // stream event's size.
  for (int first = 0; first < batch.results_size(); first += kConfirmationsPerEvent) {
    v1::ResultsConfirmed part;
    for (int i = first; i < std::min(batch.results_size(), first + kConfirmationsPerEvent); ++i) {
      *part.add_results() = batch.results(i);
    }
    store::StreamAppendRequest append =
        AppendTo(log, caller, "confirm", request_id, kTypeResultsConfirmed, part);
    append.expected_sequence += first / kConfirmationsPerEvent;
    append.request_id += absl::StrCat("-", first / kConfirmationsPerEvent);
    ARBITER_RETURN_IF_ERROR(streams_.Append(append).status());
  }
  return absl::OkStatus();
}

}  // namespace arbiter::tournament
