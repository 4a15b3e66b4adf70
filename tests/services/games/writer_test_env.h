// The fixture of the write-flow tests (games_writer_test): a GameWriter
// called directly, as the API layer calls it, with callers signed in
// through an Authenticator over a token store. Each test runs twice: on the
// in-memory stores (MemoryEventStore, MemoryTokenStore) and on PostgreSQL
// (a fresh database of the program's private cluster,
// tests/services/store/postgres_test_env.h, with PostgresTokenStore).
#ifndef ARBITER_TESTS_SERVICES_GAMES_WRITER_TEST_ENV_H_
#define ARBITER_TESTS_SERVICES_GAMES_WRITER_TEST_ENV_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/ruleset_registry.h"
#include "services/access/authenticator.h"
#include "services/access/caller.h"
#include "services/games/game_writer.h"
#include "services/log/log_file.h"
#include "services/store/event_store.h"
#include "services/store/token_store.h"

namespace arbiter::games::testing {

enum class StoreKind { kMemory, kPostgres };

inline constexpr char kNonce[] = "00112233445566778899aabbccddeeff";

class GameWriterTest : public ::testing::TestWithParam<StoreKind> {
 protected:
  void SetUp() override;

  static const engine::RulesetRegistry& Registry();
  // A simulated legal game of Atlantis for players "p1".."pN", played out
  // to its end.
  static log::GameLog Simulated(uint64_t seed, int players = 2);
  static CancelCheck Never();

  // A caller signed in with a fresh token of `role`, inserted in the token
  // store and authenticated as the API authenticates a request.
  access::Caller SignIn(store::Role role, const std::string& principal,
                        std::vector<std::string> leagues = {},
                        std::vector<std::string> tournaments = {});

  // Replaces the writer by one with `limits` (the fixture's has the default).
  void UseLimits(const WriteLimits& limits);

  // CreateGame of `log`'s header and seed as game `game_id`.
  static v1::CreateGameRequest CreateRequest(const std::string& game_id, const log::GameLog& log,
                                             const std::string& request_id = "create");
  // CreateGame of a sealed game `game_id` of two players committed to
  // `seed` (nonce kNonce).
  static v1::CreateGameRequest SealedRequest(const std::string& game_id, uint64_t seed,
                                             const std::string& request_id = "create");
  // AppendActions of actions [from, to) of `log` to game `game_id`, after
  // event `expected`.
  static v1::AppendActionsRequest AppendRequest(const std::string& game_id, int64_t expected,
                                                const log::GameLog& log, int from, int to,
                                                const std::string& request_id);
  // SubmitGame of `log` as game `game_id`.
  static v1::SubmitGameRequest SubmitRequest(const std::string& game_id, const log::GameLog& log,
                                             const std::string& request_id = "submit");
  // RevealSeed of (`seed`, kNonce) for game `game_id`.
  static v1::RevealSeedRequest RevealRequest(const std::string& game_id, uint64_t seed,
                                             const std::string& request_id = "reveal");

  // Creates game `game_id` from `log` as the admin; the test fails if it
  // cannot.
  void CreateAsAdmin(const std::string& game_id, const log::GameLog& log);

  // The game's row (the test fails if there is none).
  store::GameRecord Row(const std::string& game_id);
  // Every stored event of the game.
  std::vector<store::StoredEvent> Events(const std::string& game_id);
  // The number of games in the store.
  int Games();

  std::unique_ptr<store::EventStore> store_;
  std::unique_ptr<store::TokenStore> tokens_;
  std::unique_ptr<access::Authenticator> auth_;
  std::optional<GameWriter> writer_;
  access::Caller admin_;
};

// "Memory" or "Postgres", for the test names.
std::string StoreName(const ::testing::TestParamInfo<StoreKind>& info);

// The ErrorInfo reason of `status` ("" if none), and the field of its first
// field violation ("" if none).
std::string ReasonOf(const absl::Status& status);
std::string FieldOf(const absl::Status& status);

}  // namespace arbiter::games::testing

#endif  // ARBITER_TESTS_SERVICES_GAMES_WRITER_TEST_ENV_H_
