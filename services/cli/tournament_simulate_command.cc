// `arbiter tournament simulate T ROUND [--table N]`: plays the tables of a
// round that have no move yet with simulated legal games (`arbiter simulate`
// on each table's seed, seats taken by the table's players in order), for
// trying an event out end to end before real players sit down. Needs a
// token that sees the live seeds (the tournament's organisers, admins).
#include <grpcpp/grpcpp.h>

#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/core/status_macros.h"
#include "services/cli/cli_common.h"
#include "services/cli/client_common.h"
#include "services/cli/commands.h"
#include "services/replay/simulate.h"

namespace arbiter::cli {
namespace {

struct SimulateTablesOpts {
  ClientOptions client;
  std::string tournament;
  int round = 0;
  int table = 0;  // 0: every table
};

// The append of a simulated game to `table`'s game, its seats renamed.
absl::StatusOr<v1::AppendActionsRequest> SimulatedMoves(const engine::RulesetRegistry& registry,
                                                        const std::string& game_type,
                                                        const v1::TournamentTable& table) {
  if (table.seed_withheld()) {
    return absl::PermissionDeniedError(
        "this token may not see the tables' seeds; simulate with an organiser's or admin's token");
  }
  replay::SimulationRequest simulation;
  simulation.game = game_type;
  simulation.players = table.players_size();
  simulation.seed = table.seed();
  ARBITER_ASSIGN_OR_RETURN(const log::GameLog log, replay::SimulateGame(simulation, registry));
  std::map<std::string, std::string> seat_of;
  for (int i = 0; i < log.header.players_size(); ++i) {
    seat_of[log.header.players(i).id()] = table.players(i);
  }
  v1::AppendActionsRequest request;
  request.set_game(table.game());
  request.set_expected_last_event(1);
  request.set_request_id(absl::StrCat("simulate-", table.game()));
  for (v1::Action action : log.actions) {
    action.set_player(seat_of.at(action.player()));
    *request.add_actions() = std::move(action);
  }
  return request;
}

int RunSimulateTables(const SimulateTablesOpts& opts) {
  absl::StatusOr<engine::RulesetRegistry> registry = LoadRegistry(GlobalOptions());
  if (!registry.ok()) return ReportError(registry.status());
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  v1::GetTournamentRequest get;
  get.set_name(absl::StrCat("tournaments/", opts.tournament));
  v1::Tournament tournament;
  grpc::Status status = client->tournaments->GetTournament(NewContext(*client).get(), get, &tournament);
  if (!status.ok()) return ReportRpcError(status);
  v1::GetRoundRequest round_request;
  round_request.set_name(get.name());
  round_request.set_round(opts.round);
  v1::TournamentRound round;
  status = client->tournaments->GetRound(NewContext(*client).get(), round_request, &round);
  if (!status.ok()) return ReportRpcError(status);
  for (const v1::TournamentTable& table : round.tables()) {
    if (opts.table != 0 && table.number() != opts.table) continue;
    if (table.game_over()) {
      std::cout << "table " << table.number() << ": " << table.game() << " is over; left alone\n";
      continue;
    }
    absl::StatusOr<v1::AppendActionsRequest> moves =
        SimulatedMoves(*registry, tournament.settings().game_type(), table);
    if (!moves.ok()) return ReportError(moves.status());
    v1::AppendActionsResponse response;
    status = client->games->AppendActions(NewContext(*client).get(), *moves, &response);
    if (!status.ok()) return ReportRpcError(status);
    std::cout << "table " << table.number() << ": " << table.game() << ": "
              << moves->actions_size() << " simulated actions, "
              << v1::GameStatus_Name(response.status()) << "\n";
  }
  return kExitOk;
}

}  // namespace

void AddTournamentSimulateCommand(CLI::App& group, int& exit_code) {
  auto opts = std::make_shared<SimulateTablesOpts>();
  CLI::App* cmd = group.add_subcommand(
      "simulate", "Play a round's open tables with simulated legal games (to try an event out)");
  cmd->add_option("tournament", opts->tournament, "Tournament id")->required();
  cmd->add_option("round", opts->round, "Round")->required();
  cmd->add_option("--table", opts->table, "Only this table");
  AddClientOptions(*cmd, opts->client);
  cmd->callback([opts, &exit_code] { exit_code = RunSimulateTables(*opts); });
}

}  // namespace arbiter::cli
