#include "services/tournament/tournament_log.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/core/dealer_seed.h"
#include "engine/core/sha256.h"
#include "engine/core/status_macros.h"
#include "services/common/resource_names.h"
#include "services/common/status_details.h"

namespace arbiter::tournament {
namespace {

absl::Status Corrupt(const std::string& id, int64_t sequence, const std::string& why) {
  return absl::DataLossError(
      absl::StrCat("tournament \"", id, "\" event ", sequence, ": ", why));
}

// The table an event names; DataLoss if there is no such round or table.
absl::StatusOr<TableState*> TableOf(TournamentLog& log, int round_number, int table_number,
                                    const std::string& id, int64_t sequence) {
  if (round_number < 1 || round_number > static_cast<int>(log.rounds.size())) {
    return Corrupt(id, sequence, "no such round");
  }
  RoundState& round = log.rounds[static_cast<size_t>(round_number - 1)];
  if (table_number < 1 || table_number > static_cast<int>(round.tables.size())) {
    return Corrupt(id, sequence, "no such table");
  }
  return &round.tables[static_cast<size_t>(table_number - 1)];
}

// Appends a round event's tables to `round`: numbered on from the tables
// already there, never more than the round has.
absl::Status AddTables(const std::string& id, int64_t sequence, const v1::RoundStarted& event,
                       RoundState& round) {
  for (const v1::TournamentTable& table : event.tables()) {
    if (table.number() != static_cast<int>(round.tables.size()) + 1) {
      return Corrupt(id, sequence, absl::StrCat("table ", table.number(), " out of order"));
    }
    if (static_cast<int>(round.tables.size()) == round.table_count) {
      return Corrupt(id, sequence, "more tables than the round has");
    }
    v1::TournamentTable& t = round.tables.emplace_back().table;
    t = table;
    t.set_game(
        common::NameOf(common::IdKind::kGame, TableGameId(id, round.number, table.number())));
  }
  return absl::OkStatus();
}

// The event's payload as `M`; DataLoss ("undecodable") if it is not one.
template <typename M>
absl::StatusOr<M> Decode(const TournamentLog& log, const store::StreamEvent& event) {
  M body;
  if (!body.ParseFromString(event.payload)) return Corrupt(log.id, event.sequence, "undecodable");
  return body;
}

absl::Status SetSettings(TournamentLog& log, const store::StreamEvent& event,
                         const v1::TournamentSettings& settings) {
  log.settings = settings;
  absl::StatusOr<engine::tournament::TournamentSettings> model = ModelSettings(log.settings);
  if (!model.ok()) return Corrupt(log.id, event.sequence, std::string(model.status().message()));
  log.model = *std::move(model);
  return absl::OkStatus();
}

// Adds registered players with their display names (none, or one each); a
// player registered once a round has started is a late entrant.
absl::Status AddPlayers(TournamentLog& log, const store::StreamEvent& event,
                        const google::protobuf::RepeatedPtrField<std::string>& players,
                        const google::protobuf::RepeatedPtrField<std::string>& names) {
  if (!names.empty() && names.size() != players.size()) {
    return Corrupt(log.id, event.sequence, "display names do not match the players");
  }
  const int first_round = static_cast<int>(log.rounds.size()) + 1;
  for (int i = 0; i < players.size(); ++i) {
    log.players.push_back(players[i]);
    if (!names.empty() && !names[i].empty()) log.display_names[players[i]] = names[i];
    if (first_round > 1) log.changes.first_round[players[i]] = first_round;
  }
  return absl::OkStatus();
}

absl::Status FoldCreated(TournamentLog& log, const store::StreamEvent& event) {
  ARBITER_ASSIGN_OR_RETURN(const v1::TournamentCreated created,
                           Decode<v1::TournamentCreated>(log, event));
  ARBITER_RETURN_IF_ERROR(SetSettings(log, event, created.settings()));
  if (created.settings().draw_lot() != !created.lot_commitment().empty()) {
    return Corrupt(log.id, event.sequence,
                   "a drawn lot needs a lot commitment, and only a drawn lot has one");
  }
  if (log.settings.draw_lot()) log.lot_commitments[1] = created.lot_commitment();
  return AddPlayers(log, event, created.players(), created.display_names());
}

absl::Status FoldPlayersRegistered(TournamentLog& log, const store::StreamEvent& event) {
  ARBITER_ASSIGN_OR_RETURN(const v1::PlayersRegistered added,
                           Decode<v1::PlayersRegistered>(log, event));
  return AddPlayers(log, event, added.players(), added.display_names());
}

absl::Status FoldWithdrawn(TournamentLog& log, const store::StreamEvent& event) {
  ARBITER_ASSIGN_OR_RETURN(const v1::PlayerWithdrawn withdrawn,
                           Decode<v1::PlayerWithdrawn>(log, event));
  if (std::find(log.players.begin(), log.players.end(), withdrawn.player()) == log.players.end()) {
    return Corrupt(log.id, event.sequence, "withdraws a player who is not registered");
  }
  log.changes.withdrawn_after[withdrawn.player()] = static_cast<int>(log.rounds.size());
  log.withdrawal_reasons[withdrawn.player()] = withdrawn.reason();
  return absl::OkStatus();
}

// "settings_changed" and "tournament_deleted": before round 1 only.
absl::Status FoldBeforeRoundOne(TournamentLog& log, const store::StreamEvent& event) {
  if (!log.rounds.empty() || log.starting.has_value()) {
    return Corrupt(log.id, event.sequence, absl::StrCat(event.type, " after round 1 started"));
  }
  if (event.type == kTypeTournamentDeleted) {
    ARBITER_ASSIGN_OR_RETURN(const v1::TournamentDeleted deleted,
                             Decode<v1::TournamentDeleted>(log, event));
    log.deleted = deleted.reason();
    return absl::OkStatus();
  }
  ARBITER_ASSIGN_OR_RETURN(const v1::SettingsChanged changed,
                           Decode<v1::SettingsChanged>(log, event));
  if (changed.settings().draw_lot() != log.settings.draw_lot()) {
    return Corrupt(log.id, event.sequence, "settings_changed turns the drawn lot on or off");
  }
  return SetSettings(log, event, changed.settings());
}

// Round r's lot secret (settings.draw_lot): it must open the commitment made
// for round r; the seed of round r's entry group follows from it, and the
// event commits to round r+1's secret unless r is the last round.
absl::Status FoldLotSecret(TournamentLog& log, const store::StreamEvent& event,
                           const v1::RoundStarted& started) {
  const int round = started.round();
  if (!log.settings.draw_lot()) {
    if (started.lot_secret().empty() && started.next_lot_commitment().empty()) {
      return absl::OkStatus();
    }
    return Corrupt(log.id, event.sequence, "a lot secret where no lot is drawn");
  }
  if (started.lot_secret().empty()) {
    return Corrupt(log.id, event.sequence,
                   absl::StrCat("round ", round,
                                " of a tournament with a drawn lot records no lot secret"));
  }
  const auto commitment = log.lot_commitments.find(round);
  if (commitment == log.lot_commitments.end() ||
      !engine::CheckDealerSecret(started.lot_secret()).ok() ||
      engine::LotCommitment(log.id, started.lot_secret()) != commitment->second) {
    return Corrupt(log.id, event.sequence,
                   absl::StrCat("its lot secret does not open the lot commitment made for round ",
                                round, " (a forged or changed secret)"));
  }
  ApplyLotDraw(log, round, started.lot_secret());
  if (round < log.model.rounds) {
    if (!engine::IsSha256Hex(started.next_lot_commitment())) {
      return Corrupt(log.id, event.sequence,
                     absl::StrCat("round ", round, " records no commitment to round ", round + 1,
                                  "'s lot secret"));
    }
    log.lot_commitments[round + 1] = started.next_lot_commitment();
  }
  return absl::OkStatus();
}

// A round is started once all of its tables are recorded; until then it is
// `log.starting`.
absl::Status FoldRoundStarted(TournamentLog& log, const store::StreamEvent& event) {
  ARBITER_ASSIGN_OR_RETURN(const v1::RoundStarted started, Decode<v1::RoundStarted>(log, event));
  if (log.starting.has_value()) {
    return Corrupt(log.id, event.sequence,
                   "a round started before the last one's tables were all recorded");
  }
  if (started.round() != static_cast<int>(log.rounds.size()) + 1) {
    return Corrupt(log.id, event.sequence, "round out of order");
  }
  ARBITER_RETURN_IF_ERROR(FoldLotSecret(log, event, started));
  RoundState round;
  round.number = started.round();
  round.request_id = event.request_id;
  round.table_count = started.table_count() == 0 ? started.tables_size() : started.table_count();
  round.byes.assign(started.byes().begin(), started.byes().end());
  ARBITER_RETURN_IF_ERROR(AddTables(log.id, event.sequence, started, round));
  if (static_cast<int>(round.tables.size()) == round.table_count) {
    log.rounds.push_back(std::move(round));
  } else {
    log.starting = std::move(round);
  }
  return absl::OkStatus();
}

absl::Status FoldRoundTables(TournamentLog& log, const store::StreamEvent& event) {
  ARBITER_ASSIGN_OR_RETURN(const v1::RoundStarted more, Decode<v1::RoundStarted>(log, event));
  if (!log.starting.has_value() || log.starting->number != more.round()) {
    return Corrupt(log.id, event.sequence, "tables of a round that is not being started");
  }
  ARBITER_RETURN_IF_ERROR(AddTables(log.id, event.sequence, more, *log.starting));
  std::vector<std::string>& finishers = log.starting->finished_by;
  if (!more.finished_by().empty() &&
      std::find(finishers.begin(), finishers.end(), more.finished_by()) == finishers.end()) {
    finishers.push_back(more.finished_by());
  }
  if (static_cast<int>(log.starting->tables.size()) == log.starting->table_count) {
    log.rounds.push_back(*std::move(log.starting));
    log.starting.reset();
  }
  return absl::OkStatus();
}

// "result_confirmed" (one table) and "results_confirmed" (many).
absl::Status FoldConfirmed(TournamentLog& log, const store::StreamEvent& event) {
  v1::ResultsConfirmed batch;
  if (event.type == kTypeResultConfirmed) {
    ARBITER_ASSIGN_OR_RETURN(*batch.add_results(), Decode<v1::ResultConfirmed>(log, event));
  } else {
    ARBITER_ASSIGN_OR_RETURN(batch, Decode<v1::ResultsConfirmed>(log, event));
  }
  for (const v1::ResultConfirmed& confirmed : batch.results()) {
    ARBITER_ASSIGN_OR_RETURN(TableState* const table,
                             TableOf(log, confirmed.round(), confirmed.table(), log.id,
                                     event.sequence));
    table->confirmed = confirmed;
    table->confirmed_at = event.recorded_at;
    table->confirmed_event = event.sequence;
    table->confirmed_request_id = event.request_id;
  }
  return absl::OkStatus();
}

absl::Status FoldProposed(TournamentLog& log, const store::StreamEvent& event) {
  ARBITER_ASSIGN_OR_RETURN(v1::ResultProposed proposed, Decode<v1::ResultProposed>(log, event));
  ARBITER_ASSIGN_OR_RETURN(TableState* const table,
                           TableOf(log, proposed.round(), proposed.table(), log.id, event.sequence));
  table->proposal = std::move(proposed);
  ++table->proposals;
  return absl::OkStatus();
}

absl::Status FoldRuling(TournamentLog& log, const store::StreamEvent& event) {
  ARBITER_ASSIGN_OR_RETURN(const v1::RulingRecorded ruling, Decode<v1::RulingRecorded>(log, event));
  ARBITER_ASSIGN_OR_RETURN(TableState* const table,
                           TableOf(log, ruling.round(), ruling.table(), log.id, event.sequence));
  table->ruling = ruling;
  log.rulings[ruling.dispute()] = ruling;
  return absl::OkStatus();
}

absl::Status FoldEvent(TournamentLog& log, const store::StreamEvent& event) {
  if (log.deleted.has_value()) {
    return Corrupt(log.id, event.sequence, "an event after the tournament was deleted");
  }
  if (event.type == kTypeTournamentCreated) return FoldCreated(log, event);
  if (event.type == kTypePlayersRegistered) return FoldPlayersRegistered(log, event);
  if (event.type == kTypePlayerWithdrawn) return FoldWithdrawn(log, event);
  if (event.type == kTypeSettingsChanged || event.type == kTypeTournamentDeleted) {
    return FoldBeforeRoundOne(log, event);
  }
  if (event.type == kTypeRoundStarted) return FoldRoundStarted(log, event);
  if (event.type == kTypeRoundTables) return FoldRoundTables(log, event);
  if (event.type == kTypeResultConfirmed || event.type == kTypeResultsConfirmed) {
    return FoldConfirmed(log, event);
  }
  if (event.type == kTypeRulingRecorded) return FoldRuling(log, event);
  if (event.type == kTypeResultProposed) return FoldProposed(log, event);
  return Corrupt(log.id, event.sequence, absl::StrCat("unknown type \"", event.type, "\""));
}

}  // namespace

void ApplyLotDraw(TournamentLog& log, int round, const std::string& secret) {
  log.lot_secrets[round] = secret;
  log.model.drawn_lots[round] = engine::DeriveLotSeed(log.id, secret, EntryGroup(log, round));
}

std::vector<std::string> EntryGroup(const TournamentLog& log, int round) {
  std::vector<std::string> group;
  for (const std::string& p : log.players) {
    if (log.changes.FirstRound(p) == round) group.push_back(p);
  }
  return group;
}

std::string TableGameId(const std::string& tournament_id, int round, int table) {
  return absl::StrCat(tournament_id, "-r", round, "-t", table);
}

absl::StatusOr<std::string> ParseTournamentName(const std::string& name, const std::string& field) {
  absl::StatusOr<std::string> id = common::ParseName(common::IdKind::kTournament, name, field);
  if (!id.ok()) return common::WithFieldViolation(id.status(), field, "not a tournament name");
  return id;
}

absl::StatusOr<std::string> ParseDisputeName(const std::string& name) {
  absl::StatusOr<std::string> id = common::ParseName(common::IdKind::kDispute, name, "name");
  if (!id.ok()) return common::WithFieldViolation(id.status(), "name", "not a dispute name");
  return id;
}

std::string StreamRequestId(const std::string& kind, const std::string& stream_id,
                            const std::string& principal, const std::string& request_id) {
  return absl::StrCat(kind, "-",
                      engine::Sha256Hex(absl::StrCat(stream_id.size(), ":", stream_id,
                                                     principal.size(), ":", principal,
                                                     request_id)));
}

absl::StatusOr<engine::tournament::TournamentSettings> ModelSettings(const v1::TournamentSettings& in) {
  engine::tournament::TournamentSettings out;
  out.game_type = in.game_type();
  out.seed = in.seed();
  out.draw_lot = in.draw_lot();
  out.rounds = in.rounds();
  out.table_sizes.assign(in.table_sizes().begin(), in.table_sizes().end());
  out.preferred_size = in.preferred_table_size();
  switch (in.leftover()) {
    case v1::LEFTOVER_UNSPECIFIED:
    case v1::LEFTOVER_MIXED_SIZES:
      out.leftover = engine::tournament::Leftover::kMixedSizes;
      break;
    case v1::LEFTOVER_BYES:
      out.leftover = engine::tournament::Leftover::kByes;
      break;
    default:
      return absl::InvalidArgumentError(absl::StrCat("leftover: unknown value ", in.leftover()));
  }
  switch (in.scoring()) {
    case v1::TOURNAMENT_SCORING_UNSPECIFIED:
    case v1::TOURNAMENT_SCORING_PLACES:
      out.scoring = engine::tournament::Scoring::kPlaces;
      break;
    case v1::TOURNAMENT_SCORING_TABLE_SHARE:
      out.scoring = engine::tournament::Scoring::kTableShare;
      break;
    default:
      return absl::InvalidArgumentError(absl::StrCat("scoring: unknown value ", in.scoring()));
  }
  out.place_points.assign(in.place_points().begin(), in.place_points().end());
  out.share_points = in.share_points() == 0 ? 100 : in.share_points();
  out.bye_points = in.bye_points();
  out.no_show_points = in.no_show_points();
  out.forfeit_points = in.forfeit_points();
  for (const std::string& name : in.tie_breaks()) {
    ARBITER_ASSIGN_OR_RETURN(const engine::tournament::TieBreak criterion,
                             engine::tournament::ParseTieBreak(name));
    out.tie_breaks.push_back(criterion);
  }
  if (in.dispute_window_seconds() < 0) {
    return absl::InvalidArgumentError("dispute_window_seconds: must not be negative");
  }
  if (!in.league().empty() && !common::IsValidId(common::IdKind::kLeague, in.league())) {
    return absl::InvalidArgumentError("league: not a league id");
  }
  ARBITER_RETURN_IF_ERROR(engine::tournament::ValidateSettings(out));
  return out;
}

absl::StatusOr<TournamentLog> FoldTournament(const std::string& id,
                                             const store::StreamRecord& stream,
                                             const std::vector<store::StreamEvent>& events) {
  TournamentLog log;
  log.id = id;
  log.stream = stream;
  for (const store::StreamEvent& event : events) {
    ARBITER_RETURN_IF_ERROR(FoldEvent(log, event));
    log.request_ids[event.request_id] = event.sequence;
  }
  if (events.empty() || events.front().type != kTypeTournamentCreated) {
    return absl::DataLossError(absl::StrCat("tournament \"", id, "\" has no creation event"));
  }
  return log;
}

absl::StatusOr<TournamentLog> ReadTournament(store::StreamStore& streams, const std::string& id) {
  ARBITER_ASSIGN_OR_RETURN(TournamentLog log, ReadTournamentLog(streams, id));
  if (log.deleted.has_value()) {
    return absl::NotFoundError(
        absl::StrCat("tournament \"", id, "\" was deleted before round 1 (", *log.deleted, ")"));
  }
  return log;
}

const std::string& DisplayNameOf(const TournamentLog& log, const std::string& player) {
  static const std::string* const kNone = new std::string();
  auto it = log.display_names.find(player);
  return it == log.display_names.end() ? *kNone : it->second;
}

absl::StatusOr<TournamentLog> ReadTournamentLog(store::StreamStore& streams,
                                                const std::string& id) {
  absl::StatusOr<store::StreamRecord> stream =
      streams.GetStream(common::NameOf(common::IdKind::kTournament, id));
  if (!stream.ok()) {
    if (absl::IsNotFound(stream.status())) {
      return absl::NotFoundError(absl::StrCat("tournament \"", id, "\" does not exist"));
    }
    return stream.status();
  }
  if (stream->kind != kTournamentKind) {
    return absl::NotFoundError(absl::StrCat("tournament \"", id, "\" does not exist"));
  }
  std::vector<store::StreamEvent> events;
  int64_t after = 0;
  while (true) {
    ARBITER_ASSIGN_OR_RETURN(std::vector<store::StreamEvent> page,
                             streams.ReadStream(stream->stream_id, after, 10'000));
    if (page.empty()) break;
    after = page.back().sequence;
    for (store::StreamEvent& e : page) events.push_back(std::move(e));
    if (page.size() < 10'000) break;
  }
  return FoldTournament(id, *stream, events);
}

}  // namespace arbiter::tournament
