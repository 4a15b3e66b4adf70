// Shared pieces of the `arbiter` command line: exit codes, error printing,
// the ruleset registry with user-supplied ruleset files.
#ifndef ARBITER_SERVICES_CLI_CLI_COMMON_H_
#define ARBITER_SERVICES_CLI_CLI_COMMON_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/core/ruleset_registry.h"

namespace arbiter::cli {

// Exit codes of every command (documented in README.md and `arbiter --help`).
inline constexpr int kExitOk = 0;            // legal and finished / success
inline constexpr int kExitFailure = 1;       // internal or environment failure
inline constexpr int kExitBadInput = 2;      // unreadable or malformed input, bad usage
inline constexpr int kExitUnfinished = 3;    // legal so far but not finished
inline constexpr int kExitIllegal = 4;       // an action broke a rule
inline constexpr int kExitInterrupted = 130; // stopped by Ctrl-C (SIGINT), as shells report it

// Options every command shares.
struct GlobalOptions {
  // Extra ruleset files (protobuf text format) to register besides the
  // built-in ones.
  std::vector<std::string> ruleset_files;
};

// The built-in rulesets plus the user's files. Errors name the file.
absl::StatusOr<engine::RulesetRegistry> LoadRegistry(const GlobalOptions& options);

// Prints "arbiter: <message>" to stderr and returns the exit code for the
// status: kExitBadInput for caller mistakes, kExitFailure otherwise.
int ReportError(const absl::Status& status);

// Reads a whole file; NotFound / PermissionDenied / InvalidArgument if the
// file is larger than `max_bytes`.
absl::StatusOr<std::string> ReadFile(const std::string& path, std::size_t max_bytes);

}  // namespace arbiter::cli

#endif  // ARBITER_SERVICES_CLI_CLI_COMMON_H_
