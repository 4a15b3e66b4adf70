// Atlantica: every legal turn and the canonical spelling of a turn
// (actions.h: ListTurns, CanonicalTurn); AtlanticaState::LegalActions and
// Canonical.
#include <algorithm>

#include "engine/atlantica/actions.h"
#include "engine/atlantica/state.h"

namespace arbiter::engine::atlantica {
namespace {

using v1::Atlantica;

struct Payment {
  ColourCounts regular{};
  int pair = -1;  // colour of the joker pair, or -1
  // Accepts-masks of the slots the pair may stand for (any one must be
  // unheld once the turn's other cards are laid).
  std::array<uint8_t, kMaxSlots> masks{};
  int num_masks = 0;
  int cards = 0;
};

struct Take {
  unsigned treasure = 0;
  unsigned research = 0;
  std::array<int, kMaxStacks> stacks{};
  // For the proto: areas (diving boat, research) or picks (place, area).
  std::array<int, kMaxAreas> areas{};
  int num_areas = 0;
  std::array<std::pair<int, int>, 3> picks{};
  int num_picks = 0;
};

struct Option {
  int place = 0;
  int tier = 0;
  const Payment* pay = nullptr;
  const Take* take = nullptr;
};

class Lister {
 public:
  Lister(const Rules& rules, const Board& board, int seat, std::vector<Move>& out)
      : rules_(rules), board_(board), seat_(seat), hand_(board.players[seat].hand), out_(out) {}

  void Run() {
    for (int p = 0; p < kPlaces; ++p) {
      for (int t = 0; t < rules_.places[p].num_tiers; ++t) {
        payments_[p][t] = Payments(rules_.places[p].tiers[t]);
        takes_[p][t] = Takes(p, rules_.places[p].tiers[t]);
      }
    }
    Recurse(0);
  }

 private:
  void AddPayment(std::vector<Payment>& list, const ColourCounts& regular, int cards, int pair, uint8_t mask) {
    for (Payment& p : list) {
      if (p.regular == regular && p.pair == pair) {
        bool known = false;
        for (int m = 0; m < p.num_masks; ++m) known = known || p.masks[m] == mask;
        if (pair >= 0 && !known && p.num_masks < kMaxSlots) p.masks[p.num_masks++] = mask;
        return;
      }
    }
    Payment p;
    p.regular = regular;
    p.pair = pair;
    p.cards = cards + (pair >= 0 ? 2 : 0);
    if (pair >= 0) p.masks[p.num_masks++] = mask;
    list.push_back(p);
  }

  void Assign(const TierRules& tier, int slot, int joker_slot, ColourCounts& regular, int cards,
              std::vector<Payment>& list) {
    if (slot == tier.num_slots) {
      if (joker_slot < 0) {
        AddPayment(list, regular, cards, -1, 0);
        return;
      }
      for (int c = 0; c < kColours; ++c) {
        if (!(tier.accepts[joker_slot] & (1u << c)) && regular[c] + 2 <= hand_[c]) {
          AddPayment(list, regular, cards, c, tier.accepts[joker_slot]);
        }
      }
      return;
    }
    if (slot == joker_slot) {
      Assign(tier, slot + 1, joker_slot, regular, cards, list);
      return;
    }
    for (int c = 0; c < kColours; ++c) {
      if ((tier.accepts[slot] & (1u << c)) && regular[c] < hand_[c]) {
        ++regular[c];
        Assign(tier, slot + 1, joker_slot, regular, cards + 1, list);
        --regular[c];
      }
    }
  }

  std::vector<Payment> Payments(const TierRules& tier) {
    std::vector<Payment> list;
    ColourCounts regular{};
    for (int js = -1; js < tier.num_slots; ++js) Assign(tier, 0, js, regular, 0, list);
    return list;
  }

  // Subsets of `take` non-empty areas among the first `reach`.
  void AreaTakes(bool treasure, int take, int reach, std::vector<Take>& list) {
    const auto& row = treasure ? board_.treasure_areas : board_.research_areas;
    for (unsigned mask = 0; mask < (1u << reach); ++mask) {
      if (__builtin_popcount(mask) != take) continue;
      bool ok = true;
      Take t;
      for (int a = 0; a < reach; ++a) {
        if (!(mask & (1u << a))) continue;
        ok = ok && row[a] != kEmpty;
        t.areas[t.num_areas++] = a + 1;
      }
      if (!ok) continue;
      (treasure ? t.treasure : t.research) = mask;
      list.push_back(t);
    }
  }

