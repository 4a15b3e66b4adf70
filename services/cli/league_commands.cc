// The `arbiter` commands for leagues: league create|set|show|list|rebuild,
// leaderboard, rating and void (a game). Clients of arbiterd's LeagueService.
#include <google/protobuf/util/time_util.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/time/time.h"
#include "services/common/proto_time.h"
#include "services/cli/client_common.h"
#include "services/cli/commands.h"
#include "services/cli/text_columns.h"
#include "services/log/json_lines.h"

namespace arbiter::cli {
namespace {

std::string LeagueNameArg(const std::string& league) {
  return league.rfind("leagues/", 0) == 0 ? league : absl::StrCat("leagues/", league);
}

struct SettingsOpts {
  std::string display_name;
  std::vector<std::string> games;
  std::string system;
  std::vector<std::string> params;
  std::vector<std::string> seasons;
  int provisional_games = 0;
  std::string period;
  std::string rate_reported;  // "yes", "no" or "" (unchanged)
};

void AddSettingsOptions(CLI::App& cmd, SettingsOpts& opts) {
  cmd.add_option("--name", opts.display_name, "Display name");
  cmd.add_option("--game", opts.games, "A game type it rates (repeat for several)");
  cmd.add_option("--system", opts.system,
                 "plackett-luce (default), thurstone-mosteller-full, bradley-terry-full, "
                 "glicko2 or elo");
  cmd.add_option("--param", opts.params, "A rating parameter NAME=VALUE (docs/ratings.md)");
  cmd.add_option("--season", opts.seasons,
                 "A season ID:START:END, with RFC 3339 times (e.g. "
                 "s1:2026-01-01T00:00:00Z:2026-07-01T00:00:00Z)");
  cmd.add_option("--provisional-games", opts.provisional_games,
                 "Games before a player is no longer provisional (default 5)");
  cmd.add_option("--period", opts.period, "glicko2 rating period: game, day, week or month");
  cmd.add_option("--rate-reported", opts.rate_reported,
                 "yes or no: rate results reported from score sheets (default no)");
}

// InvalidArgument naming the option for a malformed --param or --season.
absl::Status FillSettings(const SettingsOpts& opts, v1::LeagueSettings& settings) {
  if (!opts.display_name.empty()) settings.set_display_name(opts.display_name);
  if (!opts.games.empty()) {
    settings.clear_game_types();
    for (const std::string& g : opts.games) settings.add_game_types(g);
  }
  if (!opts.system.empty()) {
    if (opts.system != settings.rating_system()) settings.clear_parameters();
    settings.set_rating_system(opts.system);
  }
  for (const std::string& param : opts.params) {
    const std::size_t eq = param.find('=');
    if (eq == std::string::npos || eq == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("--param \"", param, "\": expected NAME=VALUE"));
    }
    (*settings.mutable_parameters())[param.substr(0, eq)] = param.substr(eq + 1);
  }
  if (!opts.seasons.empty()) settings.clear_seasons();
  for (const std::string& season : opts.seasons) {
    // ID:START:END where START and END contain ':' themselves: split on the
    // first ':' and then on ":" followed by a digit of the END's year.
    const std::size_t first = season.find(':');
    const std::size_t middle = season.find("Z:", first == std::string::npos ? 0 : first);
    absl::Time start, end;
    std::string error;
    if (first == std::string::npos || middle == std::string::npos ||
        !absl::ParseTime(absl::RFC3339_full, season.substr(first + 1, middle + 1 - first - 1),
                         &start, &error) ||
        !absl::ParseTime(absl::RFC3339_full, season.substr(middle + 2), &end, &error)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--season \"", season, "\": expected ID:START:END with UTC RFC 3339 times ending in Z"));
    }
    v1::Season* s = settings.add_seasons();
    s->set_id(season.substr(0, first));
    *s->mutable_start_time() = common::TimestampOf(start);
    *s->mutable_end_time() = common::TimestampOf(end);
  }
  if (opts.provisional_games != 0) settings.set_provisional_games(opts.provisional_games);
  if (!opts.period.empty()) settings.set_rating_period(opts.period);
  if (!opts.rate_reported.empty()) {
    if (opts.rate_reported != "yes" && opts.rate_reported != "no") {
      return absl::InvalidArgumentError(absl::StrCat(
          "--rate-reported \"", opts.rate_reported, "\": write yes or no"));
    }
    settings.set_rate_reported_results(opts.rate_reported == "yes");
  }
  return absl::OkStatus();
}

