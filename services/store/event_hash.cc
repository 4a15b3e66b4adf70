#include "services/store/event_hash.h"

#include "absl/strings/str_cat.h"
#include "engine/core/sha256.h"

namespace arbiter::store {
namespace {

void PutBigEndian(std::string& out, uint64_t value, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) {
    out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
  }
}

void PutString32(std::string& out, const std::string& text) {
  PutBigEndian(out, text.size(), 4);
  out += text;
}

}  // namespace

const std::string& GenesisHash() {
  static const std::string* const kGenesis = new std::string(64, '0');
  return *kGenesis;
}

std::string EventHashInput(const std::string& prev_hash, int64_t sequence,
                           const std::string& game_id, const std::string& event_id,
                           const std::string& type, const std::string& payload) {
  static constexpr char kTag[] = "arbiter-event-v1";  // followed by its 0x00
  std::string out;
  out.reserve(sizeof(kTag) + prev_hash.size() + 8 + 12 + game_id.size() + event_id.size() +
              type.size() + 8 + payload.size());
  out.append(kTag, sizeof(kTag));
  out += prev_hash;
  PutBigEndian(out, static_cast<uint64_t>(sequence), 8);
  PutString32(out, game_id);
  PutString32(out, event_id);
  PutString32(out, type);
  PutBigEndian(out, payload.size(), 8);
  out += payload;
  return out;
}

std::string EventHash(const std::string& prev_hash, int64_t sequence, const std::string& game_id,
                      const std::string& event_id, const std::string& type,
                      const std::string& payload) {
  return engine::Sha256Hex(EventHashInput(prev_hash, sequence, game_id, event_id, type, payload));
}

std::string DerivedEventId(const std::string& game_id, int64_t sequence) {
  // A game's events are derived one after another: hash its id once.
  thread_local std::string last_game_id;
  thread_local std::string prefix;
  if (prefix.empty() || game_id != last_game_id) {
    prefix = engine::Sha256Hex(game_id).substr(0, 32);
    last_game_id = game_id;
  }
  return absl::StrCat(prefix, "-", sequence);
}

bool HasDerivedEventIdForm(const std::string& event_id) {
  constexpr std::size_t kPrefix = 32;
  if (event_id.size() < kPrefix + 2 || event_id[kPrefix] != '-') return false;
  for (std::size_t i = 0; i < kPrefix; ++i) {
    const char c = event_id[i];
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  if (event_id[kPrefix + 1] == '0') return false;
  for (std::size_t i = kPrefix + 1; i < event_id.size(); ++i) {
    if (event_id[i] < '0' || event_id[i] > '9') return false;
  }
  return true;
}

}  // namespace arbiter::store
