// How `arbiter tournament` prints tournaments, rounds and standings for
// people (tournament_text.h).
#include "services/cli/tournament_text.h"

#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "services/cli/client_common.h"
#include "services/cli/text_columns.h"

namespace arbiter::cli {

std::string Csv(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// "zoe (Zoë Müller)", or the id alone without a display name.
std::string PlayerLabel(const std::string& id, const std::string& name) {
  return name.empty() ? id : absl::StrCat(id, " (", name, ")");
}

namespace {

// The players, each with display name, late entry and withdrawal.
std::string EntrantsText(const v1::Tournament& t) {
  std::vector<std::string> out;
  for (const v1::TournamentEntrant& e : t.entrants()) {
    std::string text = PlayerLabel(e.player(), e.display_name());
    if (e.first_round() > 1) absl::StrAppend(&text, " [from round ", e.first_round(), "]");
    if (e.withdrawn()) {
      absl::StrAppend(&text, " [withdrew after round ", e.withdrawn_after_round(),
                      e.withdrawal_reason().empty() ? "" : ": ", e.withdrawal_reason(), "]");
    }
    out.push_back(std::move(text));
  }
  return absl::StrJoin(out, ", ");
}

// How the lot is drawn, when the server draws it.
std::string LotText(const v1::Tournament& t) {
  if (!t.settings().draw_lot()) return "";
  if (t.lot_secret().empty()) {
    return absl::StrCat(" (drawn by the server when round 1 starts; commitment ",
                        t.lot_commitment(), ")");
  }
  return absl::StrCat(" (drawn by the server: secret ", t.lot_secret(), ", lot seed ",
                      t.lot_seed(), ")");
}

}  // namespace

void PrintTournament(const v1::Tournament& t) {
  const v1::TournamentSettings& s = t.settings();
  std::cout << t.name() << ": " << s.game_type() << ", " << s.rounds() << " rounds, tables of "
            << absl::StrJoin(s.table_sizes(), "/") << " (preferred " << s.preferred_table_size()
            << "), seed "
            << (t.seed_withheld() ? "withheld until every game is over" : absl::StrCat(s.seed()))
            << (s.deal_tables() ? "; each table dealt by the server" : "")
            << (s.spectators() ? "; spectators may follow live tables" : "")
            << "\n  tie-breaks: "
            << (s.tie_breaks().empty() ? "none" : absl::StrJoin(s.tie_breaks(), ", "))
            << ", then the lot" << LotText(t) << "\n  players (" << t.players_size() << "): " << EntrantsText(t)
            << "\n  rounds started: "
            << t.rounds_started() << (t.last_round_closed() ? " (last closed)" : "")
            << "\n  log: " << t.last_event() << " events, last hash " << t.last_event_hash() << "\n";
}

const char* StatusName(const v1::TournamentTable& table) {
  switch (table.status()) {
    case v1::TABLE_STATUS_PENDING:
      return table.game_over() ? "finished, awaiting confirmation" : "pending";
    case v1::TABLE_STATUS_CONFIRMED:
      return table.reported() ? "reported, not refereed" : "confirmed";
    case v1::TABLE_STATUS_VOID:
      return "void";
    case v1::TABLE_STATUS_CORRECTED:
      return "corrected";
    default:
      return "unknown";
  }
}

void PrintRound(const v1::TournamentRound& round) {
  std::cout << round.tournament() << " round " << round.round()
            << (round.closed() ? " (closed)" : " (open)")
            << ", repeated table-mate pairs: " << round.repeated_pairs() << "\n";
  if (!round.lot_secret().empty()) {
    std::cout << "  lot drawn for the players first paired in this round: secret "
              << round.lot_secret() << ", seed " << round.lot_seed() << "\n";
  }
  if (!round.next_lot_commitment().empty()) {
    std::cout << "  commitment to the next round's lot: " << round.next_lot_commitment() << "\n";
  }
  size_t status_width = 10;
  for (const v1::TournamentTable& t : round.tables()) {
    status_width = std::max(status_width, std::string(StatusName(t)).size());
  }
  for (const v1::TournamentTable& t : round.tables()) {
    std::cout << absl::StrFormat("  table %-3d %s %s  seats:", t.number(),
                                 PadRight(StatusName(t), status_width), t.game());
    for (int i = 0; i < t.players_size(); ++i) {
      std::cout << " " << PlayerLabel(t.players(i), i < t.display_names_size() ? t.display_names(i) : "");
      const std::string absent = SeatOutcomeText(t.reported_result(), i);
      if (i < t.places_size() && i < t.points_size()) {
        std::cout << " (" << (absent.empty() ? absl::StrCat("place ", t.places(i)) : absent)
                  << ", " << t.points(i) << (t.points(i) == "1" ? " point)" : " points)");
      }
    }
    std::cout << "\n";
    if (t.has_proposal()) {
      std::cout << "            score sheet proposed by " << t.proposal().proposed_by()
                << ", awaiting the organiser (arbiter tournament report "
                << round.tournament().substr(round.tournament().find('/') + 1) << " "
                << round.round() << " " << t.number() << " --accept)\n";
    }
    if (t.reported()) {
      std::cout << "            score sheet signed by "
                << absl::StrJoin(t.reported_result().signed_by(), ", ")
                << (t.reported_result().proposed_by().empty()
                        ? ""
                        : absl::StrCat(" (proposed by ", t.reported_result().proposed_by(), ")"))
                << (t.reported_result().note().empty() ? "" : ": ") << t.reported_result().note()
                << "\n";
    }
  }
  if (!round.byes().empty()) std::cout << "  byes: " << absl::StrJoin(round.byes(), " ") << "\n";
}

void PrintStandings(const v1::TournamentStandings& standings, bool csv) {
  int rounds = standings.rows().empty() ? 0 : standings.rows(0).rounds_size();
  if (csv) {
    std::cout << "rank,player,display_name,withdrawn,points";
    for (int r = 1; r <= rounds; ++r) std::cout << ",round_" << r;
    std::cout << ",game_points,wins,strength_of_schedule,head_to_head,lot,decided_by,"
                 "reported_rounds\n";
  } else {
    std::cout << standings.tournament() << " after round " << standings.after_round()
              << "; tie-breaks: " << absl::StrJoin(standings.tie_breaks(), ", ")
              << ", lot\n"
              << absl::StrFormat("%5s  %s %8s  %s %6s %4s %7s %4s %4s  %s\n", "rank",
                                 PadRight("player", 16), "points", PadRight("per round", 24), "game",
                                 "wins", "sos", "h2h", "lot", "decided by");
  }
  bool any_reported = false;
  for (const v1::StandingsRow& row : standings.rows()) {
    std::vector<std::string> per_round;
    std::vector<std::string> reported_rounds;
    for (const v1::StandingsRoundEntry& e : row.rounds()) {
      // In the table's space-separated column a late entrant's missed round
      // is "-"; the CSV names it.
      // A reported (score-sheet) result is marked "r" in the table and listed
      // in the CSV's reported_rounds column.
      per_round.push_back(e.kind() == "played" || e.kind() == "bye"
                              ? absl::StrCat(e.points(), e.reported() && !csv ? "r" : "")
                          : e.kind() == "not entered" && !csv ? "-"
                                                              : e.kind());
      if (e.reported()) reported_rounds.push_back(absl::StrCat(e.round()));
    }
    const std::string h2h = row.has_head_to_head() ? absl::StrCat(row.head_to_head()) : "";
    if (csv) {
      std::cout << row.rank() << "," << Csv(row.player()) << "," << Csv(row.display_name()) << ","
                << (row.withdrawn() ? "yes" : "no") << "," << row.points();
      for (const std::string& p : per_round) std::cout << "," << p;
      std::cout << "," << row.game_points() << "," << row.wins() << ","
                << row.strength_of_schedule() << "," << h2h << "," << row.lot() << ","
                << row.decided_by() << "," << absl::StrJoin(reported_rounds, " ") << "\n";
    } else {
      any_reported |= !reported_rounds.empty();
      std::cout << absl::StrFormat("%5d  %s %8s  %s %6d %4d %7s %4s %4d  %s\n", row.rank(),
                                   PadRight(PlayerLabel(row.player(), row.display_name()) +
                                                (row.withdrawn() ? " [withdrawn]" : ""),
                                            16),
                                   row.points(), PadRight(absl::StrJoin(per_round, " "), 24),
                                   row.game_points(), row.wins(), row.strength_of_schedule(), h2h,
                                   row.lot(), row.decided_by());
    }
  }
  if (any_reported) {
    std::cout << "  r: a result reported from a score sheet, not refereed\n";
  }
}

}  // namespace arbiter::cli
