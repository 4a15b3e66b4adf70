// Every input of a verdict comes from the hash chain, and sealed seeds
// (docs/chance.md): attacks by a database superuser on the games row
// (refused by migration 0012's trigger; with the trigger off, reported by
// VerifyGame's bad_column while verdicts and permissions keep following the
// chain), forged and misplaced reveals, the reveal deadline, and the
// derived seed of a sealed game.
#include <pqxx/pqxx>

#include <thread>

#include "absl/strings/str_cat.h"
#include "engine/core/seed_derivation.h"
#include "services/games/reveal_sweep.h"
#include "services/store/event_hash.h"
#include "services/store/lease_keeper.h"
#include "services/store/pg/leases.h"
#include "tests/integration/server_fixture.h"

namespace arbiter::server::testing {
namespace {

using ::testing::HasSubstr;

constexpr char kNonce[] = "00112233445566778899aabbccddeeff";

class ChainInputsTest : public ServerTest {
 protected:
  // The SQLSTATE of `sql` run as the superuser ("" if it succeeds), with
  // triggers on, or off (session_replication_role = replica) as an
  // operator covering its tracks would run it.
  std::string SqlState(const std::string& sql, bool triggers_off = false) {
    try {
      pqxx::connection conn(conninfo_);
      pqxx::work txn(conn);
      if (triggers_off) txn.exec0("SET session_replication_role = replica");
      txn.exec0(sql);
      txn.commit();
      return "";
    } catch (const pqxx::sql_error& e) {
      return e.sqlstate();
    }
  }

  // A finished legal game, submitted whole.
  v1::SubmitGameResponse Finished(const std::string& game_id, uint64_t seed) {
    v1::SubmitGameResponse response;
    EXPECT_TRUE(Submit(admin_, log::FormatLog(Simulated(seed, 2)), game_id, &response).ok());
    EXPECT_EQ(response.adjudication().verdict(), v1::VERDICT_LEGAL);
    return response;
  }

  // A sealed game committed to `seed` (for `committed_for`'s id).
  grpc::Status CreateSealed(const std::string& game_id, uint64_t seed, v1::Game* out,
                            const std::string& committed_for = "",
                            const google::protobuf::Duration* within = nullptr) {
    v1::CreateGameRequest request;
    request.set_request_id(absl::StrCat("create-", game_id));
    request.set_game_id(game_id);
    v1::Game& game = *request.mutable_game();
    const log::GameLog header = Simulated(1, 2);
    game.set_game_type(header.header.game());
    *game.mutable_players() = header.header.players();
    game.set_seed_commitment(engine::SealedSeedCommitment(
        committed_for.empty() ? game_id : committed_for, seed, kNonce));
    if (within != nullptr) *request.mutable_reveal_within() = *within;
    return stub_->CreateGame(As(admin_).get(), request, out);
  }

  grpc::Status Reveal(const std::string& game_id, uint64_t seed, v1::RevealSeedResponse* out) {
    v1::RevealSeedRequest request;
    request.set_game(absl::StrCat("games/", game_id));
    request.set_request_id(absl::StrCat("reveal-", game_id, "-", seed));
    request.set_seed(seed);
    request.set_nonce(kNonce);
    return stub_->RevealSeed(As(admin_).get(), request, out);
  }

