// `arbiter`: simulate, replay and inspect game logs from the command line.
#include <iostream>

#include "CLI/CLI.hpp"
#include "services/cli/commands.h"

int main(int argc, char** argv) {
  using namespace arbiter::cli;
  CLI::App app{
      "Arbiter: referee for Atlantica, Atlantis and Atlantis Rising game logs.\n"
      "Exit codes: 0 legal and finished (or success), 1 internal failure, 2 unreadable or\n"
      "malformed input, 3 legal but unfinished, 4 an action broke a rule.",
      "arbiter"};
  app.require_subcommand(1);
  GlobalOptions global;
  app.add_option("--ruleset", global.ruleset_files,
                 "Register an extra ruleset file (protobuf text format), e.g. a corrected print run")
      ->check(CLI::ExistingFile);
  int exit_code = kExitOk;
  AddSimulateCommand(app, global, exit_code);
  AddReplayCommand(app, global, exit_code);
  AddShowCommand(app, global, exit_code);
  AddRulesetsCommand(app, global, exit_code);
  AddOptionsCommand(app, global, exit_code);
  AddMigrateCommand(app, global, exit_code);
  AddRateCommand(app, exit_code);
  AddSealedSeedCommand(app, exit_code);
  AddClientCommands(app, exit_code);
  AddLogCommand(app, exit_code);
  AddPlayCommands(app, exit_code);
  AddDealCommands(app, exit_code);
  AddLeagueCommands(app, exit_code);
  AddTournamentCommands(app, exit_code);
  AddDisputeCommands(app, exit_code);
  AddTransparencyCommands(app, global, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "arbiter: internal error: " << e.what() << "\n";
    return kExitFailure;
  }
  return exit_code;
}
