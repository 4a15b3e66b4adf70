#include "services/games/game_stream.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/core/status_macros.h"
#include "services/games/chained_game.h"
#include "services/games/dealt_game.h"
#include "services/games/game_events.h"
#include "services/games/game_views.h"
#include "services/games/official_result.h"
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
      ARBITER_ASSIGN_OR_RETURN(owned_, store_.ReadGameEvents(game_id_, after_, batch_size_));
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

// Decodes a game's events in order, with the checks of game_loader.cc's
// DecodeAll: event 1 and only event 1 is the creation; at most one
// seed_revealed, which opens event 1's commitment.
class EventDecoder {
 public:
  absl::StatusOr<v1::Event> Decode(const store::StoredEvent& stored) {
    ARBITER_ASSIGN_OR_RETURN(v1::Event event, DecodeEvent(stored));
    const bool first = !seen_first_;
    if (first != (event.type() == kTypeGameCreated)) {
      return absl::DataLossError(absl::StrCat("event ", stored.sequence, " of game \"",
                                              stored.game_id, "\" is a ", event.type(),
                                              first ? ", not the game's creation"
                                                    : " after the game's creation"));
    }
    if (first) {
      seen_first_ = true;
      created_ = event.game_created();
      deal_.emplace(stored.game_id);
    }
    if (event.has_seed_revealed()) {
      if (seen_reveal_) {
        return absl::DataLossError(absl::StrCat("event ", stored.sequence, " of game \"",
                                                stored.game_id, "\" reveals a seed unexpectedly"));
      }
      ARBITER_RETURN_IF_ERROR(
          CheckReveal(stored.game_id, created_, event.seed_revealed(), stored.sequence));
      seen_reveal_ = true;
    }
    ARBITER_RETURN_IF_ERROR(deal_->Add(event));
    return event;
  }

 private:
  bool seen_first_ = false;
  bool seen_reveal_ = false;
  v1::GameCreated created_;
  std::optional<DealTracker> deal_;  // from event 1 on
};

// The engine's seed of a dealt game: its deal read from the events after
// event 1 (seat values and the closing come before any action), its secret
// from the dealer_revealed event or, during play, from the store. nullopt
// while the deal is open; DataLoss for a deal its events break or a secret
// neither revealed nor kept.
absl::StatusOr<std::optional<uint64_t>> DealtSeedAhead(store::EventStore& store,
                                                       const OpenedGame& game) {
  const std::string& game_id = game.row.game_id;
  const int deal_events = game.created.header().players_size() + 2;
  std::vector<store::StoredEvent> opening = game.first_events;
  if (static_cast<int>(opening.size()) < deal_events && game.last.has_value() &&
      game.last->sequence > static_cast<int64_t>(opening.size())) {
    ARBITER_ASSIGN_OR_RETURN(opening, store.ReadGameEvents(game_id, 0, deal_events));
  }
  DealTracker deal(game_id);
  std::optional<store::StoredEvent> reveal;
  for (const store::StoredEvent& stored : opening) {
    if (stored.type == kTypeDealerRevealed) reveal = stored;
    ARBITER_ASSIGN_OR_RETURN(const v1::Event event, DecodeEvent(stored));
    if (event.has_action() || event.has_dealer_revealed()) break;
    ARBITER_RETURN_IF_ERROR(deal.Add(event));
  }
  if (!deal.deal().closed) return std::optional<uint64_t>();
  const int64_t read = opening.empty() ? 0 : opening.back().sequence;
  if (!reveal.has_value() && game.last.has_value() && game.last->sequence > read) {
    ARBITER_ASSIGN_OR_RETURN(
        reveal, store.FindGameEvent(game_id, kTypeDealerRevealed, read, game.last->sequence));
  }
  Deal known = deal.deal();
  std::optional<std::string> kept;
  if (reveal.has_value()) {
    ARBITER_ASSIGN_OR_RETURN(const v1::Event revealed, DecodeEvent(*reveal));
    ARBITER_RETURN_IF_ERROR(deal.Add(revealed));
    known = deal.deal();
  } else {
    ARBITER_ASSIGN_OR_RETURN(kept, store.DealerSecret(game_id));
    if (!kept.has_value()) {
      return absl::DataLossError(absl::StrCat("the dealer's secret of game \"", game_id,
                                              "\" is neither revealed nor kept by the store"));
    }
  }
  return DealtSeed(game_id, game.created, known, kept);
}

