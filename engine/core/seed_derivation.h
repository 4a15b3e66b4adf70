// Sealed seeds: the commitment that binds an organiser's seed to one game,
// and the engine seed derived from it and the server's random bytes
// (docs/chance.md, "Sealed games", where the test vectors are).
//
//   commitment  = hex SHA-256 of "arbiter-seed-v2:" + game_id + ":" +
//                 decimal(seed) + ":" + nonce
//   engine seed = first 8 bytes, big-endian, of SHA-256 of
//                 "arbiter-derive-v1:" + game_id + ":" + decimal(seed) + ":" +
//                 hex(server_random)
// Neither the organiser (who commits before the server draws) nor the server
// (which never sees the seed before the reveal) can choose the engine seed.
// Pure functions; thread-safe.
#ifndef ARBITER_ENGINE_CORE_SEED_DERIVATION_H_
#define ARBITER_ENGINE_CORE_SEED_DERIVATION_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace arbiter::engine {

// Bytes the server draws for each sealed game.
inline constexpr int kServerRandomBytes = 32;

// The v2 (game-bound) commitment to (seed, nonce), 64 lowercase hex digits.
// The caller checks the nonce's form.
std::string SealedSeedCommitment(const std::string& game_id, uint64_t seed,
                                 const std::string& nonce);

// The engine seed of a sealed game.
uint64_t DeriveSealedSeed(const std::string& game_id, uint64_t organiser_seed,
                          std::string_view server_random);

// Lowercase hex of arbitrary bytes.
std::string HexOf(std::string_view bytes);

}  // namespace arbiter::engine

#endif  // ARBITER_ENGINE_CORE_SEED_DERIVATION_H_
