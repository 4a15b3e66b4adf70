// Test vectors for the seeded generator (docs/chance.md lists the same ones,
// so an implementation in another language can check itself against them).
#include "engine/core/rng.h"

#include <numeric>
#include <vector>

#include "gtest/gtest.h"

namespace arbiter::engine {
namespace {

TEST(SplitMix64, MatchesThePublishedReferenceSequence) {
  // Reference outputs of SplitMix64 seeded with 1234567.
  SplitMix64 expand(1234567);
  EXPECT_EQ(expand.Next(), 6457827717110365317ULL);
  EXPECT_EQ(expand.Next(), 3203168211198807973ULL);
  EXPECT_EQ(expand.Next(), 9817491932198370423ULL);
  EXPECT_EQ(expand.Next(), 4593380528125082431ULL);
  EXPECT_EQ(expand.Next(), 16408922859458223821ULL);
}

TEST(Xoshiro256StarStar, MatchesTheReferenceFromStateOneTwoThreeFour) {
  // The reference C code started from s = {1, 2, 3, 4}.
  Rng rng = Rng::FromState({1, 2, 3, 4});
  EXPECT_EQ(rng.Next(), 11520ULL);
  EXPECT_EQ(rng.Next(), 0ULL);
  EXPECT_EQ(rng.Next(), 1509978240ULL);
  EXPECT_EQ(rng.Next(), 1215971899390074240ULL);
}

TEST(Rng, SeedIsExpandedWithSplitMix64) {
  Rng rng(42);
  SplitMix64 expand(42);
  for (uint64_t word : rng.state()) EXPECT_EQ(word, expand.Next());
}

TEST(Rng, SeedFortyTwoGivesTheDocumentedVectors) {
  // docs/chance_reference.py (an independent Python implementation) prints
  // these numbers; docs/chance.md lists them too.
  Rng rng(42);
  EXPECT_EQ(rng.Next(), 1546998764402558742ULL);
  EXPECT_EQ(rng.Next(), 6990951692964543102ULL);
  EXPECT_EQ(rng.Uniform(6), 5ULL);
  EXPECT_EQ(rng.Uniform(1000000007), 779106270ULL);
  std::vector<int> cards(10);
  std::iota(cards.begin(), cards.end(), 0);
  rng.Shuffle(cards);
  EXPECT_EQ(cards, (std::vector<int>{7, 5, 3, 1, 9, 4, 8, 2, 0, 6}));
}

TEST(Rng, UniformStaysInRangeAndCoversIt) {
  Rng rng(7);
  std::vector<int> seen(6, 0);
  for (int i = 0; i < 6000; ++i) {
    const uint64_t x = rng.Uniform(6);
    ASSERT_LT(x, 6u);
    ++seen[x];
  }
  for (int count : seen) EXPECT_GT(count, 800);
}

TEST(Rng, UniformOfOneIsAlwaysZeroAndPowerOfTwoNeedsNoRejection) {
  Rng a(9), b(9);
  EXPECT_EQ(a.Uniform(1), 0u);
  b.Next();
  EXPECT_EQ(a.state(), b.state());  // Uniform(1) consumed exactly one draw
  EXPECT_EQ(a.Uniform(8), b.Next() % 8);
}

TEST(Rng, SameSeedSameSequenceDifferentSeedDifferentSequence) {
  Rng a(123), b(123), c(124);
  for (int i = 0; i < 100; ++i) {
    const uint64_t x = a.Next();
    EXPECT_EQ(x, b.Next());
    EXPECT_NE(x, c.Next());
  }
}

TEST(Rng, RollIsBetweenOneAndSides) {
  Rng rng(5);
  for (int i = 0; i < 1000; ++i) {
    const int roll = rng.Roll(6);
    ASSERT_GE(roll, 1);
    ASSERT_LE(roll, 6);
  }
}

}  // namespace
}  // namespace arbiter::engine
