// Signed notes: a text signed with Ed25519 (OpenSSL EVP), in the manner of
// C2SP signed-note. A note is its text (ending in a newline), a blank line,
// and one signature line per signer:
//
//   <text ending in "\n">
//   "\n"
//   "— " <key name> " " base64(key id (4 bytes) || Ed25519 signature (64 bytes)) "\n"
//
// The signature is over the text exactly (every byte before the blank line,
// its last newline included). The key id is the first 4 bytes of
// SHA-256(key name || "\n" || 0x01 || public key (32 bytes)); 0x01 names the
// Ed25519 algorithm. A verifier key is written as one line of text:
//
//   <key name> "+" <key id, 8 hex digits> "+" base64(0x01 || public key)
//
// Key names are 1-200 printable ASCII characters without spaces or "+".
// Stored (in transparency_checkpoints and in audit bundles): never change.
// Thread-safe (a signer's key is never modified after construction).
#ifndef ARBITER_SERVICES_TRANSPARENCY_NOTE_H_
#define ARBITER_SERVICES_TRANSPARENCY_NOTE_H_

#include <memory>
#include <string>
#include "absl/strings/string_view.h"

#include "absl/status/statusor.h"

namespace arbiter::transparency {

class NoteSigner {
 public:
  // A new random key. Internal if OpenSSL fails; InvalidArgument for a bad
  // name.
  static absl::StatusOr<NoteSigner> Generate(const std::string& name);
  // The key in a PKCS#8 PEM file's text (PrivateKeyPem). InvalidArgument if
  // it is not an Ed25519 private key, or for a bad name.
  static absl::StatusOr<NoteSigner> FromPrivateKeyPem(const std::string& name,
                                                      const std::string& pem);

  // The note: `text` (which must end in a newline and have no blank line)
  // with this key's signature line. InvalidArgument for a text that is not
  // one; Internal if OpenSSL fails.
  absl::StatusOr<std::string> Sign(const std::string& text) const;

  const std::string& name() const { return name_; }
  // The verifier key line (without a newline).
  std::string VerifierKey() const;
  std::string PrivateKeyPem() const;

 private:
  NoteSigner() = default;
  std::string name_;
  std::string public_key_;  // 32 bytes
  std::shared_ptr<void> key_;  // EVP_PKEY
};

class NoteVerifier {
 public:
  // Parses a verifier key line (surrounding whitespace ignored).
  // InvalidArgument naming what is wrong.
  static absl::StatusOr<NoteVerifier> Parse(absl::string_view verifier_key);

  // The text of `note` if it carries a valid signature by this key.
  // InvalidArgument for a malformed note; PermissionDenied if no line is
  // signed by this key or its signature does not verify (the message says
  // which).
  absl::StatusOr<std::string> Open(absl::string_view note) const;

  const std::string& name() const { return name_; }
  const std::string& public_key() const { return public_key_; }

 private:
  NoteVerifier() = default;
  std::string name_;
  std::string public_key_;  // 32 bytes
  std::string key_id_;      // 4 bytes
};

// The key id of a key name and public key (4 bytes).
std::string NoteKeyId(const std::string& name, const std::string& public_key);

}  // namespace arbiter::transparency

#endif  // ARBITER_SERVICES_TRANSPARENCY_NOTE_H_
