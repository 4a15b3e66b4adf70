// Columns of the CLI's tables measured in display columns (text_columns.h):
// accented, combining, CJK and emoji names line up with ASCII ones.
#include "services/cli/text_columns.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace arbiter::cli {
namespace {

TEST(DisplayWidth, CountsAsciiOneColumnPerByte) {
  EXPECT_EQ(DisplayWidth(""), 0);
  EXPECT_EQ(DisplayWidth("ann"), 3);
  EXPECT_EQ(DisplayWidth("Zoe Muller"), 10);
}

TEST(DisplayWidth, CountsAPrecomposedLetterAsOneColumn) {
  EXPECT_EQ(DisplayWidth("Zo\xc3\xab M\xc3\xbcller"), 10);  // "Zoë Müller", 12 bytes
}

TEST(DisplayWidth, CountsACombiningMarkAsNoColumn) {
  EXPECT_EQ(DisplayWidth("Zoe\xcc\x88"), 3);  // "Zoë" as e + U+0308
}

TEST(DisplayWidth, CountsEastAsianWideCharactersAsTwoColumns) {
  EXPECT_EQ(DisplayWidth("\xe6\x9d\x8e\xe5\xb0\x8f\xe9\xbe\x8d"), 6);  // "李小龍"
  EXPECT_EQ(DisplayWidth("\xea\xb9\x80"), 2);                          // "김" (Hangul)
  EXPECT_EQ(DisplayWidth("\xef\xbc\xa1"), 2);                          // fullwidth "Ａ"
  EXPECT_EQ(DisplayWidth("\xf0\x9f\x8e\xb2"), 2);                      // U+1F3B2 game die
}

TEST(DisplayWidth, CountsEachInvalidByteAsOneColumn) {
  EXPECT_EQ(DisplayWidth("a\xff" "b"), 3);
  EXPECT_EQ(DisplayWidth("\xc3"), 1);  // a sequence cut short
}

TEST(PadRight, PadsToDisplayColumnsNotBytes) {
  EXPECT_EQ(PadRight("ann", 6), "ann   ");
  EXPECT_EQ(PadRight("Zo\xc3\xab", 6), "Zo\xc3\xab   ");
  EXPECT_EQ(PadRight("Zoe\xcc\x88", 6), "Zoe\xcc\x88   ");
  EXPECT_EQ(PadRight("\xe6\x9d\x8e\xe5\xb0\x8f", 6), "\xe6\x9d\x8e\xe5\xb0\x8f  ");
  EXPECT_EQ(PadRight("a longer name", 6), "a longer name");
  EXPECT_EQ(PadLeft("\xe6\x9d\x8e", 4), "  \xe6\x9d\x8e");
}

TEST(AlignedRows, LinesUpTheNextColumnWhateverTheNames) {
  const std::vector<std::vector<std::string>> rows = {
      {"player", "points"},
      {"ann", "7"},
      {"Zo\xc3\xab M\xc3\xbcller", "5"},
      {"Zoe\xcc\x88", "4"},
      {"\xe6\x9d\x8e\xe5\xb0\x8f\xe9\xbe\x8d", "3"},
  };
  EXPECT_EQ(AlignedRows(rows),
            "player      points\n"
            "ann         7\n"
            "Zo\xc3\xab M\xc3\xbcller  5\n"
            "Zoe\xcc\x88         4\n"
            "\xe6\x9d\x8e\xe5\xb0\x8f\xe9\xbe\x8d      3\n");
}

}  // namespace
}  // namespace arbiter::cli
