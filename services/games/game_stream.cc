#include "services/games/game_stream.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "services/games/chained_game.h"
#include "services/games/game_events.h"
#include "services/store/event_hash.h"

namespace arbiter::games {
namespace {

constexpr int64_t kCancelEvery = 512;

// The events of an opened game in order, through event `through`: first
// the batch read with the row, then game.batch at a time. Holds one batch.
class EventCursor {
 public:
  EventCursor(store::EventStore& store, const OpenedGame& game, int64_t through)
      : store_(store),
        game_id_(game.row.game_id),
        through_(through),
        batch_(&game.first_events),
        batch_size_(game.batch),
        more_(static_cast<int>(game.first_events.size()) == game.batch) {}

  // The next event, or nullptr after the last one.
  absl::StatusOr<const store::StoredEvent*> Next() {
    while (true) {
      if (index_ < batch_->size()) {
        const store::StoredEvent& event = (*batch_)[index_++];
        if (event.sequence > through_) return nullptr;
        after_ = event.sequence;
        return &event;
      }
      if (!more_ || after_ >= through_) return nullptr;
      absl::StatusOr<std::vector<store::StoredEvent>> next =
          store_.ReadGameEvents(game_id_, after_, batch_size_);
      if (!next.ok()) return next.status();
      owned_ = *std::move(next);
      batch_ = &owned_;
      index_ = 0;
      more_ = static_cast<int>(owned_.size()) == batch_size_;
    }
  }

 private:
  store::EventStore& store_;
  const std::string game_id_;
  const int64_t through_;
  const std::vector<store::StoredEvent>* batch_;
  std::vector<store::StoredEvent> owned_;
  std::size_t index_ = 0;
  const int batch_size_;
  bool more_;
  int64_t after_ = 0;
};

// Decodes a game's events in order, with the checks of game_reader.cc's
// DecodeAll: event 1 and only event 1 is the creation; at most one
// seed_revealed, which opens event 1's commitment.
class EventDecoder {
 public:
  absl::StatusOr<v1::Event> Decode(const store::StoredEvent& stored) {
    absl::StatusOr<v1::Event> event = DecodeEvent(stored);
    if (!event.ok()) return event.status();
    const bool first = !seen_first_;
    if (first != (event->type() == kTypeGameCreated)) {
      return absl::DataLossError(absl::StrCat("event ", stored.sequence, " of game \"",
                                              stored.game_id, "\" is a ", event->type(),
                                              first ? ", not the game's creation"
                                                    : " after the game's creation"));
    }
    if (first) {
      seen_first_ = true;
      created_ = event->game_created();
    }
    if (event->has_seed_revealed()) {
      if (seen_reveal_) {
        return absl::DataLossError(absl::StrCat("event ", stored.sequence, " of game \"",
                                                stored.game_id, "\" reveals a seed unexpectedly"));
      }
      if (absl::Status s = CheckReveal(stored.game_id, created_, event->seed_revealed(),
                                       stored.sequence);
          !s.ok()) {
        return s;
      }
      seen_reveal_ = true;
    }
    return event;
  }

