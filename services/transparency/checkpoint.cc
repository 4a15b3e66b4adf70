#include "services/transparency/checkpoint.h"

#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace arbiter::transparency {
namespace {

constexpr char kTimeFormat[] = "%Y-%m-%d%ET%H:%M:%SZ";

absl::Status Bad(int line, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("checkpoint line ", line, ": ", what));
}

}  // namespace

std::string CheckpointText(const Checkpoint& checkpoint) {
  return absl::StrCat(checkpoint.origin, "\n", checkpoint.size, "\n",
                      absl::Base64Escape(engine::merkle::ToBytes(checkpoint.root)), "\n", "time ",
                      absl::FormatTime(kTimeFormat, checkpoint.time, absl::UTCTimeZone()), "\n");
}

absl::StatusOr<Checkpoint> ParseCheckpointText(absl::string_view text) {
  if (!absl::EndsWith(text, "\n")) return Bad(4, "the text does not end in a newline");
  text.remove_suffix(1);
  std::vector<absl::string_view> lines = absl::StrSplit(text, '\n');
  if (lines.size() != 4) {
    return absl::InvalidArgumentError(
        absl::StrCat("a checkpoint has 4 lines (origin, size, root, time), not ", lines.size()));
  }
  Checkpoint out;
  out.origin = std::string(lines[0]);
  if (out.origin.empty()) return Bad(1, "the origin is empty");
  if (lines[1].empty() || (lines[1].size() > 1 && lines[1][0] == '0') ||
      !absl::SimpleAtoi(lines[1], &out.size) || lines[1][0] == '+' || lines[1][0] == '-') {
    return Bad(2, absl::StrCat("\"", absl::CHexEscape(lines[1]),
                               "\" is not a tree size (a decimal number)"));
  }
  std::string root;
  if (!absl::Base64Unescape(lines[2], &root) || root.size() != 32 ||
      absl::Base64Escape(root) != lines[2]) {
    return Bad(3, "the root hash is not base64 of 32 bytes");
  }
  out.root = *engine::merkle::FromBytes(root);
  absl::string_view time = lines[3];
  std::string error;
  if (!absl::ConsumePrefix(&time, "time ") ||
      !absl::ParseTime(kTimeFormat, time, absl::UTCTimeZone(), &out.time, &error)) {
    return Bad(4, "not \"time YYYY-MM-DDTHH:MM:SSZ\"");
  }
  return out;
}

absl::StatusOr<Checkpoint> OpenCheckpoint(const NoteVerifier& verifier, absl::string_view note) {
  absl::StatusOr<std::string> text = verifier.Open(note);
  if (!text.ok()) return text.status();
  absl::StatusOr<Checkpoint> checkpoint = ParseCheckpointText(*text);
  if (!checkpoint.ok()) return checkpoint.status();
  if (checkpoint->origin != verifier.name()) {
    return absl::PermissionDeniedError(absl::StrCat("the checkpoint is of log \"",
                                                    checkpoint->origin, "\", not of \"",
                                                    verifier.name(), "\""));
  }
  return checkpoint;
}

}  // namespace arbiter::transparency
