// Rules shared by every EventStore implementation, so that the in-memory
// store and the PostgreSQL store validate, hash and answer identically.
// Pure functions; thread-safe.
#ifndef ARBITER_SERVICES_STORE_INTERNAL_STORE_RULES_H_
#define ARBITER_SERVICES_STORE_INTERNAL_STORE_RULES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "services/store/event_hash.h"
#include "services/store/event_store.h"

namespace arbiter::store::internal {

// InvalidArgument naming `field` unless `value` is 1..kMaxIdBytes bytes
// without control characters.
absl::Status CheckId(const std::string& field, const std::string& value);

// InvalidArgument naming the first bad field, or OK.
absl::Status ValidateCreateGame(const CreateGameRequest& request);
absl::Status ValidateAppend(const AppendRequest& request);
// The most events and payload-plus-JSON bytes one batch may hold.
struct BatchLimits {
  int max_events = kMaxEventsPerAppend;
  int64_t max_bytes = kMaxAppendBytes;
};
inline constexpr BatchLimits kAppendLimits{kMaxEventsPerAppend, kMaxAppendBytes};
inline constexpr BatchLimits kCreateLimits{kMaxEventsPerCreate, kMaxCreateBytes};

// ValidateAppend's checks of a batch given by its parts.
absl::Status ValidateBatch(const std::string& request_id, const std::string& game_id,
                           const std::string& recorded_by, int64_t expected_sequence,
                           const std::vector<NewEvent>& events, BatchLimits limits = kAppendLimits);
absl::Status ValidateLimit(int limit);

// True for kGameFinishedType and kGameVoidedType.
bool IsStatusEventType(const std::string& type);
// The status a game in `current` has after `events` are appended.
GameStatus StatusAfterBatch(GameStatus current, const std::vector<NewEvent>& events);
// FailedPrecondition (GameNotActive) unless a game in its status accepts
// `events`: an active game accepts any batch, a finished game only one
// kGameVoidedType event, a voided game nothing.
absl::Status CheckAppendAllowed(const GameRecord& game, const std::vector<NewEvent>& events);

// The batch of a game created with events, as an append at sequence 0 under
// the create request's id, recorded by the game's creator.
AppendRequest FirstBatch(const CreateGameRequest& request);

// Digests of what a request asks for, to tell a retry (same digest) from a
// request id reused for something else.
std::string CreateDigest(const CreateGameRequest& request);
std::string AppendDigest(const AppendRequest& request);

// Errors with the store's exact wording.
absl::Status GameNotFound(const std::string& game_id);
// AlreadyExists (reason DUPLICATE_GAME) for a played game stored as `game_id`.
absl::Status SamePlayedGame(const std::string& game_id);
absl::Status SequenceMismatch(const std::string& game_id, int64_t expected, int64_t current);
absl::Status GameNotActive(const GameRecord& game);
absl::Status RequestIdReused(const std::string& request_id);
// Unavailable: a creation whose commit was cut off, and not found (or not
// looked up: `why`) since.
absl::Status CreationOutcomeUnknown(const std::string& request_id, absl::string_view why);
// Unavailable: an append whose commit was cut off and which, looked up again
// after reconnecting, was found not stored (`how`: what the look-up found).
absl::Status AppendNotStored(const std::string& request_id, absl::string_view how);
// Unavailable: an append whose commit was cut off and which could not be
// looked up again (`why`).
absl::Status AppendOutcomeUnknown(const std::string& request_id, absl::string_view why);
absl::Status EventIdTaken(const std::string& event_id, const StoredEvent& existing,
                          const NewEvent& offered);

// The hashes of `events` appended after `prev_hash` at sequence
// first_sequence, first_sequence + 1, ...
std::vector<std::string> ChainHashes(const std::string& game_id, const std::string& prev_hash,
                                     int64_t first_sequence, const std::vector<NewEvent>& events);

// Checks a game's events, given in sequence order a batch at a time, against
// the chain and then the game's recorded last_sequence and last_hash: what
// VerifyGame does without holding the whole game.
class ChainCheck {
 public:
  explicit ChainCheck(const GameRecord& game) : game_(game) {}
  // DataLoss naming the first bad event of `events`.
  absl::Status Add(const std::vector<StoredEvent>& events);
  // After the last batch: DataLoss if the recorded head disagrees.
  absl::StatusOr<VerifyReport> Finish() const;

 private:
  const GameRecord& game_;
  std::string prev_ = GenesisHash();
  int64_t expected_sequence_ = 1;
};

// ChainCheck of all of a game's events at once.
absl::StatusOr<VerifyReport> VerifyChain(const GameRecord& game,
                                         const std::vector<StoredEvent>& events);

// Page tokens: the last game id of the previous page, hex-encoded.
std::string EncodePageToken(const std::string& last_game_id);
absl::StatusOr<std::string> DecodePageToken(const std::string& token);
absl::StatusOr<int> NormalisePageSize(int page_size);

}  // namespace arbiter::store::internal

#endif  // ARBITER_SERVICES_STORE_INTERNAL_STORE_RULES_H_
