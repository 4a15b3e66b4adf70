// The fast JSON codec against protobuf's converter, case by case: string
// escaping (every code point), oneofs with default values, maps, the
// messages it leaves to protobuf, and lines its parser accepts or gives up on.
#include "services/log/fast_json.h"
#include "services/common/utf8.h"

#include <google/protobuf/util/json_util.h>
#include <google/protobuf/util/message_differencer.h>

#include <cstring>
#include <string>
#include <vector>

#include "arbiter/v1/action.pb.h"
#include "arbiter/v1/arbiter_service.pb.h"
#include "absl/strings/str_cat.h"
#include "arbiter/v1/log.pb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/log/json_lines.h"
#include "tests/services/log/json_reference.h"

namespace arbiter::log {
namespace {

using google::protobuf::util::MessageDifferencer;
using testing::ExpectParsersAgree;
using testing::ProtobufJson;

// Prints `message` both ways, expects the same bytes, and reads them back.
template <typename M>
void ExpectRoundTrip(const M& message) {
  std::string fast;
  ASSERT_TRUE(FastPrintJson(message, fast)) << message.ShortDebugString();
  EXPECT_EQ(fast, ProtobufJson(message));
  EXPECT_EQ(ToJsonLine(message), fast);
  M parsed;
  ASSERT_TRUE(FastParseJson(fast, parsed)) << fast;
  EXPECT_TRUE(MessageDifferencer::Equals(parsed, message)) << fast;
}

TEST(FastJsonPrint, EscapesEveryCodePointAsProtobufDoes) {
  // 0x1000 code points per name; surrogates are not code points of UTF-8.
  for (uint32_t first = 0; first <= 0x10ffff; first += 0x1000) {
    v1::Player player;
    player.set_id("p");
    std::string name;
    for (uint32_t cp = first; cp < first + 0x1000; ++cp) {
      if (cp < 0xd800 || cp > 0xdfff) common::AppendUtf8(name, cp);
    }
    if (name.empty()) continue;
    player.set_name(name);
    std::string fast;
    ASSERT_TRUE(FastPrintJson(player, fast));
    ASSERT_EQ(fast, ToJsonLineWithProtobuf(player)) << "code points from U+" << std::hex << first;
    v1::Player parsed;
    ASSERT_TRUE(FastParseJson(fast, parsed));
    ASSERT_EQ(parsed.name(), name) << "code points from U+" << std::hex << first;
  }
}

TEST(FastJsonPrint, EscapesPlayerNamesAndOptionValuesLikeProtobuf) {
  const std::vector<std::string> names = {
      "Ann \"the Ace\"", "back\\slash", "tab\tnew\nline\rcr\bbs\fff", std::string("nul\0x", 5), "\x01\x1f\x7f",
      "<b>&amp;</b> 'quoted' a=b", "caf\xc3\xa9", "\xf0\x9f\x8e\xb2 dice", "line\xe2\x80\xa8sep\xe2\x80\xa9para",
      "soft\xc2\xadhyphen", "\xef\xbb\xbf" "bom", "\xc2\x80\xc2\x9f", "\xf0\x9d\x85\xb3 music", "",
  };
  for (const std::string& name : names) {
    v1::LogHeader header;
    header.set_game("atlantis");
    v1::Player* player = header.add_players();
    player->set_id("p1");
    player->set_name(name);
    (*header.mutable_options())["note"] = name;
    ExpectRoundTrip(header);
    EXPECT_EQ(ToJsonLine(header), ToJsonLineWithProtobuf(header)) << "one option: the same bytes as protobuf";
  }
}

TEST(FastJsonPrint, WritesSeveralOptionsInKeyOrderAsDeterministicProtobufDoes) {
  v1::LogHeader header;
  header.set_seed(18446744073709551615u);
  for (const char* key : {"zeta", "Alpha", "\xc3\xa9t\xc3\xa9", "alpha", "a<b", ""}) {
    (*header.mutable_options())[key] = key;
  }
  ExpectRoundTrip(header);
  EXPECT_THAT(ToJsonLine(header),
              ::testing::HasSubstr(R"({"":"","Alpha":"Alpha","a\u003cb":"a\u003cb","alpha":"alpha","zeta":)"));
}

TEST(FastJsonPrint, WritesOneofMembersThatHoldDefaultValues) {
  v1::Action action;
  action.set_player("p1");
  auto* place = action.mutable_atlantis_rising()->mutable_place();
  place->set_centre(false);
  ExpectRoundTrip(action);
  place->set_build_site(0);
  ExpectRoundTrip(action);
  place->set_component("");
  ExpectRoundTrip(action);
  place->set_peninsula(v1::AtlantisRising::PENINSULA_UNSPECIFIED);
  place->set_position(3);
  ExpectRoundTrip(action);
  action.mutable_atlantis()->mutable_pass();
  ExpectRoundTrip(action);
  EXPECT_EQ(ToJsonLine(action), R"({"player":"p1","atlantis":{"pass":{}}})");
  ExpectRoundTrip(v1::Action());
  EXPECT_EQ(ToJsonLine(v1::Action()), "{}");
}

TEST(FastJsonPrint, WritesSixtyFourBitIntegersAsStrings) {
  v1::PlayerStanding standing;
  standing.set_player("p1");
  standing.set_seat(-2);
  standing.set_score(-9223372036854775807 - 1);
  standing.add_tie_break(0);
  standing.add_tie_break(9223372036854775807);
  standing.add_breakdown()->set_points(-1);
  ExpectRoundTrip(standing);
  EXPECT_EQ(ToJsonLine(standing),
            R"({"player":"p1","seat":-2,"score":"-9223372036854775808","breakdown":[{"points":"-1"}],)"
            R"("tieBreak":["0","9223372036854775807"]})");
}

TEST(FastJsonPrint, LeavesEnumNumbersWithoutANameToProtobuf) {
  v1::Action action;
  action.mutable_atlantis()->mutable_move()->add_cards(static_cast<v1::Atlantis::Item>(99));
  std::string out = "kept";
  EXPECT_FALSE(FastPrintJson(action, out));
  EXPECT_EQ(out, "kept");
  EXPECT_EQ(ToJsonLine(action), R"({"atlantis":{"move":{"cards":[99]}}})");
}

TEST(FastJsonPrint, LeavesTimestampsBytesAndUnknownFieldsToProtobuf) {
  v1::Game game;
  game.set_name("games/g1");
  std::string out;
  EXPECT_TRUE(FastPrintJson(game, out));
  game.mutable_create_time()->set_seconds(1700000000);
  out.clear();
  EXPECT_FALSE(FastPrintJson(game, out));
  EXPECT_EQ(ToJsonLine(game), ToJsonLineWithProtobuf(game));
  EXPECT_THAT(ToJsonLine(game), ::testing::HasSubstr(R"("createTime":"2023-11-14T22:13:20Z")"));

  v1::Event event;
  event.set_payload("\x01\x02");
  EXPECT_FALSE(FastPrintJson(event, out));
  EXPECT_EQ(ToJsonLine(event), R"({"payload":"AQI="})");

  v1::Action action;
  ASSERT_TRUE(action.ParseFromString(std::string("\x0a\x02p1\xa0\x06\x01", 7)));  // field 100 is unknown
  EXPECT_FALSE(FastPrintJson(action, out));
  EXPECT_EQ(ToJsonLine(action), ToJsonLineWithProtobuf(action));
}

TEST(FastJsonPrint, LeavesInvalidUtf8ToProtobuf) {
  v1::Player player;
  player.set_name("bad \xff byte");
  std::string out;
  EXPECT_FALSE(FastPrintJson(player, out));
  EXPECT_TRUE(out.empty());
}

// Lines the fast parser reads itself.
TEST(FastJsonParse, AcceptsWhatProtobufReadsTheSame) {
  const std::vector<std::string> lines = {
      R"({"player":"ann","atlantis":{"move":{"figure":1,"cards":["RING","CROWN"]}}})",
      R"({"player":"ann","atlantis_rising":{"place":{"peninsula":"HILLS","position":2}}})",
      R"({"atlantisRising":{"place":{"peninsula":2}}})",
      R"({"atlantisRising":{"place":{"peninsula":99}}})",
      R"({"atlantisRising":{"place":{"peninsula":-1}}})",
      R"({"atlantisRising":{"place":{"position":"-2147483648"}}})",
      R"({"atlantisRising":{"boost":{"energy":2147483647}}})",
      R"({"atlantisRising":{"place":{"centre":false}}})",
      R"({"atlantisRising":{"keep":{"cards":[]}}})",
      " \t\r\n{ \"player\" : \"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\u2028\\ud83c\\udfb2\\u0000\" ,"
      " \"atlantica\" : { } }\n",
      R"({"atlantica":{"turn":{"actions":[{"place":"PUB","tier":3,"picks":[{"place":"HARBOUR","area":1},{}]}]}}})",
  };
  for (const std::string& line : lines) {
    const auto outcome = ExpectParsersAgree(line, v1::Action());
    EXPECT_TRUE(outcome.fast_accepted) << line;
  }
  const std::vector<std::string> headers = {
      R"({"game":"atlantis","seed":"18446744073709551615","players":[{"id":"a","name":"A"}],)"
      R"("options":{"k":"v","":"\u003c"}})",
      R"({"ruleset_id":"x","ruleset_hash":"00","seed":18446744073709551615})",
      R"({"seed":"0","options":{}})",
  };
  for (const std::string& line : headers) {
    const auto outcome = ExpectParsersAgree(line, v1::LogHeader());
    EXPECT_TRUE(outcome.fast_accepted) << line;
  }
}

// Lines the fast parser leaves to protobuf, which accepts some and refuses others.
TEST(FastJsonParse, GivesUpOnWhatItIsNotSureOf) {
  const std::vector<std::string> lines = {
      "",
      "[]",
      "{",
      R"({"player":null})",
      R"({"player":"a","player":"b"})",
      R"({"player":"a","player":"a"})",
      R"({"player":'a'})",
      R"({player:"a"})",
      R"({"player":"a",})",
      R"({"player":"a"} x)",
      "\v{\"player\":\"a\"}",
      "{\"player\":\"a\tb\"}",
      R"({"player":"\ud800"})",
      R"({"player":"\udc00"})",
      R"({"player":"\ud83c\u0041"})",
      R"({"player":"\v\x"})",
      R"({"pl\u0061yer":"a"})",
      R"({"atlantis":{"pass":{}},"atlantica":{"drawBreath":{}}})",
      R"({"atlantis":{"pass":{}},"atlantis":{"pass":{}}})",
      R"({"atlantisRising":{"place":{"peninsula":"HILLS","centre":true}}})",
      R"({"atlantisRising":{"place":{"peninsula":"hills"}}})",
      R"({"atlantisRising":{"place":{"peninsula":"2"}}})",
      R"({"atlantisRising":{"place":{"position":"+2"}}})",
      R"({"atlantisRising":{"place":{"position":"02"}}})",
      R"({"atlantisRising":{"place":{"position":02}}})",
      R"({"atlantisRising":{"place":{"position":-0}}})",
      R"({"atlantisRising":{"place":{"position":2.0}}})",
      R"({"atlantisRising":{"place":{"position":1e1}}})",
      R"({"atlantisRising":{"place":{"position":2147483648}}})",
      R"({"atlantisRising":{"place":{"position":-2147483649}}})",
      R"({"atlantisRising":{"place":{"position":" 2"}}})",
      R"({"atlantisRising":{"place":{"centre":"true"}}})",
      R"({"atlantisRising":{"place":{"centre":1}}})",
      R"({"atlantisRising":{"keep":{"cards":"a"}}})",
      R"({"atlantisRising":{"keep":{"cards":["a",null]}}})",
      R"({"atlantisRising":{"keep":{"cards":[["a"]]}}})",
      R"({"atlantisRising":{"keep":{"cards":["a",]}}})",
      R"({"atlantis":{"move":{"toll":null}}})",
      R"({"atlantis":null})",
      R"({"atlantis":{"move":{"figure":1,"figgure":1}}})",
  };
  for (const std::string& line : lines) {
    const auto outcome = ExpectParsersAgree(line, v1::Action());
    EXPECT_FALSE(outcome.fast_accepted) << line;
  }
  const std::vector<std::string> headers = {
      R"({"seed":"-1"})",
      R"({"seed":-1})",
      R"({"seed":"18446744073709551616"})",
      R"({"seed":1.5})",
      R"({"options":{"k":"a","k":"b"}})",
      R"({"options":{"k":1}})",
      R"({"options":{"k":null}})",
      R"({"seed":"1","ruleset_id":"a","rulesetId":"b"})",
  };
  for (const std::string& line : headers) {
    const auto outcome = ExpectParsersAgree(line, v1::LogHeader());
    EXPECT_FALSE(outcome.fast_accepted) << line;
  }
}

TEST(FastJsonParse, LeavesTheMessageAsProtobufDoesWhenALineIsRefused) {
  v1::Action action;
  action.set_player("before");
  const absl::Status status = ParseJsonLine(R"({"player":"after","nope":1})", 3, action);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(action.player(), "before");

  v1::Action empty;
  EXPECT_FALSE(ParseJsonLine(R"({"player":"after","nope":1})", 3, empty).ok());
  EXPECT_TRUE(MessageDifferencer::Equals(empty, v1::Action()));
}

TEST(FastJsonParse, ReplacesWhatTheMessageHeldWhenALineIsRead) {
  v1::Action action;
  action.set_player("before");
  action.mutable_atlantica()->mutable_draw_breath();
  ASSERT_TRUE(ParseJsonLine(R"({"atlantis":{"pass":{}}})", 3, action).ok());
  EXPECT_EQ(action.player(), "");
  EXPECT_FALSE(action.has_atlantica());
  EXPECT_TRUE(action.atlantis().has_pass());
}

TEST(FastJsonParse, KeepsProtobufsErrorMessages) {
  v1::Action action;
  const absl::Status status = ParseJsonLine(R"({"player":"ann","atlantis":{"move":{"figgure":1}}})", 3, action);
  EXPECT_EQ(status.message(), "line 3: not a valid Action: (atlantis.move) figgure: Cannot find field.");
}

// CheckUtf8Text skips ASCII eight bytes at a time; a bad byte anywhere is still named.
TEST(CheckUtf8Text, NamesTheFirstBadByteWhereverItIs) {
  for (std::size_t at = 0; at < 40; ++at) {
    std::string text(41, 'a');
    text[at] = '\0';
    EXPECT_EQ(CheckUtf8Text(text, 2).message(),
              absl::StrCat("line 2: byte ", at + 1, " is a NUL byte; a log is UTF-8 text"));
    for (const char* bad : {"\x80", "\xff", "\xc0\xaf", "\xed\xa0\x80", "\xe2\x82"}) {
      text = std::string(41, 'a');
      text.replace(at, std::strlen(bad), bad);
      EXPECT_THAT(std::string(CheckUtf8Text(text, 2).message()),
                  ::testing::StartsWith(absl::StrCat("line 2: byte ", at + 1, " (0x")))
          << "at " << at;
    }
    text = std::string(41, 'a');
    text.replace(at, 4, "\xf0\x9f\x8e\xb2");
    EXPECT_TRUE(CheckUtf8Text(text, 2).ok()) << "at " << at;
  }
}

}  // namespace
}  // namespace arbiter::log
