// The `arbiter` subcommands. Each Add*Command registers one subcommand whose
// callback stores its exit code in `exit_code`.
#ifndef ARBITER_SERVICES_CLI_COMMANDS_H_
#define ARBITER_SERVICES_CLI_COMMANDS_H_

#include "CLI/CLI.hpp"
#include "services/cli/cli_common.h"

namespace arbiter::cli {

void AddSimulateCommand(CLI::App& app, const GlobalOptions& global, int& exit_code);
void AddReplayCommand(CLI::App& app, const GlobalOptions& global, int& exit_code);
void AddShowCommand(CLI::App& app, const GlobalOptions& global, int& exit_code);
void AddRulesetsCommand(CLI::App& app, const GlobalOptions& global, int& exit_code);
void AddOptionsCommand(CLI::App& app, const GlobalOptions& global, int& exit_code);
void AddMigrateCommand(CLI::App& app, const GlobalOptions& global, int& exit_code);
// rate: offline rating of a results file (rate_command.cc).
void AddRateCommand(CLI::App& app, int& exit_code);
// sealed-seed: a seed, nonce and game-bound commitment (sealed_seed_command.cc).
void AddSealedSeedCommand(CLI::App& app, int& exit_code);
// submit, adjudicate, state, verify, games, token create: clients of arbiterd
// (client_commands.cc).
void AddClientCommands(CLI::App& app, int& exit_code);
// `arbiter log`: a stored game as a log file (log_command.cc).
void AddLogCommand(CLI::App& app, int& exit_code);
// moves, move: a seat's legal moves, and playing one (play_commands.cc).
void AddPlayCommands(CLI::App& app, int& exit_code);
// `arbiter deal create|add|close` (deal_commands.cc).
void AddDealCommands(CLI::App& app, int& exit_code);
// league, leaderboard, rating, void (league_commands.cc).
void AddLeagueCommands(CLI::App& app, int& exit_code);
// tournament ... (tournament_commands.cc) and dispute ... (dispute_commands.cc).
void AddTournamentCommands(CLI::App& app, int& exit_code);
// tournament tokens (tournament_tokens_command.cc), under `tournament`.
void AddTournamentTokensCommand(CLI::App& group, int& exit_code);
// tournament withdraw, settings, delete (tournament_field_commands.cc).
void AddTournamentFieldCommands(CLI::App& group, int& exit_code);
// tournament simulate (tournament_simulate_command.cc).
void AddTournamentSimulateCommand(CLI::App& group, int& exit_code);
// tournament report: a score sheet (tournament_report_command.cc).
void AddTournamentReportCommand(CLI::App& group, int& exit_code);
// tournament list (tournament_list_command.cc), under `tournament`.
void AddTournamentListCommand(CLI::App& group, int& exit_code);
void AddDisputeCommands(CLI::App& app, int& exit_code);
// export, audit, checkpoint: the transparency log (transparency_commands.cc).
void AddTransparencyCommands(CLI::App& app, const GlobalOptions& global, int& exit_code);

}  // namespace arbiter::cli

#endif  // ARBITER_SERVICES_CLI_COMMANDS_H_
