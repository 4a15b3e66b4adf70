#include "services/web/web_server.h"

#include <httplib.h>

#include <regex>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "services/access/token_format.h"
#include "services/common/resource_names.h"
#include "services/web/api_routes.h"
#include "services/web/live_feeds.h"
#include "services/web/rate_limiter.h"
#include "services/web/static_files.h"
#include "services/web/write_guard.h"

namespace arbiter::web {
namespace {

constexpr char kContentSecurityPolicy[] =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
constexpr char kJson[] = "application/json; charset=utf-8";
constexpr char kHtml[] = "text/html; charset=utf-8";

// A page for an error: fixed text only, nothing from the request.
std::string ErrorPage(int status, const std::string& what) {
  return absl::StrCat(
      "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
      "<link rel=\"icon\" href=\"data:,\"><link rel=\"stylesheet\" href=\"/static/site.css\">"
      "<title>",
      status, " ", what, "</title></head><body><header><a href=\"/\">Arbiter</a></header><main>"
      "<h1>", status, " ", what, "</h1><p><a href=\"/\">Back to the start page</a></p>"
      "</main></body></html>\n");
}

void SetError(httplib::Response& res, int status, const std::string& what) {
  res.status = status;
  res.set_content(ErrorPage(status, what), kHtml);
}

// Query parameters of a page: only `allowed` names, each at most once, each
// a whole number from 1 to 1e9 if listed in `numbers`.
bool PageQueryOk(const httplib::Request& req, const std::vector<std::string>& allowed,
                 const std::vector<std::string>& numbers) {
  for (const auto& [name, value] : req.params) {
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) return false;
    if (req.params.count(name) > 1) return false;
    if (std::find(numbers.begin(), numbers.end(), name) != numbers.end()) {
      int64_t n = 0;
      if (value.size() > 10 || !absl::SimpleAtoi(value, &n) || n < 1 || n > 1'000'000'000) {
        return false;
      }
    } else if (!common::IsValidId(common::IdKind::kAny, value)) {
      return false;
    }
  }
  return true;
}

// The signed-in visitor's token: the cookie kSignInCookie, set by the
// page's sign-in form. Empty when there is none; InvalidArgument when it
// is there but not shaped like a token.
absl::StatusOr<std::string> SignInToken(const httplib::Request& req) {
  const std::string prefix = absl::StrCat(kSignInCookie, "=");
  std::string found;
  for (absl::string_view part : absl::StrSplit(req.get_header_value("Cookie"), ';')) {
    part = absl::StripAsciiWhitespace(part);
    if (!absl::StartsWith(part, prefix)) continue;
    if (!found.empty()) return absl::InvalidArgumentError("the sign-in cookie is given twice");
    found = std::string(part.substr(prefix.size()));
    if (!access::IsWellFormedToken(found)) {
      return absl::InvalidArgumentError("the sign-in cookie does not hold a token");
    }
  }
  return found;
}

// Every request passes here (Refused): the patterns are compiled once.
bool IsWritePath(const std::string& path) {
  static const auto* patterns = [] {
    auto* compiled = new std::vector<std::regex>();
    for (const ApiRoute& route : WriteRoutes()) compiled->emplace_back(route.pattern);
    return compiled;
  }();
  for (const std::regex& pattern : *patterns) {
    if (std::regex_match(path, pattern)) return true;
  }
  return false;
}

}  // namespace