// The engine's seed, looking ahead of the stream for the game's first
// seed_revealed event when event 1 holds a commitment: nullopt while it is
// hidden; DataLoss if the reveal does not decode or does not open the
// commitment.
absl::StatusOr<std::optional<uint64_t>> SeedAhead(store::EventStore& store,
                                                  const OpenedGame& game) {
  const std::string& game_id = game.row.game_id;
  if (IsDealt(game.created)) return DealtSeedAhead(store, game);
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
    ARBITER_ASSIGN_OR_RETURN(
        found, store.FindGameEvent(game_id, kTypeSeedRevealed, read, game.last->sequence));
  }
  if (!found.has_value()) return std::optional<uint64_t>();
  ARBITER_ASSIGN_OR_RETURN(const v1::Event revealed, DecodeEvent(*found));
  ARBITER_RETURN_IF_ERROR(
      CheckReveal(game_id, game.created, revealed.seed_revealed(), found->sequence));
  return EngineSeed(game_id, game.created, revealed.seed_revealed());
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
  ARBITER_ASSIGN_OR_RETURN(store::GameHead head, store.ReadGameHead(game_id, batch));
  OpenedGame game;
  game.batch = batch;
  game.row = std::move(head.row);
  game.record = game.row;
  game.first_events = std::move(head.first_events);
  if (head.last_event.has_value()) {
    game.last = std::move(head.last_event);
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
                                            const CancelCheck& cancel,
                                            const BeforeAction& before_action) {
  const std::string& game_id = game.row.game_id;
  if (!game.last.has_value()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the creation of game \"", game_id,
        "\" was interrupted; repeat the creating request with the same request_id"));
  }
  ARBITER_RETURN_IF_ERROR(game.creation);
  ARBITER_ASSIGN_OR_RETURN(const std::optional<uint64_t> seed, SeedAhead(store, game));
  if (!seed.has_value() && IsDealt(game.created)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the deal of game \"", game_id, "\" is still open: each player adds a value (`arbiter deal add ",
        game_id, " VALUE`) or an organiser closes it (`arbiter deal close ", game_id, "`)"));
  }
  if (!seed.has_value()) {
    return absl::FailedPreconditionError(
        absl::StrCat("the seed of game \"", game_id,
                     "\" is still hidden behind its commitment: its creator must reveal it first"));
  }
  ARBITER_ASSIGN_OR_RETURN(replay::Referee referee, StartReferee(game, registry, *seed));
  const int64_t through =
      until > 0 ? std::min(until, game.last->sequence) : game.last->sequence;
  EventCursor cursor(store, game, through);
  EventDecoder decoder;
  while (true) {
    ARBITER_ASSIGN_OR_RETURN(const store::StoredEvent* stored, cursor.Next());
    if (stored == nullptr) break;
    ARBITER_ASSIGN_OR_RETURN(const v1::Event event, decoder.Decode(*stored));
    if (!event.has_action()) continue;
    if (event.event() % kCancelEvery == 0) ARBITER_RETURN_IF_ERROR(cancel());
    if (before_action) before_action(event, referee);
    ARBITER_ASSIGN_OR_RETURN(const bool stopped, ApplyStored(referee, game_id, event));
    if (stopped) break;
  }
  return referee;
}

