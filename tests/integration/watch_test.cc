// WatchGame end to end on a real server over a private PostgreSQL: each
// seat's stream while the game is played, resuming after a lost stream,
// many watchers of one game, a watcher that stops reading, the bound on
// watchers, and bad requests.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/match.h"
#include "services/access/token_format.h"
#include "tests/integration/server_fixture.h"
#include "tests/integration/watcher.h"

namespace arbiter::server::testing {
namespace {

class WatchTest : public ServerTest {
 protected:
  std::string PlayerToken(const std::string& player, const std::string& game) {
    absl::StatusOr<access::NewToken> token = access::GenerateToken();
    EXPECT_TRUE(token.ok());
    token->record.role = store::Role::kPlayer;
    token->record.principal = player;
    token->record.games = {game};
    token->record.created_by = "test";
    EXPECT_TRUE(tokens_->Insert(token->record).ok());
    return token->token;
  }

  // Appends the log's actions one at a time, each by its own seat's token
  // (the admin's when `token_of` is empty); the game's last event (once it
  // is over, the "game_finished" event after the last action).
  int64_t PlayAll(const log::GameLog& log, const std::string& game, int64_t last,
                  std::size_t from_action = 0, std::size_t until_action = SIZE_MAX,
                  const std::map<std::string, std::string>& token_of = {}) {
    v1::AppendActionsResponse response;
    for (std::size_t i = from_action; i < log.actions.size() && i < until_action; ++i) {
      const v1::Action& action = log.actions[i];
      const std::string token = token_of.empty() ? admin_ : token_of.at(action.player());
      grpc::Status status =
          Append(token, game, last, {action}, absl::StrCat(game, "-move-", i), &response);
      EXPECT_TRUE(status.ok()) << i << ": " << status.error_message();
      if (!status.ok()) return last;
      last = response.last_event();
    }
    if (response.status() == v1::GAME_STATUS_FINISHED) return Get(game).last_event();
    return last;
  }

  // Waits (at most 10 s) until the server keeps `watchers` watchers.
  bool AwaitWatchers(ArbiterServer& server, int watchers) {
    for (int i = 0; i < 1000; ++i) {
      if (server.FeedStats().watchers == watchers) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
  }
};

// The events 1..n, each once and in order.
void ExpectEventsInOrder(const std::vector<v1::GameUpdate>& updates, int64_t first, int64_t last) {
  ASSERT_EQ(static_cast<int64_t>(updates.size()), last - first + 1);
  for (std::size_t i = 0; i < updates.size(); ++i) {
    EXPECT_EQ(updates[i].event().event(), first + static_cast<int64_t>(i));
  }
}

struct WatchedGame {
  const char* type;
  int players;
};

class EverySeatWatchesTest : public WatchTest,
                             public ::testing::WithParamInterface<WatchedGame> {};

// Every seat and the admin watch from the start while the seats play; each
// stream carries every event once, in order, ends with the one that
// finished the game, names who acts next (the player of the next action is
// among them), gives the seed to the admin only, and says each action in
// the same words to every seat (State::Label before it: no hand in them).
TEST_P(EverySeatWatchesTest, EachSeatSeesEveryEventOnceWithWhoActsNextAndNeverTheSeed) {
  const log::GameLog log = Simulated(21, GetParam().players, GetParam().type);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "live", &game).ok());
  std::map<std::string, std::string> token_of;
  std::vector<std::unique_ptr<Watcher>> seats;
  for (const v1::Player& p : log.header.players()) {
    token_of[p.id()] = PlayerToken(p.id(), "live");
    seats.push_back(std::make_unique<Watcher>(*stub_, token_of[p.id()], "live", 0));
  }
  Watcher everyone(*stub_, admin_, "live", 0);
  const int64_t last = PlayAll(log, "live", 1, 0, SIZE_MAX, token_of);
  ASSERT_EQ(Get("live").status(), v1::GAME_STATUS_FINISHED);

