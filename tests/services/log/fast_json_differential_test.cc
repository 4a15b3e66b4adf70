// The fast JSON codec against protobuf's converter on real log lines: every
// header and action of random games of every registered game and player
// count, printed and read back, then mutated in many small ways (deleted,
// doubled and swapped characters, unknown keys, other enum names, numbers in
// strings and back, whitespace, escapes, nulls, nested junk, truncation).
// Chance comes from engine::Rng with fixed seeds, so failures reproduce.
#include <google/protobuf/util/message_differencer.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/core/game.h"
#include "engine/core/rng.h"
#include "engine/core/ruleset_registry.h"
#include "gtest/gtest.h"
#include "services/log/fast_json.h"
#include "services/log/json_lines.h"
#include "services/log/log_file.h"
#include "services/replay/simulate.h"
#include "tests/services/log/json_reference.h"

namespace arbiter::log {
namespace {

using engine::Rng;
using google::protobuf::Message;
using google::protobuf::util::MessageDifferencer;

constexpr int kPrintSeeds = 100;      // games per player count, printed and read back
constexpr int kMutationSeeds = 20;    // games per player count whose lines are mutated
constexpr int kMutantsPerLine = 6;

const engine::RulesetRegistry& Registry() {
  static const engine::RulesetRegistry* registry =
      new engine::RulesetRegistry(*engine::RulesetRegistry::WithBuiltins());
  return *registry;
}

std::vector<int> PlayerCounts(const engine::Game& game) {
  const auto* ruleset = Registry().DefaultFor(std::string(game.name()));
  std::vector<int> counts;
  for (int n = game.MinPlayers(ruleset->ruleset); n <= game.MaxPlayers(ruleset->ruleset); ++n) counts.push_back(n);
  return counts;
}

GameLog Simulate(const engine::Game& game, int players, uint64_t seed) {
  auto log = replay::SimulateGame({.game = std::string(game.name()), .players = players, .seed = seed}, Registry());
  EXPECT_TRUE(log.ok()) << log.status();
  return log.ok() ? *std::move(log) : GameLog{};
}

// Names that need escaping, for headers.
const std::vector<std::string>& TrickyNames() {
  static const std::vector<std::string>* names = new std::vector<std::string>{
      "Ann", "O'Brien & <Co>", "say \"hi\"\\", "tab\there", "caf\xc3\xa9", "\xf0\x9f\x8e\xb2",
      "a\xe2\x80\xa8" "b", "\x7f\xc2\x85", "x=y", "",
  };
  return *names;
}

// Fast print == protobuf print, and the fast parser reads it back as `message`.
void ExpectSameJson(const Message& message, bool sorted_maps) {
  std::string fast;
  ASSERT_TRUE(FastPrintJson(message, fast)) << message.ShortDebugString();
  ASSERT_EQ(fast, sorted_maps ? testing::ProtobufJson(message) : ToJsonLineWithProtobuf(message));
  std::unique_ptr<Message> parsed(message.New());
  ASSERT_TRUE(FastParseJson(fast, *parsed)) << fast;
  ASSERT_TRUE(MessageDifferencer::Equals(*parsed, message)) << fast;
}

class FastJsonOnSimulatedGames : public ::testing::TestWithParam<const engine::Game*> {};

TEST_P(FastJsonOnSimulatedGames, PrintsAndReadsEveryLineAsProtobufDoes) {
  const engine::Game& game = *GetParam();
  Rng rng(0x5eed);
  int64_t lines = 0;
  for (int players : PlayerCounts(game)) {
    for (uint64_t seed = 1; seed <= kPrintSeeds; ++seed) {
      GameLog log = Simulate(game, players, seed);
      ASSERT_NO_FATAL_FAILURE(ExpectSameJson(log.header, false));
      // The same header with names that need escaping and a few options.
      for (v1::Player& player : *log.header.mutable_players()) {
        player.set_name(TrickyNames()[rng.Uniform(TrickyNames().size())]);
      }
      const uint64_t options = rng.Uniform(4);
      for (uint64_t i = 0; i < options; ++i) {
        (*log.header.mutable_options())[TrickyNames()[rng.Uniform(TrickyNames().size())]] =
            TrickyNames()[rng.Uniform(TrickyNames().size())];
      }
      ASSERT_NO_FATAL_FAILURE(ExpectSameJson(log.header, true));
      for (const v1::Action& action : log.actions) ASSERT_NO_FATAL_FAILURE(ExpectSameJson(action, false));
      lines += 1 + static_cast<int64_t>(log.actions.size());
    }
  }
  EXPECT_GT(lines, kPrintSeeds);
}

// ---- Mutations --------------------------------------------------------------

// Where the JSON string starting at `start` (a quote) ends: one past its
// closing quote, or the end of the text.
std::size_t StringEnd(const std::string& text, std::size_t start) {
  std::size_t i = start + 1;
  while (i < text.size() && text[i] != '"') i += text[i] == '\\' ? 2 : 1;
  return std::min(i + 1, text.size());
}

// Where the value starting at `start` ends (tolerant of broken text).
std::size_t ValueEnd(const std::string& text, std::size_t start) {
  if (start >= text.size()) return text.size();
  if (text[start] == '"') return StringEnd(text, start);
  if (text[start] == '{' || text[start] == '[') {
    int depth = 0;
    for (std::size_t i = start; i < text.size();) {
      if (text[i] == '"') {
        i = StringEnd(text, i);
        continue;
      }
      if (text[i] == '{' || text[i] == '[') ++depth;
      if ((text[i] == '}' || text[i] == ']') && --depth == 0) return i + 1;
      ++i;
    }
    return text.size();
  }
  std::size_t i = start;
  while (i < text.size() && std::string_view(",}] \t\n").find(text[i]) == std::string_view::npos) ++i;
  return i;
}

struct Span {
  std::size_t begin;
  std::size_t end;
};

// The keys (with their quotes) and the values after them.
void FindMembers(const std::string& text, std::vector<Span>& keys, std::vector<Span>& values,
                 std::vector<Span>& strings) {
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] != '"') {
      ++i;
      continue;
    }
    const std::size_t end = StringEnd(text, i);
    strings.push_back({i, end});
    if (end < text.size() && text[end] == ':') {
      keys.push_back({i, end});
      values.push_back({end + 1, ValueEnd(text, end + 1)});
    }
    i = end;
  }
}

