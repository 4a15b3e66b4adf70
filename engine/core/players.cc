#include "engine/core/players.h"

#include "absl/strings/str_cat.h"

namespace arbiter::engine {
namespace {

// "Ann" + "'s", "James" + "'", for a name that ends in s.
std::string Possessive(const std::string& name) {
  return name.ends_with('s') || name.ends_with('S') ? absl::StrCat(name, "'") : absl::StrCat(name, "'s");
}

}  // namespace

std::string Players::Who(int seat) const {
  if (seat < 0 || static_cast<std::size_t>(seat) >= players_.size() || players_[static_cast<std::size_t>(seat)].id.empty()) {
    return absl::StrCat("seat ", seat + 1);
  }
  const PlayerName& p = players_[static_cast<std::size_t>(seat)];
  if (p.name.empty() || p.name == p.id) return p.id;
  return absl::StrCat(p.name, " (", p.id, ")");
}

std::string Players::SeatLabel(int seat) const {
  const std::string who = Who(seat);
  const std::string number = absl::StrCat("Seat ", seat + 1);
  return who == absl::StrCat("seat ", seat + 1) ? number : absl::StrCat(number, ", ", who);
}

std::string Players::IdOf(int seat) const {
  if (seat < 0 || seat >= static_cast<int>(players_.size())) return "";
  return players_[static_cast<std::size_t>(seat)].id;
}

std::string Players::Whose(int seat) const {
  if (seat < 0 || static_cast<std::size_t>(seat) >= players_.size() || players_[static_cast<std::size_t>(seat)].id.empty()) {
    return absl::StrCat("seat ", seat + 1, "'s");
  }
  const PlayerName& p = players_[static_cast<std::size_t>(seat)];
  if (p.name.empty() || p.name == p.id) return Possessive(p.id);
  return absl::StrCat(Possessive(p.name), " (", p.id, ")");
}

}  // namespace arbiter::engine
