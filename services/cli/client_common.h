// Shared pieces of the `arbiter` commands that talk to arbiterd over gRPC:
// the --server/--token options, the channel and the call context, and how a
// failed call is printed.
#ifndef ARBITER_SERVICES_CLI_CLIENT_COMMON_H_
#define ARBITER_SERVICES_CLI_CLIENT_COMMON_H_

#include <grpcpp/client_context.h>

#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "CLI/CLI.hpp"
#include "absl/status/statusor.h"
#include "arbiter/v1/arbiter_service.grpc.pb.h"
#include "arbiter/v1/league_service.grpc.pb.h"
#include "arbiter/v1/log.pb.h"
#include "arbiter/v1/report.pb.h"
#include "arbiter/v1/tournament_service.grpc.pb.h"
#include "arbiter/v1/transparency_service.grpc.pb.h"
#include "google/rpc/error_details.pb.h"

namespace arbiter::cli {

struct ClientOptions {
  std::string server;      // host:port; default $ARBITER_SERVER or 127.0.0.1:50051
  std::string token;       // --token (warned about: argv is readable by others)
  std::string token_file;  // read the token from this file instead (preferred)
  bool tls = false;
  std::string ca_file;     // PEM roots for TLS; empty: the system's
  double timeout_seconds = 60;
  bool json = false;
};

// Adds --server, --token, --token-file, --tls, --ca-cert, --timeout, --json.
void AddClientOptions(CLI::App& cmd, ClientOptions& options);

// The token to send: none if --token-file is given (Connect reads it), else
// --token with a warning on `warnings`, else $ARBITER_TOKEN.
std::string TokenFrom(const ClientOptions& options, std::ostream& warnings);

// A connected stub, or InvalidArgument for an unreadable token or CA file.
struct Client {
  std::unique_ptr<v1::ArbiterService::Stub> games;
  std::unique_ptr<v1::TokenService::Stub> tokens;
  std::unique_ptr<v1::LeagueService::Stub> leagues;
  std::unique_ptr<v1::TournamentService::Stub> tournaments;
  std::unique_ptr<v1::DisputeService::Stub> disputes;
  std::unique_ptr<v1::TransparencyService::Stub> transparency;
  std::string authorization;  // "Bearer <token>"
  double timeout_seconds = 60;
};
absl::StatusOr<Client> Connect(const ClientOptions& options);

// A context with the token and the deadline.
std::unique_ptr<grpc::ClientContext> NewContext(const Client& client);

// "INVALID_ARGUMENT" for INVALID_ARGUMENT, ...; "UNKNOWN" for a number
// outside gRPC's codes.
const char* RpcCodeName(grpc::StatusCode code);

// The first ErrorInfo among the status's details; nullopt when it has none.
std::optional<google::rpc::ErrorInfo> RpcErrorInfo(const grpc::Status& status);

// Prints "arbiter: CODE: message", any ErrorInfo/BadRequest details and a
// "hint:" line naming the command or flag to use (error_hints.h) to stderr,
// and returns the exit code (ExitCodeFor: 2 for caller mistakes, 1
// otherwise).
int ReportRpcError(const grpc::Status& status);

// `prefix` + "-" + 16 random hex digits: a request id of its own for each
// call (CreateToken: a second token for the same person is the usual case).
std::string FreshRequestId(const std::string& prefix);

// "games/x" for "x" or "games/x".
std::string GameNameArg(const std::string& game);
// "tournaments/{id}" for an id or a name given on the command line.
std::string TournamentNameArg(const std::string& tournament);

// "no-show", "forfeit", or "" (played) for seat `seat` (0-based) of a
// result reported from a score sheet.
std::string SeatOutcomeText(const v1::ReportedResult& reported, int seat);

// An Adjudication as the ReplayReport/LogHeader pair report_text.h prints.
v1::ReplayReport ReportOf(const v1::Adjudication& adjudication, const v1::Game& game);
v1::LogHeader HeaderOf(const v1::Game& game);
// The game's seed for people: the number when the answer shows it, "sealed
// (...)" for a game created with a commitment, "(hidden)" otherwise.
std::string SeedText(const v1::Game& game);

// Exit code for a verdict: 0 legal, 3 unfinished, 4 illegal.
int ExitCodeForVerdict(v1::Verdict verdict);

}  // namespace arbiter::cli

#endif  // ARBITER_SERVICES_CLI_CLIENT_COMMON_H_
