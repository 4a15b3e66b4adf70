// Creating a game together with its first events (CreateGameRequest::events),
// as the service stores a whole submitted log: one transaction, idempotent,
// nothing written unless all of it is. Run against both stores.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "absl/strings/str_cat.h"

#include "tests/services/store/store_backends.h"
#include "tests/services/store/store_test_util.h"

namespace arbiter::store {
namespace {

using testing::Append;
using testing::CreateRequest;
using testing::EventStoreTest;
using testing::Events;

CreateGameRequest WholeGame(const std::string& game_id, int events, GameStatus status) {
  CreateGameRequest request = CreateRequest(game_id);
  request.events = Events(game_id, events);
  request.game.status = status;
  return request;
}

TYPED_TEST_SUITE(EventStoreTest, testing::Backends, testing::BackendNames);

TYPED_TEST(EventStoreTest, AGameCreatedWithItsEventsHoldsThemInOrder) {
  this->CreateGame("before");
  this->AppendOk(Append("before", 0, "b", Events("b", 2)));
  absl::StatusOr<GameRecord> game =
      this->store().CreateGame(WholeGame("whole", 5, GameStatus::kFinished));
  ASSERT_TRUE(game.ok()) << game.status();
  EXPECT_EQ(game->status, GameStatus::kFinished);
  EXPECT_EQ(game->last_sequence, 5);

  const std::vector<StoredEvent> events = this->ReadGame("whole");
  ASSERT_EQ(events.size(), 5u);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(events[i].sequence, i + 1);
    EXPECT_EQ(events[i].position, 3 + i) << "positions follow the 2 events already stored";
    EXPECT_EQ(events[i].payload, Events("whole", 5)[i].payload);
    EXPECT_EQ(events[i].recorded_by, "organiser") << "recorded by the game's creator";
  }
  EXPECT_EQ(game->last_hash, events.back().hash);
  EXPECT_EQ(this->Head(), 7);
  absl::StatusOr<VerifyReport> report = this->store().VerifyGame("whole");
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->events, 5);

  absl::StatusOr<GameRecord> stored = this->store().GetGame("whole");
  ASSERT_TRUE(stored.ok());
  EXPECT_EQ(stored->status, GameStatus::kFinished);
  EXPECT_EQ(stored->last_hash, game->last_hash);
}

TYPED_TEST(EventStoreTest, AnActiveGameCreatedWithEventsTakesTheNextAppend) {
  ASSERT_TRUE(this->store().CreateGame(WholeGame("live", 3, GameStatus::kActive)).ok());
  absl::StatusOr<AppendResult> stale = this->store().Append(Append("live", 0, "x", Events("x", 1)));
  EXPECT_EQ(stale.status().code(), absl::StatusCode::kAborted) << stale.status();
  const AppendResult next = this->AppendOk(Append("live", 3, "more", Events("more", 2)));
  EXPECT_EQ(next.first_sequence, 4);
  EXPECT_EQ(next.first_position, 4);
  ASSERT_TRUE(this->store().VerifyGame("live").ok());
}

TYPED_TEST(EventStoreTest, ARetriedWholeGameWritesNothingTwice) {
  const CreateGameRequest request = WholeGame("again", 4, GameStatus::kFinished);
  ASSERT_TRUE(this->store().CreateGame(request).ok());
  absl::StatusOr<GameRecord> retried = this->store().CreateGame(request);
  ASSERT_TRUE(retried.ok()) << retried.status();
  EXPECT_EQ(retried->last_sequence, 4);
  EXPECT_EQ(this->Head(), 4);

  CreateGameRequest other_events = request;
  other_events.events[2].payload = "changed";
  EXPECT_EQ(this->store().CreateGame(other_events).status().code(),
            absl::StatusCode::kInvalidArgument);
  CreateGameRequest other_status = request;
  other_status.game.status = GameStatus::kActive;
  EXPECT_EQ(this->store().CreateGame(other_status).status().code(),
            absl::StatusCode::kInvalidArgument);
  // The create request's id also names the batch: an append may not reuse it.
  absl::StatusOr<AppendResult> reused =
      this->store().Append(Append("again", 4, request.request_id, Events("late", 1)));
  EXPECT_EQ(reused.status().code(), absl::StatusCode::kInvalidArgument) << reused.status();
  EXPECT_EQ(this->Head(), 4);
}

