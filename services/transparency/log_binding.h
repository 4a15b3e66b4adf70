// The binding of a database's transparency log to one signing identity, and
// the decision every arbiterd takes at start (docs/replication.md,
// "Misconfiguration is refused at start").
//
// Several arbiterd share one database and build one tree under one lease,
// so they must sign its checkpoints under one identity: one Ed25519 key
// (--transparency-key) and one origin (--log-origin, the key's name). The
// database keeps the identity its log is bound to (one row, migration 0024,
// store::pg::LogBindingTable); a server whose own differs is refused before
// it writes anything. The decision is a pure function of what the database
// holds (the binding, the latest checkpoint) and what the server has (its
// key, or none yet):
//
//   binding  latest checkpoint           server's key         decision
//   none     none                        any, or none yet     claim (create the key first)
//   none     verifies with server's key  the signer           claim
//   none     does not verify, or no key  -                    refused: signed by another key
//   bound    does not verify with it     -                    refused: the binding was rewritten
//   bound    verifies (or none)          none                 refused: this server has no key
//   bound    verifies (or none)          another              refused: names what differs
//   bound    verifies (or none)          the same             start
//
// Every refusal is FailedPrecondition with one paragraph: the identity the
// log is bound to, the server's, which of origin and key differ, the flags
// that fix it, and "nothing was written". Pure functions; thread-safe.
#ifndef ARBITER_SERVICES_TRANSPARENCY_LOG_BINDING_H_
#define ARBITER_SERVICES_TRANSPARENCY_LOG_BINDING_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "services/transparency/note.h"

namespace arbiter::transparency {

// Who signs a log's checkpoints.
struct LogIdentity {
  std::string origin;      // the log's name and the key's
  std::string public_key;  // the 32 bytes of the Ed25519 public key

  bool operator==(const LogIdentity& other) const {
    return origin == other.origin && public_key == other.public_key;
  }
};

// The identity `signer` signs under.
LogIdentity IdentityOf(const NoteSigner& signer);

// Its verifier key line (note.h), as transparency.pub holds it.
std::string VerifierKeyOf(const LogIdentity& identity);

// What the database holds and what the server has, at start.
struct BindingFacts {
  std::optional<LogIdentity> bound;  // the binding row, if any
  std::string bound_by;              // its bound_by column
  std::optional<std::string> latest_note;  // the latest checkpoint's signed note
  uint64_t latest_size = 0;                // and its tree size
  std::optional<LogIdentity> server;  // none: no key file yet
  std::string key_path;               // where the server's key is (or would be)
};

enum class BindingStep {
  kBound,  // the log is bound to this server's identity: start
  kClaim,  // no binding: claim it with this server's identity (made first if it has no key)
};

// The decision of the table above. FailedPrecondition for each refusal.
absl::StatusOr<BindingStep> DecideBinding(const BindingFacts& facts);

// After a claim: OK if `stored` (the binding as stored after the claim) is
// `server`; otherwise the refusal of DecideBinding for a server that lost
// the claim to another started at the same moment.
absl::Status CheckClaimed(const LogIdentity& stored, const std::string& bound_by,
                          const LogIdentity& server, const std::string& key_path);

}  // namespace arbiter::transparency

#endif  // ARBITER_SERVICES_TRANSPARENCY_LOG_BINDING_H_
