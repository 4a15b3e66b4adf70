#include "services/transparency/note.h"

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/sha.h>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace arbiter::transparency {
namespace {

constexpr char kDash[] = "\xE2\x80\x94 ";  // "— "
constexpr unsigned char kEd25519 = 0x01;

absl::Status CheckName(const std::string& name) {
  if (name.empty() || name.size() > 200) {
    return absl::InvalidArgumentError("a key name has 1 to 200 characters");
  }
  for (char c : name) {
    if (c <= ' ' || c >= 0x7f || c == '+') {
      return absl::InvalidArgumentError(absl::StrCat(
          "key name \"", absl::CHexEscape(name),
          "\": only printable ASCII characters other than space and '+' are allowed"));
    }
  }
  return absl::OkStatus();
}

std::shared_ptr<void> Own(EVP_PKEY* key) {
  return std::shared_ptr<void>(key, [](void* p) { EVP_PKEY_free(static_cast<EVP_PKEY*>(p)); });
}

absl::StatusOr<std::string> RawPublicKey(EVP_PKEY* key) {
  unsigned char raw[32];
  size_t len = sizeof(raw);
  if (EVP_PKEY_get_raw_public_key(key, raw, &len) != 1 || len != 32) {
    return absl::InternalError("OpenSSL could not export the Ed25519 public key");
  }
  return std::string(reinterpret_cast<char*>(raw), len);
}

bool VerifyEd25519(const std::string& public_key, absl::string_view message,
                   const std::string& signature) {
  EVP_PKEY* key = EVP_PKEY_new_raw_public_key(
      EVP_PKEY_ED25519, nullptr, reinterpret_cast<const unsigned char*>(public_key.data()),
      public_key.size());
  if (key == nullptr) return false;
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  bool ok = ctx != nullptr && EVP_DigestVerifyInit(ctx, nullptr, nullptr, nullptr, key) == 1 &&
            EVP_DigestVerify(ctx, reinterpret_cast<const unsigned char*>(signature.data()),
                             signature.size(),
                             reinterpret_cast<const unsigned char*>(message.data()),
                             message.size()) == 1;
  EVP_MD_CTX_free(ctx);
  EVP_PKEY_free(key);
  return ok;
}

}  // namespace

std::string NoteKeyId(const std::string& name, const std::string& public_key) {
  std::string input = name;
  input.push_back('\n');
  input.push_back(static_cast<char>(kEd25519));
  input.append(public_key);
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(input.data()), input.size(), digest);
  return std::string(reinterpret_cast<char*>(digest), 4);
}

absl::StatusOr<NoteSigner> NoteSigner::Generate(const std::string& name) {
  if (absl::Status s = CheckName(name); !s.ok()) return s;
  EVP_PKEY* key = nullptr;
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nullptr);
  const bool ok = ctx != nullptr && EVP_PKEY_keygen_init(ctx) == 1 &&
                  EVP_PKEY_keygen(ctx, &key) == 1;
  EVP_PKEY_CTX_free(ctx);
  if (!ok || key == nullptr) return absl::InternalError("OpenSSL could not make an Ed25519 key");
  NoteSigner signer;
  signer.name_ = name;
  signer.key_ = Own(key);
  absl::StatusOr<std::string> pub = RawPublicKey(key);
  if (!pub.ok()) return pub.status();
  signer.public_key_ = *pub;
  return signer;
}

absl::StatusOr<NoteSigner> NoteSigner::FromPrivateKeyPem(const std::string& name,
                                                         const std::string& pem) {
  if (absl::Status s = CheckName(name); !s.ok()) return s;
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  if (bio == nullptr) return absl::InternalError("OpenSSL could not read the key");
  EVP_PKEY* key = PEM_read_bio_PrivateKey(bio, nullptr, nullptr, nullptr);
  BIO_free(bio);
  if (key == nullptr) {
    return absl::InvalidArgumentError("the key file is not a PEM private key");
  }
  std::shared_ptr<void> owned = Own(key);
  if (EVP_PKEY_get_id(key) != EVP_PKEY_ED25519) {
    return absl::InvalidArgumentError("the key file holds a key that is not Ed25519");
  }
  NoteSigner signer;
  signer.name_ = name;
  signer.key_ = owned;
  absl::StatusOr<std::string> pub = RawPublicKey(key);
  if (!pub.ok()) return pub.status();
  signer.public_key_ = *pub;
  return signer;
}

