// `arbiter tournament withdraw`, `arbiter tournament settings` and
// `arbiter tournament delete`: the writes that change who plays and what was
// published rather than a round (TournamentService.WithdrawPlayer,
// UpdateTournamentSettings, DeleteTournament; docs/tournaments.md). Settings
// are changed as a patch: the command reads the tournament, changes the
// settings its flags name and sends the whole settings back.
#include <grpcpp/grpcpp.h>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "services/cli/client_common.h"
#include "services/cli/commands.h"
#include "services/log/json_lines.h"

namespace arbiter::cli {
namespace {

struct FieldOpts {
  ClientOptions client;
  std::string tournament;
  std::string player;
  std::string reason;
  std::string request_id;
};

// The settings flags of `arbiter tournament settings`; each is applied only
// when given.
struct SettingsFlags {
  std::string game;
  uint64_t seed = 0;
  int rounds = 0;
  std::vector<int> table_sizes;
  int preferred = 0;
  std::string leftover;
  std::string scoring;
  std::vector<int64_t> place_points;
  int64_t share_points = 0;
  int64_t bye_points = 0;
  int64_t no_show_points = 0;
  int64_t forfeit_points = 0;
  std::vector<std::string> tie_breaks;
  std::string league;
  int64_t dispute_window = 0;
  CLI::App* cmd = nullptr;

