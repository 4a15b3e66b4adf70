#include "services/tournament/tournament_reader.h"

#include "services/common/resource_names.h"

#include <algorithm>
#include <map>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/core/seed_derivation.h"
#include "engine/tournament/pairing.h"
#include "engine/tournament/scoring.h"

namespace arbiter::tournament {
namespace {

const char* KindName(engine::tournament::RoundEntry::Kind kind) {
  switch (kind) {
    case engine::tournament::RoundEntry::Kind::kPlayed:
      return "played";
    case engine::tournament::RoundEntry::Kind::kBye:
      return "bye";
    case engine::tournament::RoundEntry::Kind::kVoid:
      return "void";
    case engine::tournament::RoundEntry::Kind::kPending:
      return "pending";
    case engine::tournament::RoundEntry::Kind::kAbsent:
      return "absent";
    case engine::tournament::RoundEntry::Kind::kWithdrawn:
      return "withdrawn";
    case engine::tournament::RoundEntry::Kind::kNotEntered:
      return "not entered";
    case engine::tournament::RoundEntry::Kind::kNoShow:
      return "no-show";
    case engine::tournament::RoundEntry::Kind::kForfeit:
      return "forfeit";
  }
  return "absent";
}

engine::tournament::SeatOutcome SeatOutcomeOf(v1::SeatOutcome outcome) {
  switch (outcome) {
    case v1::SEAT_OUTCOME_NO_SHOW:
      return engine::tournament::SeatOutcome::kNoShow;
    case v1::SEAT_OUTCOME_FORFEIT:
      return engine::tournament::SeatOutcome::kForfeit;
    default:
      return engine::tournament::SeatOutcome::kPlayed;
  }
}

}  // namespace

absl::StatusOr<GameOutcome> ReadOutcome(store::EventStore& events, const std::string& game_id) {
  absl::StatusOr<store::GameRecord> record = events.GetGame(game_id);
  if (!record.ok()) return record.status();
  GameOutcome out;
  out.status = record->status;
  if (record->status == store::GameStatus::kActive) return out;
  // The ending events are the last one or two (finished, then voided).
  const int64_t after = std::max<int64_t>(0, record->last_sequence - 2);
  absl::StatusOr<std::vector<store::StoredEvent>> tail =
      events.ReadGameEvents(game_id, after, 10);
  if (!tail.ok()) return tail.status();
  for (const store::StoredEvent& event : *tail) {
    if (event.type != store::kGameFinishedType) continue;
    v1::GameFinished finished;
    if (!finished.ParseFromString(event.payload)) {
      return absl::DataLossError(absl::StrCat("game \"", game_id, "\" event ", event.sequence,
                                              ": game_finished does not decode"));
    }
    out.finished = std::move(finished);
    out.finished_event = event.sequence;
  }
  return out;
}

absl::StatusOr<Outcomes> ReadOutcomes(store::ResultIndex& results, const std::string& tournament_id) {
  constexpr int kPage = 10'000;
  Outcomes out;
  int64_t after = 0;
  while (true) {
    absl::StatusOr<std::vector<store::ResultEvent>> page =
        results.ReadTournamentResults(tournament_id, after, kPage);
    if (!page.ok()) return page.status();
    for (const store::ResultEvent& result : *page) {
      GameOutcome& outcome = out[result.event.game_id];
      if (result.kind == store::GameStatus::kVoided) {
        outcome.status = store::GameStatus::kVoided;
        continue;
      }
      if (outcome.status != store::GameStatus::kVoided) outcome.status = store::GameStatus::kFinished;
      v1::GameFinished finished;
      if (!finished.ParseFromString(result.event.payload)) {
        return absl::DataLossError(absl::StrCat("game \"", result.event.game_id, "\" event ",
                                                result.event.sequence,
                                                ": game_finished does not decode"));
      }
      outcome.finished = std::move(finished);
      outcome.finished_event = result.event.sequence;
    }
    if (static_cast<int>(page->size()) < kPage) break;
    after = page->back().event.position;
  }
  return out;
}

const GameOutcome& OutcomeOf(const Outcomes& outcomes, const std::string& game_name) {
  static const GameOutcome* const kActive = [] {
    auto* active = new GameOutcome;
    active->status = store::GameStatus::kActive;
    return active;
  }();
  auto it = outcomes.find(common::IdOf(common::IdKind::kGame, game_name));
  return it == outcomes.end() ? *kActive : it->second;
}

absl::StatusOr<engine::tournament::TableResult> ResultOf(const v1::GameFinished& finished,
                                                 const std::vector<std::string>& seats) {
  const bool reported = finished.has_reported();
  if (finished.verdict() != v1::VERDICT_LEGAL && !reported) {
    return absl::FailedPreconditionError(
        "the game was not judged legal; only a ruling can give this table a result");
  }
  engine::tournament::TableResult result;
  result.kind = engine::tournament::TableResult::Kind::kPlayed;
  result.reported = reported;
  for (int outcome : finished.reported().outcomes()) {
    result.outcomes.push_back(SeatOutcomeOf(static_cast<v1::SeatOutcome>(outcome)));
  }
  const v1::Standings& standings = finished.standings();
  result.cooperative = standings.cooperative();
  result.team_won = standings.team_outcome() == v1::TEAM_OUTCOME_WON;
  std::map<std::string, const v1::PlayerStanding*> by_player;
  for (const v1::PlayerStanding& p : standings.players()) by_player[p.player()] = &p;
  for (const std::string& seat : seats) {
    auto it = by_player.find(seat);
    if (it == by_player.end()) {
      return absl::FailedPreconditionError(
          absl::StrCat("the game's standings do not list player \"", seat, "\""));
    }
    result.places.push_back(it->second->place());
    result.game_points.push_back(it->second->score());
  }
  if (result.cooperative) result.places.clear();
  return result;
}

absl::StatusOr<ReadRounds> ReadResults(store::ResultIndex& results, const TournamentLog& log,
                                       int up_to) {
  absl::StatusOr<Outcomes> outcomes = ReadOutcomes(results, log.id);
  if (!outcomes.ok()) return outcomes.status();
  return ResultsFrom(*outcomes, log, up_to);
}

ReadRounds ResultsFrom(const Outcomes& outcomes, const TournamentLog& log, int up_to) {
  ReadRounds out;
  const int last = up_to == 0 ? static_cast<int>(log.rounds.size())
                              : std::min(up_to, static_cast<int>(log.rounds.size()));
  for (int r = 0; r < last; ++r) {
    const RoundState& state = log.rounds[static_cast<size_t>(r)];
    engine::tournament::Round& round = out.rounds.emplace_back();
    std::vector<v1::TableStatus>& status = out.status.emplace_back();
    std::vector<bool>& game_over = out.game_over.emplace_back();
    round.number = state.number;
    round.byes = state.byes;
    for (const TableState& t : state.tables) {
      engine::tournament::Table& table = round.tables.emplace_back();
      table.number = t.table.number();
      table.players.assign(t.table.players().begin(), t.table.players().end());
      table.game_seed = t.table.seed();
      v1::TableStatus table_status = v1::TABLE_STATUS_PENDING;
      const bool upheld = t.ruling.has_value() && t.ruling->ruling().kind() == v1::RULING_KIND_UPHOLD;
      if (t.ruling.has_value() && !upheld) {
        if (t.ruling->ruling().kind() == v1::RULING_KIND_VOID) {
          table.result.kind = engine::tournament::TableResult::Kind::kVoid;
          table_status = v1::TABLE_STATUS_VOID;
        } else {
          const v1::CorrectedResult& c = t.ruling->ruling().corrected();
          table.result.kind = engine::tournament::TableResult::Kind::kPlayed;
          table.result.places.assign(c.places().begin(), c.places().end());
          table.result.game_points.assign(c.game_points().begin(), c.game_points().end());
          table_status = v1::TABLE_STATUS_CORRECTED;
        }
      } else {
        const GameOutcome* const outcome = &OutcomeOf(outcomes, t.table.game());
        if (outcome->status == store::GameStatus::kVoided) {
          table.result.kind = engine::tournament::TableResult::Kind::kVoid;
          table_status = v1::TABLE_STATUS_VOID;
        } else if ((t.confirmed.has_value() || upheld) && outcome->finished.has_value()) {
          absl::StatusOr<engine::tournament::TableResult> result =
              ResultOf(*outcome->finished, table.players);
          if (result.ok()) {
            table.result = *std::move(result);
            if (table.result.reported) out.reported[t.table.game()] = outcome->finished->reported();
            // An upheld appeal against a correction keeps the correction.
            table_status = outcome->finished->correction().empty() ? v1::TABLE_STATUS_CONFIRMED
                                                                   : v1::TABLE_STATUS_CORRECTED;
          }
        }
      }
      status.push_back(table_status);
      const store::GameStatus game_status = OutcomeOf(outcomes, t.table.game()).status;
      game_over.push_back(t.ruling.has_value() || game_status == store::GameStatus::kFinished ||
                          game_status == store::GameStatus::kVoided);
    }
  }
  return out;
}

bool IsClosed(const std::vector<v1::TableStatus>& status) {
  return std::none_of(status.begin(), status.end(),
                      [](v1::TableStatus s) { return s == v1::TABLE_STATUS_PENDING; });
}

v1::TournamentRound RoundView(const TournamentLog& log, const ReadRounds& read, int number,
                              SeedSight sight) {
  const size_t r = static_cast<size_t>(number - 1);
  const engine::tournament::Round& round = read.rounds[r];
  v1::TournamentRound out;
  out.set_tournament(common::NameOf(common::IdKind::kTournament, log.id));
  out.set_round(number);
  if (auto secret = log.lot_secrets.find(number); secret != log.lot_secrets.end()) {
    out.set_lot_secret(engine::HexOf(secret->second));
    out.set_lot_seed(log.model.drawn_lots.at(number));
  }
  if (auto next = log.lot_commitments.find(number + 1); next != log.lot_commitments.end()) {
    out.set_next_lot_commitment(next->second);
  }
  for (size_t t = 0; t < round.tables.size(); ++t) {
    const engine::tournament::Table& table = round.tables[t];
    v1::TournamentTable* view = out.add_tables();
    *view = log.rounds[r].tables[t].table;
    view->set_status(read.status[r][t]);
    view->set_game_over(read.game_over[r][t]);
    const std::optional<v1::ResultProposed>& proposal = log.rounds[r].tables[t].proposal;
    if (proposal.has_value() && read.status[r][t] == v1::TABLE_STATUS_PENDING &&
        !read.game_over[r][t]) {
      *view->mutable_proposal() = *proposal;
    }
    for (const std::string& p : table.players) view->add_display_names(DisplayNameOf(log, p));
    if (log.settings.deal_tables()) {
      view->clear_seed();
      view->set_dealt(true);
    } else if (sight == SeedSight::kEndedGamesOnly && !read.game_over[r][t]) {
      view->clear_seed();
      view->set_seed_withheld(true);
    }
    if (table.result.kind == engine::tournament::TableResult::Kind::kPlayed) {
      if (table.result.reported) {
        view->set_reported(true);
        if (auto it = read.reported.find(view->game()); it != read.reported.end()) {
          *view->mutable_reported_result() = it->second;
        }
      }
      for (int p : table.result.places) view->add_places(p);
      for (int64_t g : table.result.game_points) view->add_game_points(g);
      absl::StatusOr<std::vector<engine::tournament::Points>> points =
          engine::tournament::ScoreTable(log.model, table);
      if (points.ok()) {
        for (engine::tournament::Points p : *points) view->add_points(engine::tournament::FormatPoints(p));
      }
    }
  }
  for (const std::string& bye : round.byes) out.add_byes(bye);
  out.set_closed(IsClosed(read.status[r]));
  const std::vector<engine::tournament::Round> earlier(read.rounds.begin(),
                                               read.rounds.begin() + static_cast<long>(r));
  out.set_repeated_pairs(engine::tournament::RepeatCount(earlier, round));
  return out;
}

v1::TournamentStandings StandingsView(const TournamentLog& log, int after_round,
                                      const std::vector<engine::tournament::StandingRow>& rows) {
  v1::TournamentStandings out;
  out.set_tournament(common::NameOf(common::IdKind::kTournament, log.id));
  out.set_after_round(after_round);
  for (const std::string& t : log.settings.tie_breaks()) out.add_tie_breaks(t);
  for (const engine::tournament::StandingRow& row : rows) {
    v1::StandingsRow* view = out.add_rows();
    view->set_rank(row.rank);
    view->set_player(row.player);
    view->set_display_name(DisplayNameOf(log, row.player));
    view->set_withdrawn(log.changes.Withdrawn(row.player));
    view->set_points(engine::tournament::FormatPoints(row.points));
    for (const engine::tournament::RoundEntry& e : row.rounds) {
      v1::StandingsRoundEntry* entry = view->add_rounds();
      entry->set_round(e.round);
      entry->set_kind(KindName(e.kind));
      entry->set_table(e.table);
      entry->set_seat(e.seat);
      entry->set_place(e.place);
      entry->set_points(engine::tournament::FormatPoints(e.points));
      entry->set_game_points(e.game_points);
      entry->set_reported(e.reported);
    }
    view->set_game_points(row.game_points);
    view->set_wins(row.wins);
    view->set_strength_of_schedule(engine::tournament::FormatPoints(engine::tournament::StrengthOfSchedule(row)));
    view->set_has_head_to_head(row.head_to_head.has_value());
    view->set_head_to_head(row.head_to_head.value_or(0));
    view->set_lot(row.lot);
    view->set_decided_by(row.decided_by);
  }
  return out;
}

}  // namespace arbiter::tournament
