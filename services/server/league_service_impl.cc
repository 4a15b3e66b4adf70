#include "services/server/league_service_impl.h"

#include "engine/core/status_macros.h"
#include "services/common/page.h"
#include "services/common/resource_names.h"
#include "services/common/proto_time.h"

#include <algorithm>
#include <optional>

#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "engine/core/sha256.h"
#include "google/protobuf/util/time_util.h"
#include "services/league/league_settings.h"
#include "services/server/rpc_common.h"

namespace arbiter::server {
namespace {


absl::Status CheckRequest(const std::string& request_id) {
  if (request_id.empty() || request_id.size() > 200) {
    return common::FieldError("request_id", "request_id is required: 1-200 bytes, unique per request");
  }
  return absl::OkStatus();
}

// Admins anywhere; organisers for the leagues in their scope.
absl::Status RequireManage(const access::Caller& caller, const std::string& league_id) {
  if (caller.role == store::Role::kAdmin) return absl::OkStatus();
  if (caller.role == store::Role::kOrganiser) {
    for (const std::string& league : caller.leagues) {
      if (league == league_id) return absl::OkStatus();
    }
  }
  return absl::PermissionDeniedError(absl::StrCat(
      "this token may not manage league \"", league_id,
      "\" (admins, and organisers whose token names the league, only)"));
}

v1::LeaderboardRow ToRow(int64_t rank, const league::RatingRow& row) {
  v1::LeaderboardRow out;
  out.set_rank(rank);
  out.set_player(row.player);
  out.set_display_rating(row.display);
  out.set_mu(row.rating.rating.mu);
  out.set_sigma(row.rating.rating.sigma);
  out.set_volatility(row.rating.rating.volatility);
  out.set_games(row.rating.games);
  *out.mutable_last_played() = common::TimestampOf(row.rating.last_played);
  out.set_last_game(absl::StrCat("games/", row.rating.last_game));
  out.set_provisional(row.provisional);
  out.set_virtual_opponent(row.rating.is_virtual);
  return out;
}

// The stream's request id for a client's request: the same client request
// is the same stream request (a retry); another caller's is another one.
std::string StreamRequestId(const char* kind, const access::Caller& caller, const std::string& request_id) {
  return absl::StrCat("league-", kind, "-",
                      engine::Sha256Hex(absl::StrCat(caller.principal.size(), ":", caller.principal,
                                                     request_id)));
}

absl::StatusOr<std::string> LeagueIdOf(const std::string& name, const char* field) {
  absl::StatusOr<std::string> id = common::ParseName(common::IdKind::kLeague, name, field);
  if (!id.ok()) return common::WithFieldViolation(id.status(), field, "not a league name");
  return id;
}

}  // namespace

absl::StatusOr<v1::LeagueSettings> LeagueServiceImpl::ReadSettings(const std::string& league_id) {
  absl::StatusOr<std::vector<store::StreamEvent>> log =
      streams_.ReadStream(common::NameOf(common::IdKind::kLeague, league_id), 0, 10'000);
  if (!log.ok()) {
    if (absl::IsNotFound(log.status())) {
      return absl::NotFoundError(absl::StrCat("league \"", league_id, "\" does not exist"));
    }
    return log.status();
  }
  return league::SettingsOf(*log);
}

absl::StatusOr<v1::League> LeagueServiceImpl::ReadLeague(const std::string& league_id) {
  ARBITER_ASSIGN_OR_RETURN(v1::LeagueSettings settings, ReadSettings(league_id));
  ARBITER_ASSIGN_OR_RETURN(store::StreamRecord stream, streams_.GetStream(common::NameOf(common::IdKind::kLeague, league_id)));
  v1::League out;
  out.set_name(stream.stream_id);
  *out.mutable_settings() = std::move(settings);
  out.set_creator(stream.created_by);
  *out.mutable_create_time() = common::TimestampOf(stream.created_at);
  out.set_last_event(stream.last_sequence);
  out.set_last_event_hash(stream.last_hash);
  ARBITER_ASSIGN_OR_RETURN(std::optional<league::LeagueProjection> projection, projections_.Projection(league_id));
  if (projection.has_value() && (projection)->settings_sequence == stream.last_sequence) {
    out.set_rated_games((projection)->rated_games);
    out.set_projected_position(projector_.position());
  }
  out.set_projector_lag_events(projector_.lag());
  out.set_projector_lag_seconds(projector_.lag_seconds());
  return out;
}

absl::Status LeagueServiceImpl::CheckSeason(const std::string& league_id,
                                            const std::string& season) {
  // Reads the league's settings only: this runs on every leaderboard read.
  ARBITER_ASSIGN_OR_RETURN(v1::LeagueSettings settings, ReadSettings(league_id));
  if (season.empty()) return absl::OkStatus();
  for (const v1::Season& s : settings.seasons()) {
    if (s.id() == season) return absl::OkStatus();
  }
  return absl::NotFoundError(
      absl::StrCat("league \"", league_id, "\" has no season \"", season.substr(0, 80), "\""));
}

grpc::Status LeagueServiceImpl::CreateLeague(grpc::ServerContext* context,
                                             const v1::CreateLeagueRequest* request,
                                             v1::League* response) {
  return Serve(context, auth_, reads_, Route::kWrite, "CreateLeague", common::NameOf(common::IdKind::kLeague, request->league_id()),
               request->request_id(), [&](const access::Caller& caller) -> absl::Status {
                 ARBITER_RETURN_IF_ERROR(CheckRequest(request->request_id()));
                 if (!common::IsValidId(common::IdKind::kLeague, request->league_id())) {
                   return common::FieldError("league_id",
                                     "league_id must be 1-63 characters of A-Z a-z 0-9 _ . -");
                 }
                 ARBITER_RETURN_IF_ERROR(RequireManage(caller, request->league_id()));
                 absl::StatusOr<engine::league::LeagueConfig> config =
                     league::ConfigFromSettings(request->settings());
                 if (!config.ok()) {
                   const std::string message(config.status().message());
                   return common::WithFieldViolation(config.status(), message.substr(0, message.find(':')),
                                             message);
                 }
                 v1::LeagueCreated created;
                 *created.mutable_settings() = request->settings();
                 store::StreamAppendRequest append;
                 append.stream_id = common::NameOf(common::IdKind::kLeague, request->league_id());
                 append.kind = league::kLeagueKind;
                 append.expected_sequence = 0;
                 append.request_id = StreamRequestId("create", caller, request->request_id());
                 append.recorded_by = caller.principal;
                 append.type = league::kTypeLeagueCreated;
                 created.SerializeToString(&append.payload);
                 absl::StatusOr<store::StreamEvent> event = streams_.Append(append);
                 if (!event.ok()) {
                   if (absl::IsAlreadyExists(event.status())) {
                     return absl::AlreadyExistsError(absl::StrCat(
                         "league \"", request->league_id(), "\" already exists"));
                   }
                   return event.status();
                 }
                 ARBITER_ASSIGN_OR_RETURN(v1::League league, ReadLeague(request->league_id()));
                 *response = std::move(league);
                 return absl::OkStatus();
               });
}

grpc::Status LeagueServiceImpl::UpdateLeague(grpc::ServerContext* context,
                                             const v1::UpdateLeagueRequest* request,
                                             v1::League* response) {
  return Serve(context, auth_, reads_, Route::kWrite, "UpdateLeague", request->name(), request->request_id(),
               [&](const access::Caller& caller) -> absl::Status {
                 ARBITER_ASSIGN_OR_RETURN(std::string league_id, LeagueIdOf(request->name(), "name"));
                 ARBITER_RETURN_IF_ERROR(CheckRequest(request->request_id()));
                 ARBITER_RETURN_IF_ERROR(RequireManage(caller, league_id));
                 if (request->expected_last_event() < 1) {
                   return common::FieldError("expected_last_event",
                                     "expected_last_event is required: the league's last event "
                                     "as you saw it");
                 }
                 absl::StatusOr<engine::league::LeagueConfig> config =
                     league::ConfigFromSettings(request->settings());
                 if (!config.ok()) {
                   const std::string message(config.status().message());
                   return common::WithFieldViolation(config.status(), message.substr(0, message.find(':')),
                                             message);
                 }
                 if (absl::StatusOr<v1::League> existing = ReadLeague(league_id); !existing.ok()) {
                   return existing.status();
                 }
                 v1::LeagueSettingsChanged changed;
                 *changed.mutable_settings() = request->settings();
                 store::StreamAppendRequest append;
                 append.stream_id = common::NameOf(common::IdKind::kLeague, league_id);
                 append.expected_sequence = request->expected_last_event();
                 append.request_id = StreamRequestId("update", caller, request->request_id());
                 append.recorded_by = caller.principal;
                 append.type = league::kTypeLeagueSettingsChanged;
                 changed.SerializeToString(&append.payload);
                 ARBITER_ASSIGN_OR_RETURN(store::StreamEvent event, streams_.Append(append));
                 // The new settings apply to every game: rebuild now, so the
                 // answer's ratings are those of the new settings.
                 ARBITER_ASSIGN_OR_RETURN(league::RebuildSummary rebuilt, projector_.Rebuild(league_id));
                 ARBITER_ASSIGN_OR_RETURN(v1::League league, ReadLeague(league_id));
                 *response = std::move(league);
                 return absl::OkStatus();
               });
}

absl::Status LeagueServiceImpl::AwaitProjection(grpc::ServerContext* context) {
  ARBITER_ASSIGN_OR_RETURN(const std::optional<int64_t> after,
                           ReadRouting::AfterPositionOf(*context));
  if (after.has_value()) {
    const absl::Time deadline =
        absl::Now() + (reads_ != nullptr ? reads_->wait() : absl::Milliseconds(200));
    while (projector_.position() < *after && absl::Now() < deadline) {
      absl::SleepFor(absl::Milliseconds(2));
    }
  }
  // Read before the rows, which are then at least this far.
  context->AddInitialMetadata(kProjectedPositionHeader, absl::StrCat(projector_.position()));
  return absl::OkStatus();
}

grpc::Status LeagueServiceImpl::GetLeague(grpc::ServerContext* context,
                                          const v1::GetLeagueRequest* request,
                                          v1::League* response) {
  return Serve(context, auth_, "GetLeague", request->name(), "",
               [&](const access::Caller&) -> absl::Status {
                 ARBITER_RETURN_IF_ERROR(AwaitProjection(context));
                 ARBITER_ASSIGN_OR_RETURN(std::string league_id, LeagueIdOf(request->name(), "name"));
                 ARBITER_ASSIGN_OR_RETURN(v1::League league, ReadLeague(league_id));
                 *response = std::move(league);
                 return absl::OkStatus();
               });
}

grpc::Status LeagueServiceImpl::ListLeagues(grpc::ServerContext* context,
                                            const v1::ListLeaguesRequest* request,
                                            v1::ListLeaguesResponse* response) {
  return Serve(context, auth_, "ListLeagues", "", "", [&](const access::Caller&) -> absl::Status {
    ARBITER_ASSIGN_OR_RETURN(int size, common::PageSizeOf(request->page_size(), 100));
    std::string after;
    if (!request->page_token().empty()) {
      absl::StatusOr<std::string> id = common::ParseName(common::IdKind::kLeague, request->page_token(), "page_token");
      if (!id.ok()) {
        return common::FieldError("page_token", "page_token: not a token from a previous page");
      }
      after = request->page_token();
    }
    // One more than the page tells whether another page follows; the store
    // reads at most 1,000, so a page of 1,000 that fills up gets a token
    // (whose page may then be empty).
    const int fetch = std::min(size + 1, 1000);
    ARBITER_ASSIGN_OR_RETURN(std::vector<store::StreamRecord> streams,
                             streams_.ListStreams(league::kLeagueKind, after, fetch));
    for (int i = 0; i < static_cast<int>(streams.size()); ++i) {
      if (i == size) {
        response->set_next_page_token(response->leagues().rbegin()->name());
        break;
      }
      const std::string id = common::IdOf(common::IdKind::kLeague, streams[i].stream_id);
      ARBITER_ASSIGN_OR_RETURN(v1::League league, ReadLeague(id));
      *response->add_leagues() = std::move(league);
    }
    if (fetch == size && static_cast<int>(streams.size()) == fetch) {
      response->set_next_page_token(response->leagues().rbegin()->name());
    }
    return absl::OkStatus();
  });
}

grpc::Status LeagueServiceImpl::GetLeaderboard(grpc::ServerContext* context,
                                               const v1::GetLeaderboardRequest* request,
                                               v1::Leaderboard* response) {
  return Serve(context, auth_, "GetLeaderboard", request->league(), "",
               [&](const access::Caller&) -> absl::Status {
                 ARBITER_RETURN_IF_ERROR(AwaitProjection(context));
                 ARBITER_ASSIGN_OR_RETURN(std::string league_id, LeagueIdOf(request->league(), "league"));
                 ARBITER_ASSIGN_OR_RETURN(int size, common::PageSizeOf(request->page_size(), 50));
                 ARBITER_RETURN_IF_ERROR(CheckSeason(league_id, request->season()));
                 absl::StatusOr<league::LeaderboardPage> page = projections_.Leaderboard(
                     league_id, request->season(), size, request->page_token());
                 if (!page.ok()) {
                   if (absl::IsInvalidArgument(page.status())) {
                     return common::WithFieldViolation(page.status(), "page_token",
                                               std::string(page.status().message()));
                   }
                   return page.status();
                 }
                 response->set_league(request->league());
                 response->set_season(request->season());
                 for (const auto& [rank, row] : page->rows) *response->add_rows() = ToRow(rank, row);
                 response->set_next_page_token(page->next_page_token);
                 response->set_total_players(page->total_players);
                 response->set_projected_position(projector_.position());
                 return absl::OkStatus();
               });
}

grpc::Status LeagueServiceImpl::GetPlayerRating(grpc::ServerContext* context,
                                                const v1::GetPlayerRatingRequest* request,
                                                v1::LeaderboardRow* response) {
  return Serve(context, auth_, "GetPlayerRating", request->league(), "",
               [&](const access::Caller&) -> absl::Status {
                 ARBITER_RETURN_IF_ERROR(AwaitProjection(context));
                 ARBITER_ASSIGN_OR_RETURN(std::string league_id, LeagueIdOf(request->league(), "league"));
                 ARBITER_RETURN_IF_ERROR(CheckSeason(league_id, request->season()));
                 ARBITER_ASSIGN_OR_RETURN(std::optional<league::RatingRow> row, projections_.Player(league_id, request->season(), request->player()));
                 if (!row.has_value()) {
                   return absl::NotFoundError(absl::StrCat(
                       "player \"", request->player().substr(0, 80), "\" has no rated game in league \"",
                       league_id, "\"", request->season().empty() ? "" : " this season"));
                 }
                 *response = ToRow(0, *row);
                 return absl::OkStatus();
               });
}

grpc::Status LeagueServiceImpl::GetRatingHistory(grpc::ServerContext* context,
                                                 const v1::GetRatingHistoryRequest* request,
                                                 v1::RatingHistory* response) {
  return Serve(context, auth_, "GetRatingHistory", request->league(), "",
               [&](const access::Caller&) -> absl::Status {
                 ARBITER_RETURN_IF_ERROR(AwaitProjection(context));
                 ARBITER_ASSIGN_OR_RETURN(std::string league_id, LeagueIdOf(request->league(), "league"));
                 ARBITER_ASSIGN_OR_RETURN(int size, common::PageSizeOf(request->page_size(), 100));
                 int64_t after = 0;
                 if (!request->page_token().empty() &&
                     (!absl::SimpleAtoi(request->page_token(), &after) || after < 1)) {
                   return common::FieldError("page_token", "page_token: not a token from a previous page");
                 }
                 ARBITER_RETURN_IF_ERROR(CheckSeason(league_id, request->season()));
                 ARBITER_ASSIGN_OR_RETURN(std::vector<league::HistoryRow> points, projections_.History(league_id, request->season(), request->player(), after, size + 1));
                 if (points.empty() && after == 0) {
                   return absl::NotFoundError(absl::StrCat(
                       "player \"", request->player().substr(0, 80), "\" has no rated game in league \"",
                       league_id, "\""));
                 }
                 response->set_league(request->league());
                 response->set_season(request->season());
                 response->set_player(request->player());
                 for (int i = 0; i < static_cast<int>(points.size()); ++i) {
                   if (i == size) {
                     response->set_next_page_token(absl::StrCat(points[i - 1].point.games));
                     break;
                   }
                   const league::HistoryRow& h = points[i];
                   v1::RatingPoint* point = response->add_points();
                   point->set_game(absl::StrCat("games/", h.point.game_id));
                   point->set_position(h.point.position);
                   *point->mutable_time() = common::TimestampOf(h.point.time);
                   point->set_display_rating(h.display);
                   point->set_mu(h.point.rating.mu);
                   point->set_sigma(h.point.rating.sigma);
                   point->set_volatility(h.point.rating.volatility);
                   point->set_games(h.point.games);
                   point->set_place(h.point.place);
                 }
                 return absl::OkStatus();
               });
}

grpc::Status LeagueServiceImpl::RebuildLeague(grpc::ServerContext* context,
                                              const v1::RebuildLeagueRequest* request,
                                              v1::RebuildLeagueResponse* response) {
  return Serve(context, auth_, "RebuildLeague", request->name(), "",
               [&](const access::Caller& caller) -> absl::Status {
                 ARBITER_ASSIGN_OR_RETURN(std::string league_id, LeagueIdOf(request->name(), "name"));
                 ARBITER_RETURN_IF_ERROR(RequireManage(caller, league_id));
                 if (absl::StatusOr<v1::League> league = ReadLeague(league_id); !league.ok()) {
                   return league.status();
                 }
                 ARBITER_ASSIGN_OR_RETURN(league::RebuildSummary summary, projector_.Rebuild(league_id));
                 response->set_rated_games(summary.rated_games);
                 response->set_players(summary.players);
                 response->set_projected_position(summary.position);
                 response->set_digest(summary.digest);
                 return absl::OkStatus();
               });
}

}  // namespace arbiter::server
