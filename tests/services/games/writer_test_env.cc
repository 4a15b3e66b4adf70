#include "tests/services/games/writer_test_env.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/core/seed_derivation.h"
#include "services/access/token_format.h"
#include "services/common/status_details.h"
#include "services/replay/simulate.h"
#include "services/store/memory_event_store.h"
#include "services/store/memory_token_store.h"
#include "services/store/postgres_token_store.h"
#include "tests/services/store/postgres_test_env.h"

namespace arbiter::games::testing {

void GameWriterTest::SetUp() {
  if (GetParam() == StoreKind::kMemory) {
    store_ = std::make_unique<store::MemoryEventStore>();
    tokens_ = std::make_unique<store::MemoryTokenStore>();
  } else {
    std::unique_ptr<store::PostgresEventStore> postgres = store::testing::FreshPostgresStore();
    ASSERT_NE(postgres, nullptr);
    // Declared after store_, so destroyed before the store whose pool it uses.
    tokens_ = std::make_unique<store::PostgresTokenStore>(postgres->pool());
    store_ = std::move(postgres);
  }
  auth_ = std::make_unique<access::Authenticator>(*tokens_);
  writer_.emplace(*store_, Registry(), WriteLimits{});
  admin_ = SignIn(store::Role::kAdmin, "root");
}

const engine::RulesetRegistry& GameWriterTest::Registry() {
  static const engine::RulesetRegistry* const registry =
      new engine::RulesetRegistry(*engine::RulesetRegistry::WithBuiltins());
  return *registry;
}

log::GameLog GameWriterTest::Simulated(uint64_t seed, int players) {
  absl::StatusOr<log::GameLog> log =
      replay::SimulateGame(replay::SimulationRequest{"atlantis", players, seed}, Registry());
  EXPECT_TRUE(log.ok()) << log.status();
  return *std::move(log);
}

CancelCheck GameWriterTest::Never() {
  return [] { return absl::OkStatus(); };
}

access::Caller GameWriterTest::SignIn(store::Role role, const std::string& principal,
                                      std::vector<std::string> leagues,
                                      std::vector<std::string> tournaments) {
  absl::StatusOr<access::NewToken> token = access::GenerateToken();
  EXPECT_TRUE(token.ok()) << token.status();
  token->record.role = role;
  token->record.principal = principal;
  token->record.leagues = std::move(leagues);
  token->record.tournaments = std::move(tournaments);
  token->record.created_by = "test";
  EXPECT_TRUE(tokens_->Insert(token->record).ok());
  absl::StatusOr<access::Caller> caller = auth_->Authenticate(absl::StrCat("Bearer ", token->token));
  EXPECT_TRUE(caller.ok()) << caller.status();
  return caller.ok() ? *std::move(caller) : access::Caller{};
}

void GameWriterTest::UseLimits(const WriteLimits& limits) {
  writer_.emplace(*store_, Registry(), limits);
}

v1::CreateGameRequest GameWriterTest::CreateRequest(const std::string& game_id,
                                                    const log::GameLog& log,
                                                    const std::string& request_id) {
  v1::CreateGameRequest request;
  request.set_request_id(request_id);
  request.set_game_id(game_id);
  v1::Game& game = *request.mutable_game();
  game.set_game_type(log.header.game());
  game.set_ruleset_id(log.header.ruleset_id());
  game.set_ruleset_hash(log.header.ruleset_hash());
  game.set_seed(log.header.seed());
  *game.mutable_players() = log.header.players();
  game.mutable_options()->insert(log.header.options().begin(), log.header.options().end());
  return request;
}

v1::CreateGameRequest GameWriterTest::SealedRequest(const std::string& game_id, uint64_t seed,
                                                    const std::string& request_id) {
  v1::CreateGameRequest request = CreateRequest(game_id, Simulated(1), request_id);
  request.mutable_game()->set_seed_commitment(engine::SealedSeedCommitment(game_id, seed, kNonce));
  return request;
}

v1::AppendActionsRequest GameWriterTest::AppendRequest(const std::string& game_id,
                                                       int64_t expected, const log::GameLog& log,
                                                       int from, int to,
                                                       const std::string& request_id) {
  v1::AppendActionsRequest request;
  request.set_game(absl::StrCat("games/", game_id));
  request.set_request_id(request_id);
  request.set_expected_last_event(expected);
  for (int i = from; i < to; ++i) *request.add_actions() = log.actions.at(static_cast<size_t>(i));
  return request;
}

v1::SubmitGameRequest GameWriterTest::SubmitRequest(const std::string& game_id,
                                                    const log::GameLog& log,
                                                    const std::string& request_id) {
  v1::SubmitGameRequest request;
  request.set_request_id(request_id);
  request.set_game_id(game_id);
  request.set_log(log::FormatLog(log));
  return request;
}

v1::RevealSeedRequest GameWriterTest::RevealRequest(const std::string& game_id, uint64_t seed,
                                                    const std::string& request_id) {
  v1::RevealSeedRequest request;
  request.set_game(absl::StrCat("games/", game_id));
  request.set_request_id(request_id);
  request.set_seed(seed);
  request.set_nonce(kNonce);
  return request;
}

void GameWriterTest::CreateAsAdmin(const std::string& game_id, const log::GameLog& log) {
  absl::StatusOr<v1::Game> created = writer_->Create(admin_, CreateRequest(game_id, log));
  ASSERT_TRUE(created.ok()) << created.status();
}

store::GameRecord GameWriterTest::Row(const std::string& game_id) {
  absl::StatusOr<store::GameRecord> row = store_->GetGame(game_id);
  EXPECT_TRUE(row.ok()) << row.status();
  return row.ok() ? *std::move(row) : store::GameRecord{};
}

std::vector<store::StoredEvent> GameWriterTest::Events(const std::string& game_id) {
  absl::StatusOr<std::vector<store::StoredEvent>> events =
      store_->ReadGameEvents(game_id, 0, 10'000);
  EXPECT_TRUE(events.ok()) << events.status();
  return events.ok() ? *std::move(events) : std::vector<store::StoredEvent>{};
}

int GameWriterTest::Games() {
  absl::StatusOr<store::ListGamesPage> page = store_->ListGames({}, 1000, "");
  EXPECT_TRUE(page.ok()) << page.status();
  return page.ok() ? static_cast<int>(page->games.size()) : -1;
}

std::string StoreName(const ::testing::TestParamInfo<StoreKind>& info) {
  return info.param == StoreKind::kMemory ? "Memory" : "Postgres";
}

std::string ReasonOf(const absl::Status& status) {
  std::optional<google::rpc::ErrorInfo> info = common::ErrorInfoOf(status);
  return info.has_value() ? info->reason() : "";
}

std::string FieldOf(const absl::Status& status) {
  std::optional<google::rpc::BadRequest> bad = common::BadRequestOf(status);
  return bad.has_value() && bad->field_violations_size() > 0 ? bad->field_violations(0).field()
                                                            : "";
}

}  // namespace arbiter::games::testing