template <typename T>
const T& Pick(Rng& rng, const std::vector<T>& items) {
  return items[rng.Uniform(items.size())];
}

std::string Mutate(std::string text, Rng& rng) {
  static const std::vector<std::string> kKeys = {
      "\"x\"", "\"player\"", "\"atlantis\"", "\"atlantica\"", "\"atlantisRising\"", "\"atlantis_rising\"",
      "\"pass\"", "\"move\"", "\"figure\"", "\"cards\"", "\"turn\"", "\"actions\"", "\"drawBreath\"",
      "\"draw_breath\"", "\"place\"", "\"centre\"", "\"buildSite\"", "\"build_site\"", "\"tier\"", "\"seed\"",
      "\"rulesetId\"", "\"ruleset_id\"", "\"options\"", "\"players\"", "\"id\"", "\"name\"", "\"Player\"", "\"\"",
      "player", "'player'", "\"pla\\u0079er\""};
  static const std::vector<std::string> kValues = {
      "null", "{}", "[]", "[null]", "[[]]", "{\"a\":[1,{}]}", "\"\"", "0", "-0", "1", "-1", "\"1\"", "\"-1\"",
      "1.0", "1e2", "01", "\"01\"", "2147483647", "2147483648", "-2147483649", "4294967295", "9223372036854775808",
      "\"18446744073709551615\"", "18446744073709551616", "true", "false", "\"true\"", "\"RING\"", "\"HILLS\"",
      "\"PUB\"", "\"ring\"", "\"PENINSULA_UNSPECIFIED\"", "\"3\"", "[\"RING\",\"FLAG\"]", "[1,2]", "[\"a\"]",
      "{\"k\":\"v\"}", "{\"k\":\"v\",\"k\":\"w\"}", "\"\\u00e9\"", "'x'", "tru", "nul"};
  static const std::vector<std::string> kInserts = {
      " ", "\t", "\n", "\r", "\v", "\f", "\xc2\xa0", "\\u2028", "\\ud83c\\udfb2", "\\ud800", "\\udc00",
      "\\u0000", "\\x", "\\'", "\\/", "\\U0041", "\\u00E9", "\\\\", "\\\"", "\"", "{", "}", "[", "]", ":", ",",
      "0", "-", "a", "\xe2\x80\xa8", "\x01", "\\v"};
  // One change in half the mutants, two or three in the others.
  const int steps = rng.Uniform(2) == 0 ? 1 : 2 + static_cast<int>(rng.Uniform(2));
  for (int step = 0; step < steps && !text.empty(); ++step) {
    std::vector<Span> keys, values, strings;
    FindMembers(text, keys, values, strings);
    const std::size_t at = rng.Uniform(text.size());
    switch (rng.Uniform(13)) {
      case 0:  // delete a character
        text.erase(at, 1);
        break;
      case 1:  // double a character
        text.insert(at, 1, text[at]);
        break;
      case 2:  // swap two neighbours
        if (at + 1 < text.size()) std::swap(text[at], text[at + 1]);
        break;
      case 3:  // another key, known or not
        if (!keys.empty()) {
          const Span key = Pick(rng, keys);
          text.replace(key.begin, key.end - key.begin, Pick(rng, kKeys));
        }
        break;
      case 4:  // another value, of the right type or not
        if (!values.empty()) {
          const Span value = Pick(rng, values);
          text.replace(value.begin, value.end - value.begin, Pick(rng, kValues));
        }
        break;
      case 5:  // a number into a string, or a string's content out of it
        if (!values.empty()) {
          const Span value = Pick(rng, values);
          if (text[value.begin] == '"' && value.end - value.begin >= 2) {
            text.erase(value.end - 1, 1);
            text.erase(value.begin, 1);
          } else if (value.end > value.begin) {
            text.insert(value.end, 1, '"');
            text.insert(value.begin, 1, '"');
          }
        }
        break;
      case 6:  // whitespace, an escape or a stray character anywhere
        text.insert(at, Pick(rng, kInserts));
        break;
      case 7:  // an escape inside a string
        if (!strings.empty()) {
          const Span s = Pick(rng, strings);
          if (s.end - s.begin > 2) {
            const std::size_t pos = s.begin + 1 + rng.Uniform(s.end - s.begin - 2);
            const unsigned char c = static_cast<unsigned char>(text[pos]);
            if (c < 0x80 && c != '\\' && c != '"') {
              char escape[7];
              std::snprintf(escape, sizeof(escape), rng.Uniform(2) == 0 ? "\\u%04x" : "\\u%04X", c);
              text.replace(pos, 1, escape);
            } else {
              text.insert(pos, Pick(rng, kInserts));
            }
          }
        }
        break;
      case 8:  // a member twice
        if (!keys.empty()) {
          const std::size_t i = rng.Uniform(keys.size());
          const std::string member = text.substr(keys[i].begin, values[i].end - keys[i].begin);
          text.insert(values[i].end, "," + member);
        }
        break;
      case 9:  // cut the line short
        text.resize(at);
        break;
      case 10:  // a member more at the start of an object
        if (const std::size_t brace = text.find('{', at); brace != std::string::npos) {
          text.insert(brace + 1, Pick(rng, kKeys) + ":" + Pick(rng, kValues) + ",");
        }
        break;
      case 12:  // whitespace between tokens
        if (const std::size_t after = text.find_first_of(",:{[", at); after != std::string::npos) {
          static const std::vector<std::string> kSpace = {" ", "\t", "\r\n", "  \n "};
          text.insert(after + 1, Pick(rng, kSpace));
        }
        break;
      case 11:  // a value somewhere else
        if (!values.empty()) {
          const Span from = Pick(rng, values);
          const Span to = Pick(rng, values);
          text.replace(to.begin, to.end - to.begin, text.substr(from.begin, from.end - from.begin));
        }
        break;
    }
  }
  return text;
}

