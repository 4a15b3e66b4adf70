// ReadLeagueResults (services/league/result_reader.h): a league's results,
// decoded on a thread of their own, reach the caller in store order across
// many batches; a result that does not decode ends the read with DataLoss
// after the results before it; an uncounted result and a void come through
// as such. On the in-memory store.
#include "services/league/result_reader.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "arbiter/v1/arbiter_service.pb.h"
#include "services/store/memory_event_store.h"
#include "tests/services/store/store_test_util.h"

namespace arbiter::league {
namespace {

using store::testing::Append;
using store::testing::CreateRequest;

class ResultReaderTest : public ::testing::Test {
 protected:
  // Game `id` of league "north", ended by one event of `type` with `payload`.
  void Finish(const std::string& id, const char* type, const std::string& payload) {
    store::CreateGameRequest request = CreateRequest(id);
    request.game.league_id = "north";
    ASSERT_TRUE(store_.CreateGame(request).ok());
    store::NewEvent end;
    end.event_id = absl::StrCat(id, "-end");
    end.type = type;
    end.payload = payload;
    ASSERT_TRUE(store_.Append(Append(id, 0, absl::StrCat("end-", id), {end})).ok());
  }

  static std::string Finished(const std::string& league, int first_place) {
    v1::GameFinished finished;
    finished.set_verdict(v1::VERDICT_LEGAL);
    finished.set_game_type("atlantica");
    finished.set_league(league);
    for (const char* player : {"ana", "ben", "cy"}) {
      finished.add_players(player);
      v1::PlayerStanding* standing = finished.mutable_standings()->add_players();
      standing->set_player(player);
      standing->set_place(player == std::string("ana") ? first_place : 2);
    }
    return finished.SerializeAsString();
  }

  std::vector<DecodedResult> ReadAll(absl::Status* status) {
    std::vector<DecodedResult> out;
    *status = ReadLeagueResults(store_, "north", *store_.HeadPosition(), /*warn=*/false,
                                [&](DecodedResult& result) { out.push_back(result); });
    return out;
  }

  store::MemoryEventStore store_;
};

TEST_F(ResultReaderTest, ResultsArriveInStoreOrderAcrossBatches) {
  constexpr int kGames = 2500;  // more than two batches
  for (int g = 0; g < kGames; ++g) {
    Finish(absl::StrCat("g", g), "game_finished", Finished("north", 1 + g % 3));
  }
  Finish("elsewhere", "game_finished", Finished("south", 1));  // its chain names another league
  v1::GameVoided voided;
  voided.set_league("north");
  Finish("void", "game_voided", voided.SerializeAsString());

  absl::Status status;
  const std::vector<DecodedResult> results = ReadAll(&status);
  ASSERT_TRUE(status.ok()) << status;
  ASSERT_EQ(results.size(), kGames + 2u);
  int64_t last_position = 0;
  for (int g = 0; g < kGames; ++g) {
    const DecodedResult& r = results[g];
    ASSERT_EQ(r.kind, DecodedResult::Kind::kResult) << g;
    EXPECT_EQ(r.game_id, absl::StrCat("g", g));
    EXPECT_EQ(r.game.game_id, r.game_id);
    EXPECT_GT(r.game.position, last_position);
    last_position = r.game.position;
    EXPECT_EQ(r.game.places, (std::vector<int>{1 + g % 3, 2, 2}));
  }
  EXPECT_EQ(results[kGames].kind, DecodedResult::Kind::kUncounted);
  EXPECT_EQ(results[kGames].game_id, "elsewhere");
  EXPECT_EQ(results[kGames + 1].kind, DecodedResult::Kind::kVoid);
  EXPECT_EQ(results[kGames + 1].game_id, "void");
}

TEST_F(ResultReaderTest, AResultThatDoesNotDecodeEndsTheReadAfterTheOnesBefore) {
  constexpr int kBefore = 1500;
  for (int g = 0; g < kBefore; ++g) {
    Finish(absl::StrCat("g", g), "game_finished", Finished("north", 1));
  }
  v1::GameFinished no_place;
  no_place.ParseFromString(Finished("north", 1));
  no_place.mutable_standings()->mutable_players(1)->set_place(0);
  Finish("broken", "game_finished", no_place.SerializeAsString());
  for (int g = 0; g < 10; ++g) Finish(absl::StrCat("after", g), "game_finished", Finished("north", 1));

  absl::Status status;
  const std::vector<DecodedResult> results = ReadAll(&status);
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << status;
  EXPECT_EQ(status.message(), "the result of game \"broken\" gives no place to player \"ben\"");
  ASSERT_EQ(results.size(), static_cast<size_t>(kBefore));
  EXPECT_EQ(results.back().game_id, absl::StrCat("g", kBefore - 1));
}

}  // namespace
}  // namespace arbiter::league
