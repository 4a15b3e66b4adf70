// `arbiter submit` with many files, without a server: which files a run
// covers, the request id of each (a copy gets its own), the groups of one
// played game, the summary and the run's exit code.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "engine/core/sha256.h"
#include "services/cli/submit_plan.h"
#include "services/cli/submit_summary.h"

namespace arbiter::cli {
namespace {

namespace fs = std::filesystem;

constexpr char kLog[] =
    "{\"game\":\"atlantis\",\"seed\":\"1\",\"players\":[{\"id\":\"p1\",\"name\":\"Ann\"},"
    "{\"id\":\"p2\",\"name\":\"Bob\"}]}\n"
    "{\"player\":\"p1\",\"atlantis\":{\"move\":{\"figure\":1,\"cards\":[\"HELMET\"]}}}\n";
// The same played game: only a display name differs.
constexpr char kRenamed[] =
    "{\"game\":\"atlantis\",\"seed\":\"1\",\"players\":[{\"id\":\"p1\",\"name\":\"Zoë\"},"
    "{\"id\":\"p2\",\"name\":\"Bob\"}]}\n"
    "{\"player\":\"p1\",\"atlantis\":{\"move\":{\"figure\":1,\"cards\":[\"HELMET\"]}}}\n";
constexpr char kOther[] =
    "{\"game\":\"atlantis\",\"seed\":\"2\",\"players\":[{\"id\":\"p1\"},{\"id\":\"p2\"}]}\n";

class SubmitPlanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Write(const std::string& name, const std::string& content) {
    const fs::path path = dir_ / name;
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << content;
    return path.string();
  }

  fs::path dir_;
};

TEST_F(SubmitPlanTest, TheRequestIdIsTheSingleSubmitsAndACopyGetsItsOwn) {
  EXPECT_EQ(SubmitRequestId(kLog), "submit-" + engine::Sha256Hex(kLog).substr(0, 32));
  EXPECT_EQ(SubmitRequestId(kLog, 2), SubmitRequestId(kLog) + "-copy-2");
}

TEST_F(SubmitPlanTest, ADirectoryIsItsJsonlFilesInNameOrderNotItsSubdirectories) {
  const std::string b = Write("b.jsonl", kOther);
  const std::string a = Write("a.jsonl", kLog);
  Write("notes.txt", "notes");
  Write("older/c.jsonl", kLog);
  const std::string missing = (dir_ / "missing.jsonl").string();
  auto files = FilesOfPaths({dir_.string(), dir_.string() + "/./a.jsonl", missing});
  ASSERT_TRUE(files.ok()) << files.status();
  EXPECT_EQ(*files, (std::vector<std::string>{a, b, missing}));
}

TEST_F(SubmitPlanTest, ADirectoryWithoutLogsIsRefused) {
  Write("notes.txt", "notes");
  auto files = FilesOfPaths({dir_.string()});
  EXPECT_EQ(files.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(files.status().message(), dir_.string() + ": no *.jsonl files in this directory");
}

TEST_F(SubmitPlanTest, CopiesGetRequestsOfTheirOwnAndOnePlayedGameIsOneGroup) {
  const std::vector<std::string> files = {
      Write("a.jsonl", kLog),     Write("b.jsonl", kOther),     Write("c.jsonl", kRenamed),
      Write("d.jsonl", kLog),     Write("e.jsonl", "not a log"), (dir_ / "f.jsonl").string()};
  const SubmitPlan plan = PlanSubmissions(files, 1 << 20);
  ASSERT_EQ(plan.files.size(), 6u);
  EXPECT_EQ(plan.files[0].request_id, SubmitRequestId(kLog));
  EXPECT_EQ(plan.files[2].request_id, SubmitRequestId(kRenamed));
  EXPECT_EQ(plan.files[3].request_id, SubmitRequestId(kLog, 1));
  EXPECT_EQ(plan.files[3].copy, 1);
  EXPECT_EQ(plan.files[5].unreadable.code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(plan.files[5].request_id, "");
  EXPECT_EQ(plan.groups, (std::vector<std::vector<std::size_t>>{{0, 2, 3}, {1}, {4}, {5}}));
}

FileResult Result(SubmitOutcome outcome, int exit_code, std::string game = "",
                  std::string reason = "") {
  FileResult result;
  result.outcome = outcome;
  result.exit_code = exit_code;
  result.game = std::move(game);
  result.reason = std::move(reason);
  return result;
}

TEST(SubmitSummary, TheWorstFileDecidesTheExitCode) {
  const FileResult legal = Result(SubmitOutcome::kLegal, kExitOk);
  const FileResult unfinished = Result(SubmitOutcome::kUnfinished, kExitUnfinished);
  const FileResult illegal = Result(SubmitOutcome::kIllegal, kExitIllegal);
  const FileResult duplicate = Result(SubmitOutcome::kDuplicate, kExitBadInput);
  const FileResult unavailable = Result(SubmitOutcome::kFailed, kExitFailure);
  EXPECT_EQ(RunExitCode({legal, legal}, false), kExitOk);
  EXPECT_EQ(RunExitCode({illegal, unfinished, legal}, false), kExitIllegal);
  EXPECT_EQ(RunExitCode({duplicate, illegal}, false), kExitBadInput);
  EXPECT_EQ(RunExitCode({unavailable, duplicate}, false), kExitFailure);
  EXPECT_EQ(RunExitCode({legal, FileResult()}, true), kExitInterrupted);
}

TEST(SubmitSummary, TheSummaryListsEveryFileThatIsNotSimplyLegal) {
  const std::vector<FileResult> results = {
      Result(SubmitOutcome::kLegal, kExitOk, "games/g1"),
      Result(SubmitOutcome::kDuplicate, kExitBadInput, "games/g1"),
      Result(SubmitOutcome::kFailed, kExitBadInput, "", "INVALID_ARGUMENT: line 1: \"x\"\t"),
      FileResult()};
  const std::vector<std::string> paths = {"a.jsonl", "b.jsonl", "c.jsonl", "d.jsonl"};
  EXPECT_EQ(SummaryText(paths, results, true),
            "interrupted after 3 of 4 files: 1 legal, 0 illegal, 0 unfinished, 1 refused as "
            "duplicates, 1 failed\n"
            "  b.jsonl: refused as a duplicate of games/g1\n"
            "  c.jsonl: failed: INVALID_ARGUMENT: line 1: \"x\"\t\n"
            "1 files not submitted; run the same command again to resume (files already stored "
            "are answered from the store, not stored twice)\n");
  EXPECT_EQ(SummaryJson({paths[2]}, {results[2]}, false, 2),
            "{\"files\":1,\"answered\":1,\"legal\":0,\"illegal\":0,\"unfinished\":0,"
            "\"duplicates\":0,\"failed\":1,\"notSubmitted\":0,\"interrupted\":false,"
            "\"exitCode\":2,\"results\":[{\"file\":\"c.jsonl\",\"outcome\":\"failed\",\"game\":"
            "\"\",\"duplicateOf\":\"\",\"reason\":\"INVALID_ARGUMENT: line 1: \\\"x\\\"\\u0009\"}]}");
}

}  // namespace
}  // namespace arbiter::cli
