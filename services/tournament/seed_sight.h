// Who sees the seeds that deal a tournament's live tables. A table's game
// seed decides every card its players will hold, and the tournament's seed
// decides every table's game seed (engine/tournament/pairing.h TableSeed),
// so both are shown before the games they deal are over only to those who
// may see live seeds anyway: admins, auditors, and the organisers whose
// token names the tournament (they chose its seed). Everyone else (public
// tokens, organisers of other tournaments) gets answers without them and
// `seed_withheld` set; docs/tournaments.md, "Who sees the seeds".
// Pure functions; thread-safe.
#ifndef ARBITER_SERVICES_TOURNAMENT_SEED_SIGHT_H_
#define ARBITER_SERVICES_TOURNAMENT_SEED_SIGHT_H_

#include <string>

#include "services/access/caller.h"
#include "services/tournament/tournament_reader.h"

namespace arbiter::tournament {

// kAll for admins, auditors and the tournament's organisers; otherwise
// kEndedGamesOnly.
SeedSight SeedSightOf(const access::Caller& caller, const std::string& tournament_id);

}  // namespace arbiter::tournament

#endif  // ARBITER_SERVICES_TOURNAMENT_SEED_SIGHT_H_
