// `arbiter moves` and `arbiter move`: a seat's legal moves in words
// (ListLegalActions), and one of them played by its number (AppendActions
// at the event the list was read at, so a move chosen from a list that
// has since changed is refused as stale, not played somewhere else).
// `arbiter watch`: a game's events as they are stored (WatchGame), one line
// each, until the game ends.
#include <grpcpp/grpcpp.h>

#include <iostream>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
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

struct WatchOpts {
  ClientOptions client;
  std::string game;
  int64_t from_event = 0;
};

// One line for people: the event, what it is, who acts next.
void PrintUpdate(const v1::GameUpdate& update) {
  const v1::Event& event = update.event();
  std::cout << "event " << event.event() << ": ";
  if (event.has_action() && !event.text().empty()) {
    std::cout << event.text();  // the server's words (a sealed game's actions have none)
  } else if (event.has_action()) {
    std::cout << event.action().player() << " " << log::ToJsonLine(event.action());
  } else if (event.has_game_created()) {
    std::cout << "game created (" << event.game_created().header().game() << ", "
              << event.game_created().header().players_size() << " players)";
  } else if (event.has_seat_value()) {
    std::cout << event.seat_value().player() << " added a value to the deal";
  } else if (event.has_deal_closed()) {
    std::cout << "the deal is closed";
    if (!event.deal_closed().absent().empty()) {
      std::cout << " without a value from " << absl::StrJoin(event.deal_closed().absent(), ", ");
    }
  } else if (event.has_dealer_revealed()) {
    std::cout << "the dealer's secret is revealed (arbiter log re-derives the deal)";
  } else {
    std::cout << event.type();
  }
  if (!update.players_to_act().empty()) {
    std::cout << "; to act:";
    for (const std::string& p : update.players_to_act()) std::cout << " " << p;
  }
  if (update.game_over()) std::cout << "; the game is over";
  std::cout << "\n" << std::flush;
}

int RunWatch(const WatchOpts& opts) {
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  v1::WatchGameRequest request;
  request.set_game(GameNameArg(opts.game));
  request.set_from_event(opts.from_event);
  // No deadline: a game may last hours. Ctrl-C ends the watch.
  grpc::ClientContext context;
  if (!client->authorization.empty()) context.AddMetadata("authorization", client->authorization);
  std::unique_ptr<grpc::ClientReader<v1::GameUpdate>> reader =
      client->games->WatchGame(&context, request);
  v1::GameUpdate update;
  int64_t last = opts.from_event;
  while (reader->Read(&update)) {
    last = update.event().event();
    if (opts.client.json) {
      std::cout << log::ToJsonLine(update) << "\n" << std::flush;
    } else {
      PrintUpdate(update);
    }
  }
  const grpc::Status status = reader->Finish();
  if (status.ok()) return kExitOk;
  std::cerr << "the watch ended after event " << last << "; arbiter watch " << opts.game
            << " --from " << last << " goes on from there\n";
  return ReportRpcError(status);
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

  auto watch = std::make_shared<WatchOpts>();
  cmd = app.add_subcommand("watch", "A game's events as they are stored, until it ends");
  cmd->add_option("game", watch->game, "Game id or name (games/ID)")->required();
  cmd->add_option("--from", watch->from_event,
                  "Start after this event (0: the whole game; after a lost watch, the last event "
                  "printed)")
      ->capture_default_str();
  AddClientOptions(*cmd, watch->client);
  cmd->callback([watch, &exit_code] { exit_code = RunWatch(*watch); });
}

}  // namespace arbiter::cli
