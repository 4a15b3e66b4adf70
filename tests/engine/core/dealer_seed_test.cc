// Dealt games (docs/chance.md, "Dealt games"): the documented vectors, which
// docs/chance_reference.py also prints (tests/engine/chance_vectors_test.py),
// that every input moves the seed, and the checks of the inputs.
#include "engine/core/dealer_seed.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace arbiter::engine {
namespace {

std::string Bytes0To31() {
  std::string out;
  for (int i = 0; i < 32; ++i) out.push_back(static_cast<char>(i));
  return out;
}

const std::string kAllOnes(32, '\xff');

std::vector<SeatValue> AnnAndBob() { return {{"ann", "7"}, {"bob", "lucky"}}; }

TEST(DealerSeedTest, CommitmentsMatchTheDocumentedVectors) {
  EXPECT_EQ(DealerCommitment("d1", Bytes0To31()),
            "4674091d23a5ca5fb2a03eac2ab8016b8ec6d215bb1c08fd4be0544a09e371f1");
  EXPECT_EQ(DealerCommitment("final-table-7", kAllOnes),
            "6f529be2dc00820fea4ce64651cfe71e082f749653b698d27ddbdc9902ece2f7");
}

TEST(DealerSeedTest, DrawnLotsMatchTheDocumentedVectors) {
  EXPECT_EQ(LotCommitment("cup", Bytes0To31()),
            "e00eb9e858a6cc08e71dee6b9e975da8357ca2c44ec75862206aceaf70cc63e3");
  EXPECT_EQ(DeriveLotSeed("cup", Bytes0To31(), {"p1", "p2", "p3"}), 3453526377042199042ULL);
  EXPECT_EQ(DeriveLotSeed("cup", Bytes0To31(), {"p2", "p1", "p3"}), 17736460516217723680ULL);
  EXPECT_EQ(LotCommitment("spring-open", kAllOnes),
            "e6a466184ab143a4b6687b1113441f9e1e1b16580a5ea0a38b1a701bea239ffe");
  EXPECT_EQ(DeriveLotSeed("spring-open", kAllOnes, {"ann", "bob", "cy", "dee", "\xc3\xa9t\xc3\xa9"}),
            1870112560372236819ULL);
  // A lot committed for one tournament does not open for another.
  EXPECT_NE(LotCommitment("cup2", Bytes0To31()), LotCommitment("cup", Bytes0To31()));
}

TEST(DealerSeedTest, SeedsMatchTheDocumentedVectors) {
  EXPECT_EQ(DeriveDealtSeed("d1", Bytes0To31(), AnnAndBob()), 13841310516195364348ULL);
  EXPECT_EQ(DeriveDealtSeed("d1", Bytes0To31(), {{"bob", "lucky"}, {"ann", "7"}}),
            7379373292566254381ULL);
  EXPECT_EQ(DeriveDealtSeed("d1", Bytes0To31(), {{"ann", "7"}, {"bob", std::nullopt}}),
            9551277084742055149ULL);
  EXPECT_EQ(DeriveDealtSeed("d1", Bytes0To31(), {{"ann", "7"}, {"bob", ""}}),
            17920352350220395431ULL);
  EXPECT_EQ(DeriveDealtSeed("final-table-7", kAllOnes,
                            {{"ann", "c0ffee"},
                             {"bob", "\xc3\xa9t\xc3\xa9"},
                             {"cy", std::nullopt},
                             {"dee", "\xf0\x9f\x82\xa1"}}),
            14669388313082991391ULL);
}

TEST(DealerSeedTest, TheCommitmentDependsOnTheSecretAndTheGame) {
  const std::string base = DealerCommitment("d1", Bytes0To31());
  std::string other_secret = Bytes0To31();
  other_secret[31] ^= 1;
  EXPECT_NE(DealerCommitment("d1", other_secret), base);
  EXPECT_NE(DealerCommitment("d2", Bytes0To31()), base);
}

TEST(DealerSeedTest, ChangingTheSecretOrTheGameChangesTheSeed) {
  const uint64_t base = DeriveDealtSeed("d1", Bytes0To31(), AnnAndBob());
  std::string other_secret = Bytes0To31();
  other_secret[0] ^= 1;
  EXPECT_NE(DeriveDealtSeed("d1", other_secret, AnnAndBob()), base);
  EXPECT_NE(DeriveDealtSeed("d2", Bytes0To31(), AnnAndBob()), base);
}

TEST(DealerSeedTest, ChangingAnySeatsValueChangesTheSeed) {
  const uint64_t base = DeriveDealtSeed("d1", Bytes0To31(), AnnAndBob());
  EXPECT_NE(DeriveDealtSeed("d1", Bytes0To31(), {{"ann", "8"}, {"bob", "lucky"}}), base);
  EXPECT_NE(DeriveDealtSeed("d1", Bytes0To31(), {{"ann", "7"}, {"bob", "lucky!"}}), base);
}

TEST(DealerSeedTest, ChangingWhichPlayerAddedAValueChangesTheSeed) {
  const uint64_t base = DeriveDealtSeed("d1", Bytes0To31(), AnnAndBob());
  EXPECT_NE(DeriveDealtSeed("d1", Bytes0To31(), {{"ann", "7"}, {"cy", "lucky"}}), base);
}

TEST(DealerSeedTest, SwappingTheSeatsChangesTheSeed) {
  EXPECT_NE(DeriveDealtSeed("d1", Bytes0To31(), {{"bob", "lucky"}, {"ann", "7"}}),
            DeriveDealtSeed("d1", Bytes0To31(), AnnAndBob()));
  // The same values in the same seats, only the players moved.
  EXPECT_NE(DeriveDealtSeed("d1", Bytes0To31(), {{"bob", "7"}, {"ann", "lucky"}}),
            DeriveDealtSeed("d1", Bytes0To31(), AnnAndBob()));
}

TEST(DealerSeedTest, ASeatThatAddedNothingIsNotASeatThatAddedAnEmptyValue) {
  EXPECT_NE(DeriveDealtSeed("d1", Bytes0To31(), {{"ann", "7"}, {"bob", std::nullopt}}),
            DeriveDealtSeed("d1", Bytes0To31(), {{"ann", "7"}, {"bob", ""}}));
}

TEST(DealerSeedTest, ASeatThatAddedNothingStillCounts) {
  EXPECT_NE(DeriveDealtSeed("d1", Bytes0To31(), {{"ann", "7"}, {"bob", std::nullopt}}),
            DeriveDealtSeed("d1", Bytes0To31(), {{"ann", "7"}}));
}

TEST(DealerSeedTest, MovingBytesAcrossABoundaryChangesTheSeed) {
  // Without the length prefixes each pair below would hash the same bytes.
  EXPECT_NE(DeriveDealtSeed("d1", Bytes0To31(), {{"ann", "7"}}),
            DeriveDealtSeed("d1", Bytes0To31(), {{"an", "n7"}}));
  EXPECT_NE(DeriveDealtSeed("d1", Bytes0To31(), {{"ann", "7,"}, {"bob", "x"}}),
            DeriveDealtSeed("d1", Bytes0To31(), {{"ann", "7"}, {",bob", "x"}}));
}

TEST(DealerSeedTest, ASecretOfThirtyTwoBytesIsAccepted) {
  EXPECT_TRUE(CheckDealerSecret(Bytes0To31()).ok());
}

TEST(DealerSeedTest, ASecretOfAnyOtherSizeIsRefusedWithItsSize) {
  const absl::Status short_secret = CheckDealerSecret(std::string(31, 'a'));
  EXPECT_EQ(short_secret.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(short_secret.message(), "server_secret: 31 bytes; must be exactly 32");
  EXPECT_EQ(CheckDealerSecret(std::string(33, 'a')).message(),
            "server_secret: 33 bytes; must be exactly 32");
  EXPECT_EQ(CheckDealerSecret("").message(), "server_secret: 0 bytes; must be exactly 32");
}

TEST(DealerSeedTest, SeatValuesOfOneToSixtyFourBytesOfTextAreAccepted) {
  EXPECT_TRUE(CheckSeatValue("7").ok());
  EXPECT_TRUE(CheckSeatValue("lucky seven").ok());
  EXPECT_TRUE(CheckSeatValue("\xc3\xa9t\xc3\xa9").ok());        // "été"
  EXPECT_TRUE(CheckSeatValue("\xe2\x82\xac").ok());              // U+20AC
  EXPECT_TRUE(CheckSeatValue("\xf0\x9f\x82\xa1").ok());          // U+1F0A1
  EXPECT_TRUE(CheckSeatValue("\xf4\x8f\xbf\xbf").ok());          // U+10FFFF
  EXPECT_TRUE(CheckSeatValue(std::string(kMaxSeatValueBytes, 'x')).ok());
}

TEST(DealerSeedTest, AnEmptySeatValueIsRefused) {
  const absl::Status status = CheckSeatValue("");
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "seat_value: empty; a seat that adds nothing sends no value at all");
}

TEST(DealerSeedTest, ASeatValueOverSixtyFourBytesIsRefused) {
  const absl::Status status = CheckSeatValue(std::string(65, 'x'));
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "seat_value: 65 bytes; at most 64");
  // Counted in bytes, not characters: 22 three-byte characters are 66 bytes.
  std::string euros;
  for (int i = 0; i < 22; ++i) euros += "\xe2\x82\xac";
  EXPECT_EQ(CheckSeatValue(euros).message(), "seat_value: 66 bytes; at most 64");
}

