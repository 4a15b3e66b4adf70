// A running ArbiterServer on a fresh PostgreSQL database (the store tests'
// private cluster), a real gRPC channel to it on 127.0.0.1, and helper verbs
// so that each test reads as a story.
#ifndef ARBITER_TESTS_INTEGRATION_SERVER_FIXTURE_H_
#define ARBITER_TESTS_INTEGRATION_SERVER_FIXTURE_H_

#include <grpcpp/grpcpp.h>
#include <pqxx/pqxx>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "arbiter/v1/arbiter_service.grpc.pb.h"
#include "google/rpc/error_details.pb.h"
#include "services/store/postgres_token_store.h"
#include "services/log/log_file.h"
#include "services/server/server.h"
#include "services/store/token_store.h"
#include "services/store/postgres_event_store.h"
#include "services/transparency/transparency_log.h"

namespace arbiter::server::testing {

// A game and a player count, for the tests run on every game.
struct GameCase {
  std::string type;
  int players;
};
// Every game at every player count its default ruleset allows.
std::vector<GameCase> EveryGameAtEveryPlayerCount();
// The test name part of a case: "atlantis_rising_3".
std::string GameCaseName(const ::testing::TestParamInfo<GameCase>& info);

class ServerTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // Starts (another) server on the same database with these options.
  std::unique_ptr<ArbiterServer> StartServer(ServerOptions options);
  std::unique_ptr<v1::ArbiterService::Stub> StubFor(const ArbiterServer& server);

  // A token stored directly in the token store.
  std::string MakeToken(store::Role role, const std::string& principal,
                        std::vector<std::string> leagues = {});
  // A context carrying `token` (none if empty) and a 30 s deadline.
  static std::unique_ptr<grpc::ClientContext> As(const std::string& token);

  // A complete, legal simulated game (atlantis unless named).
  static log::GameLog Simulated(uint64_t seed, int players = 3,
                                const std::string& game = "atlantis");
  // Each action of a log in words (Referee::Label in the position before
  // it), through the first that breaks a rule: what Event.text and a
  // violation's action_text must say of it.
  static std::vector<std::string> ActionWords(const log::GameLog& log);
  // The last player of the log's header other than `player`.
  static std::string AnotherPlayer(const log::GameLog& log, const std::string& player);
  // The scenario of the per-seat write tests: games "g1" and "g2" created
  // by the admin from one simulated 3-player log; its first action, and a
  // player of the log other than that action's.
  struct TwoGamesOfOneLog {
    log::GameLog log;
    v1::Action first;
    std::string other_player;
  };
  TwoGamesOfOneLog CreateTwoGamesOfOneLog();
  // The same log with action `index` given to a player whose turn it is not.
  static log::GameLog WithActionOutOfTurn(log::GameLog log, std::size_t index);

  grpc::Status Submit(const std::string& token, const std::string& log_text,
                      const std::string& game_id, v1::SubmitGameResponse* out,
                      const std::string& request_id = "");
  // Creates a game with the log's header (and its seed, unless a commitment
  // is given).
  grpc::Status Create(const std::string& token, const log::GameLog& log,
                      const std::string& game_id, v1::Game* out,
                      const std::string& commitment = "");
  grpc::Status Append(const std::string& token, const std::string& game_id, int64_t expected,
                      const std::vector<v1::Action>& actions, const std::string& request_id,
                      v1::AppendActionsResponse* out);
  v1::Game Get(const std::string& game_id);
  // VerifyGame of `game_id` as the admin (a failed call is a test failure).
  v1::VerifyGameResponse Verify(const std::string& game_id);
  // CreateToken as `caller` for a player token of `player` bound to `games`
  // and `tournaments`; the new token's secret, or "" (and `status`).
  std::string MintPlayer(const std::string& caller, const std::string& player,
                         const std::vector<std::string>& games,
                         const std::vector<std::string>& tournaments = {},
                         grpc::Status* status = nullptr);
  // Plays live game `game_id` to its end as the admin, each time the first
  // legal move of the first seat to act; false if a call fails or the game
  // does not end.
  bool PlayToEndAsAdmin(const std::string& game_id);
  // Recomputes a game's hash chain and head after an edit of its events in
  // `txn` (what a database superuser covering its tracks would do).
  static void RecomputeChain(pqxx::work& txn, const std::string& game_id);
  // Runs `attack` as the database superuser with triggers (and foreign
  // keys) off: an operator covering its tracks.
  void AsSuperuser(const std::function<void(pqxx::work&)>& attack);
  int64_t StoredGames();
  // The tables of the database (any schema but PostgreSQL's own) with a row
  // whose text form contains `text`, read as the superuser.
  std::vector<std::string> TablesHolding(const std::string& text);

  static google::rpc::ErrorInfo ErrorInfoOf(const grpc::Status& status);
  static google::rpc::BadRequest BadRequestOf(const grpc::Status& status);

  std::string conninfo_;  // superuser
  std::unique_ptr<store::PostgresEventStore> events_;
  std::unique_ptr<store::PostgresTokenStore> tokens_;
  // When set before StartServer, servers also keep this transparency log.
  transparency::TransparencyLog* transparency_ = nullptr;
  std::unique_ptr<ArbiterServer> server_;
  std::unique_ptr<v1::ArbiterService::Stub> stub_;
  std::unique_ptr<v1::TokenService::Stub> token_stub_;
  std::string admin_;
};

}  // namespace arbiter::server::testing

#endif  // ARBITER_TESTS_INTEGRATION_SERVER_FIXTURE_H_