TYPED_TEST(EventStoreTest, AWholeGameWithAStoredEventIdIsRefusedAndNothingIsCreated) {
  this->CreateGame("first");
  this->AppendOk(Append("first", 0, "a", Events("dup", 2)));
  CreateGameRequest request = CreateRequest("second");
  request.events = Events("dup", 3);  // "dup-0" and "dup-1" are taken
  absl::StatusOr<GameRecord> game = this->store().CreateGame(request);
  EXPECT_EQ(game.status().code(), absl::StatusCode::kAlreadyExists) << game.status();
  EXPECT_NE(game.status().message().find("\"dup-0\""), absl::string_view::npos) << game.status();
  EXPECT_EQ(this->store().GetGame("second").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(this->Head(), 2);
}

TYPED_TEST(EventStoreTest, AWholeGameWithABadEventOrStatusIsRefusedWithTheField) {
  CreateGameRequest bad_json = WholeGame("bad", 3, GameStatus::kFinished);
  bad_json.events[1].json = "{not json";
  absl::StatusOr<GameRecord> game = this->store().CreateGame(bad_json);
  EXPECT_EQ(game.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(game.status().message().find("events[1].json"), absl::string_view::npos)
      << game.status();

  CreateGameRequest twice = WholeGame("bad", 3, GameStatus::kActive);
  twice.events[2].event_id = twice.events[0].event_id;
  game = this->store().CreateGame(twice);
  EXPECT_EQ(game.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(game.status().message().find("appears twice"), absl::string_view::npos)
      << game.status();

  game = this->store().CreateGame(WholeGame("bad", 0, GameStatus::kFinished));
  EXPECT_EQ(game.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(game.status().message().find("needs its events"), absl::string_view::npos);
  game = this->store().CreateGame(WholeGame("bad", 2, GameStatus::kVoided));
  EXPECT_EQ(game.status().code(), absl::StatusCode::kInvalidArgument);

  CreateGameRequest too_many = WholeGame("bad", 2, GameStatus::kActive);
  too_many.events.resize(kMaxEventsPerCreate + 1, too_many.events[0]);
  game = this->store().CreateGame(too_many);
  EXPECT_EQ(game.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(game.status().message(), absl::StrCat("the batch has ", kMaxEventsPerCreate + 1,
                                                  " events; the limit is ", kMaxEventsPerCreate));
  EXPECT_EQ(this->store().GetGame("bad").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(this->Head(), 0);
}

// A whole log longer than one append batch is still one transaction: every
// event in one call, consecutive positions, and no other writer can append
// between its parts. The writer below tries, at every batch boundary, the
// whole time the long games are being created.
TYPED_TEST(EventStoreTest, AWholeGameLongerThanABatchIsWrittenAtOnceAndCannotBeSpliced) {
  constexpr int kEvents = 3 * kMaxEventsPerAppend + 7;
  constexpr int kGames = 4;
  std::atomic<bool> done{false};
  std::atomic<int> splice_attempts{0};
  std::atomic<int> unexpected{0};
  std::thread splicer([&] {
    while (!done.load()) {
      for (int g = 0; g < kGames; ++g) {
        for (int at : {1, kMaxEventsPerAppend, 2 * kMaxEventsPerAppend}) {
          absl::StatusOr<AppendResult> r =
              this->store().Append(Append(absl::StrCat("long", g), at, absl::StrCat("splice", g, "-", at),
                                          Events(absl::StrCat("splice", g, "-", at), 1)));
          ++splice_attempts;
          // Before the game exists: NotFound; after: the sequence is stale
          // (the games stay active so that only the sequence refuses).
          if (r.ok() || (r.status().code() != absl::StatusCode::kNotFound &&
                         r.status().code() != absl::StatusCode::kAborted)) {
            ++unexpected;
          }
        }
      }
    }
  });
  for (int g = 0; g < kGames; ++g) {
    absl::StatusOr<GameRecord> game =
        this->store().CreateGame(WholeGame(absl::StrCat("long", g), kEvents, GameStatus::kActive));
    ASSERT_TRUE(game.ok()) << game.status();
    EXPECT_EQ(game->last_sequence, kEvents);
  }
  done = true;
  splicer.join();
  EXPECT_GT(splice_attempts.load(), 0);
  EXPECT_EQ(unexpected.load(), 0);
  for (int g = 0; g < kGames; ++g) {
    const std::string id = absl::StrCat("long", g);
    const std::vector<StoredEvent> events = this->ReadGame(id);
    const std::vector<NewEvent> sent = Events(id, kEvents);
    ASSERT_EQ(events.size(), static_cast<size_t>(kEvents));
    for (int i = 0; i < kEvents; ++i) {
      ASSERT_EQ(events[i].sequence, i + 1);
      ASSERT_EQ(events[i].position, events[0].position + i) << id << ": positions of one create are consecutive";
      ASSERT_EQ(events[i].payload, sent[i].payload);
    }
    absl::StatusOr<VerifyReport> report = this->store().VerifyGame(id);
    ASSERT_TRUE(report.ok()) << report.status();
    EXPECT_EQ(report->events, kEvents);
  }
}

TYPED_TEST(EventStoreTest, GlobalReadsResumeInsideABatch) {
  ASSERT_TRUE(this->store().CreateGame(WholeGame("g1", 6, GameStatus::kFinished)).ok());
  ASSERT_TRUE(this->store().CreateGame(WholeGame("g2", 4, GameStatus::kFinished)).ok());
  absl::StatusOr<std::vector<StoredEvent>> page = this->store().ReadAll(4, 3);
  ASSERT_TRUE(page.ok()) << page.status();
  ASSERT_EQ(page->size(), 3u);
  EXPECT_EQ((*page)[0].position, 5);
  EXPECT_EQ((*page)[0].game_id, "g1");
  EXPECT_EQ((*page)[0].sequence, 5);
  EXPECT_EQ((*page)[2].position, 7);
  EXPECT_EQ((*page)[2].game_id, "g2");
  EXPECT_EQ((*page)[2].sequence, 1);
  absl::StatusOr<std::vector<StoredEvent>> rest = this->store().ReadGameEvents("g2", 2, 10);
  ASSERT_TRUE(rest.ok());
  ASSERT_EQ(rest->size(), 2u);
  EXPECT_EQ(rest->front().position, 9);
}

}  // namespace
}  // namespace arbiter::store
