// The log line encoding of every game, pinned: a header and every kind of
// action of Atlantis, Atlantica and Atlantis Rising, written by hand as the
// exact bytes of a line (docs/log-format.md) next to the same message in
// protobuf text format. Each line must be what Arbiter writes for the message,
// what protobuf's own JSON printer writes, and must read back as the message.
// The actions are fixed, not played: these tests pin the format, not the rules.
#include <google/protobuf/text_format.h>
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <string>

#include "services/log/json_lines.h"
#include "services/log/log_file.h"

namespace arbiter::log {
namespace {

struct PinnedLine {
  const char* text_proto;  // the message, in protobuf text format
  const char* line;        // its log line, byte for byte (without "\n")
};

template <typename Message>
Message FromTextProto(const char* text) {
  Message message;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &message)) << text;
  return message;
}

void ExpectActionLinesPinned(const std::vector<PinnedLine>& pinned) {
  for (const PinnedLine& p : pinned) {
    SCOPED_TRACE(p.line);
    const v1::Action action = FromTextProto<v1::Action>(p.text_proto);
    EXPECT_EQ(FormatActionLine(action), std::string(p.line) + "\n");
    EXPECT_EQ(ToJsonLineWithProtobuf(action), p.line);
    absl::StatusOr<v1::Action> read = ParseActionLine(p.line, 2);
    ASSERT_TRUE(read.ok()) << read.status();
    EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(*read, action))
        << read->ShortDebugString();
  }
}

void ExpectHeaderLinePinned(const PinnedLine& p, bool protobuf_writes_the_same = true) {
  SCOPED_TRACE(p.line);
  const v1::LogHeader header = FromTextProto<v1::LogHeader>(p.text_proto);
  EXPECT_EQ(FormatHeaderLine(header), std::string(p.line) + "\n");
  if (protobuf_writes_the_same) {
    EXPECT_EQ(ToJsonLineWithProtobuf(header), p.line);
  }
  absl::StatusOr<v1::LogHeader> read = ParseHeaderLine(p.line, 1);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(*read, header))
      << read->ShortDebugString();
}

TEST(LogLineFormat, AtlantisHeaderIsPinned) {
  ExpectHeaderLinePinned(
      {R"pb(game: "atlantis" ruleset_id: "atlantis-amigo-2009"
            ruleset_hash: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
            seed: 42 players { id: "ann" name: "Ann" } players { id: "bob" name: "Bob" }
            options { key: "toll_payment" value: "tiles_or_cards" })pb",
       R"({"game":"atlantis","rulesetId":"atlantis-amigo-2009","rulesetHash":"0123456789abcdef)"
       R"(0123456789abcdef0123456789abcdef0123456789abcdef","seed":"42","players":[{"id":"ann",)"
       R"("name":"Ann"},{"id":"bob","name":"Bob"}],"options":{"toll_payment":"tiles_or_cards"}})"});
}

TEST(LogLineFormat, AtlanticaHeaderWritesTheLargestSeedAsADecimalString) {
  ExpectHeaderLinePinned(
      {R"pb(game: "atlantica" ruleset_id: "atlantica-piatnik-2018"
            ruleset_hash: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
            seed: 18446744073709551615 players { id: "p1" name: "Zoë" } players { id: "p2" })pb",
       R"({"game":"atlantica","rulesetId":"atlantica-piatnik-2018","rulesetHash":"0123456789abcdef)"
       R"(0123456789abcdef0123456789abcdef0123456789abcdef","seed":"18446744073709551615",)"
       R"("players":[{"id":"p1","name":"Zoë"},{"id":"p2"}]})"});
}

