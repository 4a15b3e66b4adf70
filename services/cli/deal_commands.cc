// `arbiter deal create|add|close`: games the server deals (docs/chance.md,
// "Dealt games"). `create` makes a live game whose seed nobody chooses;
// each player adds a value of its own with `add` (its player token); an
// organiser closes the deal without the seats still missing with `close`.
#include <grpcpp/grpcpp.h>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/core/sha256.h"
#include "services/cli/client_common.h"
#include "services/cli/commands.h"
#include "services/log/json_lines.h"

namespace arbiter::cli {
namespace {

struct DealOpts {
  ClientOptions client;
  std::string game;        // add, close: the game; create: the game type
  std::string game_id;     // create
  std::vector<std::string> players;  // create: ID or ID=NAME, in seat order
  std::vector<std::string> options;  // create: KEY=VALUE
  std::string league;
  std::string tournament;
  bool spectators = false;  // create
  std::string value;       // add
  std::string request_id;  // empty: a fresh one (create, close) or from the value (add)
};

// Prints where a dealt game's deal stands, and what comes next.
void PrintDeal(const v1::Game& game) {
  std::cout << game.name() << ": " << game.game_type() << ", dealt by the server\n"
            << "  commitment to the dealer's secret: " << game.seed_commitment() << "\n";
  if (game.spectators()) {
    std::cout << "  spectators: anyone may follow it while it is live (no hidden card is shown)\n";
  }
  if (game.deal_closed()) {
    std::cout << "  deal closed: the game takes moves (arbiter moves " << game.name() << ")\n";
    return;
  }
  std::cout << "  deal open, waiting for a value from: "
            << absl::StrJoin(game.awaiting_seat_values(), ", ") << "\n"
            << "  each player: arbiter deal add " << game.name() << " VALUE --token-file "
            << "PLAYER.token; an organiser may close it without them: arbiter deal close "
            << game.name() << "\n";
}

int Answered(const grpc::Status& status, const v1::Game& game, const ClientOptions& client) {
  if (!status.ok()) return ReportRpcError(status);
  if (client.json) {
    std::cout << log::ToJsonLine(game) << "\n";
  } else {
    PrintDeal(game);
  }
  return kExitOk;
}

// "k=v" split at its first "="; the whole text and "" without one.
std::pair<std::string, std::string> SplitPair(const std::string& text) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos) return {text, ""};
  return {text.substr(0, eq), text.substr(eq + 1)};
}

int RunCreate(const DealOpts& opts) {
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  v1::CreateGameRequest request;
  request.set_request_id(opts.request_id.empty() ? FreshRequestId("deal") : opts.request_id);
  request.set_game_id(opts.game_id);
  v1::Game& game = *request.mutable_game();
  game.set_game_type(opts.game);
  game.set_deal(true);
  game.set_league(opts.league);
  game.set_tournament(opts.tournament);
  game.set_spectators(opts.spectators);
  for (const std::string& text : opts.players) {
    auto [id, name] = SplitPair(text);
    v1::Player* player = game.add_players();
    player->set_id(id);
    player->set_name(name.empty() ? id : name);
  }
  for (const std::string& text : opts.options) {
    auto [key, value] = SplitPair(text);
    (*game.mutable_options())[key] = value;
  }
  v1::Game out;
  return Answered(client->games->CreateGame(NewContext(*client).get(), request, &out), out,
                  opts.client);
}

int RunAdd(const DealOpts& opts) {
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  v1::AddSeatValueRequest request;
  request.set_game(GameNameArg(opts.game));
  // The same value sent again is the same request: a retry is answered.
  request.set_request_id(opts.request_id.empty()
                             ? absl::StrCat("seat-value-", engine::Sha256Hex(opts.value).substr(0, 32))
                             : opts.request_id);
  request.set_value(opts.value);
  v1::Game out;
  return Answered(client->games->AddSeatValue(NewContext(*client).get(), request, &out), out,
                  opts.client);
}

int RunClose(const DealOpts& opts) {
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  v1::CloseDealRequest request;
  request.set_game(GameNameArg(opts.game));
  request.set_request_id(opts.request_id.empty() ? FreshRequestId("close-deal") : opts.request_id);
  v1::Game out;
  return Answered(client->games->CloseDeal(NewContext(*client).get(), request, &out), out,
                  opts.client);
}

}  // namespace

void AddDealCommands(CLI::App& app, int& exit_code) {
  CLI::App* group = app.add_subcommand(
      "deal", "Live games the server deals: nobody chooses or sees the deal in advance");
  group->require_subcommand(1);
  group->footer(
      "The server commits to a secret at creation, each player adds a value of its own, and the\n"
      "deal follows from both; the secret is recorded when the game ends, so anyone can\n"
      "re-derive every card from the log (docs/chance.md, \"Dealt games\").");

  auto create = std::make_shared<DealOpts>();
  CLI::App* cmd = group->add_subcommand("create", "Create a dealt game (admin, organiser)");
  cmd->add_option("game_type", create->game, "atlantis, atlantica or atlantis-rising")->required();
  cmd->add_option("--player", create->players, "A seat, in seat order: ID or ID=NAME")
      ->required();
  cmd->add_option("--game-id", create->game_id, "Name the game (default: derived)");
  cmd->add_option("--option", create->options, "A variant switch KEY=VALUE (arbiter options)");
  cmd->add_option("--league", create->league, "League of the game");
  cmd->add_option("--tournament", create->tournament, "Tournament of the game");
  cmd->add_flag("--spectators", create->spectators,
                "Let anyone follow the live game as a spectator (no hidden card is shown)");
  cmd->add_option("--request-id", create->request_id, "Request id (default: a fresh one)");
  AddClientOptions(*cmd, create->client);
  cmd->callback([create, &exit_code] { exit_code = RunCreate(*create); });

  auto add = std::make_shared<DealOpts>();
  cmd = group->add_subcommand("add", "Add your seat's value to the deal (a player's token)");
  cmd->add_option("game", add->game, "Game id or name (games/ID)")->required();
  cmd->add_option("value", add->value,
                  "1-64 characters of your choosing (words, a number, random letters)")
      ->required();
  cmd->add_option("--request-id", add->request_id, "Request id (default: from the value)");
  AddClientOptions(*cmd, add->client);
  cmd->callback([add, &exit_code] { exit_code = RunAdd(*add); });

  auto close = std::make_shared<DealOpts>();
  cmd = group->add_subcommand("close",
                              "Close the deal without the seats still missing (admin, organiser)");
  cmd->add_option("game", close->game, "Game id or name (games/ID)")->required();
  cmd->add_option("--request-id", close->request_id, "Request id (default: a fresh one)");
  AddClientOptions(*cmd, close->client);
  cmd->callback([close, &exit_code] { exit_code = RunClose(*close); });
}

}  // namespace arbiter::cli
