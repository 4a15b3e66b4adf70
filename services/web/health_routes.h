// The website's answers for orchestrators and monitoring (docs/web.md,
// docs/replication.md, "Health and lag for orchestrators"):
//   GET /healthz   liveness: 200 "ok" whenever a serving thread answers; no
//                  database is asked, so a database outage never gets the
//                  process restarted.
//   GET /readyz    readiness: 200 "ready", or 503 with the one-line reason
//                  (health/readiness.h), as HealthHooks::ready says.
//   GET /metrics   the lag figures in Prometheus' text format, as
//                  HealthHooks::metrics writes them.
// None of them reads a cookie or a token, and none of them counts against
// the per-address rate limit (web_server.h): they cost no query of their
// own, and a probe refused with 429 would have the orchestrator restart or
// unroute a healthy server. The website knows nothing of the database:
// arbiterd passes the hooks (services/health). Thread-safe.
#ifndef ARBITER_SERVICES_WEB_HEALTH_ROUTES_H_
#define ARBITER_SERVICES_WEB_HEALTH_ROUTES_H_

#include <functional>
#include <string>

namespace httplib {
class Server;
}

namespace arbiter::web {

struct ReadyAnswer {
  bool ready = false;
  std::string reason;  // one line, for anyone; empty when ready
};

struct HealthHooks {
  std::function<ReadyAnswer()> ready;  // empty: /readyz is 404
  std::function<std::string()> metrics;  // empty: /metrics is 404
  std::string metrics_content_type = "text/plain; version=0.0.4; charset=utf-8";
};

// True for the paths above (exempt from the rate limit).
bool IsHealthPath(const std::string& path);

// Routes the paths above on `http`.
void RouteHealth(httplib::Server& http, const HealthHooks& hooks);

}  // namespace arbiter::web

#endif  // ARBITER_SERVICES_WEB_HEALTH_ROUTES_H_
