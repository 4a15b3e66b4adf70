// Every game RPC end to end: submit, create and append, commit-reveal, the
// readers (get, list, events, adjudicate, state, verify) and retries.
#include <pqxx/pqxx>

#include "absl/strings/str_cat.h"
#include "engine/core/seed_derivation.h"
#include "engine/core/sha256.h"
#include "engine/core/violation.h"
#include "services/replay/replay.h"
#include "tests/integration/server_fixture.h"

namespace arbiter::server::testing {
namespace {

using ::testing::SizeIs;

constexpr char kNonce[] = "00112233445566778899aabbccddeeff";

// The commitment of a sealed game (v2: bound to the game id).
std::string CommitmentTo(const std::string& game_id, uint64_t seed) {
  return engine::Sha256Hex(absl::StrCat("arbiter-seed-v2:", game_id, ":", seed, ":", kNonce));
}

TEST_F(ServerTest, SubmitGameStoresALegalLogAndAnswersItsStandings) {
  const log::GameLog log = Simulated(11);
  v1::SubmitGameResponse response;
  grpc::Status status = Submit(admin_, log::FormatLog(log), "legal-1", &response);
  ASSERT_TRUE(status.ok()) << status.error_message();

  EXPECT_EQ(response.game().name(), "games/legal-1");
  EXPECT_EQ(response.game().status(), v1::GAME_STATUS_FINISHED);
  // The header, every action, and the game's result.
  EXPECT_EQ(response.game().last_event(), static_cast<int64_t>(log.actions.size()) + 2);
  EXPECT_EQ(response.adjudication().verdict(), v1::VERDICT_LEGAL);
  // The standings are the engine's, as a local replay computes them.
  auto referee = replay::Replay(log, *engine::RulesetRegistry::WithBuiltins());
  ASSERT_TRUE(referee.ok());
  const v1::ReplayReport local = replay::MakeReport(*referee);
  ASSERT_THAT(response.adjudication().standings().players(), SizeIs(local.standings_size()));
  for (int i = 0; i < local.standings_size(); ++i) {
    EXPECT_EQ(response.adjudication().standings().players(i).score(), local.standings(i).score());
    EXPECT_EQ(response.adjudication().standings().players(i).place(), local.standings(i).place());
    EXPECT_EQ(response.adjudication().standings().players(i).player(),
              local.standings(i).player());
  }
}

TEST_F(ServerTest, SubmitGameKeepsAnIllegalLogAsEvidenceAndNamesTheRule) {
  const log::GameLog log = WithActionOutOfTurn(Simulated(12), 4);
  v1::SubmitGameResponse response;
  ASSERT_TRUE(Submit(admin_, log::FormatLog(log), "illegal-1", &response).ok());

  EXPECT_EQ(response.adjudication().verdict(), v1::VERDICT_ILLEGAL);
  EXPECT_EQ(response.adjudication().violation().event(), 6);  // line 6: actions[4]
  EXPECT_EQ(response.adjudication().violation().rule(), engine::kRuleNotYourTurn);
  // Every line is stored, including those after the illegal one.
  // Every line is stored, and then the result (a game_finished event).
  EXPECT_EQ(Get("illegal-1").last_event(), static_cast<int64_t>(log.actions.size()) + 2);
  EXPECT_EQ(Get("illegal-1").status(), v1::GAME_STATUS_FINISHED);

  v1::AdjudicateGameRequest adjudicate;
  adjudicate.set_name("games/illegal-1");
  v1::Adjudication adjudication;
  ASSERT_TRUE(stub_->AdjudicateGame(As(admin_).get(), adjudicate, &adjudication).ok());
  EXPECT_EQ(adjudication.violation().rule(), engine::kRuleNotYourTurn);
  EXPECT_EQ(adjudication.violation().event(), 6);
  // The offending action in words, from the position before it; the same
  // words in the submitter's answer and for its event in ListEvents, and no
  // words for the lines after it (no position follows a violation).
  const std::string words = "Player 1 (p1) moves figure 1 with RING, paying 2 cards (AMPHORA, STATUE)";
  EXPECT_EQ(adjudication.violation().action_text(), words);
  EXPECT_EQ(response.adjudication().violation().action_text(), words);
  v1::ListEventsRequest list;
  list.set_parent("games/illegal-1");
  v1::ListEventsResponse events;
  ASSERT_TRUE(stub_->ListEvents(As(admin_).get(), list, &events).ok());
  ASSERT_GT(events.events_size(), 7);
  EXPECT_EQ(events.events(4).text(), "Player 1 (p1) moves figure 2 from Atlantis to 4 with HELMET");
  EXPECT_EQ(events.events(5).text(), words);
  EXPECT_TRUE(events.events(6).has_action());
  EXPECT_EQ(events.events(6).text(), "");
  EXPECT_EQ(events.events(events.events_size() - 1).text(), "the game is finished: a rule was broken");
}

TEST_F(ServerTest, SubmitGameRetriedWithTheSameRequestIdStoresOnce) {
  const std::string text = log::FormatLog(Simulated(13));
  v1::SubmitGameResponse first;
  v1::SubmitGameResponse second;
  ASSERT_TRUE(Submit(admin_, text, "", &first, "same-request").ok());
  ASSERT_TRUE(Submit(admin_, text, "", &second, "same-request").ok());
  EXPECT_EQ(first.game().name(), second.game().name());
  EXPECT_EQ(first.game().last_event_hash(), second.game().last_event_hash());
  EXPECT_EQ(StoredGames(), 1);
}

TEST_F(ServerTest, LivePlayIsCheckedActionByActionAndFinishesTheGame) {
  const log::GameLog log = Simulated(14);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "live-1", &game).ok());
  EXPECT_EQ(game.last_event(), 1);
  EXPECT_EQ(game.status(), v1::GAME_STATUS_ACTIVE);
  int64_t last = 1;
  v1::AppendActionsResponse response;
  for (std::size_t i = 0; i < log.actions.size(); ++i) {
    grpc::Status status =
        Append(admin_, "live-1", last, {log.actions[i]}, absl::StrCat("a", i), &response);
    ASSERT_TRUE(status.ok()) << i << ": " << status.error_message();
    EXPECT_EQ(response.first_event(), last + 1);
    last = response.last_event();
  }
  EXPECT_EQ(response.status(), v1::GAME_STATUS_FINISHED);
  EXPECT_EQ(response.verdict(), v1::VERDICT_LEGAL);
  EXPECT_GT(response.standings().players_size(), 0);
  EXPECT_EQ(Get("live-1").status(), v1::GAME_STATUS_FINISHED);

