#include "services/transparency/key_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace arbiter::transparency {
namespace {

absl::Status WriteFile(const std::string& path, const std::string& content, mode_t mode) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  if (fd < 0) {
    return absl::InternalError(absl::StrCat("cannot write ", path, ": ", std::strerror(errno)));
  }
  const bool written =
      ::fchmod(fd, mode) == 0 &&
      ::write(fd, content.data(), content.size()) == static_cast<ssize_t>(content.size()) &&
      ::fsync(fd) == 0;
  ::close(fd);
  if (!written) return absl::InternalError(absl::StrCat("cannot write ", path));
  return absl::OkStatus();
}

std::string PublicPath(const std::string& key_path) {
  std::string base = key_path;
  if (absl::EndsWith(base, ".key")) base.resize(base.size() - 4);
  return base + ".pub";
}

}  // namespace

absl::StatusOr<std::optional<NoteSigner>> ReadKey(const std::string& key_path,
                                                  const std::string& origin) {
  std::error_code error;
  if (!std::filesystem::exists(key_path, error)) return std::optional<NoteSigner>();
  std::ifstream in(key_path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) return absl::InvalidArgumentError(absl::StrCat("cannot read ", key_path));
  absl::StatusOr<NoteSigner> loaded = NoteSigner::FromPrivateKeyPem(origin, text.str());
  if (!loaded.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(key_path, ": ", loaded.status().message()));
  }
  return std::optional<NoteSigner>(*std::move(loaded));
}

absl::StatusOr<LoadedKey> LoadOrCreateKey(const std::string& key_path, const std::string& origin) {
  absl::StatusOr<std::optional<NoteSigner>> read = ReadKey(key_path, origin);
  if (!read.ok()) return read.status();
  std::optional<NoteSigner> signer = *std::move(read);
  bool created = false;
  if (!signer.has_value()) {
    absl::StatusOr<NoteSigner> made = NoteSigner::Generate(origin);
    if (!made.ok()) return made.status();
    std::error_code error;
    const std::filesystem::path parent = std::filesystem::path(key_path).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent, error);
    if (absl::Status s = WriteFile(key_path, made->PrivateKeyPem(), 0600); !s.ok()) return s;
    signer = *std::move(made);
    created = true;
  }
  const std::string public_path = PublicPath(key_path);
  if (absl::Status s = WriteFile(public_path, signer->VerifierKey() + "\n", 0644); !s.ok()) {
    return s;
  }
  return LoadedKey{*std::move(signer), key_path, public_path, created};
}

void RemoveCreatedKey(const LoadedKey& key) {
  if (!key.created) return;
  ::unlink(key.key_path.c_str());
  ::unlink(key.public_key_path.c_str());
}

absl::StatusOr<NoteVerifier> ReadVerifierKey(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::InvalidArgumentError(absl::StrCat("cannot read the public key ", path));
  std::ostringstream text;
  text << in.rdbuf();
  absl::StatusOr<NoteVerifier> verifier = NoteVerifier::Parse(text.str());
  if (!verifier.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", verifier.status().message()));
  }
  return verifier;
}

}  // namespace arbiter::transparency
