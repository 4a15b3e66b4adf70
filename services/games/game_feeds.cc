#include "services/games/game_feeds.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "engine/core/status_macros.h"
#include "services/games/dealt_game.h"
#include "services/games/event_words.h"
#include "services/games/game_events.h"
#include "services/replay/referee.h"

namespace arbiter::games {
namespace {

// Events read per query while a feed catches up.
constexpr int kFeedBatch = 1000;
// A watcher's `started` before the feed's first read after it arrived.
constexpr int64_t kNotStarted = -1;

}  // namespace

struct GameFeeds::Feed {
  // updates[i] is event i + 1.
  std::vector<v1::GameUpdate> updates;
  std::set<uint64_t> watchers;
  int64_t over_at = 0;  // the event that ended the game; 0 while it goes on
  // Touched only by the feeds' thread (outside the lock): the game as of
  // the last update, for the seats to act.
  std::optional<replay::Referee> referee;
  bool sealed = false;
  // Dealt games: the deal so far; the referee starts when it closes.
  std::optional<DealTracker> deal;
};

namespace {

// Starts `feed`'s referee on `created` with `seed`; none if the header is
// refused.
void StartReferee(GameFeeds::Feed& feed, const v1::GameCreated& created, uint64_t seed,
                  const engine::RulesetRegistry& registry) {
  v1::LogHeader header = created.header();
  header.set_seed(seed);
  absl::StatusOr<replay::Referee> started = replay::Referee::Start(header, registry);
  if (started.ok()) feed.referee.emplace(*std::move(started));
}

// Follows a dealt game's deal; once it closes, the seed from the secret the
// store keeps (or the revealed one) starts the referee.
void FollowDeal(store::EventStore& store, const std::string& game_id, const v1::Event& event,
                GameFeeds::Feed& feed, const engine::RulesetRegistry& registry) {
  if (!feed.deal.has_value() || !feed.deal->Add(event).ok()) {
    feed.deal.reset();
    return;
  }
  if (!event.has_deal_closed()) return;
  const Deal& deal = feed.deal->deal();
  absl::StatusOr<std::optional<std::string>> kept = store.DealerSecret(game_id);
  const std::optional<uint64_t> seed =
      DealtSeed(game_id, feed.deal->created(), deal, kept.ok() ? *kept : std::nullopt);
  if (!seed.has_value()) return;
  feed.sealed = false;
  StartReferee(feed, feed.deal->created(), *seed, registry);
}

// The update for one decoded event, advancing the feed's referee (reset
// when it cannot follow: a header it refuses, an action it cannot apply).
v1::GameUpdate UpdateFor(store::EventStore& store, const std::string& game_id, v1::Event event,
                         GameFeeds::Feed& feed, const engine::RulesetRegistry& registry) {
  std::optional<replay::Referee>& referee = feed.referee;
  v1::GameUpdate update;
  if (event.has_game_created()) {
    const v1::GameCreated& created = event.game_created();
    feed.sealed = !created.seed_commitment().empty();
    if (IsDealt(created)) {
      feed.deal.emplace(game_id);
      (void)feed.deal->Add(event);
    } else if (!feed.sealed) {
      StartReferee(feed, created, created.header().seed(), registry);
    }
  } else if (event.has_seat_value() || event.has_deal_closed()) {
    FollowDeal(store, game_id, event, feed, registry);
  } else if (event.has_action() && referee.has_value()) {
    // The words from the position before the action, with the same replay.
    if (!referee->violation().has_value()) event.set_text(referee->Label(event.action()));
    absl::StatusOr<std::optional<engine::Violation>> applied =
        referee->Apply(event.action(), event.event());
    if (!applied.ok()) referee.reset();
  }
  if (!event.has_action()) event.set_text(EventSentence(event));
  update.set_game_over(event.has_game_finished() || event.has_game_voided());
  update.set_seed_sealed(feed.sealed);
  const bool playing = referee.has_value() && !update.game_over() &&
                       referee->verdict() == replay::Verdict::kUnfinished &&
                       !referee->state().IsTerminal();
  if (playing) {
    for (engine::Seat seat : referee->state().SeatsToAct()) {
      update.add_players_to_act(referee->PlayerAt(seat));
    }
  }
  *update.mutable_event() = std::move(event);
  return update;
}

}  // namespace

GameFeeds::GameFeeds(store::EventStore& store, const engine::RulesetRegistry& registry,
                     FeedLimits limits)
    : store_(store), registry_(registry), limits_(limits), thread_([this] { Run(); }) {}

GameFeeds::~GameFeeds() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  thread_.join();
}

