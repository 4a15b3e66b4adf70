// Atlantis Rising: the plain data of a position (who holds what, which tiles
// are under water, which decision is pending). The state (state.h) owns one
// and changes it only through legal actions; tests may build one directly
// (tests/engine/atlantis_rising/position_builder.h).
#ifndef ARBITER_ENGINE_ATLANTIS_RISING_BOARD_H_
#define ARBITER_ENGINE_ATLANTIS_RISING_BOARD_H_

#include <array>
#include <cstdint>
#include <vector>

#include "engine/atlantis_rising/rules.h"

namespace arbiter::engine::atlantis_rising {

enum class Phase {
  kPlacement,    // 1. place Atlanteans, then FinishPlacement
  kMisfortunes,  // 2. only while a drawer must name a peninsula
  kActions,      // 3. every placed Atlantean acts
  kWrath,        // 4. only while the players name the Wrath floods
  kOver,
};

// "place Atlanteans", "misfortunes", "actions", "Wrath of the Gods", "game
// over": the phase as ToString and View name it (text.cc).
const char* PhaseText(Phase phase);

// A decision the next action must make.
enum class Decision {
  kNone,
  kFloods,  // `floods` peninsulas to name
  kRoll,    // a failed roll may be boosted
  kKeep,    // library cards drawn: which to keep
};

struct PlayerState {
  int energy = 0;
  Resources resources{};
  std::vector<int> hand;  // library card indices
  int atlanteans = 0;     // owned: the leader and the followers
  int pool = 0;           // owned and not placed this round
  int reserve = 0;        // followers still waiting in the reserve
  Resources given{};      // paid into built components: the player's score
};

// Atlanteans on one spot, by seat.
struct SpotState {
  std::array<int8_t, kMaxSeats> placed{};   // placed this round
  std::array<int8_t, kMaxSeats> waiting{};  // placed and not yet acted
  int Placed() const {
    int n = 0;
    for (int8_t x : placed) n += x;
    return n;
  }
  int Waiting() const {
    int n = 0;
    for (int8_t x : waiting) n += x;
    return n;
  }
};

struct Pending {
  Decision kind = Decision::kNone;
  int seat = -1;    // who decides; -1 for any player
  int floods = 0;   // kFloods
  int spot = -1;    // kRoll: where the roll was made
  int partner = -1; // kRoll in a city: the pair's other seat (may equal `seat`)
  int total = 0;    // kRoll: dice + bonuses + energy spent so far
  int target = 0;   // kRoll
  std::vector<int> drawn;  // kKeep: card indices drawn
  int free_keeps = 0;      // kKeep
};

// A misfortune card in a deck: kind * 16 + peninsula.
inline int MisfortuneCode(int kind, int peninsula) { return kind * 16 + peninsula; }
inline int MisfortuneKindOf(int code) { return code / 16; }
inline Peninsula MisfortunePeninsulaOf(int code) { return static_cast<Peninsula>(code % 16); }

// Spots are numbered: 0 the centre; then every peninsula tile, peninsula by
// peninsula (MOUNTAINS first), tip first; then the build sites; then the
// discs of each Blueprint component, in Blueprint order.
struct Position {
  Phase phase = Phase::kPlacement;
  int round = 1;
  int start_seat = 0;
  int wrath_level = 0;
  std::array<int, kNumPeninsulas> flooded{};  // tiles under water, counted from the tip
  bool centre_flooded = false;
  bool won = false;
  std::vector<PlayerState> players;
  std::vector<SpotState> spots;
  std::vector<std::array<Resources, kMaxSeats>> pledges;  // per build site, per seat
  std::vector<int> blueprint;  // component indices; the Power Core last
  std::vector<bool> built;     // per Blueprint entry
  std::vector<int> library_deck;  // card indices; front is the top
  std::vector<int> library_discard;
  std::vector<int> misfortune_deck;  // MisfortuneCode values; front is the top
  std::vector<int> misfortune_discard;
  int misfortunes_drawn = 0;  // this round
  int flood_shield = 0;       // floods still cancelled this round
  Pending pending;
};

}  // namespace arbiter::engine::atlantis_rising

#endif  // ARBITER_ENGINE_ATLANTIS_RISING_BOARD_H_
