#include "services/log/internal/json_plan.h"

#include <google/protobuf/descriptor.pb.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace arbiter::log::internal {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::DescriptorPool;
using google::protobuf::EnumDescriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::FileDescriptor;

bool IsWellKnownName(const std::string& full_name) {
  return full_name.rfind("google.protobuf.", 0) == 0;
}

// A JSON name the printer may write between quotes as it is.
bool IsPlainName(const std::string& name) {
  if (name.empty()) return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
  }
  return true;
}

// Every plan ever built, owned here; guarded by mutex_.
class Registry {
 public:
  const MessagePlan& Message(const Descriptor* descriptor) {
    std::lock_guard<std::mutex> lock(mutex_);
    return BuildLocked(descriptor);
  }

 private:
  const EnumPlan& EnumLocked(const EnumDescriptor* descriptor) {
    std::unique_ptr<EnumPlan>& slot = enums_[descriptor];
    if (slot == nullptr) {
      slot = std::make_unique<EnumPlan>();
      for (int i = 0; i < descriptor->value_count(); ++i) {
        slot->values.emplace_back(descriptor->value(i)->name(), descriptor->value(i)->number());
      }
    }
    return *slot;
  }

  // The kind of a field's single value, ignoring repetition and maps.
  JsonKind ValueKind(const FieldDescriptor* field) {
    switch (field->cpp_type()) {
      case FieldDescriptor::CPPTYPE_INT32:
        return JsonKind::kInt32;
      case FieldDescriptor::CPPTYPE_INT64:
        return JsonKind::kInt64;
      case FieldDescriptor::CPPTYPE_UINT32:
        return JsonKind::kUInt32;
      case FieldDescriptor::CPPTYPE_UINT64:
        return JsonKind::kUInt64;
      case FieldDescriptor::CPPTYPE_BOOL:
        return JsonKind::kBool;
      case FieldDescriptor::CPPTYPE_STRING:
        return field->type() == FieldDescriptor::TYPE_STRING ? JsonKind::kString : JsonKind::kUnsupported;
      case FieldDescriptor::CPPTYPE_ENUM:
        // NullValue is written as JSON null.
        return IsWellKnownName(field->enum_type()->full_name()) ? JsonKind::kUnsupported : JsonKind::kEnum;
      case FieldDescriptor::CPPTYPE_MESSAGE:
        if (field->type() != FieldDescriptor::TYPE_MESSAGE) return JsonKind::kUnsupported;  // a group
        return BuildLocked(field->message_type()).supported ? JsonKind::kMessage : JsonKind::kUnsupported;
      case FieldDescriptor::CPPTYPE_FLOAT:
      case FieldDescriptor::CPPTYPE_DOUBLE:
        return JsonKind::kUnsupported;
    }
    return JsonKind::kUnsupported;
  }

  FieldPlan FieldOf(const FieldDescriptor* field) {
    FieldPlan plan;
    plan.field = field;
    plan.print_key = "\"" + field->json_name() + "\":";
    if (const auto* oneof = field->real_containing_oneof(); oneof != nullptr) plan.oneof = oneof->index();
    if (!IsPlainName(field->json_name())) return plan;  // kUnsupported
    if (field->is_map()) {
      plan.map_key = field->message_type()->map_key();
      plan.map_value = field->message_type()->map_value();
      const JsonKind value = ValueKind(plan.map_value);
      if (plan.map_key->type() != FieldDescriptor::TYPE_STRING || value == JsonKind::kMessage ||
          value == JsonKind::kUnsupported) {
        return plan;
      }
      plan.kind = JsonKind::kMap;
      plan.map_value_kind = value;
      if (value == JsonKind::kEnum) plan.map_value_enum = &EnumLocked(plan.map_value->enum_type());
      return plan;
    }
    plan.kind = ValueKind(field);
    plan.repeated = field->is_repeated();
    if (plan.kind == JsonKind::kMessage) plan.message = &BuildLocked(field->message_type());
    if (plan.kind == JsonKind::kEnum) plan.enum_plan = &EnumLocked(field->enum_type());
    return plan;
  }

  const MessagePlan& BuildLocked(const Descriptor* descriptor) {
    std::unique_ptr<MessagePlan>& slot = messages_[descriptor];
    if (slot != nullptr) return *slot;  // built, or being built (a recursive type)
    slot = std::make_unique<MessagePlan>();
    MessagePlan& plan = *slot;
    plan.descriptor = descriptor;
    const FileDescriptor* file = descriptor->file();
    plan.supported = file->syntax() == FileDescriptor::SYNTAX_PROTO3 &&
                     !IsWellKnownName(descriptor->full_name()) && descriptor->extension_range_count() == 0 &&
                     !descriptor->options().map_entry();
    if (!plan.supported) return plan;

    std::vector<const FieldDescriptor*> fields;
    for (int i = 0; i < descriptor->field_count(); ++i) fields.push_back(descriptor->field(i));
    std::sort(fields.begin(), fields.end(),
              [](const FieldDescriptor* a, const FieldDescriptor* b) { return a->number() < b->number(); });
    for (const FieldDescriptor* field : fields) plan.fields.push_back(FieldOf(field));

    for (std::size_t i = 0; i < plan.fields.size(); ++i) {
      const FieldDescriptor* field = plan.fields[i].field;
      for (const std::string* name : {&field->json_name(), &field->name()}) {
        const int index = static_cast<int>(i);
        const int existing = plan.FindKey(*name);
        if (existing == -1) {
          plan.keys.emplace_back(*name, index);
        } else if (existing != index) {
          plan.keys_unambiguous = false;
        }
      }
    }
    return plan;
  }

  std::mutex mutex_;
  std::unordered_map<const Descriptor*, std::unique_ptr<MessagePlan>> messages_;
  std::unordered_map<const EnumDescriptor*, std::unique_ptr<EnumPlan>> enums_;
};

Registry& Plans() {
  static Registry* registry = new Registry();
  return *registry;
}

}  // namespace

const std::string* EnumPlan::NameOf(int32_t number) const {
  for (const auto& [name, value] : values) {
    if (value == number) return &name;
  }
  return nullptr;
}

bool EnumPlan::NumberOf(std::string_view name, int32_t& number) const {
  for (const auto& [value_name, value] : values) {
    if (value_name == name) {
      number = value;
      return true;
    }
  }
  return false;
}

int MessagePlan::FindKey(std::string_view key) const {
  for (const auto& [name, index] : keys) {
    if (name == key) return index;
  }
  return -1;
}

const MessagePlan& PlanFor(const Descriptor* descriptor) {
  // Other pools' descriptors may die, and another take their address.
  if (descriptor->file()->pool() != DescriptorPool::generated_pool()) {
    static const MessagePlan* unsupported = new MessagePlan();
    return *unsupported;
  }
  // A few plans per thread, found without taking the registry's lock.
  struct Entry {
    const Descriptor* descriptor;
    const MessagePlan* plan;
  };
  constexpr int kCached = 8;
  thread_local Entry cache[kCached] = {};
  thread_local int next = 0;
  for (const Entry& entry : cache) {
    if (entry.descriptor == descriptor) return *entry.plan;
  }
  const MessagePlan& plan = Plans().Message(descriptor);
  cache[next] = {descriptor, &plan};
  next = (next + 1) % kCached;
  return plan;
}

}  // namespace arbiter::log::internal
