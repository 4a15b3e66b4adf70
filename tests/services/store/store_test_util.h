// Helpers shared by the event store tests: requests that read as a story.
#ifndef ARBITER_TESTS_SERVICES_STORE_STORE_TEST_UTIL_H_
#define ARBITER_TESTS_SERVICES_STORE_STORE_TEST_UTIL_H_

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/core/sha256.h"
#include "services/store/event_store.h"

namespace arbiter::store::testing {

inline GameRecord AtlanticaGame(const std::string& game_id) {
  GameRecord game;
  game.game_id = game_id;
  game.game = "atlantica";
  game.ruleset_id = "standard";
  game.ruleset_hash = engine::Sha256Hex("standard ruleset");
  game.seed = 42;
  game.players = {"ana", "ben", "cy"};
  game.created_by = "organiser";
  return game;
}

inline CreateGameRequest CreateRequest(const std::string& game_id) {
  return CreateGameRequest{absl::StrCat("create-", game_id), AtlanticaGame(game_id), {}, {}};
}

// `count` events with ids "<tag>-<i>" and distinct payloads.
inline std::vector<NewEvent> Events(const std::string& tag, int count) {
  std::vector<NewEvent> events;
  for (int i = 0; i < count; ++i) {
    NewEvent event;
    event.event_id = absl::StrCat(tag, "-", i);
    event.type = "action";
    event.payload = absl::StrCat("payload of ", tag, " #", i, std::string(1, '\0'), "\xff");
    event.json = absl::StrCat("{\"n\": ", i, "}");
    events.push_back(event);
  }
  return events;
}

inline AppendRequest Append(const std::string& game_id, int64_t expected,
                            const std::string& request_id, std::vector<NewEvent> events) {
  AppendRequest request;
  request.game_id = game_id;
  request.expected_sequence = expected;
  request.request_id = request_id;
  request.recorded_by = "referee";
  request.events = std::move(events);
  return request;
}

}  // namespace arbiter::store::testing

#endif  // ARBITER_TESTS_SERVICES_STORE_STORE_TEST_UTIL_H_
