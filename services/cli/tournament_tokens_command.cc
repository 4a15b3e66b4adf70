// `arbiter tournament tokens T --out DIR`: one player token per registered
// player of tournament T, bound to the tournament (so it plays at every
// table that player sits at, in every round), each written to DIR/<id>.token
// for the organiser to hand out, and with --site URL also DIR/<id>.link,
// the player's sign-in link to the tournament's page (URL/tournaments/T
// #token=...), where each of their tables links to its table page. A player
// whose file exists keeps it: the command can be run again after late
// registrations, and never mints a second token for a file it already wrote.
#include <grpcpp/grpcpp.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "services/cli/client_common.h"
#include "services/cli/commands.h"

namespace arbiter::cli {
namespace {

struct TokensOpts {
  ClientOptions client;
  std::string tournament;
  std::string out_dir;
  std::string site;  // "http://host:8080": also write sign-in links
};

// Writes `secret` to `path`, readable by its owner only; false on failure.
bool WriteSecret(const std::filesystem::path& path, const std::string& secret) {
  const std::filesystem::path partial = path.string() + ".partial";
  {
    std::ofstream out(partial, std::ios::trunc);
    if (!out) return false;
    std::filesystem::permissions(partial, std::filesystem::perms::owner_read |
                                              std::filesystem::perms::owner_write);
    out << secret << "\n";
    if (!out.flush()) return false;
  }
  std::error_code error;
  std::filesystem::rename(partial, path, error);
  return !error;
}

// Mints `player`'s token; the exit code of a failure (reported), or 0.
int MintInto(Client& client, const std::string& tournament, const std::string& player,
             const std::filesystem::path& file, const std::string& site) {
  v1::CreateTokenRequest request;
  request.set_role(v1::ROLE_PLAYER);
  request.set_principal(player);
  request.add_tournaments(tournament);
  request.set_request_id(FreshRequestId(absl::StrCat("seat-token-", tournament, "-", player)));
  v1::CreateTokenResponse response;
  grpc::Status status = client.tokens->CreateToken(NewContext(client).get(), request, &response);
  if (!status.ok()) return ReportRpcError(status);
  if (!WriteSecret(file, response.token())) {
    std::cerr << "arbiter: cannot write " << file.string() << "; token " << response.token_id()
              << " was minted: revoke it (arbiter token revoke " << response.token_id()
              << ") and run again with a writable --out\n";
    return kExitFailure;
  }
  std::cout << player << ": " << file.string();
  if (!site.empty()) {
    std::filesystem::path link = file;
    link.replace_extension(".link");
    if (!WriteSecret(link, absl::StrCat(site, "/tournaments/", tournament, "#token=", response.token()))) {
      std::cerr << "\narbiter: cannot write " << link.string() << "; the token is in " << file.string()
                << "\n";
      return kExitFailure;
    }
    std::cout << ", " << link.string();
  }
  std::cout << "\n";
  return kExitOk;
}

int RunTokens(TokensOpts opts) {
  while (absl::EndsWith(opts.site, "/")) opts.site.pop_back();
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  const std::string id = absl::StartsWith(opts.tournament, "tournaments/")
                             ? opts.tournament.substr(std::string("tournaments/").size())
                             : opts.tournament;
  v1::GetTournamentRequest get;
  get.set_name("tournaments/" + id);
  v1::Tournament tournament;
  grpc::Status status = client->tournaments->GetTournament(NewContext(*client).get(), get, &tournament);
  if (!status.ok()) return ReportRpcError(status);
  std::error_code error;
  std::filesystem::create_directories(opts.out_dir, error);
  if (error) {
    return ReportError(absl::InvalidArgumentError(
        absl::StrCat("--out ", opts.out_dir, ": cannot create the directory (", error.message(), ")")));
  }
  int kept = 0;
  for (const std::string& player : tournament.players()) {
    const std::filesystem::path file = std::filesystem::path(opts.out_dir) / (player + ".token");
    if (std::filesystem::exists(file)) {
      ++kept;
      continue;
    }
    if (const int code = MintInto(*client, id, player, file, opts.site); code != kExitOk) return code;
  }
  if (kept > 0) {
    std::cout << kept << " player(s) already had a token file in " << opts.out_dir
              << " and kept it (to replace one: arbiter token revoke ID, delete the file, run "
                 "again)\n";
  }
  std::cout << "each file plays its player's seat at every table of " << id
            << " (arbiter moves GAME --token-file FILE)\n";
  if (!opts.site.empty()) {
    std::cout << "each .link signs its player in on the tournament's page, which links every table in "
                 "play to its table page; hand it over as privately as the token\n";
  }
  return kExitOk;
}

}  // namespace

void AddTournamentTokensCommand(CLI::App& group, int& exit_code) {
  auto opts = std::make_shared<TokensOpts>();
  CLI::App* cmd = group.add_subcommand(
      "tokens", "Mint each registered player's token for the tournament, one file per player");
  cmd->add_option("tournament", opts->tournament, "Tournament id")->required();
  cmd->add_option("--out", opts->out_dir, "Directory for the <player>.token files (readable by "
                                          "you only)")
      ->required();
  cmd->add_option("--site", opts->site,
                  "The website's address (http://host:8080): also write <player>.link, a sign-in link "
                  "to the tournament's page")
      ->check([](const std::string& url) {
        return absl::StartsWith(url, "http://") || absl::StartsWith(url, "https://")
                   ? std::string()
                   : std::string("--site must start with http:// or https://");
      });
  AddClientOptions(*cmd, opts->client);
  cmd->callback([opts, &exit_code] { exit_code = RunTokens(*opts); });
}

}  // namespace arbiter::cli
