// `arbiter simulate GAME --players N --seed S [-o FILE]`: a complete, legal
// random game as a log file.
#include <fstream>
#include <iostream>
#include <map>

#include "absl/strings/str_cat.h"
#include "services/cli/commands.h"
#include "services/replay/simulate.h"

namespace arbiter::cli {
namespace {

struct SimulateOptions {
  std::string game;
  int players = 0;
  uint64_t seed = 0;
  std::string output;
  std::string ruleset_id;
  std::vector<std::string> options;
};

int RunSimulate(const SimulateOptions& opts, const GlobalOptions& global) {
  auto registry = LoadRegistry(global);
  if (!registry.ok()) return ReportError(registry.status());
  replay::SimulationRequest request;
  request.game = opts.game;
  request.players = opts.players;
  request.seed = opts.seed;
  request.ruleset_id = opts.ruleset_id;
  for (const std::string& kv : opts.options) {
    const std::size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) {
      return ReportError(absl::InvalidArgumentError(absl::StrCat("--option '", kv, "' must be KEY=VALUE")));
    }
    request.options[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  auto log = replay::SimulateGame(request, *registry);
  if (!log.ok()) return ReportError(log.status());
  const std::string text = log::FormatLog(*log);
  if (opts.output.empty() || opts.output == "-") {
    std::cout << text;
    return std::cout ? kExitOk : kExitFailure;
  }
  std::ofstream out(opts.output, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return ReportError(absl::UnavailableError(absl::StrCat(opts.output, ": cannot be written")));
  std::cerr << "wrote " << opts.output << ": " << log->actions.size() << " actions\n";
  return kExitOk;
}

}  // namespace

void AddSimulateCommand(CLI::App& app, const GlobalOptions& global, int& exit_code) {
  auto opts = std::make_shared<SimulateOptions>();
  CLI::App* cmd = app.add_subcommand("simulate", "Write a complete, legal random game as a log");
  cmd->add_option("game", opts->game, "Game: atlantis, atlantica, atlantis-rising")->required();
  cmd->add_option("--players", opts->players, "Number of players")->required();
  cmd->add_option("--seed", opts->seed, "Seed of the game's shuffles and rolls (and of the bot)")
      ->required();
  cmd->add_option("-o,--output", opts->output, "Write the log here (default: standard output)");
  cmd->add_option("--ruleset-id", opts->ruleset_id, "Ruleset id (default: the game's default)");
  cmd->add_option("--option", opts->options, "Variant switch KEY=VALUE (repeatable)");
  cmd->callback([opts, &global, &exit_code] { exit_code = RunSimulate(*opts, global); });
}

}  // namespace arbiter::cli