  const Watched all = everyone.Join();
  ASSERT_TRUE(all.status.ok()) << all.status.error_message();
  ExpectEventsInOrder(all.updates, 1, last);
  EXPECT_NE(all.updates[0].event().game_created().header().seed(), 0u);
  const std::vector<std::string> words = ActionWords(log);
  std::size_t action = 0;
  for (const v1::GameUpdate& update : all.updates) {
    if (!update.event().has_action()) {
      EXPECT_FALSE(update.event().text().empty()) << update.event().type();
      continue;
    }
    ASSERT_LT(action, words.size());
    EXPECT_EQ(update.event().text(), words[action++]) << "event " << update.event().event();
  }
  EXPECT_EQ(action, log.actions.size());
  for (std::unique_ptr<Watcher>& seat : seats) {
    const Watched mine = seat->Join();
    ASSERT_TRUE(mine.status.ok()) << mine.status.error_message();
    ExpectEventsInOrder(mine.updates, 1, last);
    EXPECT_EQ(mine.updates[0].event().game_created().header().seed(), 0u);
    EXPECT_TRUE(mine.updates[0].event().payload().empty()) << "the payload encodes the seed";
    EXPECT_TRUE(mine.updates.back().game_over());
    for (std::size_t i = 0; i + 1 < mine.updates.size(); ++i) {
      EXPECT_FALSE(mine.updates[i].game_over()) << "event " << i + 1;
      EXPECT_EQ(mine.updates[i].event().hash(), all.updates[i].event().hash());
      EXPECT_EQ(mine.updates[i].event().text(), all.updates[i].event().text());
      const v1::Event& next = mine.updates[i + 1].event();
      if (!next.has_action()) continue;
      const auto& to_act = mine.updates[i].players_to_act();
      EXPECT_NE(std::find(to_act.begin(), to_act.end(), next.action().player()), to_act.end())
          << next.action().player() << " acts after event " << i + 1;
    }
  }
  EXPECT_TRUE(AwaitWatchers(*server_, 0));
  EXPECT_EQ(server_->FeedStats().feeds, 0);
}

INSTANTIATE_TEST_SUITE_P(EveryGame, EverySeatWatchesTest,
                         ::testing::Values(WatchedGame{"atlantis", 3}, WatchedGame{"atlantica", 2},
                                           WatchedGame{"atlantis-rising", 3}),
                         [](const ::testing::TestParamInfo<WatchedGame>& param_info) {
                           std::string name = absl::StrCat(param_info.param.type, "_",
                                                           param_info.param.players);
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

// A stream lost mid-game and asked for again from the last event received
// gives every later event once: nothing missed, nothing repeated.
TEST_F(WatchTest, AStreamLostMidGameResumesFromItsLastEventWithNothingMissedOrRepeated) {
  const log::GameLog log = Simulated(22, 3);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "g1", &game).ok());
  const std::string ann = PlayerToken(log.header.players(0).id(), "g1");
  Watcher first(*stub_, ann, "g1", 0, /*stop_after=*/8);
  int64_t last = PlayAll(log, "g1", 1, 0, 20);
  const Watched before = first.Join();
  EXPECT_EQ(before.status.error_code(), grpc::StatusCode::CANCELLED);
  ASSERT_EQ(before.updates.size(), 8u);
  last = PlayAll(log, "g1", last, 20, 30);
  Watcher again(*stub_, ann, "g1", before.updates.back().event().event());
  last = PlayAll(log, "g1", last, 30);
  const Watched after = again.Join();
  ASSERT_TRUE(after.status.ok()) << after.status.error_message();
  ExpectEventsInOrder(after.updates, 9, last);
  EXPECT_TRUE(after.updates.back().game_over());
}

// Two hundred watchers of one game each receive every event, from one feed.
TEST_F(WatchTest, TwoHundredWatchersOfOneGameEachReceiveEveryEvent) {
  const log::GameLog log = Simulated(23, 4);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "g1", &game).ok());
  std::vector<std::unique_ptr<Watcher>> watchers;
  for (int i = 0; i < 200; ++i) {
    watchers.push_back(std::make_unique<Watcher>(*stub_, admin_, "g1", 0));
  }
  ASSERT_TRUE(AwaitWatchers(*server_, 200));
  EXPECT_EQ(server_->FeedStats().feeds, 1);
  const int64_t last = PlayAll(log, "g1", 1);
  for (std::unique_ptr<Watcher>& watcher : watchers) {
    const Watched watched = watcher->Join();
    ASSERT_TRUE(watched.status.ok()) << watched.status.error_message();
    ExpectEventsInOrder(watched.updates, 1, last);
  }
  EXPECT_TRUE(AwaitWatchers(*server_, 0));
  EXPECT_EQ(server_->FeedStats().feeds, 0);
  EXPECT_EQ(server_->FeedStats().updates, 0);
}

// A client that stops reading falls behind; past the lag allowed it is cut
// off, and the server keeps nothing of it.
TEST_F(WatchTest, AWatcherThatStopsReadingIsCutOffAndNothingOfItIsKept) {
  ServerOptions options;
  options.listen = "127.0.0.1:0";
  options.watch.max_lag = 4;
  std::unique_ptr<ArbiterServer> server = StartServer(options);
  // A client that reads nothing, with the smallest window HTTP/2 allows.
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_HTTP2_BDP_PROBE, 0);
  args.SetInt(GRPC_ARG_HTTP2_STREAM_LOOKAHEAD_BYTES, 1);
  auto stub = v1::ArbiterService::NewStub(grpc::CreateCustomChannel(
      absl::StrCat("127.0.0.1:", server->port()), grpc::InsecureChannelCredentials(), args));
  const log::GameLog log = Simulated(24, 4);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "g1", &game).ok());
  auto context = LongCallAs(admin_);
  v1::WatchGameRequest request;
  request.set_game("games/g1");
  std::unique_ptr<grpc::ClientReader<v1::GameUpdate>> reader = stub->WatchGame(context.get(), request);
  ASSERT_TRUE(AwaitWatchers(*server, 1));
  PlayAll(log, "g1", 1);
  EXPECT_TRUE(AwaitWatchers(*server, 0)) << "the watcher that reads nothing is still kept";
  EXPECT_EQ(server->FeedStats().feeds, 0);
  v1::GameUpdate update;
  int read = 0;
  while (reader->Read(&update)) ++read;
  const grpc::Status status = reader->Finish();
  EXPECT_FALSE(status.ok());
  EXPECT_LT(read, static_cast<int>(log.actions.size()));
}

