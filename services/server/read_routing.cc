#include "services/server/read_routing.h"

#include <spdlog/spdlog.h>

#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "services/common/status_details.h"

namespace arbiter::server {
namespace {

// The value of request header `name`, if present.
std::optional<std::string> HeaderOf(const grpc::ServerContextBase& context, const char* name) {
  const auto& metadata = context.client_metadata();
  auto it = metadata.find(name);
  if (it == metadata.end()) return std::nullopt;
  return std::string(it->second.data(), it->second.size());
}

}  // namespace

absl::StatusOr<std::optional<uint64_t>> ReadRouting::ReadAfterOf(
    const grpc::ServerContextBase& context) {
  std::optional<std::string> value = HeaderOf(context, kReadAfterHeader);
  if (!value.has_value()) return std::optional<uint64_t>();
  absl::StatusOr<uint64_t> position = store::pg::ParseWalPosition(*value);
  if (!position.ok()) {
    return common::FieldError(kReadAfterHeader,
                              absl::StrCat("request header ", kReadAfterHeader, ": ",
                                           position.status().message(),
                                           "; send back the value of the header ",
                                           kReadAfterHeader, " that a write answered"));
  }
  return std::optional<uint64_t>(*position);
}

absl::StatusOr<std::optional<int64_t>> ReadRouting::AfterPositionOf(
    const grpc::ServerContextBase& context) {
  std::optional<std::string> value = HeaderOf(context, kAfterPositionHeader);
  if (!value.has_value()) return std::optional<int64_t>();
  int64_t position = 0;
  if (!absl::SimpleAtoi(*value, &position) || position < 0 ||
      value->find_first_not_of("0123456789") != std::string::npos) {
    return common::FieldError(
        kAfterPositionHeader,
        absl::StrCat("request header ", kAfterPositionHeader,
                     ": expected a store position, a whole number such as 1234 (the header ",
                     kPositionHeader, " of a write's answer); got \"", value->substr(0, 40),
                     value->size() > 40 ? "..." : "", "\""));
  }
  return std::optional<int64_t>(position);
}

void ReadRouting::AnswerWrite(grpc::ServerContextBase* context) const {
  if (standby_ == nullptr) return;
  absl::StatusOr<store::pg::WriteMark> mark = standby_->AfterWrite();
  if (!mark.ok()) {
    spdlog::warn("the write is stored, but its {} could not be read: {}", kReadAfterHeader,
                 std::string(mark.status().message()));
    return;
  }
  context->AddInitialMetadata(kReadAfterHeader, store::pg::FormatWalPosition(mark->wal_position));
  context->AddInitialMetadata(kPositionHeader, absl::StrCat(mark->store_position));
}

}  // namespace arbiter::server
