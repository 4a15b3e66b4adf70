// Atlantis Rising: random legal playouts end, agree with Check and replay
// identically from the log.
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <set>

#include "engine/atlantis_rising/game.h"
#include "engine/core/rng.h"
#include "tests/engine/atlantis_rising/position_builder.h"

namespace arbiter::engine::atlantis_rising {
namespace {

using testing::Table;

struct Played {
  std::vector<Move> log;
  std::string final_text;
  v1::Standings standings;
};

// Plays random legal actions (chosen by a generator separate from the game's)
// until the game ends. With `check_all`, every listed action must pass Check.
Played PlayOut(int players, uint64_t seed, bool check_all) {
  Table table(players, seed);
  Rng chooser(seed ^ 0x5eed);
  Played played;
  for (int step = 0; step < 20000 && !table.state().IsTerminal(); ++step) {
    const std::vector<Move> moves = table.state().LegalActions();
    EXPECT_FALSE(moves.empty()) << table.state().ToString();
    if (moves.empty()) break;
    if (check_all) {
      for (const Move& move : moves) {
        auto violation = table.state().Check(move.seat, move.action);
        EXPECT_FALSE(violation.has_value()) << violation->rule << " " << move.action.DebugString();
        EXPECT_EQ(table.state().Canonical(move.seat, move.action).DebugString(), move.action.DebugString());
      }
      const std::vector<Seat> seats = table.state().SeatsToAct();
      std::set<Seat> listed;
      for (const Move& move : moves) listed.insert(move.seat);
      EXPECT_EQ(std::set<Seat>(seats.begin(), seats.end()), listed) << table.state().ToString();
    }
    const Move& move = moves[static_cast<std::size_t>(chooser.Uniform(moves.size()))];
    auto violation = table.state().Apply(move.seat, move.action);
    EXPECT_FALSE(violation.has_value()) << violation->rule << ": " << violation->detail;
    played.log.push_back(move);
  }
  EXPECT_TRUE(table.state().IsTerminal()) << "game did not end: " << table.state().ToString();
  EXPECT_TRUE(table.state().SeatsToAct().empty());
  auto standings = table.state().Final();
  EXPECT_TRUE(standings.has_value());
  if (standings) played.standings = *standings;
  played.final_text = table.state().ToString();
  return played;
}

TEST(AtlantisRisingPlayout, RandomGamesEndForEveryPlayerCount) {
  for (int players = 1; players <= 7; ++players) {
    for (uint64_t seed = 1; seed <= 30; ++seed) {
      Played played = PlayOut(players, seed, /*check_all=*/seed <= 15);
      EXPECT_TRUE(played.standings.cooperative());
      EXPECT_NE(played.standings.team_outcome(), v1::TEAM_OUTCOME_UNSPECIFIED);
      ASSERT_EQ(played.standings.players_size(), players);
      for (const auto& line : played.standings.players()) EXPECT_EQ(line.place(), 1);
    }
  }
}

TEST(AtlantisRisingPlayout, ReplayingTheLogGivesTheSameGame) {
  for (int players : {1, 4, 7}) {
    Played played = PlayOut(players, 77, false);
    Table replay(players, 77);
    for (const Move& move : played.log) {
      ASSERT_FALSE(replay.state().Apply(move.seat, move.action).has_value());
    }
    EXPECT_EQ(replay.state().ToString(), played.final_text);
    EXPECT_EQ(replay.state().Final()->DebugString(), played.standings.DebugString());
  }
}

TEST(AtlantisRisingPlayout, EveryListedActionPassesCheckShape) {
  Table table(4, 5);
  Rng chooser(9);
  for (int step = 0; step < 400 && !table.state().IsTerminal(); ++step) {
    const auto moves = table.state().LegalActions();
    for (const Move& move : moves) {
      EXPECT_TRUE(AtlantisRisingGame().CheckShape(move.action, testing::DefaultRuleset()).ok());
    }
    const Move& move = moves[static_cast<std::size_t>(chooser.Uniform(moves.size()))];
    ASSERT_FALSE(table.state().Apply(move.seat, move.action).has_value());
  }
}

// Changes one field of a copy of `action` (numbers by one or to a small
// value, enums to another number, ids to another id of the ruleset).
v1::Action Mutate(const v1::Action& action, Rng& rng, const std::vector<std::string>& ids) {
  v1::Action mutated = action;
  std::vector<std::pair<google::protobuf::Message*, const google::protobuf::FieldDescriptor*>> fields;
  std::vector<google::protobuf::Message*> stack = {mutated.mutable_atlantis_rising()};
  while (!stack.empty()) {
    google::protobuf::Message* message = stack.back();
    stack.pop_back();
    const auto* reflection = message->GetReflection();
    std::vector<const google::protobuf::FieldDescriptor*> set;
    reflection->ListFields(*message, &set);
    // Unset fields of the same message may be set too.
    const auto* descriptor = message->GetDescriptor();
    for (int i = 0; i < descriptor->field_count(); ++i) {
      const auto* field = descriptor->field(i);
      if (field->cpp_type() == google::protobuf::FieldDescriptor::CPPTYPE_MESSAGE) {
        if (!field->is_repeated() && reflection->HasField(*message, field)) {
          stack.push_back(reflection->MutableMessage(message, field));
        }
      } else {
        fields.emplace_back(message, field);
      }
    }
  }
  if (fields.empty()) return mutated;
  auto [message, field] = fields[static_cast<std::size_t>(rng.Uniform(fields.size()))];
  const auto* reflection = message->GetReflection();
  if (field->is_repeated()) {
    if (field->cpp_type() == google::protobuf::FieldDescriptor::CPPTYPE_STRING) {
      if (reflection->FieldSize(*message, field) > 1 && rng.Uniform(2) == 0) {
        reflection->SwapElements(message, field, 0, 1);
      } else {
        reflection->AddString(message, field, ids[static_cast<std::size_t>(rng.Uniform(ids.size()))]);
      }
    }
    return mutated;
  }
  switch (field->cpp_type()) {
    case google::protobuf::FieldDescriptor::CPPTYPE_INT32: {
      const int32_t v = reflection->GetInt32(*message, field);
      const int choice = static_cast<int>(rng.Uniform(3));
      reflection->SetInt32(message, field, choice == 0 ? v + 1 : choice == 1 ? v - 1 : static_cast<int32_t>(rng.Uniform(8)));
      break;
    }
    case google::protobuf::FieldDescriptor::CPPTYPE_ENUM:
      reflection->SetEnumValue(message, field, static_cast<int>(rng.Uniform(8)));
      break;
    case google::protobuf::FieldDescriptor::CPPTYPE_STRING:
      reflection->SetString(message, field, ids[static_cast<std::size_t>(rng.Uniform(ids.size()))]);
      break;
    default:
      break;
  }
  return mutated;
}

TEST(AtlantisRisingPlayout, AcceptedMutationsCanonicaliseIntoTheLegalList) {
  const Rules& rules = testing::DefaultRuleset().atlantis_rising();
  std::vector<std::string> ids;
  for (const auto& card : rules.library_cards()) ids.push_back(card.id());
  for (const auto& component : rules.components()) ids.push_back(component.id());
  int accepted = 0;
  for (int players : {1, 3, 7}) {
    for (uint64_t seed = 1; seed <= 15; ++seed) {
      Table table(players, seed);
      Rng chooser(seed + 1000);
      while (!table.state().IsTerminal()) {
        const auto moves = table.state().LegalActions();
        std::set<std::pair<Seat, std::string>> listed;
        for (const Move& move : moves) listed.emplace(move.seat, move.action.SerializeAsString());
        for (int k = 0; k < 4; ++k) {
          const Move& base = moves[static_cast<std::size_t>(chooser.Uniform(moves.size()))];
          v1::Action mutated = Mutate(base.action, chooser, ids);
          const Seat seat = chooser.Uniform(4) == 0 ? static_cast<Seat>(chooser.Uniform(static_cast<uint64_t>(players))) : base.seat;
          if (!AtlantisRisingGame().CheckShape(mutated, testing::DefaultRuleset()).ok()) {
            auto refused = table.state().Check(seat, mutated);
            ASSERT_TRUE(refused.has_value());
            EXPECT_EQ(refused->rule, "malformed_action");
            continue;
          }
          if (table.state().Check(seat, mutated).has_value()) continue;
          ++accepted;
          const v1::Action canonical = table.state().Canonical(seat, mutated);
          EXPECT_TRUE(listed.count({seat, canonical.SerializeAsString()}))
              << "seat " << seat + 1 << " " << mutated.ShortDebugString() << "\n" << table.state().ToString();
        }
        const Move& move = moves[static_cast<std::size_t>(chooser.Uniform(moves.size()))];
        ASSERT_FALSE(table.state().Apply(move.seat, move.action).has_value());
      }
    }
  }
  EXPECT_GT(accepted, 100);
}

TEST(AtlantisRisingPlayout, ActionsUseShortEnumNamesInJson) {
  v1::Action action = testing::FloodAction(v1::AtlantisRising::HILLS);
  std::string json;
  ASSERT_TRUE(google::protobuf::util::MessageToJsonString(action, &json).ok());
  EXPECT_EQ(json, R"({"atlantisRising":{"flood":{"peninsula":"HILLS"}}})");
  v1::Action parsed;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(json, &parsed).ok());
  EXPECT_EQ(parsed.SerializeAsString(), action.SerializeAsString());
}

}  // namespace
}  // namespace arbiter::engine::atlantis_rising
