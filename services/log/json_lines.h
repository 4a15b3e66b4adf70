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

// Parses one JSON object into `message` (unknown fields refused).
// InvalidArgument "line N: <what protobuf's parser said>".
absl::Status ParseJsonLine(std::string_view text, int64_t line, google::protobuf::Message& message);

// Compact JSON, field names in lowerCamelCase as protobuf's mapping does.
std::string ToJsonLine(const google::protobuf::Message& message);

}  // namespace arbiter::log

#endif  // ARBITER_SERVICES_LOG_JSON_LINES_H_
