#include "engine/atlantis/state.h"

#include <algorithm>

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

}  // namespace arbiter::engine::atlantis
