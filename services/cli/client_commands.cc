// The `arbiter` commands that talk to arbiterd: submit (one file here, many
// in submit_many.cc), adjudicate, state, verify, games and token create.
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "services/cli/client_common.h"
#include "services/cli/cli_common.h"
#include "services/cli/commands.h"
#include "services/cli/report_text.h"
#include "services/cli/submit_many.h"
#include "services/cli/submit_plan.h"
#include "services/cli/text_columns.h"
#include "services/log/json_lines.h"

namespace arbiter::cli {
namespace {

constexpr std::size_t kMaxLogBytes = std::size_t{256} << 20;

// One line of `token list`: id, role, principal, expiry, revocation, scopes.
std::string TokenRow(const std::vector<std::string>& cells) {
  static constexpr int kWidths[] = {32, 9, 10, 20, 24};
  std::string line;
  for (size_t c = 0; c + 1 < cells.size(); ++c) line += PadRight(cells[c], kWidths[c]) + "  ";
  return line + cells.back() + "\n";
}

const char* StatusName(v1::GameStatus status) {
  switch (status) {
    case v1::GAME_STATUS_ACTIVE:
      return "active";
    case v1::GAME_STATUS_FINISHED:
      return "finished";
    case v1::GAME_STATUS_VOIDED:
      return "voided";
    default:
      return "-";
  }
}

const char* VerdictName(v1::Verdict verdict) {
  switch (verdict) {
    case v1::VERDICT_LEGAL:
      return "legal";
    case v1::VERDICT_ILLEGAL:
      return "illegal";
    case v1::VERDICT_UNFINISHED:
      return "unfinished";
    default:
      return "-";
  }
}

struct SubmitOpts {
  SubmitManyOptions many;  // the files, the client and what every file shares
  std::string game_id;
  std::string request_id;
};

// One file, as `arbiter submit FILE` always did: the verdict in full, the
// verdict's exit code.
int RunSubmitOne(const SubmitOpts& opts) {
  absl::StatusOr<std::string> content = ReadFile(opts.many.paths.front(), kMaxLogBytes);
  if (!content.ok()) return ReportError(content.status());
  auto client = Connect(opts.many.client);
  if (!client.ok()) return ReportError(client.status());
  v1::SubmitGameRequest request;
  // The same file submitted twice is the same request: a retry, not a copy.
  request.set_request_id(opts.request_id.empty() ? SubmitRequestId(*content) : opts.request_id);
  request.set_game_id(opts.game_id);
  request.set_log(*content);
  request.set_league(opts.many.league);
  request.set_tournament(opts.many.tournament);
  request.set_allow_duplicate(opts.many.allow_duplicate);
  v1::SubmitGameResponse response;
  grpc::Status status = client->games->SubmitGame(NewContext(*client).get(), request, &response);
  if (!status.ok()) return ReportRpcError(status);
  if (opts.many.client.json) {
    std::cout << log::ToJsonLine(response) << "\n";
  } else {
    std::cout << "stored as " << response.game().name() << " ("
              << StatusName(response.game().status()) << ", " << response.game().last_event()
              << " events)\n";
    if (!response.game().duplicate_of().empty()) {
      std::cout << "a duplicate of games/" << response.game().duplicate_of()
                << ": kept for the record, never rated\n";
    }
    std::cout << FormatReport(ReportOf(response.adjudication(), response.game()),
                              HeaderOf(response.game()), SeedText(response.game()));
  }
  return ExitCodeForVerdict(response.adjudication().verdict());
}

// One file keeps the single submit; many files or a directory are a run
// (submit_many.h), where --game-id and --request-id, which name one game,
// are refused.
int RunSubmit(const SubmitOpts& opts) {
  std::error_code error;
  if (opts.many.paths.size() == 1 && !std::filesystem::is_directory(opts.many.paths[0], error)) {
    return RunSubmitOne(opts);
  }
  if (!opts.game_id.empty() || !opts.request_id.empty()) {
    return ReportError(absl::InvalidArgumentError(
        "--game-id and --request-id name one game: with many files or a directory, each file's "
        "request id (and so its game id) comes from its bytes; submit a file on its own to name "
        "it"));
  }
  return RunSubmitMany(opts.many, kMaxLogBytes);
}

// What a ruling made of the game's result, in one line, e.g. "corrected at
// event 95 by olga: dispute d1: ..."; "" when the referee's result stands.
std::string RulingLine(const v1::OfficialResult& official) {
  const char* what = official.source() == v1::RESULT_SOURCE_CORRECTED ? "corrected"
                     : official.source() == v1::RESULT_SOURCE_VOIDED  ? "voided"
                     : official.source() == v1::RESULT_SOURCE_REPORTED
                         ? "reported from a score sheet, not refereed,"
                         : nullptr;
  if (what == nullptr) return "";
  return absl::StrCat(what, " at event ", official.event(), " by ", official.recorded_by(), ": ",
                      official.reason());
}

// The official result after AdjudicateGame's report: which result stands,
// and a correction's standings.
std::string OfficialResultText(const v1::OfficialResult& official) {
  const std::string ruling = RulingLine(official);
  if (ruling.empty()) return "official result: the verdict above (no ruling changed it)\n";
  std::string out = absl::StrCat("official result: ", ruling, "\n");
  const v1::ReportedResult& reported = official.reported();
  for (int i = 0; i < official.standings().players_size(); ++i) {
    const v1::PlayerStanding& standing = official.standings().players(i);
    const std::string absent = SeatOutcomeText(reported, i);
    if (!absent.empty()) {
      absl::StrAppend(&out, "  ", absent, ": ", standing.player(), "\n");
    } else if (official.standings().cooperative()) {
      absl::StrAppend(&out, "  ", standing.player(), " (score ", standing.score(), ")\n");
    } else {
      absl::StrAppend(&out, "  place ", standing.place(), ": ", standing.player(), " (score ",
                      standing.score(), ")\n");
    }
  }
  if (official.standings().cooperative()) {
    absl::StrAppend(&out, "  the team ",
                    official.standings().team_outcome() == v1::TEAM_OUTCOME_WON ? "won" : "lost",
                    "\n");
  }
  return out;
}

struct GameOpts {
  ClientOptions client;
  std::string game;
  int64_t at = 0;
};

int RunAdjudicate(const GameOpts& opts) {
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  v1::GetGameRequest get;
  get.set_name(GameNameArg(opts.game));
  v1::Game game;
  grpc::Status status = client->games->GetGame(NewContext(*client).get(), get, &game);
  if (!status.ok()) return ReportRpcError(status);
  v1::AdjudicateGameRequest request;
  request.set_name(get.name());
  v1::Adjudication adjudication;
  status = client->games->AdjudicateGame(NewContext(*client).get(), request, &adjudication);
  if (!status.ok()) return ReportRpcError(status);
  if (opts.client.json) {
    std::cout << log::ToJsonLine(adjudication) << "\n";
  } else {
    std::cout << game.name() << " (" << StatusName(game.status()) << ")\n"
              << FormatReport(ReportOf(adjudication, game), HeaderOf(game), SeedText(game))
              << OfficialResultText(adjudication.official());
  }
  return ExitCodeForVerdict(adjudication.verdict());
}

int RunState(const GameOpts& opts) {
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  v1::GetGameStateRequest request;
  request.set_name(GameNameArg(opts.game));
  request.set_event(opts.at);
  v1::GameState state;
  grpc::Status status = client->games->GetGameState(NewContext(*client).get(), request, &state);
  if (!status.ok()) return ReportRpcError(status);
  if (opts.client.json) {
    std::cout << log::ToJsonLine(state) << "\n";
    return kExitOk;
  }
  std::cout << state.game() << " after event " << state.event() << " (verdict "
            << VerdictName(state.verdict()) << ")\n";
  if (state.has_violation()) {
    std::cout << "  event " << state.violation().event() << " (" << state.violation().player()
              << ") breaks rule " << state.violation().rule() << ": "
              << state.violation().detail() << "\n";
  }
  if (state.players_to_act_size() > 0) {
    std::cout << "to act:";
    for (const std::string& p : state.players_to_act()) std::cout << " " << p;
    std::cout << "\n";
  }
  std::cout << state.description();
  if (!state.description().empty() && state.description().back() != '\n') std::cout << "\n";
  return kExitOk;
}

int RunVerify(const GameOpts& opts) {
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  v1::VerifyGameRequest request;
  request.set_name(GameNameArg(opts.game));
  v1::VerifyGameResponse report;
  grpc::Status status = client->games->VerifyGame(NewContext(*client).get(), request, &report);
  if (!status.ok()) return ReportRpcError(status);
  if (opts.client.json) {
    std::cout << log::ToJsonLine(report) << "\n";
  } else if (report.intact()) {
    std::cout << request.name() << ": intact, " << report.events()
              << " events, last hash " << report.last_event_hash() << ", verdict "
              << VerdictName(report.verdict());
    const std::string ruling = RulingLine(report.official());
    if (!ruling.empty()) std::cout << "; official result " << ruling;
    std::cout << "\n";
  } else {
    std::cout << request.name() << ": BROKEN at event " << report.first_bad_event() << ": "
              << report.problem() << "\n";
  }
  return report.intact() ? kExitOk : kExitIllegal;
}

struct GamesOpts {
  ClientOptions client;
  v1::ListGamesRequest filter;
  std::string status;
  bool all = false;
};

int RunGames(GamesOpts opts) {
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  if (opts.status == "active") opts.filter.set_status(v1::GAME_STATUS_ACTIVE);
  if (opts.status == "finished") opts.filter.set_status(v1::GAME_STATUS_FINISHED);
  if (opts.status == "voided") opts.filter.set_status(v1::GAME_STATUS_VOIDED);
  bool first = true;
  while (true) {
    v1::ListGamesResponse page;
    grpc::Status status = client->games->ListGames(NewContext(*client).get(), opts.filter, &page);
    if (!status.ok()) return ReportRpcError(status);
    if (first && !opts.client.json) {
      std::cout << absl::StrFormat("%s %s %s %7s  %s\n", PadRight("GAME", 40), PadRight("TYPE", 16),
                                   PadRight("STATUS", 9), "EVENTS", "PLAYERS");
    }
    first = false;
    for (const v1::Game& game : page.games()) {
      if (opts.client.json) {
        std::cout << log::ToJsonLine(game) << "\n";
        continue;
      }
      std::string players;
      for (const v1::Player& p : game.players()) absl::StrAppend(&players, players.empty() ? "" : ",", p.id());
      std::cout << absl::StrFormat("%s %s %s %7d  %s\n", PadRight(game.name(), 40),
                                   PadRight(game.game_type(), 16), PadRight(StatusName(game.status()), 9),
                                   game.last_event(), players);
    }
    if (page.next_page_token().empty() || !opts.all) {
      if (!page.next_page_token().empty() && !opts.client.json) {
        std::cout << "(more: --all, or --page-token " << page.next_page_token() << ")\n";
      }
      break;
    }
    opts.filter.set_page_token(page.next_page_token());
  }
  return kExitOk;
}

struct TokenOpts {
  ClientOptions client;
  std::string role;
  std::string principal;
  std::vector<std::string> leagues;
  std::vector<std::string> tournaments;
  std::vector<std::string> games;  // a player's
  std::string request_id;
  std::string ttl;       // "90d", "12h", "30m", "45s"; empty: never expires
  std::string token_id;  // revoke
};

// "90d", "12h", "30m" or "45s" as seconds; InvalidArgument otherwise.
absl::StatusOr<int64_t> ParseTtl(const std::string& text) {
  int64_t n = 0;
  if (text.size() < 2 || !absl::SimpleAtoi(text.substr(0, text.size() - 1), &n) || n < 1) {
    return absl::InvalidArgumentError("--ttl is a count and a unit: 90d, 12h, 30m or 45s");
  }
  switch (text.back()) {
    case 'd':
      return n * 86400;
    case 'h':
      return n * 3600;
    case 'm':
      return n * 60;
    case 's':
      return n;
    default:
      break;
  }
  return absl::InvalidArgumentError("--ttl is a count and a unit: 90d, 12h, 30m or 45s");
}

std::string TimeText(const google::protobuf::Timestamp& t) {
  return absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", absl::FromUnixSeconds(t.seconds()),
                          absl::UTCTimeZone());
}

// A token's leagues and tournaments as resource names ("leagues/north,
// tournaments/cup"), or "-" for none.
std::string ScopesText(const v1::TokenInfo& token) {
  std::vector<std::string> scopes;
  for (const std::string& l : token.leagues()) scopes.push_back(absl::StrCat("leagues/", l));
  for (const std::string& t : token.tournaments()) scopes.push_back(absl::StrCat("tournaments/", t));
  for (const std::string& g : token.games()) scopes.push_back(absl::StrCat("games/", g));
  return scopes.empty() ? "-" : absl::StrJoin(scopes, ",");
}

int RunTokenList(const TokenOpts& opts) {
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  v1::ListTokensRequest request;
  request.set_page_size(1000);
  bool first_page = true;
  while (true) {
    v1::ListTokensResponse page;
    grpc::Status status = client->tokens->ListTokens(NewContext(*client).get(), request, &page);
    if (!status.ok()) return ReportRpcError(status);
    // The header once the first page arrived: nothing on stdout before an
    // error.
    if (first_page && !opts.client.json) {
      std::cout << TokenRow({"token_id", "role", "principal", "expires", "revoked", "scopes"});
    }
    first_page = false;
    for (const v1::TokenInfo& token : page.tokens()) {
      if (opts.client.json) {
        std::cout << log::ToJsonLine(token) << "\n";
        continue;
      }
      std::string role = v1::Role_Name(token.role());
      role = absl::AsciiStrToLower(role.substr(role.find('_') + 1));
      std::cout << TokenRow({token.token_id(), role, token.principal(),
                             token.has_expire_time() ? TimeText(token.expire_time()) : "never",
                             token.has_revoke_time()
                                 ? absl::StrCat(TimeText(token.revoke_time()), " by ", token.revoker())
                                 : "-",
                             ScopesText(token)});
    }
    if (page.next_page_token().empty()) break;
    request.set_page_token(page.next_page_token());
  }
  return kExitOk;
}

int RunTokenRevoke(const TokenOpts& opts) {
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  v1::RevokeTokenRequest request;
  request.set_token_id(opts.token_id);
  v1::TokenInfo response;
  grpc::Status status = client->tokens->RevokeToken(NewContext(*client).get(), request, &response);
  if (!status.ok()) return ReportRpcError(status);
  if (opts.client.json) {
    std::cout << log::ToJsonLine(response) << "\n";
  } else {
    std::cout << "revoked " << response.token_id() << " (" << response.principal() << ") at "
              << TimeText(response.revoke_time()) << "\n";
  }
  return kExitOk;
}

// "token-<role>-<principal>-<16 random hex digits>": each call without
// --request-id mints a new token (a second token for the same person is the
// usual case, not a mistake); a retry that must not mint twice passes its own.
std::string FreshTokenRequestId(const TokenOpts& opts) {
  return FreshRequestId(absl::StrCat("token-", opts.role, "-", opts.principal));
}

int RunTokenCreate(const TokenOpts& opts) {
  auto client = Connect(opts.client);
  if (!client.ok()) return ReportError(client.status());
  v1::CreateTokenRequest request;
  if (opts.role == "admin") request.set_role(v1::ROLE_ADMIN);
  if (opts.role == "organiser" || opts.role == "organizer") request.set_role(v1::ROLE_ORGANISER);
  if (opts.role == "auditor") request.set_role(v1::ROLE_AUDITOR);
  if (opts.role == "public") request.set_role(v1::ROLE_PUBLIC);
  if (opts.role == "player") request.set_role(v1::ROLE_PLAYER);
  request.set_principal(opts.principal);
  for (const std::string& g : opts.games) request.add_games(g);
  for (const std::string& l : opts.leagues) request.add_leagues(l);
  for (const std::string& t : opts.tournaments) request.add_tournaments(t);
  request.set_request_id(opts.request_id.empty() ? FreshTokenRequestId(opts) : opts.request_id);
  if (!opts.ttl.empty()) {
    absl::StatusOr<int64_t> seconds = ParseTtl(opts.ttl);
    if (!seconds.ok()) return ReportError(seconds.status());
    request.mutable_ttl()->set_seconds(*seconds);
  }
  v1::CreateTokenResponse response;
  grpc::Status status =
      client->tokens->CreateToken(NewContext(*client).get(), request, &response);
  if (status.error_code() == grpc::StatusCode::ALREADY_EXISTS) {
    const int exit_code = ReportRpcError(status);
    std::cerr << "arbiter: leave out --request-id to mint another token (each call then gets a "
                 "fresh one); a lost token is replaced by revoking it (arbiter token list, "
                 "arbiter token revoke ID)\n";
    return exit_code;
  }
  if (!status.ok()) return ReportRpcError(status);
  if (opts.client.json) {
    std::cout << log::ToJsonLine(response) << "\n";
    return kExitOk;
  }
  std::cout << response.token() << "\n";
  return kExitOk;
}

// `arbiter token create|list|revoke`.
void AddTokenCommands(CLI::App& app, int& exit_code) {
  auto token = std::make_shared<TokenOpts>();
  CLI::App* token_cmd = app.add_subcommand(
      "token", "Manage arbiterd's bearer tokens (admins; organisers create player tokens)");
  token_cmd->require_subcommand(1);
  CLI::App* cmd = token_cmd->add_subcommand("create", "Create a token; prints it (shown only once)");
  cmd->add_option("--role", token->role,
                  "admin, organiser (or organizer), auditor, public or player")
      ->required()
      ->check(CLI::IsMember({"admin", "organiser", "organizer", "auditor", "public", "player"}));
  cmd->add_option("--principal", token->principal,
                  "Who holds the token (a player token: the player id its games seat)")
      ->required();
  cmd->add_option("--league", token->leagues, "An organiser's league (repeatable)");
  cmd->add_option("--tournament", token->tournaments,
                  "An organiser's tournament, or a player's: every table it sits at (repeatable)");
  cmd->add_option("--game", token->games, "A player's game (repeatable)");
  cmd->add_option("--request-id", token->request_id,
                  "Request id: a retry with the same one returns the same token instead of "
                  "minting another (default: a fresh one, so every call mints a new token)");
  cmd->add_option("--ttl", token->ttl,
                  "How long the token works: 90d, 12h, 30m or 45s (default: until revoked)");
  AddClientOptions(*cmd, token->client);
  cmd->callback([token, &exit_code] { exit_code = RunTokenCreate(*token); });
  cmd = token_cmd->add_subcommand("list",
                                  "List tokens (ids, roles, expiry, revocation; no secrets)");
  AddClientOptions(*cmd, token->client);
  cmd->callback([token, &exit_code] { exit_code = RunTokenList(*token); });
  cmd = token_cmd->add_subcommand("revoke", "Revoke a token by its id (effective within a second)");
  cmd->add_option("token_id", token->token_id, "The token's id (from token list)")->required();
  AddClientOptions(*cmd, token->client);
  cmd->callback([token, &exit_code] { exit_code = RunTokenRevoke(*token); });
}

}  // namespace

