#include "services/cli/submit_plan.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <system_error>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/core/sha256.h"
#include "services/cli/cli_common.h"
#include "services/games/played_game.h"
#include "services/log/log_file.h"

namespace arbiter::cli {
namespace {

namespace fs = std::filesystem;

// The "*.jsonl" regular files directly in `dir`, sorted by name.
// InvalidArgument if it cannot be listed or holds none.
absl::StatusOr<std::vector<std::string>> LogsInDirectory(const std::string& dir) {
  std::error_code error;
  std::vector<std::string> names;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    std::error_code type_error;
    if (absl::EndsWith(name, ".jsonl") && it->is_regular_file(type_error)) names.push_back(name);
  }
  if (error) {
    return absl::InvalidArgumentError(absl::StrCat(dir, ": cannot list the directory: ", error.message()));
  }
  if (names.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(dir, ": no *.jsonl files in this directory"));
  }
  std::sort(names.begin(), names.end());
  std::vector<std::string> files;
  files.reserve(names.size());
  for (const std::string& name : names) files.push_back((fs::path(dir) / name).string());
  return files;
}

// The same file however it is spelt ("a.jsonl", "./a.jsonl").
std::string IdentityOf(const std::string& path) {
  std::error_code error;
  const fs::path canonical = fs::weakly_canonical(path, error);
  return error ? path : canonical.string();
}

// The played key of a log with bytes `content`, or "" when it does not parse.
std::string PlayedKeyOf(const std::string& content) {
  absl::StatusOr<log::GameLog> parsed = log::ParseLog(content);
  if (!parsed.ok()) return "";
  return games::PlayedGameKey(parsed->header, parsed->actions);
}

}  // namespace

std::string SubmitRequestId(const std::string& content, int copy) {
  std::string id = absl::StrCat("submit-", engine::Sha256Hex(content).substr(0, 32));
  if (copy > 0) absl::StrAppend(&id, "-copy-", copy);
  return id;
}

absl::StatusOr<std::vector<std::string>> FilesOfPaths(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  std::set<std::string> seen;
  for (const std::string& path : paths) {
    std::error_code error;
    std::vector<std::string> found{path};
    if (fs::is_directory(path, error)) {
      absl::StatusOr<std::vector<std::string>> logs = LogsInDirectory(path);
      if (!logs.ok()) return logs.status();
      found = *std::move(logs);
    }
    for (std::string& file : found) {
      if (seen.insert(IdentityOf(file)).second) files.push_back(std::move(file));
    }
  }
  return files;
}

SubmitPlan PlanSubmissions(const std::vector<std::string>& files, std::size_t max_bytes) {
  SubmitPlan plan;
  std::map<std::string, int> copies;          // SHA-256 of the bytes -> files seen
  std::map<std::string, std::size_t> groups;  // played key -> group
  for (const std::string& path : files) {
    const std::size_t index = plan.files.size();
    PlannedFile& file = plan.files.emplace_back();
    file.path = path;
    absl::StatusOr<std::string> content = ReadFile(path, max_bytes);
    if (!content.ok()) {
      file.unreadable = content.status();
      plan.groups.push_back({index});
      continue;
    }
    int& copies_before = copies[engine::Sha256Hex(*content)];
    file.copy = copies_before++;
    file.request_id = SubmitRequestId(*content, file.copy);
    const std::string key = PlayedKeyOf(*content);
    if (key.empty()) {
      plan.groups.push_back({index});
      continue;
    }
    auto [it, inserted] = groups.emplace(key, plan.groups.size());
    if (inserted) plan.groups.emplace_back();
    plan.groups[it->second].push_back(index);
  }
  return plan;
}

}  // namespace arbiter::cli
