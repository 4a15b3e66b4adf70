// The hash chain of a game's events: exactly which bytes are hashed.
//
// Grammar of the hashed bytes (stored: never renumber, never reorder; a new
// layout would need a new tag and a migration of nothing, since old events
// keep their old hashes):
//
//   hashed   = tag prev_hash sequence game_id event_id type payload
//   tag      = "arbiter-event-v1" 0x00                  (17 bytes)
//   prev_hash= 64 lowercase ASCII hex digits; 64 '0' for sequence 1
//   sequence = u64 big-endian
//   game_id  = u32 big-endian length, then the bytes
//   event_id = u32 big-endian length, then the bytes
//   type     = u32 big-endian length, then the bytes
//   payload  = u64 big-endian length, then the exact stored payload bytes
//
//   hash     = SHA-256(hashed) as 64 lowercase hex digits
//
// The readable JSON copy, recorded_by and recorded_at are not hashed: they
// are conveniences, the payload bytes are the record.
#ifndef ARBITER_SERVICES_STORE_EVENT_HASH_H_
#define ARBITER_SERVICES_STORE_EVENT_HASH_H_

#include <cstdint>
#include <string>

namespace arbiter::store {

// 64 '0' characters: the prev_hash of a game's first event.
const std::string& GenesisHash();

// The bytes defined above (exposed for tests and other implementations).
std::string EventHashInput(const std::string& prev_hash, int64_t sequence,
                           const std::string& game_id, const std::string& event_id,
                           const std::string& type, const std::string& payload);

// SHA-256 hex of EventHashInput(...).
std::string EventHash(const std::string& prev_hash, int64_t sequence, const std::string& game_id,
                      const std::string& event_id, const std::string& type,
                      const std::string& payload);

// The id the service gives event `sequence` of `game_id`: the first 32 hex
// digits of SHA-256(game id), '-', the sequence in decimal. The PostgreSQL
// store keeps such an id as NULL and derives it again when it reads the
// event (docs/event-store.md, "What each stored byte is for").
std::string DerivedEventId(const std::string& game_id, int64_t sequence);

// True if `event_id` has the form of a derived id (32 lowercase hex digits,
// '-', a decimal number without leading zeros), whatever its game.
bool HasDerivedEventIdForm(const std::string& event_id);

}  // namespace arbiter::store

#endif  // ARBITER_SERVICES_STORE_EVENT_HASH_H_
