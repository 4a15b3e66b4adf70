// The streaming reader (services/games/game_stream.h) against the whole-game
// reader (game_loader.h LoadGame + Judge) on the in-memory store: the same
// judgements and positions whatever the batch size, a changed event found at
// its number, and a read that covers exactly the prefix it opened.
#include "services/games/game_stream.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "services/log/log_file.h"
#include "services/replay/simulate.h"
#include "services/games/game_events.h"
#include "services/games/game_loader.h"
#include "services/games/game_views.h"
#include "services/store/memory_event_store.h"

namespace arbiter::games {
namespace {

constexpr char kNonce[] = "00112233445566778899aabbccddeeff";

const engine::RulesetRegistry& Registry() {
  static const engine::RulesetRegistry* const registry =
      new engine::RulesetRegistry(*engine::RulesetRegistry::WithBuiltins());
  return *registry;
}

games::CancelCheck Never() {
  return [] { return absl::OkStatus(); };
}

log::GameLog Simulated(const std::string& game, uint64_t seed) {
  absl::StatusOr<log::GameLog> log =
      replay::SimulateGame(replay::SimulationRequest{game, 3, seed, "", {}}, Registry());
  EXPECT_TRUE(log.ok()) << log.status();
  return *std::move(log);
}

// How a test game is stored.
struct Shape {
  bool committed = false;    // event 1 holds a commitment
  bool revealed = true;      // (committed) the seed is revealed after the last action
  int out_of_turn = -1;      // this action is given to another player
  int evidence = 0;          // actions repeated after the log's end
};

class GameStreamTest : public ::testing::Test {
 protected:
  // Stores `log` as game `id` shaped by `shape`, in one CreateGame.
  void Store(const std::string& id, log::GameLog log, const Shape& shape) {
    if (shape.out_of_turn >= 0) {
      v1::Action& action = log.actions.at(static_cast<std::size_t>(shape.out_of_turn));
      for (const v1::Player& p : log.header.players()) {
        if (p.id() != action.player()) {
          action.set_player(p.id());
          break;
        }
      }
    }
    const std::size_t played = log.actions.size();
    for (int i = 0; i < shape.evidence; ++i) log.actions.push_back(log.actions[i % played]);
    store::CreateGameRequest request;
    request.request_id = absl::StrCat("create-", id);
    store::GameRecord& record = request.game;
    record.game_id = id;
    record.game = log.header.game();
    record.ruleset_id = log.header.ruleset_id();
    record.ruleset_hash = log.header.ruleset_hash();
    for (const v1::Player& p : log.header.players()) record.players.push_back(p.id());
    record.created_by = "tester";
    v1::GameCreated created;
    *created.mutable_header() = log.header;
    if (shape.committed) {
      created.mutable_header()->clear_seed();
      created.set_seed_commitment(*games::SeedCommitment(log.header.seed(), kNonce));
      record.seed_commitment = created.seed_commitment();
    } else {
      record.seed = log.header.seed();
    }
    request.events.push_back(*games::EncodeCreated(id, created));
    int64_t number = 1;
    for (const v1::Action& action : log.actions) {
      request.events.push_back(*games::EncodeAction(id, ++number, action));
    }
    if (shape.committed && shape.revealed) {
      v1::SeedRevealed revealed;
      revealed.set_seed(log.header.seed());
      revealed.set_nonce(kNonce);
      request.events.push_back(*games::EncodeSeedRevealed(id, ++number, revealed));
    }
    ASSERT_TRUE(store_.CreateGame(request).ok());
  }

  // Appends `count` copies of an action to game `id`.
  void AppendActions(const std::string& id, const v1::Action& action, int count) {
    const int64_t at = store_.GetGame(id)->last_sequence;
    store::AppendRequest append;
    append.game_id = id;
    append.expected_sequence = at;
    append.request_id = absl::StrCat("append-", id, "-", at);
    append.recorded_by = "tester";
    for (int i = 1; i <= count; ++i) append.events.push_back(*games::EncodeAction(id, at + i, action));
    ASSERT_TRUE(store_.Append(append).ok());
  }

