#include "engine/core/sha256.h"

#include <algorithm>
#include <string>

#include "gtest/gtest.h"

namespace arbiter::engine {
namespace {

TEST(Sha256, MatchesTheFipsExamples) {
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

// The FIPS two-block message, and a million "a"s, given in uneven parts.
TEST(Sha256, AStreamInPartsHashesTheirConcatenation) {
  Sha256Stream two_blocks;
  two_blocks.Update("abcdbcdecdefdefgefghfghighij");
  two_blocks.Update("");
  two_blocks.Update("hijkijkljklmklmnlmnomnopnopq");
  EXPECT_EQ(two_blocks.FinishHex(),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  Sha256Stream million;
  for (int sent = 0, part = 1; sent < 1'000'000; sent += part, part = part % 997 + 1) {
    million.Update(std::string(std::min(part, 1'000'000 - sent), 'a'));
  }
  EXPECT_EQ(million.FinishHex(), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  Sha256Stream empty;
  EXPECT_EQ(empty.FinishHex(), Sha256Hex(""));
}

TEST(Sha256, RecognisesOnlyLowercaseHexOfTheRightLength) {
  EXPECT_TRUE(IsSha256Hex(Sha256Hex("x")));
  EXPECT_FALSE(IsSha256Hex("abc"));
  EXPECT_FALSE(IsSha256Hex(std::string(64, 'G')));
  EXPECT_FALSE(IsSha256Hex(std::string(64, 'A')));
  EXPECT_FALSE(IsSha256Hex(std::string(65, 'a')));
}

}  // namespace
}  // namespace arbiter::engine
