#include "services/log/json_lines.h"

#include <google/protobuf/util/json_util.h>

#include <cstring>

#include "engine/core/status_macros.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "services/log/fast_json.h"
#include "services/common/utf8.h"

namespace arbiter::log {

absl::Status CheckUtf8Text(std::string_view text, int64_t line) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  std::size_t i = 0;
  while (i < n) {
    // Eight ASCII bytes without NUL at a time (most of a log line).
    if (n - i >= 8) {
      uint64_t word = 0;
      std::memcpy(&word, bytes + i, sizeof(word));
      constexpr uint64_t kOnes = 0x0101010101010101;
      constexpr uint64_t kHighBits = 0x8080808080808080;
      if ((word & kHighBits) == 0 && ((word - kOnes) & ~word & kHighBits) == 0) {
        i += 8;
        continue;
      }
    }
    const unsigned char lead = bytes[i];
    if (lead == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("line ", line, ": byte ", i + 1, " is a NUL byte; a log is UTF-8 text"));
    }
    if (lead < 0x80) {
      ++i;
      continue;
    }
    uint32_t code = 0;
    const int length = common::DecodeUtf8(bytes + i, bytes + n, code);
    if (length == 0) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "line %d: byte %d (0x%02x) is not valid UTF-8; a log is UTF-8 text", line, i + 1, lead));
    }
    i += static_cast<std::size_t>(length);
  }
  return absl::OkStatus();
}

namespace {

absl::Status ParseWithProtobuf(std::string_view text, int64_t line, google::protobuf::Message& message) {
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  const auto status = google::protobuf::util::JsonStringToMessage(
      google::protobuf::StringPiece(text.data(), text.size()), &message, options);
  if (!status.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("line ", line, ": not a valid ",
                                                   message.GetDescriptor()->name(), ": ",
                                                   std::string(status.message())));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ParseJsonLine(std::string_view text, int64_t line, google::protobuf::Message& message) {
  ARBITER_RETURN_IF_ERROR(CheckUtf8Text(text, line));
  // The fast parser writes into `message` before it knows whether it will
  // give up, while protobuf leaves `message` as it was when it refuses a
  // line: so take the fast path only for a message that is as good as empty
  // (the usual case), and empty it again after giving up.
  if (message.ByteSizeLong() == 0) {
    if (FastParseJson(text, message)) return absl::OkStatus();
    message.Clear();
  }
  return ParseWithProtobuf(text, line, message);
}

absl::Status ParseJsonLineWithProtobuf(std::string_view text, int64_t line,
                                       google::protobuf::Message& message) {
  ARBITER_RETURN_IF_ERROR(CheckUtf8Text(text, line));
  return ParseWithProtobuf(text, line, message);
}

std::string ToJsonLine(const google::protobuf::Message& message) {
  std::string json;
  if (FastPrintJson(message, json)) return json;
  return ToJsonLineWithProtobuf(message);
}

std::string ToJsonLineWithProtobuf(const google::protobuf::Message& message) {
  std::string json;
  google::protobuf::util::JsonPrintOptions options;
  options.add_whitespace = false;
  options.preserve_proto_field_names = false;
  // Serialising a message we hold cannot fail for the types we use.
  (void)google::protobuf::util::MessageToJsonString(message, &json, options);
  return json;
}

}  // namespace arbiter::log
