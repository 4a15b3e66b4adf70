#include "services/transparency/log_binding.h"

#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "services/transparency/checkpoint.h"

namespace arbiter::transparency {
namespace {

constexpr char kNothingWritten[] = "nothing was written";

// "origin "O" and key K (verifier key V)": an identity as an operator finds
// it in transparency.pub.
std::string Describe(const LogIdentity& identity) {
  return absl::StrCat("origin \"", identity.origin, "\" and key ",
                      absl::Base64Escape(std::string(1, '\x01') + identity.public_key),
                      " (verifier key ", VerifierKeyOf(identity), ")");
}

std::string BoundTo(const BindingFacts& facts) {
  return absl::StrCat("this database's transparency log is bound to ", Describe(*facts.bound),
                      " (transparency_log_binding, written by ", facts.bound_by, ")");
}

// Who signed `note`, from its signature lines (not verified): "key "N" with
// key id I", or what is wrong with them.
std::string SignersOf(const std::string& note) {
  const std::size_t split = note.find("\n\n");
  if (split == std::string::npos) return "a note without signatures";
  std::vector<std::string> signers;
  for (absl::string_view line : absl::StrSplit(note.substr(split + 2), '\n', absl::SkipEmpty())) {
    if (!absl::ConsumePrefix(&line, "\xE2\x80\x94 ")) continue;
    const std::size_t space = line.rfind(' ');
    std::string blob;
    if (space == absl::string_view::npos ||
        !absl::Base64Unescape(line.substr(space + 1), &blob) || blob.size() < 4) {
      continue;
    }
    signers.push_back(absl::StrCat("key \"", line.substr(0, space), "\" with key id ",
                                   absl::BytesToHexString(blob.substr(0, 4))));
  }
  if (signers.empty()) return "no signature line that can be read";
  return absl::StrJoin(signers, " and ");
}

// OK if `identity` verifies the note of the latest checkpoint.
absl::Status Verifies(const LogIdentity& identity, const std::string& note) {
  absl::StatusOr<NoteVerifier> verifier = NoteVerifier::Parse(VerifierKeyOf(identity));
  if (!verifier.ok()) return verifier.status();
  return OpenCheckpoint(*verifier, note).status();
}

absl::Status Refused(absl::string_view what) {
  return absl::FailedPreconditionError(absl::StrCat(what, "; ", kNothingWritten));
}

// Which of the two differ, in words.
std::string WhatDiffers(const LogIdentity& bound, const LogIdentity& server) {
  const bool origin = bound.origin != server.origin;
  const bool key = bound.public_key != server.public_key;
  if (origin && key) return "both the origin and the key differ";
  return origin ? "the origins differ (the key is the same)" : "the keys differ (the origin is the same)";
}

absl::Status Mismatch(const std::string& bound_to, const LogIdentity& bound,
                      const LogIdentity& server, const std::string& key_path) {
  return Refused(absl::StrCat(
      bound_to, ", but this server (--log-origin, and the key in ", key_path, ") has ",
      Describe(server), ": ", WhatDiffers(bound, server),
      ". Every arbiterd on one database signs the same log: give this server the same key file "
      "as the others (--transparency-key, a copy of the key of the server that bound the log) "
      "and --log-origin \"",
      bound.origin, "\""));
}

// The log has checkpoints from before migration 0024 and no binding.
absl::StatusOr<BindingStep> DecideUnbound(const BindingFacts& facts) {
  const std::string signed_by =
      absl::StrCat("this database's transparency log has signed checkpoints but is not bound to "
                   "a key yet (it predates migration 0024); its latest checkpoint (tree size ",
                   facts.latest_size, ") is signed by ", SignersOf(*facts.latest_note));
  if (!facts.server.has_value()) {
    return Refused(absl::StrCat(
        signed_by, ", and this server has no key at ", facts.key_path,
        " (--transparency-key): give it the key that signed them, and the origin they name "
        "(--log-origin); no key was created"));
  }
  if (absl::Status s = Verifies(*facts.server, *facts.latest_note); !s.ok()) {
    return Refused(absl::StrCat(
        signed_by, ", which this server (--log-origin, and the key in ", facts.key_path,
        ") with ", Describe(*facts.server), " does not verify (", s.message(),
        "). Give this server the key file and --log-origin of the server that signed them; the "
        "log is bound to them at its start"));
  }
  return BindingStep::kClaim;
}

}  // namespace

LogIdentity IdentityOf(const NoteSigner& signer) {
  absl::StatusOr<NoteVerifier> verifier = NoteVerifier::Parse(signer.VerifierKey());
  // A signer's own verifier key always parses.
  return LogIdentity{signer.name(), verifier.ok() ? verifier->public_key() : std::string()};
}

std::string VerifierKeyOf(const LogIdentity& identity) {
  return absl::StrCat(identity.origin, "+",
                      absl::BytesToHexString(NoteKeyId(identity.origin, identity.public_key)), "+",
                      absl::Base64Escape(std::string(1, '\x01') + identity.public_key));
}

absl::StatusOr<BindingStep> DecideBinding(const BindingFacts& facts) {
  if (!facts.bound.has_value()) {
    if (!facts.latest_note.has_value()) return BindingStep::kClaim;
    return DecideUnbound(facts);
  }
  const std::string bound_to = BoundTo(facts);
  if (facts.latest_note.has_value()) {
    if (absl::Status s = Verifies(*facts.bound, *facts.latest_note); !s.ok()) {
      return Refused(absl::StrCat(
          bound_to, ", but the log's latest checkpoint (tree size ", facts.latest_size,
          ", signed by ", SignersOf(*facts.latest_note), ") does not verify with that key (",
          s.message(),
          "): the binding row (or the checkpoints) was changed by someone who can write the "
          "database. This server does not sign under a binding that its own log contradicts: "
          "find out who changed it, and restore the row that names the key which signed the "
          "checkpoints"));
    }
  }
  if (!facts.server.has_value()) {
    return Refused(absl::StrCat(
        bound_to, ", and this server has no key at ", facts.key_path,
        " (--transparency-key): give it a copy of the key file of the server that bound the log, "
        "and --log-origin \"",
        facts.bound->origin, "\"; no key was created"));
  }
  if (!(*facts.bound == *facts.server)) {
    return Mismatch(bound_to, *facts.bound, *facts.server, facts.key_path);
  }
  return BindingStep::kBound;
}

absl::Status CheckClaimed(const LogIdentity& stored, const std::string& bound_by,
                          const LogIdentity& server, const std::string& key_path) {
  if (stored == server) return absl::OkStatus();
  BindingFacts facts;
  facts.bound = stored;
  facts.bound_by = bound_by;
  return Mismatch(BoundTo(facts), stored, server, key_path);
}

}  // namespace arbiter::transparency
