#include "tests/services/log/json_reference.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/util/json_util.h>
#include <google/protobuf/util/message_differencer.h>
#include <google/protobuf/util/type_resolver.h>
#include <google/protobuf/util/type_resolver_util.h>

#include <memory>

#include "gtest/gtest.h"
#include "services/log/fast_json.h"
#include "services/log/json_lines.h"

namespace arbiter::log::testing {

using google::protobuf::Message;
using google::protobuf::util::MessageDifferencer;

std::string ProtobufJson(const Message& message) {
  // MessageToJsonString serialises the message and converts the bytes; this
  // does the same with deterministic serialisation.
  std::string bytes;
  {
    google::protobuf::io::StringOutputStream stream(&bytes);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    message.SerializeToCodedStream(&coded);
  }
  static google::protobuf::util::TypeResolver* resolver = google::protobuf::util::NewTypeResolverForDescriptorPool(
      "type.googleapis.com", google::protobuf::DescriptorPool::generated_pool());
  std::string json;
  google::protobuf::util::JsonPrintOptions options;
  options.add_whitespace = false;
  options.preserve_proto_field_names = false;
  const auto status = google::protobuf::util::BinaryToJsonString(
      resolver, "type.googleapis.com/" + message.GetDescriptor()->full_name(), bytes, &json, options);
  EXPECT_TRUE(status.ok()) << status;
  return json;
}

ParseOutcome ExpectParsersAgree(std::string_view text, const Message& prototype) {
  ParseOutcome outcome;
  std::unique_ptr<Message> fast(prototype.New());
  outcome.fast_accepted = FastParseJson(text, *fast);

  std::unique_ptr<Message> reference(prototype.New());
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  outcome.protobuf_accepted =
      google::protobuf::util::JsonStringToMessage(google::protobuf::StringPiece(text.data(), text.size()),
                                                  reference.get(), options)
          .ok();
  if (outcome.fast_accepted) {
    EXPECT_TRUE(outcome.protobuf_accepted) << "the fast parser accepted what protobuf refuses: " << text;
    EXPECT_TRUE(MessageDifferencer::Equals(*fast, *reference))
        << "for " << text << "\nfast:     " << fast->ShortDebugString()
        << "\nprotobuf: " << reference->ShortDebugString();
  }

  std::unique_ptr<Message> line(prototype.New());
  std::unique_ptr<Message> line_reference(prototype.New());
  const absl::Status status = ParseJsonLine(text, 7, *line);
  const absl::Status reference_status = ParseJsonLineWithProtobuf(text, 7, *line_reference);
  EXPECT_EQ(status, reference_status) << "for " << text;
  EXPECT_TRUE(MessageDifferencer::Equals(*line, *line_reference))
      << "for " << text << "\nParseJsonLine:             " << line->ShortDebugString()
      << "\nParseJsonLineWithProtobuf: " << line_reference->ShortDebugString();
  return outcome;
}

}  // namespace arbiter::log::testing