  // A finished game takes no more actions.
  grpc::Status more = Append(admin_, "live-1", last, {log.actions[0]}, "after-end", &response);
  EXPECT_EQ(more.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
}

TEST_F(ServerTest, AppendActionsRefusesAnIllegalActionAndStoresNothing) {
  const log::GameLog log = Simulated(15);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "live-2", &game).ok());
  v1::AppendActionsResponse response;
  ASSERT_TRUE(Append(admin_, "live-2", 1, {log.actions[0]}, "ok-1", &response).ok());
  const log::GameLog bad = WithActionOutOfTurn(log, 1);

  grpc::Status status = Append(admin_, "live-2", 2, {bad.actions[1]}, "bad-1", &response);
  ASSERT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  const google::rpc::ErrorInfo info = ErrorInfoOf(status);
  EXPECT_EQ(info.reason(), "ILLEGAL_ACTION");
  EXPECT_EQ(info.domain(), "arbiter.v1");
  EXPECT_EQ(info.metadata().at("rule"), engine::kRuleNotYourTurn);
  EXPECT_EQ(info.metadata().at("event"), "3");
  const google::rpc::BadRequest bad_request = BadRequestOf(status);
  ASSERT_EQ(bad_request.field_violations_size(), 1);
  EXPECT_EQ(bad_request.field_violations(0).field(), "actions[0]");
  EXPECT_EQ(Get("live-2").last_event(), 2);

  // The legal action is still accepted at the same place.
  EXPECT_TRUE(Append(admin_, "live-2", 2, {log.actions[1]}, "ok-2", &response).ok());
}

