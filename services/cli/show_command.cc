// `arbiter show FILE --at N`: the position after line N, for people.
#include <iostream>

#include "absl/strings/str_cat.h"
#include "services/cli/commands.h"
#include "services/replay/replay.h"

namespace arbiter::cli {
namespace {

struct ShowOpts {
  std::string file;
  int64_t at = 0;
};

int RunShow(const ShowOpts& opts, const GlobalOptions& global) {
  auto registry = LoadRegistry(global);
  if (!registry.ok()) return ReportError(registry.status());
  auto log = log::ReadLogFile(opts.file);
  if (!log.ok()) return ReportError(log.status());
  const int64_t last_line = log::LineOfAction(log->actions.size()) - 1;
  if (opts.at < 1 || opts.at > last_line) {
    return ReportError(absl::OutOfRangeError(
        absl::StrCat("--at ", opts.at, " is outside the log, which has lines 1-", last_line)));
  }
  auto referee = replay::Replay(*log, *registry, {.stop_after_line = opts.at});
  if (!referee.ok()) return ReportError(referee.status());
  if (const auto& violation = referee->violation()) {
    std::cout << "line " << violation->event << " (" << violation->player << ") breaks rule "
              << violation->violation.rule << ": " << violation->violation.detail << "\n"
              << "position after line " << violation->event - 1 << ":\n";
  } else {
    std::cout << "position after line " << opts.at << ":\n";
  }
  std::cout << referee->state().ToString();
  return kExitOk;
}

}  // namespace

void AddShowCommand(CLI::App& app, const GlobalOptions& global, int& exit_code) {
  auto opts = std::make_shared<ShowOpts>();
  CLI::App* cmd = app.add_subcommand("show", "Print the position after a given line of a log");
  cmd->add_option("file", opts->file, "Log file (JSON Lines)")->required();
  cmd->add_option("--at", opts->at, "Line number (1 = the header, i.e. the starting position)")
      ->required();
  cmd->callback([opts, &global, &exit_code] { exit_code = RunShow(*opts, global); });
}

}  // namespace arbiter::cli
