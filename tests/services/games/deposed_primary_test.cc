// A write never answers "the game does not exist", nor a permission denial
// it gives only because it read no game, on the word of a server that a
// failover has deposed: the writer asks the store to confirm the absence
// (EventStore::ConfirmGameAbsent, a look-up and a commit that the
// synchronous standbys must confirm) first, on both stores.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "services/store/internal/store_rules.h"
#include "tests/services/games/writer_test_env.h"

namespace arbiter::games::testing {
namespace {

// The fixture's store as a deposed primary sees it: while `deposed` is set,
// the game `missing` does not exist in any read or append (it was created
// on the new primary). ConfirmGameAbsent is the step that reaches the
// current primary (deposed is cleared), or, with `unconfirmable`, one
// whose commit no standby confirms (Unavailable).
class DeposedStore final : public store::EventStore {
 public:
  explicit DeposedStore(store::EventStore& inner) : inner_(inner) {}

  std::string missing;
  bool deposed = false;
  bool unconfirmable = false;
  bool stays_behind = false;  // reads still miss the game once the primary has confirmed it
  int confirmations = 0;

  absl::Status ConfirmGameAbsent(const std::string& id) override {
    ++confirmations;
    if (unconfirmable) return absl::UnavailableError("no standby confirmed the commit: retry");
    if (stays_behind) return inner_.ConfirmGameAbsent(id);
    deposed = false;
    return inner_.ConfirmGameAbsent(id);
  }
  absl::StatusOr<store::GameRecord> CreateGame(const store::CreateGameRequest& r) override {
    return inner_.CreateGame(r);
  }
  absl::StatusOr<store::GameRecord> GetGame(const std::string& id) override {
    if (Hidden(id)) return store::internal::GameNotFound(id);
    return inner_.GetGame(id);
  }
  absl::StatusOr<std::string> KeepDealerSecret(const std::string& game_id,
                                               const std::string& secret) override {
    return inner_.KeepDealerSecret(game_id, secret);
  }
  absl::StatusOr<std::optional<std::string>> DealerSecret(const std::string& game_id) override {
    return inner_.DealerSecret(game_id);
  }
  absl::StatusOr<std::optional<std::string>> FindPlayedGame(const std::string& key) override {
    return inner_.FindPlayedGame(key);
  }
  absl::StatusOr<store::ListGamesPage> ListGames(const store::ListGamesFilter& f, int size,
                                                 const std::string& token) override {
    return inner_.ListGames(f, size, token);
  }
  absl::Status SetGameStatus(const std::string& id, store::GameStatus status) override {
    return inner_.SetGameStatus(id, status);
  }
  absl::StatusOr<store::AppendResult> Append(const store::AppendRequest& r) override {
    if (Hidden(r.game_id)) return store::internal::GameNotFound(r.game_id);
    return inner_.Append(r);
  }
  absl::StatusOr<std::vector<store::StoredEvent>> ReadGameEvents(const std::string& id,
                                                                 int64_t after,
                                                                 int limit) override {
    if (Hidden(id)) return store::internal::GameNotFound(id);
    return inner_.ReadGameEvents(id, after, limit);
  }
  absl::StatusOr<store::GameHead> ReadGameHead(const std::string& id, int limit) override {
    if (Hidden(id)) return store::internal::GameNotFound(id);
    return inner_.ReadGameHead(id, limit);
  }
  absl::StatusOr<std::optional<store::StoredEvent>> FindGameEvent(const std::string& id,
                                                                  const std::string& type,
                                                                  int64_t after,
                                                                  int64_t up_to) override {
    return inner_.FindGameEvent(id, type, after, up_to);
  }
  absl::StatusOr<std::vector<store::StoredEvent>> ReadAll(int64_t after, int limit) override {
    return inner_.ReadAll(after, limit);
  }
  absl::StatusOr<int64_t> HeadPosition() override { return inner_.HeadPosition(); }
  absl::StatusOr<store::VerifyReport> VerifyGame(const std::string& id) override {
    return inner_.VerifyGame(id);
  }
  std::unique_ptr<store::StoreFollower> Follow(store::StoreListener& listener) override {
    return inner_.Follow(listener);
  }
  int64_t WrittenThrough() const override { return inner_.WrittenThrough(); }

