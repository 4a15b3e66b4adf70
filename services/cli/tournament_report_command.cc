// `arbiter tournament report`: a table's result from its score sheet
// (TournamentService.ReportResult; docs/tournaments.md, "Score sheets"):
// places and game points by player id, no-shows and forfeits, who signed.
// The command reads the round first to put the players in seat order. With
// a player's token it proposes the sheet; `--accept` (organisers) enters the
// proposal.
#include <grpcpp/grpcpp.h>

#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "services/cli/client_common.h"
#include "services/cli/commands.h"
#include "services/log/json_lines.h"

namespace arbiter::cli {
namespace {

struct ReportOpts {
  ClientOptions client;
  std::string tournament;
  int round = 0;
  int table = 0;
  std::vector<std::string> places;       // PLAYER=PLACE
  std::vector<std::string> game_points;  // PLAYER=POINTS
  std::vector<std::string> no_shows;
  std::vector<std::string> forfeits;
  std::string team;  // cooperative: won or lost
  std::vector<std::string> signed_by;
  std::string note;
  bool accept = false;
  std::string request_id;
};

// "ann=3" as (ann, 3), for `flag`. InvalidArgument naming the flag.
absl::StatusOr<std::pair<std::string, int64_t>> PlayerNumber(const std::string& flag,
                                                             const std::string& arg) {
  std::vector<std::string> parts = absl::StrSplit(arg, absl::MaxSplits('=', 1));
  int64_t number = 0;
  if (parts.size() != 2 || parts[0].empty() || !absl::SimpleAtoi(parts[1], &number)) {
    return absl::InvalidArgumentError(
        absl::StrCat(flag, " \"", arg, "\": write PLAYER=NUMBER, e.g. ", flag, " ann=1"));
  }
  return std::make_pair(parts[0], number);
}

// The flags as one entry per seat of `table`. InvalidArgument for a player
// not at the table, one named twice, or a seat with no place.
absl::StatusOr<std::vector<v1::ReportedSeat>> SeatsOf(const ReportOpts& opts,
                                                      const v1::TournamentTable& table) {
  const std::set<std::string> seated(table.players().begin(), table.players().end());
  const std::string at = absl::StrCat(" at round ", opts.round, " table ", opts.table,
                                      " (its seats: ", absl::StrJoin(table.players(), ", "), ")");
  std::map<std::string, v1::ReportedSeat> by_player;
  std::set<std::string> named;
  auto name = [&](const std::string& flag, const std::string& player) -> absl::Status {
    if (!seated.contains(player)) {
      return absl::InvalidArgumentError(
          absl::StrCat(flag, ": \"", player, "\" does not sit", at));
    }
    if (flag != "--game-points" && !named.insert(player).second) {
      return absl::InvalidArgumentError(absl::StrCat(
          "\"", player, "\" is given more than one of --place, --no-show and --forfeit"));
    }
    return absl::OkStatus();
  };
  for (const std::string& arg : opts.places) {
    absl::StatusOr<std::pair<std::string, int64_t>> place = PlayerNumber("--place", arg);
    if (!place.ok()) return place.status();
    if (absl::Status s = name("--place", place->first); !s.ok()) return s;
    by_player[place->first].set_place(static_cast<int32_t>(place->second));
  }
  for (const std::string& arg : opts.game_points) {
    absl::StatusOr<std::pair<std::string, int64_t>> points = PlayerNumber("--game-points", arg);
    if (!points.ok()) return points.status();
    if (absl::Status s = name("--game-points", points->first); !s.ok()) return s;
    by_player[points->first].set_game_points(points->second);
  }
  for (const std::string& player : opts.no_shows) {
    if (absl::Status s = name("--no-show", player); !s.ok()) return s;
    by_player[player].set_outcome(v1::SEAT_OUTCOME_NO_SHOW);
  }
  for (const std::string& player : opts.forfeits) {
    if (absl::Status s = name("--forfeit", player); !s.ok()) return s;
    by_player[player].set_outcome(v1::SEAT_OUTCOME_FORFEIT);
  }
  std::vector<v1::ReportedSeat> seats;
  for (const std::string& player : table.players()) {
    if (opts.team.empty() && !named.contains(player)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "no --place for \"", player, "\"", at, "; give --place ", player,
          "=PLACE, or --no-show ", player, " or --forfeit ", player));
    }
    seats.push_back(by_player[player]);
  }
  return seats;
}

