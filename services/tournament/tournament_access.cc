#include "services/tournament/tournament_access.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "services/common/resource_names.h"
#include "services/common/status_details.h"

namespace arbiter::tournament {
namespace {

bool Names(const std::vector<std::string>& scope, const std::string& id) {
  return !id.empty() && std::find(scope.begin(), scope.end(), id) != scope.end();
}

bool OrganisesLeague(const access::Caller& caller, const std::string& league) {
  return caller.role == store::Role::kOrganiser && Names(caller.leagues, league);
}

// `"north"`, `"north", "south"`: the leagues a token names, quoted.
std::string Quoted(const std::vector<std::string>& ids) {
  return absl::StrJoin(ids, ", ", [](std::string* out, const std::string& id) {
    absl::StrAppend(out, "\"", id, "\"");
  });
}

// What a token's scope says of leagues, for a refusal in a league.
std::string LeaguesItNames(const access::Caller& caller) {
  if (caller.role != store::Role::kOrganiser) {
    return absl::StrCat("it is a ", store::RoleName(caller.role), " token");
  }
  if (caller.leagues.empty()) return "it names no league";
  return absl::StrCat("it names league", caller.leagues.size() == 1 ? " " : "s ",
                      Quoted(caller.leagues));
}

}  // namespace

bool NamesTournament(const access::Caller& caller, const std::string& tournament_id) {
  return caller.role == store::Role::kAdmin ||
         (caller.role == store::Role::kOrganiser && Names(caller.tournaments, tournament_id));
}

absl::Status ManageDenied(const std::string& tournament_id, const std::string& league) {
  if (league.empty()) {
    return absl::PermissionDeniedError(absl::StrCat(
        "this token may not manage tournament \"", tournament_id,
        "\" (admins, and organisers whose token names the tournament, only)"));
  }
  return absl::PermissionDeniedError(absl::StrCat(
      "this token may not manage tournament \"", tournament_id,
      "\" (admins, organisers whose token names the tournament, and organisers of its league \"",
      league, "\", only)"));
}

absl::Status RequireOrganise(const access::Caller& caller, const TournamentLog& log) {
  if (NamesTournament(caller, log.id) || OrganisesLeague(caller, log.settings.league())) {
    return absl::OkStatus();
  }
  return ManageDenied(log.id, log.settings.league());
}

absl::StatusOr<TournamentLog> ReadToOrganise(const access::Caller& caller,
                                             store::StreamStore& streams,
                                             const std::string& tournament_id) {
  absl::StatusOr<TournamentLog> log = ReadTournament(streams, tournament_id);
  if (absl::IsNotFound(log.status()) && !NamesTournament(caller, tournament_id)) {
    return ManageDenied(tournament_id, "");
  }
  if (!log.ok()) return log.status();
  if (absl::Status allowed = RequireOrganise(caller, *log); !allowed.ok()) return allowed;
  return log;
}

absl::Status RequireCreateTournament(const access::Caller& caller,
                                     const std::string& tournament_id, const std::string& league) {
  if (NamesTournament(caller, tournament_id) || OrganisesLeague(caller, league)) {
    return absl::OkStatus();
  }
  if (league.empty()) return ManageDenied(tournament_id, "");
  return absl::PermissionDeniedError(absl::StrCat(
      "this token may not create a tournament in league \"", league,
      "\" (admins, organisers of the league, and organisers whose token names the tournament, "
      "only; ",
      LeaguesItNames(caller), "); an admin can mint a token for league \"", league,
      "\": arbiter token create --role organiser --league ", league, " --principal NAME"));
}

store::StreamAppendRequest TournamentAppend(const TournamentLog& log, const access::Caller& caller,
                                            const std::string& kind, const std::string& request_id,
                                            const char* type, const google::protobuf::Message& body) {
  store::StreamAppendRequest append;
  append.stream_id = common::NameOf(common::IdKind::kTournament, log.id);
  append.expected_sequence = log.stream.last_sequence;
  append.request_id = StreamRequestId(absl::StrCat("tournament-", kind), append.stream_id,
                                      caller.principal, request_id);
  append.recorded_by = caller.principal;
  append.type = type;
  body.SerializeToString(&append.payload);
  return append;
}

absl::Status RequireMoveToLeague(const access::Caller& caller, const std::string& tournament_id,
                                 const std::string& league) {
  if (league.empty() || caller.role == store::Role::kAdmin || OrganisesLeague(caller, league)) {
    return absl::OkStatus();
  }
  return absl::PermissionDeniedError(absl::StrCat(
      "this token may not move tournament \"", tournament_id, "\" into league \"", league,
      "\" (admins and organisers of the league only; ", LeaguesItNames(caller),
      "): its tables' games are rated there"));
}

absl::Status CheckTournamentRequestId(const std::string& request_id) {
  if (request_id.empty() || request_id.size() > 200) {
    return common::FieldError("request_id", "request_id is required: 1-200 bytes, unique per request");
  }
  return absl::OkStatus();
}

}  // namespace arbiter::tournament
