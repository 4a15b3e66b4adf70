// `arbiter log GAME [-o FILE]`: a stored game written back as a log file
// (docs/log-format.md) that `arbiter replay` judges as the server did: the
// header of its event 1, with the seed the game was dealt from (a sealed
// game's derived from its reveal, a dealt game's from the dealer's revealed
// secret and the seats' values), and its actions in order.
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/core/dealer_seed.h"
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

// The log of a dealt game (docs/chance.md, "Dealt games"), its seed derived
// here from the secret its log reveals and the seats' values, after
// checking that the secret opens the commitment of event 1.
// InvalidArgument before the reveal (the game is live) or for a secret that
// does not open the commitment.
absl::StatusOr<log::GameLog> DealtLog(log::GameLog out, const std::string& id,
                                      const v1::GameCreated& created,
                                      const std::optional<std::string>& secret,
                                      const std::map<std::string, std::string>& values) {
  if (!secret.has_value()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "games/", id, " is dealt by the server and its secret is recorded only when the game "
        "ends or is voided: a log needs the seed"));
  }
  if (engine::DealerCommitment(id, *secret) != created.seed_commitment()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "games/", id, ": the revealed dealer's secret does not open the commitment of event 1; "
        "the log cannot be trusted (arbiter verify ", id, " says where it breaks)"));
  }
  std::vector<engine::SeatValue> seats;
  for (const v1::Player& player : created.header().players()) {
    auto it = values.find(player.id());
    seats.push_back({player.id(), it == values.end() ? std::nullopt
                                                     : std::optional<std::string>(it->second)});
  }
  out.header.set_seed(engine::DeriveDealtSeed(id, *secret, seats));
  return out;
}

// The stored game's log, read a page of events at a time; its seed is the
// one every shuffle followed (a sealed game's derived from its reveal).
// InvalidArgument, in words, when this token may not see the seed; a failed
// call's status in `rpc` (and Unknown returned).
absl::StatusOr<log::GameLog> ReadStoredLog(Client& client, const std::string& game,
                                           grpc::Status& rpc) {
  log::GameLog out;
  std::optional<v1::GameCreated> created;
  std::optional<v1::SeedRevealed> revealed;
  std::optional<std::string> dealer_secret;
  std::map<std::string, std::string> seat_values;
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
      if (event.has_seat_value()) {
        seat_values[event.seat_value().player()] = event.seat_value().value();
      }
      if (event.has_dealer_revealed()) dealer_secret = event.dealer_revealed().secret();
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
  const std::string id = game.substr(game.find('/') + 1);
  if (created->dealt()) return DealtLog(std::move(out), id, *created, dealer_secret, seat_values);
  if (!revealed.has_value()) {
    return absl::InvalidArgumentError(absl::StrCat(
        game, " is sealed and its seed is not revealed yet: a log needs the seed"));
  }
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