void PrintReported(const ReportOpts& opts, const v1::TournamentRound& round, int number) {
  for (const v1::TournamentTable& t : round.tables()) {
    if (t.number() != number) continue;
    if (!t.reported()) {
      std::cout << round.tournament() << " round " << round.round() << " table " << t.number()
                << ": score sheet proposed by " << t.proposal().proposed_by()
                << ", awaiting the organiser (arbiter tournament report " << opts.tournament << " "
                << opts.round << " " << opts.table << " --accept)\n";
      return;
    }
    std::cout << round.tournament() << " round " << round.round() << " table " << t.number()
              << ": reported, not refereed (" << t.game() << "); signed by "
              << absl::StrJoin(t.reported_result().signed_by(), ", ") << "\n";
    for (int i = 0; i < t.players_size(); ++i) {
      const std::string absent = SeatOutcomeText(t.reported_result(), i);
      std::cout << "  seat " << i + 1 << " " << t.players(i) << ": "
                << (!absent.empty() ? absent
                    : i < t.places_size() && t.places(i) > 0
                        ? absl::StrCat("place ", t.places(i), ", game points ", t.game_points(i))
                        : absl::StrCat("game points ", i < t.game_points_size() ? t.game_points(i) : 0))
                << (i < t.points_size()
                        ? absl::StrCat(", ", t.points(i),
                                       t.points(i) == "1" ? " tournament point" : " tournament points")
                        : "")
                << "\n";
    }
  }
}

int RunReport(const ReportOpts& opts) {
  if (!opts.team.empty() && opts.team != "won" && opts.team != "lost") {
    return ReportError(absl::InvalidArgumentError("--team must be won or lost"));
  }
  const bool sheet_flags = !opts.places.empty() || !opts.game_points.empty() ||
                           !opts.no_shows.empty() || !opts.forfeits.empty() ||
                           !opts.team.empty() || !opts.signed_by.empty() || !opts.note.empty();
  if (opts.accept && sheet_flags) {
    return ReportError(absl::InvalidArgumentError(
        "--accept enters the proposed sheet as it stands: give no other sheet flags"));
  }
  if (!opts.accept && opts.signed_by.empty()) {
    return ReportError(absl::InvalidArgumentError(
        "say who signed the score sheet: --signed-by NAME, once per signature"));
  }
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  v1::GetRoundRequest get;
  get.set_name(TournamentNameArg(opts.tournament));
  get.set_round(opts.round);
  v1::TournamentRound round;
  grpc::Status status = client->tournaments->GetRound(NewContext(*client).get(), get, &round);
  if (!status.ok()) return ReportRpcError(status);
  const v1::TournamentTable* table = nullptr;
  for (const v1::TournamentTable& t : round.tables()) {
    if (t.number() == opts.table) table = &t;
  }
  if (table == nullptr) {
    return ReportError(absl::NotFoundError(absl::StrCat(
        "round ", opts.round, " has no table ", opts.table, " (it has ", round.tables_size(),
        "; arbiter tournament tables ", opts.tournament, " ", opts.round, " lists them)")));
  }
  v1::ReportResultRequest request;
  absl::StatusOr<std::vector<v1::ReportedSeat>> seats =
      opts.accept ? std::vector<v1::ReportedSeat>() : SeatsOf(opts, *table);
  if (!seats.ok()) return ReportError(seats.status());
  request.set_accept_proposal(opts.accept);
  request.set_name(get.name());
  request.set_round(opts.round);
  request.set_table(opts.table);
  for (v1::ReportedSeat& seat : *seats) *request.add_seats() = std::move(seat);
  request.set_team_won(opts.team == "won");
  *request.mutable_signed_by() = {opts.signed_by.begin(), opts.signed_by.end()};
  request.set_note(opts.note);
  request.set_request_id(opts.request_id.empty()
                             ? absl::StrCat("report-", opts.tournament, "-", opts.round, "-",
                                            opts.table)
                             : opts.request_id);
  v1::TournamentRound out;
  status = client->tournaments->ReportResult(NewContext(*client).get(), request, &out);
  if (!status.ok()) return ReportRpcError(status);
  if (opts.client.json) {
    std::cout << log::ToJsonLine(out) << "\n";
  } else {
    PrintReported(opts, out, opts.table);
  }
  return 0;
}

}  // namespace

void AddTournamentReportCommand(CLI::App& group, int& exit_code) {
  auto opts = std::make_shared<ReportOpts>();
  CLI::App* cmd = group.add_subcommand(
      "report", "Enter a table's result from its score sheet (marked reported, not refereed)");
  cmd->add_option("tournament", opts->tournament, "Tournament id")->required();
  cmd->add_option("round", opts->round, "Round")->required();
  cmd->add_option("table", opts->table, "Table")->required();
  cmd->add_option("--place", opts->places, "PLAYER=PLACE, one per seat that played (1 is best)");
  cmd->add_option("--game-points", opts->game_points, "PLAYER=POINTS: the game's own score");
  cmd->add_option("--no-show", opts->no_shows, "A player who did not come (repeat)");
  cmd->add_option("--forfeit", opts->forfeits, "A player who conceded or left (repeat)");
  cmd->add_option("--team", opts->team, "Cooperative games: won or lost (instead of --place)");
  cmd->add_option("--signed-by", opts->signed_by, "A name signed on the sheet (repeat)");
  cmd->add_flag("--accept", opts->accept,
                "Organisers: enter the sheet a player of the table proposed, as it stands");
  cmd->add_option("--note", opts->note, "For people (optional)");
  cmd->add_option("--request-id", opts->request_id, "Request id (default: from the table)");
  AddClientOptions(*cmd, opts->client);
  cmd->callback([opts, &exit_code] { exit_code = RunReport(*opts); });
}

}  // namespace arbiter::cli
