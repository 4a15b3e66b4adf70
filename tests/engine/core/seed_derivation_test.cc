// The sealed-seed vectors of docs/chance.md ("Sealed games"), which
// docs/chance_reference.py also prints (tests/engine/chance_vectors_test.py).
#include "engine/core/seed_derivation.h"

#include <gtest/gtest.h>

#include <string>

namespace arbiter::engine {
namespace {

std::string Bytes0To31() {
  std::string out;
  for (int i = 0; i < 32; ++i) out.push_back(static_cast<char>(i));
  return out;
}

TEST(SealedSeedTest, CommitmentVectors) {
  EXPECT_EQ(SealedSeedCommitment("g1", 42, std::string(32, '0')),
            "997a0afd96463e9fe7577b76a50b724c840e4b5e93f8924dde041855e9fd5f15");
  EXPECT_EQ(SealedSeedCommitment("final-table-7", 18446744073709551615ULL,
                                 "0123456789abcdef0123456789abcdef"),
            "8bcc700dfd6b070d5f215695405175fdc2b082a96c6dce45f96db4540fc92708");
}

TEST(SealedSeedTest, DerivationVectors) {
  EXPECT_EQ(DeriveSealedSeed("g1", 42, Bytes0To31()), 10950265997201647180ULL);
  EXPECT_EQ(DeriveSealedSeed("final-table-7", 18446744073709551615ULL, std::string(32, '\xff')),
            9428774405703584153ULL);
}

TEST(SealedSeedTest, EveryInputMatters) {
  const uint64_t base = DeriveSealedSeed("g1", 42, Bytes0To31());
  EXPECT_NE(DeriveSealedSeed("g2", 42, Bytes0To31()), base);
  EXPECT_NE(DeriveSealedSeed("g1", 43, Bytes0To31()), base);
  std::string other = Bytes0To31();
  other[31] = 'x';
  EXPECT_NE(DeriveSealedSeed("g1", 42, other), base);
  EXPECT_NE(SealedSeedCommitment("g2", 42, std::string(32, '0')),
            SealedSeedCommitment("g1", 42, std::string(32, '0')));
}

TEST(SealedSeedTest, HexOf) {
  EXPECT_EQ(HexOf(std::string("\x00\x0f\xa0\xff", 4)), "000fa0ff");
  EXPECT_EQ(HexOf(""), "");
}

}  // namespace
}  // namespace arbiter::engine
