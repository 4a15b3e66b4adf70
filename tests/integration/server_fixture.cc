#include "tests/integration/server_fixture.h"

#include <algorithm>
#include <optional>

#include <pqxx/pqxx>

#include "absl/strings/str_cat.h"
#include "engine/core/game.h"
#include "engine/core/ruleset_registry.h"
#include "google/rpc/status.pb.h"
#include "services/access/token_format.h"
#include "services/store/postgres_token_store.h"
#include "services/replay/referee.h"
#include "services/replay/simulate.h"
#include "services/access/permissions.h"
#include "services/store/event_hash.h"
#include "tests/services/store/postgres_test_env.h"

namespace arbiter::server::testing {
namespace {

const engine::RulesetRegistry& Registry() {
  static const engine::RulesetRegistry* const registry =
      new engine::RulesetRegistry(*engine::RulesetRegistry::WithBuiltins());
  return *registry;
}

}  // namespace

void ServerTest::SetUp() {
  events_ = store::testing::FreshPostgresStore(&conninfo_);
  ASSERT_NE(events_, nullptr);
  tokens_ = std::make_unique<store::PostgresTokenStore>(events_->pool());
  ServerOptions options;
  options.listen = "127.0.0.1:0";
  options.max_message_bytes = 2 << 20;
  server_ = StartServer(options);
  ASSERT_NE(server_, nullptr);
  stub_ = StubFor(*server_);
  token_stub_ = v1::TokenService::NewStub(
      grpc::CreateChannel(absl::StrCat("127.0.0.1:", server_->port()),
                          grpc::InsecureChannelCredentials()));
  admin_ = MakeToken(store::Role::kAdmin, "root");
}

void ServerTest::TearDown() {
  if (server_ != nullptr) server_->Shutdown(std::chrono::system_clock::now());
}

std::unique_ptr<ArbiterServer> ServerTest::StartServer(ServerOptions options) {
  auto server = ArbiterServer::Start(options, *events_, *events_, *tokens_, Registry(), nullptr,
                                     transparency_);
  EXPECT_TRUE(server.ok()) << server.status();
  return server.ok() ? *std::move(server) : nullptr;
}

std::unique_ptr<v1::ArbiterService::Stub> ServerTest::StubFor(const ArbiterServer& server) {
  grpc::ChannelArguments args;
  args.SetMaxSendMessageSize(64 << 20);
  return v1::ArbiterService::NewStub(grpc::CreateCustomChannel(
      absl::StrCat("127.0.0.1:", server.port()), grpc::InsecureChannelCredentials(), args));
}

std::string ServerTest::MakeToken(store::Role role, const std::string& principal,
                                  std::vector<std::string> leagues) {
  absl::StatusOr<access::NewToken> token = access::GenerateToken();
  EXPECT_TRUE(token.ok());
  token->record.role = role;
  token->record.principal = principal;
  token->record.leagues = std::move(leagues);
  token->record.created_by = "test";
  EXPECT_TRUE(tokens_->Insert(token->record).ok());
  return token->token;
}

std::unique_ptr<grpc::ClientContext> ServerTest::As(const std::string& token) {
  auto context = std::make_unique<grpc::ClientContext>();
  if (!token.empty()) context->AddMetadata("authorization", absl::StrCat("Bearer ", token));
  context->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  return context;
}

log::GameLog ServerTest::Simulated(uint64_t seed, int players, const std::string& game) {
  replay::SimulationRequest request;
  request.game = game;
  request.players = players;
  request.seed = seed;
  absl::StatusOr<log::GameLog> log = replay::SimulateGame(request, Registry());
  EXPECT_TRUE(log.ok()) << log.status();
  return *std::move(log);
}

std::vector<std::string> ServerTest::ActionWords(const log::GameLog& log) {
  std::vector<std::string> words;
  absl::StatusOr<replay::Referee> referee = replay::Referee::Start(log.header, Registry());
  EXPECT_TRUE(referee.ok()) << referee.status();
  if (!referee.ok()) return words;
  for (std::size_t i = 0; i < log.actions.size(); ++i) {
    words.push_back(referee->Label(log.actions[i]));
    absl::StatusOr<std::optional<engine::Violation>> judged = referee->Apply(log.actions[i], log::LineOfAction(i));
    EXPECT_TRUE(judged.ok()) << judged.status();
    if (!judged.ok() || judged->has_value()) break;
  }
  return words;
}

log::GameLog ServerTest::WithActionOutOfTurn(log::GameLog log, std::size_t index) {
  v1::Action& action = log.actions.at(index);
  const std::string mover = action.player();
  for (const v1::Player& p : log.header.players()) {
    if (p.id() != mover) {
      action.set_player(p.id());
      break;
    }
  }
  return log;
}

grpc::Status ServerTest::Submit(const std::string& token, const std::string& log_text,
                                const std::string& game_id, v1::SubmitGameResponse* out,
                                const std::string& request_id) {
  v1::SubmitGameRequest request;
  request.set_request_id(request_id.empty() ? absl::StrCat("submit-", game_id) : request_id);
  request.set_game_id(game_id);
  request.set_log(log_text);
  return stub_->SubmitGame(As(token).get(), request, out);
}

grpc::Status ServerTest::Create(const std::string& token, const log::GameLog& log,
                                const std::string& game_id, v1::Game* out,
                                const std::string& commitment) {
  v1::CreateGameRequest request;
  request.set_request_id(absl::StrCat("create-", game_id));
  request.set_game_id(game_id);
  v1::Game& game = *request.mutable_game();
  game.set_game_type(log.header.game());
  game.set_ruleset_id(log.header.ruleset_id());
  game.set_ruleset_hash(log.header.ruleset_hash());
  *game.mutable_players() = log.header.players();
  if (commitment.empty()) {
    game.set_seed(log.header.seed());
  } else {
    game.set_seed_commitment(commitment);
  }
  return stub_->CreateGame(As(token).get(), request, out);
}

std::string ServerTest::AnotherPlayer(const log::GameLog& log, const std::string& player) {
  std::string other;
  for (const v1::Player& p : log.header.players()) {
    if (p.id() != player) other = p.id();
  }
  return other;
}

ServerTest::TwoGamesOfOneLog ServerTest::CreateTwoGamesOfOneLog() {
  TwoGamesOfOneLog out;
  out.log = Simulated(5, 3);
  v1::Game game;
  EXPECT_TRUE(Create(admin_, out.log, "g1", &game).ok());
  EXPECT_TRUE(Create(admin_, out.log, "g2", &game).ok());
  out.first = out.log.actions[0];
  out.other_player = AnotherPlayer(out.log, out.first.player());
  return out;
}

grpc::Status ServerTest::Append(const std::string& token, const std::string& game_id,
                                int64_t expected, const std::vector<v1::Action>& actions,
                                const std::string& request_id, v1::AppendActionsResponse* out) {
  v1::AppendActionsRequest request;
  request.set_game(absl::StrCat("games/", game_id));
  request.set_request_id(request_id);
  request.set_expected_last_event(expected);
  for (const v1::Action& action : actions) *request.add_actions() = action;
  return stub_->AppendActions(As(token).get(), request, out);
}

std::vector<std::string> ServerTest::TablesHolding(const std::string& text) {
  pqxx::connection conn(conninfo_);
  pqxx::nontransaction txn(conn);
  std::vector<std::string> holding;
  for (const pqxx::row& table : txn.exec(
           "SELECT quote_ident(table_schema) || '.' || quote_ident(table_name), table_name "
           "FROM information_schema.tables WHERE table_type = 'BASE TABLE' "
           "AND table_schema NOT IN ('pg_catalog', 'information_schema')")) {
    const pqxx::result hits = txn.exec_params(
        absl::StrCat("SELECT 1 FROM ", table[0].c_str(), " t WHERE strpos(t::text, $1) > 0 LIMIT 1"),
        text);
    if (!hits.empty()) holding.push_back(table[1].c_str());
  }
  return holding;
}

v1::Game ServerTest::Get(const std::string& game_id) {
  v1::GetGameRequest request;
  request.set_name(absl::StrCat("games/", game_id));
  v1::Game game;
  grpc::Status status = stub_->GetGame(As(admin_).get(), request, &game);
  EXPECT_TRUE(status.ok()) << status.error_message();
  return game;
}

int64_t ServerTest::StoredGames() {
  absl::StatusOr<store::ListGamesPage> page = events_->ListGames({}, 1000, "");
  EXPECT_TRUE(page.ok());
  return page.ok() ? static_cast<int64_t>(page->games.size()) : -1;
}

google::rpc::ErrorInfo ServerTest::ErrorInfoOf(const grpc::Status& status) {
  google::rpc::Status details;
  google::rpc::ErrorInfo info;
  if (details.ParseFromString(status.error_details())) {
    for (const auto& any : details.details()) {
      if (any.UnpackTo(&info)) return info;
    }
  }
  return info;
}

google::rpc::BadRequest ServerTest::BadRequestOf(const grpc::Status& status) {
  google::rpc::Status details;
  google::rpc::BadRequest bad;
  if (details.ParseFromString(status.error_details())) {
    for (const auto& any : details.details()) {
      if (any.UnpackTo(&bad)) return bad;
    }
  }
  return bad;
}

std::string ServerTest::MintPlayer(const std::string& caller, const std::string& player,
                                   const std::vector<std::string>& games,
                                   const std::vector<std::string>& tournaments,
                                   grpc::Status* status) {
  static int minted = 0;
  v1::CreateTokenRequest request;
  request.set_request_id(absl::StrCat("player-", player, "-", ++minted));
  request.set_role(v1::ROLE_PLAYER);
  request.set_principal(player);
  for (const std::string& g : games) request.add_games(g);
  for (const std::string& t : tournaments) request.add_tournaments(t);
  v1::CreateTokenResponse response;
  grpc::Status s = token_stub_->CreateToken(As(caller).get(), request, &response);
  if (status != nullptr) *status = s;
  return s.ok() ? response.token() : "";
}

v1::VerifyGameResponse ServerTest::Verify(const std::string& game_id) {
  v1::VerifyGameRequest request;
  request.set_name(absl::StrCat("games/", game_id));
  v1::VerifyGameResponse response;
  grpc::Status status = stub_->VerifyGame(As(admin_).get(), request, &response);
  EXPECT_TRUE(status.ok()) << status.error_message();
  return response;
}

bool ServerTest::PlayToEndAsAdmin(const std::string& game_id) {
  for (int i = 0; i < 5000; ++i) {
    if (Get(game_id).status() != v1::GAME_STATUS_ACTIVE) return true;
    v1::GetGameStateRequest state;
    state.set_name(absl::StrCat("games/", game_id));
    v1::GameState position;
    grpc::Status status = stub_->GetGameState(As(admin_).get(), state, &position);
    v1::ListLegalActionsRequest request;
    request.set_game(absl::StrCat("games/", game_id));
    v1::ListLegalActionsResponse to_act;
    if (status.ok() && !position.players_to_act().empty()) {
      request.set_player(position.players_to_act(0));
      status = stub_->ListLegalActions(As(admin_).get(), request, &to_act);
    }
    if (!status.ok() || to_act.actions().empty()) {
      ADD_FAILURE() << game_id << ": no move to play after event " << to_act.last_event() << ": "
                    << status.error_message();
      return false;
    }
    v1::AppendActionsResponse appended;
    status = Append(admin_, game_id, to_act.last_event(), {to_act.actions(0).action()},
                    absl::StrCat(game_id, "-move-", i), &appended);
    if (!status.ok()) {
      ADD_FAILURE() << game_id << ": " << to_act.actions(0).label() << ": "
                    << status.error_message();
      return false;
    }
  }
  ADD_FAILURE() << game_id << " did not end in 5000 moves";
  return false;
}

void ServerTest::RecomputeChain(pqxx::work& txn, const std::string& game_id) {
  std::string prev = store::GenesisHash();
  int64_t last = 0;
  for (const pqxx::row& row : txn.exec_params(
           "SELECT sequence, coalesce(event_id, arbiter_derived_event_id(game_id, sequence)), "
           "type, payload FROM events WHERE game_id = $1 "
           "ORDER BY sequence",
           game_id)) {
    const int64_t sequence = row[0].as<int64_t>();
    const std::string payload = pqxx::binarystring(row[3]).str();
    const std::string hash = store::EventHash(prev, sequence, game_id, row[1].as<std::string>(),
                                              row[2].as<std::string>(), payload);
    txn.exec_params0(
        "UPDATE events SET hash = decode($1, 'hex') WHERE game_id = $2 AND sequence = $3", hash,
        game_id, sequence);
    prev = hash;
    last = sequence;
  }
  txn.exec_params0("UPDATE games SET last_hash = $1, last_sequence = $2 WHERE game_id = $3", prev,
                   last, game_id);
  // The batch that holds the game's last events ends where the game now
  // does (events may have been deleted), so the store reads every event.
  txn.exec_params0(
      "UPDATE append_requests SET last_sequence = $1, last_hash = $2 WHERE game_id = $3 AND "
      "first_sequence = (SELECT max(first_sequence) FROM append_requests WHERE game_id = $3)",
      last, prev, game_id);
}

void ServerTest::AsSuperuser(const std::function<void(pqxx::work&)>& attack) {
  pqxx::connection conn(conninfo_);
  pqxx::work txn(conn);
  txn.exec0("SET session_replication_role = replica");
  attack(txn);
  txn.commit();
}

std::vector<GameCase> EveryGameAtEveryPlayerCount() {
  static const engine::RulesetRegistry* const registry =
      new engine::RulesetRegistry(*engine::RulesetRegistry::WithBuiltins());
  std::vector<GameCase> out;
  for (const engine::Game* game : engine::AllGames()) {
    const v1::Ruleset& ruleset = registry->DefaultFor(game->name())->ruleset;
    for (int n = game->MinPlayers(ruleset); n <= game->MaxPlayers(ruleset); ++n) {
      out.push_back({std::string(game->name()), n});
    }
  }
  return out;
}

std::string GameCaseName(const ::testing::TestParamInfo<GameCase>& info) {
  std::string name = absl::StrCat(info.param.type, "_", info.param.players);
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

}  // namespace arbiter::server::testing
