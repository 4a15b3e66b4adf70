#include "services/common/status_details.h"

#include "absl/strings/cord.h"

namespace arbiter::common {
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
  google::rpc::BadRequest bad = BadRequestOf(status).value_or(google::rpc::BadRequest{});
  google::rpc::BadRequest::FieldViolation* violation = bad.add_field_violations();
  violation->set_field(field);
  violation->set_description(description);
  status.SetPayload(kBadRequestUrl, absl::Cord(bad.SerializeAsString()));
  return status;
}

absl::Status FieldError(const std::string& field, const std::string& message) {
  return WithFieldViolation(absl::InvalidArgumentError(message), field, message);
}

std::optional<google::rpc::ErrorInfo> ErrorInfoOf(const absl::Status& status) {
  return Payload<google::rpc::ErrorInfo>(status, kErrorInfoUrl);
}

std::optional<google::rpc::BadRequest> BadRequestOf(const absl::Status& status) {
  return Payload<google::rpc::BadRequest>(status, kBadRequestUrl);
}

}  // namespace arbiter::common