void PrintLeague(const v1::League& league, bool json) {
  if (json) {
    std::cout << log::ToJsonLine(league) << "\n";
    return;
  }
  const v1::LeagueSettings& s = league.settings();
  std::cout << league.name() << (s.display_name().empty() ? "" : " (" + s.display_name() + ")")
            << "\n  games:   ";
  for (int i = 0; i < s.game_types_size(); ++i) std::cout << (i ? ", " : "") << s.game_types(i);
  std::cout << "\n  system:  " << (s.rating_system().empty() ? "plackett-luce" : s.rating_system());
  for (const auto& [name, value] : s.parameters()) std::cout << " " << name << "=" << value;
  std::cout << "\n  seasons:";
  for (const v1::Season& season : s.seasons()) {
    std::cout << " " << season.id() << " ["
              << google::protobuf::util::TimeUtil::ToString(season.start_time()) << ", "
              << google::protobuf::util::TimeUtil::ToString(season.end_time()) << ")";
  }
  if (s.seasons().empty()) std::cout << " none";
  std::cout << "\n  rated games: " << league.rated_games()
            << "\n  projector: up to store position " << league.projected_position() << ", "
            << league.projector_lag_events() << " events behind"
            << "\n  log: " << league.last_event() << " events, last hash " << league.last_event_hash()
            << "\n";
}

struct LeagueOpts {
  ClientOptions client;
  std::string league;
  std::string request_id;
  SettingsOpts settings;
};

int RunLeagueCreate(const LeagueOpts& opts) {
  v1::CreateLeagueRequest request;
  request.set_league_id(opts.league);
  request.set_request_id(opts.request_id.empty() ? absl::StrCat("league-", opts.league)
                                                 : opts.request_id);
  if (absl::Status s = FillSettings(opts.settings, *request.mutable_settings()); !s.ok()) {
    return ReportError(s);
  }
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  v1::League league;
  grpc::Status status = client->leagues->CreateLeague(NewContext(*client).get(), request, &league);
  if (!status.ok()) return ReportRpcError(status);
  PrintLeague(league, opts.client.json);
  return 0;
}

int RunLeagueSet(const LeagueOpts& opts) {
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  v1::GetLeagueRequest get;
  get.set_name(LeagueNameArg(opts.league));
  v1::League current;
  grpc::Status status = client->leagues->GetLeague(NewContext(*client).get(), get, &current);
  if (!status.ok()) return ReportRpcError(status);
  v1::UpdateLeagueRequest request;
  request.set_name(get.name());
  request.set_expected_last_event(current.last_event());
  *request.mutable_settings() = current.settings();
  if (absl::Status s = FillSettings(opts.settings, *request.mutable_settings()); !s.ok()) {
    return ReportError(s);
  }
  request.set_request_id(opts.request_id.empty()
                             ? absl::StrCat("league-set-", opts.league, "-", current.last_event())
                             : opts.request_id);
  v1::League league;
  status = client->leagues->UpdateLeague(NewContext(*client).get(), request, &league);
  if (!status.ok()) return ReportRpcError(status);
  PrintLeague(league, opts.client.json);
  return 0;
}

int RunLeagueShow(const LeagueOpts& opts) {
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  v1::GetLeagueRequest request;
  request.set_name(LeagueNameArg(opts.league));
  v1::League league;
  grpc::Status status = client->leagues->GetLeague(NewContext(*client).get(), request, &league);
  if (!status.ok()) return ReportRpcError(status);
  PrintLeague(league, opts.client.json);
  return 0;
}

int RunLeagueList(const LeagueOpts& opts) {
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  v1::ListLeaguesRequest request;
  do {
    v1::ListLeaguesResponse page;
    grpc::Status status = client->leagues->ListLeagues(NewContext(*client).get(), request, &page);
    if (!status.ok()) return ReportRpcError(status);
    for (const v1::League& league : page.leagues()) {
      if (opts.client.json) {
        std::cout << log::ToJsonLine(league) << "\n";
      } else {
        std::cout << league.name() << "\t" << league.rated_games() << " rated games\n";
      }
    }
    request.set_page_token(page.next_page_token());
  } while (!request.page_token().empty());
  return 0;
}

