#include "engine/atlantica/state.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/atlantica/actions.h"
#include "engine/core/standings.h"

namespace arbiter::engine::atlantica {

AtlanticaState::AtlanticaState(std::shared_ptr<const Rules> rules, Board board, Rng rng)
    : State(static_cast<int>(board.players.size())), rules_(std::move(rules)), board_(std::move(board)), rng_(rng) {}

std::unique_ptr<State> AtlanticaState::Clone() const { return std::make_unique<AtlanticaState>(*this); }

std::vector<Seat> AtlanticaState::SeatsToAct() const {
  if (board_.over) return {};
  return {board_.to_move};
}

std::optional<Violation> AtlanticaState::Check(Seat seat, const v1::Action& action) const {
  if (action.game_case() != v1::Action::kAtlantica) {
    return Illegal(kRuleWrongGame, "this is a game of Atlantica; the action is for another game");
  }
  if (board_.over) return Illegal(kRuleGameOver, "the game is already over; no further action is allowed");
  if (seat != board_.to_move) {
    return Illegal(kRuleNotYourTurn, absl::StrCat("it is ", players().Whose(board_.to_move), " turn, not ", players().Whose(seat)));
  }
  const auto& a = action.atlantica();
  switch (a.kind_case()) {
    case v1::AtlanticaAction::kDrawBreath:
      return std::nullopt;
    case v1::AtlanticaAction::kTurn:
      return CheckTurn(*rules_, board_, seat, a.turn());
    default:
      return Illegal(kRuleEmptyAction, "the action is neither a turn nor draw breath");
  }
}

void AtlanticaState::DoApply(Seat seat, const v1::Action& action) {
  const auto& a = action.atlantica();
  if (a.has_draw_breath()) {
    ApplyDrawBreath(*rules_, board_, rng_, seat);
  } else {
    ApplyTurn(*rules_, board_, rng_, seat, a.turn());
  }
}

std::vector<Move> AtlanticaState::LegalActions() const {
  std::vector<Move> moves;
  if (board_.over) return moves;
  Move& breath = moves.emplace_back();
  breath.seat = board_.to_move;
  breath.action.mutable_atlantica()->mutable_draw_breath();
  ListTurns(*rules_, board_, board_.to_move, moves);
  return moves;
}

v1::Action AtlanticaState::Canonical(Seat /*seat*/, const v1::Action& action) const {
  return CanonicalTurn(action);
}

std::optional<v1::Standings> AtlanticaState::Final() const {
  if (!board_.over) return std::nullopt;
  const Rules& r = *rules_;
  v1::Standings standings;
  for (int seat = 0; seat < num_players(); ++seat) {
    const PlayerBoard& p = board_.players[seat];
    const Holding h = p.ToHolding();
    const Score s = ScoreHolding(r, h);
    v1::PlayerStanding& out = *standings.add_players();
    out.set_seat(seat + 1);
    out.set_score(s.total);
    for (int k = 0; k < r.num_kinds; ++k) {
      if (h.treasures[k] == 0 && s.jokers[k] == 0) continue;
      std::string detail = absl::StrCat("kept ", s.kept[k], " of ", h.treasures[k]);
      if (s.jokers[k] > 0) absl::StrAppend(&detail, " + ", s.jokers[k], " joker research card", s.jokers[k] > 1 ? "s" : "");
      AddScoreItem(out, absl::StrCat("treasure: ", r.kind_names[k], " (", r.kind_colours[k], ")"), s.kind_points[k], detail);
    }
    std::vector<std::string> discarded;
    int held = 0;
    for (int k = 0; k < r.num_kinds; ++k) {
      held += h.treasures[k];
      if (s.discarded[k] > 0) discarded.push_back(absl::StrCat(s.discarded[k], " ", r.kind_names[k]));
    }
    AddScoreItem(out, "discarded treasures", 0,
                 absl::StrCat(discarded.empty() ? "none" : absl::StrJoin(discarded, ", "), " (", h.crates,
                              " crates on ", h.ships, " ships for ", held, " treasures)"));
    for (int i = 0; i < r.num_research; ++i) {
      if (h.research[i] == 0) continue;
      std::string detail = absl::StrCat(h.research[i], " x ", s.research_card_points[i], " VP: ", r.research_texts[i]);
      if (r.effects[i].kind == v1::Atlantica::PER_CHOSEN_KIND) {
        absl::StrAppend(&detail, "; kind chosen: ", s.chosen_kind >= 0 ? r.kind_names[s.chosen_kind] : "none");
      }
      AddScoreItem(out, absl::StrCat("research: ", r.research_names[i]), s.research_card_points[i] * h.research[i], detail);
    }
    // "If there is a tie, the person with the most treasure cards wins", and
    // "the hurricane card counts as a treasure card" (rulebook, 002_...txt).
    const int treasure_cards = s.kept_cards + (p.hurricane ? 1 : 0);
    out.add_tie_break(treasure_cards);
    AddScoreItem(out, "tie-break: treasure cards", 0,
                 p.hurricane ? absl::StrCat(s.kept_cards, " kept + the hurricane card = ", treasure_cards)
                             : absl::StrCat(s.kept_cards, " kept"));
  }
  AssignPlaces(standings);
  return standings;
}

}  // namespace arbiter::engine::atlantica
