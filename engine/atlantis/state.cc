#include "engine/atlantis/state.h"

#include "absl/strings/str_cat.h"
#include "engine/atlantis/actions.h"
#include "engine/atlantis/render.h"
#include "engine/atlantis/scoring.h"

namespace arbiter::engine::atlantis {
namespace {

std::size_t U(int i) { return static_cast<std::size_t>(i); }

}  // namespace

AtlantisState::AtlantisState(std::shared_ptr<const Config> config, int num_players, uint64_t seed)
    : State(num_players), config_(std::move(config)), rng_(seed) {
  board_.config = config_.get();
  board_.num_players = num_players;
}

std::unique_ptr<AtlantisState> AtlantisState::NewGame(std::shared_ptr<const Config> config, uint64_t seed,
                                                      int num_players, const Variant& variant) {
  auto state = std::make_unique<AtlantisState>(config, num_players, seed);
  Board& b = state->board_;
  b.toll_payment = variant.toll_payment;
  b.exact_toll_if_possible = variant.exact_toll_if_possible;
  b.bought_cards_pay_tolls = variant.bought_cards_pay_tolls;
  std::vector<uint8_t> tiles_a = config->tiles_a;
  std::vector<uint8_t> tiles_b = config->tiles_b;
  state->rng_.Shuffle(tiles_a);
  state->rng_.Shuffle(tiles_b);
  std::vector<uint8_t> deck;
  for (int item = 0; item < kItems; ++item) deck.insert(deck.end(), U(config->cards_per_item), static_cast<uint8_t>(item));
  state->rng_.Shuffle(deck);
  std::copy(deck.begin(), deck.end(), state->deck_.begin());
  state->deck_size_ = static_cast<int>(deck.size());
  b.path = Path(config->positions());
  int pos = 1;
  std::size_t next = 0;
  for (int height : config->heights_a) {
    for (int l = 0; l < height; ++l) b.path.Push(pos, tiles_a[next++]);
    ++pos;
  }
  pos += config->water_between;
  next = 0;
  for (int height : config->heights_b) {
    for (int l = 0; l < height; ++l) b.path.Push(pos, tiles_b[next++]);
    ++pos;
  }
  b.path.CloseEnds();
  for (int seat = 0; seat < num_players; ++seat) {
    b.bridges_left[U(seat)] = static_cast<uint8_t>(config->bridges);
    b.current = seat;
    state->Draw(config->hand_sizes[U(seat)]);
  }
  b.current = 0;
  return state;
}

std::unique_ptr<AtlantisState> AtlantisState::FromParts(std::shared_ptr<const Config> config, const Board& board,
                                                        const std::vector<uint8_t>& deck,
                                                        const std::array<uint8_t, kItems>& discard,
                                                        uint64_t seed) {
  auto state = std::make_unique<AtlantisState>(config, board.num_players, seed);
  state->board_ = board;
  state->board_.config = state->config_.get();
  std::copy(deck.begin(), deck.end(), state->deck_.begin());
  state->deck_size_ = static_cast<int>(deck.size());
  state->discard_ = discard;
  return state;
}

int AtlantisState::discard_size() const {
  int n = 0;
  for (uint8_t c : discard_) n += c;
  return n;
}

std::vector<Seat> AtlantisState::SeatsToAct() const {
  if (board_.over) return {};
  return {board_.current};
}

std::optional<Violation> AtlantisState::Check(Seat seat, const v1::Action& action) const {
  if (board_.over) return Illegal(kRuleGameOver, "the game is already over; no further action is allowed");
  if (action.game_case() != v1::Action::kAtlantis) {
    return Illegal(kRuleWrongGame, "this is a game of Atlantis; the action is for another game");
  }
  if (seat != board_.current) {
    return Illegal(kRuleNotYourTurn, absl::StrCat("it is ", players().Whose(board_.current), " turn, not ",
                                                  players().Whose(seat)));
  }
  const v1::AtlantisAction& a = action.atlantis();
  switch (a.kind_case()) {
    case v1::AtlantisAction::kBuy:
      return CheckBuy(board_, a.buy());
    case v1::AtlantisAction::kBridge:
      return CheckBridge(board_, a.bridge());
    case v1::AtlantisAction::kMove: {
      Route route;
      return CheckMove(board_, a.move(), route);
    }
    case v1::AtlantisAction::kPass:
      return CheckPass(board_);
    case v1::AtlantisAction::KIND_NOT_SET:
      break;
  }
  return Illegal(kRuleEmptyAction, "the action names no Buy, Bridge, Move or Pass");
}

std::vector<Move> AtlantisState::LegalActions() const { return ListActions(board_); }

v1::Action AtlantisState::Canonical(Seat /*seat*/, const v1::Action& action) const {
  return CanonicalAction(board_, action);
}

std::optional<v1::Standings> AtlantisState::Final() const {
  if (!board_.over) return std::nullopt;
  return FinalStandings(board_);
}

std::string AtlantisState::ToString() const { return RenderBoard(board_, deck_size(), discard_size(), players()); }

void AtlantisState::DoApply(Seat /*seat*/, const v1::Action& action) {
  const v1::AtlantisAction& a = action.atlantis();
  Board& b = board_;
  Holdings& h = b.players[U(b.current)];
  switch (a.kind_case()) {
    case v1::AtlantisAction::kBuy: {
      const uint8_t tile = TileCode(ItemIndex(a.buy().tile().item()), a.buy().tile().value());
      h.RemoveTile(tile);
      b.turn_started = true;
      b.bought = true;
      Draw(TileValue(tile) / config_->buy_divisor, /*bought=*/true);
      return;
    }
    case v1::AtlantisAction::kBridge:
      --b.bridges_left[U(b.current)];
      b.path.set_bridged(a.bridge().position(), true);
      b.turn_started = true;
      b.stuck_passes = 0;
      return;
    case v1::AtlantisAction::kMove: {
      Route route;
      CheckMove(b, a.move(), route);
      for (int card : a.move().cards()) {
        h.RemoveCard(ItemIndex(card));
        ++discard_[U(ItemIndex(card))];
      }
      for (const v1::AtlantisTile& t : a.move().toll().tiles()) h.RemoveTile(TileCode(ItemIndex(t.item()), t.value()));
      // Paid tiles and cards leave the game ("Odevzdané karty a destičky jdou
      // ze hry"): they never reach the discard pile.
      for (int card : a.move().toll().cards()) h.RemoveCard(ItemIndex(card));
      const int mainland = b.path.mainland();
      if (route.start != 0) b.path.RemoveFigure(route.start);
      b.figures[U(b.current)][U(route.figure)] = static_cast<uint8_t>(route.dest);
      if (route.dest == mainland) {
        ++b.figures_home[U(b.current)];
      } else {
        b.path.AddFigure(route.dest);
      }
      if (const int behind = b.path.TileBehind(route.dest); behind != 0) h.AddTile(b.path.TakeTop(behind));
      if (a.move().bridge() != 0) {
        --b.bridges_left[U(b.current)];
        b.path.set_bridged(a.move().bridge(), true);
      }
      b.stuck_passes = 0;
      const int home = b.figures_home[U(b.current)];
      if (home == config_->figures) {
        Draw(config_->final_draw);
        b.over = true;
        b.finisher = b.current;
        return;
      }
      Draw(config_->draws_by_figures_home[U(home)]);
      EndTurn();
      return;
    }
    case v1::AtlantisAction::kPass:
      if (Draw(config_->cannot_move_draw) == 0) {
        if (++b.stuck_passes >= b.num_players) {
          b.over = true;
          b.finisher = -1;
          return;
        }
      } else {
        b.stuck_passes = 0;
      }
      EndTurn();
      return;
    case v1::AtlantisAction::KIND_NOT_SET:
      return;
  }
}

int AtlantisState::Draw(int n, bool bought) {
  Holdings& h = board_.players[U(board_.current)];
  int drawn = 0;
  for (; drawn < n; ++drawn) {
    if (deck_top_ == deck_size_ && !Refill()) break;
    const uint8_t card = deck_[U(deck_top_++)];
    h.AddCard(card);
    if (bought) ++board_.bought_cards[card];
  }
  return drawn;
}

bool AtlantisState::Refill() {
  std::vector<uint8_t> cards;
  for (int item = 0; item < kItems; ++item) cards.insert(cards.end(), discard_[U(item)], static_cast<uint8_t>(item));
  if (cards.empty()) return false;
  discard_.fill(0);
  rng_.Shuffle(cards);
  std::copy(cards.begin(), cards.end(), deck_.begin());
  deck_size_ = static_cast<int>(cards.size());
  deck_top_ = 0;
  return true;
}

void AtlantisState::EndTurn() {
  board_.current = (board_.current + 1) % board_.num_players;
  board_.turn_started = false;
  board_.bought = false;
  board_.bought_cards.fill(0);
}

}  // namespace arbiter::engine::atlantis