int RunLeagueRebuild(const LeagueOpts& opts) {
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  v1::RebuildLeagueRequest request;
  request.set_name(LeagueNameArg(opts.league));
  v1::RebuildLeagueResponse response;
  grpc::Status status =
      client->leagues->RebuildLeague(NewContext(*client).get(), request, &response);
  if (!status.ok()) return ReportRpcError(status);
  if (opts.client.json) {
    std::cout << log::ToJsonLine(response) << "\n";
  } else {
    std::cout << "rebuilt " << request.name() << ": " << response.rated_games() << " rated games, "
              << response.players() << " players, up to store position "
              << response.projected_position() << "\ndigest " << response.digest() << "\n";
  }
  return 0;
}

struct BoardOpts {
  ClientOptions client;
  std::string league;
  std::string season;
  int limit = 50;
  bool csv = false;
};

std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

int RunLeaderboard(const BoardOpts& opts) {
  if (opts.limit < 1) return ReportError(absl::InvalidArgumentError("--limit must be at least 1"));
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  v1::GetLeaderboardRequest request;
  request.set_league(LeagueNameArg(opts.league));
  request.set_season(opts.season);
  if (opts.csv) {
    std::cout << "rank,player,rating,mu,sigma,volatility,games,last_played,last_game,provisional\n";
  } else if (!opts.client.json) {
    std::cout << absl::StrFormat("%5s  %s %10s %6s  %s\n", "rank", PadRight("player", 24), "rating",
                                 "games", "last played");
  }
  int printed = 0;
  do {
    request.set_page_size(std::min(1000, opts.limit - printed));
    v1::Leaderboard page;
    grpc::Status status = client->leagues->GetLeaderboard(NewContext(*client).get(), request, &page);
    if (!status.ok()) return ReportRpcError(status);
    for (const v1::LeaderboardRow& row : page.rows()) {
      const std::string played = google::protobuf::util::TimeUtil::ToString(row.last_played());
      if (opts.client.json) {
        std::cout << log::ToJsonLine(row) << "\n";
      } else if (opts.csv) {
        std::cout << row.rank() << "," << CsvField(row.player()) << ","
                  << absl::StrFormat("%.17g,%.17g,%.17g,%.17g", row.display_rating(), row.mu(),
                                     row.sigma(), row.volatility())
                  << "," << row.games() << "," << played << "," << CsvField(row.last_game()) << ","
                  << (row.provisional() ? "true" : "false") << "\n";
      } else {
        std::cout << absl::StrFormat("%5d  %s %10.2f %6d  %s%s\n", row.rank(), PadRight(row.player(), 24),
                                     row.display_rating(), row.games(), played.substr(0, 10),
                                     row.provisional() ? "  (provisional)" : "");
      }
      ++printed;
    }
    request.set_page_token(page.next_page_token());
  } while (!request.page_token().empty() && printed < opts.limit);
  return 0;
}

struct RatingOpts {
  ClientOptions client;
  std::string league;
  std::string player;
  std::string season;
};

int RunRating(const RatingOpts& opts) {
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  v1::GetRatingHistoryRequest request;
  request.set_league(LeagueNameArg(opts.league));
  request.set_player(opts.player);
  request.set_season(opts.season);
  do {
    v1::RatingHistory page;
    grpc::Status status =
        client->leagues->GetRatingHistory(NewContext(*client).get(), request, &page);
    if (!status.ok()) return ReportRpcError(status);
    for (const v1::RatingPoint& point : page.points()) {
      if (opts.client.json) {
        std::cout << log::ToJsonLine(point) << "\n";
      } else {
        std::cout << absl::StrFormat("%4d  %s place %d  rating %.2f\n", point.games(),
                                     PadRight(point.game(), 28), point.place(), point.display_rating());
      }
    }
    request.set_page_token(page.next_page_token());
  } while (!request.page_token().empty());
  return 0;
}

struct VoidOpts {
  ClientOptions client;
  std::string game;
  std::string reason;
  std::string request_id;
};

