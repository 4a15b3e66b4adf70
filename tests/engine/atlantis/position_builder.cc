#include "tests/engine/atlantis/position_builder.h"

#include <google/protobuf/text_format.h>

#include <cassert>

#include "absl/strings/str_split.h"
#include "engine/atlantis/game.h"

namespace arbiter::engine::atlantis::testing {
namespace {

std::size_t U(int i) { return static_cast<std::size_t>(i); }

uint8_t ParseTile(std::string_view token) {
  assert(token.size() == 2);
  return TileCode(ItemOfLetter(token[0]), token[1] - '0');
}

std::vector<std::string> Tokens(std::string_view spec) {
  return absl::StrSplit(std::string(spec), ' ', absl::SkipEmpty());
}

}  // namespace

std::shared_ptr<const Config> DefaultConfig() {
  static const std::shared_ptr<const Config> config = [] {
    v1::Ruleset ruleset;
    const bool parsed = google::protobuf::TextFormat::ParseFromString(std::string(DefaultRulesetText()), &ruleset);
    assert(parsed);
    (void)parsed;
    return std::make_shared<const Config>(*ParseConfig(ruleset));
  }();
  return config;
}

int ItemOfLetter(char letter) {
  static constexpr char kLetters[] = "FOHARSC";
  for (int i = 0; i < kItems; ++i) {
    if (kLetters[i] == letter) return i;
  }
  return -1;
}

PositionBuilder::PositionBuilder(int num_players) : config_(DefaultConfig()) {
  board_.config = config_.get();
  board_.num_players = num_players;
  for (int seat = 0; seat < num_players; ++seat) board_.bridges_left[U(seat)] = static_cast<uint8_t>(config_->bridges);
}

PositionBuilder& PositionBuilder::Path(std::string_view spec) {
  const std::vector<std::string> tokens = Tokens(spec);
  board_.path = atlantis::Path(static_cast<int>(tokens.size()));
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const int p = static_cast<int>(i) + 1;
    if (tokens[i] == ".") continue;
    if (tokens[i] == "~") {
      board_.path.set_bridged(p, true);
      continue;
    }
    for (const std::string& tile : std::vector<std::string>(absl::StrSplit(tokens[i], '/'))) {
      board_.path.Push(p, ParseTile(tile));
    }
  }
  board_.path.CloseEnds();
  return *this;
}

PositionBuilder& PositionBuilder::Figure(int seat, int figure, int position) {
  figures_.emplace_back(seat * kMaxFigures + figure - 1, position);
  return *this;
}

PositionBuilder& PositionBuilder::Hand(int seat, std::string_view letters) {
  Holdings& h = board_.players[U(seat)];
  h.cards.fill(0);
  h.card_count = 0;
  for (char c : letters) h.AddCard(ItemOfLetter(c));
  return *this;
}

PositionBuilder& PositionBuilder::Tiles(int seat, std::string_view tiles) {
  for (const std::string& t : Tokens(tiles)) board_.players[U(seat)].AddTile(ParseTile(t));
  return *this;
}

PositionBuilder& PositionBuilder::Bridges(int seat, int count) {
  board_.bridges_left[U(seat)] = static_cast<uint8_t>(count);
  return *this;
}

PositionBuilder& PositionBuilder::Deck(std::string_view letters) {
  deck_.clear();
  for (char c : letters) deck_.push_back(static_cast<uint8_t>(ItemOfLetter(c)));
  return *this;
}

PositionBuilder& PositionBuilder::Discard(std::string_view letters) {
  for (char c : letters) ++discard_[U(ItemOfLetter(c))];
  return *this;
}

PositionBuilder& PositionBuilder::Payment(TollPayment mode) {
  board_.toll_payment = mode;
  return *this;
}

PositionBuilder& PositionBuilder::Options(const Variant& variant) {
  board_.toll_payment = variant.toll_payment;
  board_.exact_toll_if_possible = variant.exact_toll_if_possible;
  board_.bought_cards_pay_tolls = variant.bought_cards_pay_tolls;
  return *this;
}

std::unique_ptr<AtlantisState> PositionBuilder::Build() const {
  Board board = board_;
  for (const auto& [key, position] : figures_) {
    const int seat = key / kMaxFigures;
    const int figure = key % kMaxFigures;
    const int p = position == kMainland ? board.path.mainland() : position;
    board.figures[U(seat)][U(figure)] = static_cast<uint8_t>(p);
    if (p == board.path.mainland()) {
      ++board.figures_home[U(seat)];
    } else if (p != 0) {
      board.path.AddFigure(p);
    }
  }
  return AtlantisState::FromParts(config_, board, deck_, discard_, 1);
}

v1::Action BuyAction(std::string_view tile) {
  v1::Action action;
  const uint8_t code = ParseTile(tile);
  v1::AtlantisTile* t = action.mutable_atlantis()->mutable_buy()->mutable_tile();
  t->set_item(ProtoItem(TileItem(code)));
  t->set_value(TileValue(code));
  return action;
}

v1::Action BridgeAction(int position) {
  v1::Action action;
  action.mutable_atlantis()->mutable_bridge()->set_position(position);
  return action;
}

v1::Action MoveAction(int figure, std::string_view cards, std::string_view toll_tiles,
                      std::string_view toll_cards) {
  v1::Action action;
  v1::AtlantisAction::Move* move = action.mutable_atlantis()->mutable_move();
  move->set_figure(figure);
  for (char c : cards) move->add_cards(ProtoItem(ItemOfLetter(c)));
  for (const std::string& t : Tokens(toll_tiles)) {
    const uint8_t code = ParseTile(t);
    v1::AtlantisTile* tile = move->mutable_toll()->add_tiles();
    tile->set_item(ProtoItem(TileItem(code)));
    tile->set_value(TileValue(code));
  }
  for (char c : toll_cards) move->mutable_toll()->add_cards(ProtoItem(ItemOfLetter(c)));
  return action;
}

v1::Action MoveThenBridge(int figure, std::string_view cards, int bridge, std::string_view toll_tiles,
                          std::string_view toll_cards) {
  v1::Action action = MoveAction(figure, cards, toll_tiles, toll_cards);
  action.mutable_atlantis()->mutable_move()->set_bridge(bridge);
  return action;
}

v1::Action PassAction() {
  v1::Action action;
  action.mutable_atlantis()->mutable_pass();
  return action;
}

}  // namespace arbiter::engine::atlantis::testing
