// `arbiter moves` and `arbiter move`: a seat's legal moves in words
// (ListLegalActions), and one of them played by its number (AppendActions
// at the event the list was read at, so a move chosen from a list that
// has since changed is refused as stale, not played somewhere else).
#include <grpcpp/grpcpp.h>

#include <iostream>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "services/cli/client_common.h"
#include "services/cli/commands.h"
#include "services/log/json_lines.h"

namespace arbiter::cli {
namespace {

struct MovesOpts {
  ClientOptions client;
  std::string game;
  std::string player;  // empty: the token's own seat
  int pick = 0;        // move: the number `moves` printed
  std::string request_id;
};

// The seat's moves, or the exit code of the failure (reported).
int ReadMoves(const MovesOpts& opts, Client& client, v1::ListLegalActionsResponse& out) {
  v1::ListLegalActionsRequest request;
  request.set_game(GameNameArg(opts.game));
  request.set_player(opts.player);
  grpc::Status status = client.games->ListLegalActions(NewContext(client).get(), request, &out);
  return status.ok() ? kExitOk : ReportRpcError(status);
}

void PrintMoves(const v1::ListLegalActionsResponse& moves) {
  std::cout << moves.game() << " after event " << moves.last_event() << ", " << moves.player();
  if (moves.terminal()) {
    std::cout << ": the game is over\n";
    return;
  }
  if (moves.actions().empty()) {
    std::cout << " is not to act; to act:";
    for (const std::string& p : moves.players_to_act()) std::cout << " " << p;
    std::cout << "\n";
    return;
  }
  std::cout << " to act (arbiter move " << moves.game() << " N plays move N):\n";
  std::string group;
  for (int i = 0; i < moves.actions_size(); ++i) {
    const v1::LegalAction& move = moves.actions(i);
    if (move.group() != group) {
      group = move.group();
      std::cout << "  " << group << "\n";
    }
    std::cout << "    " << i + 1 << ". " << move.label() << "\n";
  }
}

int RunMoves(const MovesOpts& opts) {
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  v1::ListLegalActionsResponse moves;
  if (const int code = ReadMoves(opts, *client, moves); code != kExitOk) return code;
  if (opts.client.json) {
    std::cout << log::ToJsonLine(moves) << "\n";
  } else {
    PrintMoves(moves);
  }
  return kExitOk;
}

int RunMove(const MovesOpts& opts) {
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  v1::ListLegalActionsResponse moves;
  if (const int code = ReadMoves(opts, *client, moves); code != kExitOk) return code;
  if (opts.pick < 1 || opts.pick > moves.actions_size()) {
    return ReportError(absl::InvalidArgumentError(absl::StrCat(
        "there is no move ", opts.pick, ": ", moves.player(), " has ", moves.actions_size(),
        " legal moves now (arbiter moves ", opts.game, " lists them)")));
  }
  const v1::LegalAction& move = moves.actions(opts.pick - 1);
  v1::AppendActionsRequest request;
  request.set_game(moves.game());
  request.set_expected_last_event(moves.last_event());
  request.set_request_id(opts.request_id.empty()
                             ? absl::StrCat("move-", moves.player(), "-", moves.last_event())
                             : opts.request_id);
  *request.add_actions() = move.action();
  v1::AppendActionsResponse response;
  grpc::Status status = client->games->AppendActions(NewContext(*client).get(), request, &response);
  if (!status.ok()) return ReportRpcError(status);
  if (opts.client.json) {
    std::cout << log::ToJsonLine(response) << "\n";
  } else {
    std::cout << "event " << response.last_event() << ": " << move.label() << "\n";
  }
  return kExitOk;
}

}  // namespace

void AddPlayCommands(CLI::App& app, int& exit_code) {
  auto moves = std::make_shared<MovesOpts>();
  CLI::App* cmd = app.add_subcommand("moves", "A seat's legal moves now, numbered, in words");
  cmd->add_option("game", moves->game, "Game id or name (games/ID)")->required();
  cmd->add_option("--player", moves->player, "The seat's player id (default: a player token's own)");
  AddClientOptions(*cmd, moves->client);
  cmd->callback([moves, &exit_code] { exit_code = RunMoves(*moves); });

  auto move = std::make_shared<MovesOpts>();
  cmd = app.add_subcommand("move", "Play move N of `arbiter moves` (refused if the game moved on)");
  cmd->add_option("game", move->game, "Game id or name (games/ID)")->required();
  cmd->add_option("number", move->pick, "The move's number in `arbiter moves`")->required();
  cmd->add_option("--player", move->player, "The seat's player id (default: a player token's own)");
  cmd->add_option("--request-id", move->request_id,
                  "Request id (default: from the seat and the event, so a retry is answered once)");
  AddClientOptions(*cmd, move->client);
  cmd->callback([move, &exit_code] { exit_code = RunMove(*move); });
}

}  // namespace arbiter::cli
