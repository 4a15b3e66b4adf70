// Behaviour every EventStore shares, run against the in-memory store and
// against PostgreSQL (a private cluster started by the test program).
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <pqxx/pqxx>
#include <set>
#include <thread>

#include "absl/types/span.h"
#include "services/store/event_hash.h"
#include "tests/services/store/store_backends.h"
#include "tests/services/store/store_test_util.h"

namespace arbiter::store {
namespace {

using testing::Append;
using testing::CreateRequest;
using testing::EventStoreTest;
using testing::Events;

TYPED_TEST_SUITE(EventStoreTest, testing::Backends, testing::BackendNames);

// A dealer's secret is kept once: a second keep (a retried creation) gets
// the first back, alone or among many kept at once, in the order asked.
TYPED_TEST(EventStoreTest, ADealersSecretIsKeptOnceAndManyAreKeptInOneCall) {
  const std::string first(32, 'a');
  const std::string second(32, 'b');
  absl::StatusOr<std::string> kept = this->store().KeepDealerSecret("d1", first);
  ASSERT_TRUE(kept.ok()) << kept.status();
  EXPECT_EQ(*kept, first);
  kept = this->store().KeepDealerSecret("d1", second);
  ASSERT_TRUE(kept.ok()) << kept.status();
  EXPECT_EQ(*kept, first);

  absl::StatusOr<std::vector<std::string>> many = this->store().KeepDealerSecrets(
      {{"d2", std::string(32, 'c')}, {"d1", second}, {"d3", std::string(32, 'd')}});
  ASSERT_TRUE(many.ok()) << many.status();
  EXPECT_EQ(*many, (std::vector<std::string>{std::string(32, 'c'), first, std::string(32, 'd')}));
  many = this->store().KeepDealerSecrets({{"d3", second}, {"d2", second}});
  ASSERT_TRUE(many.ok()) << many.status();
  EXPECT_EQ(*many, (std::vector<std::string>{std::string(32, 'd'), std::string(32, 'c')}));
  absl::StatusOr<std::optional<std::string>> read = this->store().DealerSecret("d2");
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, std::optional<std::string>(std::string(32, 'c')));
}

TYPED_TEST(EventStoreTest, EventsComeBackExactlyAsWritten) {
  this->CreateGame("g1");
  const std::vector<NewEvent> events = Events("e", 5);
  const AppendResult result = this->AppendOk(Append("g1", 0, "r1", events));
  EXPECT_EQ(result.first_sequence, 1);
  EXPECT_EQ(result.last_sequence, 5);
  EXPECT_EQ(result.first_position, 1);
  EXPECT_EQ(result.last_position, 5);
  EXPECT_FALSE(result.replayed);

  const std::vector<StoredEvent> stored = this->ReadGame("g1");
  ASSERT_EQ(stored.size(), 5u);
  std::string prev = GenesisHash();
  for (size_t i = 0; i < stored.size(); ++i) {
    EXPECT_EQ(stored[i].game_id, "g1");
    EXPECT_EQ(stored[i].sequence, static_cast<int64_t>(i) + 1);
    EXPECT_EQ(stored[i].position, static_cast<int64_t>(i) + 1);
    EXPECT_EQ(stored[i].event_id, events[i].event_id);
    EXPECT_EQ(stored[i].type, "action");
    EXPECT_EQ(stored[i].payload, events[i].payload);  // binary bytes intact
    EXPECT_EQ(stored[i].json, events[i].json);
    EXPECT_EQ(stored[i].recorded_by, "referee");
    EXPECT_EQ(stored[i].prev_hash, prev);
    EXPECT_EQ(stored[i].hash, EventHash(prev, stored[i].sequence, "g1", events[i].event_id,
                                        "action", events[i].payload));
    prev = stored[i].hash;
  }
  EXPECT_EQ(result.last_hash, prev);
  absl::StatusOr<GameRecord> game = this->store().GetGame("g1");
  ASSERT_TRUE(game.ok());
  EXPECT_EQ(game->last_sequence, 5);
  EXPECT_EQ(game->last_hash, prev);
  EXPECT_EQ(game->players, (std::vector<std::string>{"ana", "ben", "cy"}));
  EXPECT_EQ(game->seed, std::optional<uint64_t>(42));
  EXPECT_EQ(game->status, GameStatus::kActive);
}

// The service's event ids are derived from the game and the sequence (the
// PostgreSQL store keeps them as NULL): an id of that form is accepted only
// as its own event's, so that no other event can hold it.
TYPED_TEST(EventStoreTest, AnIdOfTheDerivedFormIsAcceptedOnlyAsItsOwnEvents) {
  this->CreateGame("g1");
  std::vector<NewEvent> events = Events("e", 2);
  events[0].event_id = DerivedEventId("g1", 1);
  events[1].event_id = DerivedEventId("g1", 2);
  ASSERT_TRUE(this->store().Append(Append("g1", 0, "r1", events)).ok());
  std::vector<NewEvent> more = Events("more", 1);
  more[0].event_id = DerivedEventId("other", 3);
  absl::Status status = this->store().Append(Append("g1", 2, "r2", more)).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(),
            absl::StrCat("events[0].event_id \"", DerivedEventId("other", 3),
                         "\" has the form of a derived event id (32 hex digits, '-', a sequence) "
                         "but is not that of event 3 of game \"g1\" (\"",
                         DerivedEventId("g1", 3), "\"); send that id, or an id of another form"));
  const std::vector<StoredEvent> stored = this->ReadGame("g1");
  ASSERT_EQ(stored.size(), 2u);
  EXPECT_EQ(stored[1].event_id, DerivedEventId("g1", 2));
  EXPECT_TRUE(this->store().VerifyGame("g1").ok());
}

