// Protobuf messages as single JSON lines, with errors that name the line.
#ifndef ARBITER_SERVICES_LOG_JSON_LINES_H_
#define ARBITER_SERVICES_LOG_JSON_LINES_H_

#include <google/protobuf/message.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace arbiter::log {

// OK if `text` is valid UTF-8 without NUL bytes; otherwise InvalidArgument
// naming the byte offset ("line 3: byte 17 is not valid UTF-8 (0xff)").
absl::Status CheckUtf8Text(std::string_view text, int64_t line);

// Parses one JSON object into `message` (unknown fields refused), as
// protobuf's JsonStringToMessage does. InvalidArgument "line N: <what
// protobuf's parser said>"; `message` is then unchanged.
// Lines the fast parser (services/log/fast_json.h) accepts do not reach
// protobuf; the others, and every error, are protobuf's.
absl::Status ParseJsonLine(std::string_view text, int64_t line, google::protobuf::Message& message);

// Compact JSON, field names in lowerCamelCase, as protobuf's MessageToJsonString
// writes it (through the fast printer when it covers the message; map keys
// then come in sorted order rather than protobuf's hash order).
std::string ToJsonLine(const google::protobuf::Message& message);

// The same two with protobuf's converter only: the reference the fast path
// is tested and measured against.
absl::Status ParseJsonLineWithProtobuf(std::string_view text, int64_t line,
                                       google::protobuf::Message& message);
std::string ToJsonLineWithProtobuf(const google::protobuf::Message& message);

}  // namespace arbiter::log

#endif  // ARBITER_SERVICES_LOG_JSON_LINES_H_
