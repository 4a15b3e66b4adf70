// What the website's C++ tests share: a WebServer in front of a test
// ArbiterServer's in-process channel (as arbiterd runs it), and a client.
#ifndef ARBITER_TESTS_SERVICES_WEB_WEB_TEST_SERVER_H_
#define ARBITER_TESTS_SERVICES_WEB_WEB_TEST_SERVER_H_

#include <gtest/gtest.h>
#include <httplib.h>

#include <memory>
#include <utility>

#include "services/server/server.h"
#include "services/web/web_server.h"

namespace arbiter::server::testing {

// The website of `server` with a public-role token of its own; null (and a
// test failure) if it cannot start.
inline std::unique_ptr<web::WebServer> StartWebFor(ArbiterServer& server,
                                                   const web::WebOptions& options) {
  auto token = server.AddInProcessToken(store::Role::kPublic, "web");
  EXPECT_TRUE(token.ok());
  if (!token.ok()) return nullptr;
  auto web = web::WebServer::Start(options, server.InProcessChannel(), *token);
  EXPECT_TRUE(web.ok()) << web.status();
  return web.ok() ? *std::move(web) : nullptr;
}

// A client of the website on `port`, waiting up to 30 s for an answer.
inline httplib::Client WebClient(int port) {
  httplib::Client client("127.0.0.1", port);
  client.set_read_timeout(30, 0);
  return client;
}

}  // namespace arbiter::server::testing

#endif  // ARBITER_TESTS_SERVICES_WEB_WEB_TEST_SERVER_H_