TEST_F(ServerTest, AppendActionsWithAStaleExpectedEventIsAborted) {
  const log::GameLog log = Simulated(16);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "live-3", &game).ok());
  v1::AppendActionsResponse response;
  ASSERT_TRUE(Append(admin_, "live-3", 1, {log.actions[0]}, "r1", &response).ok());
  grpc::Status stale = Append(admin_, "live-3", 1, {log.actions[1]}, "r2", &response);
  EXPECT_EQ(stale.error_code(), grpc::StatusCode::ABORTED);
  EXPECT_EQ(ErrorInfoOf(stale).reason(), "STALE_EXPECTED_EVENT");
  EXPECT_EQ(Get("live-3").last_event(), 2);
}

TEST_F(ServerTest, AppendActionsRetriedWithTheSameRequestIdAnswersTheFirstAnswer) {
  const log::GameLog log = Simulated(17);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "live-4", &game).ok());
  v1::AppendActionsResponse first;
  v1::AppendActionsResponse again;
  ASSERT_TRUE(Append(admin_, "live-4", 1, {log.actions[0], log.actions[1]}, "r", &first).ok());
  grpc::Status retried = Append(admin_, "live-4", 1, {log.actions[0], log.actions[1]}, "r", &again);
  ASSERT_TRUE(retried.ok()) << retried.error_message();
  EXPECT_EQ(again.first_event(), first.first_event());
  EXPECT_EQ(again.last_event(), first.last_event());
  EXPECT_EQ(again.last_event_hash(), first.last_event_hash());
  EXPECT_EQ(again.verdict(), first.verdict());
  EXPECT_EQ(again.verdict(), v1::VERDICT_UNFINISHED);
  EXPECT_EQ(again.status(), v1::GAME_STATUS_ACTIVE);
  EXPECT_EQ(Get("live-4").last_event(), 3);
  // The same request id with other content is refused.
  grpc::Status reused = Append(admin_, "live-4", 1, {log.actions[0]}, "r", &again);
  EXPECT_EQ(reused.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(ServerTest, AppendActionsThatEndedTheGameRetriedAnswersTheVerdictAndStandingsAgain) {
  const log::GameLog log = Simulated(18);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "live-5", &game).ok());
  std::vector<v1::Action> all(log.actions.begin(), log.actions.end());
  v1::AppendActionsResponse first;
  ASSERT_TRUE(Append(admin_, "live-5", 1, all, "whole", &first).ok());
  ASSERT_EQ(first.status(), v1::GAME_STATUS_FINISHED);
  ASSERT_TRUE(first.has_standings());
  v1::AppendActionsResponse again;
  grpc::Status retried = Append(admin_, "live-5", 1, all, "whole", &again);
  ASSERT_TRUE(retried.ok()) << retried.error_message();
  EXPECT_EQ(again.status(), v1::GAME_STATUS_FINISHED);
  EXPECT_EQ(again.verdict(), first.verdict());
  EXPECT_EQ(again.standings().SerializeAsString(), first.standings().SerializeAsString());
  EXPECT_EQ(again.last_event(), first.last_event());
  EXPECT_EQ(again.last_event_hash(), first.last_event_hash());
  EXPECT_EQ(Get("live-5").last_event(), first.last_event() + 1);  // one result
}

