// ResultIndex: the store's index of game results, what leagues and
// tournaments read.
//
// Every "game_finished" and "game_voided" event (event_store.h:
// kGameFinishedType, kGameVoidedType) is listed by its store position with
// its game's league and tournament, fixed at the game's creation (in
// PostgreSQL the table game_results, written by a trigger in the appending
// transaction; docs/event-store.md). Positions are those of the events, so
// a reader that passes the last position it saw never skips a result, as
// with EventStore::ReadAll.
//
// Implementations: PostgresEventStore (postgres_event_store.h) and
// MemoryEventStore (memory_event_store.h), which are also the event stores
// whose results they index. Every implementation is thread-safe.
#ifndef ARBITER_SERVICES_STORE_RESULT_INDEX_H_
#define ARBITER_SERVICES_STORE_RESULT_INDEX_H_

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "services/store/event_store.h"

namespace arbiter::store {

// A "game_finished" or "game_voided" event, with the game's league and
// tournament (fixed at its creation).
struct ResultEvent {
  StoredEvent event;
  GameStatus kind = GameStatus::kUnspecified;  // kFinished or kVoided
  std::string league_id;
  std::string tournament_id;
};

class ResultIndex {
 public:
  virtual ~ResultIndex() = default;

  // Up to `limit` (1..10000) result events with after_position < position
  // <= up_to_position (0: no upper bound), in position order; only those of
  // games of `league_id` unless it is empty. The events are read whole.
  // InvalidArgument for a bad limit; Unavailable if the store is.
  virtual absl::StatusOr<std::vector<ResultEvent>> ReadResults(int64_t after_position,
                                                               int64_t up_to_position,
                                                               const std::string& league_id,
                                                               int limit) = 0;

  // Every result event of the games of league `league_id` with
  // after_position < position <= up_to_position (0: no upper bound), in
  // position order, each handed to `each`, in one read: for a league's
  // rebuild. The events carry what rating needs (position, game id,
  // sequence, payload, recorded_at; kind and league_id) and no more: event
  // id, type, JSON copy, recorded_by and hashes are left empty. `each` must
  // not call this index. The first error `each` returns ends the scan and is
  // returned; otherwise the errors of ReadResults.
  virtual absl::Status ScanLeagueResults(const std::string& league_id, int64_t after_position,
                                         int64_t up_to_position,
                                         const std::function<absl::Status(const ResultEvent&)>& each) {
    constexpr int kPage = 10'000;
    while (true) {
      absl::StatusOr<std::vector<ResultEvent>> page =
          ReadResults(after_position, up_to_position, league_id, kPage);
      if (!page.ok()) return page.status();
      for (const ResultEvent& result : *page) {
        if (absl::Status status = each(result); !status.ok()) return status;
      }
      if (static_cast<int>(page->size()) < kPage) return absl::OkStatus();
      after_position = page->back().event.position;
    }
  }

  // The result rows stored at `positions` (any order), as ScanLeagueResults
  // reads them (position, game id, sequence, payload, recorded_at; kind and
  // league_id), in position order; positions with no row are left out. For
  // VerifyGame, which compares them with the events at those positions: a
  // league's rebuild rates the rows. This default reads the events through
  // ReadResults (an index whose rows are its events). Unavailable if the
  // store is.
  virtual absl::StatusOr<std::vector<ResultEvent>> ReadResultRows(
      std::vector<int64_t> positions) {
    std::sort(positions.begin(), positions.end());
    std::vector<ResultEvent> out;
    for (int64_t position : positions) {
      if (position < 1 || (!out.empty() && out.back().event.position == position)) continue;
      absl::StatusOr<std::vector<ResultEvent>> one = ReadResults(position - 1, position, "", 1);
      if (!one.ok()) return one.status();
      for (ResultEvent& result : *one) out.push_back(std::move(result));
    }
    return out;
  }

  // Up to `limit` (1..10000) result events of the games of one tournament
  // (fixed at their creation) with position > after_position, in position
  // order: every table result of a tournament in one read. InvalidArgument
  // for a bad limit; Unavailable if the store is.
  virtual absl::StatusOr<std::vector<ResultEvent>> ReadTournamentResults(
      const std::string& tournament_id, int64_t after_position, int limit) = 0;
};

}  // namespace arbiter::store

#endif  // ARBITER_SERVICES_STORE_RESULT_INDEX_H_
