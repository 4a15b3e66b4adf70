#include "engine/atlantica/scoring.h"

#include <algorithm>
#include <cassert>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/atlantica/state.h"
#include "engine/core/standings.h"

namespace arbiter::engine::atlantica {
namespace {

using v1::Atlantica;

// Values in the search are points * kScale + kept cards, so that the larger
// value has more points, or equal points and more kept cards.
constexpr int kScale = 1024;

// What the research cards held bring to the search.
struct ResearchHeld {
  int cards = 0;          // research cards held
  int jokers = 0;         // JOKER_TREASURE cards: jokers to lay with some kind
  int chosen_points = 0;  // PER_CHOSEN_KIND: points per card of the chosen kind
  // The largest KINDS_AT_LEAST threshold held (at most the number of kinds):
  // counting kinds kept beyond it gains nothing.
  int kinds_cap = 0;
  std::array<int, kMaxKinds> fixed_points{};     // PER_FIXED_KIND: points per card of each kind
  std::array<int, kMaxKinds + 1> kinds_bonus{};  // KINDS_AT_LEAST: points for n kinds kept, n <= kinds_cap
};

ResearchHeld SumResearch(const Rules& rules, const Holding& holding) {
  ResearchHeld research;
  for (int i = 0; i < rules.num_research; ++i) {
    const int n = holding.research[i];
    if (n == 0) continue;
    research.cards += n;
    const Effect& e = rules.effects[i];
    switch (e.kind) {
      case Atlantica::JOKER_TREASURE: research.jokers += n; break;
      case Atlantica::PER_CHOSEN_KIND: research.chosen_points += e.points * n; break;
      case Atlantica::PER_FIXED_KIND: research.fixed_points[e.kind_index] += e.points * n; break;
      case Atlantica::KINDS_AT_LEAST: research.kinds_cap = std::max(research.kinds_cap, e.threshold); break;
      default: break;
    }
  }
  research.kinds_cap = std::min(research.kinds_cap, rules.num_kinds);
  for (int i = 0; i < rules.num_research; ++i) {
    const Effect& e = rules.effects[i];
    if (holding.research[i] == 0 || e.kind != Atlantica::KINDS_AT_LEAST) continue;
    for (int n = e.threshold; n <= research.kinds_cap; ++n) research.kinds_bonus[n] += e.points * holding.research[i];
  }
  return research;
}

// How the best value of a state was reached at one kind.
struct Choice {
  int prev = -1;  // state index before this kind
  int8_t keep = 0;
  int8_t jokers = 0;
  bool chosen = false;
};

// A state of the search: what the kinds decided so far have used.
struct SearchState {
  int crates_used = 0;
  int jokers_used = 0;
  int kinds_kept = 0;  // capped at kinds_cap
  int chosen = 0;      // 1 once the chosen kind is taken
};

// The states of the search, numbered in the order (crates used, jokers used,
// kinds kept, chosen kind taken): walking the numbers in order walks the
// states in that order.
struct StateSpace {
  int crates = 0;  // crates usable: no more than the treasures held
  int joker_states = 1;
  int kind_states = 1;
  int chosen_states = 1;