absl::StatusOr<std::unique_ptr<WebServer>> WebServer::Start(const WebOptions& options,
                                                            std::shared_ptr<grpc::Channel> channel,
                                                            const std::string& public_token,
                                                            HealthHooks health) {
  const std::size_t colon = options.listen.rfind(':');
  int port = -1;
  if (colon == std::string::npos || !absl::SimpleAtoi(options.listen.substr(colon + 1), &port) ||
      port < 0 || port > 65535) {
    return absl::InvalidArgumentError(
        absl::StrCat("--http-listen must be host:port, not \"", options.listen, "\""));
  }
  std::string host = options.listen.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  std::unique_ptr<WebServer> server(new WebServer());
  server->health_ = std::move(health);
  server->http_ = std::make_unique<httplib::Server>();
  server->limiter_ = std::make_unique<RateLimiter>(options.rate, options.burst);
  server->api_ = std::make_unique<ApiCaller>(channel, public_token);
  server->live_ = std::make_unique<LiveFeeds>(
      std::move(channel), public_token,
      LiveFeedLimits{std::max(0, options.live_feeds), std::max(1, options.live_feeds_per_address),
                     absl::Milliseconds(std::max(100, options.live_feed_hold_ms))});
  // Each live feed holds a thread while it is open; the pages keep theirs.
  const int threads = std::max(1, options.threads) + std::max(0, options.live_feeds);
  server->http_->new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  server->max_body_bytes_ = options.max_body_bytes;
  server->http_->set_payload_max_length(static_cast<std::size_t>(options.max_body_bytes));
  // Answers and live-feed messages are small writes: without TCP_NODELAY
  // each can wait for the client's delayed acknowledgement of the one
  // before (40 ms on Linux), several times per move.
  server->http_->set_tcp_nodelay(true);
  server->http_->set_read_timeout(10, 0);
  server->http_->set_write_timeout(10, 0);
  server->Route();
  if (port == 0) {
    server->port_ = server->http_->bind_to_any_port(host);
  } else if (server->http_->bind_to_port(host, port)) {
    server->port_ = port;
  }
  if (server->port_ <= 0) {
    return absl::UnavailableError(absl::StrCat("cannot listen for HTTP on ", options.listen));
  }
  httplib::Server* http = server->http_.get();
  server->thread_ = std::thread([http] { http->listen_after_bind(); });
  // httplib's stop() does nothing until the listening loop runs, and the
  // loop would then never end: a Stop right after Start (a short test, a
  // server told to stop at once) would hang. Return once it runs.
  const absl::Time deadline = absl::Now() + absl::Seconds(10);
  while (!http->is_running() && absl::Now() < deadline) absl::SleepFor(absl::Milliseconds(1));
  if (!http->is_running()) {
    return absl::UnavailableError(absl::StrCat("the HTTP server on ", options.listen,
                                               " did not start"));
  }
  return server;
}

WebServer::~WebServer() { Stop(); }

void WebServer::Stop() {
  if (live_ != nullptr) live_->CloseAll();
  if (http_ != nullptr) http_->stop();
  if (thread_.joinable()) thread_.join();
}

void WebServer::Route() {
  GuardEveryRequest();
  RouteHealth(*http_, health_);
  RoutePages();
  RouteStaticFiles();
  RouteWrites();
  RouteLiveFeed();
  RouteApi();
}

bool WebServer::Refused(const httplib::Request& req, httplib::Response& res) {
  absl::Duration wait;
  if (!IsHealthPath(req.path) && !limiter_->Allow(req.remote_addr, absl::Now(), &wait)) {
    res.set_header("Retry-After", std::to_string(std::max<int64_t>(
                                      1, absl::ToInt64Seconds(absl::Ceil(wait, absl::Seconds(1))))));
    SetError(res, 429, "Too many requests");
    return true;
  }
  // A body larger than the gRPC side takes for a small request is refused
  // before it is read.
  if (uint64_t length = 0;
      absl::SimpleAtoi(req.get_header_value("Content-Length"), &length) &&
      length > static_cast<uint64_t>(max_body_bytes_)) {
    res.set_header("Connection", "close");
    SetError(res, 413, "Request too large");
    return true;
  }
  if (req.target.size() > kMaxTargetBytes) {
    SetError(res, 414, "URI too long");
    return true;
  }
  const bool write_route = IsWritePath(req.path);
  if (write_route ? req.method != "POST" : req.method != "GET" && req.method != "HEAD") {
    res.set_header("Allow", write_route ? "POST" : "GET, HEAD");
    res.set_header("Connection", "close");  // its body, if any, is not read
    SetError(res, 405, "Method not allowed");
    return true;
  }
  return false;
}