int RunVoid(const VoidOpts& opts) {
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  v1::VoidGameRequest request;
  request.set_name(GameNameArg(opts.game));
  request.set_reason(opts.reason);
  request.set_request_id(opts.request_id.empty() ? absl::StrCat("void-", request.name())
                                                 : opts.request_id);
  v1::Game game;
  grpc::Status status = client->games->VoidGame(NewContext(*client).get(), request, &game);
  if (!status.ok()) return ReportRpcError(status);
  std::cout << game.name() << " is voided\n";
  return 0;
}

}  // namespace

void AddLeagueCommands(CLI::App& app, int& exit_code) {
  CLI::App* league = app.add_subcommand("league", "Create, change, show and rebuild leagues");
  league->require_subcommand(1);
  auto create = std::make_shared<LeagueOpts>();
  CLI::App* cmd = league->add_subcommand("create", "Create a league");
  cmd->add_option("league", create->league, "League id")->required();
  cmd->add_option("--request-id", create->request_id, "Request id (default: from the league id)");
  AddSettingsOptions(*cmd, create->settings);
  AddClientOptions(*cmd, create->client);
  cmd->callback([create, &exit_code] { exit_code = RunLeagueCreate(*create); });

  auto set = std::make_shared<LeagueOpts>();
  cmd = league->add_subcommand("set", "Change a league's settings (its ratings are rebuilt)");
  cmd->add_option("league", set->league, "League id")->required();
  cmd->add_option("--request-id", set->request_id, "Request id");
  AddSettingsOptions(*cmd, set->settings);
  AddClientOptions(*cmd, set->client);
  cmd->callback([set, &exit_code] { exit_code = RunLeagueSet(*set); });

  auto show = std::make_shared<LeagueOpts>();
  cmd = league->add_subcommand("show", "A league's settings and state");
  cmd->add_option("league", show->league, "League id")->required();
  AddClientOptions(*cmd, show->client);
  cmd->callback([show, &exit_code] { exit_code = RunLeagueShow(*show); });

  auto list = std::make_shared<LeagueOpts>();
  cmd = league->add_subcommand("list", "Every league");
  AddClientOptions(*cmd, list->client);
  cmd->callback([list, &exit_code] { exit_code = RunLeagueList(*list); });

  auto rebuild = std::make_shared<LeagueOpts>();
  cmd = league->add_subcommand("rebuild", "Recompute a league's ratings from the logs");
  cmd->add_option("league", rebuild->league, "League id")->required();
  AddClientOptions(*cmd, rebuild->client);
  cmd->callback([rebuild, &exit_code] { exit_code = RunLeagueRebuild(*rebuild); });

  auto board = std::make_shared<BoardOpts>();
  cmd = app.add_subcommand("leaderboard", "A league's leaderboard");
  cmd->add_option("league", board->league, "League id")->required();
  cmd->add_option("--season", board->season, "A season id (default: all time)");
  cmd->add_option("--limit", board->limit, "Rows at most")->capture_default_str();
  cmd->add_flag("--csv", board->csv, "Print CSV with full precision");
  AddClientOptions(*cmd, board->client);
  cmd->callback([board, &exit_code] { exit_code = RunLeaderboard(*board); });

  auto rating = std::make_shared<RatingOpts>();
  cmd = app.add_subcommand("rating", "A player's rating history in a league");
  cmd->add_option("league", rating->league, "League id")->required();
  cmd->add_option("player", rating->player, "Player id")->required();
  cmd->add_option("--season", rating->season, "A season id (default: all time)");
  AddClientOptions(*cmd, rating->client);
  cmd->callback([rating, &exit_code] { exit_code = RunRating(*rating); });

  auto voiding = std::make_shared<VoidOpts>();
  cmd = app.add_subcommand("void", "Void a game (recorded as an event; leagues stop counting it)");
  cmd->add_option("game", voiding->game, "Game id or name (games/ID)")->required();
  cmd->add_option("--reason", voiding->reason, "Why")->required();
  cmd->add_option("--request-id", voiding->request_id, "Request id (default: from the game)");
  AddClientOptions(*cmd, voiding->client);
  cmd->callback([voiding, &exit_code] { exit_code = RunVoid(*voiding); });
}

}  // namespace arbiter::cli
