// `arbiter rulesets`: the registered rulesets with their content hashes, and
// `arbiter rulesets --print ID [-o FILE]`: the exact bytes whose SHA-256 is the
// hash listed, so that an auditor can check a log header's rulesetHash with
// sha256sum alone (docs/log-format.md).
#include <fstream>
#include <iostream>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "services/cli/commands.h"

namespace arbiter::cli {
namespace {

struct RulesetsOptions {
  std::string print_id;
  std::string output;
};

// NotFound naming every registered id, for an id that is not one of them.
absl::Status UnknownRuleset(const engine::RulesetRegistry& registry, const std::string& id) {
  std::vector<std::string> known;
  for (const engine::RegisteredRuleset* entry : registry.List()) known.push_back(entry->ruleset.id());
  return absl::NotFoundError(absl::StrCat("no ruleset '", id, "' is registered; known ids: ",
                                          absl::StrJoin(known, ", ")));
}

int PrintRuleset(const engine::RulesetRegistry& registry, const RulesetsOptions& opts) {
  const engine::RegisteredRuleset* entry = registry.FindById(opts.print_id);
  if (entry == nullptr) return ReportError(UnknownRuleset(registry, opts.print_id));
  if (opts.output.empty() || opts.output == "-") {
    std::cout << entry->text << std::flush;
    return std::cout ? kExitOk : kExitFailure;
  }
  std::ofstream out(opts.output, std::ios::binary | std::ios::trunc);
  out << entry->text;
  out.close();
  if (!out) return ReportError(absl::UnavailableError(absl::StrCat(opts.output, ": cannot be written")));
  return kExitOk;
}

int RunRulesets(const GlobalOptions& global, const RulesetsOptions& opts) {
  auto registry = LoadRegistry(global);
  if (!registry.ok()) return ReportError(registry.status());
  if (!opts.print_id.empty()) return PrintRuleset(*registry, opts);
  if (!opts.output.empty()) {
    return ReportError(absl::InvalidArgumentError("-o/--output writes a ruleset's bytes; use it with --print ID"));
  }
  for (const engine::RegisteredRuleset* entry : registry->List()) {
    std::cout << entry->ruleset.game() << "\t" << entry->ruleset.id() << "\t" << entry->hash << "\n";
  }
  return kExitOk;
}

}  // namespace

void AddRulesetsCommand(CLI::App& app, const GlobalOptions& global, int& exit_code) {
  auto opts = std::make_shared<RulesetsOptions>();
  CLI::App* cmd = app.add_subcommand("rulesets", "List registered rulesets: game, id, SHA-256");
  cmd->add_option("--print", opts->print_id,
                  "Write the exact bytes of the ruleset with this id, whose SHA-256 is the hash listed");
  cmd->add_option("-o,--output", opts->output, "With --print: write the bytes here (default: standard output)");
  cmd->callback([opts, &global, &exit_code] { exit_code = RunRulesets(global, *opts); });
}

}  // namespace arbiter::cli
