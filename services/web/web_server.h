// WebServer: the website arbiterd serves on its HTTP port (docs/web.md).
// Pages are static files compiled into the binary whose scripts read the
// JSON endpoints of api_routes.h; those call the gRPC services in-process
// with a public-role token, so the site shows exactly what the public role
// may read. A visitor who signs in (an auditor, a player with a seat token)
// holds one of their own tokens in the cookie kSignInCookie; pages and
// endpoints then call with that token, and its role's rules apply instead
// (a token the server does not accept is 401). The table page (/play/ID)
// writes a signed-in player's moves (POST, write_guard.h) and follows the
// game through a live feed (live_feeds.h).
//
// Limits: requests are GET or HEAD, or POST to a write route (405
// otherwise), their bodies at most
// `max_body_bytes` (413), their targets at most kMaxTargetBytes
// (414), and each client address gets a token bucket of `rate` requests per
// second with `burst` at once (429 with Retry-After beyond; the health
// paths of health_routes.h are exempt). Every answer carries a
// Content-Security-Policy that allows this site only.
// Start and Stop from one thread; requests are served on `threads` threads.
#ifndef ARBITER_SERVICES_WEB_WEB_SERVER_H_
#define ARBITER_SERVICES_WEB_WEB_SERVER_H_

#include <grpcpp/channel.h>

#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "services/web/health_routes.h"

namespace httplib {
class Server;
struct Request;
struct Response;
}

namespace arbiter::web {

inline constexpr std::size_t kMaxTargetBytes = 2048;
// The cookie that holds a signed-in visitor's token.
inline constexpr char kSignInCookie[] = "arbiter_token";

struct WebOptions {
  // host:port; port 0 picks a free port (see WebServer::port()).
  std::string listen = "127.0.0.1:8080";
  int threads = 8;
  double rate = 50;   // requests per second and client address; <= 0: no limit
  double burst = 100;
  // Largest request body (arbiterd passes the gRPC server's limit for small
  // requests, services/server/request_limits.h).
  int64_t max_body_bytes = 64 << 10;
  // Live feeds open at once (each holds a serving thread of its own, beside
  // `threads`), and from one client address.
  int live_feeds = 128;
  int live_feeds_per_address = 16;
  // How long one feed stays open before the browser is made to ask again
  // (so a page that went away holds its thread at most this long).
  int live_feed_hold_ms = 25'000;
};

class RateLimiter;
class ApiCaller;
class LiveFeeds;

class WebServer {
 public:
  // Binds and starts serving. `channel` reaches the gRPC services (the
  // server's in-process channel); `public_token` is a public-role token it
  // accepts; `health` answers /readyz and /metrics (health_routes.h; /healthz
  // is always served). InvalidArgument for a malformed address, Unavailable
  // if it cannot be bound.
  static absl::StatusOr<std::unique_ptr<WebServer>> Start(const WebOptions& options,
                                                          std::shared_ptr<grpc::Channel> channel,
                                                          const std::string& public_token,
                                                          HealthHooks health = {});
  ~WebServer();

  int port() const { return port_; }
  // Stops taking requests and waits for the serving thread.
  void Stop();

 private:
  // A page: its static file, the API path whose answer says whether its
  // resource exists (null: always), and its query parameters.
  struct PageSpec {
    const char* file;
    const char* exists_api;
    std::vector<std::string> allowed;  // parameter names
    std::vector<std::string> numbers;  // those of them that are numbers
  };

  WebServer() = default;
  void Route();
  // Security headers, and the refusals every request passes first.
  void GuardEveryRequest();
  // True (and the answer set) if the request is refused: too many from its
  // address, a body or target too large, a method other than GET or HEAD.
  bool Refused(const httplib::Request& req, httplib::Response& res);
  void RoutePages();
  void RouteStaticFiles();
  void RouteApi();
  void RouteWrites();
  void RouteLiveFeed();
  void ServePage(const PageSpec& spec, const httplib::Request& req, httplib::Response& res);
  // True if the API answers `api_path` for `token`; otherwise the page's
  // error is set on `res`.
  bool ResourceExists(const std::string& api_path, const std::string& token, httplib::Response& res);

  HealthHooks health_;
  std::unique_ptr<httplib::Server> http_;
  std::unique_ptr<RateLimiter> limiter_;
  std::unique_ptr<ApiCaller> api_;
  std::unique_ptr<LiveFeeds> live_;
  std::thread thread_;
  int port_ = 0;
  int64_t max_body_bytes_ = 0;
};

}  // namespace arbiter::web

#endif  // ARBITER_SERVICES_WEB_WEB_SERVER_H_
