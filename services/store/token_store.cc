#include "services/store/token_store.h"

namespace arbiter::store {

std::optional<std::string> TokenRecord::Refusal(absl::Time now) const {
  if (revoked_at.has_value()) return std::string("revoked");
  if (expires_at.has_value() && now >= *expires_at) return std::string("expired");
  return std::nullopt;
}

const char* RoleName(Role role) {
  switch (role) {
    case Role::kAdmin:
      return "admin";
    case Role::kOrganiser:
      return "organiser";
    case Role::kAuditor:
      return "auditor";
    case Role::kPublic:
      return "public";
    case Role::kPlayer:
      return "player";
  }
  return "public";
}

std::optional<Role> ParseRole(const std::string& name) {
  for (Role role : {Role::kAdmin, Role::kOrganiser, Role::kAuditor, Role::kPublic, Role::kPlayer}) {
    if (name == RoleName(role)) return role;
  }
  return std::nullopt;
}

}  // namespace arbiter::store
