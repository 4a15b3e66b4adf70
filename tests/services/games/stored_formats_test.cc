// The stored byte formats, pinned to fixed values computed outside the C++
// code: the event hash input and output (services/store/event_hash.h), event
// ids and event payloads (services/games/game_events.h). Every expected hex
// string below is printed by docs/event_hash_reference.py, which encodes the
// bytes by hand with Python's standard library. If one of these tests fails,
// a stored format changed: old games would no longer verify.
#include <gtest/gtest.h>

#include <string>

#include "absl/strings/escaping.h"
#include "services/games/game_events.h"
#include "services/store/event_hash.h"
#include "services/store/memory_event_store.h"

namespace arbiter::server {
namespace {

std::string Hex(const std::string& bytes) { return absl::BytesToHexString(bytes); }

TEST(EventHashFormat, TheGenesisHashIsSixtyFourZeros) {
  EXPECT_EQ(store::GenesisHash(), std::string(64, '0'));
}

TEST(EventHashFormat, HashInputAndHashMatchThePythonReference) {
  const std::string payload("\x00\x01payload", 9);
  EXPECT_EQ(Hex(store::EventHashInput(store::GenesisHash(), 1, "g1", "e-1", "game_created", payload)),
            "617262697465722d6576656e742d763100"
            "30303030303030303030303030303030303030303030303030303030303030303030303030303030"
            "303030303030303030303030303030303030303030303030"
            "0000000000000001"
            "00000002" "6731"
            "00000003" "652d31"
            "0000000c" "67616d655f63726561746564"
            "0000000000000009" "00017061796c6f6164");
  EXPECT_EQ(store::EventHash(store::GenesisHash(), 1, "g1", "e-1", "game_created", payload),
            "27494e0ded816cf8d0c0c164d2e62ab4fc3547338b015869d8abd6d17b88e857");
}

TEST(EventHashFormat, WidthsAreBigEndianAndLengthsCountUtf8Bytes) {
  std::string prev;
  for (int i = 0; i < 32; ++i) prev += "ab";
  EXPECT_EQ(Hex(store::EventHashInput(prev, 0x0102030405060708, "g\xc3\xa4me", "", "action", "")),
            "617262697465722d6576656e742d763100"
            "61626162616261626162616261626162616261626162616261626162616261626162616261626162"
            "616261626162616261626162616261626162616261626162"
            "0102030405060708"
            "00000005" "67c3a46d65"
            "00000000"
            "00000006" "616374696f6e"
            "0000000000000000");
  EXPECT_EQ(store::EventHash(prev, 0x0102030405060708, "g\xc3\xa4me", "", "action", ""),
            "3134697a50a3b6a723ac930ec96ac51dffa5eabd79c7a0da5a4593d8e9c8fb27");
}

TEST(EventIdFormat, IsThirtyTwoHexDigitsOfTheGameIdsHashAndTheNumber) {
  EXPECT_EQ(games::EventId("final-1", 2), "c86a25e4ea5f5dee29de8f05aa3b9d76-2");
  // The id's prefix is cached per thread: another game in between changes nothing.
  EXPECT_EQ(games::EventId("other", 1), "d9298a10d1b0735837dc4bd85dac641b-1");
  EXPECT_EQ(games::EventId("final-1", 3), "c86a25e4ea5f5dee29de8f05aa3b9d76-3");
}

// The reference's three-event game "final-1": created, a move, a pass.
v1::GameCreated FinalOneCreated() {
  v1::GameCreated created;
  v1::LogHeader& header = *created.mutable_header();
  header.set_game("atlantis");
  header.set_ruleset_id("atlantis-amigo-2009");
  header.set_ruleset_hash(std::string(64, 'c'));
  header.set_seed(42);
  v1::Player* ann = header.add_players();
  ann->set_id("ann");
  ann->set_name("Ann");
  v1::Player* bob = header.add_players();
  bob->set_id("bob");
  bob->set_name("Bob");
  (*header.mutable_options())["toll_payment"] = "tiles_or_cards";
  return created;
}

v1::Action FinalOneMove() {
  v1::Action action;
  action.set_player("ann");
  v1::AtlantisAction::Move* move = action.mutable_atlantis()->mutable_move();
  move->set_figure(1);
  move->add_cards(v1::Atlantis::RING);
  move->add_cards(v1::Atlantis::CROWN);
  return action;
}

v1::Action FinalOnePass() {
  v1::Action action;
  action.set_player("bob");
  action.mutable_atlantis()->mutable_pass();
  return action;
}

constexpr char kCreatedPayload[] =
    "0a9b010a0861746c616e746973121361746c616e7469732d616d69676f2d323030391a40636363636363636363"
    "636363636363636363636363636363636363636363636363636363636363636363636363636363636363636363"
    "63636363636363636363202a2a0a0a03616e6e1203416e6e2a0a0a03626f621203426f62321e0a0c746f6c6c5f"
    "7061796d656e74120e74696c65735f6f725f6361726473";
constexpr char kMovePayload[] = "0a03616e6e52081a06080112020507";
constexpr char kPassPayload[] = "0a03626f6252022200";
constexpr char kHashes[3][65] = {
    "96f946bf26d8515564df0ff7f0dd344b83bd7cf9e1eba163b9b405709c61de11",
    "f38d8515aca3ec4ee5f4e9ebd163701ea9c53e7e07a4cce37c8a299253781f84",
    "5755f703a153062776ef69553dec9157966510ed917464c4ca9c7d739a2e5d22",
};

TEST(EventPayloadFormat, GameCreatedActionAndSeedRevealedAreDeterministicProtobuf) {
  absl::StatusOr<store::NewEvent> created = games::EncodeCreated("final-1", FinalOneCreated());
  ASSERT_TRUE(created.ok()) << created.status();
  EXPECT_EQ(created->type, "game_created");
  EXPECT_EQ(created->event_id, "c86a25e4ea5f5dee29de8f05aa3b9d76-1");
  EXPECT_EQ(Hex(created->payload), kCreatedPayload);

  absl::StatusOr<store::NewEvent> move = games::EncodeAction("final-1", 2, FinalOneMove());
  ASSERT_TRUE(move.ok()) << move.status();
  EXPECT_EQ(move->type, "action");
  EXPECT_EQ(Hex(move->payload), kMovePayload);
  EXPECT_EQ(Hex(games::EncodeAction("final-1", 3, FinalOnePass())->payload), kPassPayload);

  v1::SeedRevealed revealed;
  revealed.set_seed(42);
  revealed.set_nonce("00112233445566778899aabbccddeeff");
  absl::StatusOr<store::NewEvent> reveal = games::EncodeSeedRevealed("final-1", 4, revealed);
  ASSERT_TRUE(reveal.ok()) << reveal.status();
  EXPECT_EQ(reveal->type, "seed_revealed");
  EXPECT_EQ(Hex(reveal->payload),
            "082a12203030313132323333343435353636373738383939616162626363646465656666");
}

TEST(EventHashFormat, TheStoreChainsAGameAsTheReferenceDoes) {
  store::MemoryEventStore memory;
  store::CreateGameRequest request;
  request.request_id = "create-final-1";
  request.game.game_id = "final-1";
  request.game.game = "atlantis";
  request.game.ruleset_id = "atlantis-amigo-2009";
  request.game.ruleset_hash = std::string(64, 'c');
  request.game.seed = 42;
  request.game.players = {"ann", "bob"};
  request.game.created_by = "admin";
  request.events = {*games::EncodeCreated("final-1", FinalOneCreated()),
                    *games::EncodeAction("final-1", 2, FinalOneMove()),
                    *games::EncodeAction("final-1", 3, FinalOnePass())};
  absl::StatusOr<store::GameRecord> game = memory.CreateGame(request);
  ASSERT_TRUE(game.ok()) << game.status();
  EXPECT_EQ(game->last_hash, kHashes[2]);
  absl::StatusOr<std::vector<store::StoredEvent>> events = memory.ReadGameEvents("final-1", 0, 10);
  ASSERT_TRUE(events.ok()) << events.status();
  ASSERT_EQ(events->size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ((*events)[i].prev_hash, i == 0 ? store::GenesisHash() : kHashes[i - 1]) << i;
    EXPECT_EQ((*events)[i].hash, kHashes[i]) << i;
  }
}

}  // namespace
}  // namespace arbiter::server
