// The played key of a stored game (CreateGameRequest::played_key): no two
// games share one, a retry is still a retry, and the holder can be found.
// Run against both stores.
#include <gtest/gtest.h>

#include <vector>

#include "services/common/status_details.h"
#include "tests/services/store/store_backends.h"
#include "tests/services/store/store_test_util.h"

namespace arbiter::store {
namespace {

using testing::CreateRequest;
using testing::EventStoreTest;
using testing::Events;

const std::string kKey(64, 'a');
const std::string kOtherKey(64, 'b');

CreateGameRequest Keyed(const std::string& game_id, const std::string& key) {
  CreateGameRequest request = CreateRequest(game_id);
  request.events = Events(game_id, 3);
  request.game.status = GameStatus::kFinished;
  request.played_key = key;
  return request;
}

TYPED_TEST_SUITE(EventStoreTest, testing::Backends, testing::BackendNames);

TYPED_TEST(EventStoreTest, ASecondGameWithAStoredPlayedKeyIsRefusedNamingTheFirst) {
  ASSERT_TRUE(this->store().CreateGame(Keyed("first", kKey)).ok());
  absl::StatusOr<GameRecord> second = this->store().CreateGame(Keyed("second", kKey));
  ASSERT_EQ(second.status().code(), absl::StatusCode::kAlreadyExists) << second.status();
  EXPECT_EQ(second.status().message(),
            "the same game (header and actions) is stored as game \"first\"");
  const std::optional<google::rpc::ErrorInfo> info = common::ErrorInfoOf(second.status());
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->reason(), "DUPLICATE_GAME");
  EXPECT_EQ(info->metadata().at("game"), "first");
  EXPECT_EQ(this->store().GetGame("second").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(this->Head(), 3) << "nothing of the second game is written";

  absl::StatusOr<std::optional<std::string>> holder = this->store().FindPlayedGame(kKey);
  ASSERT_TRUE(holder.ok()) << holder.status();
  EXPECT_EQ(*holder, std::optional<std::string>("first"));
  holder = this->store().FindPlayedGame(kOtherKey);
  ASSERT_TRUE(holder.ok()) << holder.status();
  EXPECT_FALSE(holder->has_value());
}

TYPED_TEST(EventStoreTest, ARetryOfAKeyedGameIsAnsweredAndOtherKeysOrNoneAreStored) {
  const CreateGameRequest first = Keyed("first", kKey);
  ASSERT_TRUE(this->store().CreateGame(first).ok());
  absl::StatusOr<GameRecord> retried = this->store().CreateGame(first);
  ASSERT_TRUE(retried.ok()) << retried.status();
  EXPECT_EQ(retried->game_id, "first");
  EXPECT_TRUE(this->store().CreateGame(Keyed("other", kOtherKey)).ok());
  EXPECT_TRUE(this->store().CreateGame(Keyed("unkeyed", "")).ok());
  EXPECT_TRUE(this->store().CreateGame(Keyed("unkeyed-too", "")).ok());
  EXPECT_EQ(this->Head(), 12);
}

TYPED_TEST(EventStoreTest, AGroupHoldingOneKeyTwiceStoresOnlyTheFirst) {
  const std::vector<absl::StatusOr<GameRecord>> created = this->store().CreateGames(
      {Keyed("a", kKey), Keyed("b", kOtherKey), Keyed("c", kKey)});
  ASSERT_EQ(created.size(), 3u);
  EXPECT_TRUE(created[0].ok()) << created[0].status();
  EXPECT_TRUE(created[1].ok()) << created[1].status();
  EXPECT_EQ(created[2].status().code(), absl::StatusCode::kAlreadyExists) << created[2].status();
  EXPECT_EQ(this->Head(), 6);
}

TYPED_TEST(EventStoreTest, AMalformedPlayedKeyOrOneWithoutEventsIsRefused) {
  absl::StatusOr<GameRecord> bad = this->store().CreateGame(Keyed("bad", "ABC"));
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.status().message(), "played_key is not 64 lowercase hex digits");
  CreateGameRequest empty = CreateRequest("empty");
  empty.played_key = kKey;
  bad = this->store().CreateGame(empty);
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.status().message(), "played_key needs the game's events");
}

}  // namespace
}  // namespace arbiter::store
