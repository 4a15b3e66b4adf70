// `arbiter rulesets`: the registered rulesets with their content hashes.
#include <iostream>

#include "services/cli/commands.h"

namespace arbiter::cli {
namespace {

int RunRulesets(const GlobalOptions& global, bool print_text, const std::string& id) {
  auto registry = LoadRegistry(global);
  if (!registry.ok()) return ReportError(registry.status());
  if (print_text) {
    const engine::RegisteredRuleset* entry = registry->FindById(id);
    if (entry == nullptr) return ReportError(absl::NotFoundError("no ruleset '" + id + "' is registered"));
    std::cout << entry->text;
    return kExitOk;
  }
  for (const engine::RegisteredRuleset* entry : registry->List()) {
    std::cout << entry->ruleset.game() << "\t" << entry->ruleset.id() << "\t" << entry->hash << "\n";
  }
  return kExitOk;
}

}  // namespace

void AddRulesetsCommand(CLI::App& app, const GlobalOptions& global, int& exit_code) {
  auto id = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("rulesets", "List registered rulesets: game, id, SHA-256");
  cmd->add_option("--print", *id, "Print the text of the ruleset with this id (to copy and correct)");
  cmd->callback([id, &global, &exit_code] { exit_code = RunRulesets(global, !id->empty(), *id); });
}

}  // namespace arbiter::cli
