// Reads from standbys with read-your-writes, as the RPC layer sees them
// (docs/replication.md, "Reads from standbys"). Each RPC is served one of
// three ways, chosen at its handler (Serve's `Route`):
//
//   kStandbyRead  a read that touches only replicated tables and writes
//                 nothing: with a read database (--read-database) its body
//                 runs in a store::pg::StandbyReadScope, waiting for the
//                 request's `arbiter-read-after` WAL position, if any;
//   kWrite        a write: once its body succeeded (committed), and only
//                 with a read database, the answer carries the headers
//                 `arbiter-read-after` (the primary's WAL position) and
//                 `arbiter-position` (the store's head position);
//   kPrimary      everything else (token administration, leagues, whose
//                 projections are UNLOGGED and so absent on standbys): as
//                 before.
//
// Authentication always reads the primary, before any scope is opened.
// The headers carry positions only: no game, player, token or host.
// Thread-safe.
#ifndef ARBITER_SERVICES_SERVER_READ_ROUTING_H_
#define ARBITER_SERVICES_SERVER_READ_ROUTING_H_

#include <grpcpp/grpcpp.h>

#include <cstdint>
#include <optional>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "services/store/pg/standby_reads.h"

namespace arbiter::server {

// Request and answer metadata (gRPC headers; lower case as gRPC sends them).
inline constexpr char kReadAfterHeader[] = "arbiter-read-after";
inline constexpr char kPositionHeader[] = "arbiter-position";
inline constexpr char kAfterPositionHeader[] = "arbiter-after-position";
inline constexpr char kProjectedPositionHeader[] = "arbiter-projected-position";

enum class Route { kPrimary, kStandbyRead, kWrite };

class ReadRouting {
 public:
  // `standby` (owned by the caller; null: no read database) and `wait`, the
  // bound of a wait for a projector (standby waits have their own, in
  // StandbyReadOptions).
  explicit ReadRouting(store::pg::StandbyReads* standby = nullptr,
                       absl::Duration wait = absl::Milliseconds(200))
      : standby_(standby), wait_(wait) {}

  store::pg::StandbyReads* standby() const { return standby_; }
  absl::Duration wait() const { return wait_; }

  // The request's `arbiter-read-after`, if it carries one. InvalidArgument
  // naming the header and the expected form if it is malformed (checked
  // with or without a read database, so a client's mistake shows at once).
  static absl::StatusOr<std::optional<uint64_t>> ReadAfterOf(const grpc::ServerContextBase& context);
  // The request's `arbiter-after-position`, if any: a store position, a
  // whole number >= 0. InvalidArgument otherwise.
  static absl::StatusOr<std::optional<int64_t>> AfterPositionOf(const grpc::ServerContextBase& context);

  // After a write's commit: adds kReadAfterHeader and kPositionHeader to the
  // answer's initial metadata. Nothing without a read database; logs and
  // adds nothing if the primary cannot tell (the write itself stands).
  void AnswerWrite(grpc::ServerContextBase* context) const;

 private:
  store::pg::StandbyReads* const standby_;
  const absl::Duration wait_;
};

// Runs `run` (returning absl::Status) as `route` says, with `routing` (null:
// as kPrimary).
template <typename Run>
absl::Status RunRouted(const ReadRouting* routing, Route route, grpc::ServerContextBase* context,
                       Run run) {
  if (routing == nullptr || route == Route::kPrimary) return run();
  if (route == Route::kWrite) {
    absl::Status status = run();
    if (status.ok()) routing->AnswerWrite(context);
    return status;
  }
  absl::StatusOr<std::optional<uint64_t>> after = ReadRouting::ReadAfterOf(*context);
  if (!after.ok()) return after.status();
  if (routing->standby() == nullptr) return run();
  store::pg::StandbyReadScope scope(*routing->standby(), *after);
  return run();
}

}  // namespace arbiter::server

#endif  // ARBITER_SERVICES_SERVER_READ_ROUTING_H_