TEST_F(ServerTest, TheAppendThatEndsAGameStoresItsActionsAndResultTogetherOrNeither) {
  const log::GameLog log = Simulated(19);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "atomic-end", &game).ok());
  std::vector<v1::Action> all(log.actions.begin(), log.actions.end());
  const std::vector<v1::Action> last_two(all.end() - 2, all.end());
  all.resize(all.size() - 2);
  v1::AppendActionsResponse response;
  ASSERT_TRUE(Append(admin_, "atomic-end", 1, all, "most", &response).ok());
  const int64_t before = response.last_event();
  ASSERT_EQ(response.status(), v1::GAME_STATUS_ACTIVE);

  // PostgreSQL refuses every result event: the final append must fail whole.
  pqxx::connection conn(conninfo_);
  {
    pqxx::nontransaction txn(conn);
    txn.exec(
        "CREATE FUNCTION refuse_results() RETURNS trigger LANGUAGE plpgsql AS "
        "$$ BEGIN RAISE EXCEPTION 'no results today'; END $$");
    txn.exec(
        "CREATE TRIGGER refuse_results BEFORE INSERT ON events FOR EACH ROW "
        "WHEN (NEW.type = 'game_finished') EXECUTE FUNCTION refuse_results()");
  }
  grpc::Status refused = Append(admin_, "atomic-end", before, last_two, "end", &response);
  EXPECT_FALSE(refused.ok());
  EXPECT_EQ(Get("atomic-end").last_event(), before);  // not the actions either
  EXPECT_EQ(Get("atomic-end").status(), v1::GAME_STATUS_ACTIVE);
  {
    pqxx::nontransaction txn(conn);
    txn.exec("DROP TRIGGER refuse_results ON events");
    txn.exec("DROP FUNCTION refuse_results()");
  }

  // The retry stores both, in one batch: one position for the actions and
  // the result, and the result listed once.
  v1::AppendActionsResponse ended;
  grpc::Status status = Append(admin_, "atomic-end", before, last_two, "end", &ended);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(ended.status(), v1::GAME_STATUS_FINISHED);
  EXPECT_EQ(ended.first_event(), before + 1);
  EXPECT_EQ(ended.last_event(), before + 2);  // the last action
  const v1::Game now = Get("atomic-end");
  EXPECT_EQ(now.status(), v1::GAME_STATUS_FINISHED);
  EXPECT_EQ(now.last_event(), before + 3);  // the result after it
  pqxx::nontransaction txn(conn);
  const pqxx::row batch = txn.exec1(
      "SELECT count(DISTINCT request_id), min(type), max(type), count(*) FROM events e "
      "JOIN append_requests r ON r.game_id = e.game_id AND e.sequence BETWEEN r.first_sequence "
      "AND r.last_sequence WHERE e.game_id = 'atomic-end' AND e.sequence > " +
      std::to_string(before));
  EXPECT_EQ(batch[0].as<int>(), 1);
  EXPECT_EQ(batch[1].as<std::string>(), "action");
  EXPECT_EQ(batch[2].as<std::string>(), "game_finished");
  EXPECT_EQ(batch[3].as<int>(), 3);
  EXPECT_EQ(txn.exec1("SELECT count(*) FROM game_results WHERE game_id = 'atomic-end'")[0]
                .as<int>(),
            1);
  // The answer names the last action and its hash.
  v1::ListEventsRequest list;
  list.set_parent("games/atomic-end");
  list.set_page_size(1000);
  v1::ListEventsResponse events;
  ASSERT_TRUE(stub_->ListEvents(As(admin_).get(), list, &events).ok());
  ASSERT_EQ(events.events_size(), before + 3);
  EXPECT_EQ(events.events(static_cast<int>(before + 1)).hash(), ended.last_event_hash());
}

TEST_F(ServerTest, TournamentTablesMayBeStoredWithoutJsonCopies) {
  ServerOptions options;
  options.listen = "127.0.0.1:0";
  options.limits.json_copy_for_tournament_games = false;
  std::unique_ptr<ArbiterServer> lean = StartServer(options);
  auto stub = StubFor(*lean);
  const log::GameLog log = Simulated(21);
  auto play = [&](const std::string& game_id, const std::string& tournament) {
    v1::CreateGameRequest create;
    create.set_request_id(absl::StrCat("create-", game_id));
    create.set_game_id(game_id);
    v1::Game& game = *create.mutable_game();
    game.set_game_type(log.header.game());
    *game.mutable_players() = log.header.players();
    game.set_seed(log.header.seed());
    game.set_tournament(tournament);
    v1::Game created;
    ASSERT_TRUE(stub->CreateGame(As(admin_).get(), create, &created).ok());
    v1::AppendActionsRequest append;
    append.set_game(absl::StrCat("games/", game_id));
    append.set_request_id("all");
    append.set_expected_last_event(1);
    for (const v1::Action& action : log.actions) *append.add_actions() = action;
    v1::AppendActionsResponse first;
    ASSERT_TRUE(stub->AppendActions(As(admin_).get(), append, &first).ok());
    ASSERT_EQ(first.status(), v1::GAME_STATUS_FINISHED);
    // Retried, the same request (and so the same copies or none).
    v1::AppendActionsResponse again;
    grpc::Status retried = stub->AppendActions(As(admin_).get(), append, &again);
    ASSERT_TRUE(retried.ok()) << retried.error_message();
    EXPECT_EQ(again.last_event_hash(), first.last_event_hash());
  };
  play("table-game", "cup");
  play("casual-game", "");
  const auto table = *events_->ReadGameEvents("table-game", 1, 1000);
  const auto casual = *events_->ReadGameEvents("casual-game", 1, 1000);
  ASSERT_EQ(table.size(), log.actions.size() + 1);
  ASSERT_EQ(casual.size(), table.size());
  for (std::size_t i = 0; i < table.size(); ++i) {
    EXPECT_EQ(table[i].json, "") << i;
    EXPECT_NE(casual[i].json, "") << i;
    if (i + 1 < table.size()) {
      EXPECT_EQ(table[i].payload, casual[i].payload) << i;  // the record is the same
    }
  }
  EXPECT_TRUE(events_->VerifyGame("table-game").ok());
  lean->Shutdown(std::chrono::system_clock::now());
}