 private:
  bool seen_first_ = false;
  bool seen_reveal_ = false;
  v1::GameCreated created_;
};

// The engine's seed, looking ahead of the stream for the game's first
// seed_revealed event when event 1 holds a commitment: nullopt while it is
// hidden; DataLoss if the reveal does not decode or does not open the
// commitment.
absl::StatusOr<std::optional<uint64_t>> SeedAhead(store::EventStore& store,
                                                  const OpenedGame& game) {
  const std::string& game_id = game.row.game_id;
  if (game.created.seed_commitment().empty()) {
    return EngineSeed(game_id, game.created, std::nullopt);
  }
  std::optional<store::StoredEvent> found;
  for (const store::StoredEvent& event : game.first_events) {
    if (event.type == kTypeSeedRevealed) {
      found = event;
      break;
    }
  }
  const int64_t read = game.first_events.empty() ? 0 : game.first_events.back().sequence;
  if (!found.has_value() && game.last.has_value() && game.last->sequence > read) {
    absl::StatusOr<std::optional<store::StoredEvent>> ahead =
        store.FindGameEvent(game_id, kTypeSeedRevealed, read, game.last->sequence);
    if (!ahead.ok()) return ahead.status();
    found = *std::move(ahead);
  }
  if (!found.has_value()) return std::optional<uint64_t>();
  absl::StatusOr<v1::Event> revealed = DecodeEvent(*found);
  if (!revealed.ok()) return revealed.status();
  if (absl::Status s =
          CheckReveal(game_id, game.created, revealed->seed_revealed(), found->sequence);
      !s.ok()) {
    return s;
  }
  return EngineSeed(game_id, game.created, revealed->seed_revealed());
}

// The referee for a game with a known seed; DataLoss naming event 1 if its
// header does not start a game.
absl::StatusOr<replay::Referee> StartReferee(const OpenedGame& game,
                                             const engine::RulesetRegistry& registry,
                                             uint64_t seed) {
  v1::LogHeader header = game.created.header();
  header.set_seed(seed);
  absl::StatusOr<replay::Referee> referee = replay::Referee::Start(header, registry);
  if (!referee.ok()) {
    return absl::DataLossError(absl::StrCat("the stored header of game \"", game.row.game_id,
                                            "\" does not start a game: ",
                                            referee.status().message()));
  }
  return referee;
}

// Applies a stored action; true once the referee has stopped (a violation).
// DataLoss if the action cannot be replayed.
absl::StatusOr<bool> ApplyStored(replay::Referee& referee, const std::string& game_id,
                                 const v1::Event& event) {
  auto judged = referee.Apply(event.action(), event.event());
  if (!judged.ok()) {
    return absl::DataLossError(absl::StrCat("stored event ", event.event(), " of game \"",
                                            game_id, "\" cannot be replayed: ",
                                            judged.status().message()));
  }
  return judged->has_value();
}

}  // namespace

absl::StatusOr<OpenedGame> OpenGame(store::EventStore& store, const std::string& game_id,
                                    int batch) {
  absl::StatusOr<store::GameHead> head = store.ReadGameHead(game_id, batch);
  if (!head.ok()) return head.status();
  OpenedGame game;
  game.batch = batch;
  game.row = std::move(head->row);
  game.record = game.row;
  game.first_events = std::move(head->first_events);
  if (head->last_event.has_value()) {
    game.last = std::move(head->last_event);
  } else if (!game.first_events.empty()) {
    game.last = game.first_events.back();
  }
  if (game.first_events.empty()) return game;
  absl::StatusOr<v1::Event> created = DecodeEvent(game.first_events.front());
  if (!created.ok()) {
    game.creation = created.status();
    return game;
  }
  if (!created->has_game_created()) {
    game.creation = absl::DataLossError(
        absl::StrCat("event 1 of game \"", game_id, "\" is not the game's creation"));
    return game;
  }
  game.created = created->game_created();
  game.record = RecordFromChain(game.row, game.created, game.first_events.front(), *game.last);
  return game;
}

absl::StatusOr<replay::Referee> JudgeStored(store::EventStore& store,
                                            const engine::RulesetRegistry& registry,
                                            const OpenedGame& game, int64_t until,
                                            const CancelCheck& cancel) {
  const std::string& game_id = game.row.game_id;
  if (!game.last.has_value()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the creation of game \"", game_id,
        "\" was interrupted; repeat the creating request with the same request_id"));
  }
  if (!game.creation.ok()) return game.creation;
  absl::StatusOr<std::optional<uint64_t>> seed = SeedAhead(store, game);
  if (!seed.ok()) return seed.status();
  if (!seed->has_value()) {
    return absl::FailedPreconditionError(
        absl::StrCat("the seed of game \"", game_id,
                     "\" is still hidden behind its commitment; reveal it with RevealSeed first"));
  }
  absl::StatusOr<replay::Referee> referee = StartReferee(game, registry, **seed);
  if (!referee.ok()) return referee.status();
  const int64_t through =
      until > 0 ? std::min(until, game.last->sequence) : game.last->sequence;
  EventCursor cursor(store, game, through);
  EventDecoder decoder;
  while (true) {
    absl::StatusOr<const store::StoredEvent*> stored = cursor.Next();
    if (!stored.ok()) return stored.status();
    if (*stored == nullptr) break;
    absl::StatusOr<v1::Event> event = decoder.Decode(**stored);
    if (!event.ok()) return event.status();
    if (!event->has_action()) continue;
    if (event->event() % kCancelEvery == 0) {
      if (absl::Status status = cancel(); !status.ok()) return status;
    }
    absl::StatusOr<bool> stopped = ApplyStored(*referee, game_id, *event);
    if (!stopped.ok()) return stopped.status();
    if (*stopped) break;
  }
  return referee;
}

