// The `arbiter dispute` commands: open, show, rule and list. Clients of
// arbiterd's DisputeService (docs/tournaments.md).
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "services/cli/client_common.h"
#include "services/cli/commands.h"
#include "services/common/ruling_name.h"
#include "services/log/json_lines.h"

namespace arbiter::cli {
namespace {

struct DisputeOpts {
  ClientOptions client;
  std::string dispute;
  std::string tournament;
  std::string request_id;
  int round = 0;
  int table = 0;
  int64_t event = 0;
  std::string reason;
  std::string kind;
  std::vector<int> places;
  std::vector<int64_t> game_points;
};

std::string DisputeArg(const std::string& id) {
  return id.rfind("disputes/", 0) == 0 ? id : absl::StrCat("disputes/", id);
}

void PrintDispute(const v1::Dispute& d, bool json) {
  if (json) {
    std::cout << log::ToJsonLine(d) << "\n";
    return;
  }
  const v1::DisputeAdjudication& a = d.adjudication();
  std::cout << d.name() << " on " << d.tournament() << " round " << d.round() << " table "
            << d.table() << " (" << d.game() << ", event " << d.event() << ")\n  opened by "
            << d.opened_by() << ": " << d.reason() << "\n  adjudication: verdict "
            << v1::Verdict_Name(a.verdict()) << ", chain "
            << (a.chain_intact() ? "intact" : "BROKEN") << " (" << a.chain_detail() << "), "
            << a.events() << " events\n";
  if (d.state() != v1::DISPUTE_STATE_RULED) {
    std::cout << "  open\n";
    return;
  }
  const v1::Ruling& r = d.ruling();
  std::cout << "  ruled " << common::RulingName(r.kind()) << " by " << r.ruled_by() << ": "
            << r.reason() << "\n";
  if (r.kind() == v1::RULING_KIND_CORRECTED) {
    std::cout << "  corrected places " << absl::StrJoin(r.corrected().places(), " ")
              << ", game points " << absl::StrJoin(r.corrected().game_points(), " ") << "\n";
  }
  for (const v1::StandingChange& c : r.changes()) {
    std::cout << "  " << c.player() << ": rank " << c.rank_before() << " -> " << c.rank_after()
              << ", points " << c.points_before() << " -> " << c.points_after() << ", game points "
              << c.game_points_before() << " -> " << c.game_points_after() << "\n";
  }
  if (r.changes().empty()) std::cout << "  the standings did not change\n";
  if (!d.rating_event().empty()) {
    std::cout << "  ratings, measured at " << d.rating_event() << ":\n";
  }
  for (const v1::RatingChange& c : d.rating_changes()) {
    std::cout << "  " << c.league() << (c.season().empty() ? "" : absl::StrCat(" season ", c.season()))
              << " " << c.player() << ": rating " << absl::StrFormat("%.3f", c.display_rating_before())
              << " -> " << absl::StrFormat("%.3f", c.display_rating_after()) << " (mu "
              << absl::StrFormat("%.3f", c.mu_before()) << " -> "
              << absl::StrFormat("%.3f", c.mu_after()) << ", sigma "
              << absl::StrFormat("%.3f", c.sigma_before()) << " -> "
              << absl::StrFormat("%.3f", c.sigma_after()) << "), games " << c.games_before()
              << " -> " << c.games_after() << "\n";
  }
}

int RunOpen(const DisputeOpts& opts) {
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  v1::OpenDisputeRequest request;
  request.set_dispute_id(opts.dispute);
  request.set_request_id(opts.request_id.empty() ? absl::StrCat("dispute-", opts.dispute)
                                                 : opts.request_id);
  request.set_tournament(TournamentNameArg(opts.tournament));
  request.set_round(opts.round);
  request.set_table(opts.table);
  request.set_event(opts.event);
  request.set_reason(opts.reason);
  v1::Dispute out;
  grpc::Status status = client->disputes->OpenDispute(NewContext(*client).get(), request, &out);
  if (!status.ok()) return ReportRpcError(status);
  PrintDispute(out, opts.client.json);
  return 0;
}

int RunShow(const DisputeOpts& opts) {
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  v1::GetDisputeRequest request;
  request.set_name(DisputeArg(opts.dispute));
  v1::Dispute out;
  grpc::Status status = client->disputes->GetDispute(NewContext(*client).get(), request, &out);
  if (!status.ok()) return ReportRpcError(status);
  PrintDispute(out, opts.client.json);
  return 0;
}

int RunRule(const DisputeOpts& opts) {
  v1::RuleDisputeRequest request;
  if (opts.kind == "uphold") {
    request.set_kind(v1::RULING_KIND_UPHOLD);
  } else if (opts.kind == "void") {
    request.set_kind(v1::RULING_KIND_VOID);
  } else if (opts.kind == "corrected") {
    request.set_kind(v1::RULING_KIND_CORRECTED);
  } else {
    return ReportError(absl::InvalidArgumentError(
        absl::StrCat("--kind \"", opts.kind, "\": expected uphold, void or corrected")));
  }
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  request.set_name(DisputeArg(opts.dispute));
  request.set_request_id(opts.request_id.empty() ? absl::StrCat("rule-", opts.dispute)
                                                 : opts.request_id);
  request.set_reason(opts.reason);
  for (int p : opts.places) request.mutable_corrected()->add_places(p);
  for (int64_t g : opts.game_points) request.mutable_corrected()->add_game_points(g);
  v1::Dispute out;
  grpc::Status status = client->disputes->RuleDispute(NewContext(*client).get(), request, &out);
  if (!status.ok()) return ReportRpcError(status);
  PrintDispute(out, opts.client.json);
  return 0;
}

int RunList(const DisputeOpts& opts) {
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  v1::ListDisputesRequest request;
  if (!opts.tournament.empty()) {
    request.set_tournament(TournamentNameArg(opts.tournament));
  }
  do {
    v1::ListDisputesResponse page;
    grpc::Status status = client->disputes->ListDisputes(NewContext(*client).get(), request, &page);
    if (!status.ok()) return ReportRpcError(status);
    for (const v1::Dispute& d : page.disputes()) {
      if (opts.client.json) {
        std::cout << log::ToJsonLine(d) << "\n";
      } else {
        std::cout << d.name() << "\t" << d.tournament() << " r" << d.round() << " t" << d.table()
                  << "\t"
                  << (d.state() == v1::DISPUTE_STATE_RULED
                          ? common::RulingName(d.ruling().kind())
                          : "open")
                  << "\n";
      }
    }
    request.set_page_token(page.next_page_token());
  } while (!request.page_token().empty());
  return 0;
}

}  // namespace

void AddDisputeCommands(CLI::App& app, int& exit_code) {
  CLI::App* group = app.add_subcommand("dispute", "Open, show, rule and list disputes");
  group->require_subcommand(1);

  auto open = std::make_shared<DisputeOpts>();
  CLI::App* cmd = group->add_subcommand("open", "Dispute a table's game (within the window)");
  cmd->add_option("dispute", open->dispute, "Dispute id")->required();
  cmd->add_option("--tournament", open->tournament, "Tournament id")->required();
  cmd->add_option("--round", open->round, "Round")->required();
  cmd->add_option("--table", open->table, "Table")->required();
  cmd->add_option("--event", open->event, "The disputed event of the game (default 0: all)");
  cmd->add_option("--reason", open->reason, "Why")->required();
  cmd->add_option("--request-id", open->request_id, "Request id (default: from the id)");
  AddClientOptions(*cmd, open->client);
  cmd->callback([open, &exit_code] { exit_code = RunOpen(*open); });

  auto show = std::make_shared<DisputeOpts>();
  cmd = group->add_subcommand("show", "A dispute, its adjudication and its ruling");
  cmd->add_option("dispute", show->dispute, "Dispute id")->required();
  AddClientOptions(*cmd, show->client);
  cmd->callback([show, &exit_code] { exit_code = RunShow(*show); });

  auto rule = std::make_shared<DisputeOpts>();
  cmd = group->add_subcommand("rule", "Rule on an open dispute (once)");
  cmd->add_option("dispute", rule->dispute, "Dispute id")->required();
  cmd->add_option("--kind", rule->kind, "uphold, void or corrected")->required();
  cmd->add_option("--reason", rule->reason, "Why")->required();
  cmd->add_option("--place", rule->places, "corrected: each seat's place, in seat order (repeat)");
  cmd->add_option("--game-points", rule->game_points,
                  "corrected: each seat's game points, in seat order (repeat)");
  cmd->add_option("--request-id", rule->request_id, "Request id (default: from the id)");
  AddClientOptions(*cmd, rule->client);
  cmd->callback([rule, &exit_code] { exit_code = RunRule(*rule); });

  auto list = std::make_shared<DisputeOpts>();
  cmd = group->add_subcommand("list", "Disputes, optionally of one tournament");
  cmd->add_option("--tournament", list->tournament, "Tournament id");
  AddClientOptions(*cmd, list->client);
  cmd->callback([list, &exit_code] { exit_code = RunList(*list); });
}

}  // namespace arbiter::cli
