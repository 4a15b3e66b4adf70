// `arbiter log GAME [-o FILE]`: a stored game written back as a log file
// (docs/log-format.md) that `arbiter replay` judges as the server did: the
// header of its event 1, with the seed the game was dealt from, and its
// actions in order.
#include <fstream>
#include <iostream>
#include <optional>

#include "absl/strings/str_cat.h"
#include "engine/core/seed_derivation.h"
#include "services/cli/client_common.h"
#include "services/cli/commands.h"
#include "services/log/log_file.h"

namespace arbiter::cli {
namespace {

struct LogOpts {
  ClientOptions client;
  std::string game;
  std::string output;
};

// The stored game's log, read a page of events at a time; its seed is the
// one every shuffle followed (a sealed game's derived from its reveal).
// InvalidArgument, in words, when this token may not see the seed; a failed
// call's status in `rpc` (and Unknown returned).
absl::StatusOr<log::GameLog> ReadStoredLog(Client& client, const std::string& game,
                                           grpc::Status& rpc) {
  log::GameLog out;
  std::optional<v1::GameCreated> created;
  std::optional<v1::SeedRevealed> revealed;
  v1::ListEventsRequest list;
  list.set_parent(game);
  list.set_page_size(1000);
  while (true) {
    v1::ListEventsResponse page;
    rpc = client.games->ListEvents(NewContext(client).get(), list, &page);
    if (!rpc.ok()) return absl::UnknownError("ListEvents failed");
    for (const v1::Event& event : page.events()) {
      if (event.has_game_created()) created = event.game_created();
      if (event.has_seed_revealed()) revealed = event.seed_revealed();
      if (event.has_action()) out.actions.push_back(event.action());
    }
    if (page.next_page_token().empty()) break;
    list.set_page_token(page.next_page_token());
  }
  if (!created.has_value()) return absl::InvalidArgumentError(game + " has no header event");
  out.header = created->header();
  if (created->seed_commitment().empty()) {
    if (out.header.seed() == 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "this token may not see the seed of ", game,
          " while the game is live (admins and auditors may): a log without it cannot be "
          "replayed"));
    }
    return out;
  }
  if (!revealed.has_value()) {
    return absl::InvalidArgumentError(absl::StrCat(
        game, " is sealed and its seed is not revealed yet: a log needs the seed"));
  }
  const std::string id = game.substr(game.find('/') + 1);
  out.header.set_seed(created->server_random().empty()
                          ? revealed->seed()
                          : engine::DeriveSealedSeed(id, revealed->seed(), created->server_random()));
  return out;
}

int RunLog(const LogOpts& opts) {
  absl::StatusOr<Client> client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  const std::string game = GameNameArg(opts.game);
  grpc::Status rpc;
  absl::StatusOr<log::GameLog> stored = ReadStoredLog(*client, game, rpc);
  if (!rpc.ok()) return ReportRpcError(rpc);
  if (!stored.ok()) return ReportError(stored.status());
  const std::string text = log::FormatLog(*stored);
  if (opts.output.empty() || opts.output == "-") {
    std::cout << text;
    return std::cout ? kExitOk : kExitFailure;
  }
  std::ofstream out(opts.output, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return ReportError(absl::UnavailableError(absl::StrCat(opts.output, ": cannot be written")));
  std::cerr << "wrote " << opts.output << ": " << game << ", " << stored->actions.size()
            << " actions\n";
  return kExitOk;
}

}  // namespace

void AddLogCommand(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<LogOpts>();
  CLI::App* cmd = app.add_subcommand(
      "log", "Write a stored game back as a log file (its header and actions; `replay` judges it)");
  cmd->add_option("game", opts->game, "Game id or name (games/ID)")->required();
  cmd->add_option("-o,--output", opts->output, "Write the log here (default: standard output)");
  AddClientOptions(*cmd, opts->client);
  cmd->callback([opts, &exit_code] { exit_code = RunLog(*opts); });
}

}  // namespace arbiter::cli
