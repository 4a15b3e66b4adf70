// AdjudicateGame answered from the judgement cache without reading the
// store, and never stale for longer than the store's follower takes to hear
// of a change (judgement_cache.h): a server sees its own writes at once and
// another server's as soon as its follower reports them.
#include <atomic>

#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "tests/integration/server_fixture.h"

namespace arbiter::server::testing {
namespace {

// Holds back what a follower reports while closed.
class Gate final : public store::StoreListener {
 public:
  void set_listener(store::StoreListener* listener) { listener_ = listener; }
  void Close() {
    absl::MutexLock lock(&mu_);
    open_ = false;
  }
  void Open() {
    absl::MutexLock lock(&mu_);
    open_ = true;
  }
  void OnStored(int64_t through, const std::vector<std::pair<std::string, int64_t>>& games,
                bool restart) override {
    absl::MutexLock lock(&mu_);
    // While closed, reports wait (the follower's thread blocks here).
    mu_.Await(absl::Condition(&open_));
    listener_->OnStored(through, games, restart);
  }
  void OnLost() override { listener_->OnLost(); }

 private:
  absl::Mutex mu_;
  bool open_ ABSL_GUARDED_BY(mu_) = true;
  store::StoreListener* listener_ = nullptr;
};

// The PostgreSQL store, counting the calls that read or write it, with a
// gate on its follower.
class CountingStore final : public store::EventStore {
 public:
  explicit CountingStore(store::EventStore& inner) : inner_(inner) {}
  int calls() const { return calls_.load(); }
  Gate& gate() { return gate_; }

  absl::StatusOr<store::GameRecord> CreateGame(const store::CreateGameRequest& r) override {
    ++calls_;
    return inner_.CreateGame(r);
  }
  absl::StatusOr<store::GameRecord> GetGame(const std::string& id) override {
    ++calls_;
    return inner_.GetGame(id);
  }
  absl::StatusOr<std::string> KeepDealerSecret(const std::string& game_id,
                                               const std::string& secret) override {
    ++calls_;
    return inner_.KeepDealerSecret(game_id, secret);
  }
  absl::StatusOr<std::optional<std::string>> DealerSecret(const std::string& game_id) override {
    ++calls_;
    return inner_.DealerSecret(game_id);
  }
  absl::StatusOr<std::optional<std::string>> FindPlayedGame(const std::string& key) override {
    ++calls_;
    return inner_.FindPlayedGame(key);
  }
  absl::StatusOr<store::ListGamesPage> ListGames(const store::ListGamesFilter& f, int size,
                                                 const std::string& token) override {
    ++calls_;
    return inner_.ListGames(f, size, token);
  }
  absl::Status SetGameStatus(const std::string& id, store::GameStatus status) override {
    ++calls_;
    return inner_.SetGameStatus(id, status);
  }
  absl::StatusOr<store::AppendResult> Append(const store::AppendRequest& r) override {
    ++calls_;
    return inner_.Append(r);
  }
  absl::StatusOr<std::vector<store::StoredEvent>> ReadGameEvents(const std::string& id,
                                                                 int64_t after,
                                                                 int limit) override {
    ++calls_;
    return inner_.ReadGameEvents(id, after, limit);
  }
  absl::StatusOr<store::GameHead> ReadGameHead(const std::string& id, int limit) override {
    ++calls_;
    return inner_.ReadGameHead(id, limit);
  }
  absl::StatusOr<std::optional<store::StoredEvent>> FindGameEvent(const std::string& id,
                                                                  const std::string& type,
                                                                  int64_t after,
                                                                  int64_t up_to) override {
    ++calls_;
    return inner_.FindGameEvent(id, type, after, up_to);
  }
  absl::StatusOr<std::vector<store::StoredEvent>> ReadAll(int64_t after, int limit) override {
    ++calls_;
    return inner_.ReadAll(after, limit);
  }
  absl::StatusOr<int64_t> HeadPosition() override {
    ++calls_;
    return inner_.HeadPosition();
  }
  absl::StatusOr<store::VerifyReport> VerifyGame(const std::string& id) override {
    ++calls_;
    return inner_.VerifyGame(id);
  }
  std::unique_ptr<store::StoreFollower> Follow(store::StoreListener& listener) override {
    gate_.set_listener(&listener);
    return inner_.Follow(gate_);
  }
  int64_t WrittenThrough() const override { return inner_.WrittenThrough(); }

