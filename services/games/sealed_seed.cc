#include "services/games/sealed_seed.h"

#include <openssl/rand.h>

#include "absl/strings/str_cat.h"
#include "engine/core/seed_derivation.h"
#include "services/common/proto_time.h"
#include "services/common/status_details.h"
#include "services/games/chained_game.h"

namespace arbiter::games {
namespace {

constexpr absl::Duration kDefaultRevealWithin = absl::Hours(7 * 24);
constexpr absl::Duration kMaxRevealWithin = absl::Hours(366 * 24);

}  // namespace

absl::Status Seal(const v1::CreateGameRequest& request, v1::GameCreated& created) {
  absl::Duration within = kDefaultRevealWithin;
  if (request.has_reveal_within()) {
    within = common::DurationOf(request.reveal_within());
    if (within <= absl::ZeroDuration() || within > kMaxRevealWithin) {
      return common::FieldError(
          "reveal_within", absl::StrCat("reveal_within must be more than 0 and at most 366 days, not ",
                                        absl::FormatDuration(within)));
    }
  }
  std::string random(engine::kServerRandomBytes, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(random.data()), engine::kServerRandomBytes) !=
      1) {
    return absl::InternalError("the server could not draw random bytes for the sealed seed");
  }
  created.set_server_random(random);
  *created.mutable_reveal_deadline() = common::PreciseTimestampOf(absl::Now() + within);
  return absl::OkStatus();
}

bool SameSealedCreation(v1::GameCreated stored, v1::GameCreated created) {
  for (v1::GameCreated* one : {&stored, &created}) {
    one->clear_server_random();
    one->clear_reveal_deadline();
  }
  std::string a;
  std::string b;
  stored.SerializeToString(&a);
  created.SerializeToString(&b);
  return !created.seed_commitment().empty() && a == b;
}

absl::Status CheckRevealDeadline(const std::string& game_id, const v1::GameCreated& created,
                                 absl::Time now) {
  if (!IsSealed(created) || !created.has_reveal_deadline()) return absl::OkStatus();
  const absl::Time deadline = common::TimeOf(created.reveal_deadline());
  if (now <= deadline) return absl::OkStatus();
  const std::string when = absl::FormatTime(absl::RFC3339_sec, deadline, absl::UTCTimeZone());
  return common::WithErrorInfo(
      absl::FailedPreconditionError(absl::StrCat("the seed of game \"", game_id,
                                                 "\" had to be revealed by ", when,
                                                 "; a late reveal is refused and the game is voided")),
      "REVEAL_DEADLINE_PASSED", {{"reveal_deadline", when}});
}

}  // namespace arbiter::games
