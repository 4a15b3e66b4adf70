// The `arbiter tournament` commands: create, register, show, start, tables,
// confirm, standings and results (CSV or JSON exports); list and tokens live
// in files of their own. Clients of arbiterd's
// TournamentService (docs/tournaments.md).
#include <algorithm>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "services/cli/client_common.h"
#include "services/cli/commands.h"
#include "services/cli/text_columns.h"
#include "services/cli/tournament_text.h"
#include "services/log/json_lines.h"
#include "services/log/log_file.h"

namespace arbiter::cli {
namespace {

// The ids and display names of `--player ID[=NAME]` values, in order; names
// empty if none is given.
void AddEntrants(const std::vector<std::string>& values,
                 google::protobuf::RepeatedPtrField<std::string>* players,
                 google::protobuf::RepeatedPtrField<std::string>* names) {
  bool named = false;
  for (const std::string& value : values) {
    const std::size_t eq = value.find('=');
    *players->Add() = value.substr(0, eq);
    *names->Add() = eq == std::string::npos ? "" : value.substr(eq + 1);
    named = named || eq != std::string::npos;
  }
  if (!named) names->Clear();
}

struct Opts {
  ClientOptions client;
  std::string tournament;
  std::string request_id;
  int round = 0;
  int table = 0;
  bool csv = false;
  std::vector<std::string> players;
  // create
  std::string game;
  uint64_t seed = 0;
  int rounds = 0;
  std::vector<int> table_sizes;
  int preferred = 0;
  bool byes = false;
  std::string scoring = "places";
  std::vector<int64_t> place_points;
  int64_t share_points = 0;
  int64_t bye_points = 0;
  int64_t no_show_points = 0;
  int64_t forfeit_points = 0;
  bool deal_tables = false;
  bool draw_lot = false;
  bool spectators = false;
  std::vector<std::string> tie_breaks;
  std::string league;
  int64_t dispute_window = 0;
  // play
  std::string log_file;
  bool rename_seats = false;
};

// Calls `rpc` on a connected client and prints the answer as JSON, or as
// `print` says. Returns the exit code.
template <typename Response, typename Call, typename Print>
int Run(const Opts& opts, Call call, Print print) {
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  Response response;
  grpc::Status status = call(*client, response);
  if (!status.ok()) return ReportRpcError(status);
  if (opts.client.json) {
    std::cout << log::ToJsonLine(response) << "\n";
  } else {
    print(response);
  }
  return 0;
}

int RunResults(const Opts& opts) {
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  v1::GetTournamentRequest get;
  get.set_name(TournamentNameArg(opts.tournament));
  v1::Tournament tournament;
  grpc::Status status = client->tournaments->GetTournament(NewContext(*client).get(), get, &tournament);
  if (!status.ok()) return ReportRpcError(status);
  if (opts.csv) {
    std::cout << "round,table,seat,player,display_name,game,status,place,game_points,points,"
                 "outcome\n";
  }
  for (int r = 1; r <= tournament.rounds_started(); ++r) {
    v1::GetRoundRequest request;
    request.set_name(get.name());
    request.set_round(r);
    v1::TournamentRound round;
    status = client->tournaments->GetRound(NewContext(*client).get(), request, &round);
    if (!status.ok()) return ReportRpcError(status);
    if (!opts.csv) {
      if (opts.client.json) {
        std::cout << log::ToJsonLine(round) << "\n";
      } else {
        PrintRound(round);
      }
      continue;
    }
    for (const v1::TournamentTable& t : round.tables()) {
      for (int i = 0; i < t.players_size(); ++i) {
        const bool scored = i < t.places_size();
        const std::string absent = SeatOutcomeText(t.reported_result(), i);
        std::cout << r << "," << t.number() << "," << i + 1 << "," << Csv(t.players(i)) << ","
                  << Csv(i < t.display_names_size() ? t.display_names(i) : "") << "," << t.game() << "," << Csv(StatusName(t)) << ","
                  << (scored && absent.empty() ? absl::StrCat(t.places(i)) : "") << ","
                  << (scored ? absl::StrCat(t.game_points(i)) : "") << ","
                  << (i < t.points_size() ? t.points(i) : "") << ","
                  << (!scored ? "" : absent.empty() ? "played" : absent) << "\n";
      }
    }
    for (const std::string& bye : round.byes()) {
      std::cout << r << ",,," << Csv(bye) << ",,,bye,,,,\n";
    }
  }
  return 0;
}

// Appends a log's actions to a table's game (live play, or a log a player
// proposes; it counts once the organiser confirms the result).
int RunPlay(const Opts& opts) {
  absl::StatusOr<log::GameLog> game_log = log::ReadLogFile(opts.log_file);
  if (!game_log.ok()) return ReportError(game_log.status());
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  v1::GetRoundRequest get;
  get.set_name(TournamentNameArg(opts.tournament));
  get.set_round(opts.round);
  v1::TournamentRound round;
  grpc::Status status = client->tournaments->GetRound(NewContext(*client).get(), get, &round);
  if (!status.ok()) return ReportRpcError(status);
  if (opts.table < 1 || opts.table > round.tables_size()) {
    return ReportError(absl::NotFoundError(
        absl::StrCat("round ", opts.round, " has no table ", opts.table, " (it has ",
                     round.tables_size(), ")")));
  }
  const v1::TournamentTable& table = round.tables(opts.table - 1);
  if (table.dealt()) {
    return ReportError(absl::FailedPreconditionError(absl::StrCat(
        "table ", opts.table, "'s game is dealt by the server: no log played elsewhere is its "
        "game; its players play it through arbiterd (arbiter deal add, arbiter moves), or an "
        "organiser reports its score sheet (arbiter tournament report)")));
  }
  const v1::LogHeader& header = game_log->header;
  // A withheld seed (a token that may not see live seeds) is not compared:
  // such a token may not append to the table's game either, and the
  // server says so.
  if (header.players_size() != table.players_size() ||
      (!table.seed_withheld() && header.seed() != table.seed())) {
    return ReportError(absl::InvalidArgumentError(absl::StrCat(
        opts.log_file, ": the log is not this table's game (table ", opts.table, ": ",
        table.players_size(), " players, seed ", table.seed(), "; log: ", header.players_size(),
        " players, seed ", header.seed(), ")")));
  }
  std::map<std::string, std::string> seat_of;  // log id -> table player
  for (int i = 0; i < header.players_size(); ++i) {
    if (!opts.rename_seats && header.players(i).id() != table.players(i)) {
      return ReportError(absl::InvalidArgumentError(absl::StrCat(
          opts.log_file, ": seat ", i + 1, " is \"", header.players(i).id(), "\"; the table seats \"",
          table.players(i), "\" there (--rename-seats maps seats in order)")));
    }
    seat_of[header.players(i).id()] = table.players(i);
  }
  v1::AppendActionsRequest request;
  request.set_game(table.game());
  request.set_expected_last_event(1);
  v1::AppendActionsResponse response;
  for (size_t first = 0; first < game_log->actions.size(); first += 1000) {
    request.clear_actions();
    for (size_t i = first; i < std::min(game_log->actions.size(), first + 1000); ++i) {
      v1::Action* action = request.add_actions();
      *action = game_log->actions[i];
      action->set_player(seat_of.at(action->player()));
    }
    request.set_request_id(absl::StrCat("play-", table.game(), "-", first));
    status = client->games->AppendActions(NewContext(*client).get(), request, &response);
    if (!status.ok()) return ReportRpcError(status);
    request.set_expected_last_event(response.last_event());
  }
  if (opts.client.json) {
    std::cout << log::ToJsonLine(response) << "\n";
  } else {
    std::cout << table.game() << ": " << game_log->actions.size() << " actions, "
              << v1::GameStatus_Name(response.status()) << ", " << v1::Verdict_Name(response.verdict())
              << "\n";
  }
  return 0;
}

v1::TournamentSettings SettingsOf(const Opts& opts) {
  v1::TournamentSettings s;
  s.set_game_type(opts.game);
  s.set_seed(opts.seed);
  s.set_rounds(opts.rounds);
  for (int size : opts.table_sizes) s.add_table_sizes(size);
  s.set_preferred_table_size(opts.preferred);
  s.set_leftover(opts.byes ? v1::LEFTOVER_BYES : v1::LEFTOVER_MIXED_SIZES);
  s.set_scoring(opts.scoring == "share" ? v1::TOURNAMENT_SCORING_TABLE_SHARE
                                        : v1::TOURNAMENT_SCORING_PLACES);
  for (int64_t p : opts.place_points) s.add_place_points(p);
  s.set_share_points(opts.share_points);
  s.set_bye_points(opts.bye_points);
  s.set_no_show_points(opts.no_show_points);
  s.set_forfeit_points(opts.forfeit_points);
  s.set_deal_tables(opts.deal_tables);
  // Dealt tables leave the seed only round 1's order and the lot: the
  // server draws those too, so that nobody chooses any of it.
  s.set_draw_lot(opts.draw_lot || opts.deal_tables);
  s.set_spectators(opts.spectators);
  for (const std::string& t : opts.tie_breaks) s.add_tie_breaks(t);
  s.set_league(opts.league);
  s.set_dispute_window_seconds(opts.dispute_window);
  return s;
}

CLI::App* Command(CLI::App& parent, const char* name, const char* help,
                  const std::shared_ptr<Opts>& opts, bool with_id = true) {
  CLI::App* cmd = parent.add_subcommand(name, help);
  if (with_id) cmd->add_option("tournament", opts->tournament, "Tournament id")->required();
  AddClientOptions(*cmd, opts->client);
  return cmd;
}

void AddCreateCommand(CLI::App& group, int& exit_code) {
  auto create = std::make_shared<Opts>();
  CLI::App* cmd = Command(group, "create", "Create a tournament with its published settings", create);
  cmd->add_option("--game", create->game, "Game type")->required();
  CLI::Option* seed = cmd->add_option("--seed", create->seed,
                                      "Seed: round 1, the tables' games, the lot (not needed "
                                      "with --deal-tables, where the server deals and draws)");
  cmd->add_option("--rounds", create->rounds, "Number of rounds")->required();
  cmd->add_option("--table-size", create->table_sizes, "An allowed table size (repeat)")->required();
  cmd->add_option("--preferred", create->preferred, "The preferred table size")->required();
  cmd->add_flag("--byes", create->byes, "Left-over players get byes (default: mixed table sizes)");
  cmd->add_option("--scoring", create->scoring, "places (default) or share");
  cmd->add_option("--place-points", create->place_points, "Points for places 1, 2, ... (repeat)");
  cmd->add_option("--share-points", create->share_points, "A table's points (share; default 100)");
  cmd->add_option("--bye-points", create->bye_points, "Points for a bye");
  cmd->add_option("--no-show-points", create->no_show_points,
                  "Points for a seat reported as a no-show (default 0)");
  cmd->add_option("--forfeit-points", create->forfeit_points,
                  "Points for a seat reported as a forfeit (default 0)");
  cmd->add_flag("--deal-tables", create->deal_tables,
                "The server deals each table's game: nobody, the organiser included, chooses "
                "or sees a table's cards (docs/chance.md, \"Dealt games\"); implies --draw-lot");
  cmd->add_flag("--draw-lot", create->draw_lot,
                "The server draws round 1's order and the lot after registration closes "
                "(docs/tournaments.md, \"The drawn lot\")");
  cmd->add_flag("--spectators", create->spectators,
                "Anyone may follow the tables' live games as spectators (no hidden card shown)");
  cmd->add_option("--tie-break", create->tie_breaks,
                  "game_points, wins, strength_of_schedule, head_to_head (repeat, in order)");
  cmd->add_option("--league", create->league, "Also rate the games in this league");
  cmd->add_option("--dispute-window", create->dispute_window, "Seconds to dispute (default 86400)");
  cmd->add_option("--player", create->players,
                  "A player: ID or ID=DISPLAY NAME (any Unicode; repeat, in registration order)");
  cmd->add_option("--request-id", create->request_id, "Request id (default: from the id)");
  cmd->callback([create, seed, &exit_code] {
    if (seed->count() == 0 && !create->deal_tables) {
      std::cerr << "error: --seed is required (it decides round 1's order, the tables' games and "
                   "the lot), unless --deal-tables lets the server deal and draw them\n";
      exit_code = kExitBadInput;
      return;
    }
    exit_code = Run<v1::Tournament>(
        *create,
        [&](Client& c, v1::Tournament& out) {
          v1::CreateTournamentRequest request;
          request.set_request_id(create->request_id.empty()
                                     ? absl::StrCat("tournament-", create->tournament)
                                     : create->request_id);
          request.set_tournament_id(create->tournament);
          *request.mutable_settings() = SettingsOf(*create);
          AddEntrants(create->players, request.mutable_players(), request.mutable_display_names());
          return c.tournaments->CreateTournament(NewContext(c).get(), request, &out);
        },
        PrintTournament);
  });
}

void AddRegisterCommand(CLI::App& group, int& exit_code) {
  auto reg = std::make_shared<Opts>();
  CLI::App* cmd = Command(group, "register",
                          "Register players (later ones are paired from the next round)", reg);
  cmd->add_option("--player", reg->players, "A player: ID or ID=DISPLAY NAME (repeat)")
      ->required();
  cmd->add_option("--request-id", reg->request_id, "Request id (default: from the players)");
  cmd->callback([reg, &exit_code] {
    exit_code = Run<v1::Tournament>(
        *reg,
        [&](Client& c, v1::Tournament& out) {
          v1::RegisterPlayersRequest request;
          request.set_name(TournamentNameArg(reg->tournament));
          request.set_request_id(reg->request_id.empty()
                                     ? absl::StrCat("register-", absl::StrJoin(reg->players, "-"))
                                     : reg->request_id);
          AddEntrants(reg->players, request.mutable_players(), request.mutable_display_names());
          return c.tournaments->RegisterPlayers(NewContext(c).get(), request, &out);
        },
        PrintTournament);
  });
}

void AddShowCommand(CLI::App& group, int& exit_code) {
  auto show = std::make_shared<Opts>();
  CLI::App* cmd = Command(group, "show", "A tournament's settings, players and log", show);
  cmd->callback([show, &exit_code] {
    exit_code = Run<v1::Tournament>(
        *show,
        [&](Client& c, v1::Tournament& out) {
          v1::GetTournamentRequest request;
          request.set_name(TournamentNameArg(show->tournament));
          return c.tournaments->GetTournament(NewContext(c).get(), request, &out);
        },
        PrintTournament);
  });
}

void AddStartCommand(CLI::App& group, int& exit_code) {
  auto start = std::make_shared<Opts>();
  CLI::App* cmd = Command(group, "start", "Assign the next round's tables and create their games", start);
  cmd->add_option("round", start->round, "The round to start")->required();
  cmd->add_option("--request-id", start->request_id, "Request id (default: from the round)");
  cmd->callback([start, &exit_code] {
    exit_code = Run<v1::TournamentRound>(
        *start,
        [&](Client& c, v1::TournamentRound& out) {
          v1::StartRoundRequest request;
          request.set_name(TournamentNameArg(start->tournament));
          request.set_round(start->round);
          request.set_request_id(start->request_id.empty()
                                     ? absl::StrCat("start-", start->tournament, "-", start->round)
                                     : start->request_id);
          return c.tournaments->StartRound(NewContext(c).get(), request, &out);
        },
        PrintRound);
  });
}

void AddTablesCommand(CLI::App& group, int& exit_code) {
  auto tables = std::make_shared<Opts>();
  CLI::App* cmd = Command(group, "tables", "A round's tables, games and results", tables);
  cmd->add_option("--round", tables->round, "Round (default: the latest)");
  cmd->callback([tables, &exit_code] {
    exit_code = Run<v1::TournamentRound>(
        *tables,
        [&](Client& c, v1::TournamentRound& out) {
          v1::GetRoundRequest request;
          request.set_name(TournamentNameArg(tables->tournament));
          request.set_round(tables->round);
          return c.tournaments->GetRound(NewContext(c).get(), request, &out);
        },
        PrintRound);
  });
}

void AddConfirmCommand(CLI::App& group, int& exit_code) {
  auto confirm = std::make_shared<Opts>();
  CLI::App* cmd = Command(group, "confirm", "Count a table's finished game", confirm);
  cmd->add_option("round", confirm->round, "Round")->required();
  cmd->add_option("table", confirm->table, "Table (0: every finished table of the round)")
      ->required();
  cmd->add_option("--request-id", confirm->request_id, "Request id (default: from the table)");
  cmd->callback([confirm, &exit_code] {
    exit_code = Run<v1::TournamentRound>(
        *confirm,
        [&](Client& c, v1::TournamentRound& out) {
          v1::ConfirmResultRequest request;
          request.set_name(TournamentNameArg(confirm->tournament));
          request.set_round(confirm->round);
          request.set_table(confirm->table);
          request.set_request_id(confirm->request_id.empty()
                                     ? absl::StrCat("confirm-", confirm->tournament, "-",
                                                    confirm->round, "-", confirm->table)
                                     : confirm->request_id);
          return c.tournaments->ConfirmResult(NewContext(c).get(), request, &out);
        },
        PrintRound);
  });
}

void AddPlayCommand(CLI::App& group, int& exit_code) {
  auto play = std::make_shared<Opts>();
  CLI::App* cmd = Command(group, "play", "Append a log's actions to a table's game", play);
  cmd->add_option("round", play->round, "Round")->required();
  cmd->add_option("table", play->table, "Table")->required();
  cmd->add_option("log", play->log_file, "Log file (its seed and seats must be the table's)")
      ->required();
  cmd->add_flag("--rename-seats", play->rename_seats,
                "Seat the table's players in the log's seat order (e.g. a simulated log)");
  cmd->callback([play, &exit_code] { exit_code = RunPlay(*play); });
}

void AddStandingsCommand(CLI::App& group, int& exit_code) {
  auto standings = std::make_shared<Opts>();
  CLI::App* cmd = Command(group, "standings", "Standings, every row explained (--csv or --json to export)",
                standings);
  cmd->add_option("--after-round", standings->round, "After this round (default: the latest)");
  cmd->add_flag("--csv", standings->csv, "CSV with a header line");
  cmd->callback([standings, &exit_code] {
    exit_code = Run<v1::TournamentStandings>(
        *standings,
        [&](Client& c, v1::TournamentStandings& out) {
          v1::GetStandingsRequest request;
          request.set_name(TournamentNameArg(standings->tournament));
          request.set_after_round(standings->round);
          return c.tournaments->GetStandings(NewContext(c).get(), request, &out);
        },
        [&](const v1::TournamentStandings& out) { PrintStandings(out, standings->csv); });
  });
}

void AddResultsCommand(CLI::App& group, int& exit_code) {
  auto results = std::make_shared<Opts>();
  CLI::App* cmd = Command(group, "results",
                "Every round's tables and results (--csv: one line per seat; --json: one round a line)",
                results);
  cmd->add_flag("--csv", results->csv, "CSV with a header line");
  cmd->callback([results, &exit_code] { exit_code = RunResults(*results); });
}

}  // namespace

void AddTournamentCommands(CLI::App& app, int& exit_code) {
  CLI::App* group = app.add_subcommand("tournament", "Run a tournament: tables, results, standings");
  group->require_subcommand(1);
  AddCreateCommand(*group, exit_code);
  AddRegisterCommand(*group, exit_code);
  AddTournamentFieldCommands(*group, exit_code);
  AddTournamentSimulateCommand(*group, exit_code);
  AddTournamentTokensCommand(*group, exit_code);
  AddTournamentListCommand(*group, exit_code);
  AddShowCommand(*group, exit_code);
  AddStartCommand(*group, exit_code);
  AddTablesCommand(*group, exit_code);
  AddConfirmCommand(*group, exit_code);
  AddTournamentReportCommand(*group, exit_code);
  AddPlayCommand(*group, exit_code);
  AddStandingsCommand(*group, exit_code);
  AddResultsCommand(*group, exit_code);
}

}  // namespace arbiter::cli
