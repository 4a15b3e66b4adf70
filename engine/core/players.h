// Players: the names a rules engine uses in its sentences for people.
//
// Violation details and descriptions name players the way a reader of the
// verdict knows them: "it is Ann's (ann) turn, not Bob's (bob)". The names
// come from the log header (display name and id, in seat order); a player
// without a display name is named by id ("ann"), and a seat the header does
// not describe (tests, benchmarks) as "seat 2". Immutable and thread-safe.
#ifndef ARBITER_ENGINE_CORE_PLAYERS_H_
#define ARBITER_ENGINE_CORE_PLAYERS_H_

#include <string>
#include <vector>

namespace arbiter::engine {

// One player of the log header.
struct PlayerName {
  std::string id;    // "ann"
  std::string name;  // "Ann"; may be empty
};

class Players {
 public:
  Players() = default;
  explicit Players(std::vector<PlayerName> players) : players_(std::move(players)) {}

  // "Ann (ann)", "ann" without a display name, "seat 2" without either
  // (seats are 0-based; the sentence counts from 1).
  std::string Who(int seat) const;
  // The possessive: "Ann's (ann)", "ann's", "seat 2's".
  std::string Whose(int seat) const;
  // A seat's heading in a description of the position: "Seat 1, Ann (ann)",
  // "Seat 1, ann", or "Seat 1" when the setup names no players.
  std::string SeatLabel(int seat) const;
  // The seat's player id, or "" when the setup names no players.
  std::string IdOf(int seat) const;

 private:
  std::vector<PlayerName> players_;
};

}  // namespace arbiter::engine

#endif  // ARBITER_ENGINE_CORE_PLAYERS_H_