void AddClientCommands(CLI::App& app, int& exit_code) {
  auto submit = std::make_shared<SubmitOpts>();
  CLI::App* cmd = app.add_subcommand(
      "submit",
      "Submit log files to arbiterd: stored as evidence, answered with the verdict");
  cmd->footer(
      "One FILE: its verdict in full; exit 0 legal, 3 unfinished, 4 illegal, 2 bad input or\n"
      "refused (a duplicate), 1 server failure.\n"
      "Many files or a DIR (its *.jsonl files, not its subdirectories, in name order): sent\n"
      "--jobs at a time, a line per file on stderr (one updating line on a terminal), then a\n"
      "summary on stdout: how many legal, illegal, unfinished, refused as duplicates, failed,\n"
      "and which. Exit: the worst file's code, worst first 1, 2, 4, 3, 0 (0: every file stored,\n"
      "legal and finished); 130 after Ctrl-C, which lets the submissions in flight finish.\n"
      "The same command run again resumes: each file's request id comes from its bytes, so\n"
      "files already stored are answered from the store and never stored twice.");
  cmd->add_option("paths", submit->many.paths, "Log files (JSON Lines) or directories of them")
      ->type_name("FILE|DIR")
      ->required();
  cmd->add_option("--game-id", submit->game_id, "Name the game (default: derived; one file only)");
  cmd->add_option("--request-id", submit->request_id,
                  "Request id (default: from the file's SHA-256, so resubmitting is a retry; one "
                  "file only)");
  cmd->add_option("--league", submit->many.league, "League of the games");
  cmd->add_option("--tournament", submit->many.tournament, "Tournament of the games");
  cmd->add_flag("--allow-duplicate", submit->many.allow_duplicate,
                "Store a log that repeats a stored game, marked as its duplicate (never rated)");
  cmd->add_option("--jobs", submit->many.jobs, "Submissions in flight at once (many files)")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  AddClientOptions(*cmd, submit->many.client);
  cmd->callback([submit, &exit_code] { exit_code = RunSubmit(*submit); });

  auto adjudicate = std::make_shared<GameOpts>();
  cmd = app.add_subcommand("adjudicate", "Replay a stored game: verdict, violation, standings");
  cmd->add_option("game", adjudicate->game, "Game id or name (games/ID)")->required();
  AddClientOptions(*cmd, adjudicate->client);
  cmd->callback([adjudicate, &exit_code] { exit_code = RunAdjudicate(*adjudicate); });

  auto state = std::make_shared<GameOpts>();
  cmd = app.add_subcommand("state", "The position of a stored game after an event");
  cmd->add_option("game", state->game, "Game id or name (games/ID)")->required();
  cmd->add_option("--at", state->at, "Event number (1 = before the first action; 0 = the last)")
      ->capture_default_str();
  AddClientOptions(*cmd, state->client);
  cmd->callback([state, &exit_code] { exit_code = RunState(*state); });

  auto verify = std::make_shared<GameOpts>();
  cmd = app.add_subcommand("verify",
                           "Check a stored game's hash chain and replay it (exit 4 if broken)");
  cmd->add_option("game", verify->game, "Game id or name (games/ID)")->required();
  AddClientOptions(*cmd, verify->client);
  cmd->callback([verify, &exit_code] { exit_code = RunVerify(*verify); });

  auto games = std::make_shared<GamesOpts>();
  cmd = app.add_subcommand("games", "List stored games");
  cmd->add_option("--type", *games->filter.mutable_game_type(), "Only games of this game");
  cmd->add_option("--status", games->status, "Only active, finished or voided games")
      ->check(CLI::IsMember({"active", "finished", "voided"}));
  cmd->add_option("--league", *games->filter.mutable_league(), "Only this league");
  cmd->add_option("--tournament", *games->filter.mutable_tournament(), "Only this tournament");
  cmd->add_option("--player", *games->filter.mutable_player(), "Only games of this player id");
  cmd->add_option("--page-token", *games->filter.mutable_page_token(), "Continue a listing");
  cmd->add_flag("--all", games->all, "Fetch every page");
  AddClientOptions(*cmd, games->client);
  cmd->callback([games, &exit_code] {
    games->filter.set_page_size(100);
    exit_code = RunGames(*games);
  });

  AddTokenCommands(app, exit_code);
}

}  // namespace arbiter::cli
