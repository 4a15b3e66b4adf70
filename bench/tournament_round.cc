// Not a Google Benchmark program: the wall time of a whole tournament round
// through arbiterd, end to end (docs/benchmarks.md). A private PostgreSQL,
// a server with leagues and tournaments, a league rating the tournament's
// games, and a tournament of `--players` at tables of 4; then, timed phase by
// phase: StartRound (assignment and every table's game created), every
// table's log appended by `--clients` clients (each action checked, the
// game's result recorded), ConfirmResult for the whole round, GetStandings
// and the league projector catching up. With --deal-tables the tables are
// dealt by the server and the lot drawn (docs/tournaments.md): StartRound is
// timed, then closing every table's deal, and the program stops (simulated
// logs cannot follow a deal drawn at run time).
#include <grpcpp/grpcpp.h>
#include <pqxx/pqxx>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "arbiter/v1/tournament_service.grpc.pb.h"
#include "services/access/token_format.h"
#include "services/store/postgres_token_store.h"
#include "services/league/league_projector.h"
#include "services/league/projection_store.h"
#include "services/replay/simulate.h"
#include "services/access/permissions.h"
#include "services/server/server.h"
#include "services/store/embedded_postgres.h"
#include "services/store/migrations.h"
#include "services/store/postgres_event_store.h"
#include "services/store/postgres_stream_store.h"

