#include "services/common/resource_names.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace arbiter::common {
namespace {

struct KindSpec {
  const char* collection;  // "games/"; empty for ids without names
  const char* noun;        // "game"
  size_t longest;
  bool at_sign;            // '@' allowed
};

KindSpec SpecOf(IdKind kind) {
  switch (kind) {
    case IdKind::kGame:
      return {"games/", "game", 63, false};
    case IdKind::kLeague:
      return {"leagues/", "league", 63, false};
    case IdKind::kTournament:
      return {"tournaments/", "tournament", 40, false};
    case IdKind::kDispute:
      return {"disputes/", "dispute", 40, false};
    case IdKind::kPlayer:
      return {"", "player", 64, false};
    case IdKind::kPrincipal:
      return {"", "principal", 100, true};
    case IdKind::kAny:
      break;
  }
  return {"", "id", 100, true};
}

bool InAlphabet(char c, bool at_sign) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == '-' || (at_sign && c == '@');
}

}  // namespace

bool IsValidId(IdKind kind, const std::string& id) {
  const KindSpec spec = SpecOf(kind);
  if (id.empty() || id.size() > spec.longest) return false;
  for (char c : id) {
    if (!InAlphabet(c, spec.at_sign)) return false;
  }
  return true;
}

std::string IdRule(IdKind kind) {
  const KindSpec spec = SpecOf(kind);
  return absl::StrCat("1-", spec.longest, " characters of A-Z a-z 0-9 _ .", spec.at_sign ? " @" : "",
                      " -");
}

std::string NameOf(IdKind kind, const std::string& id) {
  return absl::StrCat(SpecOf(kind).collection, id);
}

std::string IdOf(IdKind kind, const std::string& name) {
  const std::string prefix = SpecOf(kind).collection;
  return absl::StartsWith(name, prefix) ? name.substr(prefix.size()) : name;
}

absl::StatusOr<std::string> ParseName(IdKind kind, const std::string& name, const std::string& field) {
  const KindSpec spec = SpecOf(kind);
  const std::string prefix = spec.collection;
  if (!prefix.empty() && absl::StartsWith(name, prefix) &&
      IsValidId(kind, name.substr(prefix.size()))) {
    return name.substr(prefix.size());
  }
  const std::string shown = name.substr(0, 80);
  if (kind == IdKind::kTournament || kind == IdKind::kDispute) {
    return absl::InvalidArgumentError(absl::StrCat(field, ": \"", shown, "\" is not a ", spec.noun,
                                                   " name (", prefix, "{id}, the id ",
                                                   IdRule(kind), ")"));
  }
  return absl::InvalidArgumentError(absl::StrCat(field, " must be \"", prefix, "{", spec.noun,
                                                 "}\" with {", spec.noun, "} ", IdRule(kind),
                                                 ", not \"", shown, "\""));
}

}  // namespace arbiter::common
