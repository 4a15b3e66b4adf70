#include "services/tournament/seed_sight.h"

#include "services/tournament/tournament_access.h"

namespace arbiter::tournament {

SeedSight SeedSightOf(const access::Caller& caller, const TournamentLog& log) {
  if (caller.role == store::Role::kAuditor || RequireOrganise(caller, log).ok()) {
    return SeedSight::kAll;
  }
  return SeedSight::kEndedGamesOnly;
}

}  // namespace arbiter::tournament