namespace {

// The first result event of `results` (a game's, in order) whose row in
// game_results differs from it, as (sequence, problem): a league's rebuild
// rates the rows (migration 0018), so a row edited in the database, or
// missing, is a game its leagues would not rate as its log says.
absl::StatusOr<std::optional<std::pair<int64_t, std::string>>> CheckResultRows(
    store::ResultIndex& result_index, const std::vector<store::StoredEvent>& results) {
  if (results.empty()) return std::nullopt;
  std::vector<int64_t> positions;
  for (const store::StoredEvent& e : results) positions.push_back(e.position);
  ARBITER_ASSIGN_OR_RETURN(const std::vector<store::ResultEvent> rows,
                           result_index.ReadResultRows(positions));
  for (const store::StoredEvent& e : results) {
    auto row = std::find_if(rows.begin(), rows.end(), [&](const store::ResultEvent& r) {
      return r.event.position == e.position;
    });
    const std::string where = absl::StrCat("the result row of event ", e.sequence,
                                           " (game_results, position ", e.position, ")");
    std::string problem;
    if (row == rows.end()) {
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

// The engine's seed for VerifyGame's replay; nullopt while it is hidden,
// and when the game has no events, a bad event 1 or a reveal that does not
// decode or open the commitment (the walk finds those again in order and
// reports them). Errors only from the store.
absl::StatusOr<std::optional<uint64_t>> SeedToVerify(store::EventStore& store,
                                                     const OpenedGame& game) {
  if (!game.last.has_value() || !game.creation.ok()) return std::optional<uint64_t>();
  absl::StatusOr<std::optional<uint64_t>> ahead = SeedAhead(store, game);
  if (!ahead.ok() && !absl::IsDataLoss(ahead.status())) return ahead.status();
  if (!ahead.ok()) return std::optional<uint64_t>();
  return ahead;
}

// Where and why a check of VerifyGame failed.
struct Failure {
  int64_t event = 0;
  std::string problem;
};

// VerifyGame's walk over a game's stored events, one at a time in order:
// the hash chain, decoding, and the replay, each stopping at its own first
// failure. Decoding sees only the events the chain vouched for, the replay
// only those that decoded.
class ChainWalk {
 public:
  // Replays only with a `seed`.
  ChainWalk(const engine::RulesetRegistry& registry, const OpenedGame& game,
            std::optional<uint64_t> seed)
      : registry_(registry), game_(game), seed_(seed), replay_stopped_(!seed.has_value()) {}

  // The `number`-th stored event of the game (1, 2, ...).
  void Take(const store::StoredEvent& e, int64_t number) {
    if (chain_failure_.has_value()) return;  // only counted from here on
    chain_failure_ = CheckLink(e, number);
    if (chain_failure_.has_value()) return;
    prev_ = e.hash;
    if (e.type == store::kGameFinishedType || e.type == store::kGameVoidedType) {
      results_.push_back(e);
    }
    if (decode_failure_.has_value()) return;
    absl::StatusOr<v1::Event> event = decoder_.Decode(e);
    if (!event.ok()) {
      decode_failure_ = Failure{number, std::string(event.status().message())};
      return;
    }
    if (!replay_stopped_) Replay(*event, number);
    if (event->has_game_finished()) CheckRecordedResult(event->game_finished(), number);
  }

  const std::optional<Failure>& chain_failure() const { return chain_failure_; }
  const std::optional<Failure>& decode_failure() const { return decode_failure_; }
  const std::optional<Failure>& replay_failure() const { return replay_failure_; }
  // The hash of the last event the chain vouched for.
  const std::string& last_hash() const { return prev_; }
  // The chain's result events ("game_finished", "game_voided": a few at most).
  const std::vector<store::StoredEvent>& results() const { return results_; }
  bool replayed() const { return seed_.has_value(); }
  // The replay's verdict (only when replayed() and no replay failure).
  replay::Verdict verdict() const { return referee_->verdict(); }

 private:
  // The chain's failure at the `number`-th event `e`, if any.
  std::optional<Failure> CheckLink(const store::StoredEvent& e, int64_t number) const {
    if (e.sequence != number) {
      return Failure{number, absl::StrCat("event ", number, " is missing (found ", e.sequence, ")")};
    }
    if (e.prev_hash != prev_) {
      return Failure{
          number,
          absl::StrCat("event ", number, " does not point at the hash of the event before it")};
    }
    if (store::EventHash(e.prev_hash, e.sequence, e.game_id, e.event_id, e.type, e.payload) !=
        e.hash) {
      return Failure{number, absl::StrCat("event ", number,
                                          " does not match its hash: its stored bytes were changed")};
    }
    return std::nullopt;
  }

  // The game's own result (event `number`; not a ruling's correction or a
  // score sheet) must state the verdict the replay of the events before it
  // gives: a log edited with its chain recomputed (a changed seat value, a
  // changed action) is caught here when it still replays.
  void CheckRecordedResult(const v1::GameFinished& finished, int64_t number) {
    if (checked_result_ || !referee_.has_value() || replay_failure_.has_value() ||
        !finished.correction().empty() || finished.has_reported()) {
      return;
    }
    checked_result_ = true;
    const v1::Verdict replayed = ToVerdict(referee_->verdict());
    if (finished.verdict() == replayed) return;
    replay_failure_ = Failure{
        number, absl::StrCat("event ", number, " records the verdict ",
                             VerdictWord(finished.verdict()), ", but the replay of the events "
                             "before it gives ", VerdictWord(replayed))};
    replay_stopped_ = true;
  }

  static std::string VerdictWord(v1::Verdict verdict) {
    std::string name = v1::Verdict_Name(verdict);
    if (name.rfind("VERDICT_", 0) == 0) name = name.substr(8);
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return name;
  }

  // Event 1 starts the referee; actions are applied until it stops.
  void Replay(const v1::Event& event, int64_t number) {
    if (number == 1) {
      absl::StatusOr<replay::Referee> started = StartReferee(game_, registry_, *seed_);
      if (!started.ok()) {
        replay_failure_ = Failure{1, std::string(started.status().message())};
        replay_stopped_ = true;
        return;
      }
      referee_.emplace(*std::move(started));
      return;
    }
    if (!event.has_action()) return;
    absl::StatusOr<bool> stopped = ApplyStored(*referee_, game_.row.game_id, event);
    if (!stopped.ok()) {
      replay_failure_ = Failure{number, std::string(stopped.status().message())};
      replay_stopped_ = true;
    } else if (*stopped) {
      replay_stopped_ = true;
    }
  }

  const engine::RulesetRegistry& registry_;
  const OpenedGame& game_;
  const std::optional<uint64_t> seed_;
  EventDecoder decoder_;
  std::optional<replay::Referee> referee_;
  bool replay_stopped_;
  bool checked_result_ = false;
  std::optional<Failure> chain_failure_, decode_failure_, replay_failure_;
  std::vector<store::StoredEvent> results_;
  std::string prev_ = store::GenesisHash();
};

v1::VerifyGameResponse Failed(v1::VerifyGameResponse out, const Failure& failure) {
  out.set_intact(false);
  out.set_first_bad_event(failure.event);
  out.set_problem(failure.problem);
  return out;
}

// VerifyGame's answer once `walk` has taken all `count` events of `game`:
// the first failure in order of precedence (the chain; the row's head
// against it; no events at all; the result rows; decoding; the replay), or
// intact with the replay's verdict. Errors only from the store.
absl::StatusOr<v1::VerifyGameResponse> Report(store::ResultIndex& result_index,
                                              const OpenedGame& game, const ChainWalk& walk,
                                              int64_t count) {
  const std::string& game_id = game.row.game_id;
  v1::VerifyGameResponse out;
  out.set_events(count);
  if (walk.chain_failure().has_value()) return Failed(out, *walk.chain_failure());
  const std::string last_hash = count == 0 ? std::string() : walk.last_hash();
  out.set_last_event_hash(last_hash);
  // The row and the last event were read in one snapshot: the event store's
  // own VerifyGame check (the recorded head against the chain), without
  // reading the game a second time.
  if (count != game.row.last_sequence) {
    return Failed(out, Failure{game.row.last_sequence,
                               absl::StrCat("game \"", game_id, "\" records ",
                                            game.row.last_sequence, " events but ", count,
                                            " are stored")});
  }
  if (last_hash != game.row.last_hash) {
    return Failed(out, Failure{game.row.last_sequence,
                               absl::StrCat("game \"", game_id,
                                            "\": the recorded last hash does not match the last "
                                            "event")});
  }
  if (count == 0) {
    return Failed(out, Failure{1, "the game has no events: its creation was interrupted"});
  }
  ARBITER_ASSIGN_OR_RETURN(const auto rows, CheckResultRows(result_index, walk.results()));
  if (rows.has_value()) return Failed(out, Failure{rows->first, rows->second});
  if (walk.decode_failure().has_value()) return Failed(out, *walk.decode_failure());
  out.set_intact(true);
  if (walk.replayed()) {
    if (walk.replay_failure().has_value()) return Failed(out, *walk.replay_failure());
    out.set_verdict(ToVerdict(walk.verdict()));
  }
  if (game.last.has_value()) {
    ARBITER_ASSIGN_OR_RETURN(*out.mutable_official(), OfficialResultOf(*game.last));
  }
  return out;
}

}  // namespace

absl::StatusOr<v1::VerifyGameResponse> VerifyOpenedGame(store::EventStore& store,
                                                        store::ResultIndex& result_index,
                                                        const engine::RulesetRegistry& registry,
                                                        const OpenedGame& game,
                                                        const CancelCheck& cancel) {
  ARBITER_ASSIGN_OR_RETURN(const std::optional<uint64_t> seed, SeedToVerify(store, game));
  ChainWalk walk(registry, game, seed);
  EventCursor cursor(store, game, game.last.has_value() ? game.last->sequence : 0);
  int64_t count = 0;
  while (true) {
    ARBITER_ASSIGN_OR_RETURN(const store::StoredEvent* next, cursor.Next());
    if (next == nullptr) break;
    ++count;
    if (count % kCancelEvery == 0) ARBITER_RETURN_IF_ERROR(cancel());
    walk.Take(*next, count);
  }
  return Report(result_index, game, walk, count);
}

}  // namespace arbiter::games
