// Helpers for the tournament model's tests: settings, a played result and a
// whole tournament played out with results drawn from a fixed seed.
#ifndef ARBITER_TESTS_ENGINE_TOURNAMENT_TOURNAMENT_TEST_UTIL_H_
#define ARBITER_TESTS_ENGINE_TOURNAMENT_TOURNAMENT_TEST_UTIL_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "engine/core/rng.h"
#include "engine/tournament/pairing.h"
#include "engine/tournament/rounds.h"
#include "engine/tournament/settings.h"

namespace arbiter::engine::tournament::testing {

inline TournamentSettings Settings(std::vector<int> sizes, int preferred, int rounds,
                                   Leftover leftover = Leftover::kMixedSizes) {
  TournamentSettings s;
  s.game_type = "atlantis";
  s.seed = 42;
  s.rounds = rounds;
  s.table_sizes = std::move(sizes);
  s.preferred_size = preferred;
  s.leftover = leftover;
  s.scoring = Scoring::kPlaces;
  s.place_points = {4, 2, 1, 0};
  s.bye_points = 2;
  s.tie_breaks = {TieBreak::kGamePoints, TieBreak::kWins, TieBreak::kStrengthOfSchedule,
                  TieBreak::kHeadToHead};
  return s;
}

inline std::vector<std::string> Players(int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back(absl::StrCat("p", i < 10 ? "0" : "", i));
  return out;
}

inline TableResult Played(std::vector<int> places, std::vector<int64_t> game_points) {
  TableResult r;
  r.kind = TableResult::Kind::kPlayed;
  r.places = std::move(places);
  r.game_points = std::move(game_points);
  return r;
}

// Game points drawn from Rng(seed, round, table); places follow them (ties
// share a place).
inline void PlayRound(Round& round, uint64_t seed) {
  for (Table& table : round.tables) {
    engine::Rng rng(seed ^ TableSeed(seed, round.number, table.number));
    std::vector<int64_t> points;
    for (size_t i = 0; i < table.players.size(); ++i) {
      points.push_back(static_cast<int64_t>(rng.Uniform(20)));
    }
    std::vector<int> places;
    for (int64_t mine : points) {
      int better = 0;
      for (int64_t other : points) better += other > mine ? 1 : 0;
      places.push_back(better + 1);
    }
    table.result = Played(std::move(places), std::move(points));
  }
}

// Every round assigned and played; stops at the first error.
inline absl::StatusOr<std::vector<Round>> PlayTournament(const TournamentSettings& settings,
                                                         const std::vector<std::string>& players) {
  std::vector<Round> rounds;
  for (int r = 0; r < settings.rounds; ++r) {
    absl::StatusOr<Round> round = AssignRound(settings, players, rounds);
    if (!round.ok()) return round.status();
    PlayRound(*round, settings.seed);
    rounds.push_back(*std::move(round));
  }
  return rounds;
}

}  // namespace arbiter::engine::tournament::testing

#endif  // ARBITER_TESTS_ENGINE_TOURNAMENT_TOURNAMENT_TEST_UTIL_H_
