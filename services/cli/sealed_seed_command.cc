// `arbiter sealed-seed --game ID`: a fresh seed and nonce for a sealed game
// and the commitment to them (docs/chance.md, "Sealed games"), so that an
// organiser needs nothing but this program to create one. --seed and
// --nonce recompute the commitment of given values instead.
#include <openssl/rand.h>

#include <cstdint>
#include <iostream>
#include <memory>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "engine/core/seed_derivation.h"
#include "services/common/resource_names.h"
#include "services/cli/commands.h"
#include "services/games/game_events.h"

namespace arbiter::cli {
namespace {

struct SealedSeedArgs {
  std::string game_id;
  std::string seed;   // empty: draw one
  std::string nonce;  // empty: draw one
};

absl::StatusOr<std::string> RandomBytes(int count) {
  std::string bytes(static_cast<std::size_t>(count), '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(bytes.data()), count) != 1) {
    return absl::InternalError("OpenSSL could not draw random bytes");
  }
  return bytes;
}

int RunSealedSeed(const SealedSeedArgs& args) {
  if (!common::IsValidId(common::IdKind::kGame, args.game_id)) {
    return ReportError(absl::InvalidArgumentError(
        "--game must be 1-63 characters of A-Z a-z 0-9 _ . - (the id the game will be created under)"));
  }
  uint64_t seed = 0;
  if (args.seed.empty()) {
    absl::StatusOr<std::string> bytes = RandomBytes(8);
    if (!bytes.ok()) return ReportError(bytes.status());
    for (char c : *bytes) seed = (seed << 8) | static_cast<unsigned char>(c);
  } else if (!absl::SimpleAtoi(args.seed, &seed)) {
    return ReportError(absl::InvalidArgumentError(
        absl::StrCat("--seed must be an unsigned 64-bit decimal number, not \"", args.seed, "\"")));
  }
  std::string nonce = args.nonce;
  if (nonce.empty()) {
    absl::StatusOr<std::string> bytes = RandomBytes(32);
    if (!bytes.ok()) return ReportError(bytes.status());
    nonce = engine::HexOf(*bytes);
  }
  // Checks the nonce's form (the same rule for both formats).
  if (absl::Status s = games::SeedCommitment(seed, nonce).status(); !s.ok()) {
    return ReportError(absl::InvalidArgumentError(absl::StrCat("--nonce: ", s.message())));
  }
  std::cout << "game_id: " << args.game_id << "\n"
            << "seed: " << seed << "\n"
            << "nonce: " << nonce << "\n"
            << "seed_commitment: " << engine::SealedSeedCommitment(args.game_id, seed, nonce)
            << "\n"
            << "Create the game with this game_id and seed_commitment, keep the seed and nonce\n"
               "secret, and reveal them (RevealSeed) before the game's reveal_deadline. The\n"
               "engine's seed is derived from this seed, the server's random bytes in event 1\n"
               "and the game id (docs/chance.md).\n";
  return kExitOk;
}

}  // namespace

void AddSealedSeedCommand(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<SealedSeedArgs>();
  CLI::App* cmd = app.add_subcommand(
      "sealed-seed",
      "Print a random seed, nonce and the commitment for a sealed game (bound to its game id)");
  cmd->add_option("--game", args->game_id, "The game id the commitment is for")->required();
  cmd->add_option("--seed", args->seed, "Use this seed instead of a random one");
  cmd->add_option("--nonce", args->nonce, "Use this nonce (32-128 lowercase hex digits)");
  cmd->callback([args, &exit_code] { exit_code = RunSealedSeed(*args); });
}

}  // namespace arbiter::cli
