// The offline audit of one game (`arbiter audit`): checks an AuditBundle
// (transparency_service.proto) with no server and no database, against the
// log's verifier key only.
//
// It checks, each as a named finding:
//   signature   the checkpoint note is signed by the key and is of its log;
//   checkpoint  the bundle's copy of the checkpoint says what the note says;
//   chain       events 1..n are complete, each points at the hash of the one
//               before it, and each hash is that of its contents
//               (services/store/event_hash.h);
//   inclusion   the last event's hash is leaf `leaf_index` of the signed
//               tree (RFC 9162 verification of the proof);
//   replay      the log decodes and replays through the rules engine exactly
//               as the server's VerifyGame does (on an in-memory store
//               holding the bundle's events), and a recorded game_finished
//               event agrees with the verdict of the replay;
//   rulings     only for a log that cites a ruling (a corrected result, a
//               void by a ruling): the bundle carries each cited dispute's
//               record, in the same signed tree, and its ruling made
//               exactly that write (ruling_audit.h).
// A finding that cannot be checked because an earlier one failed is
// reported as failed with the reason. Pure (no I/O); thread-safe.
#ifndef ARBITER_SERVICES_TRANSPARENCY_BUNDLE_AUDIT_H_
#define ARBITER_SERVICES_TRANSPARENCY_BUNDLE_AUDIT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/arbiter_service.pb.h"
#include "arbiter/v1/transparency_service.pb.h"
#include "engine/core/ruleset_registry.h"
#include "services/transparency/note.h"

namespace arbiter::transparency {

inline constexpr char kBundleFormat[] = "arbiter-audit-bundle-v1";

struct AuditFinding {
  std::string check;  // "signature", "checkpoint", "chain", "inclusion", "replay", "rulings"
  bool holds = false;
  std::string detail;  // what was found, or what does not hold
};

struct AuditReport {
  std::vector<AuditFinding> findings;
  // Set when the replay ran: the referee's judgement.
  v1::Adjudication adjudication;
  bool holds() const {
    for (const AuditFinding& f : findings) {
      if (!f.holds) return false;
    }
    return !findings.empty();
  }
};

// Audits `bundle`. InvalidArgument only for a bundle that is not one at all
// (another format, no game, no events); everything else is a finding.
absl::StatusOr<AuditReport> AuditBundle(const v1::AuditBundle& bundle,
                                        const NoteVerifier& verifier,
                                        const engine::RulesetRegistry& registry);

// The finding "history": `now` (a later export of the same game) keeps
// every event of `earlier` (an export taken before, which must itself hold
// against `verifier`) unchanged, at the same numbers. An event edited,
// deleted, reordered or inserted in between, even with the chain
// recomputed, is named.
AuditFinding CompareWithEarlier(const v1::AuditBundle& earlier, const v1::AuditBundle& now,
                                const NoteVerifier& verifier,
                                const engine::RulesetRegistry& registry);

// The bundle's JSON text (the protobuf JSON mapping, indented), and back.
// InvalidArgument naming the problem for text that is not a bundle.
std::string BundleToJson(const v1::AuditBundle& bundle);
absl::StatusOr<v1::AuditBundle> BundleFromJson(const std::string& json);

}  // namespace arbiter::transparency

#endif  // ARBITER_SERVICES_TRANSPARENCY_BUNDLE_AUDIT_H_
