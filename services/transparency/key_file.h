// The checkpoint signing key of arbiterd: an Ed25519 private key in a PEM
// file outside the database (by default <data dir>/transparency.key, mode
// 0600), created on the first start like the admin token, with its verifier
// key (note.h) written beside it as transparency.pub for auditors.
#ifndef ARBITER_SERVICES_TRANSPARENCY_KEY_FILE_H_
#define ARBITER_SERVICES_TRANSPARENCY_KEY_FILE_H_

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "services/transparency/note.h"

namespace arbiter::transparency {

struct LoadedKey {
  NoteSigner signer;
  std::string key_path;
  std::string public_key_path;
  bool created = false;  // the key was made by this call
};

// Reads the key at `key_path`, or creates it (and the directory) if the file
// does not exist; (re)writes `<key_path without .key>.pub`. `origin` is the
// log's name, the key's name in notes. InvalidArgument for a file that is not
// an Ed25519 PEM private key; Internal if a file cannot be written.
absl::StatusOr<LoadedKey> LoadOrCreateKey(const std::string& key_path, const std::string& origin);

// Reads the key at `key_path` as LoadOrCreateKey does, writing nothing;
// nullopt if the file does not exist. InvalidArgument as LoadOrCreateKey.
absl::StatusOr<std::optional<NoteSigner>> ReadKey(const std::string& key_path,
                                                  const std::string& origin);

// Removes the key file and its verifier key file if LoadOrCreateKey created
// them (`key.created`): a server refused right after its first start leaves
// no key behind.
void RemoveCreatedKey(const LoadedKey& key);

// Reads a verifier key file (one line). InvalidArgument naming the file.
absl::StatusOr<NoteVerifier> ReadVerifierKey(const std::string& path);

}  // namespace arbiter::transparency

#endif  // ARBITER_SERVICES_TRANSPARENCY_KEY_FILE_H_
