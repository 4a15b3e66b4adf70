#include "services/server/status_mapping.h"

#include <optional>

#include "absl/strings/ascii.h"
#include "services/common/status_details.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"

namespace arbiter::server {

std::string CodeName(absl::StatusCode code) {
  return absl::AsciiStrToUpper(absl::StatusCodeToString(code));
}

google::rpc::Status ToRpcStatus(const absl::Status& status) {
  google::rpc::Status rpc;
  if (status.ok()) return rpc;
  rpc.set_code(static_cast<int>(status.code()));
  rpc.set_message(std::string(status.message()));
  google::rpc::ErrorInfo info =
      common::ErrorInfoOf(status).value_or(google::rpc::ErrorInfo{});
  if (info.reason().empty()) info.set_reason(CodeName(status.code()));
  info.set_domain(common::kErrorDomain);
  rpc.add_details()->PackFrom(info);
  if (auto bad = common::BadRequestOf(status)) {
    rpc.add_details()->PackFrom(*bad);
  }
  return rpc;
}

grpc::Status ToGrpcStatus(const absl::Status& status) {
  if (status.ok()) return grpc::Status::OK;
  const google::rpc::Status rpc = ToRpcStatus(status);
  return grpc::Status(static_cast<grpc::StatusCode>(status.code()), rpc.message(),
                      rpc.SerializeAsString());
}

}  // namespace arbiter::server