  std::vector<Take> Takes(int place, const TierRules& tier) {
    std::vector<Take> list;
    switch (PlaceOf(place)) {
      case Atlantica::DIVING_BOAT:
        AreaTakes(true, tier.take, tier.reach, list);
        break;
      case Atlantica::RESEARCH_STATION:
        AreaTakes(false, tier.take, tier.reach, list);
        break;
      case Atlantica::HARBOUR:
        if (!board_.ship_stacks[tier.stack].empty()) {
          Take t;
          t.stacks[tier.stack] = 1;
          list.push_back(t);
        }
        break;
      case Atlantica::PUB:
        if (tier.drink_picks == 0) {
          list.emplace_back();
        } else {
          Take t;
          Drinks(tier.drink_picks, 0, t, list);
        }
        break;
      default:
        break;
    }
    return list;
  }

  // Picks from places `from`.. (0 diving boat, 1 harbour, 3 research).
  void Drinks(int left, int from, Take& t, std::vector<Take>& list) {
    if (left == 0) {
      list.push_back(t);
      return;
    }
    for (int p = from; p < kPlaces; ++p) {
      if (p == PlaceIndex(Atlantica::PUB)) continue;
      if (p == PlaceIndex(Atlantica::HARBOUR)) {
        for (int s = 0; s < rules_.num_stacks; ++s) {
          if (board_.ship_stacks[s].empty()) continue;
          ++t.stacks[s];
          t.picks[t.num_picks++] = {p, s + 1};
          Drinks(left - 1, p + 1, t, list);
          --t.num_picks;
          --t.stacks[s];
        }
        continue;
      }
      const bool treasure = p == PlaceIndex(Atlantica::DIVING_BOAT);
      const auto& row = treasure ? board_.treasure_areas : board_.research_areas;
      const int areas = treasure ? rules_.treasure_areas : rules_.research_areas;
      for (int a = 0; a < areas; ++a) {
        if (row[a] == kEmpty) continue;
        unsigned& mask = treasure ? t.treasure : t.research;
        mask |= 1u << a;
        t.picks[t.num_picks++] = {p, a + 1};
        Drinks(left - 1, p + 1, t, list);
        --t.num_picks;
        mask &= ~(1u << a);
      }
    }
  }

  void Recurse(int place) {
    if (place == kPlaces) {
      if (depth_ > 0) Emit();
      return;
    }
    Recurse(place + 1);
    if (depth_ == rules_.actions_per_turn) return;
    // No room for another card (or, without a joker so far, for a joker pair).
    if (cards_ >= rules_.cards_per_turn_with_joker) return;
    if (joker_ < 0 && cards_ >= rules_.cards_per_turn && cards_ + 2 > rules_.cards_per_turn_with_joker) return;
    for (int t = 0; t < rules_.places[place].num_tiers; ++t) {
      for (const Payment& pay : payments_[place][t]) {
        if (pay.pair >= 0 && joker_ >= 0) continue;
        const int cards = cards_ + pay.cards;
        if (cards > rules_.cards_per_turn_with_joker) continue;
        // Without a joker so far, only a later joker action (two cards or
        // more) could make room for more than cards_per_turn.
        if (joker_ < 0 && pay.pair < 0 && cards > rules_.cards_per_turn &&
            cards + 2 > rules_.cards_per_turn_with_joker) {
          continue;
        }
        bool fits = true;
        for (int c = 0; c < kColours; ++c) {
          fits = fits && cost_[c] + pay.regular[c] + (c == pay.pair ? 2 : 0) <= hand_[c];
        }
        if (!fits) continue;
        for (const Take& take : takes_[place][t]) {
          if ((take.treasure & treasure_) || (take.research & research_)) continue;
          bool room = true;
          for (int s = 0; s < rules_.num_stacks; ++s) {
            room = room && stacks_[s] + take.stacks[s] <= static_cast<int>(board_.ship_stacks[s].size());
          }
          if (!room) continue;
          Push(place, t, pay, take);
          Recurse(place + 1);
          Pop(pay, take);
        }
      }
    }
  }

