// Viewer: who is looking at a position, and so which of its hidden parts
// they may see (OpenSpiel's "observation for a player").
//
// Three kinds of viewer:
//   * everyone: an auditor or the admin, and anyone once the game is over;
//     sees the whole position (State::View(), State::ToString()).
//   * one seat: the player in that seat; sees the board, every public
//     holding, its own hand, and only the sizes of the other hands.
//   * a spectator: sees the board and every public holding, and only the
//     sizes of every hand.
// No viewer ever sees the order of a face-down pile; the everyone view shows
// only its size. Which parts of a position are hidden is each game's rule,
// written in docs/<game>.md ("What is hidden from whom") and applied by the
// game's State::ViewFor and State::DescribeFor (state.h).
//
// A value type; immutable and thread-safe.
#ifndef ARBITER_ENGINE_CORE_VIEWER_H_
#define ARBITER_ENGINE_CORE_VIEWER_H_

#include <string>

namespace arbiter::engine {

class Viewer {
 public:
  static Viewer Everyone() { return Viewer(Kind::kEveryone, -1); }
  static Viewer Spectator() { return Viewer(Kind::kSpectator, -1); }
  // The player in `seat` (0-based). A seat outside the game sees what a
  // spectator sees.
  static Viewer ForSeat(int seat) { return Viewer(Kind::kSeat, seat); }

  bool is_everyone() const { return kind_ == Kind::kEveryone; }
  bool is_spectator() const { return kind_ == Kind::kSpectator; }
  bool is_seat() const { return kind_ == Kind::kSeat; }
  // The seat of a seat viewer; -1 for everyone and spectators.
  int seat() const { return seat_; }

  // True if this viewer may see what `seat` holds in secret (its hand).
  bool SeesHandOf(int seat) const { return kind_ == Kind::kEveryone || (kind_ == Kind::kSeat && seat_ == seat); }

  // "everyone", "spectator", "seat 2" (counting from 1), for test messages.
  std::string ToString() const;

  friend bool operator==(const Viewer&, const Viewer&) = default;

 private:
  enum class Kind { kEveryone, kSeat, kSpectator };
  Viewer(Kind kind, int seat) : kind_(kind), seat_(seat) {}

  Kind kind_;
  int seat_;
};

}  // namespace arbiter::engine

#endif  // ARBITER_ENGINE_CORE_VIEWER_H_
