// How `arbiter tournament` prints its answers for people: a tournament, a
// round's tables and the standings (as text or CSV).
#ifndef ARBITER_SERVICES_CLI_TOURNAMENT_TEXT_H_
#define ARBITER_SERVICES_CLI_TOURNAMENT_TEXT_H_

#include <string>

#include "arbiter/v1/tournament_service.pb.h"

namespace arbiter::cli {

// `text` as one CSV field (quoted when it holds a comma, quote or newline).
std::string Csv(const std::string& text);
// "zoe (Zoë Müller)", or the id alone without a display name.
std::string PlayerLabel(const std::string& id, const std::string& name);
// A table's status in words ("confirmed", "pending", ...).
const char* StatusName(const v1::TournamentTable& table);
void PrintTournament(const v1::Tournament& t);
void PrintRound(const v1::TournamentRound& round);
void PrintStandings(const v1::TournamentStandings& standings, bool csv);

}  // namespace arbiter::cli

#endif  // ARBITER_SERVICES_CLI_TOURNAMENT_TEXT_H_
