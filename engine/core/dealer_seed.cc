#include "engine/core/dealer_seed.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/core/seed_derivation.h"
#include "engine/core/sha256.h"

namespace arbiter::engine {
namespace {

// A netstring: decimal byte length, ":", the bytes, ",".
void AppendNetstring(std::string_view bytes, std::string& out) {
  absl::StrAppend(&out, bytes.size(), ":");
  out.append(bytes);
  out.push_back(',');
}

// The hex SHA-256 of `tag` + ns(id) + ns(hex(secret)): a commitment to a
// secret bound to one game or tournament.
std::string CommitmentTo(std::string_view tag, const std::string& id, std::string_view secret) {
  std::string preimage(tag);
  AppendNetstring(id, preimage);
  AppendNetstring(HexOf(secret), preimage);
  return Sha256Hex(preimage);
}

// The first 16 hex digits (8 bytes) of a digest, big-endian.
uint64_t LeadingU64(const std::string& hex_digest) {
  uint64_t seed = 0;
  for (std::size_t i = 0; i < 16; ++i) {
    const char c = hex_digest[i];
    const uint64_t nibble =
        c <= '9' ? static_cast<uint64_t>(c - '0') : static_cast<uint64_t>(c - 'a' + 10);
    seed = (seed << 4) | nibble;
  }
  return seed;
}

// The code point of the UTF-8 sequence at `value[pos]` and its length in
// bytes, or a length of 0 if the bytes there are not valid, shortest-form
// UTF-8 of a scalar value (no surrogates, nothing above U+10FFFF).
struct Decoded {
  uint32_t code_point = 0;
  std::size_t length = 0;
};

Decoded DecodeUtf8(std::string_view value, std::size_t pos) {
  const auto lead = static_cast<unsigned char>(value[pos]);
  if (lead < 0x80) return {lead, 1};
  // The lead byte gives the length, its payload bits and the smallest code
  // point that needs that many bytes (anything below is an overlong form).
  std::size_t length = 0;
  uint32_t smallest = 0;
  if ((lead & 0xe0) == 0xc0) {
    length = 2;
    smallest = 0x80;
  } else if ((lead & 0xf0) == 0xe0) {
    length = 3;
    smallest = 0x800;
  } else if ((lead & 0xf8) == 0xf0) {
    length = 4;
    smallest = 0x10000;
  } else {
    return {};
  }
  uint32_t code_point = lead & (0x7fu >> length);
  if (pos + length > value.size()) return {};
  for (std::size_t i = 1; i < length; ++i) {
    const auto next = static_cast<unsigned char>(value[pos + i]);
    if ((next & 0xc0) != 0x80) return {};
    code_point = (code_point << 6) | (next & 0x3fu);
  }
  if (code_point < smallest || code_point > 0x10ffff) return {};
  if (code_point >= 0xd800 && code_point <= 0xdfff) return {};
  return {code_point, length};
}

bool IsControl(uint32_t code_point) {
  return code_point < 0x20 || (code_point >= 0x7f && code_point <= 0x9f);
}

}  // namespace

std::string DealerCommitment(const std::string& game_id, std::string_view server_secret) {
  return CommitmentTo("arbiter-dealer-commit-v1:", game_id, server_secret);
}

uint64_t DeriveDealtSeed(const std::string& game_id, std::string_view server_secret,
                         const std::vector<SeatValue>& seat_values) {
  std::string preimage = "arbiter-dealer-seed-v1:";
  AppendNetstring(game_id, preimage);
  AppendNetstring(HexOf(server_secret), preimage);
  for (const SeatValue& seat : seat_values) {
    AppendNetstring(seat.player_id, preimage);
    if (!seat.value.has_value()) {
      preimage.push_back('-');
      continue;
    }
    preimage.push_back('+');
    AppendNetstring(*seat.value, preimage);
  }
  return LeadingU64(Sha256Hex(preimage));
}

std::string LotCommitment(const std::string& tournament_id, std::string_view server_secret) {
  return CommitmentTo("arbiter-lot-commit-v1:", tournament_id, server_secret);
}

uint64_t DeriveLotSeed(const std::string& tournament_id, std::string_view server_secret,
                       const std::vector<std::string>& players) {
  std::string preimage = "arbiter-lot-seed-v1:";
  AppendNetstring(tournament_id, preimage);
  AppendNetstring(HexOf(server_secret), preimage);
  for (const std::string& player : players) AppendNetstring(player, preimage);
  return LeadingU64(Sha256Hex(preimage));
}

absl::Status CheckDealerSecret(std::string_view server_secret) {
  if (server_secret.size() == static_cast<std::size_t>(kDealerSecretBytes)) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("server_secret: ", server_secret.size(),
                                                 " bytes; must be exactly ", kDealerSecretBytes));
}

absl::Status CheckSeatValue(std::string_view value) {
  if (value.empty()) {
    return absl::InvalidArgumentError(
        "seat_value: empty; a seat that adds nothing sends no value at all");
  }
  if (value.size() > static_cast<std::size_t>(kMaxSeatValueBytes)) {
    return absl::InvalidArgumentError(absl::StrCat("seat_value: ", value.size(),
                                                   " bytes; at most ", kMaxSeatValueBytes));
  }
  for (std::size_t pos = 0; pos < value.size();) {
    const Decoded decoded = DecodeUtf8(value, pos);
    if (decoded.length == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("seat_value: not valid UTF-8 at byte ", pos));
    }
    if (IsControl(decoded.code_point)) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "seat_value: control character U+%04X at byte %d", decoded.code_point, pos));
    }
    pos += decoded.length;
  }
  return absl::OkStatus();
}

}  // namespace arbiter::engine
