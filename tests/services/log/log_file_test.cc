#include "services/log/log_file.h"

#include "services/log/json_lines.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace arbiter::log {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr char kHeader[] =
    R"({"game":"atlantis","rulesetId":"atlantis-amigo-2009","rulesetHash":"00","seed":"42",)"
    R"("players":[{"id":"ann","name":"Ann"},{"id":"bob","name":"Bob"}]})";
constexpr char kMove[] = R"({"player":"ann","atlantis":{"move":{"figure":1,"cards":["RING"]}}})";
constexpr char kPass[] = R"({"player":"bob","atlantis":{"pass":{}}})";

std::string Lines(std::initializer_list<std::string> lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

TEST(ParseLog, ReadsTheHeaderAndOneActionPerLine) {
  auto log = ParseLog(Lines({kHeader, kMove, kPass}));
  ASSERT_TRUE(log.ok()) << log.status();
  EXPECT_EQ(log->header.game(), "atlantis");
  EXPECT_EQ(log->header.seed(), 42u);
  ASSERT_EQ(log->header.players_size(), 2);
  EXPECT_EQ(log->header.players(1).id(), "bob");
  ASSERT_EQ(log->actions.size(), 2u);
  EXPECT_EQ(log->actions[0].player(), "ann");
  EXPECT_EQ(log->actions[0].atlantis().move().cards(0), v1::Atlantis::RING);
  EXPECT_TRUE(log->actions[1].atlantis().has_pass());
}

TEST(ParseLog, AcceptsCarriageReturnsAndAMissingFinalNewline) {
  auto log = ParseLog(std::string(kHeader) + "\r\n" + kMove);
  ASSERT_TRUE(log.ok()) << log.status();
  EXPECT_EQ(log->actions.size(), 1u);
}

TEST(ParseLog, WritingWhatWasReadGivesTheSameBytes) {
  auto log = ParseLog(Lines({kHeader, kMove, kPass}));
  ASSERT_TRUE(log.ok());
  const std::string written = FormatLog(*log);
  auto again = ParseLog(written);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(FormatLog(*again), written);
  EXPECT_THAT(written, HasSubstr(R"("cards":["RING"])"));
}

TEST(ParseLog, RefusesAnEmptyFile) {
  auto log = ParseLog("");
  EXPECT_EQ(log.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(log.status().message()), HasSubstr("empty"));
}

TEST(ParseLog, NamesTheLineOfMalformedJson) {
  auto log = ParseLog(Lines({kHeader, kMove, R"({"player":"bob","atlantis":{"pass":{})"}));
  EXPECT_EQ(log.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(log.status().message()), StartsWith("line 3: not a valid Action"));
}

TEST(ParseLog, NamesAnUnknownField) {
  auto log = ParseLog(Lines({kHeader, R"({"player":"ann","atlantis":{"move":{"figgure":1}}})"}));
  EXPECT_EQ(log.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(log.status().message()), StartsWith("line 2:"));
  EXPECT_THAT(std::string(log.status().message()), HasSubstr("figgure"));
}

TEST(ParseLog, NamesAnUnknownEnumValue) {
  auto log = ParseLog(Lines({kHeader, R"({"player":"ann","atlantis":{"move":{"cards":["SWORD"]}}})"}));
  EXPECT_EQ(log.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(log.status().message()), StartsWith("line 2: not a valid Action: "));
  EXPECT_THAT(std::string(log.status().message()), HasSubstr("SWORD"));
}

TEST(ParseLog, RefusesAWrongTypeForAField) {
  auto log = ParseLog(Lines({kHeader, R"({"player":"ann","atlantis":{"move":{"figure":"one"}}})"}));
  EXPECT_EQ(log.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(log.status().message()), StartsWith("line 2:"));
}

TEST(ParseLog, RefusesAnEmptyLineInTheMiddle) {
  auto log = ParseLog(Lines({kHeader, kMove, "", kPass}));
  EXPECT_EQ(log.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(log.status().message()), StartsWith("line 3 is empty"));
}

TEST(ParseLog, AcceptsBlankLinesThatEndTheFile) {
  auto log = ParseLog(Lines({kHeader, kMove, kPass, "", "  ", "\r"}));
  ASSERT_TRUE(log.ok()) << log.status();
  EXPECT_EQ(log->actions.size(), 2u);
  log = ParseLog(Lines({kHeader, kMove, "", "", kPass}));
  EXPECT_EQ(log.status().message(),
            "line 3 is empty; every line after the header is one action (blank lines may only end "
            "the file)");
  log = ParseLog(Lines({"", kHeader}));
  EXPECT_EQ(log.status().message(), "line 1 is empty; line 1 must be the header");
}

TEST(ParseLog, RefusesATruncatedLastLine) {
  std::string text = Lines({kHeader, kMove});
  text += std::string(kPass).substr(0, 20);
  auto log = ParseLog(text);
  EXPECT_EQ(log.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(log.status().message()), StartsWith("line 3:"));
}

TEST(ParseLog, RefusesBinaryJunkNamingTheByte) {
  std::string junk = "\x89PNG\r\n\x1a\n";
  junk += std::string("\x00\xff\xfe", 3);
  auto log = ParseLog(junk);
  EXPECT_EQ(log.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(log.status().message()), StartsWith("line 1: byte 1 (0x89) is not valid UTF-8"));
}

TEST(ParseLog, RefusesNulBytes) {
  std::string line = kMove;
  line[5] = '\0';
  auto log = ParseLog(Lines({kHeader, line}));
  EXPECT_THAT(std::string(log.status().message()), StartsWith("line 2: byte 6 is a NUL byte"));
}

TEST(ParseLog, RefusesOverlongAndSurrogateUtf8) {
  // Both are refused as bytes, naming the line and the byte, before any JSON.
  auto overlong = ParseLog(std::string(kHeader) + "\n{\"player\":\"\xc0\xaf\"}");
  EXPECT_EQ(overlong.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(overlong.status().message()),
              StartsWith("line 2: byte 12 (0xc0) is not valid UTF-8"));
  auto surrogate = ParseLog(std::string(kHeader) + "\n{\"player\":\"\xed\xa0\x80\"}");
  EXPECT_EQ(surrogate.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(surrogate.status().message()),
              StartsWith("line 2: byte 12 (0xed) is not valid UTF-8"));
  EXPECT_TRUE(CheckUtf8Text("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8e\xb2", 1).ok());
}

TEST(ParseLog, RefusesALineOverTheLimit) {
  LogLimits limits;
  limits.max_line_bytes = 100;
  auto log = ParseLog(Lines({kHeader}), limits);
  EXPECT_EQ(log.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(log.status().message(), "line 1 is longer than the limit of 100 bytes");
}

TEST(ParseLog, RefusesMoreActionsThanTheLimit) {
  LogLimits limits;
  limits.max_actions = 1;
  auto log = ParseLog(Lines({kHeader, kMove, kPass}), limits);
  EXPECT_THAT(std::string(log.status().message()), StartsWith("line 3: the log has more than 1 actions"));
}

TEST(ParseLog, RefusesAHeaderThatIsNotAnObject) {
  auto log = ParseLog(Lines({"[1,2,3]", kMove}));
  EXPECT_THAT(std::string(log.status().message()), StartsWith("line 1: not a valid LogHeader"));
}

class LogFileTest : public ::testing::Test {
 protected:
  // A private directory per test, removed afterwards.
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "/log_file_test.XXXXXX";
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Write(const std::string& content) {
    const std::string path = dir_ + "/game.jsonl";
    std::ofstream out(path, std::ios::binary);
    out << content;
    return path;
  }
  std::string dir_;
};

TEST_F(LogFileTest, ReadsAFileLikeParseLog) {
  auto log = ReadLogFile(Write(Lines({kHeader, kMove, kPass})));
  ASSERT_TRUE(log.ok()) << log.status();
  EXPECT_EQ(log->actions.size(), 2u);
}

TEST_F(LogFileTest, AMissingFileIsNotFound) {
  auto log = ReadLogFile("/nonexistent/arbiter/log.jsonl");
  EXPECT_EQ(log.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(log.status().message()), HasSubstr("/nonexistent/arbiter/log.jsonl"));
}

TEST_F(LogFileTest, StopsAtAHugeLineWithoutReadingItAll) {
  // 100 MB without a newline on line 2.
  std::string content = Lines({kHeader});
  content.append(100u << 20, 'x');
  auto log = ReadLogFile(Write(content));
  EXPECT_EQ(log.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(log.status().message(), "line 2 is longer than the limit of 1048576 bytes");
}

TEST_F(LogFileTest, ReportsTheSameErrorAsParseLogForATruncatedFile) {
  std::string text = Lines({kHeader, kMove}) + std::string(kPass).substr(0, 12);
  auto from_file = ReadLogFile(Write(text));
  auto from_text = ParseLog(text);
  EXPECT_EQ(from_file.status(), from_text.status());
}

}  // namespace
}  // namespace arbiter::log