  // The position and judgement through `until` as the whole-game reader
  // gives them, and as the streaming reader does with `batch`.
  std::string Whole(const std::string& id, int64_t until) {
    absl::StatusOr<games::LoadedGame> game = games::LoadGame(store_, id, Never());
    if (!game.ok()) return game.status().ToString();
    absl::StatusOr<replay::Referee> referee = games::Judge(*game, Registry(), until, Never());
    if (!referee.ok()) return referee.status().ToString();
    const int64_t last = game->record.last_sequence;
    return Describe(id, *referee, until == 0 ? last : until, last);
  }
  std::string Streamed(const std::string& id, int64_t until, int batch) {
    absl::StatusOr<games::OpenedGame> game = games::OpenGame(store_, id, batch);
    if (!game.ok()) return game.status().ToString();
    absl::StatusOr<replay::Referee> referee = games::JudgeStored(store_, Registry(), *game, until, Never());
    if (!referee.ok()) return referee.status().ToString();
    const int64_t last = game->record.last_sequence;
    return Describe(id, *referee, until == 0 ? last : until, last);
  }
  static std::string Describe(const std::string& id, const replay::Referee& referee,
                              int64_t event, int64_t last) {
    return absl::StrCat(games::ToAdjudication(id, referee, last).DebugString(), "\n",
                        games::ToGameState(id, referee, event, engine::Viewer::Everyone()).DebugString());
  }

