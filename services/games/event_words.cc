#include "services/games/event_words.h"

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/core/players.h"
#include "services/games/game_stream.h"

namespace arbiter::games {
namespace {

// The replay's errors that leave the actions without words rather than fail
// the read: a game the server cannot replay (yet) or a damaged one, which
// VerifyGame reports.
bool LeavesNoWords(const absl::Status& status) {
  return absl::IsFailedPrecondition(status) || absl::IsDataLoss(status) || absl::IsNotFound(status);
}

}  // namespace

std::string EventSentence(const v1::Event& event) {
  switch (event.body_case()) {
    case v1::Event::kGameCreated: {
      // The players named as the engine names them in a label.
      std::vector<engine::PlayerName> names;
      for (const v1::Player& player : event.game_created().header().players()) {
        names.push_back({player.id(), player.name()});
      }
      const engine::Players players(std::move(names));
      std::vector<std::string> who;
      for (int seat = 0; seat < event.game_created().header().players_size(); ++seat) who.push_back(players.Who(seat));
      return absl::StrCat("the game of ", event.game_created().header().game(), " is created for ",
                          absl::StrJoin(who, ", "));
    }
    case v1::Event::kSeedRevealed:
      return "the seed is revealed";
    case v1::Event::kSeatValue:
      return absl::StrCat(event.seat_value().player(), " adds a value to the deal");
    case v1::Event::kDealClosed:
      return "the deal is closed";
    case v1::Event::kDealerRevealed:
      return "the dealer's secret is revealed";
    case v1::Event::kGameFinished:
      return event.game_finished().verdict() == v1::VERDICT_ILLEGAL ? "the game is finished: a rule was broken"
                                                                     : "the game is finished";
    case v1::Event::kGameVoided:
      return "the game is voided";
    case v1::Event::kAction:
    case v1::Event::BODY_NOT_SET:
      break;
  }
  return "";
}

absl::Status AddEventTexts(store::EventStore& store, const engine::RulesetRegistry& registry,
                           const std::string& game_id,
                           google::protobuf::RepeatedPtrField<v1::Event>& events, bool with_actions,
                           const CancelCheck& cancel) {
  int64_t first_action = 0, last_action = 0;
  for (v1::Event& event : events) {
    if (!event.has_action()) {
      event.set_text(EventSentence(event));
      continue;
    }
    if (first_action == 0) first_action = event.event();
    last_action = event.event();
  }
  if (!with_actions || last_action == 0) return absl::OkStatus();
  absl::StatusOr<OpenedGame> game = OpenGame(store, game_id);
  if (!game.ok()) return LeavesNoWords(game.status()) ? absl::OkStatus() : game.status();
  std::map<int64_t, std::string> words;
  const absl::StatusOr<replay::Referee> judged = JudgeStored(
      store, registry, *game, last_action, cancel,
      [&](const v1::Event& event, const replay::Referee& referee) {
        if (event.event() >= first_action) words[event.event()] = referee.Label(event.action());
      });
  if (!judged.ok() && !LeavesNoWords(judged.status())) return judged.status();
  for (v1::Event& event : events) {
    auto found = words.find(event.event());
    if (event.has_action() && found != words.end()) event.set_text(found->second);
  }
  return absl::OkStatus();
}

}  // namespace arbiter::games
