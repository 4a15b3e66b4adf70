#include "tests/engine/conformance/action_mutator.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <algorithm>
#include <string>
#include <vector>

namespace arbiter::testing {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

// A field that can be changed: a message and one of its fields.
struct Site {
  Message* message;
  const FieldDescriptor* field;
};

void CollectSites(Message& message, std::vector<Site>& sites) {
  const Reflection* reflection = message.GetReflection();
  const auto* descriptor = message.GetDescriptor();
  for (int i = 0; i < descriptor->field_count(); ++i) {
    const FieldDescriptor* field = descriptor->field(i);
    if (field->is_repeated()) {
      sites.push_back({&message, field});
      if (field->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
        for (int k = 0; k < reflection->FieldSize(message, field); ++k) {
          CollectSites(*reflection->MutableRepeatedMessage(&message, field, k), sites);
        }
      }
      continue;
    }
    if (field->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      if (reflection->HasField(message, field)) {
        CollectSites(*reflection->MutableMessage(&message, field), sites);
      } else if (field->containing_oneof() != nullptr) {
        sites.push_back({&message, field});  // switching to another oneof member
      }
      continue;
    }
    sites.push_back({&message, field});
  }
}

int64_t Nudge(int64_t value, engine::Rng& rng) {
  static constexpr int64_t kDeltas[] = {-2, -1, 1, 2, 5};
  if (rng.Uniform(4) == 0) return static_cast<int64_t>(rng.Uniform(12));
  return value + kDeltas[rng.Uniform(5)];
}

std::string AnyString(engine::Rng& rng, const std::vector<std::string>& pool) {
  const uint64_t choice = rng.Uniform(pool.size() + 2);
  if (choice == 0) return "";
  if (choice == 1) return "x";
  return pool[choice - 2];
}

void MutateScalar(Message& message, const FieldDescriptor* field, engine::Rng& rng,
                  const std::vector<std::string>& pool) {
  const Reflection* r = message.GetReflection();
  switch (field->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
      r->SetInt32(&message, field, static_cast<int32_t>(Nudge(r->GetInt32(message, field), rng)));
      break;
    case FieldDescriptor::CPPTYPE_INT64:
      r->SetInt64(&message, field, Nudge(r->GetInt64(message, field), rng));
      break;
    case FieldDescriptor::CPPTYPE_UINT32:
      r->SetUInt32(&message, field, static_cast<uint32_t>(Nudge(r->GetUInt32(message, field), rng)));
      break;
    case FieldDescriptor::CPPTYPE_UINT64:
      r->SetUInt64(&message, field, static_cast<uint64_t>(Nudge(static_cast<int64_t>(r->GetUInt64(message, field)), rng)));
      break;
    case FieldDescriptor::CPPTYPE_BOOL:
      r->SetBool(&message, field, !r->GetBool(message, field));
      break;
    case FieldDescriptor::CPPTYPE_ENUM: {
      const auto* type = field->enum_type();
      r->SetEnum(&message, field, type->value(static_cast<int>(rng.Uniform(type->value_count()))));
      break;
    }
    case FieldDescriptor::CPPTYPE_STRING:
      r->SetString(&message, field, AnyString(rng, pool));
      break;
    case FieldDescriptor::CPPTYPE_MESSAGE:
      r->MutableMessage(&message, field);  // selects this oneof member, empty
      break;
    default:
      break;
  }
}

void MutateRepeated(Message& message, const FieldDescriptor* field, engine::Rng& rng,
                    const std::vector<std::string>& pool) {
  const Reflection* r = message.GetReflection();
  const int size = r->FieldSize(message, field);
  const uint64_t choice = rng.Uniform(3);
  if (size > 0 && choice == 0) {
    // Drop one element: swap it to the back, then remove the last.
    const int index = static_cast<int>(rng.Uniform(static_cast<uint64_t>(size)));
    r->SwapElements(&message, field, index, size - 1);
    r->RemoveLast(&message, field);
    return;
  }
  if (size > 0 && choice == 1) {
    // Repeat one element.
    const int index = static_cast<int>(rng.Uniform(static_cast<uint64_t>(size)));
    switch (field->cpp_type()) {
      case FieldDescriptor::CPPTYPE_INT32:
        r->AddInt32(&message, field, r->GetRepeatedInt32(message, field, index));
        return;
      case FieldDescriptor::CPPTYPE_INT64:
        r->AddInt64(&message, field, r->GetRepeatedInt64(message, field, index));
        return;
      case FieldDescriptor::CPPTYPE_UINT32:
        r->AddUInt32(&message, field, r->GetRepeatedUInt32(message, field, index));
        return;
      case FieldDescriptor::CPPTYPE_UINT64:
        r->AddUInt64(&message, field, r->GetRepeatedUInt64(message, field, index));
        return;
      case FieldDescriptor::CPPTYPE_BOOL:
        r->AddBool(&message, field, r->GetRepeatedBool(message, field, index));
        return;
      case FieldDescriptor::CPPTYPE_ENUM:
        r->AddEnumValue(&message, field, r->GetRepeatedEnumValue(message, field, index));
        return;
      case FieldDescriptor::CPPTYPE_STRING:
        r->AddString(&message, field, r->GetRepeatedString(message, field, index));
        return;
      case FieldDescriptor::CPPTYPE_MESSAGE:
        r->AddMessage(&message, field)->CopyFrom(r->GetRepeatedMessage(message, field, index));
        return;
      default:
        return;
    }
  }
  // Add a fresh element.
  switch (field->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
      r->AddInt32(&message, field, static_cast<int32_t>(rng.Uniform(8)));
      break;
    case FieldDescriptor::CPPTYPE_INT64:
      r->AddInt64(&message, field, static_cast<int64_t>(rng.Uniform(8)));
      break;
    case FieldDescriptor::CPPTYPE_ENUM: {
      const auto* type = field->enum_type();
      r->AddEnumValue(&message, field, type->value(static_cast<int>(rng.Uniform(type->value_count())))->number());
      break;
    }
    case FieldDescriptor::CPPTYPE_UINT32:
      r->AddUInt32(&message, field, static_cast<uint32_t>(rng.Uniform(8)));
      break;
    case FieldDescriptor::CPPTYPE_UINT64:
      r->AddUInt64(&message, field, rng.Uniform(8));
      break;
    case FieldDescriptor::CPPTYPE_BOOL:
      r->AddBool(&message, field, rng.Uniform(2) == 0);
      break;
    case FieldDescriptor::CPPTYPE_STRING:
      r->AddString(&message, field, AnyString(rng, pool));
      break;
    case FieldDescriptor::CPPTYPE_MESSAGE:
      if (size > 0) {
        Message* copy = r->AddMessage(&message, field);
        copy->CopyFrom(r->GetRepeatedMessage(message, field, 0));
      } else {
        r->AddMessage(&message, field);  // an empty element
      }
      break;
    default:
      break;
  }
}

void CollectStrings(const Message& message, std::vector<std::string>& out) {
  const Reflection* r = message.GetReflection();
  std::vector<const FieldDescriptor*> fields;
  r->ListFields(message, &fields);
  for (const FieldDescriptor* field : fields) {
    if (field->cpp_type() == FieldDescriptor::CPPTYPE_STRING) {
      if (field->is_repeated()) {
        for (int k = 0; k < r->FieldSize(message, field); ++k) out.push_back(r->GetRepeatedString(message, field, k));
      } else {
        out.push_back(r->GetString(message, field));
      }
    } else if (field->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      if (field->is_repeated()) {
        for (int k = 0; k < r->FieldSize(message, field); ++k) CollectStrings(r->GetRepeatedMessage(message, field, k), out);
      } else {
        CollectStrings(r->GetMessage(message, field), out);
      }
    }
  }
}

}  // namespace

std::vector<std::string> StringValuesOf(const std::vector<v1::Action>& actions) {
  std::vector<std::string> values;
  for (const v1::Action& action : actions) {
    v1::Action game_part = action;
    game_part.clear_player();
    CollectStrings(game_part, values);
  }
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

v1::Action MutateAction(const v1::Action& action, engine::Rng& rng, const std::vector<std::string>& string_pool) {
  v1::Action mutated = action;
  std::vector<Site> sites;
  const Reflection* r = mutated.GetReflection();
  const FieldDescriptor* game_field = nullptr;
  for (int i = 0; i < mutated.GetDescriptor()->field_count(); ++i) {
    const FieldDescriptor* f = mutated.GetDescriptor()->field(i);
    if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE && r->HasField(mutated, f)) game_field = f;
  }
  if (game_field == nullptr) return mutated;
  CollectSites(*r->MutableMessage(&mutated, game_field), sites);
  if (sites.empty()) return mutated;
  const Site& site = sites[rng.Uniform(sites.size())];
  if (site.field->is_repeated()) {
    MutateRepeated(*site.message, site.field, rng, string_pool);
  } else {
    MutateScalar(*site.message, site.field, rng, string_pool);
  }
  return mutated;
}

}  // namespace arbiter::testing
