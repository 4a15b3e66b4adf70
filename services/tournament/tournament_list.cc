#include "services/tournament/tournament_list.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/core/status_macros.h"
#include "services/common/page.h"
#include "services/common/resource_names.h"
#include "services/common/status_details.h"
#include "services/tournament/tournament_log.h"
#include "services/tournament/tournament_reader.h"
#include "services/tournament/tournament_views.h"

namespace arbiter::tournament {
namespace {

// The streams the store lists at once.
constexpr int kStreamsPerRead = 1000;

// The stream id after which the page starts ("" for the first page).
absl::StatusOr<std::string> StartAfter(const std::string& page_token) {
  if (page_token.empty()) return std::string();
  if (!common::ParseName(common::IdKind::kTournament, page_token, "page_token").ok()) {
    return common::FieldError("page_token", "page_token: not a token from a previous page");
  }
  return page_token;
}

absl::Status CheckLeagueFilter(const std::string& league) {
  if (league.empty() || common::IsValidId(common::IdKind::kLeague, league)) {
    return absl::OkStatus();
  }
  return common::FieldError(
      "league", absl::StrCat("league must be a league id (", common::IdRule(common::IdKind::kLeague),
                             "), not \"", league, "\""));
}

// The index's entry: the tournament as GetTournament answers it, without
// its seed for anyone.
absl::StatusOr<v1::Tournament> EntryOf(store::ResultIndex& results, const TournamentLog& log) {
  ARBITER_ASSIGN_OR_RETURN(v1::Tournament entry,
                           ReadTournamentView(results, log, SeedSight::kEndedGamesOnly));
  entry.mutable_settings()->clear_seed();
  entry.set_seed_withheld(true);
  return entry;
}

}  // namespace

absl::StatusOr<v1::ListTournamentsResponse> ListTournaments(
    store::StreamStore& streams, store::ResultIndex& results,
    const v1::ListTournamentsRequest& request) {
  ARBITER_ASSIGN_OR_RETURN(const int size, common::PageSizeOf(request.page_size(), 100));
  ARBITER_ASSIGN_OR_RETURN(std::string after, StartAfter(request.page_token()));
  ARBITER_RETURN_IF_ERROR(CheckLeagueFilter(request.league()));
  v1::ListTournamentsResponse response;
  // Read one tournament past the page: a page is followed by a token only
  // when another tournament matches.
  while (true) {
    ARBITER_ASSIGN_OR_RETURN(const std::vector<store::StreamRecord> page,
                             streams.ListStreams(kTournamentKind, after, kStreamsPerRead));
    for (const store::StreamRecord& stream : page) {
      after = stream.stream_id;
      const std::string id = common::IdOf(common::IdKind::kTournament, stream.stream_id);
      ARBITER_ASSIGN_OR_RETURN(const TournamentLog log, ReadTournamentLog(streams, id));
      if (log.deleted.has_value()) continue;
      if (!request.league().empty() && log.settings.league() != request.league()) continue;
      if (response.tournaments_size() == size) {
        response.set_next_page_token(response.tournaments().rbegin()->name());
        return response;
      }
      ARBITER_ASSIGN_OR_RETURN(*response.add_tournaments(), EntryOf(results, log));
    }
    if (static_cast<int>(page.size()) < kStreamsPerRead) return response;
  }
}

}  // namespace arbiter::tournament
