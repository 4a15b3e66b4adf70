// `arbiter rate` end to end: output format and values, carried ratings,
// Glicko-2 periods, parameters, and every kind of malformed input (exit 2, a
// message naming the line and the field, nothing printed for that match).
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

struct CommandResult {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

class RateCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "/rate_command_test.XXXXXX";
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Writes `lines` to a results file and runs `arbiter rate ARGS FILE`.
  CommandResult Rate(const std::vector<std::string>& lines, const std::string& args = "") {
    const std::string path = dir_ + "/results.jsonl";
    std::ofstream file(path);
    for (const std::string& line : lines) file << line << "\n";
    file.close();
    return Run("rate " + args + " " + path);
  }

  CommandResult Run(const std::string& args) {
    const std::string err_path = dir_ + "/stderr.txt";
    const std::string command = std::string(ARBITER_BIN_DIR) + "/arbiter " + args + " 2>" + err_path;
    CommandResult run;
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr) return run;
    std::array<char, 4096> buffer{};
    while (std::fgets(buffer.data(), buffer.size(), pipe) != nullptr) run.out += buffer.data();
    const int status = pclose(pipe);
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::ifstream err(err_path);
    run.err.assign(std::istreambuf_iterator<char>(err), std::istreambuf_iterator<char>());
    return run;
  }

  static std::vector<std::string> Lines(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
      const std::size_t end = text.find('\n', start);
      lines.push_back(text.substr(start, end - start));
      start = end == std::string::npos ? text.size() : end + 1;
    }
    return lines;
  }

  static constexpr char kOneOnOne[] =
      R"({"teams":[{"players":[{"id":"ann"}],"rank":1},{"players":[{"id":"bob"}],"rank":2}]})";

  std::string dir_;
};

TEST_F(RateCommandTest, OneOnOnePrintsBothRatingsToFullPrecision) {
  const CommandResult run = Rate({kOneOnOne});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out,
            "{\"line\":1,\"player\":\"ann\",\"mu\":27.635389493140497,\"sigma\":8.06590141354368,"
            "\"display\":3.437685252509457,\"games\":1,\"provisional\":true}\n"
            "{\"line\":1,\"player\":\"bob\",\"mu\":22.364610506859503,\"sigma\":8.06590141354368,"
            "\"display\":-1.8330937337715376,\"games\":1,\"provisional\":true}\n");
}

TEST_F(RateCommandTest, PlayersCarryTheirRatingAndPriorsReplaceIt) {
  const CommandResult run = Rate({kOneOnOne, "",
                                  R"({"teams":[{"players":[{"id":"bob"}],"rank":1},)"
                                  R"({"players":[{"id":"ann"},{"id":"cy","mu":30,"sigma":2}],"rank":2}]})"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::vector<std::string> lines = Lines(run.out);
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_THAT(lines[2], StartsWith("{\"line\":3,\"player\":\"bob\""));
  EXPECT_THAT(lines[2], HasSubstr("\"games\":2"));
  EXPECT_THAT(lines[4], StartsWith("{\"line\":3,\"player\":\"cy\",\"mu\":29."));
  EXPECT_THAT(lines[4], HasSubstr("\"games\":1"));
}

TEST_F(RateCommandTest, StandardInputWorksAsAFile) {
  const std::string path = dir_ + "/in.jsonl";
  std::ofstream(path) << kOneOnOne << "\n";
  const CommandResult run = Run("rate --system elo - < " + path);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("{\"line\":1,\"player\":\"ann\",\"mu\":1516,\"sigma\":0,\"display\":1516"));
}

TEST_F(RateCommandTest, ParametersChangeTheSystem) {
  const CommandResult run = Rate({kOneOnOne}, "--system elo --param k=10 --param rating=1000");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("\"player\":\"ann\",\"mu\":1005,"));
  EXPECT_THAT(run.out, HasSubstr("\"player\":\"bob\",\"mu\":995,"));
}

TEST_F(RateCommandTest, Glicko2PeriodsRateEveryPlayerOnceAgainstStartRatings) {
  // Glickman's example as one period of three games, then a line of its own.
  const CommandResult run = Rate(
      {R"({"period":1,"teams":[{"players":[{"id":"p","mu":1500,"sigma":200}],"rank":1},{"players":[{"id":"a","mu":1400,"sigma":30}],"rank":2}]})",
       R"({"period":1,"teams":[{"players":[{"id":"p"}],"rank":2},{"players":[{"id":"b","mu":1550,"sigma":100}],"rank":1}]})",
       R"({"period":1,"teams":[{"players":[{"id":"p"}],"rank":2},{"players":[{"id":"c","mu":1700,"sigma":300}],"rank":1}]})",
       R"({"period":2,"teams":[{"players":[{"id":"p"}],"rank":1},{"players":[{"id":"a"}],"rank":1}]})"},
      "--system glicko2");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::vector<std::string> lines = Lines(run.out);
  ASSERT_EQ(lines.size(), 6u) << run.out;
  EXPECT_THAT(lines[0], StartsWith("{\"line\":3,\"player\":\"p\",\"mu\":1464.05067053930"));
  EXPECT_THAT(lines[0], HasSubstr("\"sigma\":151.5165241238"));
  EXPECT_THAT(lines[0], HasSubstr("\"volatility\":0.0599959842864"));
  EXPECT_THAT(lines[0], HasSubstr("\"games\":3"));
  EXPECT_THAT(lines[1], StartsWith("{\"line\":1,\"player\":\"a\""));
  EXPECT_THAT(lines[4], StartsWith("{\"line\":4,\"player\":\"p\""));
}

