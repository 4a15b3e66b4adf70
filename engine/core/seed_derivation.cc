#include "engine/core/seed_derivation.h"

#include "absl/strings/str_cat.h"
#include "engine/core/sha256.h"

namespace arbiter::engine {

std::string HexOf(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * bytes.size());
  for (char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    hex.push_back(kHex[byte >> 4]);
    hex.push_back(kHex[byte & 0xf]);
  }
  return hex;
}

std::string SealedSeedCommitment(const std::string& game_id, uint64_t seed,
                                 const std::string& nonce) {
  return Sha256Hex(absl::StrCat("arbiter-seed-v2:", game_id, ":", seed, ":", nonce));
}

uint64_t DeriveSealedSeed(const std::string& game_id, uint64_t organiser_seed,
                          std::string_view server_random) {
  const std::string digest = Sha256Hex(
      absl::StrCat("arbiter-derive-v1:", game_id, ":", organiser_seed, ":", HexOf(server_random)));
  uint64_t seed = 0;
  for (int i = 0; i < 16; ++i) {
    const char c = digest[static_cast<std::size_t>(i)];
    const uint64_t nibble =
        c <= '9' ? static_cast<uint64_t>(c - '0') : static_cast<uint64_t>(c - 'a' + 10);
    seed = (seed << 4) | nibble;
  }
  return seed;
}

}  // namespace arbiter::engine
