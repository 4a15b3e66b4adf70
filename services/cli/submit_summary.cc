#include "services/cli/submit_summary.h"

#include "absl/strings/str_cat.h"

namespace arbiter::cli {
namespace {

const char* OutcomeName(SubmitOutcome outcome) {
  switch (outcome) {
    case SubmitOutcome::kLegal:
      return "legal";
    case SubmitOutcome::kIllegal:
      return "illegal";
    case SubmitOutcome::kUnfinished:
      return "unfinished";
    case SubmitOutcome::kDuplicate:
      return "duplicate";
    case SubmitOutcome::kFailed:
      return "failed";
    case SubmitOutcome::kNotSubmitted:
      break;
  }
  return "not_submitted";
}

int CountOf(const std::vector<FileResult>& results, SubmitOutcome outcome) {
  int count = 0;
  for (const FileResult& result : results) count += result.outcome == outcome ? 1 : 0;
  return count;
}

// How bad an exit code is for a run: higher is worse.
int Severity(int exit_code) {
  switch (exit_code) {
    case kExitOk:
      return 0;
    case kExitUnfinished:
      return 1;
    case kExitIllegal:
      return 2;
    case kExitBadInput:
      return 3;
    default:
      return 4;
  }
}

// `text` as a JSON string, quotes included.
std::string JsonString(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      absl::StrAppend(&out, "\\u", absl::Hex(static_cast<unsigned char>(c), absl::kZeroPad4));
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string ResultJson(const std::string& path, const FileResult& result) {
  return absl::StrCat("{\"file\":", JsonString(path), ",\"outcome\":\"", OutcomeName(result.outcome),
                      "\",\"game\":", JsonString(result.game),
                      ",\"duplicateOf\":", JsonString(result.duplicate_of),
                      ",\"reason\":", JsonString(result.reason), "}");
}

}  // namespace

std::string CountsText(const std::vector<FileResult>& results) {
  return absl::StrCat(CountOf(results, SubmitOutcome::kLegal), " legal, ",
                      CountOf(results, SubmitOutcome::kIllegal), " illegal, ",
                      CountOf(results, SubmitOutcome::kUnfinished), " unfinished, ",
                      CountOf(results, SubmitOutcome::kDuplicate), " refused as duplicates, ",
                      CountOf(results, SubmitOutcome::kFailed), " failed");
}

std::size_t AnsweredCount(const std::vector<FileResult>& results) {
  return results.size() -
         static_cast<std::size_t>(CountOf(results, SubmitOutcome::kNotSubmitted));
}

std::string FileLine(const std::string& path, const FileResult& result) {
  std::string line = absl::StrCat(path, ": ");
  switch (result.outcome) {
    case SubmitOutcome::kLegal:
    case SubmitOutcome::kIllegal:
    case SubmitOutcome::kUnfinished:
      absl::StrAppend(&line, OutcomeName(result.outcome), ", stored as ", result.game);
      if (!result.duplicate_of.empty()) {
        absl::StrAppend(&line, ", a duplicate of ", result.duplicate_of, " (never rated)");
      }
      break;
    case SubmitOutcome::kDuplicate:
      absl::StrAppend(&line, "refused as a duplicate of ", result.game);
      break;
    case SubmitOutcome::kFailed:
      line += "failed";
      break;
    case SubmitOutcome::kNotSubmitted:
      line += "not submitted";
      break;
  }
  if (!result.reason.empty()) absl::StrAppend(&line, ": ", result.reason);
  return line;
}

std::string SummaryText(const std::vector<std::string>& paths,
                        const std::vector<FileResult>& results, bool interrupted) {
  const std::size_t answered = AnsweredCount(results);
  std::string out =
      interrupted
          ? absl::StrCat("interrupted after ", answered, " of ", results.size(), " files: ")
          : absl::StrCat("submitted ", results.size(), " files: ");
  absl::StrAppend(&out, CountsText(results), "\n");
  for (std::size_t i = 0; i < results.size(); ++i) {
    const FileResult& result = results[i];
    if (result.outcome == SubmitOutcome::kNotSubmitted) continue;
    if (result.outcome == SubmitOutcome::kLegal && result.duplicate_of.empty()) continue;
    absl::StrAppend(&out, "  ", FileLine(paths[i], result), "\n");
  }
  if (interrupted) {
    absl::StrAppend(&out, results.size() - answered,
                    " files not submitted; run the same command again to resume (files already "
                    "stored are answered from the store, not stored twice)\n");
  }
  return out;
}

std::string SummaryJson(const std::vector<std::string>& paths,
                        const std::vector<FileResult>& results, bool interrupted, int exit_code) {
  std::string out = absl::StrCat(
      "{\"files\":", results.size(), ",\"answered\":", AnsweredCount(results),
      ",\"legal\":", CountOf(results, SubmitOutcome::kLegal),
      ",\"illegal\":", CountOf(results, SubmitOutcome::kIllegal),
      ",\"unfinished\":", CountOf(results, SubmitOutcome::kUnfinished),
      ",\"duplicates\":", CountOf(results, SubmitOutcome::kDuplicate),
      ",\"failed\":", CountOf(results, SubmitOutcome::kFailed),
      ",\"notSubmitted\":", CountOf(results, SubmitOutcome::kNotSubmitted),
      ",\"interrupted\":", interrupted ? "true" : "false", ",\"exitCode\":", exit_code,
      ",\"results\":[");
  for (std::size_t i = 0; i < results.size(); ++i) {
    absl::StrAppend(&out, i == 0 ? "" : ",", ResultJson(paths[i], results[i]));
  }
  return out + "]}";
}

int RunExitCode(const std::vector<FileResult>& results, bool interrupted) {
  if (interrupted) return kExitInterrupted;
  int worst = kExitOk;
  for (const FileResult& result : results) {
    if (Severity(result.exit_code) > Severity(worst)) worst = result.exit_code;
  }
  return worst;
}

}  // namespace arbiter::cli
