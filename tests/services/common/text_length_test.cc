// Lengths of typed text in characters of valid UTF-8 (text_length.h), and
// the words of the check every reason and name goes through.
#include "services/common/text_length.h"

#include <gtest/gtest.h>

#include <string>

#include "services/common/status_details.h"

namespace arbiter::common {
namespace {

TEST(Utf8Length, CountsCodePointsNotBytes) {
  EXPECT_EQ(Utf8Length(""), 0);
  EXPECT_EQ(Utf8Length("reason"), 6);
  EXPECT_EQ(Utf8Length("Zo\xc3\xab"), 3);
  EXPECT_EQ(Utf8Length("\xe6\x9d\x8e\xe5\xb0\x8f\xe9\xbe\x8d"), 3);
  EXPECT_EQ(Utf8Length("\xf0\x9f\x8e\xb2"), 1);
}

TEST(Utf8Length, RefusesWhatIsNotUtf8) {
  EXPECT_EQ(Utf8Length("\xff"), std::nullopt);
  EXPECT_EQ(Utf8Length("\xc3"), std::nullopt);              // cut short
  EXPECT_EQ(Utf8Length("\xc0\xaf"), std::nullopt);          // overlong "/"
  EXPECT_EQ(Utf8Length("\xe0\x80\xaf"), std::nullopt);      // overlong "/"
  EXPECT_EQ(Utf8Length("\xed\xa0\x80"), std::nullopt);      // a surrogate
  EXPECT_EQ(Utf8Length("\xf4\x90\x80\x80"), std::nullopt);  // above U+10FFFF
}

TEST(CheckText, SaysRequiredOnlyWhenEmpty) {
  const absl::Status empty = CheckText("reason", "", 1, 1000, "saying why");
  EXPECT_EQ(empty.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(empty.message(), "reason is required: 1-1000 characters saying why");
  ASSERT_TRUE(BadRequestOf(empty).has_value());
  EXPECT_EQ(BadRequestOf(empty)->field_violations(0).field(), "reason");
}

TEST(CheckText, CountsTooLongTextInCharacters) {
  std::string umlauts;
  for (int i = 0; i < 1000; ++i) umlauts += "\xc3\xab";  // 2,000 bytes
  EXPECT_TRUE(CheckText("reason", umlauts, 1, 1000, "saying why").ok());
  umlauts += "x";
  const absl::Status long_one = CheckText("reason", umlauts, 1, 1000, "saying why");
  EXPECT_EQ(long_one.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(long_one.message(), "reason is 1001 characters; at most 1000");
}

TEST(CheckText, NamesTheFirstByteThatIsNotUtf8) {
  const absl::Status bad = CheckText("reason", "ok \xff", 1, 1000, "saying why");
  EXPECT_EQ(bad.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.message(), "reason is not valid UTF-8 (byte 4)");
}

}  // namespace
}  // namespace arbiter::common
