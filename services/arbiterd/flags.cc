#include "services/arbiterd/flags.h"

#include <cstdint>

#include "services/server/request_limits.h"

namespace arbiter::arbiterd {
namespace {

// The transparency log, the reveal sweeper and the website.
void AddBackgroundAndWebFlags(CLI::App& app, Flags& flags) {
  app.add_option("--transparency-key", flags.transparency_key,
                 "Ed25519 key (PEM) that signs the transparency log's checkpoints; created on "
                 "first start (default: <data dir>/transparency.key; the verifier key is written "
                 "beside it as .pub). Every arbiterd on one database needs the same key file: "
                 "the database's log is bound to the first server's key and origin");
  app.add_option("--log-origin", flags.log_origin,
                 "Name of the transparency log, written in every checkpoint; the same for every "
                 "arbiterd on one database (docs/transparency.md)")
      ->capture_default_str();
  app.add_option("--checkpoint-interval", flags.checkpoint_seconds,
                 "Seconds between signed checkpoints while the log grows")
      ->capture_default_str()
      ->check(CLI::Range(0.1, 86400.0));
  app.add_option("--reveal-sweep-seconds", flags.reveal_sweep_seconds,
                 "Seconds between sweeps that void sealed games whose seed was not revealed by "
                 "their deadline (0: off)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 86400.0));
  app.add_option("--lease-seconds", flags.lease_seconds,
                 "Time to live of the leases under which one server at a time runs the league "
                 "projector, the transparency log's builder and the reveal sweeper: another "
                 "server takes over within about this long after the holder dies")
      ->capture_default_str()
      ->check(CLI::Range(0.2, 3600.0));
  app.add_option("--lease-renew-seconds", flags.lease_renew_seconds,
                 "Seconds between renewals of a lease held (less than --lease-seconds)")
      ->capture_default_str()
      ->check(CLI::Range(0.05, 3600.0));
  app.add_option("--http-listen", flags.web.listen,
                 "Address of the read-only website (host:port; empty: no website)")
      ->capture_default_str();
  app.add_option("--http-threads", flags.web.threads, "Threads serving web requests")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  app.add_option("--http-live-feeds", flags.web.live_feeds,
                 "Live feeds of games the website keeps open at once (each holds a thread)")
      ->capture_default_str()
      ->check(CLI::Range(0, 10000));
  app.add_option("--http-live-feeds-per-address", flags.web.live_feeds_per_address,
                 "Live feeds one client address may keep open")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000));
  app.add_option("--http-rate", flags.web.rate,
                 "Web requests per second per client address, on average (0: no limit)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1e9));
  app.add_option("--http-burst", flags.web.burst,
                 "Web requests a client address may make at once")
      ->capture_default_str()
      ->check(CLI::Range(1.0, 1e9));
}

// Where the data lives: the database, its connections, the read databases.
void AddDatabaseFlags(CLI::App& app, Flags& flags) {
  app.add_option("--data-dir", flags.database.data_dir,
                 "Directory of the embedded PostgreSQL and of admin.token")
      ->capture_default_str();
  app.add_option("--database", flags.database.url,
                 "PostgreSQL connection string or URL (default: the embedded cluster)")
      ->envname("ARBITER_DATABASE_URL");
  app.add_option("--db-connections", flags.database.max_connections,
                 "Connections to PostgreSQL at most, shared by the stores, token look-ups and "
                 "the transparency log (the store's follower has one more of its own); further "
                 "calls wait for one")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  app.add_option("--read-database", flags.database.read_urls,
                 "A read database: a PostgreSQL connection string or URL, typically the hot "
                 "standbys with target_session_attrs=prefer-standby. Read-only calls may be "
                 "served by it; a read that carries a write's arbiter-read-after waits for it to "
                 "replay that far (docs/replication.md, \"Reads from standbys\"). Repeat it to "
                 "spread reads over several; none: every call reads the primary");
  app.add_option("--read-wait-ms", flags.database.read_wait_ms,
                 "How long a read carrying arbiter-read-after waits for a read database to "
                 "replay it before it reads the primary; also the bound of a league read's "
                 "wait for arbiter-after-position")
      ->capture_default_str()
      ->check(CLI::Range(0, 60'000));
  app.add_option("--read-max-lag-ms", flags.database.read_max_lag_ms,
                 "How far behind its primary a read database may be for a read without "
                 "arbiter-read-after: one cut off from its primary, or whose last replayed "
                 "commit is older than this while it has WAL to replay, sends the read to the "
                 "primary (one more round trip per such read); 0: no bound")
      ->capture_default_str()
      ->check(CLI::Range(0, 3'600'000));
}

}  // namespace

void AddFlags(CLI::App& app, Flags& flags) {
  AddDatabaseFlags(app, flags);
  app.add_option("--listen", flags.server.listen, "Address to listen on (host:port)")
      ->capture_default_str();
  app.add_option("--tls-cert", flags.server.tls_cert_file, "TLS certificate chain (PEM)")
      ->check(CLI::ExistingFile);
  app.add_option("--tls-key", flags.server.tls_key_file, "TLS private key (PEM)")
      ->check(CLI::ExistingFile);
  app.add_flag("--insecure", flags.server.insecure,
               "Allow plaintext on a non-loopback --listen address (only behind a proxy that "
               "terminates TLS: tokens would otherwise cross the network in clear)");
  app.add_option("--max-message-bytes", flags.server.max_message_bytes,
                 "Largest request or answer, in bytes")
      ->capture_default_str()
      ->check(CLI::Range(1024, 1 << 30));
  app.add_option("--memory-quota-bytes", flags.server.memory_quota_bytes,
                 "Memory gRPC may use for calls in flight (a grpc::ResourceQuota)")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{64} << 20, int64_t{1} << 40));
  app.add_option("--max-threads", flags.server.max_threads,
                 "Threads serving calls at most; further calls are refused (RESOURCE_EXHAUSTED)")
      ->capture_default_str()
      ->check(CLI::Range(8, 100'000));
  app.add_option("--max-watchers", flags.server.watch.max_watchers,
                 "WatchGame streams kept at most; further ones are refused (RESOURCE_EXHAUSTED)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1'000'000));
  app.add_option("--max-append-streams", flags.server.append_streams.max_streams,
                 "StreamAppendActions streams kept open at most; further ones are refused "
                 "(RESOURCE_EXHAUSTED)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1'000'000));
  app.add_option("--stream-append-threads", flags.server.append_streams.threads,
                 "StreamAppendActions appends run at once (threads waiting for their commits)")
      ->capture_default_str()
      ->check(CLI::Range(1, 4096));
  app.add_option("--watch-max-lag", flags.server.watch.max_lag,
                 "Events a WatchGame stream may fall behind the newest before it is cut off")
      ->capture_default_str()
      ->check(CLI::Range(1, 1'000'000));
  app.add_option("--max-events-per-game", flags.server.limits.max_events_per_game,
                 "Most events one game may hold")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{2}, int64_t{100'000'000}));
  app.add_flag("--keep-json-copies", flags.database.keep_json_copies,
               "Keep a readable JSON copy of every event in the database (events.payload_json), "
               "for auditors who read it with SQL; without it the payload bytes are the only "
               "copy and arbiter export or the website shows them readably");
  app.add_flag("--no-json-copy-for-tournament-tables", flags.no_table_json,
               "With --keep-json-copies, still keep none for tournament tables' games");
  app.add_option("--shutdown-grace", flags.grace_seconds,
                 "Seconds calls in flight get to finish on SIGTERM")
      ->capture_default_str();
  app.add_option("--stop-timeout", flags.stop_timeout_seconds,
                 "Seconds after SIGTERM when arbiterd exits (status 3) even if calls or "
                 "background work still wait on a database that does not answer, such as "
                 "commits waiting for a synchronous standby that no longer follows a fenced "
                 "old primary; their writes are answered to a retry by request id. More than "
                 "--shutdown-grace; 0: wait however long it takes")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app.add_option("--log-level", flags.log_level, "trace, debug, info, warn, error")
      ->capture_default_str();
  AddBackgroundAndWebFlags(app, flags);
}

void Complete(Flags& flags) {
  flags.server.limits.max_log_bytes = flags.server.max_message_bytes;
  flags.server.limits.json_copy_for_tournament_games = !flags.no_table_json;
  flags.web.max_body_bytes = server::kSmallRequestBytes;
  flags.server.read_wait_ms = flags.database.read_wait_ms;
  if (flags.transparency_key.empty()) {
    flags.transparency_key = flags.database.data_dir + "/transparency.key";
  }
}

}  // namespace arbiter::arbiterd
