#include "engine/atlantis/rules.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "engine/core/status_macros.h"

namespace arbiter::engine::atlantis {
namespace {

absl::Status OutOfRange(const std::string& field, int value, int lo, int hi) {
  return absl::InvalidArgumentError(
      absl::StrCat("atlantis.", field, ": ", value, " is outside ", lo, "-", hi));
}

absl::Status ExpandTiles(const google::protobuf::RepeatedPtrField<v1::AtlantisRules::TileSpec>& specs,
                         const char* field, std::vector<uint8_t>& out) {
  for (int i = 0; i < specs.size(); ++i) {
    const auto& spec = specs[i];
    auto name = [&] { return absl::StrCat(field, "[", i, "]"); };
    if (ItemIndex(spec.item()) < 0) {
      return absl::InvalidArgumentError(absl::StrCat("atlantis.", name(), ".item: unset or unknown"));
    }
    if (spec.value() < 1 || spec.value() > kMaxValue) {
      return OutOfRange(name() + ".value", spec.value(), 1, kMaxValue);
    }
    if (spec.count() < 1 || spec.count() > kMaxPositions * kMaxHeight) {
      return OutOfRange(name() + ".count", spec.count(), 1, kMaxPositions * kMaxHeight);
    }
    for (int c = 0; c < spec.count(); ++c) out.push_back(TileCode(ItemIndex(spec.item()), spec.value()));
  }
  return absl::OkStatus();
}

absl::Status ExpandLayout(const google::protobuf::RepeatedPtrField<v1::AtlantisRules::StackRun>& runs,
                          const char* field, std::vector<int>& out) {
  for (int i = 0; i < runs.size(); ++i) {
    auto name = [&] { return absl::StrCat(field, "[", i, "]"); };
    if (runs[i].stacks() < 1 || runs[i].stacks() > kMaxPositions) {
      return OutOfRange(name() + ".stacks", runs[i].stacks(), 1, kMaxPositions);
    }
    if (runs[i].height() < 1 || runs[i].height() > kMaxHeight) {
      return OutOfRange(name() + ".height", runs[i].height(), 1, kMaxHeight);
    }
    out.insert(out.end(), runs[i].stacks(), runs[i].height());
    if (out.size() > static_cast<std::size_t>(kMaxPositions)) {
      return absl::InvalidArgumentError(
          absl::StrCat("atlantis.", field, ": more than ", kMaxPositions, " positions"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckCount(const char* field, int value, int lo, int hi) {
  return value < lo || value > hi ? OutOfRange(field, value, lo, hi) : absl::OkStatus();
}

int Sum(const std::vector<int>& v) {
  int s = 0;
  for (int x : v) s += x;
  return s;
}

// The tiles, the stacks they are laid in and the water between the parts.
absl::Status ReadPath(const v1::AtlantisRules& r, Config& c) {
  ARBITER_RETURN_IF_ERROR(ExpandTiles(r.tiles_a(), "tiles_a", c.tiles_a));
  ARBITER_RETURN_IF_ERROR(ExpandTiles(r.tiles_b(), "tiles_b", c.tiles_b));
  ARBITER_RETURN_IF_ERROR(ExpandLayout(r.layout_a(), "layout_a", c.heights_a));
  ARBITER_RETURN_IF_ERROR(ExpandLayout(r.layout_b(), "layout_b", c.heights_b));
  if (c.heights_a.empty()) return absl::InvalidArgumentError("atlantis.layout_a: empty");
  if (Sum(c.heights_a) != static_cast<int>(c.tiles_a.size())) {
    return absl::InvalidArgumentError(absl::StrCat("atlantis.layout_a: holds ", Sum(c.heights_a),
                                                   " tiles but tiles_a has ", c.tiles_a.size()));
  }
  if (Sum(c.heights_b) != static_cast<int>(c.tiles_b.size())) {
    return absl::InvalidArgumentError(absl::StrCat("atlantis.layout_b: holds ", Sum(c.heights_b),
                                                   " tiles but tiles_b has ", c.tiles_b.size()));
  }
  ARBITER_RETURN_IF_ERROR(CheckCount("water_between", r.water_between(), 0, kMaxPositions));
  c.water_between = r.water_between();
  if (c.positions() > kMaxPositions) {
    return absl::InvalidArgumentError(
        absl::StrCat("atlantis: the path has ", c.positions(), " positions; the limit is ", kMaxPositions));
  }
  return absl::OkStatus();
}

// The deck, the figures, the player counts and the hands dealt.
absl::Status ReadPlayers(const v1::AtlantisRules& r, Config& c) {
  ARBITER_RETURN_IF_ERROR(CheckCount("cards_per_item", r.cards_per_item(), 1, kMaxCardsPerItem));
  c.cards_per_item = r.cards_per_item();
  ARBITER_RETURN_IF_ERROR(CheckCount("figures_per_player", r.figures_per_player(), 1, kMaxFigures));
  c.figures = r.figures_per_player();
  ARBITER_RETURN_IF_ERROR(CheckCount("min_players", r.min_players(), 1, kMaxPlayers));
  ARBITER_RETURN_IF_ERROR(CheckCount("max_players", r.max_players(), r.min_players(), kMaxPlayers));
  c.min_players = r.min_players();
  c.max_players = r.max_players();
  if (r.hand_sizes_size() != c.max_players) {
    return absl::InvalidArgumentError(absl::StrCat("atlantis.hand_sizes: has ", r.hand_sizes_size(),
                                                   " entries; max_players is ", c.max_players));
  }
  int dealt = 0;
  for (int i = 0; i < r.hand_sizes_size(); ++i) {
    ARBITER_RETURN_IF_ERROR(CheckCount("hand_sizes", r.hand_sizes(i), 0, kMaxDraw));
    c.hand_sizes[static_cast<std::size_t>(i)] = r.hand_sizes(i);
    dealt += r.hand_sizes(i);
  }
  if (dealt > c.cards_per_item * kItems) {
    return absl::InvalidArgumentError("atlantis.hand_sizes: more cards dealt than the deck holds");
  }
  return absl::OkStatus();
}

// The cards drawn (by figures home, at the end, when no move is possible,
// per tile bought) and the bridges. Needs c.figures.
absl::Status ReadDraws(const v1::AtlantisRules& r, Config& c) {
  if (r.draws_by_figures_home_size() != c.figures) {
    return absl::InvalidArgumentError(absl::StrCat("atlantis.draws_by_figures_home: has ",
                                                   r.draws_by_figures_home_size(),
                                                   " entries; figures_per_player is ", c.figures));
  }
  for (int i = 0; i < c.figures; ++i) {
    ARBITER_RETURN_IF_ERROR(CheckCount("draws_by_figures_home", r.draws_by_figures_home(i), 0, kMaxDraw));
    c.draws_by_figures_home[static_cast<std::size_t>(i)] = r.draws_by_figures_home(i);
  }
  ARBITER_RETURN_IF_ERROR(CheckCount("final_draw", r.final_draw(), 0, kMaxDraw));
  ARBITER_RETURN_IF_ERROR(CheckCount("cannot_move_draw", r.cannot_move_draw(), 0, kMaxDraw));
  ARBITER_RETURN_IF_ERROR(CheckCount("buy_divisor", r.buy_divisor(), 1, kMaxValue));
  ARBITER_RETURN_IF_ERROR(CheckCount("bridges_per_player", r.bridges_per_player(), 0, 9));
  c.final_draw = r.final_draw();
  c.cannot_move_draw = r.cannot_move_draw();
  c.buy_divisor = r.buy_divisor();
  c.bridges = r.bridges_per_player();
  return absl::OkStatus();
}

}  // namespace

const char* ItemName(int item) {
  static constexpr const char* kNames[kItems] = {"FLAG", "OLIVE", "HELMET", "AMPHORA",
                                                 "RING", "STATUE", "CROWN"};
  return item >= 0 && item < kItems ? kNames[item] : "?";
}

std::string TileName(uint8_t code) { return absl::StrCat(ItemName(TileItem(code)), " ", TileValue(code)); }

absl::StatusOr<Config> ParseConfig(const v1::Ruleset& ruleset) {
  if (ruleset.data_case() != v1::Ruleset::kAtlantis) {
    return absl::InvalidArgumentError("ruleset data is not atlantis");
  }
  const v1::AtlantisRules& r = ruleset.atlantis();
  Config c;
  ARBITER_RETURN_IF_ERROR(ReadPath(r, c));
  ARBITER_RETURN_IF_ERROR(ReadPlayers(r, c));
  ARBITER_RETURN_IF_ERROR(ReadDraws(r, c));
  c.min_value = kMaxValue;
  for (const auto* tiles : {&c.tiles_a, &c.tiles_b}) {
    for (uint8_t t : *tiles) {
      c.min_value = std::min(c.min_value, TileValue(t));
      c.max_value = std::max(c.max_value, TileValue(t));
    }
  }
  return c;
}

}  // namespace arbiter::engine::atlantis
