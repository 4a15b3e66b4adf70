// arbiterd's command line: every flag, its default and its meaning, in one
// place, filled into one Flags value. Not thread-safe (main's thread only).
#ifndef ARBITER_SERVICES_ARBITERD_FLAGS_H_
#define ARBITER_SERVICES_ARBITERD_FLAGS_H_

#include <CLI/CLI.hpp>
#include <string>

#include "services/arbiterd/database.h"
#include "services/server/server.h"
#include "services/web/web_server.h"

namespace arbiter::arbiterd {

struct Flags {
  DatabaseOptions database;
  server::ServerOptions server;
  web::WebOptions web;
  int grace_seconds = 30;
  // After SIGTERM, the process ends anyway once this many seconds have
  // passed (0: it waits however long stopping takes). More than
  // grace_seconds.
  int stop_timeout_seconds = 60;
  std::string log_level = "info";
  // The transparency log's signing key (empty: <data dir>/transparency.key)
  // and its name in every checkpoint.
  std::string transparency_key;
  std::string log_origin = "arbiter.local/log";
  double checkpoint_seconds = 10;
  double reveal_sweep_seconds = 60;  // 0: no sweeper
  // The leases of the singletons (projector, transparency builder, reveal
  // sweeper): time to live and renewal period (docs/replication.md).
  double lease_seconds = 10;
  double lease_renew_seconds = 3;
  bool no_table_json = false;
};

// Declares every flag of arbiterd on `app`, each writing into `flags`.
void AddFlags(CLI::App& app, Flags& flags);

// What follows from the parsed flags (limits derived from others, defaults
// that depend on the data directory).
void Complete(Flags& flags);

}  // namespace arbiter::arbiterd

#endif  // ARBITER_SERVICES_ARBITERD_FLAGS_H_
