// What `arbiter` adds to a server's error for a person: a "hint:" line
// naming the command or flag to use, and the exit code. The server's
// messages speak of resources ("create the league first") so that they
// serve every client; the hint is keyed on the error's ErrorInfo reason and
// metadata (docs/service.md, "Errors"), or else on its status code, and
// never names an RPC. Pure functions; thread-safe.
#ifndef ARBITER_SERVICES_CLI_ERROR_HINTS_H_
#define ARBITER_SERVICES_CLI_ERROR_HINTS_H_

#include <grpcpp/support/status.h>

#include <string>

#include "google/rpc/error_details.pb.h"

namespace arbiter::cli {

// The hint for an error with `code` and `info` (an empty ErrorInfo when the
// error carries none): "arbiter league create north --game atlantis ...",
// without the "hint: " prefix. Empty when there is nothing to add.
std::string HintFor(grpc::StatusCode code, const google::rpc::ErrorInfo& info);

// The exit code of a failed call (README): 2 for what the caller can fix
// (bad or refused input, unknown names, permissions, a request or a log over
// its size limit), 1 for the server or the network (unavailable, deadline,
// internal, a server at capacity).
int ExitCodeFor(grpc::StatusCode code, const google::rpc::ErrorInfo& info);

}  // namespace arbiter::cli

#endif  // ARBITER_SERVICES_CLI_ERROR_HINTS_H_
