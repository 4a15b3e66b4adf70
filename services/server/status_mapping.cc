#include "services/server/status_mapping.h"

#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/cord.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"

namespace arbiter::server {
namespace {

constexpr char kErrorInfoUrl[] = "type.googleapis.com/google.rpc.ErrorInfo";
constexpr char kBadRequestUrl[] = "type.googleapis.com/google.rpc.BadRequest";

template <typename Message>
std::optional<Message> Payload(const absl::Status& status, const char* url) {
  auto cord = status.GetPayload(url);
  if (!cord.has_value()) return std::nullopt;
  Message message;
  if (!message.ParseFromString(std::string(*cord))) return std::nullopt;
  return message;
}

}  // namespace

std::string CodeName(absl::StatusCode code) {
  return absl::AsciiStrToUpper(absl::StatusCodeToString(code));
}

absl::Status WithErrorInfo(absl::Status status, const std::string& reason,
                           const std::map<std::string, std::string>& metadata) {
  google::rpc::ErrorInfo info;
  info.set_reason(reason);
  info.set_domain(kErrorDomain);
  for (const auto& [key, value] : metadata) (*info.mutable_metadata())[key] = value;
  status.SetPayload(kErrorInfoUrl, absl::Cord(info.SerializeAsString()));
  return status;
}

absl::Status WithFieldViolation(absl::Status status, const std::string& field,
                                const std::string& description) {
  google::rpc::BadRequest bad =
      Payload<google::rpc::BadRequest>(status, kBadRequestUrl).value_or(google::rpc::BadRequest{});
  google::rpc::BadRequest::FieldViolation* violation = bad.add_field_violations();
  violation->set_field(field);
  violation->set_description(description);
  status.SetPayload(kBadRequestUrl, absl::Cord(bad.SerializeAsString()));
  return status;
}

absl::Status FieldError(const std::string& field, const std::string& message) {
  return WithFieldViolation(absl::InvalidArgumentError(message), field, message);
}

grpc::Status ToGrpcStatus(const absl::Status& status) {
  if (status.ok()) return grpc::Status::OK;
  google::rpc::Status rpc;
  rpc.set_code(static_cast<int>(status.code()));
  rpc.set_message(std::string(status.message()));
  google::rpc::ErrorInfo info =
      Payload<google::rpc::ErrorInfo>(status, kErrorInfoUrl).value_or(google::rpc::ErrorInfo{});
  if (info.reason().empty()) info.set_reason(CodeName(status.code()));
  info.set_domain(kErrorDomain);
  rpc.add_details()->PackFrom(info);
  if (auto bad = Payload<google::rpc::BadRequest>(status, kBadRequestUrl)) {
    rpc.add_details()->PackFrom(*bad);
  }
  return grpc::Status(static_cast<grpc::StatusCode>(status.code()), rpc.message(),
                      rpc.SerializeAsString());
}

}  // namespace arbiter::server
