// `arbiter tournament list [--league L] [--json]`: the tournament index
// (TournamentService.ListTournaments, every page), as an aligned table of
// id, game, league, status, rounds played of planned and players, or with
// --json one tournament a line. Ids, game types and league ids are ASCII
// (services/common/resource_names.h), so a column's width in bytes is its
// width on the screen.
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "services/cli/client_common.h"
#include "services/cli/commands.h"
#include "services/cli/text_columns.h"
#include "services/common/resource_names.h"
#include "services/log/json_lines.h"

namespace arbiter::cli {
namespace {

struct ListOpts {
  ClientOptions client;
  std::string league;
};

using Row = std::vector<std::string>;

Row RowOf(const v1::Tournament& t) {
  const v1::TournamentSettings& s = t.settings();
  return {common::IdOf(common::IdKind::kTournament, t.name()),
          s.game_type(),
          s.league().empty() ? "-" : s.league(),
          t.status(),
          absl::StrCat(t.rounds_started(), " of ", s.rounds()),
          absl::StrCat(t.players_size())};
}


// The league id of --league ("north" or "leagues/north").
absl::StatusOr<std::string> LeagueFlag(const std::string& flag) {
  const std::string id = common::IdOf(common::IdKind::kLeague, flag);
  if (flag.empty() || common::IsValidId(common::IdKind::kLeague, id)) return id;
  return absl::InvalidArgumentError(absl::StrCat("--league \"", flag, "\" is not a league id (",
                                                 common::IdRule(common::IdKind::kLeague),
                                                 "; `arbiter league list` shows them)"));
}

int RunList(const ListOpts& opts) {
  absl::StatusOr<std::string> league = LeagueFlag(opts.league);
  if (!league.ok()) return ReportError(league.status());
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  v1::ListTournamentsRequest request;
  request.set_league(*league);
  std::vector<v1::Tournament> tournaments;
  do {
    v1::ListTournamentsResponse page;
    grpc::Status status =
        client->tournaments->ListTournaments(NewContext(*client).get(), request, &page);
    if (!status.ok()) return ReportRpcError(status);
    for (v1::Tournament& t : *page.mutable_tournaments()) tournaments.push_back(std::move(t));
    request.set_page_token(page.next_page_token());
  } while (!request.page_token().empty());
  if (opts.client.json) {
    for (const v1::Tournament& t : tournaments) std::cout << log::ToJsonLine(t) << "\n";
    return 0;
  }
  if (tournaments.empty()) {
    std::cout << (league->empty() ? "no tournaments yet"
                                  : absl::StrCat("no tournaments in league \"", *league, "\" yet"))
              << ": create one with `arbiter tournament create`\n";
    return 0;
  }
  std::vector<Row> rows = {{"tournament", "game", "league", "status", "rounds", "players"}};
  for (const v1::Tournament& t : tournaments) rows.push_back(RowOf(t));
  std::cout << AlignedRows(rows);
  return 0;
}

}  // namespace

void AddTournamentListCommand(CLI::App& group, int& exit_code) {
  auto opts = std::make_shared<ListOpts>();
  CLI::App* cmd = group.add_subcommand("list", "Every tournament: game, league, status, rounds");
  cmd->add_option("--league", opts->league, "Only the tournaments of this league");
  AddClientOptions(*cmd, opts->client);
  cmd->callback([opts, &exit_code] { exit_code = RunList(*opts); });
}

}  // namespace arbiter::cli