  void Push(int place, int tier, const Payment& pay, const Take& take) {
    chosen_[depth_++] = Option{place, tier, &pay, &take};
    for (int c = 0; c < kColours; ++c) {
      cost_[c] += pay.regular[c];
      regular_[c] += pay.regular[c];
    }
    if (pay.pair >= 0) {
      cost_[pay.pair] += 2;
      joker_ = depth_ - 1;
    }
    cards_ += pay.cards;
    treasure_ |= take.treasure;
    research_ |= take.research;
    for (int s = 0; s < rules_.num_stacks; ++s) stacks_[s] += take.stacks[s];
  }

  void Pop(const Payment& pay, const Take& take) {
    --depth_;
    for (int c = 0; c < kColours; ++c) {
      cost_[c] -= pay.regular[c];
      regular_[c] -= pay.regular[c];
    }
    if (pay.pair >= 0) {
      cost_[pay.pair] -= 2;
      joker_ = -1;
    }
    cards_ -= pay.cards;
    treasure_ &= ~take.treasure;
    research_ &= ~take.research;
    for (int s = 0; s < rules_.num_stacks; ++s) stacks_[s] -= take.stacks[s];
  }

  void Emit() {
    if (joker_ < 0 && cards_ > rules_.cards_per_turn) return;
    if (joker_ >= 0) {
      unsigned left = 0;
      for (int c = 0; c < kColours; ++c) {
        if (hand_[c] - regular_[c] > 0) left |= 1u << c;
      }
      const Payment& pay = *chosen_[joker_].pay;
      bool allowed = false;
      for (int m = 0; m < pay.num_masks; ++m) allowed = allowed || (pay.masks[m] & left) == 0;
      if (!allowed) return;
    }
    Move& move = out_.emplace_back();
    move.seat = seat_;
    auto* turn = move.action.mutable_atlantica()->mutable_turn();
    turn->mutable_actions()->Reserve(depth_);
    for (int i = 0; i < depth_; ++i) {
      const Option& o = chosen_[i];
      auto* a = turn->add_actions();
      a->set_place(PlaceOf(o.place));
      a->set_tier(o.tier + 1);
      for (int c = 0; c < kColours; ++c) {
        for (int k = 0; k < o.pay->regular[c]; ++k) a->add_divers(ColourOf(c));
      }
      if (o.pay->pair >= 0) {
        a->add_joker(ColourOf(o.pay->pair));
        a->add_joker(ColourOf(o.pay->pair));
      }
      for (int k = 0; k < o.take->num_areas; ++k) a->add_areas(o.take->areas[k]);
      for (int k = 0; k < o.take->num_picks; ++k) {
        auto* pick = a->add_picks();
        pick->set_place(PlaceOf(o.take->picks[k].first));
        pick->set_area(o.take->picks[k].second);
      }
    }
  }

  const Rules& rules_;
  const Board& board_;
  const int seat_;
  const ColourCounts& hand_;
  std::vector<Move>& out_;
  std::array<std::array<std::vector<Payment>, kMaxTiers>, kPlaces> payments_;
  std::array<std::array<std::vector<Take>, kMaxTiers>, kPlaces> takes_;
  std::array<Option, kPlaces> chosen_{};
  int depth_ = 0;
  ColourCounts cost_{};
  ColourCounts regular_{};
  int joker_ = -1;
  int cards_ = 0;
  unsigned treasure_ = 0;
  unsigned research_ = 0;
  std::array<int, kMaxStacks> stacks_{};
};

}  // namespace

void ListTurns(const Rules& rules, const Board& board, int seat, std::vector<Move>& out) {
  Lister(rules, board, seat, out).Run();
}

v1::Action CanonicalTurn(const v1::Action& action) {
  v1::Action canonical = action;
  canonical.clear_player();
  if (!canonical.atlantica().has_turn()) return canonical;
  auto* actions = canonical.mutable_atlantica()->mutable_turn()->mutable_actions();
  for (auto& a : *actions) {
    std::sort(a.mutable_divers()->begin(), a.mutable_divers()->end());
    std::sort(a.mutable_joker()->begin(), a.mutable_joker()->end());
    std::sort(a.mutable_areas()->begin(), a.mutable_areas()->end());
    std::sort(a.mutable_picks()->begin(), a.mutable_picks()->end(), [](const auto& x, const auto& y) {
      return x.place() != y.place() ? x.place() < y.place() : x.area() < y.area();
    });
  }
  std::sort(actions->begin(), actions->end(),
            [](const auto& x, const auto& y) { return x.place() < y.place(); });
  return canonical;
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

}  // namespace arbiter::engine::atlantica
