// The key of a played game: what makes two submitted logs the same game.
//
// Two logs record the same played game when they name the same game, ruleset
// (by its hash), seed, variant options and players in seat order, and list the
// same actions: display names and the ruleset's id do not count, so renaming a
// player or the ruleset does not make a new game. The store keeps the key of
// every submitted game and refuses a second game with the same key
// (store::CreateGameRequest::played_key), so that one game played is never
// stored, or rated, twice. Pure and thread-safe.
#ifndef ARBITER_SERVICES_GAMES_PLAYED_GAME_H_
#define ARBITER_SERVICES_GAMES_PLAYED_GAME_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "arbiter/v1/action.pb.h"
#include "arbiter/v1/log.pb.h"

namespace arbiter::games {

// 64 lowercase hex digits: the SHA-256 of "arbiter-played-game-v1", then each
// of game, ruleset hash, seed (decimal), every option (key, value) in key
// order, every player id in seat order and every action's deterministic
// protobuf bytes, each as its length in decimal, ':', the bytes, ';'.
std::string PlayedGameKey(const v1::LogHeader& header, const std::vector<v1::Action>& actions);

// ALREADY_EXISTS (reason DUPLICATE_GAME, metadata "game") for a submitted
// log that repeats `existing`, saying how to store it anyway.
absl::Status DuplicateOf(const std::string& existing);

}  // namespace arbiter::games

#endif  // ARBITER_SERVICES_GAMES_PLAYED_GAME_H_
