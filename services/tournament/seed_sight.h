// Who sees the seeds that deal a tournament's live tables. A table's game
// seed decides every card its players will hold, and the tournament's seed
// decides every table's game seed (engine/tournament/pairing.h TableSeed),
// so both are shown before the games they deal are over only to those who
// may see live seeds anyway: admins, auditors, and the organisers who manage
// the tournament (their token names it or its league: they chose its seed
// or start its rounds). Everyone else (public tokens, organisers of other
// tournaments and leagues) gets answers without them and
// `seed_withheld` set; docs/tournaments.md, "Who sees the seeds".
// Pure functions; thread-safe.
#ifndef ARBITER_SERVICES_TOURNAMENT_SEED_SIGHT_H_
#define ARBITER_SERVICES_TOURNAMENT_SEED_SIGHT_H_

#include <string>

#include "services/access/caller.h"
#include "services/tournament/tournament_log.h"
#include "services/tournament/tournament_reader.h"

namespace arbiter::tournament {

// kAll for admins, auditors and the organisers of the tournament of `log`
// (tournament_access.h RequireOrganise); otherwise kEndedGamesOnly.
SeedSight SeedSightOf(const access::Caller& caller, const TournamentLog& log);

}  // namespace arbiter::tournament

#endif  // ARBITER_SERVICES_TOURNAMENT_SEED_SIGHT_H_