namespace {

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::unique_ptr<grpc::ClientContext> As(const std::string& token) {
  auto context = std::make_unique<grpc::ClientContext>();
  context->AddMetadata("authorization", absl::StrCat("Bearer ", token));
  context->set_deadline(std::chrono::system_clock::now() + std::chrono::minutes(10));
  return context;
}

int Fail(const char* what, const grpc::Status& status) {
  std::fprintf(stderr, "%s: %s\n", what, status.error_message().c_str());
  return 1;
}

// Bytes per stored game event after the round: the events table with its
// indexes, and every table of the database together (leagues, tournaments,
// the transparency log and tokens included).
void PrintStoredBytes(const std::string& conninfo) {
  pqxx::connection conn(conninfo);
  pqxx::nontransaction txn(conn);
  txn.exec("CHECKPOINT");
  const pqxx::row sizes = txn.exec1(
      "SELECT (SELECT count(*) FROM events), pg_total_relation_size('events'), "
      "(SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c "
      " JOIN pg_namespace n ON n.oid = c.relnamespace "
      " WHERE n.nspname = 'public' AND c.relkind = 'r')");
  const double events = sizes[0].as<double>();
  std::printf("stored events %.0f: %.0f bytes each in events with its indexes, %.0f in all tables\n",
              events, sizes[1].as<double>() / events, sizes[2].as<double>() / events);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tournament_round: one whole round through arbiterd, timed phase by phase"};
  int players = 4000;
  int clients = 8;
  app.add_option("--players", players, "Players (tables of 4)");
  app.add_option("--clients", clients, "Clients appending the tables' logs");
  bool no_table_json = false;
  app.add_flag("--no-json-copy-for-tournament-tables", no_table_json,
               "As arbiterd's flag: the tables' events without their JSON copy");
  bool deal_tables = false;
  app.add_flag("--deal-tables", deal_tables,
               "Tables dealt by the server, the lot drawn: time StartRound and closing the deals");
  CLI11_PARSE(app, argc, argv);
  spdlog::set_level(spdlog::level::warn);
  using namespace arbiter;

  auto pg = store::EmbeddedPostgres::Start(store::EmbeddedPostgresOptions{});
  if (!pg.ok() || !store::ApplyMigrations((*pg)->conninfo()).ok()) {
    std::fprintf(stderr, "postgres did not start\n");
    return 1;
  }
  store::PostgresOptions options;
  options.conninfo = (*pg)->conninfo();
  auto events = *store::PostgresEventStore::Open(options);
  arbiter::store::PostgresTokenStore tokens(events->pool());
  store::PostgresStreamStore streams(events->pool());
  league::ProjectionStore projections(events->pool());
  league::LeagueProjector projector(*events, *events, streams, projections);
  server::LeagueParts parts{&streams, &projections, &projector};
  auto token = arbiter::access::GenerateToken();
  token->record.role = arbiter::store::Role::kAdmin;
  token->record.principal = "bench";
  token->record.created_by = "bench";
  if (!tokens.Insert(token->record).ok()) return 1;
  const std::string admin = token->token;
  static const engine::RulesetRegistry registry = *engine::RulesetRegistry::WithBuiltins();
  server::ServerOptions server_options;
  server_options.listen = "127.0.0.1:0";
  server_options.limits.json_copy_for_tournament_games = !no_table_json;
  auto server =
      *server::ArbiterServer::Start(server_options, *events, *events, tokens, registry, &parts);
  auto channel = grpc::CreateChannel(absl::StrCat("127.0.0.1:", server->port()),
                                     grpc::InsecureChannelCredentials());
  auto leagues = v1::LeagueService::NewStub(channel);
  auto tournaments = v1::TournamentService::NewStub(channel);
  auto games = v1::ArbiterService::NewStub(channel);

  v1::CreateLeagueRequest league;
  league.set_request_id("bench");
  league.set_league_id("bench");
  league.mutable_settings()->add_game_types("atlantis");
  v1::League league_out;
  grpc::Status status = leagues->CreateLeague(As(admin).get(), league, &league_out);
  if (!status.ok()) return Fail("CreateLeague", status);
  v1::CreateTournamentRequest create;
  create.set_request_id("bench");
  create.set_tournament_id("t");
  v1::TournamentSettings* s = create.mutable_settings();
  s->set_game_type("atlantis");
  s->set_seed(2026);
  s->set_rounds(1);
  s->add_table_sizes(4);
  s->set_preferred_table_size(4);
  for (int p : {4, 2, 1, 0}) s->add_place_points(p);
  s->add_tie_breaks("game_points");
  s->set_league("bench");
  s->set_deal_tables(deal_tables);
  s->set_draw_lot(deal_tables);
  // Registered 2,000 to an event: a stream event holds at most 64 KiB.
  constexpr int kPerEvent = 2000;
  for (int i = 0; i < std::min(players, kPerEvent); ++i) create.add_players(absl::StrCat("p", i));
  v1::Tournament tournament;
  status = tournaments->CreateTournament(As(admin).get(), create, &tournament);
  if (!status.ok()) return Fail("CreateTournament", status);
  for (int first = kPerEvent; first < players; first += kPerEvent) {
    v1::RegisterPlayersRequest add;
    add.set_name("tournaments/t");
    add.set_request_id(absl::StrCat("register-", first));
    for (int i = first; i < std::min(players, first + kPerEvent); ++i) {
      add.add_players(absl::StrCat("p", i));
    }
    status = tournaments->RegisterPlayers(As(admin).get(), add, &tournament);
    if (!status.ok()) return Fail("RegisterPlayers", status);
  }
  std::printf("%d players at tables of 4, %d clients%s\n", players, clients,
              no_table_json ? ", no JSON copies" : "");

  auto start = Clock::now();
  v1::StartRoundRequest begin;
  begin.set_name("tournaments/t");
  begin.set_request_id("r1");
  begin.set_round(1);
  v1::TournamentRound round;
  status = tournaments->StartRound(As(admin).get(), begin, &round);
  if (!status.ok()) return Fail("StartRound", status);
  const double start_s = Since(start);
  if (deal_tables) {
    start = Clock::now();
    for (const v1::TournamentTable& table : round.tables()) {
      v1::CloseDealRequest close;
      close.set_game(table.game());
      close.set_request_id(absl::StrCat("close-", table.number()));
      v1::Game closed;
      status = games->CloseDeal(As(admin).get(), close, &closed);
      if (!status.ok()) return Fail("CloseDeal", status);
    }
    std::printf("tables %d, dealt by the server, lot drawn\n", round.tables_size());
    std::printf("StartRound (assign + create games)  %8.3f s\n", start_s);
    std::printf("CloseDeal, every table, one client  %8.3f s\n", Since(start));
    return 0;
  }

  // The tables' games, simulated on their seeds (not timed).
  std::vector<v1::AppendActionsRequest> appends;
  size_t actions = 0;
  for (const v1::TournamentTable& table : round.tables()) {
    replay::SimulationRequest sim{"atlantis", table.players_size(), table.seed()};
    auto log = replay::SimulateGame(sim, registry);
    if (!log.ok()) return 1;
    std::map<std::string, std::string> seat;
    for (int i = 0; i < log->header.players_size(); ++i) {
      seat[log->header.players(i).id()] = table.players(i);
    }
    v1::AppendActionsRequest& append = appends.emplace_back();
    append.set_game(table.game());
    append.set_request_id(absl::StrCat("play-", table.number()));
    append.set_expected_last_event(1);
    for (v1::Action action : log->actions) {
      action.set_player(seat.at(action.player()));
      *append.add_actions() = std::move(action);
    }
    actions += log->actions.size();
  }

  start = Clock::now();
  std::atomic<size_t> next{0};
  std::atomic<int> errors{0};
  std::vector<std::thread> threads;
  for (int c = 0; c < clients; ++c) {
    threads.emplace_back([&] {
      auto stub = v1::ArbiterService::NewStub(channel);
      for (size_t i = next++; i < appends.size(); i = next++) {
        v1::AppendActionsResponse response;
        if (!stub->AppendActions(As(admin).get(), appends[i], &response).ok() ||
            response.status() != v1::GAME_STATUS_FINISHED) {
          ++errors;
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  const double play_s = Since(start);

  start = Clock::now();
  v1::ConfirmResultRequest confirm;
  confirm.set_name("tournaments/t");
  confirm.set_request_id("confirm-all");
  confirm.set_round(1);
  v1::TournamentRound confirmed;
  status = tournaments->ConfirmResult(As(admin).get(), confirm, &confirmed);
  if (!status.ok()) return Fail("ConfirmResult", status);
  const double confirm_s = Since(start);

  start = Clock::now();
  v1::GetStandingsRequest get;
  get.set_name("tournaments/t");
  v1::TournamentStandings standings;
  status = tournaments->GetStandings(As(admin).get(), get, &standings);
  if (!status.ok()) return Fail("GetStandings", status);
  const double standings_s = Since(start);

  start = Clock::now();
  if (!projector.CatchUp().ok()) return 1;
  const double league_s = Since(start);

  std::printf("tables %d, actions %zu, append errors %d, round closed %s, standings rows %d\n",
              round.tables_size(), actions, errors.load(), confirmed.closed() ? "yes" : "no",
              standings.rows_size());
  std::printf("StartRound (assign + create games)  %8.3f s\n", start_s);
  std::printf("append every table's log            %8.3f s\n", play_s);
  std::printf("ConfirmResult (whole round)         %8.3f s\n", confirm_s);
  std::printf("GetStandings                        %8.3f s\n", standings_s);
  std::printf("league projector catch-up           %8.3f s\n", league_s);
  std::printf("total                               %8.3f s\n",
              start_s + play_s + confirm_s + standings_s + league_s);
  PrintStoredBytes((*pg)->conninfo());
  server->Shutdown(std::chrono::system_clock::now());
  return 0;
}