namespace {

// The first result event of `results` (a game's, in order) whose row in
// game_results differs from it, as (sequence, problem): a league's rebuild
// rates the rows (migration 0018), so a row edited in the database, or
// missing, is a game its leagues would not rate as its log says.
absl::StatusOr<std::optional<std::pair<int64_t, std::string>>> CheckResultRows(
    store::EventStore& store, const std::vector<store::StoredEvent>& results) {
  if (results.empty()) return std::nullopt;
  std::vector<int64_t> positions;
  for (const store::StoredEvent& e : results) positions.push_back(e.position);
  absl::StatusOr<std::vector<store::ResultEvent>> rows = store.ReadResultRows(positions);
  if (!rows.ok()) return rows.status();
  for (const store::StoredEvent& e : results) {
    auto row = std::find_if(rows->begin(), rows->end(), [&](const store::ResultEvent& r) {
      return r.event.position == e.position;
    });
    const std::string where = absl::StrCat("the result row of event ", e.sequence,
                                           " (game_results, position ", e.position, ")");
    std::string problem;
    if (row == rows->end()) {
      problem = absl::StrCat("event ", e.sequence, " ends the game but game_results has no row at ",
                             "its position ", e.position, ": no league rates it");
    } else if (row->event.game_id != e.game_id || row->event.sequence != e.sequence) {
      problem = absl::StrCat(where, " names event ", row->event.sequence, " of game \"",
                             row->event.game_id, "\"");
    } else if (row->kind != (e.type == store::kGameVoidedType ? store::GameStatus::kVoided
                                                              : store::GameStatus::kFinished)) {
      problem = absl::StrCat(where, " says the game was ", store::GameStatusName(row->kind));
    } else if (row->event.payload != e.payload) {
      problem = absl::StrCat(where, " holds another payload than the event: a league's ",
                             "rebuild would rate the row");
    } else if (row->event.recorded_at != e.recorded_at) {
      problem = absl::StrCat(where, " gives another time than the event");
    } else {
      continue;
    }
    return std::make_optional(std::make_pair(e.sequence, problem));
  }
  return std::nullopt;
}

}  // namespace

