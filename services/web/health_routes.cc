#include "services/web/health_routes.h"

#include <httplib.h>

#include "absl/strings/str_cat.h"

namespace arbiter::web {
namespace {

constexpr char kText[] = "text/plain; charset=utf-8";

void Answer(httplib::Response& res, int status, const std::string& body, const char* type) {
  res.status = status;
  res.set_header("Cache-Control", "no-store");
  res.set_content(body, type);
}

}  // namespace

bool IsHealthPath(const std::string& path) {
  return path == "/healthz" || path == "/readyz" || path == "/metrics";
}

void RouteHealth(httplib::Server& http, const HealthHooks& hooks) {
  http.Get("/healthz", [](const httplib::Request&, httplib::Response& res) {
    Answer(res, 200, "ok\n", kText);
  });
  http.Get("/readyz", [ready = hooks.ready](const httplib::Request&, httplib::Response& res) {
    if (!ready) return Answer(res, 404, "not found\n", kText);
    const ReadyAnswer answer = ready();
    if (answer.ready) return Answer(res, 200, "ready\n", kText);
    Answer(res, 503, absl::StrCat(answer.reason, "\n"), kText);
  });
  http.Get("/metrics", [metrics = hooks.metrics, type = hooks.metrics_content_type](
                           const httplib::Request&, httplib::Response& res) {
    if (!metrics) return Answer(res, 404, "not found\n", kText);
    Answer(res, 200, metrics(), type.c_str());
  });
}

}  // namespace arbiter::web