TYPED_TEST(EventStoreTest, ReadsAGameFromASequenceOnward) {
  this->CreateGame("g1");
  this->AppendOk(Append("g1", 0, "r1", Events("e", 6)));
  absl::StatusOr<std::vector<StoredEvent>> tail = this->store().ReadGameEvents("g1", 4, 100);
  ASSERT_TRUE(tail.ok());
  ASSERT_EQ(tail->size(), 2u);
  EXPECT_EQ((*tail)[0].sequence, 5);
  absl::StatusOr<std::vector<StoredEvent>> limited = this->store().ReadGameEvents("g1", 0, 2);
  ASSERT_TRUE(limited.ok());
  EXPECT_EQ(limited->size(), 2u);
}

TYPED_TEST(EventStoreTest, AGamesHeadIsItsRowItsFirstEventsAndItsLastEvent) {
  this->CreateGame("g1");
  this->AppendOk(Append("g1", 0, "r1", Events("e", 6)));
  std::vector<NewEvent> more = Events("f", 3);
  more[1].type = "seed_revealed";
  this->AppendOk(Append("g1", 6, "r2", more));
  const std::vector<StoredEvent> all = this->ReadGame("g1");
  ASSERT_EQ(all.size(), 9u);

  absl::StatusOr<GameHead> head = this->store().ReadGameHead("g1", 4);
  ASSERT_TRUE(head.ok()) << head.status();
  EXPECT_EQ(head->row.last_sequence, 9);
  EXPECT_EQ(head->row.last_hash, all.back().hash);
  ASSERT_EQ(head->first_events.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(head->first_events[i].sequence, all[i].sequence);
    EXPECT_EQ(head->first_events[i].hash, all[i].hash);
    EXPECT_EQ(head->first_events[i].payload, all[i].payload);
    EXPECT_EQ(head->first_events[i].position, all[i].position);
  }
  ASSERT_TRUE(head->last_event.has_value());
  EXPECT_EQ(head->last_event->sequence, 9);
  EXPECT_EQ(head->last_event->hash, all.back().hash);
  EXPECT_EQ(head->last_event->position, all.back().position);

  // All of a short game in the first events; no last event besides.
  head = this->store().ReadGameHead("g1", 9);
  ASSERT_TRUE(head.ok());
  EXPECT_EQ(head->first_events.size(), 9u);
  EXPECT_FALSE(head->last_event.has_value());

  this->CreateGame("empty");
  head = this->store().ReadGameHead("empty", 10);
  ASSERT_TRUE(head.ok());
  EXPECT_EQ(head->row.game_id, "empty");
  EXPECT_TRUE(head->first_events.empty());
  EXPECT_FALSE(head->last_event.has_value());
  EXPECT_EQ(this->store().ReadGameHead("nobody", 10).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(this->store().ReadGameHead("g1", 0).status().code(),
            absl::StatusCode::kInvalidArgument);

  absl::StatusOr<std::optional<StoredEvent>> found =
      this->store().FindGameEvent("g1", "seed_revealed", 2, 9);
  ASSERT_TRUE(found.ok());
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ((*found)->sequence, 8);
  EXPECT_EQ((*found)->hash, all[7].hash);
  EXPECT_FALSE(this->store().FindGameEvent("g1", "seed_revealed", 8, 9)->has_value());
  EXPECT_FALSE(this->store().FindGameEvent("g1", "seed_revealed", 2, 7)->has_value());
  EXPECT_EQ(this->store().FindGameEvent("nobody", "seed_revealed", 0, 9).status().code(),
            absl::StatusCode::kNotFound);
}

TYPED_TEST(EventStoreTest, AGameWithTheLargestSeedKeepsIt) {
  CreateGameRequest request = CreateRequest("big-seed");
  request.game.seed = UINT64_MAX;
  ASSERT_TRUE(this->store().CreateGame(request).ok());
  EXPECT_EQ(this->store().GetGame("big-seed")->seed, std::optional<uint64_t>(UINT64_MAX));
  CreateGameRequest committed = CreateRequest("committed");
  committed.game.seed.reset();
  committed.game.seed_commitment = engine::Sha256Hex("secret seed");
  committed.game.league_id = "spring";
  ASSERT_TRUE(this->store().CreateGame(committed).ok());
  absl::StatusOr<GameRecord> game = this->store().GetGame("committed");
  EXPECT_FALSE(game->seed.has_value());
  EXPECT_EQ(game->seed_commitment, committed.game.seed_commitment);
  EXPECT_EQ(game->league_id, "spring");
}

TYPED_TEST(EventStoreTest, ARetriedCreateReturnsTheGameAndAReusedIdIsRefused) {
  this->CreateGame("g1");
  absl::StatusOr<GameRecord> again = this->store().CreateGame(CreateRequest("g1"));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->game_id, "g1");

  CreateGameRequest other = CreateRequest("g2");
  other.request_id = "create-g1";
  EXPECT_EQ(this->store().CreateGame(other).status().code(), absl::StatusCode::kInvalidArgument);

  CreateGameRequest taken = CreateRequest("g1");
  taken.request_id = "another";
  EXPECT_EQ(this->store().CreateGame(taken).status().code(), absl::StatusCode::kAlreadyExists);
}