  int size() const { return (crates + 1) * joker_states * kind_states * chosen_states; }
  // The states with at most `crates_used` crates used are the first
  // Below(crates_used) numbers.
  int Below(int crates_used) const { return (crates_used + 1) * joker_states * kind_states * chosen_states; }
  int Index(const SearchState& s) const {
    return ((s.crates_used * joker_states + s.jokers_used) * kind_states + s.kinds_kept) * chosen_states + s.chosen;
  }
  SearchState Decode(int index) const {
    SearchState s;
    s.chosen = index % chosen_states;
    index /= chosen_states;
    s.kinds_kept = index % kind_states;
    index /= kind_states;
    s.jokers_used = index % joker_states;
    s.crates_used = index / joker_states;
    return s;
  }
  // The state numbered one more than `s`.
  void Advance(SearchState& s) const {
    if (++s.chosen < chosen_states) return;
    s.chosen = 0;
    if (++s.kinds_kept < kind_states) return;
    s.kinds_kept = 0;
    if (++s.jokers_used < joker_states) return;
    s.jokers_used = 0;
    ++s.crates_used;
  }
};

// Keeps `value` for state `to`, reached from state `from` by keeping `keep`
// cards and laying `jokers` jokers (`chosen`: as the chosen kind), if it is
// better than what the kind has reached there so far.
void Offer(int to, int value, int from, int keep, int jokers, bool chosen, int* next, Choice* choice) {
  if (value > next[to]) {
    next[to] = value;
    choice[to] = Choice{from, static_cast<int8_t>(keep), static_cast<int8_t>(jokers), chosen};
  }
}

// The dynamic programme over treasure kinds: the best value of every state
// after each kind, and how it was reached.
class TreasureSearch {
 public:
  TreasureSearch(const Rules& rules, const Holding& holding, const ResearchHeld& research)
      : rules_(rules), holding_(holding), research_(research) {
    int held = 0;
    for (int k = 0; k < rules.num_kinds; ++k) held += holding.treasures[k];
    space_.crates = std::min(holding.crates, held);
    space_.joker_states = research.jokers + 1;
    space_.kind_states = research.kinds_cap + 1;
    space_.chosen_states = research.chosen_points > 0 ? 2 : 1;
    size_ = space_.size();
    best_.assign(size_, -1);
    next_.resize(size_);
    choices_.resize(static_cast<std::size_t>(rules.num_kinds) * size_);
  }

  // Decides every kind in ruleset order; returns the number of the best end
  // state, its value (with the kinds bonus) in `value`.
  int Run(int& value) {
    best_[space_.Index(SearchState{})] = 0;
    int reach = 0;  // crates usable so far
    for (int k = 0; k < rules_.num_kinds; ++k) {
      DecideKind(k, reach);
      reach = std::min(space_.crates, reach + holding_.treasures[k]);
    }
    return BestEnd(value);
  }

  // The kept, joker and discarded cards of each kind and the chosen kind on
  // the way to `end`.
  void Unwind(int end, Score& out) const {
    for (int k = rules_.num_kinds - 1, s = end; k >= 0; --k) {
      const Choice& c = choices_[static_cast<std::size_t>(k) * size_ + s];
      out.kept[k] = c.keep;
      out.jokers[k] = c.jokers;
      out.discarded[k] = holding_.treasures[k] - c.keep;
      if (c.chosen) out.chosen_kind = k;
      s = c.prev;
    }
  }

  int KindsKept(int state) const { return space_.Decode(state).kinds_kept; }

 private:
  // Every state reachable before kind k (at most `reach` crates used)
  // extended by every choice for kind k.
  void DecideKind(int k, int reach) {
    std::fill(next_.begin(), next_.end(), -1);
    Choice* choice = &choices_[static_cast<std::size_t>(k) * size_];
    const int reachable = space_.Below(reach);
    SearchState s;
    for (int from = 0; from < reachable; ++from, space_.Advance(s)) {
      if (best_[from] >= 0) Extend(k, from, s, next_.data(), choice);
    }
    best_.swap(next_);
  }

