// Checkpoints of the transparency log: the text arbiterd signs (note.h), in
// the manner of C2SP tlog-checkpoint, one field per line:
//
//   <origin>                         the log's name, e.g. "arbiter.example/log"
//   <tree size>                      decimal, no leading zeros
//   <root hash>                      base64 (standard, padded) of 32 bytes
//   "time " <UTC time>               e.g. "time 2026-11-23T08:00:00Z"
//
// each ending in "\n". The origin is the signing key's name. Stored (in
// transparency_checkpoints and audit bundles): never change.
// Pure functions; thread-safe.
#ifndef ARBITER_SERVICES_TRANSPARENCY_CHECKPOINT_H_
#define ARBITER_SERVICES_TRANSPARENCY_CHECKPOINT_H_

#include <cstdint>
#include <string>
#include "absl/strings/string_view.h"

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "engine/merkle/merkle.h"
#include "services/transparency/note.h"

namespace arbiter::transparency {

struct Checkpoint {
  std::string origin;
  uint64_t size = 0;
  engine::merkle::Hash root{};
  absl::Time time;  // whole seconds
};

// The text of a checkpoint (to be signed).
std::string CheckpointText(const Checkpoint& checkpoint);

// Parses the text of a checkpoint. InvalidArgument naming the line that is
// wrong.
absl::StatusOr<Checkpoint> ParseCheckpointText(absl::string_view text);

// Verifies the note's signature by `verifier`, parses its text and checks
// that its origin is the key's name. PermissionDenied for a bad or missing
// signature or another origin; InvalidArgument for a malformed note.
absl::StatusOr<Checkpoint> OpenCheckpoint(const NoteVerifier& verifier, absl::string_view note);

}  // namespace arbiter::transparency

#endif  // ARBITER_SERVICES_TRANSPARENCY_CHECKPOINT_H_