TEST_F(RateCommandTest, HelpListsEverySystemsParameters) {
  const CommandResult run = Run("rate --help");
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_THAT(run.out, HasSubstr("glicko2"));
  EXPECT_THAT(run.out, HasSubstr("kappa [0.0001]"));
  EXPECT_THAT(run.out, HasSubstr("k [32]"));
}

struct BadInput {
  std::string line;  // the second line of the file, after one good match
  std::string says;
};

TEST_F(RateCommandTest, MalformedLinesExitTwoNamingLineAndFieldAndPrintNothingForThem) {
  const BadInput cases[] = {
      {R"({"teams":[{"players":[{"id":"ann"}],"rank":1},)", "line 2: not a valid RatingMatchLine"},
      {R"({"period":1})", "line 2: teams: a match needs at least 2 teams; this line has 0"},
      {R"({"teams":[{"players":[{"id":"ann"}],"rank":1}]})", "line 2: teams: a match needs at least 2 teams"},
      {R"({"teams":[{"players":[{"id":"a"}],"rank":1.5},{"players":[{"id":"b"}],"rank":2}]})",
       "line 2: not a valid RatingMatchLine: (teams[0].rank): invalid value 1.5"},
      {R"({"teams":[{"players":[{"id":"a"}],"rank":"first"},{"players":[{"id":"b"}],"rank":2}]})",
       "(teams[0].rank): invalid value \"first\""},
      {R"({"teams":[{"players":[{"id":"a"}]},{"players":[{"id":"b"}],"rank":2}]})", "line 2: teams[0].rank is missing"},
      {R"({"teams":[{"players":[{"id":"a"}],"rank":1},{"players":[],"rank":2}]})", "line 2: teams[1].players is empty"},
      {R"({"teams":[{"players":[{"id":"a","sigma":-1}],"rank":1},{"players":[{"id":"b"}],"rank":2}]})",
       "line 2: teams[0].players[0] (\"a\"): sigma is -1; it must be > 0"},
      {R"({"teams":[{"players":[{"id":"a","mu":"Infinity"}],"rank":1},{"players":[{"id":"b"}],"rank":2}]})",
       "line 2: teams[0].players[0] (\"a\"): mu is inf, not a finite number"},
      {R"({"teams":[{"players":[{"id":"a"}],"rank":1},{"players":[{"id":"b"},{"id":"a"}],"rank":2}]})",
       "line 2: teams[1].players[1].id: player \"a\" is listed twice in one match (also teams[0].players[0])"},
      {R"({"teams":[{"players":[{"mu":3}],"rank":1},{"players":[{"id":"b"}],"rank":2}]})",
       "line 2: teams[0].players[0].id is missing"},
      {R"({"teams":[{"players":[{"id":"a","rating":3}],"rank":1},{"players":[{"id":"b"}],"rank":2}]})",
       "line 2: not a valid RatingMatchLine: (teams[0].players[0]) rating: Cannot find field."},
      {"\xff", "line 2: byte 1 (0xff) is not valid UTF-8"},
  };
  for (const BadInput& c : cases) {
    const CommandResult run = Rate({kOneOnOne, c.line});
    EXPECT_EQ(run.exit_code, 2) << c.line;
    EXPECT_THAT(run.err, HasSubstr(c.says)) << c.line;
    EXPECT_EQ(Lines(run.out).size(), 2u) << "only the first match is printed: " << run.out;
    EXPECT_THAT(run.out, Not(HasSubstr("\"line\":2"))) << c.line;
  }
}

TEST_F(RateCommandTest, AnOversizedLineIsRefusedWithoutReadingItAll) {
  const CommandResult run = Rate({kOneOnOne, std::string(3 << 20, ' ')});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("line 2: the line is longer than 1048576 bytes"));
}

TEST_F(RateCommandTest, APriorForAPlayerWhoAlreadyPlayedInThePeriodIsRefused) {
  const CommandResult run = Rate(
      {R"({"period":1,"teams":[{"players":[{"id":"p"}],"rank":1},{"players":[{"id":"a"}],"rank":2}]})",
       R"({"period":1,"teams":[{"players":[{"id":"p","mu":1700}],"rank":1},{"players":[{"id":"b"}],"rank":2}]})"},
      "--system glicko2");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("line 2: teams[0].players[0]: a prior rating for \"p\", who already played"));
  EXPECT_EQ(run.out, "") << "the unfinished period is not printed";
}

TEST_F(RateCommandTest, BadSystemsParametersAndFilesExitTwo) {
  CommandResult run = Rate({kOneOnOne}, "--system trueskill");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("unknown rating system \"trueskill\""));
  run = Rate({kOneOnOne}, "--param sigma=-2");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("rating parameter sigma=-2 of plackett-luce is out of range: it must be > 0"));
  run = Rate({kOneOnOne}, "--system elo --param tau=1");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("unknown rating parameter \"tau\" for elo"));
  run = Rate({kOneOnOne}, "--param beta");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("--param beta: expected NAME=VALUE"));
  run = Run("rate " + dir_ + "/missing.jsonl");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("cannot open"));
  EXPECT_EQ(run.out, "");
}

}  // namespace