TEST_F(ServerTest, CreateGameRetriedReturnsTheGameAndAnotherRequestForItsIdIsAlreadyExists) {
  const log::GameLog log = Simulated(18);
  v1::Game first;
  v1::Game again;
  ASSERT_TRUE(Create(admin_, log, "dup", &first).ok());
  ASSERT_TRUE(Create(admin_, log, "dup", &again).ok());
  EXPECT_EQ(first.create_time().seconds(), again.create_time().seconds());
  v1::SubmitGameResponse response;
  EXPECT_EQ(Submit(admin_, log::FormatLog(log), "dup", &response).error_code(),
            grpc::StatusCode::ALREADY_EXISTS);
}

TEST_F(ServerTest, CommitRevealHidesTheSeedUntilItIsRevealedAndThenAdjudicates) {
  const uint64_t seed = 19;
  v1::Game game;
  ASSERT_TRUE(Create(admin_, Simulated(seed), "sealed", &game, CommitmentTo("sealed", seed)).ok());
  EXPECT_EQ(game.seed_commitment(), CommitmentTo("sealed", seed));
  EXPECT_FALSE(game.has_seed());
  ASSERT_EQ(game.server_random().size(), 32u);
  // The deal follows from the derived seed, which the organiser can compute
  // once it has event 1 (docs/chance.md).
  const log::GameLog log =
      Simulated(engine::DeriveSealedSeed("sealed", seed, game.server_random()));

  // Actions are kept as submitted (all of them, in one call).
  v1::AppendActionsResponse appended;
  ASSERT_TRUE(Append(admin_, "sealed", 1, log.actions, "all", &appended).ok());
  EXPECT_EQ(appended.verdict(), v1::VERDICT_UNSPECIFIED);

  v1::AdjudicateGameRequest adjudicate;
  adjudicate.set_name("games/sealed");
  v1::Adjudication adjudication;
  EXPECT_EQ(stub_->AdjudicateGame(As(admin_).get(), adjudicate, &adjudication).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  v1::GetGameStateRequest state_request;
  state_request.set_name("games/sealed");
  v1::GameState state;
  EXPECT_EQ(stub_->GetGameState(As(admin_).get(), state_request, &state).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);

  v1::RevealSeedRequest reveal;
  reveal.set_game("games/sealed");
  reveal.set_request_id("reveal-1");
  reveal.set_seed(seed + 1);
  reveal.set_nonce(kNonce);
  v1::RevealSeedResponse revealed;
  grpc::Status wrong = stub_->RevealSeed(As(admin_).get(), reveal, &revealed);
  EXPECT_EQ(wrong.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(ErrorInfoOf(wrong).reason(), "SEED_MISMATCH");
  EXPECT_EQ(Get("sealed").last_event(), appended.last_event());

  reveal.set_seed(seed);
  ASSERT_TRUE(stub_->RevealSeed(As(admin_).get(), reveal, &revealed).ok());
  EXPECT_EQ(revealed.adjudication().verdict(), v1::VERDICT_LEGAL);
  EXPECT_EQ(revealed.game().status(), v1::GAME_STATUS_FINISHED);
  // The reveal, then the result.
  EXPECT_EQ(revealed.game().last_event(), appended.last_event() + 2);
  v1::RevealSeedResponse again;
  ASSERT_TRUE(stub_->RevealSeed(As(admin_).get(), reveal, &again).ok());
  EXPECT_EQ(again.adjudication().verdict(), v1::VERDICT_LEGAL);
  EXPECT_EQ(Get("sealed").last_event(), appended.last_event() + 2);
  ASSERT_TRUE(stub_->AdjudicateGame(As(admin_).get(), adjudicate, &adjudication).ok());
  EXPECT_EQ(adjudication.verdict(), v1::VERDICT_LEGAL);
}

TEST_F(ServerTest, CommitRevealFindsAnIllegalActionOnlyAfterTheReveal) {
  const uint64_t seed = 20;
  v1::Game game;
  ASSERT_TRUE(
      Create(admin_, Simulated(seed), "sealed-2", &game, CommitmentTo("sealed-2", seed)).ok());
  const log::GameLog log = WithActionOutOfTurn(
      Simulated(engine::DeriveSealedSeed("sealed-2", seed, game.server_random())), 2);
  v1::AppendActionsResponse appended;
  ASSERT_TRUE(Append(admin_, "sealed-2", 1, log.actions, "all", &appended).ok());
  v1::RevealSeedRequest reveal;
  reveal.set_game("games/sealed-2");
  reveal.set_request_id("reveal");
  reveal.set_seed(seed);
  reveal.set_nonce(kNonce);
  v1::RevealSeedResponse revealed;
  ASSERT_TRUE(stub_->RevealSeed(As(admin_).get(), reveal, &revealed).ok());
  EXPECT_EQ(revealed.adjudication().verdict(), v1::VERDICT_ILLEGAL);
  EXPECT_EQ(revealed.adjudication().violation().event(), 4);
}

TEST_F(ServerTest, ReadersListEventsStatesAndGames) {
  const log::GameLog log = Simulated(21);
  v1::SubmitGameResponse response;
  ASSERT_TRUE(Submit(admin_, log::FormatLog(log), "read-1", &response).ok());
  ASSERT_TRUE(Submit(admin_, log::FormatLog(Simulated(22, 2)), "read-2", &response).ok());

  // Events page by page, in order, decoded.
  v1::ListEventsRequest events_request;
  events_request.set_parent("games/read-1");
  events_request.set_page_size(10);
  std::vector<v1::Event> events;
  do {
    v1::ListEventsResponse page;
    ASSERT_TRUE(stub_->ListEvents(As(admin_).get(), events_request, &page).ok());
    events.insert(events.end(), page.events().begin(), page.events().end());
    events_request.set_page_token(page.next_page_token());
  } while (!events_request.page_token().empty());
  ASSERT_EQ(events.size(), log.actions.size() + 2);
  EXPECT_EQ(events[0].type(), "game_created");
  // The last event is the result, with the verdict and the standings.
  EXPECT_EQ(events.back().type(), "game_finished");
  EXPECT_EQ(events.back().game_finished().verdict(), v1::VERDICT_LEGAL);
  EXPECT_EQ(events.back().game_finished().standings().players_size(),
            log.header.players_size());
  // A submitted log's result is stored with it, recorded by the submitter.
  EXPECT_EQ(events.back().recorder(), "root");
  EXPECT_EQ(events[0].game_created().header().seed(), log.header.seed());
  for (std::size_t i = 0; i < log.actions.size(); ++i) {
    EXPECT_EQ(events[i + 1].event(), static_cast<int64_t>(i) + 2);
    EXPECT_EQ(events[i + 1].action().SerializeAsString(), log.actions[i].SerializeAsString());
    EXPECT_EQ(events[i + 1].prev_hash(), events[i].hash());
  }
  // Each action in words from the position before it, page by page; the
  // other events in a sentence.
  const std::vector<std::string> words = ActionWords(log);
  for (std::size_t i = 0; i < log.actions.size(); ++i) {
    EXPECT_EQ(events[i + 1].text(), words[i]) << "event " << i + 2;
    EXPECT_EQ(events[i + 1].text().find('{'), std::string::npos) << events[i + 1].text();
  }
  EXPECT_EQ(events[1].text(), "Player 1 (p1) moves figure 1 from Atlantis to 1 with HELMET");
  EXPECT_EQ(events[5].text(), "Player 2 (p2) buys cards with the OLIVE 2 tile");
  EXPECT_EQ(events[0].text(), "the game of atlantis is created for Player 1 (p1), Player 2 (p2), Player 3 (p3)");
  EXPECT_EQ(events.back().text(), "the game is finished");

  // The state after event 1 is the opening position; after the last, the end.
  v1::GetGameStateRequest state_request;
  state_request.set_name("games/read-1");
  state_request.set_event(1);
  v1::GameState state;
  ASSERT_TRUE(stub_->GetGameState(As(admin_).get(), state_request, &state).ok());
  EXPECT_FALSE(state.terminal());
  EXPECT_EQ(state.players_to_act_size(), 1);
  EXPECT_FALSE(state.description().empty());
  state_request.set_event(0);
  ASSERT_TRUE(stub_->GetGameState(As(admin_).get(), state_request, &state).ok());
  EXPECT_TRUE(state.terminal());
  EXPECT_EQ(state.verdict(), v1::VERDICT_LEGAL);
  // The result (event actions + 2) shows the final position; nothing follows it.
  state_request.set_event(static_cast<int64_t>(log.actions.size()) + 2);
  ASSERT_TRUE(stub_->GetGameState(As(admin_).get(), state_request, &state).ok());
  EXPECT_TRUE(state.terminal());
  state_request.set_event(static_cast<int64_t>(log.actions.size()) + 3);
  EXPECT_EQ(stub_->GetGameState(As(admin_).get(), state_request, &state).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);

  // Listing with filters and pages.
  v1::ListGamesRequest list;
  list.set_page_size(1);
  v1::ListGamesResponse page;
  ASSERT_TRUE(stub_->ListGames(As(admin_).get(), list, &page).ok());
  ASSERT_EQ(page.games_size(), 1);
  EXPECT_EQ(page.games(0).name(), "games/read-1");
  ASSERT_FALSE(page.next_page_token().empty());
  list.set_page_token(page.next_page_token());
  ASSERT_TRUE(stub_->ListGames(As(admin_).get(), list, &page).ok());
  ASSERT_EQ(page.games_size(), 1);
  EXPECT_EQ(page.games(0).name(), "games/read-2");
  EXPECT_TRUE(page.next_page_token().empty());

  list.Clear();
  list.set_player("p3");  // only the three-player game has p3
  ASSERT_TRUE(stub_->ListGames(As(admin_).get(), list, &page).ok());
  ASSERT_EQ(page.games_size(), 1);
  EXPECT_EQ(page.games(0).name(), "games/read-1");
  list.Clear();
  list.set_status(v1::GAME_STATUS_ACTIVE);
  ASSERT_TRUE(stub_->ListGames(As(admin_).get(), list, &page).ok());
  EXPECT_EQ(page.games_size(), 0);
  list.Clear();
  list.set_game_type("atlantis");
  ASSERT_TRUE(stub_->ListGames(As(admin_).get(), list, &page).ok());
  EXPECT_EQ(page.games_size(), 2);
}

TEST_F(ServerTest, VerifyGameNamesTheFirstEventChangedBehindTheStoresBack) {
  const log::GameLog log = Simulated(23);
  v1::SubmitGameResponse response;
  ASSERT_TRUE(Submit(admin_, log::FormatLog(log), "audit-1", &response).ok());
  v1::VerifyGameRequest request;
  request.set_name("games/audit-1");
  v1::VerifyGameResponse report;
  ASSERT_TRUE(stub_->VerifyGame(As(admin_).get(), request, &report).ok());
  EXPECT_TRUE(report.intact());
  EXPECT_EQ(report.events(), static_cast<int64_t>(log.actions.size()) + 2);
  EXPECT_EQ(report.verdict(), v1::VERDICT_LEGAL);

  {
    pqxx::connection c(conninfo_);
    pqxx::work tx(c);
    tx.exec("ALTER TABLE events DISABLE TRIGGER USER");
    tx.exec("UPDATE events SET payload = payload || '\\x00'::bytea "
            "WHERE game_id = 'audit-1' AND sequence = 5");
    tx.exec("ALTER TABLE events ENABLE TRIGGER USER");
    tx.commit();
  }
  ASSERT_TRUE(stub_->VerifyGame(As(admin_).get(), request, &report).ok());
  EXPECT_FALSE(report.intact());
  EXPECT_EQ(report.first_bad_event(), 5);
  EXPECT_NE(report.problem().find("event 5"), std::string::npos) << report.problem();
}

}  // namespace
}  // namespace arbiter::server::testing
