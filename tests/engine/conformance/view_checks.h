// The conformance suite's checks of what each viewer is shown: that
// State::ViewFor and State::DescribeFor give a seat the whole position but
// the other seats' hands, and a spectator the whole position but every hand.
// Kept apart from the suite so that the checks themselves can be tested
// against states that break them (position_checks_test.cc).
//
// The checks compare each cut with the everyone view (View(), ToString()),
// so that a cut that copies a hand's contents, or drops or changes anything
// public, is caught. Which counters of a seat's holdings are its hand is each
// game's rule (docs/<game>.md, "What is hidden from whom"), listed here.
#ifndef ARBITER_TESTS_ENGINE_CONFORMANCE_VIEW_CHECKS_H_
#define ARBITER_TESTS_ENGINE_CONFORMANCE_VIEW_CHECKS_H_

#include <optional>
#include <set>
#include <string>

#include "engine/core/state.h"

namespace arbiter::testing {

// The names of the counters of a seat's PlayerHoldings that only that seat
// may see the detail of (their count is public): "cards" in Atlantis.
// nullopt for a game this table does not know (a new game must be added).
std::optional<std::set<std::string>> HandCountersOf(const std::string& game);

// Checks the views of one position of `game` and returns the first problem
// found, as a sentence, or nullopt:
//   * ViewFor/DescribeFor of everyone equal View()/ToString(); once the game
//     is over so do those of every seat and of a spectator;
//   * otherwise, for every seat and for a spectator, ViewFor equals View()
//     but for the detail of every hand counter the viewer may not see, which
//     is empty (its count is kept);
//   * DescribeFor has the lines of ToString(); a line that differs names a
//     seat whose hand the viewer may not see, and no line that tells such a
//     seat's hand in ToString() still tells it.
std::optional<std::string> CheckViews(const std::string& game, const engine::State& state);

}  // namespace arbiter::testing

#endif  // ARBITER_TESTS_ENGINE_CONFORMANCE_VIEW_CHECKS_H_
