// `arbiter simulate GAME (--players N | --player ID ...) --seed S [-o FILE]`:
// a complete, legal random game as a log file, its seats named by --player.
#include <fstream>
#include <iostream>
#include <map>

#include "absl/strings/str_cat.h"
#include "services/cli/commands.h"
#include "services/replay/referee.h"
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
  std::vector<std::string> seats;  // --player ID or ID=NAME, in seat order
};

// The number of seats --players and --player ask for. InvalidArgument when
// neither is given or they disagree.
absl::StatusOr<int> SeatCount(const SimulateOptions& opts) {
  const int named = static_cast<int>(opts.seats.size());
  if (opts.players == 0 && named == 0) {
    return absl::InvalidArgumentError("give --players N or one --player ID for each seat");
  }
  if (opts.players != 0 && named != 0 && opts.players != named) {
    return absl::InvalidArgumentError(absl::StrCat("--players ", opts.players, " but ", named,
                                                   " --player given: give one for each seat"));
  }
  return named != 0 ? named : opts.players;
}

// Gives seat i the id (and name) of the i-th --player, in the header and in
// every action. InvalidArgument naming --player for an id the header refuses.
absl::Status NameSeats(const SimulateOptions& opts, const engine::RulesetRegistry& registry,
                       log::GameLog& log) {
  if (opts.seats.empty()) return absl::OkStatus();
  std::map<std::string, std::string> id_of;  // simulated id -> given id
  for (int i = 0; i < log.header.players_size(); ++i) {
    const std::string& seat = opts.seats[static_cast<std::size_t>(i)];
    const std::size_t eq = seat.find('=');
    v1::Player* player = log.header.mutable_players(i);
    id_of[player->id()] = seat.substr(0, eq);
    player->set_id(seat.substr(0, eq));
    player->set_name(eq == std::string::npos ? seat : seat.substr(eq + 1));
  }
  if (absl::StatusOr<replay::Referee> checked = replay::Referee::Start(log.header, registry);
      !checked.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("--player: ", checked.status().message()));
  }
  for (v1::Action& action : log.actions) action.set_player(id_of.at(action.player()));
  return absl::OkStatus();
}

int RunSimulate(const SimulateOptions& opts, const GlobalOptions& global) {
  auto registry = LoadRegistry(global);
  if (!registry.ok()) return ReportError(registry.status());
  replay::SimulationRequest request;
  request.game = opts.game;
  absl::StatusOr<int> seats = SeatCount(opts);
  if (!seats.ok()) return ReportError(seats.status());
  request.players = *seats;
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
  if (absl::Status named = NameSeats(opts, *registry, *log); !named.ok()) return ReportError(named);
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
  cmd->add_option("--players", opts->players, "Number of players (default: one per --player)");
  cmd->add_option("--player", opts->seats,
                  "Seat the next player: ID or ID=NAME, in seat order (default: p1, p2, ...)");
  cmd->add_option("--seed", opts->seed, "Seed of the game's shuffles and rolls (and of the bot)")
      ->required();
  cmd->add_option("-o,--output", opts->output, "Write the log here (default: standard output)");
  cmd->add_option("--ruleset-id", opts->ruleset_id, "Ruleset id (default: the game's default)");
  cmd->add_option("--option", opts->options, "Variant switch KEY=VALUE (repeatable)");
  cmd->callback([opts, &global, &exit_code] { exit_code = RunSimulate(*opts, global); });
}

}  // namespace arbiter::cli