void WebServer::GuardEveryRequest() {
  http_->set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
    res.set_header("Content-Security-Policy", kContentSecurityPolicy);
    res.set_header("X-Content-Type-Options", "nosniff");
    res.set_header("Referrer-Policy", "no-referrer");
    res.set_header("Vary", "Cookie");  // answers depend on who is signed in
    return Refused(req, res) ? httplib::Server::HandlerResponse::Handled
                             : httplib::Server::HandlerResponse::Unhandled;
  });
  http_->set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty()) return;
    const int status = res.status;
    SetError(res, status, status == 404   ? "Not found"
                          : status == 413 ? "Request too large"
                          : status == 414 ? "URI too long"
                          : status == 400 ? "Bad request"
                                          : "Error");
  });
}

bool WebServer::ResourceExists(const std::string& api_path, const std::string& token,
                               httplib::Response& res) {
  for (const ApiRoute& route : ApiRoutes()) {
    std::smatch captures;
    if (!std::regex_match(api_path, captures, std::regex(route.pattern))) continue;
    JsonAnswer answer = api_->Call(route, {captures.begin(), captures.end()}, {}, token);
    if (answer.status == 200) return true;
    SetError(res, answer.status,
             answer.status == 404   ? "Not found"
             : answer.status == 401 ? "Sign-in token not accepted (unknown, expired or "
                                      "revoked); sign out and in again"
                                    : "Error");
    return false;
  }
  return true;
}

void WebServer::ServePage(const PageSpec& spec, const httplib::Request& req,
                          httplib::Response& res) {
  if (!PageQueryOk(req, spec.allowed, spec.numbers)) {
    SetError(res, 400, "Bad request: a query parameter is unknown or malformed");
    return;
  }
  absl::StatusOr<std::string> token = SignInToken(req);
  if (!token.ok()) {
    SetError(res, 400, "Bad request: the sign-in cookie is malformed; sign out and in again");
    return;
  }
  // The page exists when its resource does, for the visitor's role.
  if (spec.exists_api != nullptr &&
      !ResourceExists(absl::StrCat(spec.exists_api, req.matches[1].str()), *token, res)) {
    return;
  }
  const StaticFile* html = FindStaticFile(spec.file);
  res.set_content(std::string(html->content), kHtml);
  res.set_header("Cache-Control", "no-cache");
}

void WebServer::RoutePages() {
  const std::string id = absl::StrCat("(", common::kAnyIdPattern, ")");
  const std::vector<std::pair<std::string, PageSpec>> pages = {
      {"/", {"index.html", nullptr, {}, {}}},
      {absl::StrCat("/games/", id), {"game.html", "/api/games/", {"event"}, {"event"}}},
      // Served for any id, so that a sign-in link (/play/ID#token=...) can
      // sign in before the page asks for a live game; it shows nothing the
      // API does not give the visitor.
      {absl::StrCat("/play/", id), {"play.html", nullptr, {}, {}}},
      {absl::StrCat("/leagues/", id), {"league.html", "/api/leagues/", {"page", "player"}, {"page"}}},
      {"/tournaments", {"tournaments.html", nullptr, {"league"}, {}}},
      {absl::StrCat("/tournaments/", id), {"tournament.html", "/api/tournaments/", {}, {}}},
  };
  for (const auto& [pattern, spec] : pages) {
    http_->Get(pattern, [this, spec = spec](const httplib::Request& req, httplib::Response& res) {
      ServePage(spec, req, res);
    });
  }
}

void WebServer::RouteStaticFiles() {
  http_->Get("/static/([A-Za-z0-9_.-]{1,100})",
             [](const httplib::Request& req, httplib::Response& res) {
               const StaticFile* file = FindStaticFile(req.matches[1].str());
               if (file == nullptr || !req.params.empty()) {
                 SetError(res, file == nullptr ? 404 : 400,
                          file == nullptr ? "Not found" : "Bad request");
                 return;
               }
               res.set_content(std::string(file->content), std::string(ContentTypeOf(file->name)));
               res.set_header("Cache-Control", "max-age=300");
             });
}

