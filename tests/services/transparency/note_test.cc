// Signed notes and checkpoints: round trips, the key id, and every way a
// note or a checkpoint can be malformed, forged or changed.
#include <gtest/gtest.h>

#include <string>

#include "absl/strings/escaping.h"
#include "absl/time/time.h"
#include "services/transparency/checkpoint.h"
#include "services/transparency/note.h"

namespace arbiter::transparency {
namespace {

Checkpoint Sample() {
  Checkpoint c;
  c.origin = "arbiter.example/log";
  c.size = 12345;
  c.root = engine::merkle::LeafHash("root");
  c.time = absl::FromUnixSeconds(1'795'420'800);  // 2026-11-23T08:00:00Z
  return c;
}

TEST(CheckpointText, IsFourLinesWithABase64RootAndAUtcTime) {
  const Checkpoint c = Sample();
  EXPECT_EQ(CheckpointText(c),
            "arbiter.example/log\n12345\n" +
                absl::Base64Escape(engine::merkle::ToBytes(c.root)) +
                "\ntime 2026-11-23T08:00:00Z\n");
  absl::StatusOr<Checkpoint> back = ParseCheckpointText(CheckpointText(c));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->origin, c.origin);
  EXPECT_EQ(back->size, c.size);
  EXPECT_EQ(back->root, c.root);
  EXPECT_EQ(back->time, c.time);
}

TEST(CheckpointText, MalformedLinesAreNamed) {
  const std::string good = CheckpointText(Sample());
  EXPECT_EQ(ParseCheckpointText("a\n012\nx\ntime y\n").status().message(),
            "checkpoint line 2: \"012\" is not a tree size (a decimal number)");
  std::string bad_root = good;
  bad_root.replace(bad_root.find("\n", 22) + 1, 4, "!!!!");
  EXPECT_EQ(ParseCheckpointText(bad_root).status().message(),
            "checkpoint line 3: the root hash is not base64 of 32 bytes");
  EXPECT_EQ(ParseCheckpointText(good.substr(0, good.size() - 1)).status().message(),
            "checkpoint line 4: the text does not end in a newline");
  EXPECT_EQ(ParseCheckpointText("a\n1\n").status().message(),
            "a checkpoint has 4 lines (origin, size, root, time), not 2");
  std::string bad_time = good;
  bad_time.replace(bad_time.find("time"), 4, "when");
  EXPECT_EQ(ParseCheckpointText(bad_time).status().message(),
            "checkpoint line 4: not \"time YYYY-MM-DDTHH:MM:SSZ\"");
}

TEST(Note, ASignedCheckpointOpensWithItsVerifierKey) {
  absl::StatusOr<NoteSigner> signer = NoteSigner::Generate("arbiter.example/log");
  ASSERT_TRUE(signer.ok());
  absl::StatusOr<std::string> note = signer->Sign(CheckpointText(Sample()));
  ASSERT_TRUE(note.ok()) << note.status();
  EXPECT_NE(note->find("\n\n\xE2\x80\x94 arbiter.example/log "), std::string::npos);
  absl::StatusOr<NoteVerifier> verifier = NoteVerifier::Parse(signer->VerifierKey() + "\n");
  ASSERT_TRUE(verifier.ok()) << verifier.status();
  absl::StatusOr<Checkpoint> opened = OpenCheckpoint(*verifier, *note);
  ASSERT_TRUE(opened.ok()) << opened.status();
  EXPECT_EQ(opened->size, 12345u);
  // The key survives its PEM file.
  absl::StatusOr<NoteSigner> again =
      NoteSigner::FromPrivateKeyPem("arbiter.example/log", signer->PrivateKeyPem());
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->VerifierKey(), signer->VerifierKey());
}

TEST(Note, TheKeyIdIsTheFirstFourBytesOfTheNameAndKeyHash) {
  // SHA-256("name\n" || 0x01 || 32 zero bytes) = 6c833128..., computed with
  // Python: hashlib.sha256(b"name\n\x01" + bytes(32)).hexdigest()[:8].
  EXPECT_EQ(absl::BytesToHexString(NoteKeyId("name", std::string(32, '\0'))), "6c833128");
}

TEST(Note, AChangedByteOrAnotherKeyIsPermissionDenied) {
  NoteSigner signer = *NoteSigner::Generate("log");
  NoteSigner other = *NoteSigner::Generate("log");
  Checkpoint c = Sample();
  c.origin = "log";
  const std::string note = *signer.Sign(CheckpointText(c));
  NoteVerifier verifier = *NoteVerifier::Parse(signer.VerifierKey());

  std::string changed = note;
  changed[4] = changed[4] == '1' ? '2' : '1';  // the tree size
  absl::StatusOr<std::string> opened = verifier.Open(changed);
  EXPECT_EQ(opened.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(opened.status().message(),
            "the signature of key log does not verify: the note was changed or forged");

  const std::string by_other = *other.Sign(CheckpointText(c));
  EXPECT_EQ(verifier.Open(by_other).status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_NE(verifier.Open(by_other).status().message().find("is not signed by key log+"),
            std::string::npos);

  // A valid note of another log is refused as a checkpoint of this one.
  NoteSigner elsewhere = *NoteSigner::Generate("elsewhere");
  NoteVerifier elsewhere_verifier = *NoteVerifier::Parse(elsewhere.VerifierKey());
  EXPECT_EQ(OpenCheckpoint(elsewhere_verifier, *elsewhere.Sign(CheckpointText(c))).status().message(),
            "the checkpoint is of log \"log\", not of \"elsewhere\"");
}

TEST(Note, MalformedNotesAndKeysAreInvalidArgument) {
  NoteSigner signer = *NoteSigner::Generate("log");
  NoteVerifier verifier = *NoteVerifier::Parse(signer.VerifierKey());
  EXPECT_EQ(verifier.Open("no blank line\n").status().message(),
            "the note has no blank line before its signatures");
  EXPECT_EQ(verifier.Open("text\n\nsignature\n").status().message(),
            "the note's signature line \"signature\" does not start with \"— \"");
  EXPECT_EQ(signer.Sign("no newline").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(signer.Sign("a\n\nb\n").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(NoteVerifier::Parse("log+00000000").status().message(),
            "a verifier key is <name>+<key id>+<base64 key>: three parts separated by '+'");
  std::string wrong_id = signer.VerifierKey();
  wrong_id[4] = wrong_id[4] == '0' ? '1' : '0';
  EXPECT_NE(NoteVerifier::Parse(wrong_id).status().message().find("does not match its name"),
            std::string::npos);
  EXPECT_EQ(NoteSigner::Generate("bad name").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(NoteSigner::FromPrivateKeyPem("log", "not a key").status().message(),
            "the key file is not a PEM private key");
}

}  // namespace
}  // namespace arbiter::transparency
