// libFuzzer target for the fast JSON codec (services/log/fast_json.h): for
// any line, what the fast parser accepts protobuf must accept as an equal
// message, ParseJsonLine must answer exactly as protobuf alone does, and what
// the fast printer writes must be protobuf's bytes. The first byte picks the
// message type (even: Action, odd: LogHeader); the rest is the line.
// Instrument the libraries too, so that coverage guides the search:
//   CC=clang CXX=clang++ cmake -S . -B build-fuzz -DARBITER_FUZZ=ON
//       -DCMAKE_CXX_FLAGS=-fsanitize=fuzzer-no-link,address,undefined
//   cmake --build build-fuzz --target json_codec_fuzzer
//   build-fuzz/bin/json_codec_fuzzer -dict=tests/fuzz/log.dict -max_len=4096
//       -max_total_time=600 NEW_CORPUS_DIR
#include <google/protobuf/util/json_util.h>
#include <google/protobuf/util/message_differencer.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "arbiter/v1/action.pb.h"
#include "arbiter/v1/log.pb.h"
#include "services/log/fast_json.h"
#include "services/log/json_lines.h"

namespace {

using google::protobuf::Message;
using google::protobuf::util::MessageDifferencer;

void Check(bool condition) {
  if (!condition) __builtin_trap();
}

void CheckLine(std::string_view text, const Message& prototype) {
  std::unique_ptr<Message> fast(prototype.New());
  const bool fast_accepted = arbiter::log::FastParseJson(text, *fast);
  std::unique_ptr<Message> reference(prototype.New());
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  const bool accepted = google::protobuf::util::JsonStringToMessage(
                            google::protobuf::StringPiece(text.data(), text.size()), reference.get(), options)
                            .ok();
  if (fast_accepted) Check(accepted && MessageDifferencer::Equals(*fast, *reference));

  std::unique_ptr<Message> line(prototype.New());
  std::unique_ptr<Message> line_reference(prototype.New());
  Check(arbiter::log::ParseJsonLine(text, 1, *line) ==
        arbiter::log::ParseJsonLineWithProtobuf(text, 1, *line_reference));
  Check(MessageDifferencer::Equals(*line, *line_reference));

  // Protobuf's order of several map entries varies; compare the others.
  if (const auto* header = dynamic_cast<const arbiter::v1::LogHeader*>(line.get());
      header != nullptr && header->options_size() > 1) {
    return;
  }
  std::string printed;
  if (arbiter::log::FastPrintJson(*line, printed)) Check(printed == arbiter::log::ToJsonLineWithProtobuf(*line));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] % 2 == 0) {
    CheckLine(text, arbiter::v1::Action::default_instance());
  } else {
    CheckLine(text, arbiter::v1::LogHeader::default_instance());
  }
  return 0;
}
