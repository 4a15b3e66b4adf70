// A fast path for protobuf's JSON mapping of the messages in game logs, with
// protobuf's own converter (google::protobuf::util) as the reference.
//
// protobuf's JsonStringToMessage / MessageToJsonString cost several
// microseconds per log line; these functions walk the message with
// Descriptor/Reflection instead and cost a fraction of that. They cover what
// log lines use (proto3 messages with integers, bools, strings, enums, nested
// and repeated messages, oneofs, map<string, scalar>) and give up on anything
// else, so that the caller can run protobuf's converter instead:
//
//   - FastPrintJson writes exactly the bytes MessageToJsonString writes with
//     json_lines.cc's options (compact, lowerCamelCase names, default values
//     omitted, enums by name, 64-bit integers as decimal strings, strings
//     escaped as protobuf escapes them). One deliberate difference: a map
//     with several entries is written with its keys in sorted (byte) order,
//     which is what protobuf writes when serialisation is deterministic;
//     without that, protobuf's order follows its hash table and changes from
//     one run to the next.
//   - FastParseJson accepts a subset of what JsonStringToMessage accepts, and
//     then produces an equal message: strict JSON (RFC 8259, with only space,
//     tab, CR and LF as whitespace) whose keys are known field names, each at
//     most once, with values of the field's own JSON type. It gives up on
//     anything else (null, unknown keys, duplicate keys or map keys, a second
//     member of a oneof, numbers out of range or not written as plain
//     integers, escapes in keys, unpaired surrogates, control characters,
//     invalid UTF-8, nesting deeper than 32), and protobuf then decides.
//
// Thread-safe; both functions keep a per-type table built on first use
// (services/log/internal/json_plan.h).
#ifndef ARBITER_SERVICES_LOG_FAST_JSON_H_
#define ARBITER_SERVICES_LOG_FAST_JSON_H_

#include <google/protobuf/message.h>

#include <string>
#include <string_view>

namespace arbiter::log {

// Appends the JSON of `message` to `out` and returns true; or returns false,
// with `out` unchanged, when the message holds something the fast printer
// does not write (float, double, bytes, well-known types, unknown fields,
// enum numbers without a name, strings that are not valid UTF-8, ...).
bool FastPrintJson(const google::protobuf::Message& message, std::string& out);

// Clears `message` and parses `text` into it. True: `message` equals what
// JsonStringToMessage(text) gives (with unknown fields refused). False: the
// fast parser gave up; `message` then holds a partial result, and the caller
// must clear it and ask protobuf.
bool FastParseJson(std::string_view text, google::protobuf::Message& message);

}  // namespace arbiter::log

#endif  // ARBITER_SERVICES_LOG_FAST_JSON_H_