TYPED_TEST(EventStoreTest, ABadGameIsRefusedWithTheField) {
  CreateGameRequest request = CreateRequest("g1");
  request.game.players.clear();
  absl::Status status = this->store().CreateGame(request).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "players is empty");
  request = CreateRequest("g1");
  request.game.seed_commitment = "c";
  EXPECT_EQ(this->store().CreateGame(request).status().message(),
            "give exactly one of seed and seed_commitment");
  request = CreateRequest("g1");
  request.game.ruleset_hash = "abc";
  status = this->store().CreateGame(request).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "ruleset_hash is not 64 lowercase hex digits");
  request.game.ruleset_hash = std::string(64, 'A');
  EXPECT_EQ(this->store().CreateGame(request).status().message(),
            "ruleset_hash is not 64 lowercase hex digits");
  EXPECT_EQ(this->store().GetGame("g1").status().code(), absl::StatusCode::kNotFound);
}

TYPED_TEST(EventStoreTest, ABatchOfExactlyFourMebibytesIsAccepted) {
  this->CreateGame("g1");
  std::vector<NewEvent> heavy = Events("heavy", 16);
  for (NewEvent& event : heavy) {
    event.payload.assign(kMaxPayloadBytes, 'x');
    event.json.clear();
  }
  EXPECT_EQ(this->AppendOk(Append("g1", 0, "r1", heavy)).last_sequence, 16);
}

TYPED_TEST(EventStoreTest, IdsOfTwoHundredBytesAreStoredAndLongerOnesAreRefusedByName) {
  const std::string longest(kMaxIdBytes, 'x');
  const std::string one_more(kMaxIdBytes + 1, 'x');
  CreateGameRequest request = CreateRequest(longest);
  request.request_id = longest;
  ASSERT_TRUE(this->store().CreateGame(request).ok());
  std::vector<NewEvent> events = Events("e", 1);
  events[0].event_id = longest;
  events[0].type = longest;
  EXPECT_EQ(this->AppendOk(Append(longest, 0, longest.substr(1) + "a", events)).last_sequence, 1);
  EXPECT_EQ(this->ReadGame(longest).at(0).type, longest);

  request = CreateRequest(one_more);
  request.request_id = "create-long";
  EXPECT_EQ(this->store().CreateGame(request).status().message(),
            "game_id is 201 bytes; the limit is 200");
  request = CreateRequest("g2");
  request.request_id = one_more;
  EXPECT_EQ(this->store().CreateGame(request).status().message(),
            "request_id is 201 bytes; the limit is 200");
  events = Events("f", 2);
  events[1].event_id = one_more;
  EXPECT_EQ(this->store().Append(Append(longest, 1, "r2", events)).status().message(),
            "events[1].event_id is 201 bytes; the limit is 200");
  events = Events("f", 1);
  events[0].type = one_more;
  absl::Status status = this->store().Append(Append(longest, 1, "r3", events)).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "events[0].type is 201 bytes; the limit is 200");
  EXPECT_EQ(this->store().Append(Append(longest, 1, one_more, Events("f", 1))).status().message(),
            "request_id is 201 bytes; the limit is 200");
}

