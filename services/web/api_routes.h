// The JSON endpoints under /api/: each one an RPC of the gRPC API, called
// in-process with the web's public-role token or the signed-in visitor's,
// its answer written in protobuf's JSON mapping. Reads take GET and their
// query; the few writes (a player's move) take POST and the request message
// in JSON. So the JSON is the gRPC answer, byte for byte the
// message a gRPC client would get, and the public role's access rules apply
// unchanged. Thread-safe (grpc channels are).
#ifndef ARBITER_SERVICES_WEB_API_ROUTES_H_
#define ARBITER_SERVICES_WEB_API_ROUTES_H_

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>
#include <grpcpp/channel.h>
#include <grpcpp/support/status.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace arbiter::web {

// A route: the path pattern (a regex over the whole path), the RPC, the
// request fields set from the path's captures ("games/{1}": capture 1 with
// that prefix) and the query parameters taken (the request field of the
// same name).
struct ApiRoute {
  std::string pattern;
  std::string rpc;  // "/arbiter.v1.ArbiterService/GetGame"
  std::vector<std::pair<std::string, std::string>> path_fields;  // field, template
  std::vector<std::string> query_fields;
};

// Every read route /api/ serves (GET).
const std::vector<ApiRoute>& ApiRoutes();
// Every write route (POST, the request message in JSON, a signed-in visitor
// only): a move of a live game.
const std::vector<ApiRoute>& WriteRoutes();

// An HTTP answer.
struct JsonAnswer {
  int status = 200;
  std::string body;
};

class ApiCaller {
 public:
  ApiCaller(std::shared_ptr<grpc::Channel> channel, std::string token)
      : channel_(std::move(channel)), authorization_("Bearer " + std::move(token)) {}

  // Calls `route.rpc` with a request built from the path's captures and the
  // query, as the public role or, with `token` (a signed-in visitor's, well
  // formed), as that token's holder: its own role's rules apply. Malformed or
  // unknown query parameters are 400; unknown and not-visible resources 404
  // alike (NOT_FOUND, PERMISSION_DENIED and UNAUTHENTICATED look the same
  // from outside), except that a `token` the server does not accept is 401.
  JsonAnswer Call(const ApiRoute& route, const std::vector<std::string>& captures,
                  const std::multimap<std::string, std::string>& query,
                  const std::string& token = "") const;

  // Calls the write `route.rpc` as `token`'s holder (never the public
  // role) with the request in `body` (protobuf's JSON mapping; a field the
  // path gives is refused there). As Call, except that PERMISSION_DENIED is
  // 403 with the API's reason (a move for another seat), since only a
  // caller who may read the game gets it.
  JsonAnswer Write(const ApiRoute& route, const std::vector<std::string>& captures,
                   const std::string& body, const std::string& token) const;

 private:
  JsonAnswer Invoke(const ApiRoute& route, const google::protobuf::MethodDescriptor& method,
                    const std::vector<std::string>& captures, google::protobuf::Message& request,
                    const std::string& token, bool write) const;

  std::shared_ptr<grpc::Channel> channel_;
  std::string authorization_;
};

// The answer for a failed call: 401 for a signed-in token the server does
// not accept, 403 with the reason for a refused write, otherwise
// HttpStatusFor with the API's message (404s all say "not found").
JsonAnswer ErrorAnswer(const grpc::Status& status, bool signed_in, bool write);

// The HTTP status for a gRPC status code.
int HttpStatusFor(int grpc_code);

// {"error":{"code":N,"status":"...","message":"..."}}.
std::string ErrorJson(int http_status, const std::string& message);

}  // namespace arbiter::web

#endif  // ARBITER_SERVICES_WEB_API_ROUTES_H_
