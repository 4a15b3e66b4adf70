// Dealt games: the server is the dealer, and nobody can choose the deal
// (docs/chance.md, "Dealt games", where the test vectors are).
//
// At creation the server draws a 32-byte secret and records only its
// commitment; before the first hidden draw every seat may add a value of its
// own; the engine seed is derived from the secret, the game id and every
// seat's value (or its absence), in seat order; at the end the server reveals
// the secret and anyone re-derives the deal. Every preimage is built from
// netstrings, ns(x) = decimal(byte length of x) + ":" + x + ",", so that no
// two different inputs share one:
//
//   commitment  = hex SHA-256 of "arbiter-dealer-commit-v1:" + ns(game_id) +
//                 ns(hex(server_secret))
//   engine seed = first 8 bytes, big-endian, of SHA-256 of
//                 "arbiter-dealer-seed-v1:" + ns(game_id) +
//                 ns(hex(server_secret)) + for each seat in seat order:
//                 ns(player_id) + ("-" if the seat added nothing,
//                                  else "+" + ns(value))
//
// A tournament's drawn lot (docs/tournaments.md, "The drawn lot") uses the
// same construction, one secret per round: the server commits before anyone
// registers for the round and reveals when it starts, and the seed is bound
// to the players the round draws for (those it pairs first):
//
//   lot commitment = hex SHA-256 of "arbiter-lot-commit-v1:" +
//                    ns(tournament_id) + ns(hex(server_secret))
//   lot seed       = first 8 bytes, big-endian, of SHA-256 of
//                    "arbiter-lot-seed-v1:" + ns(tournament_id) +
//                    ns(hex(server_secret)) + ns(player_id) for each player
//                    in registration order
//
// The functions here derive from whatever they are given; the service checks
// its inputs first with CheckDealerSecret and CheckSeatValue. Pure functions;
// thread-safe.
#ifndef ARBITER_ENGINE_CORE_DEALER_SEED_H_
#define ARBITER_ENGINE_CORE_DEALER_SEED_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"

namespace arbiter::engine {

// Bytes of the secret the server draws for each dealt game.
inline constexpr int kDealerSecretBytes = 32;
// A seat value is 1 to this many bytes of UTF-8 text.
inline constexpr int kMaxSeatValueBytes = 64;

// One seat's part in the deal, in seat order.
struct SeatValue {
  std::string player_id;
  // The bytes the seat added; nullopt if it added nothing (not the same as an
  // empty value, which CheckSeatValue refuses but the encoding still tells
  // apart).
  std::optional<std::string> value;
};

// The commitment to the server's secret for one game, 64 lowercase hex
// digits. A commitment made for one game id does not open for another.
std::string DealerCommitment(const std::string& game_id,
                             std::string_view server_secret);

// The engine seed of a dealt game: every shuffle and roll follows from it.
uint64_t DeriveDealtSeed(const std::string& game_id,
                         std::string_view server_secret,
                         const std::vector<SeatValue>& seat_values);

// The commitment to a tournament's lot secret, 64 lowercase hex digits.
std::string LotCommitment(const std::string& tournament_id, std::string_view server_secret);

// The seed of one round's drawn lot (round 1's order, and the lot numbers of
// the players first paired in the round) from its secret and those players.
uint64_t DeriveLotSeed(const std::string& tournament_id, std::string_view server_secret,
                       const std::vector<std::string>& players);

// OK if `server_secret` is exactly kDealerSecretBytes bytes; otherwise
// InvalidArgument naming `server_secret` and the size found.
absl::Status CheckDealerSecret(std::string_view server_secret);

// OK if `value` is 1 to kMaxSeatValueBytes bytes of valid UTF-8 (shortest
// form, no surrogates) without control characters (U+0000-U+001F,
// U+007F-U+009F); otherwise InvalidArgument naming `seat_value` and saying
// what is wrong and at which byte.
absl::Status CheckSeatValue(std::string_view value);

}  // namespace arbiter::engine

#endif  // ARBITER_ENGINE_CORE_DEALER_SEED_H_
