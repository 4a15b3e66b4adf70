// The judgement cache's two ways of knowing an entry is not stale
// (judgement_cache.h): by the hash of the game's last event, and "current"
// entries kept so by the store's follower, which answer without a read.
#include "services/games/judgement_cache.h"

#include <gtest/gtest.h>

namespace arbiter::server {
namespace {

games::JudgementCache::Judgement Judged(int64_t last_event) {
  games::JudgementCache::Judgement judged;
  judged.adjudication.set_last_event(last_event);
  judged.chained.game_id = "g";
  return judged;
}

// A cache whose follower has started at store position 100.
class FollowedCache : public ::testing::Test {
 protected:
  void SetUp() override { cache_.OnStored(100, {}, true); }
  games::JudgementCache cache_;
};

TEST(JudgementCacheTest, WithoutAFollowerNothingIsCurrentButTheHashStillFindsIt) {
  games::JudgementCache cache;
  const games::JudgementCache::ReadTicket ticket = cache.BeginRead();
  cache.Store("g", "hash-5", 50, ticket, Judged(5));
  EXPECT_FALSE(cache.FindCurrent("g", 0).has_value());
  ASSERT_TRUE(cache.Find("g", "hash-5").has_value());
  EXPECT_EQ(cache.Find("g", "hash-5")->adjudication.last_event(), 5);
  EXPECT_FALSE(cache.Find("g", "hash-6").has_value());
}

TEST_F(FollowedCache, AnEntryReadAfterTheStartIsCurrentUntilItsGameMoves) {
  const games::JudgementCache::ReadTicket ticket = cache_.BeginRead();
  cache_.Store("g", "hash-5", 90, ticket, Judged(5));
  ASSERT_TRUE(cache_.FindCurrent("g", 0).has_value());
  EXPECT_EQ(cache_.FindCurrent("g", 0)->adjudication.last_event(), 5);

  cache_.OnStored(110, {{"other", 105}}, false);
  EXPECT_TRUE(cache_.FindCurrent("g", 0).has_value()) << "another game's events change nothing";
  cache_.OnStored(120, {{"g", 115}}, false);
  EXPECT_FALSE(cache_.FindCurrent("g", 0).has_value());
}

TEST_F(FollowedCache, AReadThatMissedAnEventAlreadyHeardOfIsNotCurrent) {
  const games::JudgementCache::ReadTicket ticket = cache_.BeginRead();
  // The game moved (position 130) while the read was under way; the read
  // still saw its event at 95 as the last.
  cache_.OnStored(130, {{"g", 130}}, false);
  cache_.Store("g", "hash-5", 95, ticket, Judged(5));
  EXPECT_FALSE(cache_.FindCurrent("g", 0).has_value());
  // A read that saw position 130 is current.
  cache_.Store("g", "hash-6", 130, cache_.BeginRead(), Judged(6));
  ASSERT_TRUE(cache_.FindCurrent("g", 0).has_value());
  EXPECT_EQ(cache_.FindCurrent("g", 0)->adjudication.last_event(), 6);
}

TEST_F(FollowedCache, AReadBegunBeforeTheFollowerStartedOverIsNotCurrent) {
  const games::JudgementCache::ReadTicket before = cache_.BeginRead();
  cache_.OnStored(200, {}, true);  // started over: nothing known before 200
  cache_.Store("g", "hash-5", 150, before, Judged(5));
  EXPECT_FALSE(cache_.FindCurrent("g", 0).has_value());
  cache_.Store("g", "hash-5", 150, cache_.BeginRead(), Judged(5));
  EXPECT_TRUE(cache_.FindCurrent("g", 0).has_value());
  cache_.OnStored(200, {}, true);
  EXPECT_FALSE(cache_.FindCurrent("g", 0).has_value()) << "a restart makes every entry uncertain";
}

TEST_F(FollowedCache, ThisProcesssOwnWritesMustHaveBeenHeardOfFirst) {
  cache_.Store("g", "hash-5", 90, cache_.BeginRead(), Judged(5));
  EXPECT_TRUE(cache_.FindCurrent("g", 100).has_value());
  // This process stored position 101 (perhaps in game g): until the
  // follower reports it, the cache cannot answer without a read.
  EXPECT_FALSE(cache_.FindCurrent("g", 101).has_value());
  cache_.OnStored(101, {{"h", 101}}, false);
  EXPECT_TRUE(cache_.FindCurrent("g", 101).has_value());
}

TEST_F(FollowedCache, ALostFollowerStopsCurrentAnswersUntilItIsBack) {
  cache_.Store("g", "hash-5", 90, cache_.BeginRead(), Judged(5));
  cache_.OnLost();
  EXPECT_FALSE(cache_.FindCurrent("g", 0).has_value());
  EXPECT_TRUE(cache_.Find("g", "hash-5").has_value());
  cache_.OnStored(140, {{"g", 135}}, false);  // back; the game moved meanwhile
  EXPECT_FALSE(cache_.FindCurrent("g", 0).has_value());
}

TEST_F(FollowedCache, RememberingTooManyChangedGamesStartsAGeneration) {
  const games::JudgementCache::ReadTicket old = cache_.BeginRead();
  std::vector<std::pair<std::string, int64_t>> games;
  for (std::size_t i = 0; i <= games::JudgementCache::kMaxChangedGames; ++i) {
    games.emplace_back("game-" + std::to_string(i), 101 + static_cast<int64_t>(i));
  }
  cache_.OnStored(101 + static_cast<int64_t>(games.size()), games, false);
  // Whether "g" moved before the read can no longer be told.
  cache_.Store("g", "hash-5", 90, old, Judged(5));
  EXPECT_FALSE(cache_.FindCurrent("g", 0).has_value());
  cache_.Store("g", "hash-5", 90, cache_.BeginRead(), Judged(5));
  EXPECT_TRUE(cache_.FindCurrent("g", 0).has_value());
}

}  // namespace
}  // namespace arbiter::server