  bool Given(const char* flag) const { return cmd->count(flag) > 0; }
};

// `settings` with every given flag applied. InvalidArgument for a bad
// --leftover or --scoring word.
absl::Status Apply(const SettingsFlags& f, v1::TournamentSettings& s) {
  if (f.Given("--game")) s.set_game_type(f.game);
  if (f.Given("--seed")) s.set_seed(f.seed);
  if (f.Given("--rounds")) s.set_rounds(f.rounds);
  if (f.Given("--table-size")) *s.mutable_table_sizes() = {f.table_sizes.begin(), f.table_sizes.end()};
  if (f.Given("--preferred")) s.set_preferred_table_size(f.preferred);
  if (f.Given("--leftover")) {
    if (f.leftover != "mixed" && f.leftover != "byes") {
      return absl::InvalidArgumentError("--leftover must be mixed or byes");
    }
    s.set_leftover(f.leftover == "byes" ? v1::LEFTOVER_BYES : v1::LEFTOVER_MIXED_SIZES);
  }
  if (f.Given("--scoring")) {
    if (f.scoring != "places" && f.scoring != "share") {
      return absl::InvalidArgumentError("--scoring must be places or share");
    }
    s.set_scoring(f.scoring == "share" ? v1::TOURNAMENT_SCORING_TABLE_SHARE
                                       : v1::TOURNAMENT_SCORING_PLACES);
  }
  if (f.Given("--place-points")) {
    *s.mutable_place_points() = {f.place_points.begin(), f.place_points.end()};
  }
  if (f.Given("--share-points")) s.set_share_points(f.share_points);
  if (f.Given("--bye-points")) s.set_bye_points(f.bye_points);
  if (f.Given("--no-show-points")) s.set_no_show_points(f.no_show_points);
  if (f.Given("--forfeit-points")) s.set_forfeit_points(f.forfeit_points);
  if (f.Given("--tie-break")) *s.mutable_tie_breaks() = {f.tie_breaks.begin(), f.tie_breaks.end()};
  if (f.Given("--league")) s.set_league(f.league);
  if (f.Given("--dispute-window")) s.set_dispute_window_seconds(f.dispute_window);
  return absl::OkStatus();
}

void PrintEntrantsLine(const v1::Tournament& t) {
  int withdrawn = 0;
  for (const v1::TournamentEntrant& e : t.entrants()) withdrawn += e.withdrawn() ? 1 : 0;
  std::cout << t.name() << ": " << t.entrants_size() << " players, " << withdrawn
            << " withdrawn\n";
}

int RunWithdraw(const FieldOpts& opts) {
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  v1::WithdrawPlayerRequest request;
  request.set_name(TournamentNameArg(opts.tournament));
  request.set_player(opts.player);
  request.set_reason(opts.reason);
  request.set_request_id(opts.request_id.empty()
                             ? absl::StrCat("withdraw-", opts.tournament, "-", opts.player)
                             : opts.request_id);
  v1::Tournament out;
  grpc::Status status = client->tournaments->WithdrawPlayer(NewContext(*client).get(), request, &out);
  if (!status.ok()) return ReportRpcError(status);
  if (opts.client.json) {
    std::cout << log::ToJsonLine(out) << "\n";
  } else {
    std::cout << opts.player << " withdrew from " << out.name()
              << ": paired in no later round, kept in the standings\n";
    PrintEntrantsLine(out);
  }
  return 0;
}

int RunSettings(const FieldOpts& opts, const SettingsFlags& flags) {
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  v1::GetTournamentRequest get;
  get.set_name(TournamentNameArg(opts.tournament));
  v1::Tournament current;
  grpc::Status status = client->tournaments->GetTournament(NewContext(*client).get(), get, &current);
  if (!status.ok()) return ReportRpcError(status);
  v1::UpdateTournamentSettingsRequest request;
  request.set_name(get.name());
  *request.mutable_settings() = current.settings();
  if (absl::Status applied = Apply(flags, *request.mutable_settings()); !applied.ok()) {
    return ReportError(applied);
  }
  // The request id names the settings sent, so that running the same
  // command again is a retry and a different change is a new request.
  request.set_request_id(opts.request_id.empty()
                             ? absl::StrCat("settings-", log::ToJsonLine(request.settings()))
                                   .substr(0, 200)
                             : opts.request_id);
  v1::Tournament out;
  status = client->tournaments->UpdateTournamentSettings(NewContext(*client).get(), request, &out);
  if (!status.ok()) return ReportRpcError(status);
  std::cout << (opts.client.json ? log::ToJsonLine(out)
                                 : absl::StrCat(out.name(), ": settings updated; ",
                                                log::ToJsonLine(out.settings())))
            << "\n";
  return 0;
}

int RunDelete(const FieldOpts& opts) {
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  v1::DeleteTournamentRequest request;
  request.set_name(TournamentNameArg(opts.tournament));
  request.set_reason(opts.reason);
  request.set_request_id(opts.request_id.empty() ? absl::StrCat("delete-", opts.tournament)
                                                 : opts.request_id);
  v1::DeleteTournamentResponse out;
  grpc::Status status =
      client->tournaments->DeleteTournament(NewContext(*client).get(), request, &out);
  if (!status.ok()) return ReportRpcError(status);
  std::cout << (opts.client.json
                    ? log::ToJsonLine(out)
                    : absl::StrCat(out.name(), " deleted (event ", out.event(),
                                   " of its log); its id is not used again"))
            << "\n";
  return 0;
}

CLI::App* FieldCommand(CLI::App& group, const char* name, const char* help,
                       const std::shared_ptr<FieldOpts>& opts) {
  CLI::App* cmd = group.add_subcommand(name, help);
  cmd->add_option("tournament", opts->tournament, "Tournament id")->required();
  cmd->add_option("--request-id", opts->request_id, "Request id (default: from the command)");
  AddClientOptions(*cmd, opts->client);
  return cmd;
}

void AddSettingsFlags(CLI::App* cmd, SettingsFlags& f) {
  f.cmd = cmd;
  cmd->add_option("--game", f.game, "Game type");
  cmd->add_option("--seed", f.seed, "Seed: round 1, the tables' games, the lot");
  cmd->add_option("--rounds", f.rounds, "Number of rounds");
  cmd->add_option("--table-size", f.table_sizes, "An allowed table size (repeat: all of them)");
  cmd->add_option("--preferred", f.preferred, "The preferred table size");
  cmd->add_option("--leftover", f.leftover, "mixed (tables of other sizes) or byes");
  cmd->add_option("--scoring", f.scoring, "places or share");
  cmd->add_option("--place-points", f.place_points, "Points for places 1, 2, ... (repeat: all)");
  cmd->add_option("--share-points", f.share_points, "A table's points (share)");
  cmd->add_option("--bye-points", f.bye_points, "Points for a bye");
  cmd->add_option("--no-show-points", f.no_show_points, "Points for a no-show (default 0)");
  cmd->add_option("--forfeit-points", f.forfeit_points, "Points for a forfeit (default 0)");
  cmd->add_option("--tie-break", f.tie_breaks, "Tie-breaks in order (repeat: all of them)");
  cmd->add_option("--league", f.league, "Rate the games in this league (\"\" for none)");
  cmd->add_option("--dispute-window", f.dispute_window, "Seconds to dispute");
}

}  // namespace

void AddTournamentFieldCommands(CLI::App& group, int& exit_code) {
  auto withdraw = std::make_shared<FieldOpts>();
  CLI::App* cmd = FieldCommand(group, "withdraw",
                               "Withdraw (drop) a player: paired no more, kept in the standings",
                               withdraw);
  cmd->add_option("player", withdraw->player, "Player id")->required();
  cmd->add_option("--reason", withdraw->reason, "Why, for people (optional)");
  cmd->callback([withdraw, &exit_code] { exit_code = RunWithdraw(*withdraw); });

  auto settings = std::make_shared<FieldOpts>();
  auto flags = std::make_shared<SettingsFlags>();
  cmd = FieldCommand(group, "settings",
                     "Change settings before round 1 (only the flags given change)", settings);
  AddSettingsFlags(cmd, *flags);
  cmd->callback([settings, flags, &exit_code] { exit_code = RunSettings(*settings, *flags); });

  auto del = std::make_shared<FieldOpts>();
  cmd = FieldCommand(group, "delete", "Delete a tournament before round 1 (kept in its log)", del);
  cmd->add_option("--reason", del->reason, "Why, for people")->required();
  cmd->callback([del, &exit_code] { exit_code = RunDelete(*del); });
}

}  // namespace arbiter::cli
