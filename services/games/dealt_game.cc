#include "services/games/dealt_game.h"

#include <algorithm>

#include <openssl/rand.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/core/dealer_seed.h"
#include "services/games/game_events.h"

namespace arbiter::games {
namespace {

absl::Status Bad(const v1::Event& event, const std::string& game_id, const std::string& what) {
  return absl::DataLossError(
      absl::StrCat("event ", event.event(), " of game \"", game_id, "\" ", what));
}

bool HasSeat(const v1::GameCreated& created, const std::string& player) {
  const auto& players = created.header().players();
  return std::any_of(players.begin(), players.end(),
                     [&](const v1::Player& p) { return p.id() == player; });
}

}  // namespace

absl::StatusOr<std::string> DrawDealerSecret() {
  std::string secret(engine::kDealerSecretBytes, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(secret.data()), engine::kDealerSecretBytes) != 1) {
    return absl::InternalError("no random bytes could be drawn for the dealer's secret");
  }
  return secret;
}

bool IsDealt(const v1::GameCreated& created) { return created.dealt(); }

absl::Status DealTracker::Add(const v1::Event& event) {
  if (event.has_game_created()) {
    created_ = event.game_created();
    return absl::OkStatus();
  }
  if (event.has_seat_value()) return AddSeatValue(event);
  if (event.has_deal_closed()) return AddDealClosed(event);
  if (event.has_dealer_revealed()) return AddReveal(event);
  if (event.has_action() && IsDealt(created_) && !deal_.closed) {
    return Bad(event, game_id_, "is an action before the deal was closed");
  }
  return absl::OkStatus();
}

absl::Status DealTracker::AddSeatValue(const v1::Event& event) {
  const v1::SeatValueAdded& added = event.seat_value();
  if (!IsDealt(created_)) return Bad(event, game_id_, "adds a seat value to a game that is not dealt");
  if (deal_.closed) return Bad(event, game_id_, "adds a seat value after the deal was closed");
  if (!HasSeat(created_, added.player())) {
    return Bad(event, game_id_,
               absl::StrCat("adds a seat value for \"", added.player(), "\", who has no seat"));
  }
  if (deal_.values.count(added.player()) > 0) {
    return Bad(event, game_id_,
               absl::StrCat("adds a second seat value for \"", added.player(), "\""));
  }
  if (absl::Status s = engine::CheckSeatValue(added.value()); !s.ok()) {
    return Bad(event, game_id_, absl::StrCat("holds a seat value that is not well-formed: ",
                                             s.message()));
  }
  deal_.values[added.player()] = added.value();
  return absl::OkStatus();
}

absl::Status DealTracker::AddDealClosed(const v1::Event& event) {
  if (!IsDealt(created_)) return Bad(event, game_id_, "closes the deal of a game that is not dealt");
  if (deal_.closed) return Bad(event, game_id_, "closes a deal already closed");
  const std::vector<std::string> absent = AwaitingSeatValues(created_, deal_);
  const auto& recorded = event.deal_closed().absent();
  if (!std::equal(absent.begin(), absent.end(), recorded.begin(), recorded.end())) {
    return Bad(event, game_id_,
               absl::StrCat("closes the deal naming as absent [", absl::StrJoin(recorded, ", "),
                            "], but the seats without a value are [", absl::StrJoin(absent, ", "),
                            "]"));
  }
  deal_.closed = true;
  return absl::OkStatus();
}

absl::Status DealTracker::AddReveal(const v1::Event& event) {
  if (!IsDealt(created_)) return Bad(event, game_id_, "reveals a dealer's secret in a game that is not dealt");
  if (deal_.revealed_secret.has_value()) return Bad(event, game_id_, "reveals the dealer's secret again");
  const std::string& secret = event.dealer_revealed().secret();
  if (!engine::CheckDealerSecret(secret).ok() ||
      engine::DealerCommitment(game_id_, secret) != created_.seed_commitment()) {
    return Bad(event, game_id_,
               "reveals a dealer's secret that does not open the commitment of event 1 "
               "(arbiter-dealer-commit-v1)");
  }
  deal_.revealed_secret = secret;
  return absl::OkStatus();
}

std::vector<std::string> AwaitingSeatValues(const v1::GameCreated& created, const Deal& deal) {
  std::vector<std::string> out;
  for (const v1::Player& player : created.header().players()) {
    if (deal.values.count(player.id()) == 0) out.push_back(player.id());
  }
  return out;
}

v1::DealClosed ClosingOf(const v1::GameCreated& created, const Deal& deal) {
  v1::DealClosed closed;
  for (const std::string& player : AwaitingSeatValues(created, deal)) closed.add_absent(player);
  return closed;
}

std::optional<uint64_t> DealtSeed(const std::string& game_id, const v1::GameCreated& created,
                                  const Deal& deal,
                                  const std::optional<std::string>& kept_secret) {
  if (!deal.closed) return std::nullopt;
  const std::optional<std::string>& secret =
      deal.revealed_secret.has_value() ? deal.revealed_secret : kept_secret;
  if (!secret.has_value()) return std::nullopt;
  std::vector<engine::SeatValue> values;
  for (const v1::Player& player : created.header().players()) {
    auto it = deal.values.find(player.id());
    values.push_back(engine::SeatValue{
        player.id(), it == deal.values.end() ? std::nullopt : std::optional<std::string>(it->second)});
  }
  return engine::DeriveDealtSeed(game_id, *secret, values);
}

void DescribeDeal(const v1::GameCreated& created, const Deal& deal, v1::Game& out) {
  if (!IsDealt(created)) return;
  out.set_deal(true);
  out.set_deal_closed(deal.closed);
  out.clear_awaiting_seat_values();
  if (deal.closed) return;
  for (const std::string& player : AwaitingSeatValues(created, deal)) {
    out.add_awaiting_seat_values(player);
  }
}

absl::StatusOr<Deal> DealOfOpening(const std::string& game_id,
                                   const std::vector<v1::Event>& opening) {
  DealTracker tracker(game_id);
  for (const v1::Event& event : opening) {
    if (event.has_action() || event.has_dealer_revealed()) break;
    if (absl::Status s = tracker.Add(event); !s.ok()) return s;
  }
  return tracker.deal();
}

absl::Status DealStillOpen(const std::string& game_id, const v1::GameCreated& created,
                           const Deal& deal) {
  return absl::FailedPreconditionError(absl::StrCat(
      "the deal of game \"", game_id, "\" is still open: waiting for a value from ",
      absl::StrJoin(AwaitingSeatValues(created, deal), ", "),
      " (each player adds one with `arbiter deal add ", game_id,
      " VALUE`; an organiser can close the deal without them: `arbiter deal close ", game_id,
      "`)"));
}

}  // namespace arbiter::games
