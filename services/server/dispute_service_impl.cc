#include "services/server/dispute_service_impl.h"

#include "services/common/resource_names.h"
#include "services/common/proto_time.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "engine/tournament/scoring.h"
#include "engine/tournament/standings.h"
#include "services/league/league_model.h"
#include "services/games/chained_game.h"
#include "services/games/game_events.h"
#include "services/games/game_loader.h"
#include "services/server/rpc_common.h"
#include "services/tournament/tournament_access.h"
#include "services/tournament/tournament_reader.h"

namespace arbiter::server {
namespace {

using tournament::ReadTournament;
using tournament::TournamentLog;

const char* RulingName(v1::RulingKind kind) {
  switch (kind) {
    case v1::RULING_KIND_UPHOLD:
      return "uphold";
    case v1::RULING_KIND_VOID:
      return "void";
    case v1::RULING_KIND_CORRECTED:
      return "corrected result";
    default:
      return "unspecified";
  }
}

// Every player whose rank, points or game points differ between two standings.
std::vector<v1::StandingChange> Changes(const std::vector<engine::tournament::StandingRow>& before,
                                        const std::vector<engine::tournament::StandingRow>& after) {
  std::map<std::string, const engine::tournament::StandingRow*> old_rows;
  for (const auto& row : before) old_rows[row.player] = &row;
  std::vector<v1::StandingChange> out;
  for (const auto& row : after) {
    const engine::tournament::StandingRow* old = old_rows[row.player];
    if (old != nullptr && old->rank == row.rank && old->points == row.points &&
        old->game_points == row.game_points) {
      continue;
    }
    v1::StandingChange& change = out.emplace_back();
    change.set_player(row.player);
    change.set_rank_before(old == nullptr ? 0 : old->rank);
    change.set_rank_after(row.rank);
    change.set_points_before(engine::tournament::FormatPoints(old == nullptr ? 0 : old->points));
    change.set_points_after(engine::tournament::FormatPoints(row.points));
    change.set_game_points_before(old == nullptr ? 0 : old->game_points);
    change.set_game_points_after(row.game_points);
  }
  return out;
}

absl::StatusOr<std::vector<engine::tournament::StandingRow>> StandingsOf(store::EventStore& events,
                                                                 const TournamentLog& log) {
  absl::StatusOr<tournament::ReadRounds> read =
      tournament::ReadResults(events, log, 0);
  if (!read.ok()) return read.status();
  return engine::tournament::ComputeStandings(log.model, log.players, read->rounds);
}

}  // namespace

v1::DisputeAdjudication DisputeServiceImpl::Adjudicate(const std::string& game_id,
                                                       const games::CancelCheck& cancel) {
  v1::DisputeAdjudication out;
  absl::StatusOr<v1::VerifyGameResponse> verify =
      games::VerifyStoredGame(events_, registry_, game_id, cancel);
  if (verify.ok()) {
    out.set_chain_intact(verify->intact());
    out.set_chain_detail(verify->intact() ? "every event's hash recomputed and matched"
                                          : verify->problem());
    out.set_events(verify->events());
    out.set_last_event_hash(verify->last_event_hash());
  } else {
    out.set_chain_detail(std::string(verify.status().message()));
  }
  absl::StatusOr<games::LoadedGame> game = games::LoadGame(events_, game_id, cancel);
  if (!game.ok()) return out;
  absl::StatusOr<replay::Referee> referee = games::Judge(*game, registry_, 0, cancel);
  if (!referee.ok()) return out;
  const v1::Adjudication judged = games::ToAdjudication(
      game_id, *referee, static_cast<int64_t>(game->stored.size()));
  out.set_verdict(judged.verdict());
  *out.mutable_violation() = judged.violation();
  *out.mutable_standings() = judged.standings();
  return out;
}

absl::StatusOr<v1::Dispute> DisputeServiceImpl::ReadDispute(const std::string& dispute_id) {
  absl::StatusOr<store::StreamRecord> stream = streams_.GetStream(common::NameOf(common::IdKind::kDispute, dispute_id));
  if (!stream.ok() || stream->kind != tournament::kDisputeKind) {
    if (!stream.ok() && !absl::IsNotFound(stream.status())) return stream.status();
    return absl::NotFoundError(absl::StrCat("dispute \"", dispute_id, "\" does not exist"));
  }
  absl::StatusOr<std::vector<store::StreamEvent>> events =
      streams_.ReadStream(stream->stream_id, 0, 100);
  if (!events.ok()) return events.status();
  v1::Dispute out;
  out.set_name(common::NameOf(common::IdKind::kDispute, dispute_id));
  out.set_state(v1::DISPUTE_STATE_OPEN);
  for (const store::StreamEvent& event : *events) {
    if (event.type == tournament::kTypeDisputeOpened) {
      v1::DisputeOpened opened;
      if (!opened.ParseFromString(event.payload)) {
        return absl::DataLossError(absl::StrCat("dispute \"", dispute_id, "\" event ",
                                                event.sequence, " does not decode"));
      }
      out.set_tournament(common::NameOf(common::IdKind::kTournament, opened.tournament()));
      out.set_round(opened.round());
      out.set_table(opened.table());
      out.set_game(opened.game());
      out.set_event(opened.event());
      out.set_reason(opened.reason());
      out.set_opened_by(event.recorded_by);
      *out.mutable_open_time() = common::TimestampOf(event.recorded_at);
      *out.mutable_adjudication() = opened.adjudication();
    } else if (event.type == tournament::kTypeDisputeRuled) {
      v1::DisputeRuled ruled;
      if (!ruled.ParseFromString(event.payload)) {
        return absl::DataLossError(absl::StrCat("dispute \"", dispute_id, "\" event ",
                                                event.sequence, " does not decode"));
      }
      out.set_state(v1::DISPUTE_STATE_RULED);
      *out.mutable_ruling() = ruled.ruling();
    }
  }
  out.set_last_event(stream->last_sequence);
  out.set_last_event_hash(stream->last_hash);
  return out;
}

absl::Status DisputeServiceImpl::AddRatingChanges(const std::string& dispute_id,
                                                  v1::Dispute& dispute) {
  const v1::RulingKind kind = dispute.ruling().kind();
  if (dispute.state() != v1::DISPUTE_STATE_RULED ||
      (kind != v1::RULING_KIND_VOID && kind != v1::RULING_KIND_CORRECTED)) {
    return absl::OkStatus();
  }
  const std::string game_id = dispute.game().substr(std::string_view("games/").size());
  absl::StatusOr<store::GameRecord> record = events_.GetGame(game_id);
  if (!record.ok()) return record.status();
  if (record->league_id.empty()) return absl::OkStatus();
  // The ruling's event: the game's void or corrected result that names this
  // dispute (none if the game was voided before the ruling). It follows the
  // game's result, near the end of its log.
  constexpr int kTail = 1000;
  absl::StatusOr<std::vector<store::StoredEvent>> tail = events_.ReadGameEvents(
      game_id, std::max<int64_t>(0, record->last_sequence - kTail), kTail);
  if (!tail.ok()) return tail.status();
  const std::string mark = absl::StrCat("dispute ", dispute_id, ": ");
  const store::StoredEvent* ruled = nullptr;
  for (const store::StoredEvent& event : *tail) {
    if (kind == v1::RULING_KIND_VOID && event.type == store::kGameVoidedType) {
      v1::GameVoided voided;
      if (voided.ParseFromString(event.payload) && voided.reason().starts_with(mark)) {
        ruled = &event;
      }
    } else if (kind == v1::RULING_KIND_CORRECTED && event.type == store::kGameFinishedType) {
      v1::GameFinished finished;
      if (finished.ParseFromString(event.payload) && finished.correction().starts_with(mark)) {
        ruled = &event;
      }
    }
  }
  if (ruled == nullptr) return absl::OkStatus();
  absl::StatusOr<std::vector<v1::RatingChange>> changes = league::RatingChangesAt(
      events_, streams_, record->league_id, ruled->position);
  if (!changes.ok()) {
    if (absl::IsNotFound(changes.status())) return absl::OkStatus();  // no such league
    return changes.status();
  }
  dispute.set_rating_event(absl::StrCat(dispute.game(), "/events/", ruled->sequence));
  for (v1::RatingChange& change : *changes) *dispute.add_rating_changes() = std::move(change);
  return absl::OkStatus();
}

grpc::Status DisputeServiceImpl::OpenDispute(grpc::ServerContext* context,
                                             const v1::OpenDisputeRequest* request,
                                             v1::Dispute* response) {
  return Serve(context, auth_, "OpenDispute", common::NameOf(common::IdKind::kDispute, request->dispute_id()),
               request->request_id(), [&](const access::Caller& caller) -> absl::Status {
    if (absl::Status s = tournament::CheckTournamentRequestId(request->request_id()); !s.ok()) return s;
    if (!common::IsValidId(common::IdKind::kTournament, request->dispute_id())) {
      return common::FieldError("dispute_id", "dispute_id must be 1-40 characters of A-Z a-z 0-9 _ . -");
    }
    absl::StatusOr<std::string> tournament_id =
        common::ParseName(common::IdKind::kTournament, request->tournament(), "tournament");
    if (!tournament_id.ok()) {
      return common::WithFieldViolation(tournament_id.status(), "tournament", "not a tournament name");
    }
    if (request->reason().empty() || request->reason().size() > 1000) {
      return common::FieldError("reason", "reason is required: 1-1000 bytes saying what is disputed");
    }
    absl::StatusOr<TournamentLog> log = ReadTournament(streams_, *tournament_id);
    if (!log.ok()) return log.status();
    const int rounds = static_cast<int>(log->rounds.size());
    if (request->round() < 1 || request->round() > rounds) {
      return absl::NotFoundError(absl::StrCat("tournament \"", *tournament_id, "\" has no round ",
                                              request->round(), " (", rounds, " started)"));
    }
    const auto& round = log->rounds[static_cast<size_t>(request->round() - 1)];
    if (request->table() < 1 || request->table() > static_cast<int>(round.tables.size())) {
      return absl::NotFoundError(absl::StrCat("round ", request->round(), " has no table ",
                                              request->table(), " (it has ", round.tables.size(),
                                              ")"));
    }
    const tournament::TableState& table =
        round.tables[static_cast<size_t>(request->table() - 1)];
    bool seated = false;
    for (const std::string& p : table.table.players()) seated = seated || p == caller.principal;
    if (!seated && !tournament::RequireOrganise(caller, *tournament_id).ok()) {
      return absl::PermissionDeniedError(absl::StrCat(
          "this token may not open a dispute on round ", request->round(), " table ",
          request->table(), " (admins, the tournament's organisers and the table's players only)"));
    }
    const int64_t window = log->settings.dispute_window_seconds() == 0
                               ? tournament::kDefaultDisputeWindowSeconds
                               : log->settings.dispute_window_seconds();
    if (table.confirmed.has_value()) {
      const absl::Time deadline = table.confirmed_at + absl::Seconds(window);
      if (absl::Now() > deadline) {
        return absl::FailedPreconditionError(absl::StrCat(
            "the dispute window for round ", request->round(), " table ", request->table(),
            " closed at ", absl::FormatTime(absl::RFC3339_sec, deadline, absl::UTCTimeZone()),
            " (", window, " s after its result was confirmed)"));
      }
    }
    const std::string game_id = common::IdOf(common::IdKind::kGame, table.table.game());
    absl::StatusOr<store::GameRecord> record = games::ChainedRecord(events_, game_id);
    if (!record.ok()) return record.status();
    if (request->event() < 0 || request->event() > record->last_sequence) {
      return common::FieldError("event", absl::StrCat("event: game \"", game_id, "\" has events 1-",
                                              record->last_sequence, " (0: the whole game)"));
    }
    v1::DisputeOpened opened;
    opened.set_tournament(*tournament_id);
    opened.set_round(request->round());
    opened.set_table(request->table());
    opened.set_game(table.table.game());
    opened.set_event(request->event());
    opened.set_reason(request->reason());
    *opened.mutable_adjudication() = Adjudicate(game_id, CancelOf(context));
    store::StreamAppendRequest append;
    append.stream_id = common::NameOf(common::IdKind::kDispute, request->dispute_id());
    append.kind = tournament::kDisputeKind;
    append.expected_sequence = 0;
    append.request_id = tournament::StreamRequestId(
        "dispute-open", append.stream_id, caller.principal, request->request_id());
    append.recorded_by = caller.principal;
    append.type = tournament::kTypeDisputeOpened;
    opened.SerializeToString(&append.payload);
    absl::StatusOr<store::StreamEvent> event = streams_.Append(append);
    if (!event.ok()) {
      if (absl::IsAlreadyExists(event.status())) {
        return absl::AlreadyExistsError(
            absl::StrCat("dispute \"", request->dispute_id(), "\" already exists"));
      }
      return event.status();
    }
    absl::StatusOr<v1::Dispute> dispute = ReadDispute(request->dispute_id());
    if (!dispute.ok()) return dispute.status();
    *response = *std::move(dispute);
    return absl::OkStatus();
  });
}

grpc::Status DisputeServiceImpl::GetDispute(grpc::ServerContext* context,
                                            const v1::GetDisputeRequest* request,
                                            v1::Dispute* response) {
  return Serve(context, auth_, "GetDispute", request->name(), "", [&](const access::Caller&) -> absl::Status {
    absl::StatusOr<std::string> id = common::ParseName(common::IdKind::kDispute, request->name(), "name");
    if (!id.ok()) return common::WithFieldViolation(id.status(), "name", "not a dispute name");
    absl::StatusOr<v1::Dispute> dispute = ReadDispute(*id);
    if (!dispute.ok()) return dispute.status();
    if (absl::Status s = AddRatingChanges(*id, *dispute); !s.ok()) return s;
    *response = *std::move(dispute);
    return absl::OkStatus();
  });
}

grpc::Status DisputeServiceImpl::RuleDispute(grpc::ServerContext* context,
                                             const v1::RuleDisputeRequest* request,
                                             v1::Dispute* response) {
  return Serve(context, auth_, "RuleDispute", request->name(), request->request_id(),
               [&](const access::Caller& caller) -> absl::Status {
    absl::StatusOr<std::string> id = common::ParseName(common::IdKind::kDispute, request->name(), "name");
    if (!id.ok()) return common::WithFieldViolation(id.status(), "name", "not a dispute name");
    if (absl::Status s = tournament::CheckTournamentRequestId(request->request_id()); !s.ok()) return s;
    absl::StatusOr<v1::Dispute> dispute = ReadDispute(*id);
    if (!dispute.ok()) return dispute.status();
    const std::string tournament_id = common::IdOf(common::IdKind::kTournament, dispute->tournament());
    if (absl::Status s = tournament::RequireOrganise(caller, tournament_id); !s.ok()) return s;
    if (dispute->state() == v1::DISPUTE_STATE_RULED) {
      return absl::FailedPreconditionError(absl::StrCat(
          "dispute \"", *id, "\" is closed: ruled ", RulingName(dispute->ruling().kind()), " by ",
          dispute->ruling().ruled_by()));
    }
    if (request->kind() != v1::RULING_KIND_UPHOLD && request->kind() != v1::RULING_KIND_VOID &&
        request->kind() != v1::RULING_KIND_CORRECTED) {
      return common::FieldError("kind", "kind is required: RULING_KIND_UPHOLD, _VOID or _CORRECTED");
    }
    if (request->reason().empty() || request->reason().size() > 1000) {
      return common::FieldError("reason", "reason is required: 1-1000 bytes saying why");
    }
    absl::StatusOr<TournamentLog> log = ReadTournament(streams_, tournament_id);
    if (!log.ok()) return log.status();
    tournament::TableState& table =
        log->rounds[static_cast<size_t>(dispute->round() - 1)]
            .tables[static_cast<size_t>(dispute->table() - 1)];
    if (request->kind() == v1::RULING_KIND_CORRECTED) {
      engine::tournament::TableResult corrected;
      corrected.kind = engine::tournament::TableResult::Kind::kPlayed;
      corrected.places.assign(request->corrected().places().begin(),
                              request->corrected().places().end());
      corrected.game_points.assign(request->corrected().game_points().begin(),
                                   request->corrected().game_points().end());
      if (absl::Status s = engine::tournament::CheckResult(
              corrected, static_cast<size_t>(table.table.players_size()));
          !s.ok()) {
        return common::WithFieldViolation(s, "corrected", std::string(s.message()));
      }
    } else if (request->corrected().places_size() > 0 ||
               request->corrected().game_points_size() > 0) {
      return common::FieldError("corrected", "corrected: only for RULING_KIND_CORRECTED");
    }
    absl::StatusOr<std::vector<engine::tournament::StandingRow>> before = StandingsOf(events_, *log);
    if (!before.ok()) return before.status();

    v1::RulingRecorded recorded;
    recorded.set_dispute(*id);
    recorded.set_round(dispute->round());
    recorded.set_table(dispute->table());
    v1::Ruling* ruling = recorded.mutable_ruling();
    ruling->set_kind(request->kind());
    ruling->set_reason(request->reason());
    *ruling->mutable_corrected() = request->corrected();
    ruling->set_ruled_by(caller.principal);
    *ruling->mutable_rule_time() = common::TimestampOf(absl::Now());
    if (request->kind() == v1::RULING_KIND_VOID) {
      v1::VoidGameRequest void_request;
      void_request.set_name(dispute->game());
      void_request.set_request_id(absl::StrCat("dispute-", *id));
      void_request.set_reason(absl::StrCat("dispute ", *id, ": ", request->reason()));
      absl::StatusOr<v1::Game> voided = writer_.Void(caller, void_request);
      if (!voided.ok() && !absl::IsFailedPrecondition(voided.status())) return voided.status();
    } else if (request->kind() == v1::RULING_KIND_CORRECTED) {
      // The corrected result goes into the game's own log too, so that the
      // league's ratings count it in place of the game's (a voided game
      // stays voided: FailedPrecondition is no error here).
      v1::Standings standings;
      for (int i = 0; i < table.table.players_size(); ++i) {
        v1::PlayerStanding* seat = standings.add_players();
        seat->set_player(table.table.players(i));
        seat->set_seat(i + 1);
        seat->set_place(request->corrected().places(i));
        seat->set_score(request->corrected().game_points(i));
      }
      absl::StatusOr<int64_t> corrected = writer_.RecordCorrection(
          caller, common::IdOf(common::IdKind::kGame, dispute->game()), standings,
          absl::StrCat("dispute ", *id, ": ", request->reason()), absl::StrCat("dispute-", *id));
      if (!corrected.ok() && !absl::IsFailedPrecondition(corrected.status())) {
        return corrected.status();
      }
    }
    // The standings as the ruling makes them.
    table.ruling = recorded;
    absl::StatusOr<std::vector<engine::tournament::StandingRow>> after = StandingsOf(events_, *log);
    if (!after.ok()) return after.status();
    for (v1::StandingChange& change : Changes(*before, *after)) {
      *ruling->add_changes() = std::move(change);
    }
    store::StreamAppendRequest to_tournament;
    to_tournament.stream_id = common::NameOf(common::IdKind::kTournament, tournament_id);
    to_tournament.expected_sequence = log->stream.last_sequence;
    to_tournament.request_id = absl::StrCat("tournament-ruling-", *id);
    to_tournament.recorded_by = caller.principal;
    to_tournament.type = tournament::kTypeRulingRecorded;
    recorded.SerializeToString(&to_tournament.payload);
    absl::StatusOr<store::StreamEvent> first = streams_.Append(to_tournament);
    if (!first.ok()) return first.status();
    v1::DisputeRuled ruled;
    *ruled.mutable_ruling() = *ruling;
    store::StreamAppendRequest to_dispute;
    to_dispute.stream_id = common::NameOf(common::IdKind::kDispute, *id);
    to_dispute.expected_sequence = dispute->last_event();
    to_dispute.request_id = absl::StrCat("dispute-ruling-", *id);
    to_dispute.recorded_by = caller.principal;
    to_dispute.type = tournament::kTypeDisputeRuled;
    ruled.SerializeToString(&to_dispute.payload);
    absl::StatusOr<store::StreamEvent> second = streams_.Append(to_dispute);
    if (!second.ok()) return second.status();
    absl::StatusOr<v1::Dispute> out = ReadDispute(*id);
    if (!out.ok()) return out.status();
    if (absl::Status s = AddRatingChanges(*id, *out); !s.ok()) return s;
    *response = *std::move(out);
    return absl::OkStatus();
  });
}

grpc::Status DisputeServiceImpl::ListDisputes(grpc::ServerContext* context,
                                              const v1::ListDisputesRequest* request,
                                              v1::ListDisputesResponse* response) {
  return Serve(context, auth_, "ListDisputes", request->tournament(), "",
               [&](const access::Caller&) -> absl::Status {
    if (request->page_size() < 0 || request->page_size() > 1000) {
      return common::FieldError("page_size", "page_size must be 0-1000");
    }
    const int size = request->page_size() == 0 ? 100 : request->page_size();
    std::string after;
    if (!request->page_token().empty()) {
      if (!common::ParseName(common::IdKind::kDispute, request->page_token(), "page_token").ok()) {
        return common::FieldError("page_token", "page_token: not a token from a previous page");
      }
      after = request->page_token();
    }
    while (true) {
      absl::StatusOr<std::vector<store::StreamRecord>> streams =
          streams_.ListStreams(tournament::kDisputeKind, after, 1000);
      if (!streams.ok()) return streams.status();
      for (const store::StreamRecord& stream : *streams) {
        after = stream.stream_id;
        absl::StatusOr<v1::Dispute> dispute = ReadDispute(common::IdOf(common::IdKind::kDispute, stream.stream_id));
        if (!dispute.ok()) return dispute.status();
        if (!request->tournament().empty() && dispute->tournament() != request->tournament()) {
          continue;
        }
        if (response->disputes_size() == size) {
          response->set_next_page_token(response->disputes().rbegin()->name());
          return absl::OkStatus();
        }
        *response->add_disputes() = *std::move(dispute);
      }
      if (streams->size() < 1000) return absl::OkStatus();
    }
  });
}

}  // namespace arbiter::server
