#include "services/server/early_auth.h"

#include <spdlog/spdlog.h>

#include <string>

#include "absl/strings/match.h"
#include "services/server/log_text.h"
#include "services/server/status_mapping.h"

namespace arbiter::server {
namespace {

// Services that answer without a token.
bool IsOpenPath(const std::string& path) {
  return absl::StartsWith(path, "/grpc.health.v1.Health/") ||
         absl::StartsWith(path, "/grpc.reflection.");
}

}  // namespace

grpc::Status EarlyAuthProcessor::Process(const InputMetadata& auth_metadata,
                                         grpc::AuthContext* /*context*/,
                                         OutputMetadata* /*consumed_auth_metadata*/,
                                         OutputMetadata* /*response_metadata*/) {
  std::string path;
  std::string authorization;
  for (const auto& [key, value] : auth_metadata) {
    if (key == ":path") path.assign(value.data(), value.size());
    if (key == "authorization") authorization.assign(value.data(), value.size());
  }
  if (IsOpenPath(path)) return grpc::Status::OK;
  absl::StatusOr<access::Caller> caller = auth_.Authenticate(authorization);
  if (caller.ok()) return grpc::Status::OK;
  spdlog::warn("{} refused before its message was read: {}", LogSafe(path),
               LogSafe(caller.status().message()));
  if (caller.status().code() == absl::StatusCode::kUnauthenticated) {
    return ToGrpcStatus(caller.status());
  }
  return ToGrpcStatus(ClientSafe(absl::StatusCode::kUnavailable, NewCorrelationId()));
}

}  // namespace arbiter::server