  store::MemoryEventStore store_;
};

TEST_F(GameStreamTest, JudgesEveryPositionAsTheWholeGameReaderWhateverTheBatch) {
  struct Case {
    const char* game;
    uint64_t seed;
    Shape shape;
  };
  const Case cases[] = {
      {"atlantis", 5, {}},
      {"atlantis", 6, {.out_of_turn = 12}},
      {"atlantis", 7, {.committed = true}},
      {"atlantis", 8, {.committed = true, .out_of_turn = 3, .evidence = 40}},
      {"atlantis", 9, {.evidence = 30}},
      {"atlantica", 5, {}},
      {"atlantis-rising", 5, {.committed = true}},
  };
  int n = 0;
  for (const Case& c : cases) {
    const std::string id = absl::StrCat("g", ++n);
    Store(id, Simulated(c.game, c.seed), c.shape);
    const int64_t last = store_.GetGame(id)->last_sequence;
    ASSERT_GT(last, 20);
    for (int64_t until : {int64_t{0}, int64_t{1}, int64_t{2}, int64_t{13}, last / 2, last - 1, last}) {
      const std::string expected = Whole(id, until);
      ASSERT_NE(expected.find("verdict"), std::string::npos) << expected;
      for (int batch : {1, 2, 7, games::kStreamBatch}) {
        EXPECT_EQ(Streamed(id, until, batch), expected)
            << c.game << " seed " << c.seed << " until " << until << " batch " << batch;
      }
    }
  }
}

TEST_F(GameStreamTest, AHiddenSeedAndAGameWithoutEventsAreRefusedAsBefore) {
  log::GameLog log = Simulated("atlantis", 11);
  Store("hidden", log, {.committed = true, .revealed = false});
  absl::StatusOr<games::OpenedGame> hidden = games::OpenGame(store_, "hidden", 7);
  ASSERT_TRUE(hidden.ok());
  absl::Status refused = games::JudgeStored(store_, Registry(), *hidden, 0, Never()).status();
  EXPECT_EQ(refused.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(refused.ToString(), Whole("hidden", 0));
  absl::StatusOr<v1::VerifyGameResponse> report =
      games::VerifyOpenedGame(store_, store_, Registry(), *hidden, Never());
  ASSERT_TRUE(report.ok());
  EXPECT_TRUE(report->intact());
  EXPECT_EQ(report->verdict(), v1::VERDICT_UNSPECIFIED);  // nothing to replay yet
  // A game whose creation was interrupted: a row without events.
  store::CreateGameRequest empty;
  empty.request_id = "create-empty";
  empty.game.game_id = "empty";
  empty.game.game = "atlantis";
  empty.game.ruleset_id = log.header.ruleset_id();
  empty.game.ruleset_hash = log.header.ruleset_hash();
  empty.game.seed = 1;
  empty.game.players = {"p1", "p2", "p3"};
  empty.game.created_by = "tester";
  ASSERT_TRUE(store_.CreateGame(empty).ok());
  absl::StatusOr<games::OpenedGame> opened = games::OpenGame(store_, "empty");
  ASSERT_TRUE(opened.ok());
  EXPECT_EQ(games::JudgeStored(store_, Registry(), *opened, 0, Never()).status().ToString(),
            Whole("empty", 0));
  EXPECT_EQ(games::OpenGame(store_, "nobody").status().code(), absl::StatusCode::kNotFound);
}

TEST_F(GameStreamTest, VerifyFindsAnEventChangedDeepInALongGameAtItsNumber) {
  Store("long", Simulated("atlantis", 12), {.evidence = 2600});
  const int64_t last = store_.GetGame("long")->last_sequence;
  ASSERT_GT(last, 2600);
  for (int batch : {7, games::kStreamBatch}) {
    absl::StatusOr<games::OpenedGame> game = games::OpenGame(store_, "long", batch);
    ASSERT_TRUE(game.ok());
    absl::StatusOr<v1::VerifyGameResponse> report =
        games::VerifyOpenedGame(store_, store_, Registry(), *game, Never());
    ASSERT_TRUE(report.ok());
    EXPECT_TRUE(report->intact()) << report->problem();
    EXPECT_EQ(report->events(), last);
    EXPECT_EQ(report->last_event_hash(), store_.GetGame("long")->last_hash);
    EXPECT_EQ(report->verdict(), v1::VERDICT_ILLEGAL);  // the evidence after the end
  }
  const std::string original = store_.ReadGameEvents("long", 2344, 1)->front().payload;
  ASSERT_TRUE(store_.TamperForTesting("long", 2345, original + std::string(1, '\0')).ok());
  for (int batch : {7, games::kStreamBatch}) {
    absl::StatusOr<games::OpenedGame> game = games::OpenGame(store_, "long", batch);
    ASSERT_TRUE(game.ok());
    absl::StatusOr<v1::VerifyGameResponse> report =
        games::VerifyOpenedGame(store_, store_, Registry(), *game, Never());
    ASSERT_TRUE(report.ok());
    EXPECT_FALSE(report->intact());
    EXPECT_EQ(report->first_bad_event(), 2345) << "batch " << batch;
    EXPECT_EQ(report->events(), last);
    EXPECT_EQ(report->problem(),
              "event 2345 does not match its hash: its stored bytes were changed");
  }
}

TEST_F(GameStreamTest, AReadCoversThePrefixItOpenedWhileTheGameGrows) {
  const log::GameLog log = Simulated("atlantis", 13);
  Store("growing", log, {.evidence = 100});
  for (int batch : {7, games::kStreamBatch}) {
    const store::GameRecord before = *store_.GetGame("growing");
    absl::StatusOr<games::OpenedGame> game = games::OpenGame(store_, "growing", batch);
    ASSERT_TRUE(game.ok());
    const std::string judged_before = Streamed("growing", 0, batch);
    // Appended after the read opened, before its later batches are read.
    AppendActions("growing", log.actions[0], 25);
    absl::StatusOr<v1::VerifyGameResponse> report =
        games::VerifyOpenedGame(store_, store_, Registry(), *game, Never());
    ASSERT_TRUE(report.ok());
    EXPECT_TRUE(report->intact()) << report->problem();
    EXPECT_EQ(report->events(), before.last_sequence);
    EXPECT_EQ(report->last_event_hash(), before.last_hash);
    absl::StatusOr<replay::Referee> referee = games::JudgeStored(store_, Registry(), *game, 0, Never());
    ASSERT_TRUE(referee.ok());
    EXPECT_EQ(Describe("growing", *referee, before.last_sequence, game->record.last_sequence),
              judged_before);
  }
}

}  // namespace
}  // namespace arbiter::games