 private:
  bool Hidden(const std::string& id) const { return deposed && id == missing; }

  store::EventStore& inner_;
};

class DeposedPrimaryTest : public GameWriterTest {
 protected:
  void SetUp() override {
    GameWriterTest::SetUp();
    deposed_ = std::make_unique<DeposedStore>(*store_);
    writer_.emplace(*deposed_, Registry(), WriteLimits{});
    log_ = Simulated(8);
    CreateAsAdmin("new", log_);
    deposed_->missing = "new";
  }
  // The writer goes before the store it was given.
  void TearDown() override { writer_.reset(); }

  // A player token of the seat that makes the log's first action, bound to
  // game `game`.
  access::Caller FirstPlayerOf(const std::string& game) const {
    access::Caller player;
    player.principal = log_.actions.front().player();
    player.role = store::Role::kPlayer;
    player.games = {game};
    return player;
  }

  std::unique_ptr<DeposedStore> deposed_;
  log::GameLog log_;
};

// The deposed server reads no game "new"; the primary has it: the append is
// stored there, not refused.
TEST_P(DeposedPrimaryTest, AGameTheDeposedServerHasNotSeenIsAppendedToOnThePrimary) {
  deposed_->deposed = true;
  absl::StatusOr<v1::AppendActionsResponse> appended =
      writer_->Append(admin_, AppendRequest("new", 1, log_, 0, 3, "a1"), Never());
  ASSERT_TRUE(appended.ok()) << appended.status();
  EXPECT_EQ(appended->last_event(), 4);
  EXPECT_EQ(deposed_->confirmations, 1);
  EXPECT_EQ(Row("new").last_sequence, 4);
}

// When the absence cannot be confirmed, the answer is Unavailable (retry),
// never NotFound.
TEST_P(DeposedPrimaryTest, AnAbsenceNoPrimaryConfirmsIsUnavailableNotNotFound) {
  deposed_->deposed = true;
  deposed_->unconfirmable = true;
  absl::StatusOr<v1::AppendActionsResponse> appended =
      writer_->Append(admin_, AppendRequest("new", 1, log_, 0, 3, "a1"), Never());
  EXPECT_EQ(appended.status().code(), absl::StatusCode::kUnavailable) << appended.status();
  EXPECT_EQ(Row("new").last_sequence, 1);
}

// A game that does not exist on the primary either is NotFound, once
// confirmed; an append that is found never asks.
TEST_P(DeposedPrimaryTest, AGameNoServerHasIsNotFoundOnceConfirmed) {
  absl::StatusOr<v1::AppendActionsResponse> appended =
      writer_->Append(admin_, AppendRequest("nosuch", 1, log_, 0, 3, "a1"), Never());
  EXPECT_EQ(appended.status().code(), absl::StatusCode::kNotFound) << appended.status();
  EXPECT_EQ(appended.status().message(), "game \"nosuch\" does not exist");
  EXPECT_EQ(deposed_->confirmations, 1);
  ASSERT_TRUE(writer_->Append(admin_, AppendRequest("new", 1, log_, 0, 3, "a2"), Never()).ok());
  EXPECT_EQ(deposed_->confirmations, 1);
}

// A player token is refused PERMISSION_DENIED, not NOT_FOUND, for a game it
// reads no row of; that refusal too waits for the primary's word.
TEST_P(DeposedPrimaryTest, APlayersMoveToAGameTheDeposedServerHasNotSeenIsStoredNotDenied) {
  deposed_->deposed = true;
  absl::StatusOr<v1::AppendActionsResponse> appended =
      writer_->Append(FirstPlayerOf("new"), AppendRequest("new", 1, log_, 0, 1, "p1"), Never());
  ASSERT_TRUE(appended.ok()) << appended.status();
  EXPECT_EQ(appended->last_event(), 2);
  EXPECT_EQ(deposed_->confirmations, 1);
}

TEST_P(DeposedPrimaryTest, APlayersMoveToAGameNoServerHasIsDeniedOnlyOnceConfirmed) {
  const access::Caller player = FirstPlayerOf("nosuch");
  deposed_->unconfirmable = true;
  EXPECT_EQ(writer_->Append(player, AppendRequest("nosuch", 1, log_, 0, 1, "p1"), Never())
                .status()
                .code(),
            absl::StatusCode::kUnavailable);
  deposed_->unconfirmable = false;
  absl::StatusOr<v1::AppendActionsResponse> denied =
      writer_->Append(player, AppendRequest("nosuch", 1, log_, 0, 1, "p1"), Never());
  EXPECT_EQ(denied.status().code(), absl::StatusCode::kPermissionDenied) << denied.status();
  EXPECT_EQ(deposed_->confirmations, 2);
}

// A player token that can play in no game of that id (bound to another
// game, to no tournament) is denied without a look-up: nothing it sends
// makes the server commit.
TEST_P(DeposedPrimaryTest, AStrangersMoveIsDeniedWithoutAConfirmingCommit) {
  for (const std::string game : {"nosuch", "new"}) {
    absl::StatusOr<v1::AppendActionsResponse> denied = writer_->Append(
        FirstPlayerOf("another"), AppendRequest(game, 1, log_, 0, 1, "s-" + game), Never());
    EXPECT_EQ(denied.status().code(), absl::StatusCode::kPermissionDenied) << denied.status();
  }
  EXPECT_EQ(deposed_->confirmations, 0);
  EXPECT_EQ(Row("new").last_sequence, 1);
}

// The primary has the game but this server's reads still miss it: retry,
// in words that say nothing of the game's existence to callers that may not
// write to it (the answer comes before any permission check).
TEST_P(DeposedPrimaryTest, AGameTheServerStillCannotReadIsUnavailableWithoutSayingItExists) {
  deposed_->deposed = true;
  deposed_->stays_behind = true;
  const std::string retry =
      "game \"new\" could not be read as the primary has it (this server may be catching up "
      "after a failover): retry";
  const access::Caller stranger = SignIn(store::Role::kOrganiser, "org", {"north"});
  for (const access::Caller& caller : {stranger, FirstPlayerOf("new"), admin_}) {
    absl::StatusOr<v1::AppendActionsResponse> appended =
        writer_->Append(caller, AppendRequest("new", 1, log_, 0, 1, "r"), Never());
    EXPECT_EQ(appended.status().code(), absl::StatusCode::kUnavailable) << appended.status();
    EXPECT_EQ(appended.status().message(), retry);
    EXPECT_EQ(appended.status().message().find("exists"), std::string::npos);
  }
  EXPECT_EQ(Row("new").last_sequence, 1);
}

// An organiser may write to the games it created; a deposed server's read
// of no such game does not turn that into a denial.
TEST_P(DeposedPrimaryTest, AnOrganisersOwnGameTheDeposedServerHasNotSeenIsAppendedTo) {
  const access::Caller organiser = SignIn(store::Role::kOrganiser, "org");
  ASSERT_TRUE(writer_->Create(organiser, CreateRequest("own", log_)).ok());
  deposed_->missing = "own";
  deposed_->deposed = true;
  absl::StatusOr<v1::AppendActionsResponse> appended =
      writer_->Append(organiser, AppendRequest("own", 1, log_, 0, 3, "o1"), Never());
  ASSERT_TRUE(appended.ok()) << appended.status();
  EXPECT_EQ(Row("own").last_sequence, 4);
  EXPECT_EQ(deposed_->confirmations, 1);
}

INSTANTIATE_TEST_SUITE_P(BothStores, DeposedPrimaryTest,
                         ::testing::Values(StoreKind::kMemory, StoreKind::kPostgres), StoreName);

}  // namespace
}  // namespace arbiter::games::testing
