// What `arbiter submit` with many files sends, decided before anything is
// sent: the files a run covers (a directory stands for the `*.jsonl` files
// directly in it, in name order), each file's request id, and the order in
// which files that record the same played game are sent.
//
// A file's request id comes from its bytes (SHA-256), as for a single
// submit, so a run started again sends the same requests and the server
// answers the files it already stored from the store (a retry) instead of
// storing them twice. The second and later files of a run with the same
// bytes as an earlier one get "-copy-N" after it: the same request id would
// be a retry of the first file's request, and the copy would pass as stored;
// with a request of its own it is refused as a duplicate like any other
// repeat of a stored game. Files that record the same played game (the same
// played key, services/games/played_game.h: equal bytes, or only display
// names differ) form one group that is sent in file order, one at a time,
// so which of them is stored and which are refused as its duplicates is the
// same on every run. Pure functions over the file system; thread-safe.
#ifndef ARBITER_SERVICES_CLI_SUBMIT_PLAN_H_
#define ARBITER_SERVICES_CLI_SUBMIT_PLAN_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace arbiter::cli {

// The request id of a submitted log with bytes `content`: "submit-" and 32
// hex digits of its SHA-256, then "-copy-N" when `copy` (N) is above 0.
std::string SubmitRequestId(const std::string& content, int copy = 0);

// The files of `paths` in order: a file as given, a directory as the
// regular files named "*.jsonl" directly in it (not its subdirectories),
// sorted by name; a path given twice counts once. A path that does not
// exist is kept (its submission then fails, naming it). InvalidArgument for
// a directory holding no "*.jsonl" file or one that cannot be listed.
absl::StatusOr<std::vector<std::string>> FilesOfPaths(const std::vector<std::string>& paths);

struct PlannedFile {
  std::string path;
  // The request to send; empty when the file could not be read.
  std::string request_id;
  // 0 for the first file of the run with these bytes, N for the N-th copy.
  int copy = 0;
  // Why the file could not be read (then it is not sent); OK otherwise.
  absl::Status unreadable;
};

struct SubmitPlan {
  std::vector<PlannedFile> files;  // in the order of FilesOfPaths
  // Indices into `files`: one group per played game (or, for a file that
  // does not parse, per file), in the order of their first file; each group
  // in file order.
  std::vector<std::vector<std::size_t>> groups;
};

// Reads every file (up to `max_bytes` each) and plans its request. Never
// fails: a file that cannot be read is planned as unreadable.
SubmitPlan PlanSubmissions(const std::vector<std::string>& files, std::size_t max_bytes);

}  // namespace arbiter::cli

#endif  // ARBITER_SERVICES_CLI_SUBMIT_PLAN_H_