void WebServer::RouteWrites() {
  for (const ApiRoute& route : WriteRoutes()) {
    http_->Post(route.pattern, [this, &route](const httplib::Request& req, httplib::Response& res) {
      res.set_header("Cache-Control", "no-store");
      absl::StatusOr<std::string> token = SignInToken(req);
      if (!token.ok()) {
        res.status = 400;
        res.set_content(ErrorJson(400, std::string(token.status().message())), kJson);
        return;
      }
      const WriteRefusal refusal = CheckWrite({!token->empty(), req.get_header_value("Host"),
                                               req.get_header_value("Origin"),
                                               req.get_header_value("Sec-Fetch-Site"),
                                               req.get_header_value("Content-Type")});
      if (refusal.status != 0) {
        res.status = refusal.status;
        res.set_content(ErrorJson(refusal.status, refusal.message), kJson);
        return;
      }
      JsonAnswer answer =
          api_->Write(route, {req.matches.begin(), req.matches.end()}, req.body, *token);
      res.status = answer.status;
      res.set_content(std::move(answer.body), kJson);
    });
  }
}

void WebServer::RouteLiveFeed() {
  const std::string pattern = absl::StrCat("/api/games/(", common::kAnyIdPattern, ")/watch");
  http_->Get(pattern, [this](const httplib::Request& req, httplib::Response& res) {
    auto refuse = [&res](int status, const std::string& message) {
      res.set_header("Cache-Control", "no-store");
      res.status = status;
      res.set_content(ErrorJson(status, message), kJson);
    };
    absl::StatusOr<std::string> token = SignInToken(req);
    if (!token.ok()) return refuse(400, std::string(token.status().message()));
    int64_t from_event = 0;
    for (const auto& [name, value] : req.params) {
      if (name != "from_event" || req.params.count(name) > 1 ||
          !absl::SimpleAtoi(value, &from_event) || from_event < 0) {
        return refuse(400, "the live feed takes one query parameter, from_event: the number of "
                           "the last event the page has (0 for the whole game)");
      }
    }
    // EventSource asks again after a lost feed with the last id it got.
    if (const std::string last = req.get_header_value("Last-Event-ID"); !last.empty()) {
      if (!absl::SimpleAtoi(last, &from_event) || from_event < 0) {
        return refuse(400, "Last-Event-ID must be an event number");
      }
    }
    // Who may not read the game gets the same 404 as for an unknown one.
    const std::string game_id = req.matches[1].str();
    for (const ApiRoute& route : ApiRoutes()) {
      if (route.rpc != "/arbiter.v1.ArbiterService/GetGame") continue;
      JsonAnswer game = api_->Call(route, {"", game_id}, {}, *token);
      if (game.status != 200) {
        res.set_header("Cache-Control", "no-store");
        res.status = game.status;
        res.set_content(std::move(game.body), kJson);
        return;
      }
    }
    live_->Serve(game_id, from_event, *token, req.remote_addr, res);
  });
}

void WebServer::RouteApi() {
  for (const ApiRoute& route : ApiRoutes()) {
    http_->Get(route.pattern, [this, &route](const httplib::Request& req, httplib::Response& res) {
      std::vector<std::string> captures(req.matches.begin(), req.matches.end());
      std::multimap<std::string, std::string> query(req.params.begin(), req.params.end());
      absl::StatusOr<std::string> token = SignInToken(req);
      if (!token.ok()) {
        res.status = 400;
        res.set_content(ErrorJson(400, std::string(token.status().message())), kJson);
        return;
      }
      JsonAnswer answer = api_->Call(route, captures, query, *token);
      res.status = answer.status;
      res.set_content(std::move(answer.body), kJson);
      res.set_header("Cache-Control", "no-store");
    });
  }
  http_->Get("/api/.*", [](const httplib::Request&, httplib::Response& res) {
    res.status = 404;
    res.set_content(ErrorJson(404, "not found"), kJson);
  });
}

}  // namespace arbiter::web
