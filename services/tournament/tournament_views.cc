#include "services/tournament/tournament_views.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/core/seed_derivation.h"
#include "engine/core/status_macros.h"
#include "engine/tournament/standings.h"
#include "services/common/proto_time.h"
#include "services/common/resource_names.h"
#include "services/tournament/tournament_reader.h"

namespace arbiter::tournament {
namespace {

absl::Status NoSuchRound(const TournamentLog& log, int number) {
  return absl::NotFoundError(absl::StrCat("tournament \"", log.id, "\" has no round ", number,
                                          " (", log.rounds.size(), " started)"));
}

// Whether every round has started and every table's game is over.
bool EveryGameOver(const TournamentLog& log, const ReadRounds& read) {
  if (static_cast<int>(log.rounds.size()) < log.settings.rounds()) return false;
  for (const std::vector<bool>& round : read.game_over) {
    for (const bool over : round) {
      if (!over) return false;
    }
  }
  return true;
}

// Tournament.status (tournament_service.proto).
std::string StatusOf(const TournamentLog& log, bool last_round_closed) {
  if (log.rounds.empty()) return "registering";
  if (!last_round_closed) return "in play";
  if (static_cast<int>(log.rounds.size()) < log.settings.rounds()) return "between rounds";
  return "finished";
}

}  // namespace

absl::StatusOr<v1::Tournament> ReadTournamentView(store::ResultIndex& results,
                                                  const TournamentLog& log, SeedSight sight) {
  v1::Tournament out;
  out.set_name(common::NameOf(common::IdKind::kTournament, log.id));
  *out.mutable_settings() = log.settings;
  for (const std::string& p : log.players) {
    out.add_players(p);
    v1::TournamentEntrant* entrant = out.add_entrants();
    entrant->set_player(p);
    entrant->set_display_name(DisplayNameOf(log, p));
    entrant->set_first_round(log.changes.FirstRound(p));
    if (auto it = log.changes.withdrawn_after.find(p); it != log.changes.withdrawn_after.end()) {
      entrant->set_withdrawn(true);
      entrant->set_withdrawn_after_round(it->second);
      entrant->set_withdrawal_reason(log.withdrawal_reasons.at(p));
    }
  }
  out.set_rounds_started(static_cast<int>(log.rounds.size()));
  if (auto commitment = log.lot_commitments.find(1); commitment != log.lot_commitments.end()) {
    out.set_lot_commitment(commitment->second);
  }
  if (auto secret = log.lot_secrets.find(1); secret != log.lot_secrets.end()) {
    out.set_lot_secret(engine::HexOf(secret->second));
    out.set_lot_seed(log.model.drawn_lots.at(1));
  }
  ReadRounds read;
  if (!log.rounds.empty()) {
    ARBITER_ASSIGN_OR_RETURN(read, ReadResults(results, log, 0));
    out.set_last_round_closed(IsClosed(read.status.back()));
  }
  if (sight == SeedSight::kEndedGamesOnly && !EveryGameOver(log, read)) {
    out.mutable_settings()->clear_seed();
    out.set_seed_withheld(true);
  }
  out.set_status(StatusOf(log, out.last_round_closed()));
  out.set_creator(log.stream.created_by);
  *out.mutable_create_time() = common::TimestampOf(log.stream.created_at);
  out.set_last_event(log.stream.last_sequence);
  out.set_last_event_hash(log.stream.last_hash);
  return out;
}

absl::StatusOr<v1::TournamentRound> ReadRoundView(store::ResultIndex& results,
                                                  const TournamentLog& log, int number,
                                                  SeedSight sight) {
  if (number < 1 || number > static_cast<int>(log.rounds.size())) return NoSuchRound(log, number);
  ARBITER_ASSIGN_OR_RETURN(const ReadRounds read, ReadResults(results, log, number));
  return RoundView(log, read, number, sight);
}

absl::StatusOr<v1::TournamentStandings> ReadStandingsView(store::ResultIndex& results,
                                                          const TournamentLog& log,
                                                          int after_round) {
  const int started = static_cast<int>(log.rounds.size());
  if (after_round < 0 || after_round > started) return NoSuchRound(log, after_round);
  const int after = after_round == 0 ? started : after_round;
  ARBITER_ASSIGN_OR_RETURN(const ReadRounds read, ReadResults(results, log, after));
  ARBITER_ASSIGN_OR_RETURN(
      const std::vector<engine::tournament::StandingRow> rows,
      engine::tournament::ComputeStandings(log.model, log.players, read.rounds, log.changes));
  return StandingsView(log, after, rows);
}

}  // namespace arbiter::tournament
