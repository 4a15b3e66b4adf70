// Caller: who is calling, as their bearer token says. Every permission check
// (permissions.h) and every write's record of who wrote it starts here.
// A plain value; thread-compatible.
#ifndef ARBITER_SERVICES_ACCESS_CALLER_H_
#define ARBITER_SERVICES_ACCESS_CALLER_H_

#include <string>
#include <vector>

#include "services/store/token_store.h"

namespace arbiter::access {

using store::Role;
using store::RoleName;

struct Caller {
  std::string principal;
  store::Role role = store::Role::kPublic;
  std::vector<std::string> leagues;
  std::vector<std::string> tournaments;
  std::string token_id;
  std::vector<std::string> games;  // a player's games (its tournaments: every table)
};

}  // namespace arbiter::access

#endif  // ARBITER_SERVICES_ACCESS_CALLER_H_
