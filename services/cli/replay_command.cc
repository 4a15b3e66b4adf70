// `arbiter replay FILE [--json]`: the verdict and standings of a log.
#include <iostream>

#include "services/cli/commands.h"
#include "services/cli/report_text.h"
#include "services/log/json_lines.h"
#include "services/replay/replay.h"

namespace arbiter::cli {
namespace {

struct ReplayOpts {
  std::string file;
  bool json = false;
};

int ExitCodeFor(replay::Verdict verdict) {
  switch (verdict) {
    case replay::Verdict::kLegal:
      return kExitOk;
    case replay::Verdict::kUnfinished:
      return kExitUnfinished;
    case replay::Verdict::kIllegal:
      return kExitIllegal;
  }
  return kExitFailure;
}

int RunReplay(const ReplayOpts& opts, const GlobalOptions& global) {
  auto registry = LoadRegistry(global);
  if (!registry.ok()) return ReportError(registry.status());
  auto log = log::ReadLogFile(opts.file);
  if (!log.ok()) return ReportError(log.status());
  auto referee = replay::Replay(*log, *registry);
  if (!referee.ok()) return ReportError(referee.status());
  const v1::ReplayReport report = replay::MakeReport(*referee);
  if (opts.json) {
    std::cout << log::ToJsonLine(report) << "\n";
  } else {
    std::cout << FormatReport(report, log->header);
  }
  return ExitCodeFor(referee->verdict());
}

}  // namespace

void AddReplayCommand(CLI::App& app, const GlobalOptions& global, int& exit_code) {
  auto opts = std::make_shared<ReplayOpts>();
  CLI::App* cmd = app.add_subcommand(
      "replay", "Replay a log: exit 0 legal and finished, 3 unfinished, 4 illegal, 2 malformed");
  cmd->add_option("file", opts->file, "Log file (JSON Lines)")->required();
  cmd->add_flag("--json", opts->json, "Print one JSON object: verdict, violation, standings");
  cmd->callback([opts, &global, &exit_code] { exit_code = RunReplay(*opts, global); });
}

}  // namespace arbiter::cli