 private:
  store::EventStore& inner_;
  std::atomic<int> calls_{0};
  Gate gate_;
};

class JudgementCacheTest : public ServerTest {
 protected:
  void SetUp() override {
    ServerTest::SetUp();
    // A second store object: to PostgreSQL, another server's.
    store::PostgresOptions options;
    options.conninfo = conninfo_;
    absl::StatusOr<std::unique_ptr<store::PostgresEventStore>> own =
        store::PostgresEventStore::Open(options);
    ASSERT_TRUE(own.ok()) << own.status();
    own_store_ = *std::move(own);
    counted_ = std::make_unique<CountingStore>(*own_store_);
    registry_ = std::make_unique<engine::RulesetRegistry>(
        *engine::RulesetRegistry::WithBuiltins());
    ServerOptions options_b;
    options_b.listen = "127.0.0.1:0";
    auto b = ArbiterServer::Start(options_b, *counted_, *own_store_, *tokens_, *registry_);
    ASSERT_TRUE(b.ok()) << b.status();
    server_b_ = *std::move(b);
    stub_b_ = StubFor(*server_b_);
  }
  void TearDown() override {
    counted_->gate().Open();
    if (server_b_ != nullptr) server_b_->Shutdown(std::chrono::system_clock::now());
    server_b_.reset();
    ServerTest::TearDown();
  }

  v1::Adjudication Adjudicate(v1::ArbiterService::Stub& stub, const std::string& game_id) {
    v1::AdjudicateGameRequest request;
    request.set_name("games/" + game_id);
    v1::Adjudication out;
    grpc::Status status = stub.AdjudicateGame(As(admin_).get(), request, &out);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return out;
  }

  // Adjudicates through server B until a call reads nothing from the store
  // (the follower connects in the background); false if none did.
  bool AnsweredWithoutARead(const std::string& game_id) {
    for (int i = 0; i < 200; ++i) {
      const int before = counted_->calls();
      Adjudicate(*stub_b_, game_id);
      if (counted_->calls() == before) return true;
      absl::SleepFor(absl::Milliseconds(10));
    }
    return false;
  }

  v1::ListLegalActionsResponse Moves(v1::ArbiterService::Stub& stub, const std::string& game_id,
                                     const std::string& player) {
    v1::ListLegalActionsRequest request;
    request.set_game("games/" + game_id);
    request.set_player(player);
    v1::ListLegalActionsResponse out;
    grpc::Status status = stub.ListLegalActions(As(admin_).get(), request, &out);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return out;
  }

  v1::GameState Position(v1::ArbiterService::Stub& stub, const std::string& game_id) {
    v1::GetGameStateRequest request;
    request.set_name("games/" + game_id);
    v1::GameState out;
    grpc::Status status = stub.GetGameState(As(admin_).get(), request, &out);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return out;
  }

