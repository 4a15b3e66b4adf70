// Atlantis: the rules of each action of a turn — which Buy, Bridge, Move and
// Pass are legal (with the rule id of each refusal, rule_ids.h), the route a
// Move's cards take, its toll, and the list of legal actions.
//
// LegalActions lists, for a Move, every figure position (the lowest-numbered
// figure of the player on that position: figures on one position are
// interchangeable), every distinct card sequence, and one payment per distinct
// outcome, where an outcome is (multiset of tile values paid, number of cards
// paid). The collapsed choices are the items: the listed payment takes, for
// each value, tiles of the lowest item first (Atlantis.Item order), and cards
// of the lowest item first from the hand left after the movement cards. A
// Bridge is listed once per unbridged gap, on the gap's first position; while
// the player holds the bridge, every Move is listed again with its `bridge` on
// each unbridged gap of the path after the move (first position).
// Canonical() maps any legal spelling onto these.
//
// Functions of the board only: calls on one board from several threads are
// safe as long as nothing changes it.
#ifndef ARBITER_ENGINE_ATLANTIS_ACTIONS_H_
#define ARBITER_ENGINE_ATLANTIS_ACTIONS_H_

#include <optional>
#include <vector>

#include "arbiter/v1/action.pb.h"
#include "engine/atlantis/board.h"
#include "engine/core/state.h"
#include "engine/core/violation.h"

namespace arbiter::engine::atlantis {

// Where a legal Move goes.
struct Route {
  int figure = 0;  // 0-based
  int start = 0;
  int dest = 0;    // path position, or the Mainland
  Toll toll;
};

// check.cc: nullopt if the action is legal for the player to act, otherwise
// the rule it breaks.
std::optional<Violation> CheckBuy(const Board& board, const v1::AtlantisAction::Buy& buy);
std::optional<Violation> CheckBridge(const Board& board, const v1::AtlantisAction::Bridge& bridge);
// nullopt and `route` filled if the Move is legal for the player to act.
std::optional<Violation> CheckMove(const Board& board, const v1::AtlantisAction::Move& move, Route& route);
std::optional<Violation> CheckPass(const Board& board);

// Whether the player to act can pay exactly `toll` (toll > 0) with their
// tiles and `cards` cards that may pay (check.cc).
bool ExactPayable(const Board& board, int toll, int cards);

// The path as it is after `route`'s figure has moved and taken its tile
// (check.cc).
Path PathAfter(const Board& board, const Route& route);

// legal_actions.cc:
// Whether the player to act has any legal Move; with_bridge: also counting
// Moves that become payable when one crossed gap is bridged first.
bool AnyMove(const Board& board, bool with_bridge);

// Every legal action of the player to act (see the header comment).
std::vector<Move> ListActions(const Board& board);

// The listed spelling of a legal action (see the header comment).
v1::Action CanonicalAction(const Board& board, const v1::Action& action);

}  // namespace arbiter::engine::atlantis

#endif  // ARBITER_ENGINE_ATLANTIS_ACTIONS_H_