  // Keeping `keep` cards of kind k (one crate each) and laying `jokers`
  // jokers with them, counted for the chosen kind or not. The values are
  // copied to locals so that the stores into `next` and `choice` do not
  // make the compiler read them again.
  void Extend(int k, int from, const SearchState& s, int* next, Choice* choice) const {
    const StateSpace space = space_;
    const int value = best_[from];
    const auto& score = rules_.kind_score[k];
    const int fixed_points = research_.fixed_points[k];
    const int chosen_points = research_.chosen_points;
    const int kinds_cap = research_.kinds_cap;
    const int max_keep = std::min(holding_.treasures[k], space.crates - s.crates_used);
    const int max_jokers_kept = research_.jokers - s.jokers_used;
    for (int keep = 0; keep <= max_keep; ++keep) {
      SearchState to = s;
      to.crates_used += keep;
      to.kinds_kept = std::min(kinds_cap, s.kinds_kept + (keep > 0 ? 1 : 0));
      const int max_jokers = keep > 0 ? max_jokers_kept : 0;
      for (int jokers = 0; jokers <= max_jokers; ++jokers) {
        const int count = keep + jokers;
        const int base = value + (score[count] + fixed_points * count) * kScale + keep;
        to.jokers_used = s.jokers_used + jokers;
        Offer(space.Index(to), base, from, keep, jokers, false, next, choice);
        if (s.chosen == 0 && space.chosen_states == 2 && count > 0) {
          SearchState chosen = to;
          chosen.chosen = 1;
          Offer(space.Index(chosen), base + chosen_points * count * kScale, from, keep, jokers, true, next, choice);
        }
      }
    }
  }

  // The first end state of the highest value, the kinds bonus added.
  int BestEnd(int& value) const {
    int best = -1;
    int best_state = -1;
    SearchState state;
    for (int s = 0; s < size_; ++s, space_.Advance(state)) {
      if (best_[s] < 0) continue;
      const int v = best_[s] + research_.kinds_bonus[state.kinds_kept] * kScale;
      if (v > best) {
        best = v;
        best_state = s;
      }
    }
    assert(best_state >= 0);
    value = best;
    return best_state;
  }

  const Rules& rules_;
  const Holding& holding_;
  const ResearchHeld& research_;
  StateSpace space_;
  int size_ = 0;
  std::vector<int> best_;  // best value of each state after the kinds decided; -1 unreachable
  std::vector<int> next_;
  std::vector<Choice> choices_;  // per kind, per state: how best_ was reached
};

// The points of each research card type, given the kept treasures in `out`.
void ScoreResearch(const Rules& rules, const Holding& holding, const ResearchHeld& research, int kinds_kept,
                   Score& out) {
  const int chosen_count = out.chosen_kind >= 0 ? out.kept[out.chosen_kind] + out.jokers[out.chosen_kind] : 0;
  for (int i = 0; i < rules.num_research; ++i) {
    const Effect& e = rules.effects[i];
    int points = 0;
    switch (e.kind) {
      case Atlantica::FLAT: points = e.points; break;
      case Atlantica::KINDS_AT_LEAST: points = kinds_kept >= e.threshold ? e.points : 0; break;
      case Atlantica::PER_CHOSEN_KIND: points = e.points * chosen_count; break;
      case Atlantica::PER_FIXED_KIND:
        points = e.points * (out.kept[e.kind_index] + out.jokers[e.kind_index]);
        break;
      case Atlantica::PER_RESEARCH_CARD: points = e.points * research.cards; break;
      case Atlantica::PER_SHIP: points = e.points * holding.ships; break;
      case Atlantica::CRATES_AT_LEAST: points = holding.crates >= e.threshold ? e.points : 0; break;
      default: break;
    }
    out.research_card_points[i] = points;
    out.research_points += points * holding.research[i];
  }
}

}  // namespace

Score ScoreHolding(const Rules& rules, const Holding& holding) {
  const ResearchHeld research = SumResearch(rules, holding);
  TreasureSearch search(rules, holding, research);
  int best = 0;
  const int end = search.Run(best);
  Score out;
  search.Unwind(end, out);
  for (int k = 0; k < rules.num_kinds; ++k) {
    out.kind_points[k] = rules.kind_score[k][out.kept[k] + out.jokers[k]];
    out.treasure_points += out.kind_points[k];
    out.kept_cards += out.kept[k];
  }
  ScoreResearch(rules, holding, research, search.KindsKept(end), out);
  out.total = out.treasure_points + out.research_points;
  assert(out.kept_cards == best % kScale);
  return out;
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
