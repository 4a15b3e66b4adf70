// What the fast JSON codec (services/log/fast_json.h) needs to know about a
// message type, worked out once from its Descriptor: its fields in field
// number order with their JSON names, how each is encoded, and which keys the
// parser accepts.
//
// Plans are built on first use and kept for the life of the process; only
// types of protobuf's generated pool get one (their descriptors live as
// long). Thread-safe: PlanFor may be called from any thread, and a plan never
// changes once returned.
#ifndef ARBITER_SERVICES_LOG_INTERNAL_JSON_PLAN_H_
#define ARBITER_SERVICES_LOG_INTERNAL_JSON_PLAN_H_

#include <google/protobuf/descriptor.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace arbiter::log::internal {

// How a field's values are written in JSON. kUnsupported covers everything
// the fast codec leaves to protobuf: float, double, bytes, groups, the
// well-known types (Timestamp, Struct, Any, wrappers, ...) and maps whose
// keys are not strings or whose values are messages.
enum class JsonKind : uint8_t {
  kInt32,   // int32, sint32, sfixed32: a JSON number
  kInt64,   // int64, sint64, sfixed64: a decimal in a JSON string
  kUInt32,  // uint32, fixed32: a JSON number
  kUInt64,  // uint64, fixed64: a decimal in a JSON string
  kBool,
  kString,
  kEnum,  // the value's name
  kMessage,
  kMap,  // map<string, scalar>: a JSON object
  kUnsupported,
};

struct MessagePlan;

// An enum's values in declaration order, for lookups without allocation.
struct EnumPlan {
  std::vector<std::pair<std::string, int32_t>> values;
  // The name protobuf prints for `number` (the first value declared with
  // it), or nullptr for a number the enum does not declare.
  const std::string* NameOf(int32_t number) const;
  // The number of the value called `name`, or false.
  bool NumberOf(std::string_view name, int32_t& number) const;
};

struct FieldPlan {
  const google::protobuf::FieldDescriptor* field = nullptr;
  JsonKind kind = JsonKind::kUnsupported;
  bool repeated = false;  // a JSON array (maps are kMap, not repeated)
  // Index of the field's real oneof in its message, or -1.
  int oneof = -1;
  // "\"jsonName\":", written before the value.
  std::string print_key;
  const MessagePlan* message = nullptr;  // kMessage
  const EnumPlan* enum_plan = nullptr;   // kEnum
  // kMap: the entry's key and value fields, and the value's kind.
  const google::protobuf::FieldDescriptor* map_key = nullptr;
  const google::protobuf::FieldDescriptor* map_value = nullptr;
  JsonKind map_value_kind = JsonKind::kUnsupported;
  const EnumPlan* map_value_enum = nullptr;
};

struct MessagePlan {
  const google::protobuf::Descriptor* descriptor = nullptr;
  // False for types the fast codec never handles: proto2 and editions,
  // well-known types, types with extension ranges.
  bool supported = false;
  // False when a key would name two different fields (a json_name equal to
  // another field's proto name), where protobuf's lookup order would matter.
  bool keys_unambiguous = true;
  std::vector<FieldPlan> fields;  // in field number order, as protobuf prints
  // Every key the parser accepts (json_name and proto name) with the index
  // of its field in `fields`.
  std::vector<std::pair<std::string, int>> keys;

  // Index in `fields` of the field named `key`, or -1.
  int FindKey(std::string_view key) const;
};

// The plan of `descriptor`'s type, built on first use. Types outside the
// generated pool get a plan with supported == false.
const MessagePlan& PlanFor(const google::protobuf::Descriptor* descriptor);

}  // namespace arbiter::log::internal

#endif  // ARBITER_SERVICES_LOG_INTERNAL_JSON_PLAN_H_