struct Tally {
  int64_t mutants = 0;
  int64_t fast_accepted = 0;
  int64_t only_protobuf_accepted = 0;
  int64_t both_refused = 0;

  void Add(const testing::ParseOutcome& outcome) {
    ++mutants;
    fast_accepted += outcome.fast_accepted;
    only_protobuf_accepted += !outcome.fast_accepted && outcome.protobuf_accepted;
    both_refused += !outcome.fast_accepted && !outcome.protobuf_accepted;
  }
};

TEST_P(FastJsonOnSimulatedGames, ReadsMutatedLinesAsProtobufDoes) {
  const engine::Game& game = *GetParam();
  Rng rng(0xfa57);
  Tally tally;
  for (int players : PlayerCounts(game)) {
    for (uint64_t seed = 1; seed <= kMutationSeeds; ++seed) {
      const GameLog log = Simulate(game, players, seed);
      std::vector<std::pair<std::string, const Message*>> lines = {{ToJsonLine(log.header), &log.header}};
      // Every fourth action line, chosen at random.
      for (const v1::Action& action : log.actions) {
        if (rng.Uniform(4) == 0) lines.emplace_back(ToJsonLine(action), &action);
      }
      for (const auto& [line, message] : lines) {
        for (int k = 0; k < kMutantsPerLine; ++k) {
          const std::string mutant = Mutate(line, rng);
          tally.Add(testing::ExpectParsersAgree(mutant, *message));
          if (::testing::Test::HasFailure()) {
            FAIL() << "original line: " << line << "\nmutant:        " << mutant;
          }
        }
      }
    }
  }
  // The mutations reach both sides of the fast parser.
  EXPECT_GT(tally.fast_accepted, tally.mutants / 20) << tally.mutants << " mutants";
  EXPECT_GT(tally.only_protobuf_accepted, tally.mutants / 20) << tally.mutants << " mutants";
  EXPECT_GT(tally.both_refused, tally.mutants / 2) << tally.mutants << " mutants";
}

INSTANTIATE_TEST_SUITE_P(AllGames, FastJsonOnSimulatedGames, ::testing::ValuesIn(engine::AllGames()),
                         [](const ::testing::TestParamInfo<const engine::Game*>& param) {
                           std::string name(param.param->name());
                           for (char& c : name) {
                             if (c == '-') c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace arbiter::log
