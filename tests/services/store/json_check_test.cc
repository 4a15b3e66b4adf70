#include "services/store/internal/json_check.h"

#include <gtest/gtest.h>

namespace arbiter::store::internal {
namespace {

TEST(JsonCheck, AcceptsEveryKindOfValue) {
  for (const char* text :
       {"{}", "[]", "0", "-0.5e+10", "\"caf\xc3\xa9\"", "true", "false", "null",
        " {\"a\": [1, 2.5, {\"b\": null}], \"c\": \"\\u00e9\\n\"} ", "[\"\\ud83d\\ude00\"]"}) {
    EXPECT_EQ(JsonProblem(text), "") << text;
  }
}

TEST(JsonCheck, NamesWhatIsWrongAndWhere) {
  EXPECT_EQ(JsonProblem("{not json"), "expected a member name at byte 1");
  EXPECT_EQ(JsonProblem("[1,]"), "unexpected character at byte 3");
  EXPECT_EQ(JsonProblem("{\"a\" 1}"), "expected ':' at byte 5");
  EXPECT_EQ(JsonProblem("01"), "unexpected text after the value at byte 1");
  EXPECT_EQ(JsonProblem("\"open"), "unterminated string at byte 5");
  EXPECT_EQ(JsonProblem("\"a\\u0000\""), "\\u0000 is not allowed at byte 3");
  EXPECT_EQ(JsonProblem("\"\xff\""), "invalid UTF-8 at byte 1");
  EXPECT_EQ(JsonProblem("\"\xc3\""), "invalid UTF-8 at byte 1");
  EXPECT_EQ(JsonProblem(std::string("\"a\0b\"", 5)), "control character in a string at byte 2");
  EXPECT_EQ(JsonProblem("1."), "expected digits after '.' at byte 2");
  EXPECT_EQ(JsonProblem(""), "unexpected character at byte 0");
}

TEST(JsonCheck, RefusesDeepNestingInsteadOfOverflowingTheStack) {
  EXPECT_EQ(JsonProblem(std::string(100000, '[')), "nested too deeply at byte 257");
  EXPECT_EQ(JsonProblem(std::string(200, '[') + std::string(200, ']')), "");
}

}  // namespace
}  // namespace arbiter::store::internal
