#include "services/store/lease_fence.h"

#include "absl/strings/cord.h"

namespace arbiter::store {
namespace {

constexpr char kLeaseLost[] = "arbiter.lease_lost";

}  // namespace

absl::Status LeaseLostError(absl::string_view message) {
  absl::Status status = absl::AbortedError(message);
  status.SetPayload(kLeaseLost, absl::Cord("1"));
  return status;
}

bool IsLeaseLost(const absl::Status& status) {
  return absl::IsAborted(status) && status.GetPayload(kLeaseLost).has_value();
}

}  // namespace arbiter::store