absl::StatusOr<uint64_t> GameFeeds::Watch(const std::string& game_id, int64_t from_event,
                                          std::shared_ptr<FeedWatcher> watcher) {
  absl::MutexLock lock(&mu_);
  if (static_cast<int>(watching_.size()) >= limits_.max_watchers) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "this server already keeps ", limits_.max_watchers,
        " watchers (arbiterd --max-watchers); try again later or another server"));
  }
  std::shared_ptr<Feed>& feed = feeds_[game_id];
  const bool fresh = feed == nullptr;
  if (fresh) {
    feed = std::make_shared<Feed>();
    dirty_.push_back(game_id);
  }
  const uint64_t id = next_id_++;
  feed->watchers.insert(id);
  const int64_t started =
      fresh ? kNotStarted : std::max<int64_t>(from_event, static_cast<int64_t>(feed->updates.size()));
  watching_[id] = Watching{game_id, std::move(watcher), from_event, started};
  return id;
}

void GameFeeds::Unwatch(uint64_t id) {
  std::shared_ptr<FeedWatcher> release;  // destroyed after the lock
  absl::MutexLock lock(&mu_);
  release = RemoveLocked(id);
}

std::shared_ptr<FeedWatcher> GameFeeds::RemoveLocked(uint64_t id) {
  auto it = watching_.find(id);
  if (it == watching_.end()) return nullptr;
  std::shared_ptr<FeedWatcher> watcher = std::move(it->second.watcher);
  auto feed = feeds_.find(it->second.game_id);
  if (feed != feeds_.end()) {
    feed->second->watchers.erase(id);
    if (feed->second->watchers.empty()) feeds_.erase(feed);
  }
  watching_.erase(it);
  return watcher;
}

FeedNext GameFeeds::Next(uint64_t id, int64_t after) {
  absl::MutexLock lock(&mu_);
  FeedNext next;
  auto it = watching_.find(id);
  if (it == watching_.end()) return next;
  it->second.cursor = after;
  auto feed = feeds_.find(it->second.game_id);
  if (feed == feeds_.end()) return next;
  const std::vector<v1::GameUpdate>& updates = feed->second->updates;
  if (after >= 0 && after < static_cast<int64_t>(updates.size())) next.update = updates[after];
  next.past_end = feed->second->over_at > 0 && after >= feed->second->over_at;
  return next;
}

FeedStats GameFeeds::Stats() {
  absl::MutexLock lock(&mu_);
  FeedStats stats;
  stats.watchers = static_cast<int>(watching_.size());
  stats.feeds = static_cast<int>(feeds_.size());
  for (const auto& [game_id, feed] : feeds_) {
    stats.updates += static_cast<int64_t>(feed->updates.size());
  }
  return stats;
}

void GameFeeds::OnStored(int64_t /*through_position*/,
                         const std::vector<std::pair<std::string, int64_t>>& games, bool restart) {
  absl::MutexLock lock(&mu_);
  if (restart) {
    for (const auto& [game_id, feed] : feeds_) dirty_.push_back(game_id);
    return;
  }
  for (const auto& [game_id, position] : games) {
    if (feeds_.count(game_id) > 0) dirty_.push_back(game_id);
  }
}

