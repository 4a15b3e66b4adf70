#include "services/games/reveal_sweep.h"

#include "services/common/proto_time.h"

#include <google/protobuf/util/time_util.h>
#include <spdlog/spdlog.h>

#include "absl/strings/str_cat.h"
#include "engine/core/status_macros.h"
#include "services/games/chained_game.h"
#include "services/games/game_events.h"
#include "services/games/game_loader.h"

namespace arbiter::games {
namespace {

constexpr int kPage = 1000;

// The deadline of a sealed game from its event 1; nullopt if not sealed.
absl::StatusOr<std::optional<absl::Time>> DeadlineOf(store::EventStore& store,
                                                     const std::string& game_id) {
  ARBITER_ASSIGN_OR_RETURN(const std::vector<store::StoredEvent> first,
                           store.ReadGameEvents(game_id, 0, 1));
  if (first.empty()) return std::optional<absl::Time>();
  v1::GameCreated created;
  if (!created.ParseFromString(first.front().payload)) {
    return absl::DataLossError(absl::StrCat("event 1 of game \"", game_id, "\" does not decode"));
  }
  if (!IsSealed(created) || !created.has_reveal_deadline()) return std::optional<absl::Time>();
  return std::optional<absl::Time>(common::TimeOf(created.reveal_deadline()));
}

absl::Status VoidIfUnrevealed(store::EventStore& store, const std::string& game_id,
                              absl::Time deadline,
                              const std::optional<store::LeaseFence>& fence) {
  ARBITER_ASSIGN_OR_RETURN(const LoadedGame game,
                           LoadGame(store, game_id, [] { return absl::OkStatus(); }));
  if (game.revealed.has_value() || game.record.status != store::GameStatus::kActive) {
    return absl::OkStatus();
  }
  v1::GameVoided voided;
  voided.set_reason(UnrevealedReason(deadline));
  voided.set_league(game.created.league());
  voided.set_tournament(game.created.tournament());
  ARBITER_ASSIGN_OR_RETURN(store::NewEvent event,
                           EncodeGameVoided(game_id, game.record.last_sequence + 1, voided));
  store::AppendRequest append;
  append.game_id = game_id;
  append.expected_sequence = game.record.last_sequence;
  append.request_id = StoreRequestId("reveal-deadline", game_id, kRefereePrincipal, "");
  append.recorded_by = kRefereePrincipal;
  append.events.push_back(std::move(event));
  append.fence = fence;
  return store.Append(append).status();
}

}  // namespace

std::string UnrevealedReason(absl::Time deadline) {
  return absl::StrCat("the seed was not revealed by its deadline, ",
                      absl::FormatTime(absl::RFC3339_sec, deadline, absl::UTCTimeZone()));
}

absl::StatusOr<std::vector<std::string>> VoidUnrevealedGames(
    store::EventStore& store, absl::Time now, const std::optional<store::LeaseFence>& fence) {
  std::vector<std::string> voided;
  store::ListGamesFilter filter;
  filter.status = store::GameStatus::kActive;
  std::string token;
  do {
    ARBITER_ASSIGN_OR_RETURN(const store::ListGamesPage page, store.ListGames(filter, kPage, token));
    for (const store::GameRecord& record : page.games) {
      if (record.seed_commitment.empty()) continue;  // a listing filter; the chain decides
      absl::StatusOr<std::optional<absl::Time>> deadline = DeadlineOf(store, record.game_id);
      absl::Status status = deadline.status();
      if (status.ok() && deadline->has_value() && **deadline < now) {
        status = VoidIfUnrevealed(store, record.game_id, **deadline, fence);
        if (store::IsLeaseLost(status)) return status;
        if (status.ok()) {
          absl::StatusOr<store::GameRecord> after = store.GetGame(record.game_id);
          if (after.ok() && after->status == store::GameStatus::kVoided) {
            voided.push_back(record.game_id);
            spdlog::info("game {}: voided, {}", record.game_id, UnrevealedReason(**deadline));
          }
        }
      }
      if (!status.ok()) {
        spdlog::warn("game {}: reveal deadline not checked: {}", record.game_id,
                     std::string(status.message()));
      }
    }
    token = page.next_page_token;
  } while (!token.empty());
  return voided;
}

void RevealSweeper::Start() {
  if (!thread_.joinable()) thread_ = std::thread([this] { Run(); });
}

void RevealSweeper::Stop() {
  {
    absl::MutexLock lock(&mu_);
    stop_ = true;
  }
  if (thread_.joinable()) thread_.join();
}

void RevealSweeper::Run() {
  std::optional<store::LeaseWatch> watch;
  if (lease_ != nullptr) watch.emplace(*lease_);
  while (true) {
    {
      absl::MutexLock lock(&mu_);
      mu_.AwaitWithTimeout(absl::Condition(&stop_), every_);
      if (stop_) return;
    }
    Sweep(watch.has_value() ? &*watch : nullptr);
  }
}

void RevealSweeper::Sweep(store::LeaseWatch* watch) {
  std::optional<store::LeaseFence> fence;
  if (watch != nullptr) {
    const store::LeaseWatch::Turn turn = watch->Next();
    if (turn.changed && turn.fence.has_value()) {
      spdlog::info("reveal sweep: holding lease {} (holder {}, token {}): sweeping",
                   kRevealSweeperLease, turn.fence->holder, turn.fence->token);
    } else if (turn.changed) {
      spdlog::log(turn.lost ? spdlog::level::warn : spdlog::level::info,
                  "reveal sweep: {} lease {} ({}): standing by", turn.lost ? "lost" : "not holding",
                  kRevealSweeperLease, lease_->Describe());
    }
    if (!turn.fence.has_value()) return;
    fence = turn.fence;
  }
  absl::StatusOr<std::vector<std::string>> voided =
      VoidUnrevealedGames(store_, absl::Now(), fence);
  if (voided.ok()) return;
  spdlog::warn("reveal sweep: {}", std::string(voided.status().message()));
  if (fence.has_value() && store::IsLeaseLost(voided.status())) lease_->Refused(*fence);
}

}  // namespace arbiter::games
