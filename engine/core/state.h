// State: one game in progress, as the rules engine sees it.
//
// A state is a pure function of (game, ruleset, seed, players, actions):
// every shuffle and roll comes from the seeded generator (rng.h), so replaying
// the same actions always gives the same state. A state is not thread-safe;
// distinct states may be used from distinct threads.
//
// Seats are 0-based indices into the log header's player list; sentences for
// people (violation details) name players through players() (players.h).
#ifndef ARBITER_ENGINE_CORE_STATE_H_
#define ARBITER_ENGINE_CORE_STATE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arbiter/v1/action.pb.h"
#include "arbiter/v1/position_view.pb.h"
#include "arbiter/v1/standings.pb.h"
#include "engine/core/players.h"
#include "engine/core/viewer.h"
#include "engine/core/violation.h"

namespace arbiter::engine {

using Seat = int;

// A legal action together with the seat that may take it.
struct Move {
  Seat seat = 0;
  v1::Action action;
};

// A legal action of one seat with words for people (State::LegalActionsFor).
struct LabelledMove {
  v1::Action action;  // as LegalActions() lists it (no player id)
  std::string group;  // the heading it is listed under: "move figure 1", "buy", "pass"
  std::string label;  // State::Label of the action
};

class State {
 public:
  explicit State(int num_players) : num_players_(num_players) {}
  virtual ~State() = default;

  State(const State&) = default;
  State& operator=(const State&) = delete;

  virtual std::unique_ptr<State> Clone() const = 0;

  // True once the game has ended; Final() then returns the standings.
  virtual bool IsTerminal() const = 0;

  // Seats that may act now: usually one; several where the rules let any
  // player act (cooperative phases). Empty when the game is over.
  virtual std::vector<Seat> SeatsToAct() const = 0;

  // nullopt if `action` is legal for `seat` now; otherwise why not. The
  // action's `player` field is ignored (the seat is authoritative).
  virtual std::optional<Violation> Check(Seat seat, const v1::Action& action) const = 0;

  // Every legal action now, for bots, fuzzing and "cannot move" checks. Where
  // an action carries a free choice with many equivalent spellings, a game
  // may list one spelling per distinct outcome (see Canonical()); its header
  // says so.
  virtual std::vector<Move> LegalActions() const = 0;

  // The spelling of a legal action that LegalActions() lists for the same
  // outcome. The default is the action itself.
  virtual v1::Action Canonical(Seat seat, const v1::Action& action) const;

  // A short sentence for people naming `action` of `seat` as it applies to
  // this position, with the players' names from players(): "Ann (ann) buys
  // cards with the AMPHORA 6 tile". It tells only what the action shows every seat
  // once played (a game with a hidden part leaves it out and says so in
  // docs/<game>.md), so it is the same for every viewer. Never fails: an
  // action that is not legal now still gets a sentence, with less in it.
  virtual std::string Label(Seat seat, const v1::Action& action) const = 0;
  // The heading `action` of `seat` is listed under, for people and UIs:
  // "move figure 1", "buy", "pass". Never fails.
  virtual std::string Group(Seat seat, const v1::Action& action) const = 0;

  // The legal actions of `seat` now, each with its group and label, in an
  // order that depends only on the position: the actions LegalActions()
  // lists for the seat, grouped (the groups in the order of their first
  // action), each group in the order of LegalActions(). As LegalActions(), it
  // lists one spelling per distinct outcome where a game collapses equivalent
  // spellings (Canonical(); docs/<game>.md says how to spell another). Empty
  // for a seat that is not to act or not in the game.
  std::vector<LabelledMove> LegalActionsFor(Seat seat) const;

  // Final standings once the game is over; nullopt before. Player ids are
  // left empty (the engine knows seats only); places are assigned.
  virtual std::optional<v1::Standings> Final() const = 0;

  // A description of the position for people (`arbiter show`).
  virtual std::string ToString() const = 0;

  // The same position as data, for drawing it (position_view.proto): what
  // ToString() says, in fields. The default says nothing but the headline.
  virtual v1::PositionView View() const;

  // What `viewer` may know of the position (viewer.h): View() for everyone,
  // and for every viewer once the game is over; otherwise ViewCut(viewer),
  // in which the holdings another viewer may not see keep their name and
  // count (a hand's size) but have an empty detail (its contents).
  v1::PositionView ViewFor(const Viewer& viewer) const;
  // ToString() cut the same way: hidden contents replaced by their size.
  std::string DescribeFor(const Viewer& viewer) const;

  // Checks that the game is not over, then Check(); if legal, applies the
  // action and returns nullopt, otherwise returns the violation and leaves
  // the state unchanged.
  std::optional<Violation> Apply(Seat seat, const v1::Action& action);

  int num_players() const { return num_players_; }
  // Names for sentences; seat numbers until set_players() is called.
  const Players& players() const { return *players_; }
  void set_players(std::shared_ptr<const Players> players) { players_ = std::move(players); }
  // Number of actions applied so far.
  int64_t num_actions() const { return num_actions_; }

 protected:
  // Applies an action that Check() accepted.
  virtual void DoApply(Seat seat, const v1::Action& action) = 0;

  // The cuts of ViewFor() and DescribeFor() for a seat or a spectator while
  // the game is on. The defaults return View() and ToString(): right only for
  // a game with no hidden information; a game with any overrides both.
  virtual v1::PositionView ViewCut(const Viewer& viewer) const;
  virtual std::string DescriptionCut(const Viewer& viewer) const;

 private:
  int num_players_;
  int64_t num_actions_ = 0;
  std::shared_ptr<const Players> players_ = std::make_shared<const Players>();
};

}  // namespace arbiter::engine

#endif  // ARBITER_ENGINE_CORE_STATE_H_
