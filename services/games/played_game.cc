#include "services/games/played_game.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <map>

#include "absl/strings/str_cat.h"
#include "engine/core/sha256.h"
#include "services/common/status_details.h"

namespace arbiter::games {
namespace {

void Field(std::string& out, const std::string& value) {
  absl::StrAppend(&out, value.size(), ":", value, ";");
}

// The message's bytes with maps in key order, the same on every run.
std::string DeterministicBytes(const google::protobuf::MessageLite& message) {
  std::string bytes;
  google::protobuf::io::StringOutputStream stream(&bytes);
  google::protobuf::io::CodedOutputStream coded(&stream);
  coded.SetSerializationDeterministic(true);
  message.SerializeToCodedStream(&coded);
  coded.Trim();
  return bytes;
}

}  // namespace

std::string PlayedGameKey(const v1::LogHeader& header, const std::vector<v1::Action>& actions) {
  std::string out = "arbiter-played-game-v1";
  Field(out, header.game());
  Field(out, header.ruleset_hash());
  Field(out, absl::StrCat(header.seed()));
  const std::map<std::string, std::string> options(header.options().begin(),
                                                   header.options().end());
  Field(out, absl::StrCat(options.size()));
  for (const auto& [key, value] : options) {
    Field(out, key);
    Field(out, value);
  }
  Field(out, absl::StrCat(header.players_size()));
  for (const v1::Player& player : header.players()) Field(out, player.id());
  for (const v1::Action& action : actions) Field(out, DeterministicBytes(action));
  return engine::Sha256Hex(out);
}

absl::Status DuplicateOf(const std::string& existing) {
  return common::WithErrorInfo(
      absl::AlreadyExistsError(absl::StrCat(
          "this log records the same game (header and actions) as the stored game \"", existing,
          "\"; to store it again, marked as a duplicate and never rated, submit it with "
          "--allow-duplicate (allow_duplicate in the API)")),
      "DUPLICATE_GAME", {{"game", existing}});
}

}  // namespace arbiter::games
