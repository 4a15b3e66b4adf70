// `arbiter submit` with many files or a directory: every file submitted with
// SubmitGame over one channel, `jobs` at a time, with progress on stderr (one
// updating line on a terminal, one line per file otherwise) and a summary on
// stdout (text, or JSON with --json). Ctrl-C stops sending new files, lets
// the submissions in flight finish and prints the summary of what was done;
// the same command run again resumes, because each file's request id comes
// from its bytes (submit_plan.h). Not reentrant: it installs a SIGINT
// handler for the length of the run.
#ifndef ARBITER_SERVICES_CLI_SUBMIT_MANY_H_
#define ARBITER_SERVICES_CLI_SUBMIT_MANY_H_

#include <cstddef>
#include <string>
#include <vector>

#include "services/cli/client_common.h"

namespace arbiter::cli {

struct SubmitManyOptions {
  ClientOptions client;
  std::vector<std::string> paths;  // files and directories
  std::string league;
  std::string tournament;
  bool allow_duplicate = false;
  int jobs = 4;  // submissions in flight at once, 1 or more
};

// Submits every file of `options.paths` (files of `max_log_bytes` at most)
// and returns the run's exit code (submit_summary.h RunExitCode); 2 with a
// message on stderr, before anything is sent, for a directory without logs
// or a channel that cannot be set up for bad options.
int RunSubmitMany(const SubmitManyOptions& options, std::size_t max_log_bytes);

}  // namespace arbiter::cli

#endif  // ARBITER_SERVICES_CLI_SUBMIT_MANY_H_
