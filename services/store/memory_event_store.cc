#include "services/store/memory_event_store.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "services/store/event_hash.h"
#include "services/store/internal/store_rules.h"

namespace arbiter::store {

absl::StatusOr<GameRecord> MemoryEventStore::CreateGame(const CreateGameRequest& request) {
  if (absl::Status status = internal::ValidateCreateGame(request); !status.ok()) return status;
  const std::string digest = internal::CreateDigest(request);
  absl::MutexLock lock(&mu_);
  if (auto it = create_requests_.find(request.request_id); it != create_requests_.end()) {
    const Game& game = games_.at(it->second);
    if (game.create_digest != digest) return internal::RequestIdReused(request.request_id);
    return game.record;
  }
  if (games_.count(request.game.game_id) > 0) {
    return absl::AlreadyExistsError(
        absl::StrCat("game id \"", request.game.game_id, "\" is taken"));
  }
  if (append_requests_.count(request.request_id) > 0 && !request.events.empty()) {
    return internal::RequestIdReused(request.request_id);
  }
  if (auto it = played_keys_.find(request.played_key);
      !request.played_key.empty() && it != played_keys_.end()) {
    return internal::SamePlayedGame(it->second);
  }
  for (const NewEvent& event : request.events) {
    if (auto it = event_ids_.find(event.event_id); it != event_ids_.end()) {
      return internal::EventIdTaken(event.event_id, events_[it->second - 1], event);
    }
  }
  Game game;
  game.record = request.game;
  game.record.status = GameStatus::kActive;
  game.record.created_at = absl::Now();
  game.record.last_sequence = 0;
  game.record.last_hash.clear();
  game.create_digest = digest;
  create_requests_[request.request_id] = request.game.game_id;
  if (!request.played_key.empty()) played_keys_[request.played_key] = request.game.game_id;
  auto [it, inserted] = games_.emplace(request.game.game_id, std::move(game));
  if (!request.events.empty()) {
    // Checked above: the batch is valid and every event id is free.
    if (request.game.status == GameStatus::kFinished) it->second.record.status = GameStatus::kFinished;
    AppendLocked(internal::FirstBatch(request), digest, it->second);
  }
  return it->second.record;
}

absl::StatusOr<GameRecord> MemoryEventStore::GetGame(const std::string& game_id) {
  absl::MutexLock lock(&mu_);
  auto it = games_.find(game_id);
  if (it == games_.end()) return internal::GameNotFound(game_id);
  return it->second.record;
}

absl::StatusOr<std::optional<std::string>> MemoryEventStore::FindPlayedGame(
    const std::string& played_key) {
  absl::MutexLock lock(&mu_);
  auto it = played_keys_.find(played_key);
  if (it == played_keys_.end()) return std::optional<std::string>();
  return std::optional<std::string>(it->second);
}

absl::StatusOr<std::string> MemoryEventStore::KeepDealerSecret(const std::string& game_id,
                                                               const std::string& secret) {
  absl::MutexLock lock(&mu_);
  return dealer_secrets_.emplace(game_id, secret).first->second;
}

absl::StatusOr<std::optional<std::string>> MemoryEventStore::DealerSecret(
    const std::string& game_id) {
  absl::MutexLock lock(&mu_);
  auto it = dealer_secrets_.find(game_id);
  if (it == dealer_secrets_.end()) return std::optional<std::string>();
  return std::optional<std::string>(it->second);
}

absl::StatusOr<ListGamesPage> MemoryEventStore::ListGames(const ListGamesFilter& filter,
                                                          int page_size,
                                                          const std::string& page_token) {
  absl::StatusOr<int> size = internal::NormalisePageSize(page_size);
  if (!size.ok()) return size.status();
  absl::StatusOr<std::string> after = internal::DecodePageToken(page_token);
  if (!after.ok()) return after.status();
  absl::MutexLock lock(&mu_);
  ListGamesPage page;
  auto it = page_token.empty() ? games_.begin() : games_.upper_bound(*after);
  for (; it != games_.end(); ++it) {
    const GameRecord& game = it->second.record;
    if ((!filter.game.empty() && game.game != filter.game) ||
        (filter.status != GameStatus::kUnspecified && game.status != filter.status) ||
        (!filter.league_id.empty() && game.league_id != filter.league_id) ||
        (!filter.tournament_id.empty() && game.tournament_id != filter.tournament_id) ||
        (!filter.player.empty() &&
         std::find(game.players.begin(), game.players.end(), filter.player) ==
             game.players.end())) {
      continue;
    }
    if (static_cast<int>(page.games.size()) == *size) {
      page.next_page_token = internal::EncodePageToken(page.games.back().game_id);
      break;
    }
    page.games.push_back(game);
  }
  return page;
}

absl::Status MemoryEventStore::SetGameStatus(const std::string& game_id, GameStatus status) {
  if (status != GameStatus::kFinished && status != GameStatus::kVoided) {
    return absl::InvalidArgumentError(absl::StrCat("a game can only become finished or voided, not ",
                                                   GameStatusName(status)));
  }
  absl::MutexLock lock(&mu_);
  auto it = games_.find(game_id);
  if (it == games_.end()) return internal::GameNotFound(game_id);
  GameRecord& game = it->second.record;
  if (game.status != GameStatus::kActive) {
    return absl::FailedPreconditionError(
        absl::StrCat("game \"", game_id, "\" is already ", GameStatusName(game.status)));
  }
  game.status = status;
  return absl::OkStatus();
}

absl::StatusOr<AppendResult> MemoryEventStore::Append(const AppendRequest& request) {
  if (absl::Status status = internal::ValidateAppend(request); !status.ok()) return status;
  const std::string digest = internal::AppendDigest(request);
  absl::MutexLock lock(&mu_);
  auto game_it = games_.find(request.game_id);
  if (game_it == games_.end()) return internal::GameNotFound(request.game_id);
  if (auto it = append_requests_.find(request.request_id); it != append_requests_.end()) {
    if (it->second.digest != digest) return internal::RequestIdReused(request.request_id);
    AppendResult result = it->second.result;
    result.replayed = true;
    return result;
  }
  GameRecord& game = game_it->second.record;
  if (absl::Status status = internal::CheckAppendAllowed(game, request.events); !status.ok()) {
    return status;
  }
  if (request.expected_sequence != game.last_sequence) {
    return internal::SequenceMismatch(game.game_id, request.expected_sequence, game.last_sequence);
  }
  for (const NewEvent& event : request.events) {
    if (auto it = event_ids_.find(event.event_id); it != event_ids_.end()) {
      return internal::EventIdTaken(event.event_id, events_[it->second - 1], event);
    }
  }
  return AppendLocked(request, digest, game_it->second);
}

AppendResult MemoryEventStore::AppendLocked(const AppendRequest& request, const std::string& digest,
                                            Game& stored) {
  GameRecord& game = stored.record;
  const std::string prev_start = game.last_sequence == 0 ? GenesisHash() : game.last_hash;
  const std::vector<std::string> hashes =
      internal::ChainHashes(game.game_id, prev_start, game.last_sequence + 1, request.events);
  const absl::Time now = absl::Now();
  AppendResult result;
  result.first_sequence = game.last_sequence + 1;
  result.first_position = static_cast<int64_t>(events_.size()) + 1;
  std::string prev = prev_start;
  for (size_t i = 0; i < request.events.size(); ++i) {
    const NewEvent& in = request.events[i];
    StoredEvent event;
    event.position = static_cast<int64_t>(events_.size()) + 1;
    event.game_id = game.game_id;
    event.sequence = game.last_sequence + 1;
    event.event_id = in.event_id;
    event.type = in.type;
    event.payload = in.payload;
    event.json = in.json;
    event.recorded_by = request.recorded_by;
    event.recorded_at = now;
    event.prev_hash = prev;
    event.hash = hashes[i];
    prev = event.hash;
    event_ids_[event.event_id] = event.position;
    stored.positions.push_back(event.position);
    game.last_sequence = event.sequence;
    events_.push_back(std::move(event));
  }
  game.last_hash = prev;
  result.last_sequence = game.last_sequence;
  result.last_position = static_cast<int64_t>(events_.size());
  result.last_hash = prev;
  if (const GameStatus after = internal::StatusAfterBatch(game.status, request.events);
      internal::IsStatusEventType(request.events.back().type)) {
    game.status = after;
    results_.push_back(Result{result.last_position, after, game.league_id, game.tournament_id});
  }
  append_requests_[request.request_id] = Answer{digest, result};
  return result;
}

absl::StatusOr<std::vector<StoredEvent>> MemoryEventStore::ReadGameEvents(
    const std::string& game_id, int64_t after_sequence, int limit) {
  if (absl::Status status = internal::ValidateLimit(limit); !status.ok()) return status;
  absl::MutexLock lock(&mu_);
  auto it = games_.find(game_id);
  if (it == games_.end()) return internal::GameNotFound(game_id);
  std::vector<StoredEvent> out;
  const std::vector<int64_t>& positions = it->second.positions;
  for (int64_t s = std::max<int64_t>(after_sequence, 0);
       s < static_cast<int64_t>(positions.size()) && static_cast<int>(out.size()) < limit; ++s) {
    out.push_back(events_[positions[s] - 1]);
  }
  return out;
}

absl::StatusOr<GameHead> MemoryEventStore::ReadGameHead(const std::string& game_id, int limit) {
  if (absl::Status status = internal::ValidateLimit(limit); !status.ok()) return status;
  absl::MutexLock lock(&mu_);
  auto it = games_.find(game_id);
  if (it == games_.end()) return internal::GameNotFound(game_id);
  GameHead head;
  head.row = it->second.record;
  const std::vector<int64_t>& positions = it->second.positions;
  const std::size_t first = std::min(positions.size(), static_cast<std::size_t>(limit));
  for (std::size_t i = 0; i < first; ++i) head.first_events.push_back(events_[positions[i] - 1]);
  if (positions.size() > first) head.last_event = events_[positions.back() - 1];
  return head;
}

absl::StatusOr<std::optional<StoredEvent>> MemoryEventStore::FindGameEvent(
    const std::string& game_id, const std::string& type, int64_t after_sequence,
    int64_t up_to_sequence) {
  absl::MutexLock lock(&mu_);
  auto it = games_.find(game_id);
  if (it == games_.end()) return internal::GameNotFound(game_id);
  const std::vector<int64_t>& positions = it->second.positions;
  const int64_t end = std::min(up_to_sequence, static_cast<int64_t>(positions.size()));
  for (int64_t s = std::max<int64_t>(after_sequence, 0); s < end; ++s) {
    const StoredEvent& event = events_[positions[s] - 1];
    if (event.type == type) return std::optional<StoredEvent>(event);
  }
  return std::optional<StoredEvent>();
}

absl::StatusOr<std::vector<StoredEvent>> MemoryEventStore::ReadAll(int64_t after_position,
                                                                   int limit) {
  if (absl::Status status = internal::ValidateLimit(limit); !status.ok()) return status;
  absl::MutexLock lock(&mu_);
  std::vector<StoredEvent> out;
  for (int64_t p = std::max<int64_t>(after_position, 0);
       p < static_cast<int64_t>(events_.size()) && static_cast<int>(out.size()) < limit; ++p) {
    out.push_back(events_[p]);
  }
  return out;
}

absl::StatusOr<std::vector<ResultEvent>> MemoryEventStore::ReadResults(
    int64_t after_position, int64_t up_to_position, const std::string& league_id, int limit) {
  if (absl::Status status = internal::ValidateLimit(limit); !status.ok()) return status;
  absl::MutexLock lock(&mu_);
  std::vector<ResultEvent> out;
  auto it = std::upper_bound(
      results_.begin(), results_.end(), after_position,
      [](int64_t position, const Result& result) { return position < result.position; });
  for (; it != results_.end() && static_cast<int>(out.size()) < limit; ++it) {
    if (up_to_position > 0 && it->position > up_to_position) break;
    if (!league_id.empty() && it->league_id != league_id) continue;
    ResultEvent result;
    result.event = events_[it->position - 1];
    result.kind = it->kind;
    result.league_id = it->league_id;
    result.tournament_id = it->tournament_id;
    out.push_back(std::move(result));
  }
  return out;
}

absl::StatusOr<std::vector<ResultEvent>> MemoryEventStore::ReadTournamentResults(
    const std::string& tournament_id, int64_t after_position, int limit) {
  if (absl::Status status = internal::ValidateLimit(limit); !status.ok()) return status;
  absl::MutexLock lock(&mu_);
  std::vector<ResultEvent> out;
  auto it = std::upper_bound(
      results_.begin(), results_.end(), after_position,
      [](int64_t position, const Result& result) { return position < result.position; });
  for (; it != results_.end() && static_cast<int>(out.size()) < limit; ++it) {
    if (it->tournament_id != tournament_id) continue;
    ResultEvent result;
    result.event = events_[it->position - 1];
    result.kind = it->kind;
    result.league_id = it->league_id;
    result.tournament_id = it->tournament_id;
    out.push_back(std::move(result));
  }
  return out;
}

absl::StatusOr<int64_t> MemoryEventStore::HeadPosition() {
  absl::MutexLock lock(&mu_);
  return static_cast<int64_t>(events_.size());
}

absl::StatusOr<VerifyReport> MemoryEventStore::VerifyGame(const std::string& game_id) {
  absl::MutexLock lock(&mu_);
  auto it = games_.find(game_id);
  if (it == games_.end()) return internal::GameNotFound(game_id);
  std::vector<StoredEvent> events;
  for (int64_t position : it->second.positions) events.push_back(events_[position - 1]);
  return internal::VerifyChain(it->second.record, events);
}

absl::Status MemoryEventStore::TamperForTesting(const std::string& game_id, int64_t sequence,
                                                const std::string& payload) {
  absl::MutexLock lock(&mu_);
  auto it = games_.find(game_id);
  if (it == games_.end()) return internal::GameNotFound(game_id);
  if (sequence < 1 || sequence > static_cast<int64_t>(it->second.positions.size())) {
    return absl::NotFoundError(absl::StrCat("game \"", game_id, "\" has no event ", sequence));
  }
  events_[it->second.positions[sequence - 1] - 1].payload = payload;
  return absl::OkStatus();
}

}  // namespace arbiter::store
