// Test helpers that compare the fast JSON codec (services/log/fast_json.h)
// with protobuf's converter.
#ifndef ARBITER_TESTS_SERVICES_LOG_JSON_REFERENCE_H_
#define ARBITER_TESTS_SERVICES_LOG_JSON_REFERENCE_H_

#include <google/protobuf/message.h>

#include <string>
#include <string_view>

namespace arbiter::log::testing {

// What MessageToJsonString writes for `message` when serialisation is
// deterministic (map entries sorted by key), with json_lines.cc's options.
// Without maps of two or more entries this is exactly ToJsonLineWithProtobuf.
std::string ProtobufJson(const google::protobuf::Message& message);

// How one text fared with each parser.
struct ParseOutcome {
  bool fast_accepted = false;
  bool protobuf_accepted = false;
};

// Parses `text` as a `prototype`-typed message with FastParseJson, with
// protobuf's JsonStringToMessage, with ParseJsonLine and with
// ParseJsonLineWithProtobuf, and adds a GoogleTest failure unless: what the
// fast parser accepts, protobuf accepts as an equal message; and
// ParseJsonLine gives the same status (code and text) and message as the
// protobuf-only path.
ParseOutcome ExpectParsersAgree(std::string_view text, const google::protobuf::Message& prototype);

}  // namespace arbiter::log::testing

#endif  // ARBITER_TESTS_SERVICES_LOG_JSON_REFERENCE_H_
