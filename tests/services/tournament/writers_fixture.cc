#include "tests/services/tournament/writers_fixture.h"

#include <map>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "services/replay/simulate.h"
#include "services/store/memory_event_store.h"
#include "services/store/postgres_stream_store.h"
#include "services/tournament/tournament_log.h"
#include "services/tournament/tournament_views.h"
#include "tests/services/store/postgres_test_env.h"

namespace arbiter::tournament::testing {
namespace {

const engine::RulesetRegistry& Registry() {
  static const engine::RulesetRegistry* const registry =
      new engine::RulesetRegistry(*engine::RulesetRegistry::WithBuiltins());
  return *registry;
}

}  // namespace

void FlakyStreamStore::FailNextAppend(const std::string& prefix, Loss loss, int skip) {
  absl::MutexLock lock(&mu_);
  prefix_ = prefix;
  loss_ = loss;
  skip_ = skip;
  armed_ = true;
  failed_ = false;
}

bool FlakyStreamStore::Failed() {
  absl::MutexLock lock(&mu_);
  return failed_;
}

absl::StatusOr<store::StreamEvent> FlakyStreamStore::Append(
    const store::StreamAppendRequest& request) {
  bool fail = false;
  Loss loss = Loss::kBeforeWrite;
  {
    absl::MutexLock lock(&mu_);
    if (armed_ && absl::StartsWith(request.stream_id, prefix_) && skip_-- == 0) {
      armed_ = false;
      failed_ = true;
      fail = true;
      loss = loss_;
    }
  }
  if (!fail) return inner_.Append(request);
  if (loss == Loss::kAfterWrite) {
    absl::StatusOr<store::StreamEvent> written = inner_.Append(request);
    if (!written.ok()) return written.status();
  }
  return absl::UnavailableError(
      absl::StrCat("the connection was lost ", loss == Loss::kBeforeWrite ? "before" : "after",
                   " appending to ", request.stream_id));
}

std::string BackendName(const ::testing::TestParamInfo<Backend>& info) {
  return info.param == Backend::kMemory ? "Memory" : "Postgres";
}

void PrintTo(Backend backend, std::ostream* os) {
  *os << (backend == Backend::kMemory ? "Memory" : "Postgres");
}

access::Caller Admin() {
  access::Caller caller;
  caller.principal = "admin";
  caller.role = store::Role::kAdmin;
  return caller;
}

access::Caller Organiser(const std::string& principal, std::vector<std::string> tournaments) {
  access::Caller caller;
  caller.principal = principal;
  caller.role = store::Role::kOrganiser;
  caller.tournaments = std::move(tournaments);
  return caller;
}

access::Caller Player(const std::string& player) {
  access::Caller caller;
  caller.principal = player;
  caller.role = store::Role::kPublic;
  return caller;
}

std::vector<std::string> Names(int n) {
  std::vector<std::string> out;
  for (int i = 1; i <= n; ++i) out.push_back(absl::StrCat("p", i));
  return out;
}

v1::TournamentSettings Settings(int rounds) {
  v1::TournamentSettings s;
  s.set_game_type("atlantis");
  s.set_seed(7);
  s.set_rounds(rounds);
  s.add_table_sizes(3);
  s.add_table_sizes(4);
  s.set_preferred_table_size(4);
  for (int p : {4, 2, 1, 0}) s.add_place_points(p);
  for (const char* t : {"game_points", "wins", "strength_of_schedule", "head_to_head"}) {
    s.add_tie_breaks(t);
  }
  return s;
}

Arena::Arena(Backend backend) {
  if (backend == Backend::kMemory) {
    auto memory = std::make_unique<store::MemoryEventStore>();
    results_ = memory.get();
    events_ = std::move(memory);
    streams_ = std::make_unique<store::MemoryStreamStore>();
  } else {
    std::unique_ptr<store::PostgresEventStore> pool = store::testing::FreshPostgresStore();
    streams_ = std::make_unique<store::PostgresStreamStore>(pool->pool());
    results_ = pool.get();
    events_ = std::move(pool);
  }
  flaky_ = std::make_unique<FlakyStreamStore>(*streams_);
  games_ = std::make_unique<games::GameWriter>(*events_, Registry(), games::WriteLimits{});
  tournaments_ = std::make_unique<TournamentWriter>(*flaky_, *events_, *results_, *games_);
  editor_ = std::make_unique<TournamentEditor>(*flaky_, *results_, *games_);
  score_sheets_ = std::make_unique<ScoreSheetWriter>(*flaky_, *results_, *games_);
  disputes_ = std::make_unique<DisputeWriter>(*flaky_, *events_, *results_, *games_,
                                              Registry());
}

v1::Tournament Arena::Create(const std::string& id, const v1::TournamentSettings& settings,
                             const std::vector<std::string>& players,
                             const access::Caller& caller) {
  v1::CreateTournamentRequest request;
  request.set_request_id(absl::StrCat("create-", id));
  request.set_tournament_id(id);
  *request.mutable_settings() = settings;
  for (const std::string& p : players) request.add_players(p);
  absl::StatusOr<v1::Tournament> created = tournaments_->CreateTournament(caller, request);
  EXPECT_TRUE(created.ok()) << created.status();
  return created.ok() ? *created : v1::Tournament();
}

v1::TournamentRound Arena::Start(const std::string& id, int round, const access::Caller& caller) {
  v1::StartRoundRequest request;
  request.set_name(absl::StrCat("tournaments/", id));
  request.set_request_id(absl::StrCat("start-", id, "-", round));
  request.set_round(round);
  absl::StatusOr<v1::TournamentRound> started = tournaments_->StartRound(caller, request);
  EXPECT_TRUE(started.ok()) << started.status();
  return started.ok() ? *started : v1::TournamentRound();
}

void Arena::Play(const v1::TournamentTable& table) {
  replay::SimulationRequest simulation;
  simulation.game = "atlantis";
  simulation.players = table.players_size();
  simulation.seed = table.seed();
  absl::StatusOr<log::GameLog> log = replay::SimulateGame(simulation, Registry());
  ASSERT_TRUE(log.ok()) << log.status();
  std::map<std::string, std::string> rename;
  for (int i = 0; i < log->header.players_size(); ++i) {
    rename[log->header.players(i).id()] = table.players(i);
  }
  v1::AppendActionsRequest request;
  request.set_game(table.game());
  request.set_request_id(absl::StrCat("play-", table.game()));
  request.set_expected_last_event(1);
  for (v1::Action action : log->actions) {
    action.set_player(rename.at(action.player()));
    *request.add_actions() = std::move(action);
  }
  absl::StatusOr<v1::AppendActionsResponse> played =
      games_->Append(Admin(), request, [] { return absl::OkStatus(); });
  ASSERT_TRUE(played.ok()) << played.status();
  ASSERT_EQ(played->status(), v1::GAME_STATUS_FINISHED);
}

v1::TournamentRound Arena::Confirm(const std::string& id, int round, int table,
                                   const access::Caller& caller) {
  v1::ConfirmResultRequest request;
  request.set_name(absl::StrCat("tournaments/", id));
  request.set_request_id(absl::StrCat("confirm-", id, "-", round, "-", table));
  request.set_round(round);
  request.set_table(table);
  absl::StatusOr<v1::TournamentRound> confirmed = tournaments_->ConfirmResult(caller, request);
  EXPECT_TRUE(confirmed.ok()) << confirmed.status();
  return confirmed.ok() ? *confirmed : v1::TournamentRound();
}

v1::TournamentRound Arena::PlayRound(const std::string& id, int round,
                                     const access::Caller& caller) {
  const v1::TournamentRound started = Start(id, round, caller);
  v1::TournamentRound last;
  for (const v1::TournamentTable& table : started.tables()) {
    Play(table);
    last = Confirm(id, round, table.number(), caller);
  }
  return last;
}

v1::Dispute Arena::Open(const std::string& dispute, const std::string& id, int round, int table,
                        const access::Caller& caller) {
  v1::OpenDisputeRequest request;
  request.set_request_id(absl::StrCat("open-", dispute));
  request.set_dispute_id(dispute);
  request.set_tournament(absl::StrCat("tournaments/", id));
  request.set_round(round);
  request.set_table(table);
  request.set_event(2);
  request.set_reason("the first move was made before the table was ready");
  absl::StatusOr<v1::Dispute> opened =
      disputes_->OpenDispute(caller, request, [] { return absl::OkStatus(); });
  EXPECT_TRUE(opened.ok()) << opened.status();
  return opened.ok() ? *opened : v1::Dispute();
}

v1::TournamentStandings Arena::Standings(const std::string& id) {
  absl::StatusOr<TournamentLog> log = ReadTournament(*flaky_, id);
  EXPECT_TRUE(log.ok()) << log.status();
  if (!log.ok()) return {};
  absl::StatusOr<v1::TournamentStandings> standings = ReadStandingsView(*results_, *log, 0);
  EXPECT_TRUE(standings.ok()) << standings.status();
  return standings.ok() ? *standings : v1::TournamentStandings();
}

v1::TournamentRound Arena::Round(const std::string& id, int round) {
  absl::StatusOr<TournamentLog> log = ReadTournament(*flaky_, id);
  EXPECT_TRUE(log.ok()) << log.status();
  if (!log.ok()) return {};
  absl::StatusOr<v1::TournamentRound> view = ReadRoundView(*results_, *log, round, SeedSight::kAll);
  EXPECT_TRUE(view.ok()) << view.status();
  return view.ok() ? *view : v1::TournamentRound();
}

std::vector<store::StreamEvent> Arena::StreamEvents(const std::string& stream_id) {
  absl::StatusOr<std::vector<store::StreamEvent>> events = flaky_->ReadStream(stream_id, 0, 10'000);
  EXPECT_TRUE(events.ok()) << events.status();
  return events.ok() ? *events : std::vector<store::StreamEvent>();
}

std::vector<store::StoredEvent> Arena::GameEvents(const std::string& game_id) {
  absl::StatusOr<std::vector<store::StoredEvent>> events =
      events_->ReadGameEvents(game_id, 0, 10'000);
  EXPECT_TRUE(events.ok()) << events.status();
  return events.ok() ? *events : std::vector<store::StoredEvent>();
}

v1::RuleDisputeRequest RuleRequest(const std::string& dispute, v1::RulingKind kind,
                                   std::vector<int> places, std::vector<int64_t> game_points) {
  v1::RuleDisputeRequest request;
  request.set_name(absl::StrCat("disputes/", dispute));
  request.set_request_id(absl::StrCat("rule-", dispute));
  request.set_kind(kind);
  request.set_reason("the arbiter watched the recording");
  for (int p : places) request.mutable_corrected()->add_places(p);
  for (int64_t g : game_points) request.mutable_corrected()->add_game_points(g);
  return request;
}

}  // namespace arbiter::tournament::testing