TEST(DealerSeedTest, ASeatValueThatIsNotUtf8IsRefusedAtTheByteWhereItBreaks) {
  const absl::Status status = CheckSeatValue("ab\x80");
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "seat_value: not valid UTF-8 at byte 2");
  EXPECT_EQ(CheckSeatValue("\xff").message(), "seat_value: not valid UTF-8 at byte 0");
  EXPECT_EQ(CheckSeatValue("x\xe2\x82").message(), "seat_value: not valid UTF-8 at byte 1");
  EXPECT_EQ(CheckSeatValue("\xe2x\xac").message(), "seat_value: not valid UTF-8 at byte 0");
}

TEST(DealerSeedTest, OverlongSurrogateAndOutOfRangeFormsAreRefused) {
  EXPECT_EQ(CheckSeatValue("\xc0\xaf").message(), "seat_value: not valid UTF-8 at byte 0");
  EXPECT_EQ(CheckSeatValue("\xe0\x80\xaf").message(), "seat_value: not valid UTF-8 at byte 0");
  EXPECT_EQ(CheckSeatValue("\xf0\x80\x80\xaf").message(),
            "seat_value: not valid UTF-8 at byte 0");
  EXPECT_EQ(CheckSeatValue("a\xed\xa0\x80").message(), "seat_value: not valid UTF-8 at byte 1");
  EXPECT_EQ(CheckSeatValue("\xf4\x90\x80\x80").message(),
            "seat_value: not valid UTF-8 at byte 0");
}

TEST(DealerSeedTest, ControlCharactersInASeatValueAreRefusedByCodePoint) {
  const absl::Status status = CheckSeatValue("abc\n");
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "seat_value: control character U+000A at byte 3");
  EXPECT_EQ(CheckSeatValue(std::string("a\0b", 3)).message(),
            "seat_value: control character U+0000 at byte 1");
  EXPECT_EQ(CheckSeatValue("\x7f").message(), "seat_value: control character U+007F at byte 0");
  EXPECT_EQ(CheckSeatValue("\xc3\xa9\xc2\x85").message(),
            "seat_value: control character U+0085 at byte 2");
  EXPECT_TRUE(CheckSeatValue("\xc2\xa0").ok());  // U+00A0, a no-break space, is text
}

}  // namespace
}  // namespace arbiter::engine