absl::StatusOr<std::string> NoteSigner::Sign(const std::string& text) const {
  if (text.empty() || text.back() != '\n' || absl::StrContains(text, "\n\n")) {
    return absl::InvalidArgumentError(
        "a note's text is non-empty, ends in a newline and has no blank line");
  }
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  unsigned char signature[64];
  size_t len = sizeof(signature);
  const bool ok =
      ctx != nullptr &&
      EVP_DigestSignInit(ctx, nullptr, nullptr, nullptr, static_cast<EVP_PKEY*>(key_.get())) ==
          1 &&
      EVP_DigestSign(ctx, signature, &len, reinterpret_cast<const unsigned char*>(text.data()),
                     text.size()) == 1;
  EVP_MD_CTX_free(ctx);
  if (!ok || len != 64) return absl::InternalError("OpenSSL could not sign the note");
  const std::string blob =
      NoteKeyId(name_, public_key_) + std::string(reinterpret_cast<char*>(signature), len);
  return absl::StrCat(text, "\n", kDash, name_, " ", absl::Base64Escape(blob), "\n");
}

std::string NoteSigner::VerifierKey() const {
  std::string key(1, static_cast<char>(kEd25519));
  key.append(public_key_);
  return absl::StrCat(name_, "+", absl::BytesToHexString(NoteKeyId(name_, public_key_)), "+",
                      absl::Base64Escape(key));
}

std::string NoteSigner::PrivateKeyPem() const {
  BIO* bio = BIO_new(BIO_s_mem());
  std::string out;
  if (bio != nullptr &&
      PEM_write_bio_PrivateKey(bio, static_cast<EVP_PKEY*>(key_.get()), nullptr, nullptr, 0,
                               nullptr, nullptr) == 1) {
    char* data = nullptr;
    const long len = BIO_get_mem_data(bio, &data);
    out.assign(data, static_cast<std::size_t>(len));
  }
  BIO_free(bio);
  return out;
}

absl::StatusOr<NoteVerifier> NoteVerifier::Parse(absl::string_view verifier_key) {
  verifier_key = absl::StripAsciiWhitespace(verifier_key);
  std::vector<std::string> parts = absl::StrSplit(verifier_key, absl::MaxSplits('+', 2));
  if (parts.size() != 3) {
    return absl::InvalidArgumentError(
        "a verifier key is <name>+<key id>+<base64 key>: three parts separated by '+'");
  }
  if (absl::Status s = CheckName(parts[0]); !s.ok()) return s;
  std::string key;
  if (!absl::Base64Unescape(parts[2], &key) || key.size() != 33 ||
      static_cast<unsigned char>(key[0]) != kEd25519) {
    return absl::InvalidArgumentError(
        "the verifier key's third part is not base64 of 0x01 and a 32-byte Ed25519 key");
  }
  NoteVerifier verifier;
  verifier.name_ = parts[0];
  verifier.public_key_ = key.substr(1);
  verifier.key_id_ = NoteKeyId(verifier.name_, verifier.public_key_);
  if (absl::BytesToHexString(verifier.key_id_) != parts[1]) {
    return absl::InvalidArgumentError(absl::StrCat("the verifier key's id ", parts[1],
                                                   " does not match its name and key (",
                                                   absl::BytesToHexString(verifier.key_id_), ")"));
  }
  return verifier;
}

absl::StatusOr<std::string> NoteVerifier::Open(absl::string_view note) const {
  const std::size_t split = note.find("\n\n");
  if (split == absl::string_view::npos) {
    return absl::InvalidArgumentError("the note has no blank line before its signatures");
  }
  const absl::string_view text = note.substr(0, split + 1);
  absl::string_view signatures = note.substr(split + 2);
  if (signatures.empty() || signatures.back() != '\n') {
    return absl::InvalidArgumentError("the note's signature lines do not end in a newline");
  }
  signatures.remove_suffix(1);
  bool named = false;
  for (absl::string_view line : absl::StrSplit(signatures, '\n')) {
    if (!absl::ConsumePrefix(&line, kDash)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the note's signature line \"", absl::CHexEscape(line), "\" does not start with \"— \""));
    }
    const std::size_t space = line.rfind(' ');
    if (space == absl::string_view::npos) {
      return absl::InvalidArgumentError("a signature line has no signature after the key name");
    }
    if (line.substr(0, space) != name_) continue;
    std::string blob;
    if (!absl::Base64Unescape(line.substr(space + 1), &blob) || blob.size() != 68) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the signature of key ", name_, " is not base64 of a key id and 64 bytes"));
    }
    if (blob.substr(0, 4) != key_id_) continue;
    named = true;
    if (VerifyEd25519(public_key_, text, blob.substr(4))) return std::string(text);
  }
  if (!named) {
    return absl::PermissionDeniedError(
        absl::StrCat("the note is not signed by key ", name_, "+",
                     absl::BytesToHexString(key_id_)));
  }
  return absl::PermissionDeniedError(absl::StrCat(
      "the signature of key ", name_, " does not verify: the note was changed or forged"));
}

}  // namespace arbiter::transparency