// The server keeps at most --max-watchers streams; one more is refused
// until one ends.
TEST_F(WatchTest, AServerRefusesAWatcherBeyondItsBound) {
  ServerOptions options;
  options.listen = "127.0.0.1:0";
  options.watch.max_watchers = 2;
  std::unique_ptr<ArbiterServer> server = StartServer(options);
  auto stub = StubFor(*server);
  const log::GameLog log = Simulated(25, 3);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "g1", &game).ok());
  auto one = std::make_unique<Watcher>(*stub, admin_, "g1", 0);
  Watcher two(*stub, admin_, "g1", 0);
  ASSERT_TRUE(AwaitWatchers(*server, 2));
  Watcher three(*stub, admin_, "g1", 0);
  const Watched refused = three.Join();
  EXPECT_EQ(refused.status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_TRUE(absl::StrContains(refused.status.error_message(), "--max-watchers"))
      << refused.status.error_message();
  one.reset();  // cancelled
  ASSERT_TRUE(AwaitWatchers(*server, 1));
  Watcher four(*stub, admin_, "g1", 0);
  EXPECT_TRUE(AwaitWatchers(*server, 2));
}

// A finished game is watched from any event to its end, then the stream
// ends; from the last event there is nothing to send and it ends at once.
TEST_F(WatchTest, AFinishedGameIsSentToItsEndAndAStreamFromItsEndEndsAtOnce) {
  const log::GameLog log = Simulated(26, 2);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "g1", &game).ok());
  const int64_t last = PlayAll(log, "g1", 1);
  const std::string everyone = MakeToken(store::Role::kPublic, "anyone");
  const Watched from_ten = Watcher(*stub_, everyone, "g1", 10).Join();
  ASSERT_TRUE(from_ten.status.ok()) << from_ten.status.error_message();
  ExpectEventsInOrder(from_ten.updates, 11, last);
  const Watched from_end = Watcher(*stub_, everyone, "g1", last).Join();
  EXPECT_TRUE(from_end.status.ok()) << from_end.status.error_message();
  EXPECT_TRUE(from_end.updates.empty());
}

// Bad requests: each refused with the field or the rule named, and nothing
// kept.
TEST_F(WatchTest, BadWatchRequestsAreRefusedWithTheFieldNamed) {
  const log::GameLog log = Simulated(27, 3);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "g1", &game).ok());
  ASSERT_TRUE(Create(admin_, Simulated(28, 3), "g2", &game).ok());
  const std::string ann = PlayerToken(log.header.players(0).id(), "g1");
  const std::string everyone = MakeToken(store::Role::kPublic, "anyone");
  struct Case {
    std::string token, game;
    int64_t from;
    grpc::StatusCode code;
    std::string says;
  };
  const std::vector<Case> cases = {
      {admin_, "nope", 0, grpc::StatusCode::NOT_FOUND, "nope"},
      {admin_, "g1", 5, grpc::StatusCode::INVALID_ARGUMENT, "from_event 5 is past its end"},
      {admin_, "g1", -1, grpc::StatusCode::INVALID_ARGUMENT, "from_event must be 0"},
      {everyone, "g1", 0, grpc::StatusCode::PERMISSION_DENIED, "g1"},
      {ann, "g2", 0, grpc::StatusCode::PERMISSION_DENIED, "g2"},
      {"", "g1", 0, grpc::StatusCode::UNAUTHENTICATED, ""},
  };
  for (const Case& c : cases) {
    const Watched watched = Watcher(*stub_, c.token, c.game, c.from).Join();
    EXPECT_EQ(watched.status.error_code(), c.code) << c.game << " from " << c.from << ": "
                                                   << watched.status.error_message();
    EXPECT_TRUE(absl::StrContains(watched.status.error_message(), c.says))
        << watched.status.error_message();
    EXPECT_TRUE(watched.updates.empty());
  }
  v1::WatchGameRequest bad_name;
  bad_name.set_game("g1");
  auto context = As(admin_);
  auto reader = stub_->WatchGame(context.get(), bad_name);
  v1::GameUpdate update;
  EXPECT_FALSE(reader->Read(&update));
  const grpc::Status status = reader->Finish();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(BadRequestOf(status).field_violations(0).field(), "game");
  EXPECT_EQ(server_->FeedStats().watchers, 0);
}

}  // namespace
}  // namespace arbiter::server::testing