TYPED_TEST(EventStoreTest, ListsGamesPageByPageWithFilters) {
  for (const char* id : {"a", "b", "c", "d", "e"}) this->CreateGame(id);
  CreateGameRequest other = CreateRequest("f");
  other.game.game = "atlantis";
  other.game.tournament_id = "cup";
  ASSERT_TRUE(this->store().CreateGame(other).ok());
  ASSERT_TRUE(this->store().SetGameStatus("b", GameStatus::kFinished).ok());

  std::vector<std::string> seen;
  std::string token;
  int pages = 0;
  do {
    absl::StatusOr<ListGamesPage> page = this->store().ListGames({}, 2, token);
    ASSERT_TRUE(page.ok()) << page.status();
    for (const GameRecord& game : page->games) seen.push_back(game.game_id);
    token = page->next_page_token;
    ++pages;
  } while (!token.empty());
  EXPECT_EQ(seen, (std::vector<std::string>{"a", "b", "c", "d", "e", "f"}));
  EXPECT_EQ(pages, 3);

  ListGamesFilter finished;
  finished.status = GameStatus::kFinished;
  EXPECT_EQ(this->store().ListGames(finished, 0, "")->games.size(), 1u);
  ListGamesFilter cup;
  cup.tournament_id = "cup";
  cup.game = "atlantis";
  ASSERT_EQ(this->store().ListGames(cup, 0, "")->games.size(), 1u);
  CreateGameRequest with_dora = CreateRequest("g");
  with_dora.game.players = {"ana", "dora"};
  ASSERT_TRUE(this->store().CreateGame(with_dora).ok());
  ListGamesFilter dora;
  dora.player = "dora";
  absl::StatusOr<ListGamesPage> doras = this->store().ListGames(dora, 0, "");
  ASSERT_TRUE(doras.ok()) << doras.status();
  ASSERT_EQ(doras->games.size(), 1u);
  EXPECT_EQ(doras->games[0].game_id, "g");
  ListGamesFilter ana;
  ana.player = "ana";
  ana.status = GameStatus::kActive;
  absl::StatusOr<ListGamesPage> anas = this->store().ListGames(ana, 3, "");
  ASSERT_TRUE(anas.ok());
  EXPECT_EQ(anas->games.size(), 3u);
  EXPECT_FALSE(anas->next_page_token.empty()) << "a, c, d, e, f and g are active with ana";
  ListGamesFilter nobody;
  nobody.player = "an";  // a prefix of a player is not a player
  EXPECT_TRUE(this->store().ListGames(nobody, 0, "")->games.empty());
  EXPECT_EQ(this->store().ListGames({}, 0, "zz-not-hex").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(this->store().ListGames({}, 5000, "").status().code(),
            absl::StatusCode::kInvalidArgument);
}

TYPED_TEST(EventStoreTest, AFinishedGameTakesNoMoreEvents) {
  this->CreateGame("g1");
  ASSERT_TRUE(this->store().SetGameStatus("g1", GameStatus::kFinished).ok());
  EXPECT_EQ(this->store().Append(Append("g1", 0, "r1", Events("e", 1))).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(this->store().SetGameStatus("g1", GameStatus::kVoided).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(this->store().SetGameStatus("g1", GameStatus::kActive).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(this->store().SetGameStatus("nope", GameStatus::kVoided).code(),
            absl::StatusCode::kNotFound);
}

TYPED_TEST(EventStoreTest, ASequenceFromTheFutureOrThePastIsAbortedAndWritesNothing) {
  this->CreateGame("g1");
  this->AppendOk(Append("g1", 0, "r1", Events("a", 3)));
  absl::Status future = this->store().Append(Append("g1", 7, "r2", Events("b", 1))).status();
  EXPECT_EQ(future.code(), absl::StatusCode::kAborted);
  EXPECT_EQ(future.message(), "expected sequence 7, game \"g1\" is at 3");
  absl::Status past = this->store().Append(Append("g1", 1, "r3", Events("c", 1))).status();
  EXPECT_EQ(past.code(), absl::StatusCode::kAborted);
  EXPECT_EQ(past.message(), "expected sequence 1, game \"g1\" is at 3");
  EXPECT_EQ(this->ReadGame("g1").size(), 3u);
  EXPECT_EQ(this->Head(), 3);
}

TYPED_TEST(EventStoreTest, EachBadBatchGetsItsOwnErrorAndWritesNothing) {
  this->CreateGame("g1");
  this->AppendOk(Append("g1", 0, "r0", Events("kept", 1)));
  auto status_of = [&](const AppendRequest& request) {
    return this->store().Append(request).status();
  };
  absl::Status unknown = status_of(Append("nope", 0, "r1", Events("x", 1)));
  EXPECT_EQ(unknown.code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(unknown.message(), "game \"nope\" does not exist");

  absl::Status empty = status_of(Append("g1", 1, "r2", {}));
  EXPECT_EQ(empty.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(empty.message(), "the batch has no events");

  absl::Status too_many = status_of(Append("g1", 1, "r3", Events("x", kMaxEventsPerAppend + 1)));
  EXPECT_EQ(too_many.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(too_many.message(), "the batch has 1001 events; the limit is 1000");

  std::vector<NewEvent> big = Events("big", 1);
  big[0].payload.assign(kMaxPayloadBytes + 1, 'x');
  absl::Status oversized = status_of(Append("g1", 1, "r4", big));
  EXPECT_EQ(oversized.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(oversized.message(), "events[0].payload is 262145 bytes; the limit is 262144");

  // 4 MiB of payload and JSON per batch: 16 full payloads and one JSON byte more.
  std::vector<NewEvent> heavy = Events("heavy", 16);
  for (NewEvent& event : heavy) {
    event.payload.assign(kMaxPayloadBytes, 'x');
    event.json.clear();
  }
  heavy[3].json = "0";
  absl::Status over = status_of(Append("g1", 1, "r5", heavy));
  EXPECT_EQ(over.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(over.message(),
            "the batch holds 4194305 bytes of payload and JSON; the limit is 4194304");

  std::vector<NewEvent> twice = Events("t", 2);
  twice[1].event_id = twice[0].event_id;
  EXPECT_EQ(status_of(Append("g1", 1, "r6", twice)).message(),
            "events[1].event_id \"t-0\" appears twice in the batch");

  std::vector<NewEvent> reused = Events("kept", 1);
  reused[0].payload = "something else";
  absl::Status taken = status_of(Append("g1", 1, "r7", reused));
  EXPECT_EQ(taken.code(), absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(taken.message(),
            "event id \"kept-0\" is already stored as sequence 1 of game \"g1\" with different "
            "content");

  std::vector<NewEvent> bad_json = Events("j", 2);
  bad_json[1].json = "{not json";
  EXPECT_EQ(status_of(Append("g1", 1, "r10", bad_json)).message(),
            "events[1].json is not valid JSON: expected a member name at byte 1");

  std::vector<NewEvent> unnamed = Events("u", 1);
  unnamed[0].type.clear();
  EXPECT_EQ(status_of(Append("g1", 1, "r8", unnamed)).message(), "events[0].type is empty");
  EXPECT_EQ(status_of(Append("g1", -1, "r9", Events("n", 1))).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status_of(Append("g1", 1, "", Events("n", 1))).message(), "request_id is empty");

  EXPECT_EQ(this->ReadGame("g1").size(), 1u);
  EXPECT_EQ(this->Head(), 1);
  // A failed request id is not burnt: it can be used once the request is right.
  this->AppendOk(Append("g1", 1, "r7", Events("fresh", 1)));
  EXPECT_EQ(this->Head(), 2);
}

TYPED_TEST(EventStoreTest, ARetriedAppendReturnsTheFirstAnswerAndWritesNothingTwice) {
  this->CreateGame("g1");
  const AppendRequest request = Append("g1", 0, "r1", Events("e", 3));
  const AppendResult first = this->AppendOk(request);
  this->AppendOk(Append("g1", 3, "r2", Events("f", 2)));
  const AppendResult retry = this->AppendOk(request);
  EXPECT_TRUE(retry.replayed);
  EXPECT_EQ(retry.first_sequence, first.first_sequence);
  EXPECT_EQ(retry.last_sequence, first.last_sequence);
  EXPECT_EQ(retry.first_position, first.first_position);
  EXPECT_EQ(retry.last_position, first.last_position);
  EXPECT_EQ(retry.last_hash, first.last_hash);
  EXPECT_EQ(this->ReadGame("g1").size(), 5u);

  AppendRequest changed = request;
  changed.events[0].payload = "changed";
  absl::Status reused = this->store().Append(changed).status();
  EXPECT_EQ(reused.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(reused.message(), "request id \"r1\" was already used for a different request");
}

TYPED_TEST(EventStoreTest, ManyWritersOnOneGameEachSequenceWonOnce) {
  this->CreateGame("g1");
  constexpr int kWriters = 8;
  constexpr int kTarget = 120;  // events in the game at the end
  std::atomic<int> aborted{0};
  std::vector<std::thread> writers;
  std::mutex won_mu;
  std::map<int64_t, int> winner_of;  // first sequence of a batch -> writer
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      for (int attempt = 0;; ++attempt) {
        absl::StatusOr<GameRecord> game = this->store().GetGame("g1");
        if (!game.ok() || game->last_sequence >= kTarget) return;
        const std::string tag = absl::StrCat("w", w, "-", attempt);
        absl::StatusOr<AppendResult> result = this->store().Append(
            Append("g1", game->last_sequence, tag, Events(tag, 2)));
        if (result.ok()) {
          std::lock_guard<std::mutex> lock(won_mu);
          EXPECT_TRUE(winner_of.emplace(result->first_sequence, w).second);
        } else {
          EXPECT_EQ(result.status().code(), absl::StatusCode::kAborted) << result.status();
          ++aborted;
        }
      }
    });
  }
  for (std::thread& writer : writers) writer.join();
  const std::vector<StoredEvent> events = this->ReadGame("g1");
  ASSERT_EQ(static_cast<int>(events.size()), kTarget);
  std::set<std::string> ids;
  for (size_t i = 0; i < events.size(); ++i) {
    EXPECT_EQ(events[i].sequence, static_cast<int64_t>(i) + 1);
    EXPECT_TRUE(ids.insert(events[i].event_id).second);
  }
  // Each batch stayed together: its two events are adjacent.
  for (size_t i = 0; i < events.size(); i += 2) {
    EXPECT_EQ(events[i].event_id.substr(0, events[i].event_id.rfind('-')),
              events[i + 1].event_id.substr(0, events[i + 1].event_id.rfind('-')));
  }
  EXPECT_EQ(static_cast<int>(winner_of.size()), kTarget / 2);
  EXPECT_TRUE(this->store().VerifyGame("g1").ok());
  std::printf("%d appends lost the race and were told so\n", aborted.load());
}

TYPED_TEST(EventStoreTest, TheWholeStoreReadsInPositionOrderWithoutGaps) {
  this->CreateGame("g1");
  this->CreateGame("g2");
  this->AppendOk(Append("g1", 0, "r1", Events("a", 3)));
  this->AppendOk(Append("g2", 0, "r2", Events("b", 4)));
  this->AppendOk(Append("g1", 3, "r3", Events("c", 5)));
  const std::vector<StoredEvent> all = this->ReadEverything();
  ASSERT_EQ(all.size(), 12u);
  for (size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i].position, static_cast<int64_t>(i) + 1);
  EXPECT_EQ(all[3].event_id, "b-0");
  EXPECT_EQ(all[7].event_id, "c-0");
  EXPECT_EQ(this->Head(), 12);
  EXPECT_EQ(this->store().ReadAll(0, 0).status().code(), absl::StatusCode::kInvalidArgument);
}

TYPED_TEST(EventStoreTest, VerificationPassesAnIntactGame) {
  this->CreateGame("g1");
  this->CreateGame("empty");
  this->AppendOk(Append("g1", 0, "r1", Events("a", 4)));
  const AppendResult last = this->AppendOk(Append("g1", 4, "r2", Events("b", 4)));
  absl::StatusOr<VerifyReport> report = this->store().VerifyGame("g1");
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->events, 8);
  EXPECT_EQ(report->last_hash, last.last_hash);
  EXPECT_EQ(this->store().VerifyGame("empty")->events, 0);
  EXPECT_EQ(this->store().VerifyGame("nope").status().code(), absl::StatusCode::kNotFound);
}

TYPED_TEST(EventStoreTest, VerificationNamesTheFirstTamperedEvent) {
  this->CreateGame("g1");
  this->AppendOk(Append("g1", 0, "r1", Events("a", 6)));
  this->backend_.Tamper("g1", 4, "forged payload");
  this->backend_.Tamper("g1", 5, "forged payload too");
  absl::Status status = this->store().VerifyGame("g1").status();
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(status.message(),
            "event 4 (\"a-3\") of game \"g1\": its stored hash does not match its contents");
}

TYPED_TEST(EventStoreTest, VerificationOfALongGameNamesATamperedEventPastTheFirstBatches) {
  this->CreateGame("long");
  for (int a = 0; a < 3; ++a) {
    this->AppendOk(Append("long", int64_t{a} * 1000, absl::StrCat("r", a),
                          Events(absl::StrCat("a", a), 1000)));
  }
  absl::StatusOr<VerifyReport> intact = this->store().VerifyGame("long");
  ASSERT_TRUE(intact.ok()) << intact.status();
  EXPECT_EQ(intact->events, 3000);
  EXPECT_EQ(intact->last_hash, this->store().GetGame("long")->last_hash);
  this->backend_.Tamper("long", 2345, "forged payload");
  absl::Status status = this->store().VerifyGame("long").status();
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(status.message(),
            "event 2345 (\"a2-344\") of game \"long\": its stored hash does not match its contents");
}

NewEvent StatusEvent(const std::string& id, const char* type) {
  NewEvent event;
  event.event_id = id;
  event.type = type;
  event.payload = absl::StrCat("body of ", id);
  return event;
}

TYPED_TEST(EventStoreTest, AFinishedGameTakesOneCorrectedResultAndTheTournamentReadsThem) {
  CreateGameRequest t1 = CreateRequest("t1");
  t1.game.tournament_id = "cup";
  CreateGameRequest t2 = CreateRequest("t2");
  t2.game.tournament_id = "cup";
  CreateGameRequest other = CreateRequest("other");
  other.game.tournament_id = "open";
  const std::vector<absl::StatusOr<GameRecord>> created =
      this->store().CreateGames({t1, t2, other});
  ASSERT_EQ(created.size(), 3u);
  for (const auto& game : created) ASSERT_TRUE(game.ok()) << game.status();
  for (const char* game : {"t1", "t2", "other"}) {
    std::vector<NewEvent> events = Events(game, 2);
    events.push_back(StatusEvent(absl::StrCat(game, "-end"), kGameFinishedType));
    this->AppendOk(Append(game, 0, absl::StrCat("play-", game), events));
  }
  // One more result: accepted, the game stays finished.
  this->AppendOk(Append("t1", 3, "correct-t1", {StatusEvent("t1-fix", kGameFinishedType)}));
  EXPECT_EQ(this->store().GetGame("t1")->status, GameStatus::kFinished);
  // Anything else after the result is refused, a correction among others too.
  absl::StatusOr<AppendResult> refused = this->store().Append(
      Append("t1", 4, "more", {Events("late", 1)[0], StatusEvent("t1-fix2", kGameFinishedType)}));
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(refused.status().message(),
            "game \"t1\" is finished; no more events may be appended");
  this->AppendOk(Append("t2", 3, "void-t2", {StatusEvent("t2-void", kGameVoidedType)}));
  refused =
      this->store().Append(Append("t2", 4, "fix-t2", {StatusEvent("t2-fix", kGameFinishedType)}));
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(refused.status().message(), "game \"t2\" is voided; no more events may be appended");

  // The tournament's results, in position order, and no other tournament's.
  absl::StatusOr<std::vector<ResultEvent>> results =
      this->results().ReadTournamentResults("cup", 0, 100);
  ASSERT_TRUE(results.ok()) << results.status();
  std::vector<std::string> seen;
  for (const ResultEvent& r : *results) {
    EXPECT_EQ(r.tournament_id, "cup");
    seen.push_back(absl::StrCat(r.event.event_id, ":", GameStatusName(r.kind)));
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"t1-end:finished", "t2-end:finished",
                                            "t1-fix:finished", "t2-void:voided"}));
  results = this->results().ReadTournamentResults("cup", (*results)[1].event.position, 1);
  ASSERT_TRUE(results.ok());
  ASSERT_EQ(results->size(), 1u);
  EXPECT_EQ((*results)[0].event.event_id, "t1-fix");
  EXPECT_EQ(this->results().ReadTournamentResults("cup", 0, 0).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// ScanEvents hands `each` what ReadAll reads (position, game, sequence, type
// and payload), in the same order and within the same bounds, across games
// and batches; payloads hold bytes a COPY line must escape.
TYPED_TEST(EventStoreTest, TheWholeStoreScansAsItReads) {
  for (const char* id : {"a", "b", "c"}) {
    ASSERT_TRUE(this->store().CreateGame(CreateRequest(id)).ok());
  }
  this->AppendOk(Append("a", 0, "a-1", Events("a1", 3)));
  this->AppendOk(Append("b", 0, "b-1", Events("b1", 2)));
  this->AppendOk(Append("a", 3, "a-2", Events("a2", 1)));
  std::vector<NewEvent> odd = Events("c1", 2);
  odd[1].type = "back\\slash";  // COPY writes it with its backslash doubled
  odd[1].payload = std::string("\t\n\\x\0\xff", 6);
  this->AppendOk(Append("c", 0, "c-1", odd));
  absl::StatusOr<std::vector<StoredEvent>> read = this->store().ReadAll(0, 100);
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_EQ(read->size(), 8u);
  auto scan = [&](int64_t after, int64_t up_to) {
    std::vector<StoredEvent> out;
    const absl::Status status =
        this->store().ScanEvents(after, up_to, [&](const StoredEvent& e) {
          out.push_back(e);
          return absl::OkStatus();
        });
    EXPECT_TRUE(status.ok()) << status;
    return out;
  };
  auto expect_same = [](const std::vector<StoredEvent>& scanned,
                        absl::Span<const StoredEvent> expected) {
    ASSERT_EQ(scanned.size(), expected.size());
    for (size_t i = 0; i < scanned.size(); ++i) {
      SCOPED_TRACE(expected[i].event_id);
      EXPECT_EQ(scanned[i].position, expected[i].position);
      EXPECT_EQ(scanned[i].game_id, expected[i].game_id);
      EXPECT_EQ(scanned[i].sequence, expected[i].sequence);
      EXPECT_EQ(scanned[i].type, expected[i].type);
      EXPECT_EQ(scanned[i].payload, expected[i].payload);
    }
  };
  expect_same(scan(0, 0), *read);
  expect_same(scan((*read)[1].position, (*read)[5].position),
              absl::MakeConstSpan(*read).subspan(2, 4));
  EXPECT_TRUE(scan((*read)[7].position, 0).empty());

  int calls = 0;
  const absl::Status stopped = this->store().ScanEvents(0, 0, [&](const StoredEvent&) {
    ++calls;
    return absl::CancelledError("enough");
  });
  EXPECT_EQ(stopped, absl::CancelledError("enough"));
  EXPECT_EQ(calls, 1);
}

// ScanLeagueResults hands `each` what ReadResults reads, in the same order
// and within the same bounds, and no other league's results. For PostgreSQL
// the scan reads the copies the results carry (migration 0018) and
// ReadResults reads the events themselves, so this also checks the copies.
// Payloads hold bytes a COPY line must escape (tab, newline, backslash, NUL).
TYPED_TEST(EventStoreTest, ALeaguesScannedResultsAreTheResultsItReads) {
  std::vector<CreateGameRequest> requests;
  for (const char* id : {"a", "b", "c", "d"}) {
    CreateGameRequest request = CreateRequest(id);
    request.game.league_id = std::string(id) == "d" ? "south" : "north";
    requests.push_back(request);
  }
  for (const auto& game : this->store().CreateGames(requests)) ASSERT_TRUE(game.ok()) << game.status();
  auto result = [](const std::string& id, const char* type) {
    NewEvent event = StatusEvent(id, type);
    event.payload += std::string("\t\n\\\0\xff\x01", 6);
    return event;
  };
  for (const char* id : {"a", "b", "c", "d"}) {
    std::vector<NewEvent> events = Events(id, 2);
    events.push_back(result(absl::StrCat(id, "-end"), kGameFinishedType));
    this->AppendOk(Append(id, 0, absl::StrCat("play-", id), events));
  }
  this->AppendOk(Append("a", 3, "fix-a", {result("a-fix", kGameFinishedType)}));
  this->AppendOk(Append("b", 3, "void-b", {result("b-void", kGameVoidedType)}));

  absl::StatusOr<std::vector<ResultEvent>> read = this->results().ReadResults(0, 0, "north", 100);
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_EQ(read->size(), 5u);  // a, b and c finished, a corrected, b voided
  auto scan = [&](int64_t after, int64_t up_to) {
    std::vector<ResultEvent> out;
    const absl::Status status =
        this->results().ScanLeagueResults("north", after, up_to, [&](const ResultEvent& r) {
          out.push_back(r);
          return absl::OkStatus();
        });
    EXPECT_TRUE(status.ok()) << status;
    return out;
  };
  auto expect_same = [](const std::vector<ResultEvent>& scanned,
                        absl::Span<const ResultEvent> expected) {
    ASSERT_EQ(scanned.size(), expected.size());
    for (size_t i = 0; i < scanned.size(); ++i) {
      SCOPED_TRACE(expected[i].event.event_id);
      EXPECT_EQ(scanned[i].event.position, expected[i].event.position);
      EXPECT_EQ(scanned[i].event.game_id, expected[i].event.game_id);
      EXPECT_EQ(scanned[i].event.sequence, expected[i].event.sequence);
      EXPECT_EQ(scanned[i].event.payload, expected[i].event.payload);
      EXPECT_EQ(scanned[i].event.recorded_at, expected[i].event.recorded_at);
      EXPECT_EQ(scanned[i].kind, expected[i].kind);
      EXPECT_EQ(scanned[i].league_id, "north");
    }
  };
  expect_same(scan(0, 0), *read);
  // After the first result, up to the fourth.
  expect_same(scan((*read)[0].event.position, (*read)[3].event.position),
              absl::MakeConstSpan(*read).subspan(1, 3));
  EXPECT_TRUE(scan((*read)[4].event.position, 0).empty());

  // The first error of `each` ends the scan and is what it returns.
  int calls = 0;
  const absl::Status stopped =
      this->results().ScanLeagueResults("north", 0, 0, [&](const ResultEvent&) {
        ++calls;
        return absl::CancelledError("enough");
      });
  EXPECT_EQ(stopped, absl::CancelledError("enough"));
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace arbiter::store