void GameFeeds::Run() {
  std::vector<std::string> retry;
  while (true) {
    std::vector<std::string> games;
    {
      absl::MutexLock lock(&mu_);
      auto ready = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        return stopping_ || !dirty_.empty();
      };
      // Unreadable feeds are tried again each second.
      mu_.AwaitWithTimeout(absl::Condition(&ready), retry.empty() ? absl::Hours(1) : absl::Seconds(1));
      if (stopping_) return;
      games.swap(dirty_);
    }
    games.insert(games.end(), retry.begin(), retry.end());
    retry.clear();
    std::sort(games.begin(), games.end());
    games.erase(std::unique(games.begin(), games.end()), games.end());
    for (const std::string& game_id : games) {
      Calls calls;
      if (absl::IsUnavailable(Refresh(game_id, calls))) retry.push_back(game_id);
      for (auto& [watcher, why] : calls.drop) watcher->Drop(why);
      for (const std::shared_ptr<FeedWatcher>& watcher : calls.wake) watcher->Wake();
    }
  }
}

absl::Status GameFeeds::Refresh(const std::string& game_id, Calls& calls) {
  std::shared_ptr<Feed> feed;
  int64_t last = 0;
  {
    absl::MutexLock lock(&mu_);
    auto it = feeds_.find(game_id);
    if (it == feeds_.end()) return absl::OkStatus();
    feed = it->second;
    last = static_cast<int64_t>(feed->updates.size());
  }
  std::vector<v1::GameUpdate> fresh;
  absl::Status status;
  while (status.ok()) {
    absl::StatusOr<std::vector<store::StoredEvent>> events =
        store_.ReadGameEvents(game_id, last + static_cast<int64_t>(fresh.size()), kFeedBatch);
    if (!events.ok()) {
      status = events.status();
      break;
    }
    for (const store::StoredEvent& stored : *events) {
      absl::StatusOr<v1::Event> decoded = DecodeEvent(stored);
      if (!decoded.ok()) {
        status = decoded.status();
        break;
      }
      fresh.push_back(UpdateFor(store_, game_id, *std::move(decoded), *feed, registry_));
    }
    if (static_cast<int>(events->size()) < kFeedBatch) break;
  }
  absl::MutexLock lock(&mu_);
  auto it = feeds_.find(game_id);
  if (it == feeds_.end() || it->second != feed) return absl::OkStatus();  // nobody watches now
  if (absl::IsUnavailable(status)) {
    Publish(game_id, *feed, std::move(fresh), absl::OkStatus(), calls);
    return status;
  }
  Publish(game_id, *feed, std::move(fresh), status, calls);
  return status;
}

void GameFeeds::Publish(const std::string& game_id, Feed& feed,
                        std::vector<v1::GameUpdate> fresh, const absl::Status& failed,
                        Calls& calls) {
  const bool grew = !fresh.empty();
  for (v1::GameUpdate& update : fresh) {
    if (update.game_over() && feed.over_at == 0) feed.over_at = update.event().event();
    feed.updates.push_back(std::move(update));
  }
  const int64_t size = static_cast<int64_t>(feed.updates.size());
  const std::vector<uint64_t> ids(feed.watchers.begin(), feed.watchers.end());
  for (uint64_t id : ids) {
    Watching& watching = watching_.at(id);
    const bool starting = watching.started == kNotStarted;
    if (starting) watching.started = std::max(size, watching.cursor);
    const int64_t behind = size - std::max(watching.cursor, watching.started);
    absl::Status why = failed;
    if (why.ok() && behind > limits_.max_lag) {
      why = absl::ResourceExhaustedError(absl::StrCat(
          "this watcher fell ", behind, " events behind game \"", game_id,
          "\" (arbiterd --watch-max-lag is ", limits_.max_lag,
          "); watch again from event ", watching.cursor));
    }
    if (why.ok()) {
      if (grew || starting) calls.wake.push_back(watching.watcher);
    } else {
      calls.drop.emplace_back(RemoveLocked(id), why);  // may erase the feed: not used after
    }
  }
}

}  // namespace arbiter::games
