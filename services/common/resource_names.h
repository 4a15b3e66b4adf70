// Ids and resource names, one vocabulary for the whole service.
//
// Every id is a short string of a fixed alphabet, and every resource the API
// names is "<collection>/<id>" (AIP-122): "games/g1", "leagues/north",
// "tournaments/spring", "disputes/d1". What each kind allows:
//   kind          collection     length  alphabet
//   kGame         games/         1-63    A-Z a-z 0-9 _ . -
//   kLeague       leagues/       1-63    A-Z a-z 0-9 _ . -
//   kTournament   tournaments/   1-40    A-Z a-z 0-9 _ . -   (a table's game id adds "-rN-tN")
//   kDispute      disputes/      1-40    A-Z a-z 0-9 _ . -
//   kPlayer       (none)         1-64    A-Z a-z 0-9 _ . -   (player ids in logs)
//   kPrincipal    (none)         1-100   A-Z a-z 0-9 _ . @ - (token principals and scope ids)
//   kAny          (none)         1-100   A-Z a-z 0-9 _ . @ - (any of the above: what a URL
//                                                              segment may hold before the API
//                                                              checks it as its kind)
// The error messages are part of the API's text: callers and tests read them.
// Pure functions; thread-safe.
#ifndef ARBITER_SERVICES_COMMON_RESOURCE_NAMES_H_
#define ARBITER_SERVICES_COMMON_RESOURCE_NAMES_H_

#include <string>

#include "absl/status/statusor.h"

namespace arbiter::common {

enum class IdKind { kGame, kLeague, kTournament, kDispute, kPlayer, kPrincipal, kAny };

// The regular expression (ECMAScript, no anchors) of an id of kind kAny.
inline constexpr char kAnyIdPattern[] = "[A-Za-z0-9_.@-]{1,100}";

// True if `id` is an id of `kind` (the table above).
bool IsValidId(IdKind kind, const std::string& id);

// "1-63 characters of A-Z a-z 0-9 _ . -": the rule, for messages.
std::string IdRule(IdKind kind);

// "<collection>/<id>" for the kinds with a collection; `id` unchecked.
std::string NameOf(IdKind kind, const std::string& id);

// The id in a name of `kind` that this service built itself (a table's
// game, a dispute's tournament): `name` without its collection, or `name`
// unchanged if it has none. Not a check: parse names from requests with
// ParseName.
std::string IdOf(IdKind kind, const std::string& name);

// The id in a resource name of `kind`. InvalidArgument naming `field` if
// `name` is not "<collection>/<id>" with a valid id.
absl::StatusOr<std::string> ParseName(IdKind kind, const std::string& name, const std::string& field);

}  // namespace arbiter::common

#endif  // ARBITER_SERVICES_COMMON_RESOURCE_NAMES_H_
