// The events of a stored game in words (the API's Event.text): an action as
// the engine says it (engine State::Label, replay::Referee::Label) in the
// position before it, any other event as a short sentence.
//
// A label tells only what the action shows every seat plus public facts of
// the position (engine/core/state.h), so the words are the same for every
// caller who may see the game's positions (access::ViewerOf); a caller who
// may not (a voided game read without its seed) gets no words for actions,
// since even public facts of a position come from the seed.
//
// Where the server cannot replay a game, its actions get no words: a sealed
// game before its seed is revealed, a dealt game whose deal is open, and the
// actions after the first one that broke a rule (no position follows it) or
// after one that cannot be replayed.
// Pure functions over an EventStore (which is thread-safe).
#ifndef ARBITER_SERVICES_GAMES_EVENT_WORDS_H_
#define ARBITER_SERVICES_GAMES_EVENT_WORDS_H_

#include <string>

#include "absl/status/status.h"
#include "arbiter/v1/arbiter_service.pb.h"
#include "engine/core/ruleset_registry.h"
#include "services/games/cancel_check.h"
#include "services/store/event_store.h"

namespace arbiter::games {

// A short sentence for an event that is not an action ("the game is
// created for Ann (ann), Bob (bob)", "the game is finished: legal"); empty
// for an action.
std::string EventSentence(const v1::Event& event);

// Sets `text` of `events` (consecutive events of game `game_id`, in order):
// the sentence of every event that is not an action, and, with
// `with_actions`, the words of every action from one replay of the game
// through the last of them. A game that cannot be replayed leaves its
// actions without words (see the top of the file). Errors: Unavailable if
// the store cannot be read, the cancel check's status.
absl::Status AddEventTexts(store::EventStore& store, const engine::RulesetRegistry& registry,
                           const std::string& game_id,
                           google::protobuf::RepeatedPtrField<v1::Event>& events, bool with_actions,
                           const CancelCheck& cancel);

}  // namespace arbiter::games

#endif  // ARBITER_SERVICES_GAMES_EVENT_WORDS_H_
