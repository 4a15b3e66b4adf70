// `arbiter options GAME`: the log header options a game accepts, what each
// value means (which rulebook reading it follows), and the default.
#include <iostream>

#include "engine/core/game.h"
#include "services/cli/commands.h"

namespace arbiter::cli {
namespace {

int RunOptions(const GlobalOptions& global, const std::string& game_name, const std::string& ruleset_id) {
  const engine::Game* game = engine::FindGame(game_name);
  if (game == nullptr) {
    return ReportError(absl::InvalidArgumentError("unknown game '" + game_name + "'; the games are " +
                                                  engine::GameNames()));
  }
  auto registry = LoadRegistry(global);
  if (!registry.ok()) return ReportError(registry.status());
  const engine::RegisteredRuleset* ruleset =
      ruleset_id.empty() ? registry->DefaultFor(game_name) : registry->FindById(ruleset_id);
  if (ruleset == nullptr || ruleset->ruleset.game() != game_name) {
    return ReportError(absl::NotFoundError("no " + game_name + " ruleset '" + ruleset_id + "' is registered"));
  }
  const std::vector<engine::OptionSpec> options = game->Options(ruleset->ruleset);
  std::cout << game->title() << ", ruleset " << ruleset->ruleset.id() << ": header `options`, ";
  if (options.empty()) {
    std::cout << "none.\n";
    return kExitOk;
  }
  std::cout << "key = value; the first value is the default.\n";
  for (const engine::OptionSpec& option : options) {
    std::cout << "\n" << option.key << ": " << option.meaning << "\n";
    for (std::size_t i = 0; i < option.values.size(); ++i) {
      std::cout << "  " << option.values[i].value << (i == 0 ? " (default)" : "") << ": "
                << option.values[i].meaning << "\n";
    }
  }
  return kExitOk;
}

}  // namespace

void AddOptionsCommand(CLI::App& app, const GlobalOptions& global, int& exit_code) {
  auto game = std::make_shared<std::string>();
  auto ruleset = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "options", "List a game's log header options: each value's meaning (which rulebook reading) and the default");
  cmd->add_option("game", *game, "Game: " + engine::GameNames())->required();
  cmd->add_option("--ruleset-id", *ruleset, "Ruleset whose options to list (default: the game's default ruleset)");
  cmd->callback([game, ruleset, &global, &exit_code] { exit_code = RunOptions(global, *game, *ruleset); });
}

}  // namespace arbiter::cli
