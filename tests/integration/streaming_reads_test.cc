// Reads of long games through the RPCs, which stream their events
// (services/server/game_stream.h): answers equal to the whole-game reader's,
// a changed event deep in a game found at its number, and reads during
// appends that answer a whole prefix of the game.
#include <atomic>
#include <set>
#include <thread>

#include <pqxx/pqxx>

#include "absl/strings/str_cat.h"
#include "services/games/game_events.h"
#include "services/games/game_loader.h"
#include "tests/integration/server_fixture.h"

namespace arbiter::server::testing {
namespace {

const engine::RulesetRegistry& TheRegistry() {
  static const engine::RulesetRegistry* const registry =
      new engine::RulesetRegistry(*engine::RulesetRegistry::WithBuiltins());
  return *registry;
}

// A legal game followed by its own actions again, up to `actions` in all:
// kept as evidence after the violation (the first action after the end).
log::GameLog WithEvidence(log::GameLog log, std::size_t actions) {
  const std::size_t played = log.actions.size();
  for (std::size_t i = played; i < actions; ++i) log.actions.push_back(log.actions[i % played]);
  return log;
}

class StreamingReadsTest : public ServerTest {
 protected:
  v1::Adjudication Adjudicate(const std::string& game_id) {
    v1::AdjudicateGameRequest request;
    request.set_name(absl::StrCat("games/", game_id));
    v1::Adjudication out;
    grpc::Status status = stub_->AdjudicateGame(As(admin_).get(), request, &out);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return out;
  }
  v1::GameState StateAt(const std::string& game_id, int64_t event) {
    v1::GetGameStateRequest request;
    request.set_name(absl::StrCat("games/", game_id));
    request.set_event(event);
    v1::GameState out;
    grpc::Status status = stub_->GetGameState(As(admin_).get(), request, &out);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return out;
  }
  // The same answers from the whole game loaded in memory.
  v1::GameState LoadedStateAt(const std::string& game_id, int64_t event) {
    auto never = [] { return absl::OkStatus(); };
    absl::StatusOr<games::LoadedGame> game = games::LoadGame(*events_, game_id, never);
    EXPECT_TRUE(game.ok()) << game.status();
    absl::StatusOr<replay::Referee> referee = games::Judge(*game, TheRegistry(), event, never);
    EXPECT_TRUE(referee.ok()) << referee.status();
    return games::ToGameState(game_id, *referee, event == 0 ? game->record.last_sequence : event,
                              engine::Viewer::Everyone());
  }
  v1::Adjudication LoadedAdjudication(const std::string& game_id) {
    auto never = [] { return absl::OkStatus(); };
    absl::StatusOr<games::LoadedGame> game = games::LoadGame(*events_, game_id, never);
    EXPECT_TRUE(game.ok()) << game.status();
    absl::StatusOr<replay::Referee> referee = games::Judge(*game, TheRegistry(), 0, never);
    EXPECT_TRUE(referee.ok()) << referee.status();
    v1::Adjudication out = games::ToAdjudication(game_id, *referee, game->record.last_sequence);
    out.set_last_event_hash(game->stored.back().hash);
    return out;
  }
};

TEST_F(StreamingReadsTest, ALongGameIsJudgedVerifiedAndSteppedThroughAsWhenLoadedWhole) {
  const log::GameLog log = WithEvidence(Simulated(31), 3'000);
  v1::SubmitGameResponse submitted;
  ASSERT_TRUE(Submit(admin_, log::FormatLog(log), "long", &submitted).ok());
  const int64_t last = submitted.game().last_event();
  ASSERT_EQ(last, 3'002);  // the creation, 3,000 actions and the result

  v1::Adjudication adjudication = Adjudicate("long");
  adjudication.clear_transparency_note();
  // No ruling: the referee's result is the official one.
  EXPECT_EQ(adjudication.official().source(), v1::RESULT_SOURCE_REFEREE);
  adjudication.clear_official();
  EXPECT_EQ(adjudication.SerializeAsString(), LoadedAdjudication("long").SerializeAsString())
      << adjudication.DebugString();
  EXPECT_EQ(adjudication.verdict(), v1::VERDICT_ILLEGAL);
  EXPECT_EQ(adjudication.last_event(), last);

  const v1::VerifyGameResponse report = Verify("long");
  EXPECT_TRUE(report.intact()) << report.problem();
  EXPECT_EQ(report.events(), last);
  EXPECT_EQ(report.last_event_hash(), submitted.game().last_event_hash());
  EXPECT_EQ(report.verdict(), v1::VERDICT_ILLEGAL);

  for (int64_t event : {int64_t{1}, int64_t{20}, int64_t{999}, int64_t{1'000}, int64_t{1'001},
                        int64_t{2'500}, int64_t{0}}) {
    EXPECT_EQ(StateAt("long", event).SerializeAsString(),
              LoadedStateAt("long", event).SerializeAsString())
        << "event " << event;
  }
}

TEST_F(StreamingReadsTest, VerifyGameFindsAnEventChangedDeepInALongGameAtItsNumber) {
  const log::GameLog log = WithEvidence(Simulated(32), 2'600);
  v1::SubmitGameResponse submitted;
  ASSERT_TRUE(Submit(admin_, log::FormatLog(log), "deep", &submitted).ok());
  {
    pqxx::connection c(conninfo_);
    pqxx::work tx(c);
    tx.exec("ALTER TABLE events DISABLE TRIGGER USER");
    tx.exec("UPDATE events SET payload = payload || '\\x00'::bytea "
            "WHERE game_id = 'deep' AND sequence = 2345");
    tx.exec("ALTER TABLE events ENABLE TRIGGER USER");
    tx.commit();
  }
  const v1::VerifyGameResponse report = Verify("deep");
  EXPECT_FALSE(report.intact());
  EXPECT_EQ(report.first_bad_event(), 2345);
  EXPECT_EQ(report.problem(), "event 2345 does not match its hash: its stored bytes were changed");
  EXPECT_EQ(report.events(), submitted.game().last_event());
}

TEST_F(StreamingReadsTest, ReadsDuringAppendsAnswerAWholePrefixOfTheGame) {
  // An active game of 1,501 events stored directly, then 40 appends of 100
  // events while clients verify and adjudicate it.
  const log::GameLog log = WithEvidence(Simulated(33), 1'500);
  store::CreateGameRequest create;
  create.request_id = "create-growing";
  create.game.game_id = "growing";
  create.game.game = log.header.game();
  create.game.ruleset_id = log.header.ruleset_id();
  create.game.ruleset_hash = log.header.ruleset_hash();
  create.game.seed = log.header.seed();
  for (const v1::Player& p : log.header.players()) create.game.players.push_back(p.id());
  create.game.created_by = "admin";
  v1::GameCreated created;
  *created.mutable_header() = log.header;
  create.events.push_back(*games::EncodeCreated("growing", created));
  for (std::size_t i = 0; i < log.actions.size(); ++i) {
    create.events.push_back(*games::EncodeAction("growing", log::LineOfAction(i), log.actions[i]));
  }
  ASSERT_TRUE(events_->CreateGame(create).ok());
  constexpr int64_t kStart = 1'501;
  constexpr int kAppends = 40;
  constexpr int kPerAppend = 100;

  std::atomic<bool> done{false};
  std::thread writer([&] {
    for (int a = 0; a < kAppends; ++a) {
      store::AppendRequest append;
      append.game_id = "growing";
      append.expected_sequence = kStart + int64_t{a} * kPerAppend;
      append.request_id = absl::StrCat("grow-", a);
      append.recorded_by = "admin";
      for (int i = 1; i <= kPerAppend; ++i) {
        append.events.push_back(
            *games::EncodeAction("growing", append.expected_sequence + i, log.actions[0]));
      }
      absl::StatusOr<store::AppendResult> result = events_->Append(append);
      EXPECT_TRUE(result.ok()) << result.status();
    }
    done = true;
  });
  std::vector<std::pair<int64_t, std::string>> seen;  // (last event, its hash)
  std::set<int64_t> distinct;
  while (!done) {
    const v1::VerifyGameResponse report = Verify("growing");
    EXPECT_TRUE(report.intact()) << report.problem();
    seen.emplace_back(report.events(), report.last_event_hash());
    const v1::Adjudication adjudication = Adjudicate("growing");
    seen.emplace_back(adjudication.last_event(), adjudication.last_event_hash());
  }
  writer.join();
  for (const auto& [last, hash] : seen) {
    EXPECT_EQ((last - kStart) % kPerAppend, 0) << last << " is not the end of an append";
    absl::StatusOr<std::vector<store::StoredEvent>> event =
        events_->ReadGameEvents("growing", last - 1, 1);
    ASSERT_TRUE(event.ok() && event->size() == 1);
    EXPECT_EQ(event->front().hash, hash) << "event " << last;
    distinct.insert(last);
  }
  EXPECT_GT(distinct.size(), 1u) << "no read came between two appends";
}

}  // namespace
}  // namespace arbiter::server::testing
