// The parameter tables of internal/parameters.h.
#include "engine/rating/internal/parameters.h"

#include <array>
#include <limits>

#include "absl/strings/str_cat.h"

namespace arbiter::engine::rating::internal {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
using Kind = ParamSpec::Kind;

// Each line names a field once: getter and setter of the same member.
#define ARBITER_FIELD(path)                                        \
  [](const RatingConfig& c) { return static_cast<double>(c.path); }, \
      [](RatingConfig& c, double v) { c.path = static_cast<decltype(c.path)>(v); }

constexpr ParamSpec kProvisionalGames = {
    "provisional_games", "a player is provisional while fewer games than this are rated",
    Kind::kCount, 0, false, kInf, ARBITER_FIELD(provisional_games)};

constexpr std::array kOpenSkill = {
    ParamSpec{"mu", "initial mean skill", Kind::kReal, -kInf, false, kInf, ARBITER_FIELD(openskill.mu)},
    ParamSpec{"sigma", "initial standard deviation of the skill", Kind::kReal, 0, true, kInf,
              ARBITER_FIELD(openskill.sigma)},
    ParamSpec{"beta", "performance noise of one game (openskill.js default 25/6)", Kind::kReal, 0, true,
              kInf, ARBITER_FIELD(openskill.beta)},
    ParamSpec{"kappa", "smallest factor by which one match may shrink a variance", Kind::kReal, 0, true, 1,
              ARBITER_FIELD(openskill.kappa)},
    ParamSpec{"tau", "dynamics: added to every sigma in quadrature before each match (0 = off)",
              Kind::kReal, 0, false, kInf, ARBITER_FIELD(openskill.tau)},
    ParamSpec{"epsilon", "draw margin of the Thurstone-Mosteller model", Kind::kReal, 0, false, kInf,
              ARBITER_FIELD(openskill.epsilon)},
    ParamSpec{"z", "display rating (ordinal) is mu - z * sigma", Kind::kReal, 0, false, kInf,
              ARBITER_FIELD(openskill.z)},
    ParamSpec{"limit_sigma", "1: a match never leaves a sigma larger than before tau was added",
              Kind::kFlag, 0, false, 1, ARBITER_FIELD(openskill.limit_sigma)},
    ParamSpec{"provisional_sigma", "a player is provisional while sigma is above this", Kind::kReal, 0,
              false, kInf, ARBITER_FIELD(openskill.provisional_sigma)},
    kProvisionalGames,
};

constexpr std::array kGlicko2 = {
    ParamSpec{"rating", "initial rating", Kind::kReal, -kInf, false, kInf, ARBITER_FIELD(glicko2.rating)},
    ParamSpec{"rd", "initial rating deviation", Kind::kReal, 0, true, kInf, ARBITER_FIELD(glicko2.rd)},
    ParamSpec{"volatility", "initial volatility", Kind::kReal, 0, true, kInf,
              ARBITER_FIELD(glicko2.volatility)},
    ParamSpec{"tau", "constrains how fast the volatility changes (Glickman: 0.3 to 1.2)", Kind::kReal, 0,
              true, kInf, ARBITER_FIELD(glicko2.tau)},
    ParamSpec{"epsilon", "convergence tolerance of the volatility iteration", Kind::kReal, 0, true, kInf,
              ARBITER_FIELD(glicko2.epsilon)},
    ParamSpec{"provisional_sigma", "a player is provisional while the RD is above this", Kind::kReal, 0,
              false, kInf, ARBITER_FIELD(glicko2.provisional_sigma)},
    kProvisionalGames,
};

constexpr std::array kElo = {
    ParamSpec{"rating", "initial rating", Kind::kReal, -kInf, false, kInf, ARBITER_FIELD(elo.rating)},
    ParamSpec{"k", "K factor of a two-player game; K / (teams - 1) per pair at larger tables", Kind::kReal,
              0, true, kInf, ARBITER_FIELD(elo.k)},
    kProvisionalGames,
};

#undef ARBITER_FIELD

}  // namespace

std::span<const ParamSpec> ParamSpecs(System system) {
  switch (system) {
    case System::kPlackettLuce:
    case System::kThurstoneMostellerFull:
    case System::kBradleyTerryFull:
      return kOpenSkill;
    case System::kGlicko2:
      return kGlicko2;
    case System::kElo:
      return kElo;
  }
  return {};
}

std::string RangeText(const ParamSpec& spec) {
  switch (spec.kind) {
    case Kind::kFlag:
      return "0 or 1";
    case Kind::kCount:
      return "a whole number >= 0";
    case Kind::kReal:
      break;
  }
  const std::string low = spec.low == -kInf ? "" : absl::StrCat(spec.low_open ? "> " : ">= ", spec.low);
  if (spec.high == kInf) return low.empty() ? "any finite number" : low;
  if (low.empty()) return absl::StrCat("<= ", spec.high);
  return absl::StrCat("in ", spec.low_open ? "(" : "[", spec.low, ", ", spec.high, "]");
}

}  // namespace arbiter::engine::rating::internal
