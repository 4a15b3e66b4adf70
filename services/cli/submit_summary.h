// The answers of `arbiter submit` with many files: what became of each file,
// the progress line, the plain line per file, the summary at the end (as text
// and as JSON) and the run's exit code. Pure functions; thread-safe.
#ifndef ARBITER_SERVICES_CLI_SUBMIT_SUMMARY_H_
#define ARBITER_SERVICES_CLI_SUBMIT_SUMMARY_H_

#include <cstddef>
#include <string>
#include <vector>

#include "services/cli/cli_common.h"

namespace arbiter::cli {

enum class SubmitOutcome {
  kNotSubmitted,  // the run was interrupted before this file was sent
  kLegal,         // stored; legal and finished
  kIllegal,       // stored as evidence; an action broke a rule
  kUnfinished,    // stored; legal so far, not finished
  kDuplicate,     // refused: a stored game records the same played game
  kFailed,        // not stored: unreadable or malformed, refused, or the server failed
};

struct FileResult {
  SubmitOutcome outcome = SubmitOutcome::kNotSubmitted;
  // "games/ID": the stored game, or for a refused duplicate the game it repeats.
  std::string game;
  // One line: the broken rule, how far an unfinished game got, why a file
  // failed; "" for a legal game.
  std::string reason;
  // Stored with --allow-duplicate: "games/ID" of the game it repeats.
  std::string duplicate_of;
  // The exit code a single `arbiter submit` of this file gives.
  int exit_code = kExitOk;
};

// "3 legal, 1 illegal, 0 unfinished, 1 refused as duplicates, 0 failed".
std::string CountsText(const std::vector<FileResult>& results);

// The number of files that have an answer (every outcome but kNotSubmitted).
std::size_t AnsweredCount(const std::vector<FileResult>& results);

// One line (no newline) for one file, e.g. "logs/b.jsonl: illegal, stored as
// games/g-1: line 6 (p1) breaks rule not_your_turn: ...".
std::string FileLine(const std::string& path, const FileResult& result);

// The summary for people: the counts, then a line for every file that is not
// simply legal (FileLine, in file order), then, when `interrupted`, how many
// files were not sent and how to resume.
std::string SummaryText(const std::vector<std::string>& paths,
                        const std::vector<FileResult>& results, bool interrupted);

// The same as one JSON object on one line, keys in this order: "files",
// "answered", one count per outcome ("legal", "illegal", "unfinished",
// "duplicates", "failed", "notSubmitted"), "interrupted", "exitCode" and
// "results" (per file in file order: "file", "outcome" (legal, illegal,
// unfinished, duplicate, failed, not_submitted), "game", "duplicateOf",
// "reason").
std::string SummaryJson(const std::vector<std::string>& paths,
                        const std::vector<FileResult>& results, bool interrupted, int exit_code);

// The run's exit code: kExitInterrupted when `interrupted`; otherwise the
// worst of the files' own exit codes, worst first: 1 (the server failed),
// 2 (bad input or refused, duplicates included), 4 (illegal), 3
// (unfinished), 0 (every file stored, legal and finished).
int RunExitCode(const std::vector<FileResult>& results, bool interrupted);

}  // namespace arbiter::cli

#endif  // ARBITER_SERVICES_CLI_SUBMIT_SUMMARY_H_
