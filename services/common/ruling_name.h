// The word for a dispute ruling's kind, shared by the tournament domain's
// messages ("dispute "x" is closed: ruled void by olga") and the CLI's
// listings, so that both say the same thing.
#ifndef ARBITER_SERVICES_COMMON_RULING_NAME_H_
#define ARBITER_SERVICES_COMMON_RULING_NAME_H_

#include "arbiter/v1/events/tournament_events.pb.h"

namespace arbiter::common {

// "uphold", "void", "corrected" or "unspecified".
inline const char* RulingName(v1::RulingKind kind) {
  switch (kind) {
    case v1::RULING_KIND_UPHOLD:
      return "uphold";
    case v1::RULING_KIND_VOID:
      return "void";
    case v1::RULING_KIND_CORRECTED:
      return "corrected";
    default:
      return "unspecified";
  }
}

}  // namespace arbiter::common

#endif  // ARBITER_SERVICES_COMMON_RULING_NAME_H_
