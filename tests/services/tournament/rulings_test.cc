// What a ruling is made of, as pure functions: the kinds' names as the API's
// messages and the `arbiter dispute` command print them, the standing
// changes a ruling reports, and which request asks for a recorded ruling.
#include "services/tournament/rulings.h"

#include <gtest/gtest.h>

#include <vector>

namespace arbiter::tournament {
namespace {

engine::tournament::StandingRow Row(const char* player, int rank, int64_t points, int64_t game) {
  engine::tournament::StandingRow row;
  row.player = player;
  row.rank = rank;
  row.points = points;
  row.game_points = game;
  return row;
}

TEST(RulingNames, AreTheWordsTheCommandAndTheClosedMessagePrint) {
  EXPECT_STREQ(RulingName(v1::RULING_KIND_UPHOLD), "uphold");
  EXPECT_STREQ(RulingName(v1::RULING_KIND_VOID), "void");
  EXPECT_STREQ(RulingName(v1::RULING_KIND_CORRECTED), "corrected");
  EXPECT_STREQ(RulingName(v1::RULING_KIND_UNSPECIFIED), "unspecified");
  v1::Ruling ruling;
  ruling.set_ruled_by("olga");
  ruling.set_kind(v1::RULING_KIND_CORRECTED);
  const absl::Status closed = DisputeClosed("d1", ruling);
  EXPECT_EQ(closed.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(closed.message(), "dispute \"d1\" is closed: ruled corrected result by olga");
  ruling.set_kind(v1::RULING_KIND_UPHOLD);
  EXPECT_EQ(DisputeClosed("d1", ruling).message(),
            "dispute \"d1\" is closed: ruled uphold by olga");
}

TEST(StandingChanges, ListOnlyThePlayersWhoseRankOrPointsMoved) {
  const std::vector<engine::tournament::StandingRow> before = {
      Row("a", 1, 840 * 4, 9), Row("b", 2, 840 * 2, 6), Row("c", 3, 840, 1)};
  const std::vector<engine::tournament::StandingRow> after = {
      Row("b", 1, 840 * 2, 6), Row("a", 2, 0, 9), Row("c", 3, 840, 1), Row("d", 4, 0, 0)};
  const std::vector<v1::StandingChange> changes = StandingChanges(before, after);
  ASSERT_EQ(changes.size(), 3u);
  EXPECT_EQ(changes[0].player(), "b");
  EXPECT_EQ(changes[0].rank_before(), 2);
  EXPECT_EQ(changes[0].rank_after(), 1);
  EXPECT_EQ(changes[1].player(), "a");
  EXPECT_EQ(changes[1].points_before(), "4");
  EXPECT_EQ(changes[1].points_after(), "0");
  EXPECT_EQ(changes[2].player(), "d");  // not in the standings before
  EXPECT_EQ(changes[2].rank_before(), 0);
  EXPECT_EQ(changes[2].points_before(), "0");
}

TEST(AsksFor, IsTheSameKindReasonCorrectedResultAndArbiter) {
  v1::RuleDisputeRequest request;
  request.set_kind(v1::RULING_KIND_CORRECTED);
  request.set_reason("seen on the recording");
  for (int p : {2, 1}) request.mutable_corrected()->add_places(p);
  for (int g : {3, 5}) request.mutable_corrected()->add_game_points(g);
  v1::Ruling ruling;
  ruling.set_kind(request.kind());
  ruling.set_reason(request.reason());
  *ruling.mutable_corrected() = request.corrected();
  ruling.set_ruled_by("olga");
  EXPECT_TRUE(AsksFor(request, "olga", ruling));
  EXPECT_FALSE(AsksFor(request, "admin", ruling));
  v1::RuleDisputeRequest other = request;
  other.mutable_corrected()->set_game_points(1, 6);
  EXPECT_FALSE(AsksFor(other, "olga", ruling));
  other = request;
  other.set_reason("something else");
  EXPECT_FALSE(AsksFor(other, "olga", ruling));
}

TEST(CheckGameWrite, RefusesAVoidWhoseGameReasonWouldPassAThousandCharacters) {
  v1::RuleDisputeRequest request;
  request.set_kind(v1::RULING_KIND_VOID);
  request.set_reason(std::string(1000 - RulingGameReason("d1", "").size(), 'r'));
  EXPECT_TRUE(CheckGameWrite("d1", request).ok());
  request.set_reason(request.reason() + "r");
  const absl::Status refused = CheckGameWrite("d1", request);
  EXPECT_EQ(refused.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(refused.message(), "reason is 989 characters; at most 988");
  // Characters, not bytes: 988 of "ë" (two bytes each) fit.
  std::string umlauts;
  for (int i = 0; i < 988; ++i) umlauts += "\xc3\xab";
  request.set_reason(umlauts);
  EXPECT_TRUE(CheckGameWrite("d1", request).ok());
  request.set_kind(v1::RULING_KIND_CORRECTED);  // a correction's text has no such limit
  EXPECT_TRUE(CheckGameWrite("d1", request).ok());
}

}  // namespace
}  // namespace arbiter::tournament
