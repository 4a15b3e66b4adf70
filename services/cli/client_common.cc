#include "services/cli/client_common.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <random>

#include "engine/core/status_macros.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "services/cli/cli_common.h"
#include "services/cli/error_hints.h"

namespace arbiter::cli {

void AddClientOptions(CLI::App& cmd, ClientOptions& options) {
  const char* server = std::getenv("ARBITER_SERVER");
  options.server = server != nullptr ? server : "127.0.0.1:50051";
  cmd.add_option("--server", options.server, "arbiterd address (env ARBITER_SERVER)")
      ->capture_default_str();
  cmd.add_option("--token", options.token,
                 "Bearer token (other users of this machine can read a command line: prefer "
                 "--token-file or the environment variable ARBITER_TOKEN)");
  cmd.add_option("--token-file", options.token_file,
                 "Read the bearer token from this file (preferred)")
      ->check(CLI::ExistingFile);
  cmd.add_flag("--tls", options.tls, "Connect with TLS");
  cmd.add_option("--ca-cert", options.ca_file, "Root certificates (PEM) for --tls")
      ->check(CLI::ExistingFile);
  cmd.add_option("--timeout", options.timeout_seconds, "Seconds before a call gives up")
      ->capture_default_str();
  cmd.add_flag("--json", options.json, "Print the answer as JSON");
}

std::string TokenFrom(const ClientOptions& options, std::ostream& warnings) {
  if (!options.token_file.empty()) return "";  // Connect reads the file
  if (!options.token.empty()) {
    warnings << "arbiter: warning: a token given with --token can be read from the process "
                "list by other users of this machine; use --token-file or ARBITER_TOKEN\n";
    return options.token;
  }
  const char* env = std::getenv("ARBITER_TOKEN");
  return env != nullptr ? env : "";
}

absl::StatusOr<Client> Connect(const ClientOptions& options) {
  std::string token = TokenFrom(options, std::cerr);
  if (!options.token_file.empty()) {
    ARBITER_ASSIGN_OR_RETURN(std::string text, ReadFile(options.token_file, 4096));
    token = std::string(absl::StripAsciiWhitespace(text));
  }
  if (token.empty()) {
    return absl::UnauthenticatedError(
        "no token: give one with --token-file FILE (or the environment variable ARBITER_TOKEN); an "
        "admin mints one with `arbiter token create`");
  }
  std::shared_ptr<grpc::ChannelCredentials> credentials;
  if (options.tls) {
    grpc::SslCredentialsOptions ssl;
    if (!options.ca_file.empty()) {
      ARBITER_ASSIGN_OR_RETURN(std::string roots, ReadFile(options.ca_file, 1 << 20));
      ssl.pem_root_certs = roots;
    }
    credentials = grpc::SslCredentials(ssl);
  } else {
    credentials = grpc::InsecureChannelCredentials();
  }
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(256 << 20);
  args.SetMaxSendMessageSize(256 << 20);
  auto channel = grpc::CreateCustomChannel(options.server, credentials, args);
  Client client;
  client.games = v1::ArbiterService::NewStub(channel);
  client.tokens = v1::TokenService::NewStub(channel);
  client.leagues = v1::LeagueService::NewStub(channel);
  client.tournaments = v1::TournamentService::NewStub(channel);
  client.disputes = v1::DisputeService::NewStub(channel);
  client.transparency = v1::TransparencyService::NewStub(channel);
  if (!token.empty()) client.authorization = absl::StrCat("Bearer ", token);
  client.timeout_seconds = options.timeout_seconds;
  return client;
}

std::unique_ptr<grpc::ClientContext> NewContext(const Client& client) {
  auto context = std::make_unique<grpc::ClientContext>();
  if (!client.authorization.empty()) context->AddMetadata("authorization", client.authorization);
  context->set_deadline(std::chrono::system_clock::now() +
                        std::chrono::milliseconds(static_cast<int64_t>(client.timeout_seconds * 1000)));
  return context;
}

const char* RpcCodeName(grpc::StatusCode code) {
  static const char* const kNames[] = {
      "OK",        "CANCELLED",         "UNKNOWN",        "INVALID_ARGUMENT",   "DEADLINE_EXCEEDED",
      "NOT_FOUND", "ALREADY_EXISTS",    "PERMISSION_DENIED", "RESOURCE_EXHAUSTED",
      "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",   "UNIMPLEMENTED",      "INTERNAL",
      "UNAVAILABLE", "DATA_LOSS",       "UNAUTHENTICATED"};
  const int number = static_cast<int>(code);
  return number >= 0 && number <= 16 ? kNames[number] : "UNKNOWN";
}

std::optional<google::rpc::ErrorInfo> RpcErrorInfo(const grpc::Status& status) {
  google::rpc::Status details;
  if (status.error_details().empty() || !details.ParseFromString(status.error_details())) {
    return std::nullopt;
  }
  for (const auto& any : details.details()) {
    google::rpc::ErrorInfo info;
    if (any.UnpackTo(&info)) return info;
  }
  return std::nullopt;
}

int ReportRpcError(const grpc::Status& status) {
  std::cerr << "arbiter: " << RpcCodeName(status.error_code()) << ": " << status.error_message()
            << "\n";
  google::rpc::Status details;
  google::rpc::ErrorInfo reason;
  if (!status.error_details().empty() && details.ParseFromString(status.error_details())) {
    for (const auto& any : details.details()) {
      google::rpc::ErrorInfo info;
      google::rpc::BadRequest bad;
      if (any.UnpackTo(&info)) {
        std::cerr << "  reason: " << info.reason();
        for (const auto& [key, value] : info.metadata()) std::cerr << "; " << key << "=" << value;
        std::cerr << "\n";
        reason = info;
      } else if (any.UnpackTo(&bad)) {
        for (const auto& v : bad.field_violations()) {
          std::cerr << "  field " << v.field() << ": " << v.description() << "\n";
        }
      }
    }
  }
  if (const std::string hint = HintFor(status.error_code(), reason); !hint.empty()) {
    std::cerr << "hint: " << hint << "\n";
  }
  return ExitCodeFor(status.error_code(), reason);
}

std::string FreshRequestId(const std::string& prefix) {
  std::random_device random;
  const uint64_t bits = (uint64_t{random()} << 32) | random();
  return absl::StrCat(prefix, "-", absl::Hex(bits, absl::kZeroPad16));
}

std::string GameNameArg(const std::string& game) {
  return game.rfind("games/", 0) == 0 ? game : absl::StrCat("games/", game);
}

std::string SeatOutcomeText(const v1::ReportedResult& reported, int seat) {
  if (seat < 0 || seat >= reported.outcomes_size()) return "";
  switch (reported.outcomes(seat)) {
    case v1::SEAT_OUTCOME_NO_SHOW:
      return "no-show";
    case v1::SEAT_OUTCOME_FORFEIT:
      return "forfeit";
    default:
      return "";
  }
}

std::string TournamentNameArg(const std::string& tournament) {
  return tournament.rfind("tournaments/", 0) == 0 ? tournament
                                                  : absl::StrCat("tournaments/", tournament);
}

std::string SeedText(const v1::Game& game) {
  if (game.has_seed()) return absl::StrCat(game.seed());
  if (!game.seed_commitment().empty()) return "sealed (its reveal is an event of the log)";
  return "(hidden)";
}

v1::LogHeader HeaderOf(const v1::Game& game) {
  v1::LogHeader header;
  header.set_game(game.game_type());
  header.set_ruleset_id(game.ruleset_id());
  header.set_ruleset_hash(game.ruleset_hash());
  header.set_seed(game.seed());
  *header.mutable_players() = game.players();
  return header;
}

v1::ReplayReport ReportOf(const v1::Adjudication& adjudication, const v1::Game& game) {
  v1::ReplayReport report;
  switch (adjudication.verdict()) {
    case v1::VERDICT_LEGAL:
      report.set_verdict("legal");
      break;
    case v1::VERDICT_ILLEGAL:
      report.set_verdict("illegal");
      break;
    case v1::VERDICT_UNFINISHED:
      report.set_verdict("unfinished");
      break;
    default:
      report.set_verdict("unknown");
  }
  report.set_game(game.game_type());
  report.set_ruleset_id(game.ruleset_id());
  report.set_actions(adjudication.actions());
  if (adjudication.has_violation()) *report.mutable_violation() = adjudication.violation();
  if (adjudication.has_standings()) {
    const v1::Standings& standings = adjudication.standings();
    *report.mutable_standings() = standings.players();
    report.set_cooperative(standings.cooperative());
    report.set_team_outcome(standings.team_outcome());
    *report.mutable_team_breakdown() = standings.team_breakdown();
  }
  return report;
}

int ExitCodeForVerdict(v1::Verdict verdict) {
  switch (verdict) {
    case v1::VERDICT_LEGAL:
      return kExitOk;
    case v1::VERDICT_UNFINISHED:
      return kExitUnfinished;
    case v1::VERDICT_ILLEGAL:
      return kExitIllegal;
    default:
      return kExitFailure;
  }
}

}  // namespace arbiter::cli
