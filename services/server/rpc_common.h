// What every RPC handler does around its body: authenticate the caller,
// refuse a request larger than its method allows (request_limits.h), stop
// when the call is cancelled or past its deadline, run the body where its
// route says (read_routing.h: a standby, or the primary), log one line, and
// turn an absl::Status into a grpc::Status with its details.
#ifndef ARBITER_SERVICES_SERVER_RPC_COMMON_H_
#define ARBITER_SERVICES_SERVER_RPC_COMMON_H_

#include <grpcpp/grpcpp.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/time/clock.h"
#include "services/access/authenticator.h"
#include "services/access/permissions.h"
#include "services/games/game_loader.h"
#include "services/server/log_text.h"
#include "services/server/read_routing.h"
#include "services/server/request_limits.h"
#include "services/common/status_details.h"
#include "services/server/status_mapping.h"

namespace arbiter::server {

inline std::string AuthorizationOf(const grpc::ServerContextBase* context) {
  const auto& metadata = context->client_metadata();
  auto it = metadata.find("authorization");
  if (it == metadata.end()) return "";
  return std::string(it->second.data(), it->second.size());
}

inline games::CancelCheck CancelOf(grpc::ServerContextBase* context) {
  return [context]() -> absl::Status {
    if (context->IsCancelled()) return absl::CancelledError("the call was cancelled");
    if (std::chrono::system_clock::now() > context->deadline()) {
      return absl::DeadlineExceededError("the call's deadline passed; nothing more was done");
    }
    return absl::OkStatus();
  };
}

// Authenticates, runs `body` as `route` says (RunRouted, read_routing.h;
// `routing` null: on the primary), logs one line and answers the status the
// client is to see. Caller text in the line is escaped and cut (log_text.h);
// a server-side failure reaches the client as a generic message with a
// correlation id, and the log line keeps the detail under that id.
template <typename Body>
absl::Status ServeStatus(grpc::ServerContextBase* context, access::Authenticator& auth,
                         const ReadRouting* routing, Route route, const char* method,
                         const std::string& game, const std::string& request_id, Body body) {
  const absl::Time start = absl::Now();
  std::string principal = "-";
  absl::Status status;
  absl::StatusOr<access::Caller> caller = auth.Authenticate(AuthorizationOf(context));
  if (!caller.ok()) {
    status = caller.status();
  } else {
    principal = caller->principal;
    status = TakeOversizeNote(context);
    if (status.ok()) status = CancelOf(context)();
    if (status.ok()) {
      status = RunRouted(routing, route, context, [&]() -> absl::Status { return body(*caller); });
    }
  }
  const double ms = absl::ToDoubleMilliseconds(absl::Now() - start);
  const std::string code = CodeName(status.code());
  if (status.ok()) {
    spdlog::info("{} game={} request_id={} principal={} status=OK time={:.2f}ms", method,
                 LogSafe(game), LogSafe(request_id), LogSafe(principal), ms);
    return status;
  }
  std::string correlation;
  if (IsServerSide(status.code())) correlation = NewCorrelationId();
  spdlog::warn("{} game={} request_id={} principal={} status={} time={:.2f}ms{}{}: {}", method,
               LogSafe(game), LogSafe(request_id), LogSafe(principal), code, ms,
               correlation.empty() ? "" : " correlation_id=", correlation,
               LogSafe(status.message(), 1000));
  if (!correlation.empty()) return ClientSafe(status.code(), correlation);
  return status;
}

// ServeStatus as a call's grpc::Status, with its details.
template <typename Body>
grpc::Status Serve(grpc::ServerContext* context, access::Authenticator& auth,
                   const ReadRouting* routing, Route route, const char* method,
                   const std::string& game, const std::string& request_id, Body body) {
  return ToGrpcStatus(ServeStatus(context, auth, routing, route, method, game, request_id,
                                  std::move(body)));
}

// As above, on the primary.
template <typename Body>
grpc::Status Serve(grpc::ServerContext* context, access::Authenticator& auth, const char* method,
                   const std::string& game, const std::string& request_id, Body body) {
  return Serve(context, auth, nullptr, Route::kPrimary, method, game, request_id, std::move(body));
}

}  // namespace arbiter::server

#endif  // ARBITER_SERVICES_SERVER_RPC_COMMON_H_
