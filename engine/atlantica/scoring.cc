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

struct Choice {
  int prev = -1;  // state index before this kind
  int8_t keep = 0;
  int8_t jokers = 0;
  bool chosen = false;
};

}  // namespace

Score ScoreHolding(const Rules& r, const Holding& h) {
  const int kinds = r.num_kinds;
  int held = 0;
  for (int k = 0; k < kinds; ++k) held += h.treasures[k];
  const int crates = std::min(h.crates, held);

  int jokers = 0, chosen_points = 0, kinds_cap = 0, research_cards = 0;
  std::array<int, kMaxKinds> fixed{};
  for (int i = 0; i < r.num_research; ++i) {
    const int n = h.research[i];
    if (n == 0) continue;
    research_cards += n;
    const Effect& e = r.effects[i];
    switch (e.kind) {
      case Atlantica::JOKER_TREASURE: jokers += n; break;
      case Atlantica::PER_CHOSEN_KIND: chosen_points += e.points * n; break;
      case Atlantica::PER_FIXED_KIND: fixed[e.kind_index] += e.points * n; break;
      case Atlantica::KINDS_AT_LEAST: kinds_cap = std::max(kinds_cap, e.threshold); break;
      default: break;
    }
  }
  kinds_cap = std::min(kinds_cap, kinds);
  std::array<int, kMaxKinds + 1> kinds_bonus{};
  for (int i = 0; i < r.num_research; ++i) {
    const Effect& e = r.effects[i];
    if (h.research[i] == 0 || e.kind != Atlantica::KINDS_AT_LEAST) continue;
    for (int n = e.threshold; n <= kinds_cap; ++n) kinds_bonus[n] += e.points * h.research[i];
  }

  // State (c, u, n, f): crates used, jokers used, kinds kept (capped), chosen
  // kind taken (only when chosen-kind cards are held).
  const int flags = chosen_points > 0 ? 2 : 1;
  const int ns = kinds_cap + 1, us = jokers + 1;
  const int states = (crates + 1) * us * ns * flags;
  auto index = [&](int c, int u, int n, int f) { return ((c * us + u) * ns + n) * flags + f; };

  std::vector<int> dp(states, -1), next(states);
  std::vector<Choice> choices(static_cast<std::size_t>(kinds) * states);
  dp[index(0, 0, 0, 0)] = 0;
  int reach = 0;  // crates usable so far
  for (int k = 0; k < kinds; ++k) {
    std::fill(next.begin(), next.end(), -1);
    Choice* choice = &choices[static_cast<std::size_t>(k) * states];
    const int have = h.treasures[k];
    const auto& score = r.kind_score[k];
    for (int c = 0; c <= reach; ++c) {
      for (int u = 0; u < us; ++u) {
        for (int n = 0; n < ns; ++n) {
          for (int f = 0; f < flags; ++f) {
            const int from = index(c, u, n, f);
            const int v = dp[from];
            if (v < 0) continue;
            const int max_keep = std::min(have, crates - c);
            for (int x = 0; x <= max_keep; ++x) {
              const int n2 = std::min(kinds_cap, n + (x > 0 ? 1 : 0));
              const int max_j = x > 0 ? jokers - u : 0;
              for (int j = 0; j <= max_j; ++j) {
                const int count = x + j;
                const int base = v + (score[count] + fixed[k] * count) * kScale + x;
                int to = index(c + x, u + j, n2, f);
                if (base > next[to]) {
                  next[to] = base;
                  choice[to] = Choice{from, static_cast<int8_t>(x), static_cast<int8_t>(j), false};
                }
                if (f == 0 && flags == 2 && count > 0) {
                  const int with = base + chosen_points * count * kScale;
                  to = index(c + x, u + j, n2, 1);
                  if (with > next[to]) {
                    next[to] = with;
                    choice[to] = Choice{from, static_cast<int8_t>(x), static_cast<int8_t>(j), true};
                  }
                }
              }
            }
          }
        }
      }
    }
    reach = std::min(crates, reach + have);
    dp.swap(next);
  }

  int best = -1, best_state = -1, best_n = 0;
  for (int c = 0; c <= crates; ++c) {
    for (int u = 0; u < us; ++u) {
      for (int n = 0; n < ns; ++n) {
        for (int f = 0; f < flags; ++f) {
          const int s = index(c, u, n, f);
          if (dp[s] < 0) continue;
          const int v = dp[s] + kinds_bonus[n] * kScale;
          if (v > best) {
            best = v;
            best_state = s;
            best_n = n;
          }
        }
      }
    }
  }
  assert(best_state >= 0);

  Score out;
  for (int k = kinds - 1, s = best_state; k >= 0; --k) {
    const Choice& c = choices[static_cast<std::size_t>(k) * states + s];
    out.kept[k] = c.keep;
    out.jokers[k] = c.jokers;
    out.discarded[k] = h.treasures[k] - c.keep;
    if (c.chosen) out.chosen_kind = k;
    s = c.prev;
  }
  for (int k = 0; k < kinds; ++k) {
    out.kind_points[k] = r.kind_score[k][out.kept[k] + out.jokers[k]];
    out.treasure_points += out.kind_points[k];
    out.kept_cards += out.kept[k];
  }
  const int chosen_count = out.chosen_kind >= 0 ? out.kept[out.chosen_kind] + out.jokers[out.chosen_kind] : 0;
  for (int i = 0; i < r.num_research; ++i) {
    const Effect& e = r.effects[i];
    int points = 0;
    switch (e.kind) {
      case Atlantica::FLAT: points = e.points; break;
      case Atlantica::KINDS_AT_LEAST: points = best_n >= e.threshold ? e.points : 0; break;
      case Atlantica::PER_CHOSEN_KIND: points = e.points * chosen_count; break;
      case Atlantica::PER_FIXED_KIND:
        points = e.points * (out.kept[e.kind_index] + out.jokers[e.kind_index]);
        break;
      case Atlantica::PER_RESEARCH_CARD: points = e.points * research_cards; break;
      case Atlantica::PER_SHIP: points = e.points * h.ships; break;
      case Atlantica::CRATES_AT_LEAST: points = h.crates >= e.threshold ? e.points : 0; break;
      default: break;
    }
    out.research_card_points[i] = points;
    out.research_points += points * h.research[i];
  }
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
