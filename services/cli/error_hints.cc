#include "services/cli/error_hints.h"

#include "absl/strings/str_cat.h"
#include "services/cli/cli_common.h"

namespace arbiter::cli {
namespace {

std::string Meta(const google::rpc::ErrorInfo& info, const std::string& key, const char* fallback) {
  auto it = info.metadata().find(key);
  return it == info.metadata().end() || it->second.empty() ? fallback : it->second;
}

}  // namespace

std::string HintFor(grpc::StatusCode code, const google::rpc::ErrorInfo& info) {
  // A call without a token never leaves the CLI (Connect), so the server
  // refused the one given. Its refusals carry no details: they are decided
  // before the request is read.
  if (code == grpc::StatusCode::UNAUTHENTICATED) {
    return "the server refused the token of --token-file, --token or ARBITER_TOKEN; an admin mints "
           "a new one with `arbiter token create`";
  }
  const std::string& reason = info.reason();
  if (reason == "LEAGUE_NOT_FOUND") {
    return absl::StrCat("create it with `arbiter league create ", Meta(info, "league", "LEAGUE"),
                        " --game GAME`, or name another with --league (`arbiter league list`)");
  }
  if (reason == "ROUND_STARTED") {
    return absl::StrCat("its tables: `arbiter tournament tables ", Meta(info, "tournament", "TOURNAMENT"),
                        " --round ", Meta(info, "round", "N"), "`");
  }
  if (reason == "RESULT_CONFIRMED") {
    const std::string tournament = Meta(info, "tournament", "TOURNAMENT");
    const std::string round = Meta(info, "round", "N");
    return absl::StrCat("its result: `arbiter tournament tables ", tournament, " --round ", round,
                        "`; to change it, `arbiter dispute open ID --tournament ", tournament,
                        " --round ", round, " --table ", Meta(info, "table", "N"), " --reason ...`");
  }
  if (reason == "DISPUTE_EXISTS") {
    return absl::StrCat("read it with `arbiter dispute show ", Meta(info, "dispute", "ID"),
                        "`, or open yours under another id");
  }
  if (reason == "TOO_MANY_PLAYERS") {
    return absl::StrCat("give fewer --player, then the rest with `arbiter tournament register ",
                        Meta(info, "tournament", "TOURNAMENT"), " --player ...` (as often as needed)");
  }
  if (reason == "REQUEST_TOO_LARGE") {
    return "shorten the text given (such as --reason) or give fewer --player in one command";
  }
  if (reason == "STALE_EXPECTED_EVENT") return "the game moved on: `arbiter moves GAME` shows the moves now";
  return "";
}

int ExitCodeFor(grpc::StatusCode code, const google::rpc::ErrorInfo& info) {
  switch (code) {
    case grpc::StatusCode::INVALID_ARGUMENT:
    case grpc::StatusCode::NOT_FOUND:
    case grpc::StatusCode::ALREADY_EXISTS:
    case grpc::StatusCode::PERMISSION_DENIED:
    case grpc::StatusCode::UNAUTHENTICATED:
    case grpc::StatusCode::FAILED_PRECONDITION:
    case grpc::StatusCode::OUT_OF_RANGE:
    case grpc::StatusCode::ABORTED:
      return kExitBadInput;
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      // Too large a request or log is the caller's to fix; a server at
      // capacity (threads, memory, live feeds) is not.
      return info.reason() == "REQUEST_TOO_LARGE" || info.reason() == "EVENT_LIMIT" ? kExitBadInput
                                                                                   : kExitFailure;
    default:
      return kExitFailure;
  }
}

}  // namespace arbiter::cli