  std::unique_ptr<store::PostgresEventStore> own_store_;
  std::unique_ptr<CountingStore> counted_;
  std::unique_ptr<engine::RulesetRegistry> registry_;
  std::unique_ptr<ArbiterServer> server_b_;
  std::unique_ptr<v1::ArbiterService::Stub> stub_b_;
};

TEST_F(JudgementCacheTest, RepeatedAdjudicationsOfAnUnchangedGameReadNothing) {
  v1::SubmitGameResponse submitted;
  ASSERT_TRUE(Submit(admin_, log::FormatLog(Simulated(31)), "cached-1", &submitted).ok());
  const v1::Adjudication first = Adjudicate(*stub_b_, "cached-1");
  EXPECT_EQ(first.verdict(), v1::VERDICT_LEGAL);
  ASSERT_TRUE(AnsweredWithoutARead("cached-1"));
  for (int i = 0; i < 10; ++i) {
    const int before = counted_->calls();
    const v1::Adjudication again = Adjudicate(*stub_b_, "cached-1");
    EXPECT_EQ(counted_->calls(), before);
    EXPECT_EQ(again.SerializeAsString(), first.SerializeAsString());
  }
}

// A current entry is checked against the caller like a read: a public token
// gets the same denial for a live game, without a store call and without
// the cached answer.
TEST_F(JudgementCacheTest, ACurrentEntryIsNoAnswerForACallerWhoMayNotReadTheGame) {
  const log::GameLog log = Simulated(34);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "live-cached", &game).ok());
  ASSERT_TRUE(AnsweredWithoutARead("live-cached"));

  const std::string reader = MakeToken(store::Role::kPublic, "league-site");
  v1::AdjudicateGameRequest request;
  request.set_name("games/live-cached");
  v1::Adjudication out;
  const int before = counted_->calls();
  grpc::Status denied = stub_b_->AdjudicateGame(As(reader).get(), request, &out);
  EXPECT_EQ(denied.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(counted_->calls(), before) << "denied by the cache's own permission check";
  EXPECT_EQ(out.last_event(), 0);
  EXPECT_TRUE(out.game().empty());
}

TEST_F(JudgementCacheTest, AServerSeesItsOwnAppendAtOnceEvenBeforeItsFollowerDoes) {
  const log::GameLog log = Simulated(32);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "own-1", &game).ok());
  ASSERT_TRUE(AnsweredWithoutARead("own-1"));
  EXPECT_EQ(Adjudicate(*stub_b_, "own-1").last_event(), 1);

  // B's follower hears nothing more; B appends an action itself.
  counted_->gate().Close();
  v1::AppendActionsRequest append;
  append.set_game("games/own-1");
  append.set_expected_last_event(1);
  append.set_request_id("own-append");
  *append.add_actions() = log.actions.at(0);
  v1::AppendActionsResponse appended;
  grpc::Status status = stub_b_->AppendActions(As(admin_).get(), append, &appended);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(appended.last_event(), 2);
  // Answered from the store, not from the entry of event 1.
  EXPECT_EQ(Adjudicate(*stub_b_, "own-1").last_event(), 2);
}

TEST_F(JudgementCacheTest, AnotherServersAppendIsSeenOnceTheFollowerReportsIt) {
  const log::GameLog log = Simulated(33);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "other-1", &game).ok());
  ASSERT_TRUE(AnsweredWithoutARead("other-1"));

  // Server A appends while B's follower is held back: B still answers as
  // of event 1, a state that was true a moment ago, and says so.
  counted_->gate().Close();
  v1::AppendActionsResponse appended;
  ASSERT_TRUE(Append(admin_, "other-1", 1, {log.actions.at(0)}, "other-append", &appended).ok());
  const v1::Adjudication held = Adjudicate(*stub_b_, "other-1");
  EXPECT_EQ(held.last_event(), 1);
  EXPECT_EQ(held.last_event_hash(), game.last_event_hash());

  // Once the follower reports the event, B answers with it.
  const absl::Time opened = absl::Now();
  counted_->gate().Open();
  int64_t seen = 0;
  while (absl::Now() - opened < absl::Seconds(5) && seen != 2) {
    seen = Adjudicate(*stub_b_, "other-1").last_event();
  }
  EXPECT_EQ(seen, 2);
  EXPECT_EQ(Adjudicate(*stub_b_, "other-1").last_event_hash(), appended.last_event_hash());
}