TEST(LogLineFormat, AtlantisRisingHeaderWritesOptionsInSortedKeyOrder) {
  // With two keys protobuf's printer may write either order; Arbiter sorts.
  ExpectHeaderLinePinned(
      {R"pb(game: "atlantis-rising" ruleset_id: "atlantis-rising-elf-creek-2019"
            ruleset_hash: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
            seed: 0 players { id: "solo" name: "Solo" }
            options { key: "z" value: "1" } options { key: "blueprint" value: "hard" })pb",
       R"({"game":"atlantis-rising","rulesetId":"atlantis-rising-elf-creek-2019","rulesetHash":)"
       R"("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef","players":[{"id":)"
       R"("solo","name":"Solo"}],"options":{"blueprint":"hard","z":"1"}})"},
      /*protobuf_writes_the_same=*/false);
}

TEST(LogLineFormat, EveryAtlantisActionIsPinned) {
  ExpectActionLinesPinned({
      {R"pb(player: "ann" atlantis { move { figure: 1 cards: RING } })pb",
       R"({"player":"ann","atlantis":{"move":{"figure":1,"cards":["RING"]}}})"},
      {R"pb(player: "bob" atlantis { move { figure: 3 cards: [ FLAG, OLIVE ]
              toll { tiles { item: HELMET value: 4 } cards: [ AMPHORA, STATUE ] } } })pb",
       R"({"player":"bob","atlantis":{"move":{"figure":3,"cards":["FLAG","OLIVE"],"toll":{"tiles":)"
       R"([{"item":"HELMET","value":4}],"cards":["AMPHORA","STATUE"]}}}})"},
      {R"pb(player: "bob" atlantis { buy { tile { item: CROWN value: 5 } } })pb",
       R"({"player":"bob","atlantis":{"buy":{"tile":{"item":"CROWN","value":5}}}})"},
      {R"pb(player: "ann" atlantis { bridge { position: 17 } })pb",
       R"({"player":"ann","atlantis":{"bridge":{"position":17}}})"},
      {R"pb(player: "ann" atlantis { pass {} })pb", R"({"player":"ann","atlantis":{"pass":{}}})"},
  });
}

TEST(LogLineFormat, EveryAtlanticaActionIsPinned) {
  ExpectActionLinesPinned({
      {R"pb(player: "p1" atlantica { turn {
              actions { place: DIVING_BOAT divers: [ WHITE, YELLOW ] areas: [ 2, 5 ] }
              actions { place: HARBOUR tier: 2 divers: RED joker: [ GREEN, BLUE ] }
              actions { place: PUB divers: PURPLE
                        picks { place: RESEARCH_STATION area: 3 } picks { place: HARBOUR area: 1 } }
            } })pb",
       R"({"player":"p1","atlantica":{"turn":{"actions":[{"place":"DIVING_BOAT","divers":["WHITE",)"
       R"("YELLOW"],"areas":[2,5]},{"place":"HARBOUR","tier":2,"divers":["RED"],"joker":["GREEN",)"
       R"("BLUE"]},{"place":"PUB","divers":["PURPLE"],"picks":[{"place":"RESEARCH_STATION","area":3},)"
       R"({"place":"HARBOUR","area":1}]}]}}})"},
      {R"pb(player: "p2" atlantica { draw_breath {} })pb",
       R"({"player":"p2","atlantica":{"drawBreath":{}}})"},
  });
}

