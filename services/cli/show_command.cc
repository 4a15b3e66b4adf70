// `arbiter show FILE --at N`: line N's action in words and the position after
// it, for people.
#include <iostream>
#include <string>

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
  // The position before line --at, so that its action is said in words as
  // it applies there (engine State::Label), then the action itself.
  auto referee = replay::Replay(*log, *registry, {.stop_after_line = opts.at - 1});
  if (!referee.ok()) return ReportError(referee.status());
  if (!referee->violation().has_value() && opts.at > 1) {
    const v1::Action& action = log->actions[static_cast<std::size_t>(opts.at - 2)];
    const std::string words = referee->Label(action);
    auto judged = referee->Apply(action, opts.at);
    if (!judged.ok()) return ReportError(judged.status());
    if (!judged->has_value()) std::cout << "line " << opts.at << ": " << words << "\n";
  }
  if (const auto& violation = referee->violation()) {
    std::cout << "line " << violation->event << ": " << violation->action_text << "\n"
              << "line " << violation->event << " (" << violation->player << ") breaks rule "
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