// The moves and the position of a live game's last event come from the
// entry its adjudication left: asked again, nothing is read, and the answer
// is the one server A, whose writer remembered the game as it appended,
// gives (B replayed the stored events instead).
TEST_F(JudgementCacheTest, MovesAndPositionsOfAnUnchangedLiveGameReadNothing) {
  const log::GameLog log = Simulated(35);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "moves-1", &game).ok());
  v1::AppendActionsResponse appended;
  ASSERT_TRUE(Append(admin_, "moves-1", 1, {log.actions.at(0), log.actions.at(1)}, "two-moves",
                     &appended).ok());
  ASSERT_TRUE(AnsweredWithoutARead("moves-1"));
  const v1::GameState position = Position(*stub_b_, "moves-1");
  ASSERT_EQ(position.event(), 3);
  ASSERT_FALSE(position.players_to_act().empty());
  const std::string to_act = position.players_to_act(0);
  const int before = counted_->calls();
  const v1::ListLegalActionsResponse moves = Moves(*stub_b_, "moves-1", to_act);
  EXPECT_EQ(Position(*stub_b_, "moves-1").SerializeAsString(), position.SerializeAsString());
  EXPECT_EQ(counted_->calls(), before);
  ASSERT_FALSE(moves.actions().empty());
  EXPECT_EQ(moves.last_event(), 3);
  EXPECT_EQ(Moves(*stub_, "moves-1", to_act).SerializeAsString(), moves.SerializeAsString());
  EXPECT_EQ(Position(*stub_, "moves-1").SerializeAsString(), position.SerializeAsString());
  EXPECT_EQ(Adjudicate(*stub_, "moves-1").SerializeAsString(),
            Adjudicate(*stub_b_, "moves-1").SerializeAsString());

  // A caller who may not see the hand gets the denial, not the moves.
  const std::string reader = MakeToken(store::Role::kPublic, "league-site");
  v1::ListLegalActionsRequest request;
  request.set_game("games/moves-1");
  request.set_player(to_act);
  v1::ListLegalActionsResponse denied;
  EXPECT_EQ(stub_b_->ListLegalActions(As(reader).get(), request, &denied).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_TRUE(denied.actions().empty());
}

// After a server's own append, the writer's position is remembered: once its
// follower has caught up, the next seat's moves are listed without reading
// the store at all.
TEST_F(JudgementCacheTest, AServerListsTheMovesAfterItsOwnAppendWithoutARead) {
  const log::GameLog log = Simulated(36);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "own-moves", &game).ok());
  ASSERT_TRUE(Create(admin_, Simulated(37), "probe", &game).ok());
  ASSERT_TRUE(AnsweredWithoutARead("probe"));

  v1::AppendActionsRequest append;
  append.set_game("games/own-moves");
  append.set_expected_last_event(1);
  append.set_request_id("own-moves-1");
  *append.add_actions() = log.actions.at(0);
  v1::AppendActionsResponse appended;
  grpc::Status status = stub_b_->AppendActions(As(admin_).get(), append, &appended);
  ASSERT_TRUE(status.ok()) << status.error_message();
  // The probe answers without a read once B's follower has heard of B's own
  // append (FindCurrent waits for that).
  ASSERT_TRUE(AnsweredWithoutARead("probe"));
  const v1::GameState position = Position(*stub_, "own-moves");
  ASSERT_FALSE(position.players_to_act().empty());
  const int before = counted_->calls();
  const v1::ListLegalActionsResponse moves =
      Moves(*stub_b_, "own-moves", position.players_to_act(0));
  EXPECT_EQ(counted_->calls(), before) << "B read the game again after its own append";
  EXPECT_EQ(moves.last_event(), 2);
  EXPECT_EQ(moves.SerializeAsString(),
            Moves(*stub_, "own-moves", position.players_to_act(0)).SerializeAsString());
}

}  // namespace
}  // namespace arbiter::server::testing