absl::StatusOr<v1::VerifyGameResponse> VerifyOpenedGame(store::EventStore& store,
                                                        const engine::RulesetRegistry& registry,
                                                        const OpenedGame& game,
                                                        const CancelCheck& cancel) {
  const std::string& game_id = game.row.game_id;
  v1::VerifyGameResponse out;
  struct Failure {
    int64_t event = 0;
    std::string problem;
  };
  auto fail = [&out](const Failure& failure) {
    out.set_intact(false);
    out.set_first_bad_event(failure.event);
    out.set_problem(failure.problem);
    return out;
  };
  // A reveal that does not decode or open the commitment is found again in
  // order by the decoder below; until then there is nothing to replay.
  std::optional<uint64_t> seed;
  if (game.last.has_value() && game.creation.ok()) {
    absl::StatusOr<std::optional<uint64_t>> ahead = SeedAhead(store, game);
    if (!ahead.ok() && !absl::IsDataLoss(ahead.status())) return ahead.status();
    if (ahead.ok()) seed = *ahead;
  }
  std::optional<replay::Referee> referee;
  bool replay_stopped = !seed.has_value();
  std::optional<Failure> chain_failure, decode_failure, replay_failure;

  std::vector<store::StoredEvent> results;  // the chain's result events (a few at most)
  EventCursor cursor(store, game, game.last.has_value() ? game.last->sequence : 0);
  EventDecoder decoder;
  std::string prev = store::GenesisHash();
  int64_t count = 0;
  while (true) {
    absl::StatusOr<const store::StoredEvent*> next = cursor.Next();
    if (!next.ok()) return next.status();
    if (*next == nullptr) break;
    const store::StoredEvent& e = **next;
    const int64_t number = ++count;
    if (number % kCancelEvery == 0) {
      if (absl::Status status = cancel(); !status.ok()) return status;
    }
    if (chain_failure.has_value()) continue;  // only counted from here on
    if (e.sequence != number) {
      chain_failure = Failure{number, absl::StrCat("event ", number, " is missing (found ",
                                                   e.sequence, ")")};
      continue;
    }
    if (e.prev_hash != prev) {
      chain_failure = Failure{
          number,
          absl::StrCat("event ", number, " does not point at the hash of the event before it")};
      continue;
    }
    if (store::EventHash(e.prev_hash, e.sequence, e.game_id, e.event_id, e.type, e.payload) !=
        e.hash) {
      chain_failure = Failure{
          number,
          absl::StrCat("event ", number,
                       " does not match its hash: its stored bytes were changed")};
      continue;
    }
    prev = e.hash;
    if (e.type == store::kGameFinishedType || e.type == store::kGameVoidedType) results.push_back(e);
    if (decode_failure.has_value()) continue;
    absl::StatusOr<v1::Event> event = decoder.Decode(e);
    if (!event.ok()) {
      decode_failure = Failure{number, std::string(event.status().message())};
      continue;
    }
    if (replay_stopped) continue;
    if (number == 1) {
      absl::StatusOr<replay::Referee> started = StartReferee(game, registry, *seed);
      if (!started.ok()) {
        replay_failure = Failure{1, std::string(started.status().message())};
        replay_stopped = true;
        continue;
      }
      referee.emplace(*std::move(started));
      continue;
    }
    if (!event->has_action()) continue;
    absl::StatusOr<bool> stopped = ApplyStored(*referee, game_id, *event);
    if (!stopped.ok()) {
      replay_failure = Failure{number, std::string(stopped.status().message())};
      replay_stopped = true;
    } else if (*stopped) {
      replay_stopped = true;
    }
  }

  out.set_events(count);
  if (chain_failure.has_value()) return fail(*chain_failure);
  out.set_last_event_hash(count == 0 ? "" : prev);
  // The row and the last event were read in one snapshot: the event store's
  // own VerifyGame check (the recorded head against the chain), without
  // reading the game a second time.
  if (count != game.row.last_sequence) {
    return fail(Failure{game.row.last_sequence,
                        absl::StrCat("game \"", game_id, "\" records ", game.row.last_sequence,
                                     " events but ", count, " are stored")});
  }
  if ((count == 0 ? std::string() : prev) != game.row.last_hash) {
    return fail(Failure{game.row.last_sequence,
                        absl::StrCat("game \"", game_id,
                                     "\": the recorded last hash does not match the last event")});
  }
  if (count == 0) return fail(Failure{1, "the game has no events: its creation was interrupted"});
  absl::StatusOr<std::optional<std::pair<int64_t, std::string>>> rows =
      CheckResultRows(store, results);
  if (!rows.ok()) return rows.status();
  if (rows->has_value()) return fail(Failure{(*rows)->first, (*rows)->second});
  if (decode_failure.has_value()) return fail(*decode_failure);
  out.set_intact(true);
  if (seed.has_value()) {
    if (replay_failure.has_value()) return fail(*replay_failure);
    out.set_verdict(ToVerdict(referee->verdict()));
  }
  return out;
}

}  // namespace arbiter::games