TEST(LogLineFormat, EveryAtlantisRisingActionIsPinned) {
  ExpectActionLinesPinned({
      {R"pb(player: "a" atlantis_rising { place { peninsula: FORGES position: 2 } })pb",
       R"({"player":"a","atlantisRising":{"place":{"peninsula":"FORGES","position":2}}})"},
      {R"pb(player: "a" atlantis_rising { place { centre: true } })pb",
       R"({"player":"a","atlantisRising":{"place":{"centre":true}}})"},
      {R"pb(player: "a" atlantis_rising { place { build_site: 3 } })pb",
       R"({"player":"a","atlantisRising":{"place":{"buildSite":3}}})"},
      {R"pb(player: "a" atlantis_rising { place { component: "gate" } })pb",
       R"({"player":"a","atlantisRising":{"place":{"component":"gate"}}})"},
      {R"pb(player: "a" atlantis_rising { finish_placement {} })pb",
       R"({"player":"a","atlantisRising":{"finishPlacement":{}}})"},
      {R"pb(player: "a" atlantis_rising { flood { peninsula: MOUNTAINS } })pb",
       R"({"player":"a","atlantisRising":{"flood":{"peninsula":"MOUNTAINS"}}})"},
      {R"pb(player: "a" atlantis_rising { act { peninsula: HILLS position: 1 resource: GOLD } })pb",
       R"({"player":"a","atlantisRising":{"act":{"peninsula":"HILLS","position":1,"resource":"GOLD"}}})"},
      {R"pb(player: "a" atlantis_rising { act { centre: true resource: ATLANTIUM } })pb",
       R"({"player":"a","atlantisRising":{"act":{"centre":true,"resource":"ATLANTIUM"}}})"},
      {R"pb(player: "a" atlantis_rising { act { build_site: 2 } })pb",
       R"({"player":"a","atlantisRising":{"act":{"buildSite":2}}})"},
      {R"pb(player: "a" atlantis_rising { act { component: "lens" } })pb",
       R"({"player":"a","atlantisRising":{"act":{"component":"lens"}}})"},
      {R"pb(player: "a" atlantis_rising { boost { energy: 2 } })pb",
       R"({"player":"a","atlantisRising":{"boost":{"energy":2}}})"},
      {R"pb(player: "a" atlantis_rising { keep { cards: [ "c1", "c7" ] } })pb",
       R"({"player":"a","atlantisRising":{"keep":{"cards":["c1","c7"]}}})"},
      {R"pb(player: "a" atlantis_rising { pledge { build_site: 1 resource: CRYSTAL } })pb",
       R"({"player":"a","atlantisRising":{"pledge":{"buildSite":1,"resource":"CRYSTAL"}}})"},
      {R"pb(player: "a" atlantis_rising { build { build_site: 4 component: "dome" } })pb",
       R"({"player":"a","atlantisRising":{"build":{"buildSite":4,"component":"dome"}}})"},
      {R"pb(player: "a" atlantis_rising { abandon { build_site: 5 } })pb",
       R"({"player":"a","atlantisRising":{"abandon":{"buildSite":5}}})"},
      {R"pb(player: "a" atlantis_rising { play { card: "c3" resource: ORE peninsula: CITIES } })pb",
       R"({"player":"a","atlantisRising":{"play":{"card":"c3","resource":"ORE","peninsula":"CITIES"}}})"},
      {R"pb(player: "a" atlantis_rising { discard { card: "c4" } })pb",
       R"({"player":"a","atlantisRising":{"discard":{"card":"c4"}}})"},
      {R"pb(player: "a" atlantis_rising { place { peninsula: LIBRARIES position: 0 } })pb",
       R"({"player":"a","atlantisRising":{"place":{"peninsula":"LIBRARIES"}}})"},
  });
}

TEST(LogLineFormat, AWholeLogIsTheHeaderLineAndOneLinePerActionEachEndingInANewline) {
  GameLog game;
  game.header = FromTextProto<v1::LogHeader>(
      R"pb(game: "atlantis" ruleset_id: "r" ruleset_hash: "h" seed: 7 players { id: "ann" })pb");
  game.actions.push_back(FromTextProto<v1::Action>(R"pb(player: "ann" atlantis { pass {} })pb"));
  EXPECT_EQ(FormatLog(game),
            "{\"game\":\"atlantis\",\"rulesetId\":\"r\",\"rulesetHash\":\"h\",\"seed\":\"7\","
            "\"players\":[{\"id\":\"ann\"}]}\n"
            "{\"player\":\"ann\",\"atlantis\":{\"pass\":{}}}\n");
}

}  // namespace
}  // namespace arbiter::log
