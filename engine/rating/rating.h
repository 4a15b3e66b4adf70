// Rating systems for leagues and leaderboards: pure functions, no I/O.
//
// Five systems behind one interface:
//   - OpenSkill (Weng and Lin, "A Bayesian Approximation Method for Online
//     Ranking", JMLR 2011) with the Plackett-Luce, Thurstone-Mosteller full
//     and Bradley-Terry full models, following openskill.js 5.0.1 (npm
//     `openskill@5.0.1`) step for step, including its defaults: tau added to
//     every sigma before the update, no sigma limit, kappa as the floor of the
//     variance factor. A differential test checks agreement with that package.
//   - Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013), with the
//     Illinois algorithm for the new volatility.
//   - Multiplayer Elo: every pair of teams at the table is one game, with
//     K / (teams - 1) per pair.
// docs/ratings.md describes each system, its parameters, how multiplayer and
// team games map onto it, and the provisional rule.
//
// Every function is deterministic: the same inputs give the same bits on
// every run (sums run in a fixed order, nothing is random). All functions are
// thread-safe (no shared state).
#ifndef ARBITER_ENGINE_RATING_RATING_H_
#define ARBITER_ENGINE_RATING_RATING_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace arbiter::engine::rating {

enum class System { kPlackettLuce, kThurstoneMostellerFull, kBradleyTerryFull, kGlicko2, kElo };

// Stable names, stored in league settings and used on the command line
// (stored: never rename): "plackett-luce" (the default),
// "thurstone-mosteller-full", "bradley-terry-full", "glicko2", "elo".
std::string_view SystemName(System system);
// InvalidArgument naming the value and the valid names.
absl::StatusOr<System> ParseSystem(std::string_view name);
// True for the three OpenSkill models.
bool IsOpenSkill(System system);

// One player's rating.
//   OpenSkill: mu and sigma (volatility unused, 0).
//   Glicko-2: mu is the rating and sigma the rating deviation (RD), both on
//     the Glicko scale (1500, 350); volatility is Glickman's sigma.
//   Elo: mu is the rating (sigma and volatility 0).
struct Rating {
  double mu = 0;
  double sigma = 0;
  double volatility = 0;

  friend bool operator==(const Rating&, const Rating&) = default;
};

// OpenSkill parameters; defaults are openskill.js 5.0.1's.
struct OpenSkillConfig {
  double mu = 25;                  // initial mean
  double sigma = 25.0 / 3;         // initial standard deviation
  double beta = 25.0 / 6;          // performance noise (openskill.js: 25/6 whatever sigma is)
  double kappa = 0.0001;           // floor of the factor that shrinks sigma
  double tau = 25.0 / 300;         // added to sigma (in quadrature) before every update; 0 = off
  double epsilon = 0.1;            // draw margin of Thurstone-Mosteller
  double z = 3;                    // display rating (ordinal) = mu - z * sigma
  bool limit_sigma = false;        // true: sigma never grows through tau in a match
  double provisional_sigma = 25.0 / 6;  // provisional while sigma > this
};

// Glicko-2 parameters on the Glicko scale; defaults are Glickman's.
struct Glicko2Config {
  double rating = 1500;
  double rd = 350;
  double volatility = 0.06;
  double tau = 0.5;                // constrains the change of volatility
  double epsilon = 1e-6;           // convergence tolerance of the Illinois iteration
  double provisional_sigma = 110;  // provisional while RD > this
};

struct EloConfig {
  double rating = 1500;
  double k = 32;                   // K of a two-player game; K / (teams - 1) per pair at larger tables
};

// Every parameter of every system. Only the block of `system` is used.
struct RatingConfig {
  System system = System::kPlackettLuce;
  OpenSkillConfig openskill;
  Glicko2Config glicko2;
  EloConfig elo;
  // Provisional while fewer games than this have been rated (every system),
  // or while sigma/RD is above the system's provisional_sigma.
  int64_t provisional_games = 5;
};

// Builds the config of `system` from NAME=VALUE pairs (league settings,
// `arbiter rate --param`); names not given keep their defaults. Names are
// those of Parameters(system). InvalidArgument, with a message naming the
// parameter, its value and the allowed range, for unknown names (including
// another system's), a name given twice, unparsable numbers, non-finite
// values and values out of range.
absl::StatusOr<RatingConfig> MakeConfig(System system,
                                        const std::vector<std::pair<std::string, std::string>>& params);

// One parameter of a system, for `--help`, docs and listings.
struct ParameterInfo {
  std::string name;
  double default_value;
  std::string meaning;  // one sentence, with the allowed range
};
std::vector<ParameterInfo> Parameters(System system);

// The canonical text of `config`: "system=NAME" then every parameter of the
// system as "name=value", in the order of Parameters(system), joined by ",";
// numbers are written in the shortest form that reads back to the same
// double. Identical configs give identical bytes (it is stored and hashed:
// never reorder or rename). MakeConfig accepts every pair after "system=".
std::string CanonicalText(const RatingConfig& config);

// The rating of a player who has not played yet.
Rating InitialRating(const RatingConfig& config);
// The number to show and sort by: OpenSkill's ordinal mu - z * sigma,
// Glicko-2's rating, Elo's rating.
double DisplayRating(const RatingConfig& config, const Rating& rating);
// True while `games_played` < provisional_games, or (OpenSkill, Glicko-2)
// while sigma/RD > provisional_sigma.
bool IsProvisional(const RatingConfig& config, const Rating& rating, int64_t games_played);

// OK if `rating` can be rated with `config`: finite numbers; sigma > 0
// (OpenSkill, Glicko-2) or >= 0 (Elo); volatility > 0 (Glicko-2).
// Otherwise InvalidArgument naming the field.
absl::Status CheckRating(const RatingConfig& config, const Rating& rating);

struct Team {
  std::vector<Rating> players;
  int rank = 0;  // lower is better; equal ranks are a tie
};

// One match (a game): two or more teams of one or more players, places with
// ties. Returns the new rating of every player, in the same shape as `teams`.
// Glicko-2: a rating period of one game (see GlickoResults). Elo: every pair
// of teams is a game (team rating = the members' mean; each member moves by
// the team's change).
// InvalidArgument (naming the team and player) for fewer than 2 teams, an
// empty team, a rating that CheckRating refuses, or ratings so far apart
// that a new rating would overflow (never NaN or infinity).
absl::StatusOr<std::vector<std::vector<Rating>>> RateMatch(const RatingConfig& config,
                                                            const std::vector<Team>& teams);

// Glicko-2 rating periods longer than one game: a player's results of the
// period against opponents as they were at the start of the period (score 1
// win, 0.5 draw, 0 loss). An empty list is a period without games: only the
// RD grows (Glickman's step 6). Preconditions: CheckRating accepts `player`
// and every opponent, and every score is in [0, 1] (RateMatch and `arbiter
// rate` check them); otherwise the result is meaningless.
struct GlickoResult {
  Rating opponent;
  double score = 0;
};
Rating Glicko2Period(const RatingConfig& config, const Rating& player,
                     const std::vector<GlickoResult>& results);

// A multiplayer match as Glicko-2 results, [team][player][result]: every pair
// of teams at the table is one game; each member of a team plays the other
// team as one opponent whose rating and volatility are the means of its
// members' and whose RD is the root mean square of theirs. Teammates do not
// play each other. Score 1 against a worse rank, 0.5 equal, 0 better.
std::vector<std::vector<std::vector<GlickoResult>>> GlickoResults(const std::vector<Team>& teams);

}  // namespace arbiter::engine::rating

#endif  // ARBITER_ENGINE_RATING_RATING_H_