  grpc::Status Adjudicate(const std::string& game_id, v1::Adjudication* out) {
    v1::AdjudicateGameRequest request;
    request.set_name(absl::StrCat("games/", game_id));
    return stub_->AdjudicateGame(As(admin_).get(), request, out);
  }
};

// Each fixed column, and each change: the SQL that changes it.
struct ColumnEdit {
  const char* column;
  const char* set;
};
constexpr ColumnEdit kFixedColumns[] = {
    {"game", "game = 'atlantica'"},
    {"ruleset_id", "ruleset_id = 'other'"},
    {"ruleset_hash", "ruleset_hash = repeat('0', 64)"},
    {"seed", "seed = seed + 1"},
    {"players", "players = ARRAY['p2', 'p1']"},
    {"created_by", "created_by = 'mallory'"},
    {"league_id", "league_id = 'north'"},
    {"tournament_id", "tournament_id = 'cup'"},
};

TEST_F(ChainInputsTest, TheTriggerRefusesAnEditOfEveryFixedColumnEvenFromTheSuperuser) {
  Finished("g", 101);
  for (const ColumnEdit& edit : kFixedColumns) {
    EXPECT_EQ(SqlState(absl::StrCat("UPDATE games SET ", edit.set, " WHERE game_id = 'g'")),
              "AR002")
        << edit.column;
  }
  for (const char* set :
       {"game_id = 'h'", "seed = NULL, seed_commitment = repeat('a', 64)",
        "created_at = created_at - interval '1 day'", "create_request_id = 'x'",
        "create_digest = 'x'"}) {
    EXPECT_EQ(SqlState(absl::StrCat("UPDATE games SET ", set, " WHERE game_id = 'g'")), "AR002")
        << set;
  }
  EXPECT_EQ(SqlState("DELETE FROM games WHERE game_id = 'g'"), "AR002");
  // Status: only forward, as the chained events move it.
  EXPECT_EQ(SqlState("UPDATE games SET status = 'active' WHERE game_id = 'g'"), "AR002");
  EXPECT_EQ(SqlState("UPDATE games SET status = status WHERE game_id = 'g'"), "");
  EXPECT_EQ(SqlState("UPDATE games SET status = 'voided' WHERE game_id = 'g'"), "");
  EXPECT_EQ(SqlState("UPDATE games SET status = 'finished' WHERE game_id = 'g'"), "AR002");
  EXPECT_EQ(Get("g").players_size(), 2);
}

TEST_F(ChainInputsTest, ARowEditedWithTheTriggerOffIsReportedAndChangesNoVerdict) {
  int n = 0;
  for (const ColumnEdit& edit : kFixedColumns) {
    const std::string game_id = absl::StrCat("g", ++n);
    const v1::SubmitGameResponse submitted = Finished(game_id, 200 + n);
    ASSERT_TRUE(Verify(game_id).intact());
    ASSERT_EQ(SqlState(absl::StrCat("UPDATE games SET ", edit.set, " WHERE game_id = '", game_id,
                                    "'"),
                       /*triggers_off=*/true),
              "")
        << edit.column;
    const v1::VerifyGameResponse verified = Verify(game_id);
    EXPECT_FALSE(verified.intact()) << edit.column;
    EXPECT_EQ(verified.bad_column(), edit.column);
    EXPECT_THAT(verified.problem(), HasSubstr(absl::StrCat("the games row says ", edit.column)));
    // The first adjudication of the game (nothing cached) reads the chain.
    v1::Adjudication adjudication;
    ASSERT_TRUE(Adjudicate(game_id, &adjudication).ok()) << edit.column;
    EXPECT_EQ(adjudication.verdict(), v1::VERDICT_LEGAL) << edit.column;
    EXPECT_EQ(adjudication.standings().SerializeAsString(),
              submitted.adjudication().standings().SerializeAsString())
        << edit.column;
  }
  // The status too: a voided row of a finished game.
  Finished("s", 300);
  ASSERT_EQ(SqlState("UPDATE games SET status = 'voided' WHERE game_id = 's'", true), "");
  EXPECT_EQ(Verify("s").bad_column(), "status");
}

TEST_F(ChainInputsTest, PermissionsFollowTheChainNotTheRow) {
  // An active game whose row claims it is finished stays hidden from the
  // public (finished and voided games only).
  log::GameLog log = Simulated(301, 2);
  log.actions.resize(3);
  v1::SubmitGameResponse response;
  ASSERT_TRUE(Submit(admin_, log::FormatLog(log), "live", &response).ok());
  ASSERT_EQ(SqlState("UPDATE games SET status = 'finished' WHERE game_id = 'live'", true), "");
  const std::string reader = MakeToken(store::Role::kPublic, "reader");
  v1::GetGameRequest get;
  get.set_name("games/live");
  v1::Game game;
  EXPECT_EQ(stub_->GetGame(As(reader).get(), get, &game).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  v1::AdjudicateGameRequest adjudicate;
  adjudicate.set_name("games/live");
  v1::Adjudication adjudication;
  EXPECT_EQ(stub_->AdjudicateGame(As(reader).get(), adjudicate, &adjudication).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  // Also when the judgement is cached (an admin adjudicated it first).
  ASSERT_TRUE(Adjudicate("live", &adjudication).ok());
  EXPECT_EQ(stub_->AdjudicateGame(As(reader).get(), adjudicate, &adjudication).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  // An organiser of the league the row now names may not write to it.
  ASSERT_EQ(SqlState("UPDATE games SET league_id = 'north' WHERE game_id = 'live'", true), "");
  const std::string north = MakeToken(store::Role::kOrganiser, "north-org", {"north"});
  v1::AppendActionsResponse appended;
  EXPECT_EQ(Append(north, "live", 4, {Simulated(301, 2).actions[3]}, "x", &appended).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
}

TEST_F(ChainInputsTest, ASealedGameNeedsItsGameId) {
  v1::CreateGameRequest request;
  request.set_request_id("no-id");
  v1::Game& game = *request.mutable_game();
  game.set_game_type("atlantis");
  *game.mutable_players() = Simulated(1, 2).header.players();
  game.set_seed_commitment(engine::SealedSeedCommitment("x", 1, kNonce));
  v1::Game created;
  grpc::Status status = stub_->CreateGame(As(admin_).get(), request, &created);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("give its game_id"));
  EXPECT_EQ(BadRequestOf(status).field_violations(0).field(), "game_id");
}

TEST_F(ChainInputsTest, ASealedGameReplaysWithTheDerivedSeed) {
  const uint64_t seed = 4242;
  v1::Game game;
  ASSERT_TRUE(CreateSealed("sealed", seed, &game).ok());
  ASSERT_EQ(game.server_random().size(), 32u);
  ASSERT_TRUE(game.has_reveal_deadline());
  // A retry of the creation answers the same game (the same server bytes).
  v1::Game again;
  ASSERT_TRUE(CreateSealed("sealed", seed, &again).ok());
  EXPECT_EQ(again.server_random(), game.server_random());
  // Event 1 holds the server's bytes.
  v1::ListEventsRequest list;
  list.set_parent("games/sealed");
  v1::ListEventsResponse events;
  ASSERT_TRUE(stub_->ListEvents(As(admin_).get(), list, &events).ok());
  EXPECT_EQ(events.events(0).game_created().server_random(), game.server_random());

  // Legal under the derived seed, which is not the organiser's seed.
  const uint64_t derived = engine::DeriveSealedSeed("sealed", seed, game.server_random());
  ASSERT_NE(derived, seed);
  const log::GameLog log = Simulated(derived, 2);
  v1::AppendActionsResponse appended;
  ASSERT_TRUE(Append(admin_, "sealed", 1, log.actions, "all", &appended).ok());
  v1::RevealSeedResponse revealed;
  ASSERT_TRUE(Reveal("sealed", seed, &revealed).ok());
  EXPECT_EQ(revealed.adjudication().verdict(), v1::VERDICT_LEGAL);
  EXPECT_EQ(revealed.game().status(), v1::GAME_STATUS_FINISHED);
  EXPECT_TRUE(Verify("sealed").intact());

  // The same actions in a game dealt by the organiser's seed alone are not
  // those of a legal game.
  v1::Game other;
  ASSERT_TRUE(CreateSealed("sealed-b", seed, &other).ok());
  ASSERT_TRUE(Append(admin_, "sealed-b", 1, log.actions, "all", &appended).ok());
  ASSERT_TRUE(Reveal("sealed-b", seed, &revealed).ok());
  EXPECT_EQ(revealed.adjudication().verdict(), v1::VERDICT_ILLEGAL);
}

TEST_F(ChainInputsTest, ACommitmentMadeForAnotherGameIsRefused) {
  v1::Game game;
  ASSERT_TRUE(CreateSealed("game-b", 7, &game, /*committed_for=*/"game-a").ok());
  v1::RevealSeedResponse revealed;
  grpc::Status status = Reveal("game-b", 7, &revealed);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(ErrorInfoOf(status).reason(), "SEED_MISMATCH");
  EXPECT_THAT(status.error_message(), HasSubstr("arbiter-seed-v2:game-b:"));
  // And the wrong seed for the right game.
  ASSERT_TRUE(CreateSealed("game-c", 7, &game).ok());
  EXPECT_EQ(Reveal("game-c", 8, &revealed).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(Get("game-c").last_event(), 1);
}

TEST_F(ChainInputsTest, AForgedRevealWithTheChainRecomputedIsDetectedAtItsEvent) {
  v1::Game game;
  ASSERT_TRUE(CreateSealed("forged", 99, &game).ok());
  v1::RevealSeedResponse revealed;
  ASSERT_TRUE(Reveal("forged", 99, &revealed).ok());
  ASSERT_TRUE(Verify("forged").intact());
  {
    pqxx::connection conn(conninfo_);
    pqxx::work txn(conn);
    txn.exec0("SET session_replication_role = replica");
    v1::SeedRevealed forged;
    forged.set_seed(100);
    forged.set_nonce(kNonce);
    txn.exec_params0(
        "UPDATE events SET payload = $1 WHERE game_id = 'forged' AND type = 'seed_revealed'",
        pqxx::binarystring(forged.SerializeAsString()));
    RecomputeChain(txn, "forged");
    txn.commit();
  }
  const v1::VerifyGameResponse verified = Verify("forged");
  EXPECT_FALSE(verified.intact());
  EXPECT_EQ(verified.first_bad_event(), 2);
  EXPECT_THAT(verified.problem(), HasSubstr("does not open the commitment of event 1"));
  v1::Adjudication adjudication;
  EXPECT_EQ(Adjudicate("forged", &adjudication).error_code(), grpc::StatusCode::DATA_LOSS);
}

TEST_F(ChainInputsTest, ThePassedDeadlineRefusesTheRevealAndVoidsTheGame) {
  google::protobuf::Duration second;
  second.set_seconds(1);
  v1::Game game;
  ASSERT_TRUE(CreateSealed("late", 5, &game, "", &second).ok());
  google::protobuf::Duration week;
  week.set_seconds(7 * 24 * 3600);
  v1::Game on_time;
  ASSERT_TRUE(CreateSealed("on-time", 6, &on_time, "", &week).ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));

  v1::RevealSeedResponse revealed;
  grpc::Status status = Reveal("late", 5, &revealed);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(status.error_message(), HasSubstr("had to be revealed by"));
  EXPECT_EQ(ErrorInfoOf(status).reason(), "REVEAL_DEADLINE_PASSED");

  absl::StatusOr<std::vector<std::string>> voided = games::VoidUnrevealedGames(*events_, absl::Now());
  ASSERT_TRUE(voided.ok()) << voided.status();
  EXPECT_THAT(*voided, ::testing::ElementsAre("late"));
  EXPECT_EQ(Get("late").status(), v1::GAME_STATUS_VOIDED);
  EXPECT_EQ(Get("on-time").status(), v1::GAME_STATUS_ACTIVE);
  v1::ListEventsRequest list;
  list.set_parent("games/late");
  v1::ListEventsResponse events;
  ASSERT_TRUE(stub_->ListEvents(As(admin_).get(), list, &events).ok());
  ASSERT_EQ(events.events_size(), 2);
  EXPECT_EQ(events.events(1).type(), "game_voided");
  EXPECT_THAT(events.events(1).game_voided().reason(),
              HasSubstr("the seed was not revealed by its deadline"));
  EXPECT_TRUE(Verify("late").intact());
  // A second sweep finds nothing more; the on-time game reveals.
  EXPECT_TRUE(games::VoidUnrevealedGames(*events_, absl::Now())->empty());
  EXPECT_TRUE(Reveal("on-time", 6, &revealed).ok());
  // A deadline out of range is refused.
  google::protobuf::Duration negative;
  negative.set_seconds(-1);
  status = CreateSealed("bad", 1, &game, "", &negative);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(BadRequestOf(status).field_violations(0).field(), "reveal_within");
}

// arbiterd's sweeper (--reveal-sweep-seconds) voids an overdue game on its
// own.
TEST_F(ChainInputsTest, TheSweeperVoidsAnOverdueGameOnItsOwn) {
  google::protobuf::Duration second;
  second.set_seconds(1);
  v1::Game game;
  ASSERT_TRUE(CreateSealed("overdue", 5, &game, "", &second).ok());
  games::RevealSweeper sweeper(*events_, absl::Milliseconds(200));
  sweeper.Start();
  const absl::Time give_up = absl::Now() + absl::Seconds(20);
  while (Get("overdue").status() != v1::GAME_STATUS_VOIDED && absl::Now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  sweeper.Stop();
  EXPECT_EQ(Get("overdue").status(), v1::GAME_STATUS_VOIDED);
}

// Two servers' sweepers under the lease kRevealSweeperLease: only the
// holder's voids an overdue game, and a sweeper whose lease was taken over
// while it was paused (its grant stale) voids nothing: its append is
// refused by the lease's token, the game left as it was.
TEST_F(ChainInputsTest, OnlyTheSweeperHoldingTheLeaseVoidsAndAStaleOneVoidsNothing) {
  google::protobuf::Duration second;
  second.set_seconds(1);
  v1::Game game;
  ASSERT_TRUE(CreateSealed("overdue", 5, &game, "", &second).ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  store::pg::LeaseTable table(events_->pool());
  store::LeaseTiming timing;
  timing.ttl = absl::Milliseconds(500);
  timing.renew_every = absl::Milliseconds(100);
  store::LeaseKeeper a(table, games::kRevealSweeperLease, "a", timing);
  store::LeaseKeeper b(table, games::kRevealSweeperLease, "b", timing);
  a.Start();
  b.Start();
  ASSERT_TRUE(a.Held().has_value());
  const store::LeaseFence stale = *a.Held();
  a.Abandon();  // a stops (paused); b takes over once a's grant lapses
  const absl::Time give_up = absl::Now() + absl::Seconds(10);
  while (!b.Held().has_value() && absl::Now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_TRUE(b.Held().has_value());

  // a resumes with the grant it had: refused, nothing appended.
  absl::StatusOr<std::vector<std::string>> voided =
      games::VoidUnrevealedGames(*events_, absl::Now(), stale);
  EXPECT_TRUE(store::IsLeaseLost(voided.status())) << voided.status();
  EXPECT_EQ(Get("overdue").status(), v1::GAME_STATUS_ACTIVE);
  EXPECT_EQ(Get("overdue").last_event(), 1);
  // b, the holder, voids it, once, even if its sweeper runs twice.
  voided = games::VoidUnrevealedGames(*events_, absl::Now(), b.Held());
  ASSERT_TRUE(voided.ok()) << voided.status();
  EXPECT_THAT(*voided, ::testing::ElementsAre("overdue"));
  EXPECT_TRUE(games::VoidUnrevealedGames(*events_, absl::Now(), b.Held())->empty());
  EXPECT_EQ(Get("overdue").status(), v1::GAME_STATUS_VOIDED);
  EXPECT_EQ(Get("overdue").last_event(), 2);
}

}  // namespace
}  // namespace arbiter::server::testing
